// Our processes hold bearer tokens and client keys in memory: a crash must not write
// them into a core file (the break-test found "Bearer <token>" three times in one), and
// another process of the same user must not read them through ptrace or /proc/PID/mem.
// The CLI and the controller are checked from outside, as the kernel shows them.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

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

// The user the children run as: this one, or nobody when this is root (root may read
// any process anyway, so only another user shows what "not dumpable" changes).
uid_t childUid() {
    return ::geteuid() == 0 ? 65534 : ::geteuid();
}

// What the kernel makes of a process that is not dumpable: the files in its /proc/PID
// belong to root instead of to its user, and ptrace and /proc/PID/mem are refused to
// that user.
struct Guarded {
    QByteArray coreLimit;
    uid_t procOwner = 0;
    bool started = false;
};

// The controller, as the user above, held at its start: it reads its configuration
// from a FIFO, so it waits (after protecting itself, first thing in main()) until the
// test has looked and opens the FIFO to let it go on (an empty file: exit 2).
Guarded inspectController(const QProcessEnvironment &env) {
    Guarded g;
    QTemporaryDir dir;
    QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                          QFileDevice::ExeOwner | QFileDevice::ReadOther |
                                          QFileDevice::ExeOther);
    const QString fifo = dir.filePath(QStringLiteral("config.yaml"));
    if (::mkfifo(QFile::encodeName(fifo).constData(), 0666) != 0)
        return g;
    ::chmod(QFile::encodeName(fifo).constData(), 0666);
    QProcess p;
    p.setProcessEnvironment(env);
    const uid_t uid = childUid();
    p.setChildProcessModifier([uid] {
        if (::geteuid() == 0 && uid != 0) {
            ::setgroups(0, nullptr);
            if (::setgid(uid) != 0 || ::setuid(uid) != 0)
                ::_exit(126);
        }
    });
    p.start(qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota-controller"),
            {QStringLiteral("--config"), fifo, QStringLiteral("--check-config")});
    if (!p.waitForStarted(5000))
        return g;
    g.started = true;
    // Not the directory /proc/PID itself: the kernel keeps its owner; the files in it
    // (status, mem, ...) are what changes hands.
    const QString proc = QStringLiteral("/proc/%1/status").arg(p.processId());
    // Protected first thing in main(); give the child a moment to get there (with the
    // debugging switch nothing changes: look after half a second).
    const bool allowed = env.value(QStringLiteral("GQ_ALLOW_CORE_DUMPS")) == QLatin1String("1");
    for (int i = 0; i < 100; ++i) {
        QTest::qWait(20);
        g.coreLimit = coreLimitOf(p.processId());
        struct stat st {};
        g.procOwner = ::stat(QFile::encodeName(proc).constData(), &st) == 0 ? st.st_uid : uid_t(-1);
        if (allowed ? i >= 25 : g.coreLimit.startsWith("0 0") && g.procOwner == 0)
            break;
    }
    // The writer end, once the controller waits at the other: it reads an empty file and
    // stops. Non-blocking, so a child that died early cannot hang the test.
    for (int i = 0; i < 250 && p.state() == QProcess::Running; ++i) {
        const int fd = ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) {
            ::close(fd);
            break;
        }
        QTest::qWait(20);
    }
    p.waitForFinished(10000);
    return g;
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

    // The controller holds the cluster token, the database and SMTP passwords: no core
    // file, and not dumpable (its /proc entries are root's, not its user's).
    void controllerIsProtected() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("GQ_ALLOW_CORE_DUMPS"));
        const Guarded g = inspectController(env);
        QVERIFY2(g.started, "gpuquota-controller did not start");
        QCOMPARE(g.coreLimit.left(3), QByteArray("0 0"));
        QCOMPARE(g.procOwner, uid_t(0));
        QVERIFY2(childUid() != 0, "the check needs a user other than root for the child");
    }

    // The same child with the debugging switch is dumpable: the owner check above can tell.
    void controllerDebugSwitchKeepsThem() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GQ_ALLOW_CORE_DUMPS"), QStringLiteral("1"));
        const Guarded g = inspectController(env);
        QVERIFY2(g.started, "gpuquota-controller did not start");
        QVERIFY2(!g.coreLimit.startsWith("0 0") && !g.coreLimit.startsWith('<'), g.coreLimit.constData());
        QCOMPARE(g.procOwner, childUid());
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
