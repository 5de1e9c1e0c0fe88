#pragma once

#include "services/controller/controllerconfig.h"
#include "core/httpd/httpserver.h"
#include "core/domain/result.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace gq {

class KubeClient;
class LedgerWriter;
class UsageRecorder;

// The controller put together from its configuration: the cluster client, the usage
// database writer with its spool, the usage recorder and the `listen` server with
// /healthz and /readyz. app/controller/main.cpp only builds this and runs the loop.
//
// Hook points for the parts built elsewhere (see README "Controller"):
// - addRoute() before start(): /metrics, /quota, /quota/status (self-service) on
//   `listen`; figures() gives this part's numbers as plain getters.
// - startRecording(): called by the parts once they are built, on every replica (the
//   ledger's writes are idempotent: a handover loses nothing); stopRecording() when
//   shutting down. /readyz is 503 until recording has started and the cache synced.
// - client(), writer()->store(), config(): enforcement (namespace clamp, boosts on a
//   timer), the admission webhook (its own HttpServer on webhook.listen, on every
//   replica) and the alert service build on these; config().alerts and
//   config().selfService are the raw sections for their parsers.
class ControllerRuntime final : public QObject {
    Q_OBJECT
public:
    explicit ControllerRuntime(ControllerConfig config, QObject *parent = nullptr);
    ~ControllerRuntime() override;

    void addRoute(const QByteArray &method, const QString &path, httpd::Handler handler);
    // Before start(): the recorder also reads the users' emails from pods (this label,
    // else annotation) and reports them (UsageRecorder::userEmailSeen).
    void setUserEmailKey(const QString &key) { m_userEmailKey = key; }
    // Connects, opens (or spools for) the database, serves `listen`; records unless
    // leader election is enabled (then the parts call startRecording()). Errors: Config
    // (cluster), Io (listen address in use).
    Result<void> start();
    void startRecording();
    // Shutting down: the recorder watches and submits nothing more.
    void stopRecording();
    // False: /readyz answers 503 whatever else holds (shutting down, leadership lost),
    // so no Service sends this replica anything while it goes.
    void setServing(bool serving) { m_serving = serving; }
    // Before start(): more lines for the /readyz body (the webhook's health), called on
    // server threads; they do not change its status.
    void setReadyzExtra(std::function<QString()> extra) { m_readyzExtra = std::move(extra); }
    // With leader election, until when some replica is known to hold the Lease
    // (LeaderElector::heldUntilMs, QDeadlineTimer milliseconds; 0: nobody). While
    // nobody does, nothing is enforced anywhere and /readyz says so (still 200: every
    // replica records).
    void setLeaseHeldUntil(qint64 ms) { m_leaseHeldUntilMs = ms; }
    // Whether this replica leads (for /readyz's leader line).
    void setLeading(bool leading) { m_leading = leading; }

    [[nodiscard]] const ControllerConfig &config() const { return m_config; }
    [[nodiscard]] std::shared_ptr<KubeClient> client() const { return m_client; }
    [[nodiscard]] LedgerWriter *writer() const { return m_writer.get(); }
    [[nodiscard]] UsageRecorder *recorder() const { return m_recorder.get(); }
    [[nodiscard]] int listenPort() const;
    [[nodiscard]] bool ready() const;
    // Without leader election, or while some replica holds the Lease.
    [[nodiscard]] bool leaseHeld() const;

    // This part's figures, for /metrics. Safe to call from server threads.
    struct Figures {
        qint64 intervalsOpen = 0;
        qint64 intervalStatesRecorded = 0;
        qint64 spoolDepth = 0;
        qint64 spoolSkipped = 0;      // torn spool entries skipped by replays
        qint64 lastDatabaseWrite = 0; // epoch seconds, 0: never
        qint64 informerIdleSeconds = -1;
        bool databaseAvailable = false;
        bool podCacheSynced = false;
        qint64 held = 0; // interval states only in memory (database and spool unwritable)
        qint64 lost = 0; // interval states dropped: more than could be held
    };
    // How long readiness stays false after a state found nothing to persist it.
    static constexpr qint64 kReadyAfterFailureSecs = 10;
    [[nodiscard]] Figures figures() const;

private:
    ControllerConfig m_config;
    QString m_userEmailKey;
    std::shared_ptr<KubeClient> m_client;
    std::unique_ptr<LedgerWriter> m_writer;
    std::unique_ptr<UsageRecorder> m_recorder;
    httpd::HttpServer m_server;
    std::atomic<bool> m_recording{false}; // read by /readyz on server threads
    std::atomic<bool> m_serving{true};
    std::function<QString()> m_readyzExtra;
    std::atomic<qint64> m_leaseHeldUntilMs{-1}; // -1: no leader election
    std::atomic<bool> m_leading{false};
};

// The cluster client for `cluster:`: a kubeconfig context, or the pod's service account.
[[nodiscard]] Result<std::shared_ptr<KubeClient>>
controllerClusterClient(const ControllerConfig::Cluster &cluster);

} // namespace gq
