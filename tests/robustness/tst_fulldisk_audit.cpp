// The audit checkpoint on a full disk: the break-test found `gpuquota` leaving an empty
// checkpoint (343 -> 0 bytes) and exiting 0 when the disk filled up. A checkpoint is
// replaced all or nothing: the command fails with the system's reason and the previous
// checkpoint is still there, byte for byte, and still anchors the chain.
#include "core/usage/auditanchor.h"
#include "tests/robustness/fulldisk.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace gq;

namespace {

QByteArray readFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

struct Run {
    int code = -1;
    QString out;
    QString err;
};

Run runGq(const QStringList &args, const QString &checkpoint = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("GQ_AUDIT_KEY_FILE"));
    env.remove(QStringLiteral("GQ_AUDIT_CHECKPOINT"));
    if (!checkpoint.isEmpty())
        env.insert(QStringLiteral("GQ_AUDIT_CHECKPOINT"), checkpoint);
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota"), args);
    if (!p.waitForFinished(30000))
        return {};
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
               QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

QStringList budgetGrant(const QString &db, const QString &user) {
    return {QStringLiteral("boost"),       QStringLiteral("grant"),
            QStringLiteral("--db"),        db,
            QStringLiteral("--budget"),    QStringLiteral("user:") + user,
            QStringLiteral("--add-hours"), QStringLiteral("5"),
            QStringLiteral("--for"),       QStringLiteral("1h"),
            QStringLiteral("--note"),      QStringLiteral("extra hours for the rerun")};
}

} // namespace

class TestFullDiskAudit : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dbDir; // the database stays on a disk with room; the checkpoint does not
    QString db() const { return QStringLiteral("sqlite://") + m_dbDir.filePath(QStringLiteral("usage.db")); }

private slots:
    void init() { QFile::remove(m_dbDir.filePath(QStringLiteral("usage.db"))); }

    // 0 pages left: not even the lock file fits. 1 page: the lock file fits, the new
    // checkpoint does not (the case that emptied the file).
    void writeFileKeepsThePrevious_data() {
        QTest::addColumn<int>("leavePages");
        QTest::newRow("no room at all") << 0;
        QTest::newRow("room for the lock only") << 1;
    }
    void writeFileKeepsThePrevious() {
        QFETCH(int, leavePages);
        test::FullDisk disk;
        GQ_REQUIRE_FULLDISK(disk);
        const QString path = disk.path(QStringLiteral("audit.checkpoint"));
        AuditCheckpoint cp;
        cp.count = 3;
        cp.head = QString(64, QLatin1Char('a'));
        cp.source = QStringLiteral("sqlite:///var/lib/gpuquota/usage.db");
        QVERIFY(AuditCheckpoint::writeFile(path, cp));
        const QByteArray before = readFile(path);
        QVERIFY(before.size() > 200);
        QVERIFY(disk.fill(leavePages));

        cp.count = 4;
        cp.head = QString(64, QLatin1Char('b'));
        const auto r = AuditCheckpoint::writeFile(path, cp);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::Io);
        QVERIFY2(r.error().message.contains(QLatin1String("No space left on device")),
                 qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(path), qPrintable(r.error().message));
        QCOMPARE(readFile(path), before);
        QCOMPARE(AuditCheckpoint::readFile(path)->count, qint64(3));
    }

    // `gpuquota audit checkpoint --out FILE`: exit 1 with the reason, the file kept.
    void exportedCheckpointOnAFullDisk() {
        QCOMPARE(runGq(budgetGrant(db(), QStringLiteral("alice"))).code, 0);
        test::FullDisk disk;
        GQ_REQUIRE_FULLDISK(disk);
        const QString path = disk.path(QStringLiteral("audit.checkpoint"));
        const QStringList args{QStringLiteral("audit"), QStringLiteral("checkpoint"),
                               QStringLiteral("--db"),  db(),
                               QStringLiteral("--out"), path};
        Run r = runGq(args);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QByteArray before = readFile(path);
        QVERIFY(before.contains("\"count\": 2"));
        QCOMPARE(runGq(budgetGrant(db(), QStringLiteral("bob"))).code, 0); // the log moves on
        QVERIFY(disk.fill(1));

        r = runGq(args);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("No space left on device")), qPrintable(r.err));
        QCOMPARE(readFile(path), before);
    }

    // Every append replaces GQ_AUDIT_CHECKPOINT: a full disk fails the command (the
    // change is recorded, and says so), the previous checkpoint stays and still verifies.
    void appendOnAFullDisk() {
        test::FullDisk disk;
        GQ_REQUIRE_FULLDISK(disk);
        const QString path = disk.path(QStringLiteral("audit.checkpoint"));
        Run r = runGq(budgetGrant(db(), QStringLiteral("alice")), path);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QByteArray before = readFile(path);
        QVERIFY(before.contains("\"count\": 2")); // grant + apply
        QVERIFY(disk.fill(1));

        r = runGq(budgetGrant(db(), QStringLiteral("bob")), path);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("No space left on device")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("was recorded")), qPrintable(r.err));
        QCOMPARE(readFile(path), before);
        const Run verify = runGq({QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--db"),
                                  db(), QStringLiteral("--checkpoint"), path});
        QVERIFY2(verify.code == 0, qPrintable(verify.out + verify.err));
        QVERIFY2(verify.out.contains(QLatin1String("anchored up to entry 2")), qPrintable(verify.out));
    }
};

QTEST_GUILESS_MAIN(TestFullDiskAudit)
#include "tst_fulldisk_audit.moc"
