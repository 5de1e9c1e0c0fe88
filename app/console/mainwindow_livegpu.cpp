// MainWindow's part in the live GPU monitor: one GpuMonitor for the current context's
// metrics source, the Live GPUs tab (or, without a source, what to configure), the
// namespace list's live utilization, and the refresh interval and idle thresholds from
// the Preferences.
#include "mainwindow.h"

#include "clusterconnection.h"
#include "consolesettings.h"
#include "gpumonitor.h"
#include "livegpumodel.h"
#include "livegpupage.h"
#include "namespacelistmodel.h"
#include "namespacepanel.h"
#include "quotapage.h"
#include "startpage.h"
#include "usageservice.h"

#include <QFile>
#include <QPointer>
#include <QTabWidget>

namespace gq {

void MainWindow::buildLiveGpus() {
    m_gpuMonitor = new GpuMonitor(this);
    // The Discover source and the holders' users go through the current context's client.
    m_gpuMonitor->setClusterClient(
        [session = QPointer<ClusterConnection>(m_session)] { return session ? session->client() : nullptr; });
    m_liveGpuPage = new LiveGpuPage(m_gpuMonitor, m_tabs);
    m_gpuGate = new SourceGate(m_liveGpuPage, m_tabs);
    m_gpuGate->setObjectName(QStringLiteral("liveGpuGate"));
    connect(m_gpuGate, &SourceGate::configureRequested, this, [this] {
        openPreferences(PreferencesDialog::Tab::Connections, ConnectionsTab::Section::Metrics);
    });
    connect(m_gpuMonitor, &GpuMonitor::snapshotAvailable, this, [this](const metrics::GpuSnapshot &snap) {
        m_model->setLiveGpus(namespaceGpuLive(snap));
        m_namespaces->setLiveGpusShown(true);
    });
    // The page's layout as the user left it.
    m_liveGpuPage->restoreSplitterState(m_settings->value(settings::liveGpuSplitter));
    m_liveGpuPage->setTileView(m_settings->value(settings::liveGpuTiles));
    connect(m_liveGpuPage, &LiveGpuPage::layoutChanged, this, [this] {
        m_settings->setValue(settings::liveGpuSplitter, m_liveGpuPage->splitterState());
        m_settings->setValue(settings::liveGpuTiles, m_liveGpuPage->tileView());
    });
    connect(m_liveGpuPage, &LiveGpuPage::namespaceActivated, this, [this](const QString &ns) {
        m_namespaces->setVisible(true);
        m_namespaces->selectNamespace(ns);
        m_tabs->setCurrentWidget(m_quotaPage);
    });
    // Without Prometheus the idle list shows what the controller recorded in the
    // context's usage database.
    connect(m_db, &UsageService::opened, m_liveGpuPage,
            [this] { m_liveGpuPage->setDatabaseUrl(m_db->url(), m_db->password()); });
    connect(m_db, &UsageService::failed, m_liveGpuPage, [this] {
        if (!m_db->isOpen()) // not a failed query of an open database
            m_liveGpuPage->setDatabaseUrl(QString());
    });
    applyLiveGpuPreferences();
    showMetricsMissing(QString());
}

void MainWindow::applyLiveGpuPreferences() {
    const int seconds = std::max(1, m_settings->value(settings::metricsRefreshSeconds));
    metrics::IdleOptions idle;
    idle.thresholdPct = m_settings->value(settings::idleUtilizationPercent);
    idle.minIdleMs = qint64(m_settings->value(settings::idleMinutes)) * 60000;
    m_liveGpuPage->setIdleOptions(idle);
    if (m_gpuMonitor->isConfigured())
        m_gpuMonitor->start(seconds * 1000);
}

void MainWindow::showMetricsMissing(const QString &context) {
    m_gpuMonitor->stop();
    m_gpuMonitor->setSource({});
    m_model->setLiveGpus({});
    m_namespaces->setLiveGpusShown(false);
    const QString who = context.isEmpty() ? tr("This context") : tr("The context \"%1\"").arg(context);
    m_gpuGate->showMissing(
        tr("%1 has no GPU metrics source. The live GPU view reads NVIDIA dcgm-exporter's metrics, best "
           "through Prometheus (its URL, and a token or CA if it needs them), or by scraping the "
           "exporters' /metrics endpoints directly, or by finding the exporter pods through the cluster "
           "and reading them through its API server (no history for these two: no sparklines and no "
           "idle list). Set one under Preferences > Connections > Metrics.")
            .arg(who),
        tr("Configure the metrics source..."));
}

// The source of the context's connections: Prometheus (its token from the keychain, its
// CA read off the GUI thread), the exporters' endpoints, or the exporter pods found
// through the cluster.
void MainWindow::applyMetricsSource(const QString &context) {
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
    showMetricsMissing(context);
}

void MainWindow::startMonitor(GpuMonitor::Source source) {
    m_gpuMonitor->setSource(std::move(source));
    m_gpuGate->showPage();
    applyLiveGpuPreferences();
    if (m_liveGpuPage->isVisible())
        m_liveGpuPage->refreshHistory();
}

} // namespace gq
