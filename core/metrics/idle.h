#pragma once

#include "gpusample.h"
#include "prometheusclient.h"

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
};

// The fraction of a physical GPU a row stands for: 1 for a whole GPU, g/7 for a MIG
// instance of profile "<g>g.<mem>" (g/4 on an A30, which has four slices).
[[nodiscard]] double gpuWeight(const GpuSample &gpu);

// For each timeline: walking back from its last reading while the utilization is
// known and under the threshold, the holders are the same (same pods, same uids: a pod
// restarted on the GPU starts a new span) and no two readings are more than maxGapMs
// apart. A GPU free at its last reading, or not reporting now, is not idle. Sorted by
// waste, largest first.
[[nodiscard]] QList<IdleGpu> findIdleGpus(const QList<GpuTimeline> &timelines, const IdleOptions &options);

// A query_range matrix of dcgm-exporter series turned into one timeline per GPU or MIG
// instance, through the same mapping as a snapshot (gpusFromSamples) at every step.
[[nodiscard]] QList<GpuTimeline> timelinesFromRange(const PromResult &matrix);

// The PromQL the CLI and the console use for live readings and for idle detection.
[[nodiscard]] QString gpuSnapshotQuery();
[[nodiscard]] QString gpuUtilizationQuery();

} // namespace gq::metrics
