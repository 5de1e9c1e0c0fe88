// Our processes hold bearer tokens and client keys in memory: a crash must not write
// them into a core file (the break-test found "Bearer <token>" three times in one).
#include <QFile>
#include <QProcess>
#include <QtTest>

#include <sys/resource.h>

namespace {

// The "Max core file size" soft and hard limits of a running process, as /proc shows them.
QByteArray coreLimitOf(qint64 pid) {
    QFile f(QStringLiteral("/proc/%1/limits").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return "<unreadable>";
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("Max core file size"))
            return line.mid(QByteArray("Max core file size").size()).simplified();
    return "<missing>";
}

QByteArray coreLimitOfCli(const QProcessEnvironment &env) {
    QProcess p;
    p.setProcessEnvironment(env);
    // `validate -` waits for standard input, which stays open while we look.
    p.start(qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota"),
            {QStringLiteral("validate"), QStringLiteral("-")});
    if (!p.waitForStarted(5000))
        return "<not started>";
    QByteArray limit;
    // The limit is set first thing in main(); give the child a moment to get there.
    for (int i = 0; i < 50 && !limit.startsWith("0 0"); ++i) {
        QTest::qWait(20);
        limit = coreLimitOf(p.processId());
    }
    p.closeWriteChannel();
    p.waitForFinished(5000);
    return limit;
}

} // namespace

class TestProcessGuard : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        // Ask for core dumps as `ulimit -c unlimited` would, so a zero is ours.
        rlimit lim{};
        QVERIFY(getrlimit(RLIMIT_CORE, &lim) == 0);
        lim.rlim_cur = lim.rlim_max;
        QVERIFY(setrlimit(RLIMIT_CORE, &lim) == 0);
        QVERIFY2(lim.rlim_cur != 0, "the hard core limit is 0 already; nothing to show");
    }

    void cliDisablesCoreDumps() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("GQ_ALLOW_CORE_DUMPS"));
        QCOMPARE(coreLimitOfCli(env).left(3), QByteArray("0 0"));
    }

    void debugSwitchKeepsThem() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GQ_ALLOW_CORE_DUMPS"), QStringLiteral("1"));
        const QByteArray limit = coreLimitOfCli(env);
        QVERIFY2(!limit.startsWith("0 0") && !limit.startsWith('<'), limit.constData());
    }
};

QTEST_GUILESS_MAIN(TestProcessGuard)
#include "tst_processguard.moc"
