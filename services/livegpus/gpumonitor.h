#pragma once

#include "core/domain/clock.h"
#include "core/metrics/gpusample.h"
#include "core/metrics/idle.h"
#include "core/metrics/idlequery.h"
#include "core/jobs/jobtracker.h"
#include "core/metrics/prometheusclient.h"
#include "core/metrics/scrape.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace gq {

class ClaimPodsWatch;
class HttpTransport;
class KubeClient;
namespace exporters {
class DiscoveredExporters;
}

// The live GPU monitor as a service: the one place the console (the Live GPU page, the
// idle list, the namespace join) gets GPU readings from. No widgets, nothing blocks the
// caller's thread; every result comes back on it through a JobTracker, so a replaced
// source or a destroyed monitor simply drops what was still out.
//
//   GpuMonitor monitor;
//   monitor.setSource(GpuMonitor::Source::prometheus(config));   // or ::scrape({...})
//   connect(&monitor, &GpuMonitor::snapshotAvailable, page, &LiveGpuPage::show);
//   connect(&monitor, &GpuMonitor::failed, page, &LiveGpuPage::showError);
//   monitor.start(5000);                 // refresh every 5 s (refresh() for one now)
//   monitor.findIdle(options);           // -> idleAvailable (Prometheus only)
//   monitor.findRecordedIdle(options, dbUrl, password); // -> idleAvailable (what the controller recorded)
//   monitor.fetchHistory(15 * 60, 15);   // -> historyAvailable: sparklines (Prometheus only)
//   // -> rangeNotes: Prometheus' warnings and infos of those two, for the status line
//   // -> usersAvailable: "ns/pod" -> the pod's gpuquota.io/user label, once a minute
//
// Refreshes never overlap: a tick that comes while one is out is skipped (and counted
// in skippedTicks(), which a slow Prometheus shows as rising). Parsing and mapping run
// on the thread pool. Without a source, isConfigured() is false and refresh() reports
// failed() with kind Config, so a page can say how to configure one.
class GpuMonitor final : public QObject {
    Q_OBJECT
public:
    struct Source {
        // Discover: dcgm-exporter pods found through the cluster client's API server and
        // read through its pod proxy (exporterdiscovery.h); no history, like Scrape.
        enum class Kind { None, Prometheus, Scrape, Discover };
        Kind kind = Kind::None;
        metrics::PrometheusConfig prometheus;
        QList<metrics::ScrapeTarget> targets;

        static Source prometheusAt(metrics::PrometheusConfig config);
        static Source scrape(QList<metrics::ScrapeTarget> targets);
        static Source discover();
    };
    using ClientProvider = std::function<std::shared_ptr<KubeClient>()>;

    explicit GpuMonitor(QObject *parent = nullptr);
    ~GpuMonitor() override;

    // Replaces the source; whatever the old one still had out is dropped.
    void setSource(Source source);
    [[nodiscard]] const Source &source() const { return m_source; }
    [[nodiscard]] bool isConfigured() const { return m_source.kind != Source::Kind::None; }
    [[nodiscard]] bool keepsHistory() const { return m_source.kind == Source::Kind::Prometheus; }

    // The current context's Kubernetes client, asked on every refresh (it changes with
    // the context and the credentials): the Discover source reads through it, the
    // holders' users come from its pods (label gpuquota.io/user), and a GPU dcgm-exporter
    // names only by its DRA claim gets the claim's pods (claimpods.h: a watch of the
    // ResourceClaims, started by the first such GPU).
    void setClusterClient(ClientProvider provider);
    // What "now" is for idle detection and history (second precision). Default: the
    // system clock. `clock` must outlive this object.
    void setClock(const Clock *clock) { m_clock = clock; }

    // Periodic refresh (the first at once); stop() ends it and drops results still out.
    void start(int intervalMs = 5000);
    void stop();
    [[nodiscard]] bool isRunning() const { return m_timer.isActive(); }
    void refresh();

    // Idle GPUs now under options.thresholdPct for options.minIdleMs (nowMs and
    // maxGapMs are filled in here). Prometheus only: direct scrapes keep no history.
    void findIdle(metrics::IdleOptions options);
    // Without history (direct scrapes, discovery): the idle spans the controller's idle
    // recorder wrote to the usage database at `url` (idlespans.h) that are going on and
    // lasted options.minIdleMs; the recorder's threshold applies, and utilization
    // figures are not recorded (NaN). -> idleAvailable, or recordedIdleFailed().
    void findRecordedIdle(metrics::IdleOptions options, const QString &url, const QString &password);
    // The utilization of every GPU over the last `seconds`, one reading per
    // `stepSeconds`. Prometheus only.
    void fetchHistory(int seconds, int stepSeconds);

    [[nodiscard]] const metrics::GpuSnapshot &lastSnapshot() const { return m_last; }
    [[nodiscard]] int skippedTicks() const { return m_skipped; }

signals:
    void snapshotAvailable(const gq::metrics::GpuSnapshot &snapshot);
    void idleAvailable(const QList<gq::metrics::IdleGpu> &idle);
    void historyAvailable(const QList<gq::metrics::GpuTimeline> &history);
    // What Prometheus said beside its query_range answers (history, idle detection):
    // warnings (a partial answer) and "info: ..." lines. Empty: nothing to say.
    void rangeNotes(const QStringList &notes);
    // The pods holding GPUs and their users ("ns/pod" -> user), where the pod has the label.
    void usersAvailable(const QHash<QString, QString> &usersByPod);
    void failed(const gq::Error &error);
    // The usage database could not be read for findRecordedIdle() (the live readings
    // are not affected).
    void recordedIdleFailed(const gq::Error &error);

private:
    void deliverSnapshot(Result<metrics::GpuSnapshot> r);
    // m_read with its claim-only holders named by the claims' pods where they are known.
    [[nodiscard]] metrics::GpuSnapshot withClaimPods();
    void onClaimsChanged();
    void refreshUsers();
    [[nodiscard]] bool needsPrometheus(const char *what);

    Source m_source;
    std::shared_ptr<HttpTransport> m_transport;
    std::shared_ptr<metrics::PrometheusClient> m_client;
    std::shared_ptr<exporters::DiscoveredExporters> m_discovered;
    ClientProvider m_clusterClient;
    qint64 m_usersAskedMs = 0;
    bool m_usersInFlight = false;
    metrics::GpuSnapshot m_last;
    metrics::GpuSnapshot m_read; // as read, when it has claim-only holders (else empty)
    ClaimPodsWatch *m_claims;
    QTimer m_timer;
    bool m_inFlight = false;
    int m_skipped = 0;
    QStringList m_historyNotes, m_idleNotes;
    const Clock *m_clock = &Clock::system();
    JobTracker m_jobs{this};
    JobTracker m_userJobs{this};
};

} // namespace gq
