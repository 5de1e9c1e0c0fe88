#include "app/console/demolauncher.h"

#include "app/console/childguard.h"
#include "core/domain/clock.h"
#include "app/demo/demousage.h"
#include "core/usage/usagestore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QTcpServer>
#include <QTimeZone>
#include <QTimer>

namespace gq {

namespace {

QString programNextToUs(const char *envName, const char *name) {
    const QString env = qEnvironmentVariable(envName);
    if (!env.isEmpty())
        return env;
    return QDir(QCoreApplication::applicationDirPath()).filePath(QLatin1String(name));
}

// A loopback port nobody listens on right now (the controller is told which to take).
int freeLoopbackPort() {
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost))
        return 0;
    return probe.serverPort();
}

// Single-quoted YAML scalar.
QString yamlQuoted(const QString &s) {
    QString out = s;
    out.replace(QLatin1Char('\''), QStringLiteral("''"));
    return QLatin1Char('\'') + out + QLatin1Char('\'');
}

} // namespace

DemoLauncher::DemoLauncher(QObject *parent)
    : QObject(parent) {
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &DemoLauncher::onReadyRead);
    connect(&m_process, &QProcess::finished, this, &DemoLauncher::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            emit failed(
                tr("Could not start the demo cluster %1: %2").arg(clusterProgram(), m_process.errorString()));
    });
    m_exporter.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    connect(&m_exporter, &QProcess::readyReadStandardOutput, this, &DemoLauncher::onExporterReadyRead);
    connect(&m_exporter, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart || m_exporterDone)
            return;
        qWarning("gpuquota-console: the demo GPU exporter did not start: %s",
                 qPrintable(m_exporter.errorString()));
        m_exporterDone = true;
        emitReadyWhenDone();
    });
    // The controller's log goes to controller.log in the demo's directory (startController),
    // so the console's own stays readable.
    m_controller.setProcessChannelMode(QProcess::MergedChannels);
}

DemoLauncher::~DemoLauncher() {
    stop();
}

QString DemoLauncher::clusterProgram() {
    return programNextToUs("GQ_TESTCLUSTER", "gpuquota-testcluster");
}

QString DemoLauncher::exporterProgram() {
    return programNextToUs("GQ_TEST_EXPORTER", "gq-test-exporter");
}

QString DemoLauncher::controllerProgram() {
    return programNextToUs("GQ_CONTROLLER", "gpuquota-controller");
}

QString DemoLauncher::kubeconfigPath() const {
    return m_dir ? QDir(m_dir->path()).filePath(QStringLiteral("kubeconfig")) : QString();
}

QString DemoLauncher::databaseUrl() const {
    return m_dir ? QStringLiteral("sqlite://") + QDir(m_dir->path()).filePath(QStringLiteral("usage.db"))
                 : QString();
}

void DemoLauncher::start(const QStringList &extraArgs) {
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/gpuquota-demo-XXXXXX"));
    if (!m_dir->isValid()) {
        emit failed(tr("Could not create a temporary directory: %1").arg(m_dir->errorString()));
        return;
    }
    const QString program = clusterProgram();
    if (!QFileInfo(program).isExecutable()) {
        emit failed(tr("The demo cluster program was not found at %1. Build the gpuquota-testcluster target, "
                       "or set GQ_TESTCLUSTER.")
                        .arg(program));
        return;
    }
    QStringList args{QStringLiteral("--listen"),           QStringLiteral("127.0.0.1:0"),
                     QStringLiteral("--write-kubeconfig"), kubeconfigPath(),
                     QStringLiteral("--scenario"),         QStringLiteral("demo")};
    args += extraArgs;
    stopChildWithParent(m_process);
    m_process.start(program, args);

    // The live GPU feed, read directly by the Live GPUs page and the controller.
    if (QFileInfo(exporterProgram()).isExecutable()) {
        stopChildWithParent(m_exporter);
        m_exporter.start(exporterProgram(),
                         {QStringLiteral("--demo"), QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                          QStringLiteral("--port"), QStringLiteral("0")});
    } else {
        qWarning("gpuquota-console: no demo GPU exporter at %s: the Live GPUs page stays empty",
                 qPrintable(exporterProgram()));
        m_exporterDone = true;
    }
    m_withController = QFileInfo(controllerProgram()).isExecutable();
    if (!m_withController)
        qWarning("gpuquota-console: no controller at %s: the demo records no new pods",
                 qPrintable(controllerProgram()));

    // Meanwhile, on a pool thread: three months of usage, budgets, boosts and their
    // audit entries. The controller starts once both are done (it writes the same
    // database), and then the window connects; a seeding failure only costs the demo
    // its history.
    const QString url = databaseUrl();
    DemoSeedOptions options;
    options.runningPods = !m_withController; // else the controller records them
    m_jobs.run(
        [url, options] {
            const auto seeded =
                seedDemoUsage(url, Clock::system().nowSecs(), QTimeZone::systemTimeZone(), options);
            return seeded ? QString() : seeded.error().message;
        },
        [this](const QString &error) {
            if (!error.isEmpty())
                qWarning("gpuquota-console: the demo usage history could not be written: %s",
                         qPrintable(error));
            m_seeded = true;
            emitReadyWhenDone();
        });
}

void DemoLauncher::startController() {
    if (!m_withController || m_controller.state() != QProcess::NotRunning)
        return;
    const int port = freeLoopbackPort();
    if (port <= 0) {
        qWarning("gpuquota-console: no free loopback port for the demo controller");
        return;
    }
    const QDir dir(m_dir->path());
    QString config =
        QStringLiteral("# The demo's controller (gpuquota-console --demo); removed with the demo.\n"
                       "cluster: {kubeconfig: %1, context: admin}\n"
                       "clusterName: demo\n"
                       "database: %2\n"
                       "listen: 127.0.0.1:%3\n"
                       "userLabel: gpuquota.io/user\n"
                       "timeZone: %4\n"
                       "enforce: {enabled: true, interval: 10s}\n"
                       "spool: %5\n"
                       "leaderElection: {enabled: false}\n")
            .arg(yamlQuoted(kubeconfigPath()), yamlQuoted(databaseUrl()))
            .arg(port)
            .arg(yamlQuoted(QString::fromUtf8(QTimeZone::systemTimeZone().id())),
                 yamlQuoted(dir.filePath(QStringLiteral("spool"))));
    if (!m_exporterUrl.isEmpty())
        config += QStringLiteral("metrics: {scrape: [%1]}\nidle: {threshold: 5, for: 2m, interval: 30s}\n")
                      .arg(yamlQuoted(m_exporterUrl));
    QFile file(dir.filePath(QStringLiteral("controller.yaml")));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(config.toUtf8()) < 0) {
        qWarning("gpuquota-console: could not write %s", qPrintable(file.fileName()));
        return;
    }
    file.close();
    m_controller.setStandardOutputFile(dir.filePath(QStringLiteral("controller.log")));
    stopChildWithParent(m_controller);
    m_controller.start(controllerProgram(), {QStringLiteral("--config"), file.fileName()});
    m_controllerUrl = QStringLiteral("http://127.0.0.1:%1").arg(port);
}

void DemoLauncher::emitReadyWhenDone() {
    if (!m_ready || !m_seeded || !m_exporterDone || m_announced || m_waitingForController)
        return;
    startController();
    if (m_controller.state() == QProcess::NotRunning) {
        announce();
        return;
    }
    // The window's first look (charts, "GPUs allocated now", the controller indicator)
    // should find the running pods recorded: wait until the controller has written
    // them, at most kControllerWaitMs.
    m_waitingForController = true;
    m_controllerWait.start();
    pollController();
}

void DemoLauncher::pollController() {
    if (m_announced || m_stopping)
        return;
    if (m_controllerWait.elapsed() > kControllerWaitMs || m_controller.state() == QProcess::NotRunning) {
        if (m_controller.state() == QProcess::NotRunning)
            qWarning("gpuquota-console: the demo controller stopped; see %s",
                     qPrintable(QDir(m_dir->path()).filePath(QStringLiteral("controller.log"))));
        announce();
        return;
    }
    m_jobs.run(
        [url = databaseUrl()] {
            UsageStore::Options options;
            options.readOnly = true;
            auto store = UsageStore::open(url, options);
            if (!store)
                return false;
            auto running = (*store)->runningNow(Clock::system().nowSecs());
            return running && !running->empty();
        },
        [this](bool recorded) {
            if (recorded)
                announce();
            else
                QTimer::singleShot(300, this, &DemoLauncher::pollController);
        });
}

void DemoLauncher::announce() {
    if (m_announced)
        return;
    m_announced = true;
    emit ready(kubeconfigPath(), m_url);
}

void DemoLauncher::onReadyRead() {
    m_buffer += m_process.readAllStandardOutput();
    qsizetype nl;
    while ((nl = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(nl).trimmed();
        m_buffer.remove(0, nl + 1);
        if (!m_ready && line.startsWith("ready ")) {
            m_ready = true;
            m_url = QString::fromUtf8(line.mid(6));
            emitReadyWhenDone();
        }
    }
}

void DemoLauncher::onExporterReadyRead() {
    m_exporterBuffer += m_exporter.readAllStandardOutput();
    qsizetype nl;
    while ((nl = m_exporterBuffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_exporterBuffer.left(nl).trimmed();
        m_exporterBuffer.remove(0, nl + 1);
        if (!m_exporterDone && line.startsWith("ready ")) {
            m_exporterDone = true;
            m_exporterUrl = QString::fromUtf8(line.mid(6));
            emitReadyWhenDone();
        }
    }
}

void DemoLauncher::onFinished(int exitCode, QProcess::ExitStatus status) {
    if (m_stopping)
        return;
    const QString err = QString::fromUtf8(m_process.readAllStandardError()).trimmed().right(2000);
    emit failed(status == QProcess::CrashExit
                    ? tr("The demo cluster crashed. %1").arg(err)
                    : tr("The demo cluster exited with code %1. %2").arg(exitCode).arg(err));
}

void DemoLauncher::stopProcess(QProcess &process) {
    if (process.state() == QProcess::NotRunning)
        return;
    process.terminate();
    // Shutdown only: give it a moment to exit cleanly, then make sure.
    if (!process.waitForFinished(3000)) {
        process.kill();
        process.waitForFinished(1000);
    }
}

void DemoLauncher::stop() {
    m_stopping = true;
    // The controller first: it writes to the database and talks to the cluster.
    stopProcess(m_controller);
    stopProcess(m_exporter);
    stopProcess(m_process);
}

} // namespace gq
