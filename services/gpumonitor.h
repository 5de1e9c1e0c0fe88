#pragma once

#include "gpusample.h"
#include "idle.h"
#include "jobtracker.h"
#include "prometheusclient.h"
#include "scrape.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace gq {

class HttpTransport;

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
//   monitor.fetchHistory(15 * 60, 15);   // -> historyAvailable: sparklines (Prometheus only)
//
// Refreshes never overlap: a tick that comes while one is out is skipped (and counted
// in skippedTicks(), which a slow Prometheus shows as rising). Parsing and mapping run
// on the thread pool. Without a source, isConfigured() is false and refresh() reports
// failed() with kind Config, so a page can say how to configure one.
class GpuMonitor final : public QObject {
    Q_OBJECT
public:
    struct Source {
        enum class Kind { None, Prometheus, Scrape };
        Kind kind = Kind::None;
        metrics::PrometheusConfig prometheus;
        QList<metrics::ScrapeTarget> targets;

        static Source prometheusAt(metrics::PrometheusConfig config);
        static Source scrape(QList<metrics::ScrapeTarget> targets);
    };

    explicit GpuMonitor(QObject *parent = nullptr);
    ~GpuMonitor() override;

    // Replaces the source; whatever the old one still had out is dropped.
    void setSource(Source source);
    [[nodiscard]] const Source &source() const { return m_source; }
    [[nodiscard]] bool isConfigured() const { return m_source.kind != Source::Kind::None; }

    // Periodic refresh (the first at once); stop() ends it and drops results still out.
    void start(int intervalMs = 5000);
    void stop();
    [[nodiscard]] bool isRunning() const { return m_timer.isActive(); }
    void refresh();

    // Idle GPUs now under options.thresholdPct for options.minIdleMs (nowMs and
    // maxGapMs are filled in here). Prometheus only: direct scrapes keep no history.
    void findIdle(metrics::IdleOptions options);
    // The utilization of every GPU over the last `seconds`, one reading per
    // `stepSeconds`. Prometheus only.
    void fetchHistory(int seconds, int stepSeconds);

    [[nodiscard]] const metrics::GpuSnapshot &lastSnapshot() const { return m_last; }
    [[nodiscard]] int skippedTicks() const { return m_skipped; }

signals:
    void snapshotAvailable(const gq::metrics::GpuSnapshot &snapshot);
    void idleAvailable(const QList<gq::metrics::IdleGpu> &idle);
    void historyAvailable(const QList<gq::metrics::GpuTimeline> &history);
    void failed(const gq::Error &error);

private:
    void deliverSnapshot(Result<metrics::GpuSnapshot> r);
    [[nodiscard]] bool needsPrometheus(const char *what);

    Source m_source;
    std::shared_ptr<HttpTransport> m_transport;
    std::shared_ptr<metrics::PrometheusClient> m_client;
    metrics::GpuSnapshot m_last;
    QTimer m_timer;
    bool m_inFlight = false;
    int m_skipped = 0;
    JobTracker m_jobs{this};
};

} // namespace gq
