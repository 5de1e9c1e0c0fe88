#pragma once

#include "jobtracker.h"

#include <QObject>
#include <QProcess>
#include <QTemporaryDir>

#include <memory>

namespace gq {

// `--demo`: runs `gpuquota-testcluster --scenario demo` as a child on a free
// loopback port, with its kubeconfig and an SQLite usage database in a temporary
// directory that is removed when the launcher goes. The child is stopped with the
// launcher (SIGTERM, then kill), so closing the window leaves nothing behind.
class DemoLauncher final : public QObject {
    Q_OBJECT
public:
    explicit DemoLauncher(QObject *parent = nullptr);
    ~DemoLauncher() override;

    // The test cluster next to this program, or $GQ_TESTCLUSTER.
    [[nodiscard]] static QString clusterProgram();
    void start(const QStringList &extraArgs = {});
    void stop();

    [[nodiscard]] QString kubeconfigPath() const;
    [[nodiscard]] QString databaseUrl() const;
    [[nodiscard]] QString serverUrl() const { return m_url; }
    [[nodiscard]] QString directory() const { return m_dir ? m_dir->path() : QString(); }
    [[nodiscard]] qint64 processId() const { return m_process.processId(); }

signals:
    void ready(const QString &kubeconfigPath, const QString &serverUrl);
    void failed(const QString &message);

private:
    void onReadyRead();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void emitReadyWhenDone();

    std::unique_ptr<QTemporaryDir> m_dir;
    QProcess m_process;
    QByteArray m_buffer;
    QString m_url;
    bool m_ready = false;  // the cluster said "ready"
    bool m_seeded = false; // the usage history is written (or failed)
    bool m_announced = false;
    bool m_stopping = false;
    JobTracker m_jobs{this}; // the usage seeding; last, so it is gone first
};

} // namespace gq
