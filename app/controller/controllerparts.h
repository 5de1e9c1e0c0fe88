#pragma once

#include "services/controller/controllercheck.h"
#include "core/httpd/httpserver.h"
#include "core/domain/result.h"

#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace gq {

class AdmissionWebhook;
class AuditHeadPublisher;
class BoostReconciler;
class BudgetEnforcer;
class ControllerAlerts;
class ControllerRuntime;
class DenialEvents;
class HttpTransport;
class IdleRecorder;
struct IdleRecorderConfig;
class KubeClient;
class KueueBudgetCheck;
class LeaderElector;
class MetricsRegistry;
class SelfService;
class UncheckedPods;
class UsageStore;
class ReviewBeacon;
class WebhookHealth;
struct ClampEvent;
struct Error;

// Everything the controller runs beside recording, put around a ControllerRuntime:
//
//   every replica   the admission webhook (webhook.listen, TLS; its denials of
//                   controller-made pods as Events on their owners), the self-service
//                   endpoints and /metrics (on `listen`)
//   the leader      recording, the namespace clamp (enforce.interval), boosts on
//                   time, alerts; with leaderElection on, only while it holds the Lease
//
// Nothing here needs the database to start: the webhook opens its own connection when
// a review needs it (and again after the database restarts); the leader's enforcer and
// boosts use a connection made when the ledger writer reaches the database and dropped
// when it loses it, and wait meanwhile while the recorder spools; the alerts run
// throughout (the "database unwritable" alert is one of theirs). Losing the Lease stops
// recording and enforcing at once and ends the process (exit 1) so a replica never acts
// on stale leadership; the Deployment restarts it as a follower.
class ControllerParts final : public QObject {
    Q_OBJECT
public:
    ~ControllerParts() override;

    // Mounts the self-service routes on the runtime's `listen`, from a setup that
    // checkControllerConfig() accepted. Before runtime.start().
    static Result<std::unique_ptr<ControllerParts>> create(ControllerRuntime &runtime,
                                                           const ControllerSetup &setup);
    // After runtime.start(): serves the webhook, then leads at once or runs for the Lease.
    Result<void> start();
    // SIGTERM, in every state: stops leading at once, /readyz turns 503, the webhook
    // stops, and a held Lease is given up (so another replica takes over at once).
    // `done` runs from the event loop, never before this returns: when the release is
    // finished, after two seconds at most, or at once when there was no Lease to give up.
    void shutdown(std::function<void()> done);

private:
    ControllerParts(ControllerRuntime &runtime, const ControllerSetup &setup);

    void lead();
    void stopLeading();
    void onDatabaseReady();
    void onDatabaseLost(const Error &error);
    void buildLeaderParts();
    void buildIdleRecorder(const IdleRecorderConfig &config);
    void tickEnforcer();
    void tickBoosts();
    void feedMetrics();
    void onClamp(const ClampEvent &event);
    Result<void> startWebhook();
    void checkWebhookCalls();

    ControllerRuntime &m_rt;
    const ControllerSetup m_setup;

    std::shared_ptr<MetricsRegistry> m_metrics;
    std::unique_ptr<SelfService> m_self;
    std::unique_ptr<DenialEvents> m_denialEvents; // the webhook's denials of owned pods
    std::unique_ptr<AdmissionWebhook> m_webhook;
    std::shared_ptr<WebhookHealth> m_webhookHealth; // /readyz, /metrics
    std::unique_ptr<ReviewBeacon> m_beacon;         // its last review, for the leader
    std::unique_ptr<UncheckedPods> m_unchecked;     // the leader's
    httpd::HttpServer m_webhookServer;
    std::unique_ptr<LeaderElector> m_elector;
    std::unique_ptr<ControllerAlerts> m_alerts;

    std::unique_ptr<UsageStore> m_store; // the leader's parts' own connection
    std::unique_ptr<BudgetEnforcer> m_enforcer;
    std::unique_ptr<KueueBudgetCheck> m_kueueCheck;
    std::unique_ptr<BoostReconciler> m_boosts;
    std::unique_ptr<AuditHeadPublisher> m_auditHead; // the leader's copy of the audit head
    std::unique_ptr<IdleRecorder> m_idle;            // metrics: + idle: sections; the leader's

    QTimer m_enforceTimer;
    QTimer m_boostTimer;
    QTimer m_metricsTimer;
    bool m_leading = false;
    bool m_shuttingDown = false;
    qint64 m_lastReconcile = 0;
    int m_clampsActive = 0;
};

} // namespace gq
