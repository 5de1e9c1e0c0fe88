// MainWindow's part in the live GPU monitor (ContextServices runs it on the current
// context's metrics source): the Live GPUs tab (or, without a source, what to
// configure), the namespace list's live utilization, and the idle thresholds from the
// Preferences.
#include "app/console/mainwindow.h"

#include "services/cluster/clusterconnection.h"
#include "services/settings/consolesettings.h"
#include "services/livegpus/gpumonitor.h"
#include "models/livegpus/livegpumodel.h"
#include "widgets/livegpus/livegpupage.h"
#include "models/quotas/namespacelistmodel.h"
#include "widgets/quotas/namespacepanel.h"
#include "widgets/quotas/quotapage.h"
#include "widgets/connections/startpage.h"
#include "services/usage/usageservice.h"

#include <QTabWidget>

namespace gq {

void MainWindow::buildLiveGpus() {
    GpuMonitor *monitor = m_services->gpuMonitor();
    m_liveGpuPage = new LiveGpuPage(monitor, m_tabs);
    m_gpuGate = new SourceGate(m_liveGpuPage, m_tabs);
    m_gpuGate->setObjectName(QStringLiteral("liveGpuGate"));
    connect(m_gpuGate, &SourceGate::configureRequested, this, [this] {
        openPreferences(PreferencesDialog::Tab::Connections, ConnectionsTab::Section::Metrics);
    });
    connect(monitor, &GpuMonitor::snapshotAvailable, this, [this](const metrics::GpuSnapshot &snap) {
        m_model->setLiveGpus(namespaceGpuLive(snap));
        m_namespaces->setLiveGpusShown(true);
    });
    connect(m_services, &ContextServices::metricsStarted, this, &MainWindow::showMetricsStarted);
    connect(m_services, &ContextServices::metricsMissing, this, &MainWindow::showMetricsMissing);
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
    connect(m_settings, &ConsoleSettings::preferencesChanged, this, &MainWindow::applyLiveGpuPreferences);
    applyLiveGpuPreferences();
    showMetricsMissing(QString());
}

// The idle thresholds of the Preferences (the monitor's refresh interval is the services').
void MainWindow::applyLiveGpuPreferences() {
    metrics::IdleOptions idle;
    idle.thresholdPct = m_settings->value(settings::idleUtilizationPercent);
    idle.minIdleMs = qint64(m_settings->value(settings::idleMinutes)) * 60000;
    m_liveGpuPage->setIdleOptions(idle);
}

void MainWindow::showMetricsMissing(const QString &context) {
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

void MainWindow::showMetricsStarted() {
    m_gpuGate->showPage();
    applyLiveGpuPreferences();
    if (m_liveGpuPage->isVisible())
        m_liveGpuPage->refreshHistory();
}

} // namespace gq
