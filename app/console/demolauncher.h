#pragma once

#include "core/jobs/jobtracker.h"

#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QTemporaryDir>

#include <memory>

namespace gq {

// `--demo`: runs, as children of the console, on free loopback ports:
//   - `gpuquota-testcluster --scenario demo`, its kubeconfig in a temporary directory;
//   - `gq-test-exporter --demo`, dcgm-exporter text for the demo's GPUs (the Live GPUs
//     page reads it directly);
//   - `gpuquota-controller` on the demo's SQLite usage database, started once the
//     database is seeded (usage history, budgets, boosts, audit entries): it records
//     the cluster's GPU pods (also those started with kubectl against the demo
//     kubeconfig), applies the boosts, clamps the team past its budget and records idle
//     GPUs from the exporter.
// The temporary directory is removed when the launcher goes, and the children are
// stopped with it (SIGTERM, then kill; and with the console should it die), so closing
// the window leaves nothing behind. The exporter and the controller are optional: when
// their programs are missing the demo runs without them (and seeds the running pods'
// usage itself).
class DemoLauncher final : public QObject {
    Q_OBJECT
public:
    explicit DemoLauncher(QObject *parent = nullptr);
    ~DemoLauncher() override;

    // The programs next to this one, or $GQ_TESTCLUSTER, $GQ_TEST_EXPORTER, $GQ_CONTROLLER.
    [[nodiscard]] static QString clusterProgram();
    [[nodiscard]] static QString exporterProgram();
    [[nodiscard]] static QString controllerProgram();
    void start(const QStringList &extraArgs = {});
    void stop();

    [[nodiscard]] QString kubeconfigPath() const;
    [[nodiscard]] QString databaseUrl() const;
    [[nodiscard]] QString serverUrl() const { return m_url; }
    // The exporter's /metrics URL; empty when it does not run.
    [[nodiscard]] QString exporterUrl() const { return m_exporterUrl; }
    // The controller's base URL (health, /metrics, self-service); empty when it does not run.
    [[nodiscard]] QString controllerUrl() const { return m_controllerUrl; }
    [[nodiscard]] QString directory() const { return m_dir ? m_dir->path() : QString(); }
    [[nodiscard]] qint64 processId() const { return m_process.processId(); }
    [[nodiscard]] qint64 controllerProcessId() const { return m_controller.processId(); }
    [[nodiscard]] qint64 exporterProcessId() const { return m_exporter.processId(); }

signals:
    // The cluster answers, the database is seeded, the exporter (when there is one)
    // serves and the controller (when there is one) has recorded the running pods, or
    // has had 20 s for it.
    void ready(const QString &kubeconfigPath, const QString &serverUrl);
    void failed(const QString &message);

private:
    void onReadyRead();
    void onExporterReadyRead();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void emitReadyWhenDone();
    void pollController();
    void announce();
    void startController();
    static void stopProcess(QProcess &process);

    std::unique_ptr<QTemporaryDir> m_dir;
    QProcess m_process; // the test cluster
    QProcess m_exporter;
    QProcess m_controller;
    QByteArray m_buffer;
    QByteArray m_exporterBuffer;
    QString m_url;
    QString m_exporterUrl;
    QString m_controllerUrl;
    bool m_ready = false;        // the cluster said "ready"
    bool m_seeded = false;       // the usage history is written (or failed)
    bool m_exporterDone = false; // the exporter said "ready" (or will not)
    bool m_withController = false;
    bool m_announced = false;
    bool m_waitingForController = false;
    QElapsedTimer m_controllerWait;
    static constexpr qint64 kControllerWaitMs = 20000;
    bool m_stopping = false;
    JobTracker m_jobs{this}; // the usage seeding; last, so it is gone first
};

} // namespace gq
