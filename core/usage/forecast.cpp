#include "core/usage/forecast.h"

#include <cmath>

namespace gq {

BudgetState budgetState(const Decision &d) {
    if (d.outcome == Decision::Outcome::AllowedInGrace)
        return BudgetState::Grace;
    if (d.overLimit() || d.outcome == Decision::Outcome::Denied)
        return BudgetState::Over;
    // A zero limit with nothing used is not "near": there is nothing to be near to.
    if (d.limit > 0 && d.used >= kBudgetNear * d.limit - kGpuHourTolerance)
        return BudgetState::Near;
    return BudgetState::Ok;
}

QString budgetStateName(BudgetState s) {
    switch (s) {
    case BudgetState::Ok: return QStringLiteral("ok");
    case BudgetState::Near: return QStringLiteral("near");
    case BudgetState::Grace: return QStringLiteral("grace");
    case BudgetState::Over: return QStringLiteral("over");
    }
    return {};
}

QString forecastKindName(Forecast::Kind k) {
    switch (k) {
    case Forecast::Kind::NothingRunning: return QStringLiteral("nothing-running");
    case Forecast::Kind::RunsOut: return QStringLiteral("runs-out");
    case Forecast::Kind::InGrace: return QStringLiteral("in-grace");
    case Forecast::Kind::NotAtThisRate: return QStringLiteral("not-at-this-rate");
    case Forecast::Kind::Spent: return QStringLiteral("spent");
    }
    return {};
}

namespace {
// The instant `gpuHours` more are burnt at `gpus`, rounded down to the second (the
// ledger's precision: at that second the budget is at most exactly reached).
qint64 after(qint64 now, double gpuHours, double gpus) {
    return now + qint64(std::floor(std::max(0.0, gpuHours) * 3600.0 / gpus + 1e-6));
}
} // namespace

Forecast forecast(const Decision &d, qint64 now) {
    Forecast f;
    const BudgetState state = budgetState(d);
    if (state == BudgetState::Over) {
        f.kind = Forecast::Kind::Spent;
        return f;
    }
    if (d.runningGpus <= 0) {
        f.kind = Forecast::Kind::NothingRunning;
        return f;
    }
    // The period's end is where usage starts over; an instant at or after it is not
    // "this period".
    const bool bounded = d.period.end > d.period.start;
    auto inPeriod = [&](qint64 t) -> std::optional<qint64> {
        if (bounded && t >= d.period.end)
            return std::nullopt;
        return t;
    };
    const double graceLimit = d.limit + d.runningGpus * double(d.budget.graceSeconds) / 3600.0;
    if (state == BudgetState::Grace) {
        f.kind = Forecast::Kind::InGrace;
        f.exhaustsAt = inPeriod(after(now, graceLimit - d.used, d.runningGpus));
        if (!f.exhaustsAt) // grace outlasts the period: the rollover ends it
            f.kind = Forecast::Kind::NotAtThisRate;
        f.graceEndsAt = f.exhaustsAt;
        return f;
    }
    f.exhaustsAt = inPeriod(after(now, d.limit - d.used, d.runningGpus));
    if (!f.exhaustsAt) {
        f.kind = Forecast::Kind::NotAtThisRate;
        return f;
    }
    f.kind = Forecast::Kind::RunsOut;
    if (d.budget.graceSeconds > 0)
        f.graceEndsAt = inPeriod(after(now, graceLimit - d.used, d.runningGpus));
    else
        f.graceEndsAt = f.exhaustsAt;
    return f;
}

} // namespace gq
