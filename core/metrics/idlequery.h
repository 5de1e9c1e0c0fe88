#pragma once

#include "core/metrics/idle.h"
#include "core/metrics/prometheusclient.h"
#include "core/domain/result.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace gq::metrics {

// Idle detection through Prometheus, for the CLI (`gpuquota idle`), the console and the
// controller's idle recorder alike. A GPU idle since yesterday must say "since
// yesterday" with its real waste, yet a query over days at the step that finds a 30-min
// span's start would ask for millions of points on a large fleet. So the look-back goes
// in windows: a recent one read at every step for every GPU, then, only for the GPUs
// still idle at its start, older and coarser windows (`growth` times further back each,
// at most `pointsPerWindow` points per series) until a step where the GPU was busy, had
// other holders or reported nothing, or `maxSeconds` is reached. An older window is read
// as the highest utilization over the two steps before each instant (max_over_time), so
// a burst between two instants still ends a span and a late scrape leaves no hole;
// `since` is then known to within that window's step (about 12 min for a span older than
// three days, seconds for recent ones), never earlier than the truth.

struct IdleLookback {
    qint64 maxSeconds = 7 * 86400; // the documented maximum; a span older still is reported
                                   // from here, marked openAtStart
    int pointsPerWindow = 500;     // per series and query
    int growth = 8;                // each older window reaches this many times further back
};

// One query_range: instants start, start + step, ..., end, on multiples of the step, so
// runs a few seconds apart evaluate the same instants (the recorder sees the same
// `since` on every run).
struct RangeWindow {
    double start = 0;
    double end = 0;
    double step = 0;
    [[nodiscard]] qint64 points() const;
};

// The recent window: a step of --for / 30 (1 s to 60 s), looking back max(2 x for,
// for + 10 steps) from the last step before `now` (within Prometheus' 11,000 points).
[[nodiscard]] RangeWindow recentIdleWindow(qint64 forSeconds, double now);
// The window before `previous`: `growth` times as far back from now as previous.start
// (at most lookback.maxSeconds), at a step no finer than previous.step that keeps it
// within pointsPerWindow points. Empty once maxSeconds is reached.
[[nodiscard]] std::optional<RangeWindow> olderIdleWindow(const RangeWindow &previous, double now,
                                                         const IdleLookback &lookback);

// PromQL for an older window: per instant, each candidate GPU's highest and mean
// utilization over the two steps before it (max_over_time and avg_over_time of DCGM_FI_DEV_GPU_UTIL and
// DCGM_FI_PROF_GR_ENGINE_ACTIVE), labelled gq_field (the metric) and gq_agg ("max",
// "avg"). Candidates are picked by UUID (UUID or uuid label); when one has no UUID,
// every GPU is read.
[[nodiscard]] QString idleHistoryQuery(const QList<GpuSample> &candidates, double stepSeconds);

// The answer to idleHistoryQuery as timelines through the usual mapping: the step
// maxima and the step means, one timeline per GPU or MIG instance each.
struct StepTimelines {
    QList<GpuTimeline> max;
    QList<GpuTimeline> mean;
};
[[nodiscard]] StepTimelines stepTimelinesFromRange(const PromResult &matrix);

// Carries the spans of `idle` that are open at their start (openAtStart) back through an
// older window: walking back from `since` through the readings whose maximum stayed under
// thresholdPct with the same holders and no gap over two steps, `since` becomes the start
// of the earliest such reading's range, and idleMs, the waste, the mean and the maximum follow. A
// span stays open only when the walk reached the window's first steps. Returns how
// many spans are still open.
int extendIdleSpans(QList<IdleGpu> &idle, const StepTimelines &older, const RangeWindow &window,
                    double thresholdPct);

struct IdleReport {
    QList<IdleGpu> idle;  // largest waste first
    QStringList warnings; // Prometheus' warnings, and its infos as "info: ..."
    int queries = 0;
    double lookedBackSeconds = 0; // how far the last window reached
};

// The whole detection: the recent window for every GPU, then older windows for the GPUs
// still idle at the start of what was read. options.nowMs and maxGapMs are set here.
// Blocks until the answers are in: call it from a CLI or a worker thread. A failed
// older window ends the look-back with a warning; the recent one failing is the error.
[[nodiscard]] Result<IdleReport> findIdleThroughPrometheus(PrometheusClient &client, IdleOptions options,
                                                           double now, const IdleLookback &lookback = {});

} // namespace gq::metrics
