#pragma once

#include "core/usage/budget.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QString>

namespace gq {

class UsageStore;

// The self-service status document (`GET /quota/status`, `gpuquota status`): where a
// user's or namespace's GPU-hour budgets stand at `now`, from the same core functions
// as `gpuquota budget status` (UsageStore::budgetStatus, forecast(), budgetState(),
// graceEnd()) and the daily history from the same series as `gpuquota usage --period day`
// (UsageStore::gpuHoursSeries), so the numbers are those of the CLI for the same instant.
//
//   scope, subject, now, tz         tz: the zone of the history (the subject's first
//                                   budget's zone, else the database's rollup zone)
//   budgets[]                       each exactly as `budget status -o json` prints it
//   used, limit, remaining, period, period_start, period_end, state, grace_end,
//   forecast, forecast_exhaustion   of the primary budget (the one with the least left);
//                                   without a budget: state "none", used = today's
//                                   GPU-hours and the others null
//   used_raw                        `used` without GPU model weights (equal without them);
//                                   history's gpu_hours are raw GPU-hours
//   active_boosts[]                 live budget boosts (and, for a namespace, quota boosts)
//   history {period: "day", tz, from, to, days[]: {date, start, gpu_hours}}
//                                   the last `historyDays` local days, today included,
//                                   zeros where nothing ran
struct QuotaStatusOptions {
    int historyDays = 30;
};
[[nodiscard]] Result<QJsonObject> quotaStatus(const UsageStore &store, BudgetScope scope,
                                              const QString &subject, qint64 now,
                                              const QuotaStatusOptions &options = {});

// One budget as `gpuquota budget status -o json` prints it.
[[nodiscard]] QJsonObject budgetStatusJson(const Decision &d, qint64 now);

} // namespace gq
