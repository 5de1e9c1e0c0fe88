#include "demolauncher.h"

#include "childguard.h"
#include "demousage.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QTimeZone>

namespace gq {

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
}

DemoLauncher::~DemoLauncher() {
    stop();
}

QString DemoLauncher::clusterProgram() {
    const QString env = qEnvironmentVariable("GQ_TESTCLUSTER");
    if (!env.isEmpty())
        return env;
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("gpuquota-testcluster"));
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

    // Meanwhile, on a pool thread: a week of usage and a few budgets, so the budget
    // badges and (later) usage charts have something to show. The window connects
    // once both are done; a seeding failure only costs the demo its history.
    const QString url = databaseUrl();
    m_jobs.run(
        [url] {
            const auto seeded =
                seedDemoUsage(url, QDateTime::currentSecsSinceEpoch(), QTimeZone::systemTimeZone());
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

void DemoLauncher::emitReadyWhenDone() {
    if (m_ready && m_seeded && !m_announced) {
        m_announced = true;
        emit ready(kubeconfigPath(), m_url);
    }
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

void DemoLauncher::onFinished(int exitCode, QProcess::ExitStatus status) {
    if (m_stopping)
        return;
    const QString err = QString::fromUtf8(m_process.readAllStandardError()).trimmed().right(2000);
    emit failed(status == QProcess::CrashExit
                    ? tr("The demo cluster crashed. %1").arg(err)
                    : tr("The demo cluster exited with code %1. %2").arg(exitCode).arg(err));
}

void DemoLauncher::stop() {
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_stopping = true;
    m_process.terminate();
    // Shutdown only: give it a moment to exit cleanly, then make sure.
    if (!m_process.waitForFinished(3000)) {
        m_process.kill();
        m_process.waitForFinished(1000);
    }
}

} // namespace gq
