#include "gpumonitor.h"

#include "httptransport.h"

#include <QDateTime>

#include <cmath>

namespace gq {

using namespace gq::metrics;

GpuMonitor::Source GpuMonitor::Source::prometheusAt(PrometheusConfig config) {
    Source s;
    s.kind = Kind::Prometheus;
    s.prometheus = std::move(config);
    return s;
}

GpuMonitor::Source GpuMonitor::Source::scrape(QList<ScrapeTarget> targets) {
    Source s;
    s.kind = targets.isEmpty() ? Kind::None : Kind::Scrape;
    s.targets = std::move(targets);
    return s;
}

GpuMonitor::GpuMonitor(QObject *parent)
    : QObject(parent)
    , m_transport(std::make_shared<HttpTransport>()) {
    connect(&m_timer, &QTimer::timeout, this, &GpuMonitor::refresh);
}

GpuMonitor::~GpuMonitor() {
    m_jobs.cancel();
    // Jobs on the pool hold the transport and client by shared_ptr; they finish (or are
    // cancelled by the transport's shutdown) without touching this object.
    m_transport->shutdown();
}

void GpuMonitor::setSource(Source source) {
    m_jobs.cancel();
    m_inFlight = false;
    m_source = std::move(source);
    m_client.reset();
    if (m_source.kind == Source::Kind::Prometheus)
        m_client = std::make_shared<PrometheusClient>(m_source.prometheus, m_transport);
}

void GpuMonitor::start(int intervalMs) {
    m_timer.start(std::max(500, intervalMs));
    refresh();
}

void GpuMonitor::stop() {
    m_timer.stop();
    m_jobs.cancel();
    m_inFlight = false;
}

void GpuMonitor::refresh() {
    if (!isConfigured()) {
        emit failed(Error::make(
            Error::Kind::Config,
            QStringLiteral("no GPU metrics source: set a Prometheus URL or dcgm-exporter endpoints")));
        return;
    }
    if (m_inFlight) {
        ++m_skipped;
        return;
    }
    m_inFlight = true;
    if (m_source.kind == Source::Kind::Prometheus) {
        auto client = m_client;
        m_jobs.run(
            [client]() -> Result<GpuSnapshot> {
                auto f = client->query(gpuSnapshotQuery());
                f.waitForFinished(); // a pool thread, never the receiver's
                Result<PromResult> r = f.result();
                if (!r)
                    return r.error();
                GpuSnapshot snap = gpusFromSamples(r->samples());
                snap.warnings = r->warnings;
                snap.takenAtMs = QDateTime::currentMSecsSinceEpoch();
                return snap;
            },
            [this](Result<GpuSnapshot> r) { deliverSnapshot(std::move(r)); });
        return;
    }
    auto transport = m_transport;
    const QList<ScrapeTarget> targets = m_source.targets;
    m_jobs.run(
        [transport, targets]() -> Result<GpuSnapshot> {
            QList<QFuture<Result<ScrapedText>>> pending;
            for (const ScrapeTarget &t : targets)
                pending.append(scrape(*transport, t));
            QList<ScrapedText> pages;
            QStringList failures;
            std::optional<Error> firstError;
            for (auto &f : pending) {
                f.waitForFinished();
                Result<ScrapedText> r = f.result();
                if (!r) {
                    failures << r.error().message;
                    if (!firstError)
                        firstError = r.error();
                    continue;
                }
                pages.append(std::move(*r));
            }
            if (pages.isEmpty() && firstError)
                return *firstError;
            GpuSnapshot snap = snapshotFromScrapes(pages);
            snap.warnings = failures + snap.warnings; // one endpoint down does not blank the rest
            snap.takenAtMs = QDateTime::currentMSecsSinceEpoch();
            return snap;
        },
        [this](Result<GpuSnapshot> r) { deliverSnapshot(std::move(r)); });
}

void GpuMonitor::deliverSnapshot(Result<GpuSnapshot> r) {
    m_inFlight = false;
    if (!r) {
        emit failed(r.error());
        return;
    }
    m_last = std::move(*r);
    emit snapshotAvailable(m_last);
}

bool GpuMonitor::needsPrometheus(const char *what) {
    if (m_source.kind == Source::Kind::Prometheus)
        return true;
    emit failed(Error::make(
        Error::Kind::Config,
        QStringLiteral("%1 needs Prometheus: direct scrapes keep no history").arg(QLatin1String(what))));
    return false;
}

void GpuMonitor::findIdle(IdleOptions options) {
    if (!needsPrometheus("idle detection"))
        return;
    auto client = m_client;
    m_jobs.run(
        [client, options]() mutable -> Result<QList<IdleGpu>> {
            // As `gpuquota idle` does: ~30 readings per idle duration, at most one a
            // minute, within Prometheus' 11,000 points, twice the duration looked back.
            const double forS = double(options.minIdleMs) / 1000.0;
            double step = std::clamp(std::ceil(forS / 30.0), 1.0, 60.0);
            const double lookback = std::max(2.0 * forS, forS + 10 * step);
            step = std::max(step, std::ceil(lookback / 10000.0));
            const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
            auto f = client->queryRange(gpuUtilizationQuery(), now - lookback, now, step);
            f.waitForFinished();
            Result<PromResult> r = f.result();
            if (!r)
                return r.error();
            options.nowMs = qint64(now * 1000);
            options.maxGapMs = qint64(step * 2000) + 1;
            return findIdleGpus(timelinesFromRange(*r), options);
        },
        [this](Result<QList<IdleGpu>> r) {
            if (!r)
                emit failed(r.error());
            else
                emit idleAvailable(*r);
        });
}

void GpuMonitor::fetchHistory(int seconds, int stepSeconds) {
    if (!needsPrometheus("utilization history"))
        return;
    auto client = m_client;
    m_jobs.run(
        [client, seconds, stepSeconds]() -> Result<QList<GpuTimeline>> {
            const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
            auto f = client->queryRange(gpuUtilizationQuery(), now - seconds, now, std::max(1, stepSeconds));
            f.waitForFinished();
            Result<PromResult> r = f.result();
            if (!r)
                return r.error();
            return timelinesFromRange(*r);
        },
        [this](Result<QList<GpuTimeline>> r) {
            if (!r)
                emit failed(r.error());
            else
                emit historyAvailable(*r);
        });
}

} // namespace gq
