// Every save path on a full disk: the write fails with the OS's own words and the
// original file is left exactly as it was (the break-test found `fmt -w` truncating
// files under 16 KiB to 0 or 8,192 bytes and exiting 0).
#include "core/domain/atomicfile.h"
#include "tests/robustness/fulldisk.h"

#include <QProcess>
#include <QtTest>

using namespace gq;

namespace {

const QByteArray kNeedsFormat = "apiVersion: v1\n"
                                "kind: ResourceQuota\n"
                                "metadata:\n"
                                "  name: gpu\n"
                                "  namespace: team-a\n"
                                "spec:\n"
                                "  hard:\n"
                                "    requests.cpu: 1000m   # becomes 1\n"
                                "    requests.memory: 1536Mi\n"
                                "    requests.nvidia.com/gpu: \"4\"\n";

bool writeFile(const QString &path, const QByteArray &bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

} // namespace

class TestFullDisk : public QObject {
    Q_OBJECT

private slots:
    void atomicWriteKeepsTheOriginal_data() {
        QTest::addColumn<int>("size");
        QTest::newRow("small, fits the write buffer") << 144;
        QTest::newRow("12 KiB") << 12136;
        QTest::newRow("larger than the buffer") << 100000;
    }
    void atomicWriteKeepsTheOriginal() {
        QFETCH(int, size);
        test::FullDisk disk;
        GQ_REQUIRE_FULLDISK(disk);
        const QString file = disk.path(QStringLiteral("quota.yaml"));
        const QByteArray original = "original\n";
        QVERIFY(writeFile(file, original));
        QVERIFY(disk.fill());

        const auto r = writeFileAtomically(file, QByteArray(size, 'y'));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::Io);
        QVERIFY2(r.error().message.contains(QLatin1String("No space left on device")),
                 qPrintable(r.error().message));
        QCOMPARE(readFile(file), original);
        // No temporary file is left behind.
        const QStringList left = QDir(QFileInfo(file).path()).entryList(QDir::Files);
        QCOMPARE(left, QStringList({QStringLiteral("filler"), QStringLiteral("quota.yaml")}));
    }

    void atomicWriteReplacesWhenThereIsRoom() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("a.yaml"));
        QVERIFY(writeFile(file, "old\n"));
        QVERIFY(writeFileAtomically(file, "new\n"));
        QCOMPARE(readFile(file), QByteArray("new\n"));
    }

    void fmtWriteOnAFullDisk_data() {
        QTest::addColumn<int>("padding");
        QTest::newRow("144 bytes") << 0;
        QTest::newRow("12 KiB") << 12000;
    }
    void fmtWriteOnAFullDisk() {
        QFETCH(int, padding);
        test::FullDisk disk;
        GQ_REQUIRE_FULLDISK(disk);
        const QString file = disk.path(QStringLiteral("quota.yaml"));
        const QByteArray original =
            kNeedsFormat + QByteArray("# padding line ........................\n").repeated(padding / 40);
        QVERIFY(writeFile(file, original));
        QVERIFY(disk.fill());

        QProcess fmt;
        fmt.start(qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota"),
                  {QStringLiteral("fmt"), QStringLiteral("-w"), file});
        QVERIFY(fmt.waitForFinished(10000));
        const QString err = QString::fromUtf8(fmt.readAllStandardError());
        QCOMPARE(fmt.exitCode(), 1);
        QVERIFY2(err.contains(QLatin1String("No space left on device")), qPrintable(err));
        QVERIFY2(err.contains(file), qPrintable(err));
        QCOMPARE(readFile(file), original);
    }

    // `gpuquota export > file` on a full disk: exit 1 with the system's reason, not a
    // cut CSV and exit 0.
    void exportToAFullDisk() {
        QTemporaryDir dbDir;
        const QString url = QStringLiteral("sqlite://") + dbDir.filePath(QStringLiteral("usage.db"));
        const QString bin = qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota");
        QProcess import;
        import.start(bin, {QStringLiteral("import"), QStringLiteral("--db"), url,
                           QStringLiteral(GQ_TEST_FIXTURES "/usage/intervals.csv")});
        QVERIFY(import.waitForFinished(10000));
        QCOMPARE(import.exitCode(), 0);
        test::FullDisk disk;
        GQ_REQUIRE_FULLDISK(disk);
        QVERIFY(disk.fill());
        QProcess exp;
        exp.setStandardOutputFile(disk.path(QStringLiteral("usage.csv")));
        exp.start(bin, {QStringLiteral("export"), QStringLiteral("--db"), url});
        QVERIFY(exp.waitForFinished(10000));
        const QString err = QString::fromUtf8(exp.readAllStandardError());
        QCOMPARE(exp.exitCode(), 1);
        QVERIFY2(err.contains(QLatin1String("No space left on device")), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestFullDisk)
#include "tst_fulldisk.moc"
