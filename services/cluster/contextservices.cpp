#include "services/cluster/contextservices.h"

#include "services/usage/usagedatabase.h"

#include "services/boosts/boostservice.h"
#include "services/budgets/budgetservice.h"
#include "services/cluster/clusterconnection.h"
#include "services/cluster/connectionprobe.h"
#include "services/audit/consoleauditsink.h"
#include "services/chargeback/chargebackservice.h"
#include "services/settings/consolesettings.h"
#include "services/cluster/kubeconfigwatcher.h"
#include "services/usage/usagechartservice.h"
#include "services/usage/usageservice.h"

#include <QFile>
#include <QPointer>
#include <QUrl>

#include <algorithm>

namespace gq {

ContextServices::ContextServices(ConsoleSettings *settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_connection(new ClusterConnection(this))
    , m_usage(new UsageDatabase(this))
    , m_db(new UsageService(m_usage, this))
    , m_charts(new UsageChartService(m_usage, this))
    , m_budgets(new BudgetService(m_usage, this))
    , m_boosts(new BoostService(m_usage, this))
    , m_chargeback(new ChargebackService(m_usage, this))
    , m_gpuMonitor(new GpuMonitor(this))
    , m_probe(std::make_shared<ConnectionProbe>()) {
    m_auditSink =
        std::make_shared<ConsoleAuditSink>(m_db, [connection = QPointer<ClusterConnection>(m_connection)] {
            return !connection || connection->identity().isEmpty() ? tr("unknown") : connection->identity();
        });
    // The services that read the usage database have connections of their own (on their
    // threads), opened once the database exists (the service creates it).
    connect(m_db, &UsageService::opened, this, [this] {
        const QString url = m_db->url();
        const QString password = m_db->password();
        m_db->loadAudit();
        m_charts->open(url, password);
        m_budgets->open(url, password);
        m_boosts->open(url, password);
    });
    connect(m_budgets, &BudgetService::changed, m_db, [this] { m_db->checkBudgets(); });
    connect(m_connection, &ClusterConnection::synced, m_db, [this] { m_db->checkBudgets(); });
    m_db->setBudgetRefreshInterval(m_settings->value(settings::budgetRefreshSeconds) * 1000);
    connect(m_settings, &ConsoleSettings::preferencesChanged, this, &ContextServices::applyPreferences);
    // The Discover source and the holders' users go through the current context's client.
    m_gpuMonitor->setClusterClient([connection = QPointer<ClusterConnection>(m_connection)] {
        return connection ? connection->client() : nullptr;
    });
}

ContextServices::~ContextServices() = default;

AuditHead ContextServices::auditHead() const {
    return m_db->isOpen() ? m_db->auditHead() : AuditHead{};
}

ContextId ContextServices::contextId(const QString &context) const {
    return {context, m_connection->kubeconfig()->serverOf(context)};
}

void ContextServices::setFixedConnections(const ContextConnections &connections) {
    m_fixedConnections = connections;
    if (!m_connectionsContext.isEmpty())
        applyConnections(m_connectionsContext);
}

void ContextServices::openUsageDatabase(const QString &url) {
    m_usageDbOverride = url;
    emit usageDatabaseSet(url != m_db->url());
    m_db->open(url);
}

void ContextServices::applyConnections(const QString &context) {
    m_connections =
        m_fixedConnections ? *m_fixedConnections : takeConnections(*m_settings, contextId(context));
    m_connectionsContext = context;
    m_prometheusUrlPassword.clear();
    m_urlSecretJobs.cancel();
    if (m_connections.metricsSource == MetricsSource::Prometheus &&
        !QUrl(m_connections.prometheusUrl).userName().isEmpty()) {
        // https://user@prom: its password is in the keychain (moved out of the URL on save).
        m_urlSecretJobs.watch(contextSecret(*m_settings, settings::prometheusUrlPassword, contextId(context)),
                              [this, context](const Result<QString> &password) {
                                  m_prometheusUrlPassword = password.value_or(QString());
                                  applyMetricsSource(context);
                              });
    } else {
        applyMetricsSource(context);
    }
    emit connectionsChanged(context, m_connections);
    if (!m_usageDbOverride.isEmpty())
        return; // one database for every context (--usage-db, the demo)
    const QString url = m_connections.usageDatabaseUrl;
    if (url.isEmpty()) {
        m_db->close();
        emit usageDatabaseMissing(context);
        return;
    }
    const bool changed = url != m_db->url();
    emit usageDatabaseSet(changed);
    if (!changed)
        return;
    // The password (PostgreSQL) is in the keychain; the database opens once it is read.
    m_dbJobs.cancel();
    m_dbJobs.watch(
        contextSecret(*m_settings, settings::usageDatabaseSecret, contextId(context)),
        [this, url](const Result<QString> &password) { m_db->open(url, password.value_or(QString())); });
}

void ContextServices::applyPreferences(const QStringList &changedContexts) {
    m_db->setBudgetRefreshInterval(m_settings->value(settings::budgetRefreshSeconds) * 1000);
    restartMonitor();
    const QString current = m_connection->contextName();
    if (changedContexts.contains(current)) {
        // A changed password for the same URL must reopen too.
        m_db->close();
        applyConnections(current);
    }
}

void ContextServices::restartMonitor() {
    const int seconds = std::max(1, m_settings->value(settings::metricsRefreshSeconds));
    if (m_gpuMonitor->isConfigured())
        m_gpuMonitor->start(seconds * 1000);
}

// The source of the context's connections: Prometheus (its token from the keychain, its
// CA read off the GUI thread), the exporters' endpoints, or the exporter pods found
// through the cluster.
void ContextServices::applyMetricsSource(const QString &context) {
    m_metricsJobs.cancel();
    const ContextConnections c = m_connections;
    switch (c.metricsSource) {
    case MetricsSource::Prometheus: {
        if (c.prometheusUrl.isEmpty())
            break;
        m_metricsJobs.watch(
            contextSecret(*m_settings, settings::prometheusToken, contextId(context)),
            [this, c](const Result<QString> &t) {
                const QByteArray token = t ? t->toUtf8() : QByteArray();
                m_metricsJobs.run(
                    [file = c.prometheusCaFile]() -> QByteArray {
                        QFile f(file);
                        return !file.isEmpty() && f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
                    },
                    [this, c, token](const QByteArray &ca) {
                        metrics::PrometheusConfig config;
                        config.url = withUrlPassword(c.prometheusUrl, m_prometheusUrlPassword);
                        config.bearerToken = token;
                        config.caPem = ca;
                        startMonitor(GpuMonitor::Source::prometheusAt(config));
                    });
            });
        return;
    }
    case MetricsSource::Exporters: {
        QList<metrics::ScrapeTarget> targets;
        for (const QString &url : c.exporterEndpoints)
            if (!url.trimmed().isEmpty())
                targets.append(metrics::ScrapeTarget{url.trimmed(), {}, false, 10000});
        if (targets.isEmpty())
            break;
        startMonitor(GpuMonitor::Source::scrape(targets));
        return;
    }
    case MetricsSource::Discover:
        // dcgm-exporter's pods, each read through the API server's pod proxy.
        startMonitor(GpuMonitor::Source::discover());
        return;
    case MetricsSource::None: break;
    }
    stopMonitor(context);
}

void ContextServices::startMonitor(GpuMonitor::Source source) {
    m_gpuMonitor->setSource(std::move(source));
    restartMonitor();
    emit metricsStarted();
}

void ContextServices::stopMonitor(const QString &context) {
    m_gpuMonitor->stop();
    m_gpuMonitor->setSource({});
    emit metricsMissing(context);
}

} // namespace gq
