#pragma once

#include "core/report/chargeback.h"

namespace gq {

class UsageStore;

// Reads a month's chargeback from the usage database. The GPU-hours per subject come
// from UsageStore::gpuHoursSeries with one month bucket: the very query behind
// `gpuquota usage --period month`, so the two agree to the last printed decimal. Only
// a rate card that is not flat adds one grouped read of the month's intervals, for
// each subject's hours per resource and GPU model; one grouped read of idle_spans
// gives the idle GPU-hours (used = held - idle where a subject has idle spans). Runs
// on the store's thread; running intervals count up to `now`. With `regroup` set (`by`
// Namespace), the namespaces' inputs are summed into its subjects before pricing.
[[nodiscard]] Result<ChargebackReport> queryChargeback(const UsageStore &store, GroupBy by,
                                                       const ChargebackMonth &month, const RateCard &rates,
                                                       qint64 now, const ChargebackRegroup &regroup = {});

} // namespace gq
