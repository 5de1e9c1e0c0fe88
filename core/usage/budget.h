#pragma once

#include "core/domain/result.h"
#include "core/usage/timewindow.h"

#include <QList>
#include <QString>

#include <cmath>
#include <optional>

namespace gq {

enum class BudgetScope { User, Namespace };
[[nodiscard]] QString scopeName(BudgetScope s);
[[nodiscard]] Result<BudgetScope> parseScope(const QString &text);

// A GPU-hour limit for one user or namespace per calendar period in a time zone,
// with a grace duration (see decide() for what grace means).
struct Budget {
    qint64 id = 0; // database id, 0 when not stored
    BudgetScope scope = BudgetScope::User;
    QString subject;
    Period period = Period::Day;
    double limitGpuHours = 0;
    qint64 graceSeconds = 0;
    QString tz = QStringLiteral("UTC");
    friend bool operator==(const Budget &, const Budget &) = default;
};

// The Error names the field: subject, period (hour is not a budget period), limit,
// grace, tz.
[[nodiscard]] Result<void> validateBudget(const Budget &b);

// What is asked: a new job of `gpus` (weighted GPUs) for `hours`, or — for the
// controller's periodic re-check — whether already running work may continue.
struct AdmissionRequest {
    enum class Kind { NewJob, Running };
    Kind kind = Kind::NewJob;
    double gpus = 0;
    double hours = 0;
    [[nodiscard]] double gpuHours() const { return gpus * hours; }
};

// The decision, with the numbers it was made from.
//
// The rule:
//  * A NEW job is allowed iff used + required <= limit (the whole expected run must fit
//    in what is left of the period). Otherwise it is denied, even during grace.
//  * RUNNING work (Kind::Running) is allowed while used <= limit. Once the limit is
//    spent it may overrun into grace: it stays allowed-in-grace while
//        used <= limit + runningGpus × grace
//    i.e. what the jobs running now burn in one grace duration after the limit is
//    reached; beyond that it is denied (the controller then stops it / clamps quota).
// Comparisons use a 1e-9 GPU-h tolerance so 4.00 <= 4.00 holds despite rounding.
inline constexpr double kGpuHourTolerance = 1e-9;

struct Decision {
    enum class Outcome { Allowed, AllowedInGrace, Denied };
    Outcome outcome = Outcome::Allowed;
    double used = 0;      // GPU-h used in the current period, running work up to now
                          // (weighted: x the GPU model's weight, see ResourceWeights)
    double usedRaw = 0;   // the same without GPU model weights (equal when none apply)
    double required = 0;  // GPU-h the request needs (0 for Running)
    double limit = 0;     // the effective limit (budget + active boosts)
    double remaining = 0; // limit - used, may be negative
    double graceAllowance = 0;
    double runningGpus = 0; // weighted GPUs the subject holds now (what grace is measured in)
    bool hasBudget = false; // false: no budget applies, allowed
    // A newcomer allowance is in force (newcomer.h): its end (exclusive), else 0. The
    // limit is then the allowance's (budget x factor + boosts), or none when unlimited.
    qint64 newcomerUntil = 0;
    bool unlimited = false;    // an unlimited newcomer allowance: allowed whatever is used
    double allowanceLimit = 0; // x factor: the budget's limit under the allowance, before boosts
    Budget budget;
    TimeRange period;
    QString message;

    [[nodiscard]] bool allowed() const { return outcome != Outcome::Denied; }
    // More used than the limit allows, with decide()'s tolerance.
    [[nodiscard]] bool overLimit() const {
        return hasBudget && !unlimited && used > limit + kGpuHourTolerance;
    }
    // GPU model weights made a difference worth showing (more than rounding).
    [[nodiscard]] bool weighted() const { return std::abs(used - usedRaw) >= 0.005; }
};
[[nodiscard]] QString outcomeName(Decision::Outcome o);

// Decides one budget. `runningGpus` is the weighted GPUs the subject holds right now
// (for the grace allowance); `extraGpuHours` is what active boosts add to the limit.
[[nodiscard]] Decision decide(const Budget &budget, const TimeRange &period, double usedGpuHours,
                              double runningGpus, const AdmissionRequest &request, double extraGpuHours = 0);

// While running work overruns in grace (Running request, AllowedInGrace): the instant
// it will be denied if the subject keeps holding the GPUs it holds now, i.e. when used
// reaches limit + graceAllowance. Grace has no start time of its own: it is an
// allowance of what the running GPUs burn in one grace duration. When those GPUs have
// not changed since the limit was crossed, the end is exactly "crossed + grace".
// Rounded down to the second and capped at the period's end (usage starts over then).
// nullopt when not in grace.
[[nodiscard]] std::optional<qint64> graceEnd(const Decision &d, qint64 now);

// When several budgets apply (the user's and the namespace's), the most restrictive
// decides: any Denied wins, then AllowedInGrace, then the Allowed with the least
// remaining. No budget at all -> Allowed with hasBudget = false.
[[nodiscard]] Decision combine(const QList<Decision> &decisions, const AdmissionRequest &request);

// "4.00" — the two-decimal GPU-hour format of every message.
[[nodiscard]] QString formatGpuHours(double h);

} // namespace gq
