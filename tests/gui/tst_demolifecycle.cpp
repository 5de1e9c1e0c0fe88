// The demo's promise: the test cluster, GPU exporter and controller children and the
// temporary directory live exactly as long as the console. Drives the real gpuquota-console binary.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <optional>

namespace {

QString binDir() {
    const QString env = qEnvironmentVariable("GQ_BIN_DIR");
    return env.isEmpty() ? QStringLiteral(GQ_BINARY_DIR "/bin") : env;
}

// /proc/PID/stat: "pid (comm) state ppid ..."; comm may contain spaces, so split after ')'.
struct ProcStat {
    QByteArray comm;
    char state = '?';
    qint64 ppid = 0;
};

std::optional<ProcStat> procStat(qint64 pid) {
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray line = f.readAll();
    const qsizetype open = line.indexOf('('), close = line.lastIndexOf(')');
    if (open < 0 || close < 0)
        return std::nullopt;
    const QList<QByteArray> rest = line.mid(close + 2).split(' ');
    if (rest.size() < 2)
        return std::nullopt;
    return ProcStat{line.mid(open + 1, close - open - 1), rest[0].isEmpty() ? '?' : rest[0][0],
                    rest[1].toLongLong()};
}

// The child of `parent` whose comm (15 characters at most) starts with `prefix`.
qint64 childOf(qint64 parent, const char *prefix) {
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &e : entries) {
        bool ok = false;
        const qint64 pid = e.toLongLong(&ok);
        if (!ok)
            continue;
        const auto st = procStat(pid);
        if (st && st->ppid == parent && st->comm.startsWith(prefix) && st->state != 'Z')
            return pid;
    }
    return 0;
}

// Gone, or a zombie waiting for an init that does not reap: either way not serving.
bool isStopped(qint64 pid) {
    const auto st = procStat(pid);
    return !st || st->state == 'Z' || st->state == 'X';
}

QStringList demoDirs(const QTemporaryDir &tmp) {
    return QDir(tmp.path()).entryList({QStringLiteral("gpuquota-demo-*")}, QDir::Dirs);
}

} // namespace

class TestDemoLifecycle : public QObject {
    Q_OBJECT

    struct Running {
        std::unique_ptr<QProcess> console;
        qint64 cluster = 0;
    };

    // Starts `gpuquota-console --demo` with its own TMPDIR and settings, and waits
    // for its cluster child and temporary directory to exist.
    Running startConsole(const QTemporaryDir &tmp) {
        Running r;
        r.console = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), tmp.path());
        env.insert(QStringLiteral("HOME"), tmp.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), tmp.path() + QStringLiteral("/config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), tmp.path() + QStringLiteral("/data"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        r.console->setProcessEnvironment(env);
        r.console->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        r.console->start(binDir() + QStringLiteral("/gpuquota-console"), {QStringLiteral("--demo")});
        if (!r.console->waitForStarted(10000))
            return r;
        const qint64 consolePid = r.console->processId();
        for (int i = 0; i < 300 && !r.cluster; ++i) {
            QTest::qWait(50);
            r.cluster = childOf(consolePid, "gpuquota-testcl");
        }
        return r;
    }

private slots:
    void sigtermStopsTheClusterAndRemovesTheTempDir() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        Running r = startConsole(tmp);
        QVERIFY2(r.cluster > 0, "the console did not start its demo cluster");
        QTRY_COMPARE_WITH_TIMEOUT(demoDirs(tmp).size(), 1, 10000);

        ::kill(static_cast<pid_t>(r.console->processId()), SIGTERM);
        QVERIFY(r.console->waitForFinished(15000));
        QCOMPARE(r.console->exitStatus(), QProcess::NormalExit);
        QTRY_VERIFY_WITH_TIMEOUT(isStopped(r.cluster), 5000);
        QCOMPARE(demoDirs(tmp), QStringList());
    }

    // The GPU exporter and the controller (started once the database is seeded) go
    // with the console too, also when it is killed.
    void sigkillStopsEveryDemoChild() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        Running r = startConsole(tmp);
        QVERIFY2(r.cluster > 0, "the console did not start its demo cluster");
        const qint64 consolePid = r.console->processId();
        qint64 exporter = 0, controller = 0;
        QTRY_VERIFY_WITH_TIMEOUT((exporter = childOf(consolePid, "gq-test-exporte")) > 0, 30000);
        QTRY_VERIFY_WITH_TIMEOUT((controller = childOf(consolePid, "gpuquota-contro")) > 0, 60000);

        r.console->kill();
        QVERIFY(r.console->waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT(isStopped(r.cluster), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(isStopped(exporter), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(isStopped(controller), 10000);
    }

    void sigkillStillStopsTheCluster() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        Running r = startConsole(tmp);
        QVERIFY2(r.cluster > 0, "the console did not start its demo cluster");

        r.console->kill(); // SIGKILL: no cleanup code of the console runs
        QVERIFY(r.console->waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT(isStopped(r.cluster), 10000);
    }
};

QTEST_GUILESS_MAIN(TestDemoLifecycle)
#include "tst_demolifecycle.moc"
