#pragma once

// Starts the real `gpuquota-testcluster` for a test and stops it afterwards.
//
//     gq::test::TestClusterProcess cluster;                 // scenario "empty"
//     QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
//     useKubeconfig(cluster.kubeconfigPath());               // contexts admin, readonly, admin-cert
//     cluster.setPodPhase("team-a", "job-1", "Succeeded");
//     cluster.setFaults(QJsonObject{{"errorCount", 2}});    // next 2 API requests answer 500
//
// The hooks travel over the child's stdin/stdout (one line each way), so this header
// needs only Qt Core. Header-only on purpose: include it, link Qt6::Core (Qt6::Test
// already does).

#include <QByteArray>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>

#ifndef GQ_BINARY_DIR
#define GQ_BINARY_DIR ""
#endif

namespace gq::test {

class TestClusterProcess final {
public:
    struct Options {
        QString scenario = QStringLiteral("empty"); // "empty" or "demo"
        QString statePath;                          // --state FILE (loaded if it exists, saved on stop)
        QStringList extraArguments; // e.g. {"--latency-ms", "50"}, {"--scale-namespaces", "500"}
        int startTimeoutMs = 60000;
    };

    struct HookReply {
        int status = 0;
        QJsonObject body;
        QString error; // transport problem (process gone, timeout)
        [[nodiscard]] bool ok() const { return status >= 200 && status < 300; }
    };

    TestClusterProcess()
        : TestClusterProcess(Options{}) {}
    explicit TestClusterProcess(Options options)
        : m_options(std::move(options)) {}
    ~TestClusterProcess() { stop(); }
    // A cluster of `scenario`'s objects ("empty" or "demo"), not started yet.
    static std::unique_ptr<TestClusterProcess> ofScenario(const QString &scenario) {
        Options options;
        options.scenario = scenario;
        return std::make_unique<TestClusterProcess>(options);
    }
    TestClusterProcess(const TestClusterProcess &) = delete;
    TestClusterProcess &operator=(const TestClusterProcess &) = delete;

    // $GQ_BIN_DIR/gpuquota-testcluster, else GQ_BINARY_DIR "/bin".
    static QString binaryPath() {
        QString dir = qEnvironmentVariable("GQ_BIN_DIR");
        if (dir.isEmpty())
            dir = QStringLiteral(GQ_BINARY_DIR "/bin");
        return QDir(dir).filePath(QStringLiteral("gpuquota-testcluster"));
    }

    // Starts the server and waits for its `ready` line. False (see errorString()) on failure.
    bool start() {
        if (m_process)
            return true;
        if (!m_dir.isValid()) {
            m_error = QStringLiteral("cannot create a temporary directory");
            return false;
        }
        const QString binary = binaryPath();
        if (!QFileInfo(binary).isExecutable()) {
            m_error = QStringLiteral("test cluster binary not found: %1 (build target gpuquota-testcluster)")
                          .arg(binary);
            return false;
        }
        m_kubeconfig = m_dir.filePath(QStringLiteral("kubeconfig"));
        QStringList args = {QStringLiteral("--listen"),           QStringLiteral("127.0.0.1:0"),
                            QStringLiteral("--write-kubeconfig"), m_kubeconfig,
                            QStringLiteral("--scenario"),         m_options.scenario};
        if (!m_options.statePath.isEmpty())
            args << QStringLiteral("--state") << m_options.statePath;
        args << m_options.extraArguments;
        m_process = std::make_unique<QProcess>();
        m_process->setProcessChannelMode(QProcess::SeparateChannels);
        m_process->setReadChannel(QProcess::StandardOutput);
        m_process->start(binary, args);
        if (!m_process->waitForStarted(10000)) {
            m_error = QStringLiteral("cannot start %1: %2").arg(binary, m_process->errorString());
            m_process.reset();
            return false;
        }
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < m_options.startTimeoutMs) {
            const QByteArray line = readLine(m_options.startTimeoutMs - static_cast<int>(timer.elapsed()));
            if (line.startsWith("ready ")) {
                m_url = QUrl(QString::fromUtf8(line.mid(6).trimmed()));
                readKubeconfig();
                return true;
            }
            if (m_process->state() == QProcess::NotRunning)
                break;
        }
        m_error = QStringLiteral("test cluster did not become ready: %1")
                      .arg(QString::fromLocal8Bit(m_process->readAllStandardError()).trimmed());
        stop();
        return false;
    }

    // SIGTERM, then wait for a clean exit (state is saved then). True if it exited with 0.
    bool stop(int timeoutMs = 30000) {
        if (!m_process)
            return true;
        bool clean = false;
        if (m_process->state() != QProcess::NotRunning) {
            m_process->terminate();
            if (m_process->waitForFinished(timeoutMs)) {
                clean = m_process->exitStatus() == QProcess::NormalExit && m_process->exitCode() == 0;
            } else {
                m_process->kill();
                m_process->waitForFinished(5000);
            }
        } else {
            clean = m_process->exitStatus() == QProcess::NormalExit && m_process->exitCode() == 0;
        }
        m_stderr += m_process->readAllStandardError();
        m_exitCode = m_process->exitCode();
        m_process.reset();
        return clean;
    }

    [[nodiscard]] bool isRunning() const { return m_process && m_process->state() == QProcess::Running; }
    // The server's process id (0 when not running): to stop it with SIGSTOP, as a network
    // partition or a hung API server looks to a client, and let it go on with SIGCONT.
    [[nodiscard]] qint64 processId() const { return isRunning() ? m_process->processId() : 0; }
    [[nodiscard]] QString errorString() const { return m_error; }
    [[nodiscard]] QUrl url() const { return m_url; } // https://127.0.0.1:PORT
    [[nodiscard]] QString kubeconfigPath() const {
        return m_kubeconfig;
    } // contexts admin (current), readonly, admin-cert
    [[nodiscard]] QString adminToken() const { return m_adminToken; }
    [[nodiscard]] QString readonlyToken() const { return m_readonlyToken; }
    [[nodiscard]] QByteArray caCertificatePem() const { return m_caPem; }
    // The `admin-cert` user's client certificate and key (PEM; O=system:masters).
    [[nodiscard]] QByteArray clientCertificatePem() const { return m_clientCertPem; }
    [[nodiscard]] QByteArray clientKeyPem() const { return m_clientKeyPem; }
    [[nodiscard]] int exitCode() const { return m_exitCode; }
    [[nodiscard]] QString temporaryDir() const { return m_dir.path(); }
    // What the server wrote to stderr so far (useful in failure messages).
    QString stderrText() {
        if (m_process)
            m_stderr += m_process->readAllStandardError();
        return QString::fromLocal8Bit(m_stderr);
    }

    // Calls a /_gq hook: method "GET"/"POST"/"PUT"/"DELETE", path "/_gq/...".
    HookReply hook(const QByteArray &method, const QString &path, const QJsonObject &body = {},
                   int timeoutMs = 10000) {
        HookReply reply;
        if (!isRunning()) {
            reply.error = QStringLiteral("test cluster is not running");
            return reply;
        }
        QByteArray line = method + ' ' + path.toUtf8();
        if (!body.isEmpty())
            line += ' ' + QJsonDocument(body).toJson(QJsonDocument::Compact);
        line += '\n';
        m_process->write(line);
        m_process->waitForBytesWritten(timeoutMs);
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < timeoutMs) {
            const QByteArray answer = readLine(timeoutMs - static_cast<int>(timer.elapsed()));
            if (!answer.startsWith("hook "))
                continue;
            const QByteArray rest = answer.mid(5).trimmed();
            const qsizetype space = rest.indexOf(' ');
            reply.status = rest.left(space).toInt();
            reply.body = QJsonDocument::fromJson(rest.mid(space + 1)).object();
            return reply;
        }
        reply.error = QStringLiteral("no answer from the test cluster for %1 %2")
                          .arg(QString::fromLatin1(method), path);
        return reply;
    }

    // Moves a pod to Pending, Running, Succeeded or Failed (finished pods stop counting in quota).
    bool setPodPhase(const QString &ns, const QString &pod, const QString &phase) {
        return hook("POST", QStringLiteral("/_gq/pods/%1/%2/phase").arg(ns, pod),
                    QJsonObject{{QStringLiteral("phase"), phase}})
            .ok();
    }

    // Replaces all fault knobs. Keys: latencyMs, errorRate, errorCount, throttleRate,
    // throttleCount, retryAfterSeconds, dropRate, dropCount, stallWatches, pathPrefix.
    bool setFaults(const QJsonObject &faults) {
        return hook("PUT", QStringLiteral("/_gq/faults"), faults).ok();
    }
    bool clearFaults() { return hook("DELETE", QStringLiteral("/_gq/faults")).ok(); }
    // Pauses the quota controller: new quotas get no status (so they constrain nothing
    // yet, as on a real cluster before the controller's first sync) and usage is not
    // recomputed. Resuming recomputes every quota.
    bool setQuotaControllerPaused(bool paused) {
        return hook("PUT", QStringLiteral("/_gq/quota-controller"),
                    QJsonObject{{QStringLiteral("paused"), paused}})
            .ok();
    }
    // Drops the watch event history: watches from older resourceVersions get 410 Gone.
    bool compact() { return hook("POST", QStringLiteral("/_gq/compact")).ok(); }
    // {"resourceVersion": "...", "objects": {"namespaces": N, ...}}
    QJsonObject stats() { return hook("GET", QStringLiteral("/_gq/stats")).body; }

private:
    QByteArray readLine(int timeoutMs) {
        QElapsedTimer timer;
        timer.start();
        while (!m_process->canReadLine()) {
            const int left = timeoutMs - static_cast<int>(timer.elapsed());
            if (left <= 0 || m_process->state() == QProcess::NotRunning)
                return {};
            m_process->waitForReadyRead(qMin(left, 200));
        }
        return m_process->readLine();
    }

    void readKubeconfig() {
        QFile f(m_kubeconfig);
        if (!f.open(QIODevice::ReadOnly))
            return;
        const QString text = QString::fromUtf8(f.readAll());
        static const QRegularExpression user(QStringLiteral("- name: (\\S+)\\n  user:\\n    token: (\\S+)"));
        for (auto it = user.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            if (m.captured(1) == QLatin1String("gq-admin"))
                m_adminToken = m.captured(2);
            else if (m.captured(1) == QLatin1String("gq-viewer"))
                m_readonlyToken = m.captured(2);
        }
        static const QRegularExpression ca(QStringLiteral("certificate-authority-data: (\\S+)"));
        const auto m = ca.match(text);
        if (m.hasMatch())
            m_caPem = QByteArray::fromBase64(m.captured(1).toLatin1());
        static const QRegularExpression cert(QStringLiteral("client-certificate-data: (\\S+)"));
        static const QRegularExpression key(QStringLiteral("client-key-data: (\\S+)"));
        if (const auto c = cert.match(text); c.hasMatch())
            m_clientCertPem = QByteArray::fromBase64(c.captured(1).toLatin1());
        if (const auto k = key.match(text); k.hasMatch())
            m_clientKeyPem = QByteArray::fromBase64(k.captured(1).toLatin1());
    }

    Options m_options;
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_process;
    QString m_kubeconfig;
    QUrl m_url;
    QString m_error;
    QString m_adminToken;
    QString m_readonlyToken;
    QByteArray m_caPem;
    QByteArray m_clientCertPem;
    QByteArray m_clientKeyPem;
    QByteArray m_stderr;
    int m_exitCode = -1;
};

} // namespace gq::test
