// One write-and-audit path (services/changeaudit.h): the same change of a quota, made
// once the console's way (a QuotaWriter with an edited text, confirmed with a note, its
// entry through ConsoleAuditSink into the UsageService the window has open) and once with
// `gpuquota apply -f FILE --db URL --note TEXT`, against the real test cluster, gives the
// same audit entries apart from actor and time: action, target, before, after, note.
#include "consoleauditsink.h"
#include "quotawriter.h"
#include "usageservice.h"

#include "kube/kubeclienttestutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace gq;
using namespace gq::test;

namespace {

QString quotaYaml(const QString &ns, const QString &gpus) {
    return QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpus\n  namespace: %1\n"
                          "spec:\n  hard:\n    requests.nvidia.com/gpu: \"%2\"\n")
        .arg(ns, gpus);
}

// The entries of an audit log, oldest first, without what may differ between tools
// (who and when, and so the chain hashes).
QList<QJsonObject> entriesOf(const QString &bin, const QString &db) {
    QProcess p;
    p.start(bin, {QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--db"), db,
                  QStringLiteral("-o"), QStringLiteral("json")});
    p.waitForFinished(60000);
    QList<QJsonObject> out;
    for (const QJsonValue &v : QJsonDocument::fromJson(p.readAllStandardOutput())
                                   .object()
                                   .value(QLatin1String("entries"))
                                   .toArray())
        out << v.toObject();
    std::sort(out.begin(), out.end(), [](const QJsonObject &a, const QJsonObject &b) {
        return a.value(QLatin1String("seq")).toInteger() < b.value(QLatin1String("seq")).toInteger();
    });
    for (QJsonObject &e : out)
        for (const char *key : {"actor", "at", "prev_hash", "hash", "mac"})
            e.remove(QLatin1String(key));
    return out;
}

} // namespace

class TestChangeAudit : public QObject {
    Q_OBJECT

    std::unique_ptr<TestClusterProcess> m_cluster;
    std::shared_ptr<KubeClient> m_admin;
    QTemporaryDir m_dir;
    QString m_bin;

    // The console's way: the page's base and edited text, the note given at the
    // confirmation, the entry through the console's sink.
    void consoleApply(ConsoleAuditSink &sink, UsageService &db, const QString &ns, const QString &gpus,
                      const QString &note) {
        QJsonObject base;
        if (auto current = await(m_admin->get(KubeResource::resourceQuotas(), ns, QStringLiteral("gpus"))))
            base = *current;
        QuotaWriter writer(m_admin);
        writer.setAuditSink(std::shared_ptr<ChangeAuditSink>(&sink, [](ChangeAuditSink *) {}));
        QuotaWriter::Request request;
        request.ns = ns;
        request.base = base;
        request.mineYaml = quotaYaml(ns, gpus);
        QSignalSpy appended(&db, &UsageService::auditAppended);
        writer.start(request);
        QTRY_COMPARE_WITH_TIMEOUT(writer.state(), QuotaWriter::State::AwaitingConfirmation, 30000);
        writer.setAuditNote(note);
        QVERIFY(writer.confirm());
        QTRY_COMPARE_WITH_TIMEOUT(writer.state(), QuotaWriter::State::Applied, 30000);
        QVERIFY(!writer.auditError());
        QTRY_COMPARE_WITH_TIMEOUT(appended.size(), 1, 30000);
    }

    void cliApply(const QString &db, const QString &ns, const QString &gpus, const QString &note) {
        const QString file = m_dir.filePath(QStringLiteral("quota-%1.yaml").arg(gpus));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(quotaYaml(ns, gpus).toUtf8());
        f.close();
        QProcess p;
        p.start(m_bin,
                {QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath(), QStringLiteral("--context"),
                 QStringLiteral("admin"), QStringLiteral("apply"), QStringLiteral("-f"), file,
                 QStringLiteral("--db"), db, QStringLiteral("--note"), note});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    }

private slots:
    void initTestCase() {
        m_bin = QStringLiteral(GQ_BINARY_DIR "/bin/gpuquota");
        QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
        QVERIFY(m_dir.isValid());
        m_cluster = std::make_unique<TestClusterProcess>();
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        auto admin = adminClient(*m_cluster);
        QVERIFY2(admin, qPrintable(admin ? QString() : admin.error().toString()));
        m_admin = *admin;
        QVERIFY(await(
            m_admin->create(KubeResource::namespaces(), {}, namespaceObject(QStringLiteral("team-x")))));
    }

    void sameChangeSameEntries() {
        const QString ns = QStringLiteral("team-x");
        // The console: create with 4 GPUs, then raise to 6.
        const QString consoleDb = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("console.db"));
        {
            UsageService db;
            QSignalSpy opened(&db, &UsageService::opened);
            db.open(consoleDb);
            QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 30000);
            ConsoleAuditSink sink(&db, [] { return QStringLiteral("console-user"); });
            consoleApply(sink, db, ns, QStringLiteral("4"), QStringLiteral("pilot"));
            consoleApply(sink, db, ns, QStringLiteral("6"), QStringLiteral("more"));
        }
        QVERIFY(await(m_admin->remove(KubeResource::resourceQuotas(), ns, QStringLiteral("gpus"))));
        // The CLI: the same two changes.
        const QString cliDb = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("cli.db"));
        cliApply(cliDb, ns, QStringLiteral("4"), QStringLiteral("pilot"));
        cliApply(cliDb, ns, QStringLiteral("6"), QStringLiteral("more"));

        const QList<QJsonObject> console = entriesOf(m_bin, consoleDb);
        const QList<QJsonObject> cli = entriesOf(m_bin, cliDb);
        QCOMPARE(console.size(), 2);
        QCOMPARE(cli.size(), 2);
        for (int i = 0; i < 2; ++i)
            QVERIFY2(console.at(i) == cli.at(i),
                     qPrintable(QString::fromUtf8(QJsonDocument(console.at(i)).toJson()) +
                                QStringLiteral(" vs ") +
                                QString::fromUtf8(QJsonDocument(cli.at(i)).toJson())));
        QCOMPARE(cli.at(0).value(QLatin1String("action")).toString(), QStringLiteral("quota.apply"));
        QCOMPARE(cli.at(0).value(QLatin1String("target")).toString(),
                 QStringLiteral("team-x/ResourceQuota/gpus"));
        QVERIFY(cli.at(0).value(QLatin1String("before")).toString().isEmpty()); // created
        QVERIFY(cli.at(1).value(QLatin1String("before")).toString().contains(QLatin1Char('4')));
        QVERIFY(cli.at(1).value(QLatin1String("after")).toString().contains(QLatin1Char('6')));
        QCOMPARE(cli.at(1).value(QLatin1String("note")).toString(), QStringLiteral("more"));
    }
};

QTEST_GUILESS_MAIN(TestChangeAudit)
#include "tst_changeaudit.moc"
