#pragma once

// What the suites running the built gpuquota-controller share: where the binaries are,
// a PostgreSQL server of the suite's own (so it may stop and start it), a controller
// process, and curl for its HTTP endpoints. Needs Qt6::Network (freeport.h).

#include "tests/freeport.h"
#include "tests/kube/kubetestutil.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>
#include <memory>
#include <unistd.h>

namespace gq::test {

// LeaderElector's defaults, which the controller uses: a leader that cannot renew must be
// gone within the lease duration; a standby tries every retry period.
inline constexpr int kLeaseDurationMs = 15000;
inline constexpr int kRetryPeriodMs = 2000;

inline QString binDir() {
    QString dir = qEnvironmentVariable("GQ_BIN_DIR");
    return dir.isEmpty() ? QStringLiteral(GQ_BINARY_DIR "/bin") : dir;
}

// curl -s: "STATUS body" (STATUS 000 when nothing answered).
inline QString curl(const QStringList &args) {
    const ToolRun r =
        runTool(QStringLiteral("curl"),
                QStringList{QStringLiteral("-s"), QStringLiteral("--max-time"), QStringLiteral("10"),
                            QStringLiteral("-w"), QStringLiteral("%{http_code}")} +
                    args);
    return QString::fromUtf8(r.out.right(3) + ' ' + r.out.chopped(3));
}

// Waits until the controller's /readyz on 127.0.0.1:`listen` answers 200; `last` gets
// the last answer ("STATUS body"), for the failure message.
// The body of the controller's /readyz or /metrics on `listen` (empty when it does not answer).
inline QString readyz(int listen) {
    return curl({QStringLiteral("http://127.0.0.1:%1/readyz").arg(listen)});
}
inline QString metrics(int listen) {
    return curl({QStringLiteral("http://127.0.0.1:%1/metrics").arg(listen)});
}

inline bool waitReadyz(int listen, QString *last, int timeoutMs = 60000) {
    return QTest::qWaitFor(
        [&] {
            *last = curl({QStringLiteral("http://127.0.0.1:%1/readyz").arg(listen)});
            return last->startsWith(QLatin1String("200"));
        },
        timeoutMs);
}

// One gpuquota-controller process (stderr forwarded to the test's).
class ControllerProcess {
public:
    // podName: POD_NAME, the controller's identity on the Lease.
    bool start(const QString &config, const QString &podName = {}) {
        m_proc = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!podName.isEmpty())
            env.insert(QStringLiteral("POD_NAME"), podName);
        m_proc->setProcessEnvironment(env);
        m_proc->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_proc->start(binDir() + QStringLiteral("/gpuquota-controller"),
                      {QStringLiteral("--config"), config});
        return m_proc->waitForStarted(10000);
    }
    void signal(int sig) {
        if (m_proc && m_proc->state() != QProcess::NotRunning)
            ::kill(static_cast<pid_t>(m_proc->processId()), sig);
    }
    // Waits up to timeoutMs; true when it exited (elapsedMs says after how long).
    bool waitForExit(int timeoutMs) {
        QElapsedTimer t;
        t.start();
        const bool done =
            !m_proc || m_proc->state() == QProcess::NotRunning || m_proc->waitForFinished(timeoutMs);
        m_elapsedMs = t.elapsed();
        return done;
    }
    void kill() {
        signal(SIGKILL);
        waitForExit(10000);
    }
    [[nodiscard]] bool running() const { return m_proc && m_proc->state() == QProcess::Running; }
    [[nodiscard]] int exitCode() const { return m_proc ? m_proc->exitCode() : -1; }
    [[nodiscard]] bool crashed() const { return m_proc && m_proc->exitStatus() == QProcess::CrashExit; }
    [[nodiscard]] qint64 elapsedMs() const { return m_elapsedMs; }
    ~ControllerProcess() { kill(); }

private:
    std::unique_ptr<QProcess> m_proc;
    qint64 m_elapsedMs = 0;
};

// PostgreSQL of our own, so the suite may stop and start it (scripts/start-services.sh
// does the same for the shared one). PostgreSQL refuses to run as root: as root it
// runs as the postgres user.
class PrivatePostgres {
public:
    QString error;
    QString url;

    bool init() {
        const QStringList bins =
            QDir(QStringLiteral("/usr/lib/postgresql")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        if (bins.isEmpty()) {
            error = QStringLiteral(
                "no PostgreSQL under /usr/lib/postgresql (scripts/install-deps.sh installs it)");
            return false;
        }
        m_bin = QStringLiteral("/usr/lib/postgresql/%1/bin/").arg(bins.last());
        m_port = freePort();
        m_data = m_dir.filePath(QStringLiteral("pgdata"));
        QDir().mkpath(m_data);
        if (isRoot())
            runTool(QStringLiteral("chown"),
                    {QStringLiteral("-R"), QStringLiteral("postgres:postgres"), m_dir.path()});
        const ToolRun r =
            asPg(m_bin + QStringLiteral("initdb"),
                 {QStringLiteral("-D"), m_data, QStringLiteral("-U"), QStringLiteral("postgres"),
                  QStringLiteral("--auth=trust"), QStringLiteral("-E"), QStringLiteral("UTF8")});
        if (r.exitCode != 0) {
            error = QString::fromUtf8(r.err + r.out);
            return false;
        }
        if (!start())
            return false;
        const ToolRun c = runTool(QStringLiteral("psql"),
                                  {QStringLiteral("-h"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                                   QString::number(m_port), QStringLiteral("-U"), QStringLiteral("postgres"),
                                   QStringLiteral("-q"), QStringLiteral("-c"),
                                   QStringLiteral("CREATE ROLE gq LOGIN SUPERUSER"), QStringLiteral("-c"),
                                   QStringLiteral("CREATE DATABASE gq_ctl OWNER gq")});
        if (c.exitCode != 0) {
            error = QString::fromUtf8(c.err);
            return false;
        }
        url = QStringLiteral("postgresql://gq@127.0.0.1:%1/gq_ctl").arg(m_port);
        return true;
    }
    bool start() {
        const ToolRun r = asPg(
            m_bin + QStringLiteral("pg_ctl"),
            {QStringLiteral("-D"), m_data, QStringLiteral("-l"), m_dir.filePath(QStringLiteral("pg.log")),
             QStringLiteral("-w"), QStringLiteral("-t"), QStringLiteral("60"), QStringLiteral("-o"),
             QStringLiteral("-c listen_addresses=127.0.0.1 -p %1 -k %2").arg(m_port).arg(m_dir.path()),
             QStringLiteral("start")});
        if (r.exitCode != 0)
            error = QString::fromUtf8(r.err + r.out);
        return r.exitCode == 0;
    }
    bool stop() {
        return asPg(m_bin + QStringLiteral("pg_ctl"),
                    {QStringLiteral("-D"), m_data, QStringLiteral("-m"), QStringLiteral("fast"),
                     QStringLiteral("-w"), QStringLiteral("stop")})
                   .exitCode == 0;
    }
    ~PrivatePostgres() {
        if (!m_data.isEmpty())
            stop();
    }

private:
    static bool isRoot() { return qEnvironmentVariable("USER") == QLatin1String("root") || ::geteuid() == 0; }
    ToolRun asPg(const QString &program, const QStringList &args) {
        if (isRoot())
            return runTool(
                QStringLiteral("runuser"),
                QStringList{QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("--"), program} +
                    args);
        return runTool(program, args);
    }
    QTemporaryDir m_dir;
    QString m_bin;
    QString m_data;
    int m_port = 0;
};

} // namespace gq::test
