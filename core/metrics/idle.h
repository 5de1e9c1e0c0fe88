#pragma once

#include "core/metrics/gpusample.h"
#include "core/metrics/prometheusclient.h"

#include <QHash>
#include <QList>

#include <optional>

namespace gq::metrics {

// Idle detection: allocated GPUs whose utilization stayed under a threshold for a
// duration, and the GPU-hours that wasted. Pure functions on time series, so the rule
// is tested on synthetic data with known answers; the CLI and the console feed them
// from Prometheus (timelinesFromRange).

// One GPU's (or MIG instance's) reading at one instant.
struct GpuReading {
    qint64 tMs = 0;
    std::optional<double> utilPct; // empty: the source gave no usable reading
    QList<GpuHolder> holders;      // empty: free at that instant
};

struct GpuTimeline {
    GpuSample gpu;              // identity (hostname, index, UUID, model, MIG); values unused
    QList<GpuReading> readings; // in time order
};

struct IdleOptions {
    double thresholdPct = 5;       // idle while utilization < this (strictly)
    qint64 minIdleMs = 30 * 60000; // reported when idle at least this long
    qint64 maxGapMs = 120000;      // readings further apart break an idle span
    qint64 nowMs = 0;              // a GPU whose last reading is older than maxGapMs is not "now"
};

struct IdleGpu {
    GpuSample gpu;
    QList<GpuHolder> holders;
    qint64 sinceMs = 0;        // first reading of the idle span
    qint64 lastMs = 0;         // last reading (the span runs until now)
    qint64 idleMs = 0;         // lastMs - sinceMs
    double gpuHoursWasted = 0; // idleMs in hours x the GPU's weight (a MIG slice's fraction)
    double meanUtilPct = 0;
    double maxUtilPct = 0;
    // No earlier reading ended the span: the readings looked at ran out first, so the
    // GPU may have been idle before sinceMs (idlequery.h then looks further back).
    bool openAtStart = false;
};

// The same pods (and pod uids) in any order: a changed set starts a new idle span.
[[nodiscard]] bool sameHolders(const QList<GpuHolder> &a, const QList<GpuHolder> &b);

// Largest waste first (stable).
void sortByWaste(QList<IdleGpu> &idle);

// The fraction of a physical GPU a row stands for: 1 for a whole GPU, g/7 for a MIG
// instance of profile "<g>g.<mem>" (g/4 on an A30, which has four slices).
[[nodiscard]] double gpuWeight(const GpuSample &gpu);

// For each timeline: walking back from its last reading while the utilization is
// known and under the threshold, the holders are the same (same pods, same uids: a pod
// restarted on the GPU starts a new span) and no two readings are more than maxGapMs
// apart. A GPU free at its last reading, or not reporting now, is not idle. Sorted by
// waste, largest first. (The readings a caller has bound how far back `since` can be:
// see findIdleThroughPrometheus in idlequery.h, which looks back in steps.)
[[nodiscard]] QList<IdleGpu> findIdleGpus(const QList<GpuTimeline> &timelines, const IdleOptions &options);

// The same rule fed one snapshot at a time, for sources without history (direct
// scrapes): per GPU only the current idle span is kept, so memory does not grow with
// time and a span may be days long. A reading is idle when the GPU has holders and a
// known utilization under thresholdPct; readings further apart than maxGapMs, a busy
// or unknown reading, or other holders end the span.
class IdleTracker {
public:
    IdleTracker(double thresholdPct, qint64 maxGapMs);
    void add(const GpuSnapshot &snapshot, qint64 tMs);
    // As findIdleGpus: spans of at least options.minIdleMs whose last reading is within
    // maxGapMs of options.nowMs, largest waste first.
    [[nodiscard]] QList<IdleGpu> idle(const IdleOptions &options) const;
    [[nodiscard]] qsizetype trackedSpans() const { return m_spans.size(); }

private:
    struct Span {
        GpuSample gpu;
        QList<GpuHolder> holders;
        qint64 sinceMs = 0;
        qint64 lastMs = 0;
        double sum = 0;
        double max = 0;
        int n = 0;
    };
    double m_threshold;
    qint64 m_maxGapMs;
    qint64 m_firstMs = -1;        // a span that began with the first snapshot may be older
    QHash<QString, Span> m_spans; // by GpuSample::key()
};

// A query_range matrix of dcgm-exporter series turned into one timeline per GPU or MIG
// instance, through the same mapping as a snapshot (gpusFromSamples) at every step.
[[nodiscard]] QList<GpuTimeline> timelinesFromRange(const PromResult &matrix);

// The PromQL the CLI and the console use for live readings and for idle detection.
[[nodiscard]] QString gpuSnapshotQuery();
// The answer to gpuSnapshotQuery() as a snapshot, Prometheus' warnings and infos ("info:
// ...") as its warnings.
[[nodiscard]] GpuSnapshot gpusFromVector(const PromResult &vector);
[[nodiscard]] QString gpuUtilizationQuery();

} // namespace gq::metrics
