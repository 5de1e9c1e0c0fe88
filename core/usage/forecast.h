#pragma once

#include "core/usage/budget.h"

#include <QtGlobal>

#include <optional>

namespace gq {

// Where a budget stands in its current period, as the console's battery and
// `gpuquota budget status` name it. Near means at least kBudgetNear of the limit is
// used (less than 20 % left) and not over.
enum class BudgetState { Ok, Near, Grace, Over };
inline constexpr double kBudgetNear = 0.8;
[[nodiscard]] BudgetState budgetState(const Decision &running);
[[nodiscard]] QString budgetStateName(BudgetState s); // "ok" | "near" | "grace" | "over"

// The forecast: if the subject keeps holding the GPUs it holds now (Decision::
// runningGpus, weighted), when does its budget run out in this period?
//
//  * NothingRunning: no GPUs held, so nothing burns; no instant.
//  * RunsOut: the limit is reached at `exhaustsAt` (> now, before the period ends);
//    `graceEndsAt` is when the grace allowance is spent as well (running work is
//    stopped then), capped like exhaustsAt: nullopt when it falls after the period.
//  * InGrace: already over the limit, overrunning in grace; `exhaustsAt` is the end of
//    grace (the instant running work is denied, see graceEnd()).
//  * NotAtThisRate: at this rate the limit is not reached before the period ends
//    (the period rolls over and usage starts again from zero).
//  * Spent: over the limit with no grace left: nothing more may run this period.
//
// Pure: it reads only the decision (which must be a Kind::Running decision of the
// period containing `now`) and `now`; the same function serves the console and the CLI.
struct Forecast {
    enum class Kind { NothingRunning, RunsOut, InGrace, NotAtThisRate, Spent };
    Kind kind = Kind::NothingRunning;
    std::optional<qint64> exhaustsAt;
    std::optional<qint64> graceEndsAt;
    friend bool operator==(const Forecast &, const Forecast &) = default;
};
[[nodiscard]] Forecast forecast(const Decision &running, qint64 now);
[[nodiscard]] QString forecastKindName(Forecast::Kind k);

} // namespace gq
