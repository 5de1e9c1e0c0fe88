#pragma once

#include "core/metrics/idle.h"
#include "core/metrics/idlespanrows.h"
#include "core/domain/result.h"
#include "core/usage/usagestore.h"

#include <QList>
#include <QString>

namespace gq {

// The idle spans the controller's idle recorder writes to the usage database
// (idle_spans; see services/controller/idlerecorder.h), read back by `gpuquota idle
// --db` and by the console's Idle GPUs tab when its metrics source keeps no history.
namespace idlespans {
// A span counts as still going on when it was written within this long (the recorder
// writes every idle.interval, one minute by default).
inline constexpr qint64 kFreshSeconds = 10 * 60;

// A row's identity (gpuKey, gpuFromKey, rowHolder): idlespanrows.h (core/metrics).

// The spans going on at nowS (their end within freshSeconds of it) that lasted at least
// minIdleSeconds, largest waste first, as IdleGpus: identity from node and gpu_uuid
// (model, index of a UUID'd GPU and MIG profile are not recorded), one holder without
// a container, no utilization figures (meanUtilPct and maxUtilPct are NaN).
[[nodiscard]] Result<QList<metrics::IdleGpu>> current(UsageStore &store, qint64 nowS, qint64 minIdleSeconds,
                                                      qint64 freshSeconds = kFreshSeconds);
} // namespace idlespans

} // namespace gq
