#pragma once

// The services of the kubeconfig context the console shows, and their wiring to each
// other: the cluster connection, the context's usage database (with the charts, budgets,
// boosts and chargeback that read it), the GPU metrics monitor, the transport that probes the
// controller, and the audit sink of the changes made through the connection. Which
// database, metrics source and controller a context uses comes from its connections in
// the settings (connectionsettings.h), their secrets from the keychain (off the GUI
// thread). The window composes pages on top of this and holds no feature logic; what
// it shows of a missing source follows the signals below.

#include "core/usage/auditanchor.h"
#include "services/settings/connectionsettings.h"
#include "services/livegpus/gpumonitor.h"
#include "core/jobs/jobtracker.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace gq {

class BoostService;
class BudgetService;
class ChargebackService;
class ChangeAuditSink;
class ClusterConnection;
class ConnectionProbe;
class ConsoleSettings;
class UsageChartService;
class UsageDatabase;
class UsageService;

class ContextServices final : public QObject {
    Q_OBJECT
public:
    explicit ContextServices(ConsoleSettings *settings, QObject *parent = nullptr);
    ~ContextServices() override;
    Q_DISABLE_COPY_MOVE(ContextServices)

    [[nodiscard]] ClusterConnection *connection() const { return m_connection; }
    [[nodiscard]] UsageService *database() const { return m_db; }
    [[nodiscard]] UsageDatabase *usageDatabase() const { return m_usage; }
    [[nodiscard]] UsageChartService *charts() const { return m_charts; }
    [[nodiscard]] BudgetService *budgets() const { return m_budgets; }
    [[nodiscard]] BoostService *boosts() const { return m_boosts; }
    [[nodiscard]] ChargebackService *chargeback() const { return m_chargeback; }
    [[nodiscard]] GpuMonitor *gpuMonitor() const { return m_gpuMonitor; }
    // The one transport of the controller's status and the Connections tab's Test buttons.
    [[nodiscard]] const std::shared_ptr<ConnectionProbe> &probe() const { return m_probe; }
    // Applied changes' audit entries (changeaudit.h), into the open usage database by
    // the user the cluster says we are.
    [[nodiscard]] const std::shared_ptr<ChangeAuditSink> &auditSink() const { return m_auditSink; }
    // The head of the open database's audit log, published with each write ({} : none open).
    [[nodiscard]] AuditHead auditHead() const;
    // What the current context connects to besides the API server.
    [[nodiscard]] const ContextConnections &connections() const { return m_connections; }
    // The context as its connections are kept (name and API server).
    [[nodiscard]] ContextId contextId(const QString &context) const;

    // Every context connects to these (the demo's exporter and controller) instead of
    // the connections kept in the settings, which stay untouched.
    void setFixedConnections(const ContextConnections &connections);
    // One usage database for every context (--usage-db, --demo, tests).
    void openUsageDatabase(const QString &url);
    // The connections of `context` (from the settings, or the fixed ones): its usage
    // database opened (its password read first), its metrics source started.
    void applyConnections(const QString &context);
    // The Preferences were applied (ConsoleSettings::preferencesChanged): refresh
    // intervals, and the connections of the current context again when they are among
    // `changedContexts`.
    void applyPreferences(const QStringList &changedContexts);
    // The refresh interval of the monitor from the settings; starts a configured one.
    void restartMonitor();

signals:
    // Another context, or its connections were edited.
    void connectionsChanged(const QString &context, const gq::ContextConnections &connections);
    // The context names no usage database (the database was closed).
    void usageDatabaseMissing(const QString &context);
    // The context names one (or one is set for every context); `changed`: another than
    // the one open, which is now being opened.
    void usageDatabaseSet(bool changed);
    // The metrics source of the context: none, or the monitor was given one.
    void metricsMissing(const QString &context);
    void metricsStarted();

private:
    void applyMetricsSource(const QString &context);
    void startMonitor(GpuMonitor::Source source);
    void stopMonitor(const QString &context);

    ConsoleSettings *m_settings;
    ClusterConnection *m_connection;
    UsageDatabase *m_usage; // every service below reaches the usage database through it
    UsageService *m_db;
    UsageChartService *m_charts;
    BudgetService *m_budgets;
    BoostService *m_boosts;
    ChargebackService *m_chargeback;
    GpuMonitor *m_gpuMonitor;
    std::shared_ptr<ConnectionProbe> m_probe;
    std::shared_ptr<ChangeAuditSink> m_auditSink;
    ContextConnections m_connections;
    std::optional<ContextConnections> m_fixedConnections; // setFixedConnections()
    QString m_connectionsContext;                         // whose connections m_connections holds
    QString m_usageDbOverride;
    QString m_prometheusUrlPassword;  // from the keychain; joined to the URL when used
    JobTracker m_dbJobs{this};        // the usage database's password
    JobTracker m_metricsJobs{this};   // the metrics token and CA of the current context
    JobTracker m_urlSecretJobs{this}; // the password of the context's Prometheus URL
};

} // namespace gq
