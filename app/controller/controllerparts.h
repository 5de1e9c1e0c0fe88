#pragma once

#include "alertconfig.h"
#include "alertrecipients.h"
#include "httpserver.h"
#include "result.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>

namespace gq {

class AdmissionWebhook;
class AlertService;
class BoostReconciler;
class BudgetEnforcer;
class ControllerRuntime;
class HttpTransport;
class IdleRecorder;
struct IdleRecorderConfig;
class KubeClient;
class LeaderElector;
class MetricsRegistry;
class SelfService;
class UsageStore;
struct ClampEvent;

// Everything the controller runs beside recording, put around a ControllerRuntime:
//
//   every replica   the admission webhook (webhook.listen, TLS), the self-service
//                   endpoints and /metrics (on `listen`)
//   the leader      recording, the namespace clamp (enforce.interval), boosts on
//                   time, alerts; with leaderElection on, only while it holds the Lease
//
// The leader's parts use a database connection of their own, made when the ledger
// writer reaches the database and dropped when it loses it (so a part never holds a
// store the writer has thrown away); while the database is away they wait, and the
// recorder spools. Losing the Lease ends the process (exit 1) so a replica never acts
// on stale leadership; the Deployment restarts it as a follower.
class ControllerParts final : public QObject {
    Q_OBJECT
public:
    ~ControllerParts() override;

    // Reads the alerts: and selfService: sections (errors name the key and line: Config,
    // exit 2) and mounts the self-service routes on the runtime's `listen`. Before
    // runtime.start().
    static Result<std::unique_ptr<ControllerParts>> create(ControllerRuntime &runtime);
    // After runtime.start(): serves the webhook, then leads at once or runs for the Lease.
    Result<void> start();
    // SIGTERM: gives the Lease up (so another replica takes over at once) and stops the
    // webhook; `done` runs when that is finished or after two seconds.
    void shutdown(std::function<void()> done);

private:
    explicit ControllerParts(ControllerRuntime &runtime);

    void lead();
    void onDatabaseReady();
    void onDatabaseLost();
    void buildLeaderParts();
    void buildIdleRecorder(const IdleRecorderConfig &config);
    void tickEnforcer();
    void tickBoosts();
    void tickAlerts();
    void feedMetrics();
    void onClamp(const ClampEvent &event);

    ControllerRuntime &m_rt;
    std::optional<AlertConfig> m_alertConfig;
    AlertRecipients m_recipients;
    bool m_perUserMetrics = false;

    std::shared_ptr<MetricsRegistry> m_metrics;
    std::unique_ptr<SelfService> m_self;
    std::unique_ptr<AdmissionWebhook> m_webhook;
    httpd::HttpServer m_webhookServer;
    std::unique_ptr<LeaderElector> m_elector;
    std::shared_ptr<HttpTransport> m_transport;

    std::unique_ptr<UsageStore> m_store; // the leader's parts' own connection
    std::unique_ptr<BudgetEnforcer> m_enforcer;
    std::unique_ptr<BoostReconciler> m_boosts;
    std::unique_ptr<AlertService> m_alerts;
    std::unique_ptr<IdleRecorder> m_idle; // metrics: + idle: sections; the leader's

    QTimer m_enforceTimer;
    QTimer m_boostTimer;
    QTimer m_alertTimer;
    QTimer m_metricsTimer;
    bool m_leading = false;
    qint64 m_databaseDownSince = 0;
    qint64 m_lastReconcile = 0;
    int m_clampsActive = 0;
};

} // namespace gq
