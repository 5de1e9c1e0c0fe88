// Inputs without an end are refused at a documented size instead of being read until
// memory runs out (`validate /dev/zero` aborted with std::bad_alloc, rc 134).
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QString gpuquota() {
    return qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota");
}

struct Run {
    int exitCode = -1;
    QByteArray err;
};

Run run(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
        const QString &stdinFrom = {}) {
    QProcess p;
    p.setProcessEnvironment(env);
    if (!stdinFrom.isEmpty())
        p.setStandardInputFile(stdinFrom);
    p.start(gpuquota(), args);
    if (!p.waitForFinished(2000)) {
        p.kill();
        p.waitForFinished();
        return {-2, "did not answer within 2 s"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3, p.readAllStandardError()};
}

} // namespace

class TestInputLimits : public QObject {
    Q_OBJECT

private slots:
    void endlessFileIsRefused_data() {
        QTest::addColumn<QString>("verb");
        QTest::newRow("validate") << QStringLiteral("validate");
        QTest::newRow("fmt") << QStringLiteral("fmt");
        QTest::newRow("apply") << QStringLiteral("apply");
    }
    void endlessFileIsRefused() {
        QFETCH(QString, verb);
        // apply reads its file before it touches a cluster (it read /dev/zero until the
        // kernel killed it).
        const QStringList args = verb == QLatin1String("apply")
                                     ? QStringList{verb, QStringLiteral("-f"), QStringLiteral("/dev/zero")}
                                     : QStringList{verb, QStringLiteral("/dev/zero")};
        const Run r = run(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("/dev/zero: larger than the 16 MiB input limit"), r.err.constData());
    }

    void endlessStdinIsRefused() {
        // /dev/zero as standard input stands in for `yes | gpuquota validate -`.
        const Run r = run({QStringLiteral("validate"), QStringLiteral("-")},
                          QProcessEnvironment::systemEnvironment(), QStringLiteral("/dev/zero"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("<stdin>: larger than the 16 MiB input limit"), r.err.constData());
    }

    void emptyManifestIsNotValid_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("blank lines") << QByteArray("\n\n   \n");
        QTest::newRow("comments and markers") << QByteArray("# nothing here\n---\n# still nothing\n...\n");
    }
    void emptyManifestIsNotValid() {
        QFETCH(QByteArray, text);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("empty.yaml"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        QProcess p;
        p.start(gpuquota(), {QStringLiteral("validate"), file});
        QVERIFY(p.waitForFinished(2000));
        QCOMPARE(p.exitCode(), 1);
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(out.contains(QByteArray(file.toUtf8() + ": no objects")), out.constData());
    }

    void limitIsOverridable() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("big.yaml"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("# comment line\n").repeated(1000)); // 15,000 bytes
        f.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GQ_MAX_INPUT_BYTES"), QStringLiteral("10000"));
        Run r = run({QStringLiteral("validate"), file}, env);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("larger than the 10000 bytes input limit"), r.err.constData());
        env.insert(QStringLiteral("GQ_MAX_INPUT_BYTES"), QStringLiteral("20000"));
        r = run({QStringLiteral("validate"), file}, env);
        QVERIFY2(!r.err.contains("input limit"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestInputLimits)
#include "tst_inputlimits.moc"
