#include "core/usage/budget.h"

#include <cmath>
#include <limits>

namespace gq {

QString scopeName(BudgetScope s) {
    return s == BudgetScope::User ? QStringLiteral("user") : QStringLiteral("namespace");
}

Result<BudgetScope> parseScope(const QString &text) {
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("user"))
        return BudgetScope::User;
    if (t == QLatin1String("namespace") || t == QLatin1String("ns"))
        return BudgetScope::Namespace;
    return Error::make(Error::Kind::Invalid,
                       QStringLiteral("unknown scope '%1'; expected user or namespace").arg(text),
                       QStringLiteral("scope"));
}

QString outcomeName(Decision::Outcome o) {
    switch (o) {
    case Decision::Outcome::Allowed: return QStringLiteral("allowed");
    case Decision::Outcome::AllowedInGrace: return QStringLiteral("allowed-in-grace");
    case Decision::Outcome::Denied: return QStringLiteral("denied");
    }
    return {};
}

Result<void> validateBudget(const Budget &b) {
    if (b.subject.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("must not be empty"),
                           QStringLiteral("subject"));
    if (b.period == Period::Hour)
        return Error::make(Error::Kind::Invalid, QStringLiteral("a budget period is day, week or month"),
                           QStringLiteral("period"));
    if (!std::isfinite(b.limitGpuHours) || b.limitGpuHours < 0)
        return Error::make(Error::Kind::Invalid, QStringLiteral("must be a non-negative number of GPU-hours"),
                           QStringLiteral("limit"));
    if (b.graceSeconds < 0)
        return Error::make(Error::Kind::Invalid, QStringLiteral("must not be negative"),
                           QStringLiteral("grace"));
    if (auto tz = parseZone(b.tz); !tz)
        return tz.error();
    return {};
}

QString formatGpuHours(double h) {
    if (std::fabs(h) < 0.005)
        h = 0; // no "-0.00"
    return QString::number(h, 'f', 2);
}

Decision decide(const Budget &budget, const TimeRange &period, double usedGpuHours, double runningGpus,
                const AdmissionRequest &request, double extraGpuHours) {
    Decision d;
    d.hasBudget = true;
    d.budget = budget;
    d.period = period;
    d.used = usedGpuHours;
    d.usedRaw = usedGpuHours; // callers that know GPU model weights set the raw hours
    d.limit = budget.limitGpuHours + extraGpuHours;
    d.remaining = d.limit - d.used;
    d.runningGpus = std::max(0.0, runningGpus);
    d.graceAllowance = d.runningGpus * double(budget.graceSeconds) / 3600.0;
    const QString per = periodName(budget.period);

    if (request.kind == AdmissionRequest::Kind::NewJob) {
        d.required = request.gpuHours();
        if (d.used + d.required <= d.limit + kGpuHourTolerance) {
            d.outcome = Decision::Outcome::Allowed;
            d.message = QStringLiteral("Allowed: %1 GPU-h ≤ %2 available")
                            .arg(formatGpuHours(d.required), formatGpuHours(d.remaining));
        } else {
            d.outcome = Decision::Outcome::Denied;
            d.message = QStringLiteral("Denied: need %1 GPU-h, only %2 left (limit %3 per %4)")
                            .arg(formatGpuHours(d.required), formatGpuHours(std::max(0.0, d.remaining)),
                                 formatGpuHours(d.limit), per);
        }
        return d;
    }

    if (d.used <= d.limit + kGpuHourTolerance) {
        d.outcome = Decision::Outcome::Allowed;
        d.message = QStringLiteral("Allowed: %1 GPU-h used of %2 per %3")
                        .arg(formatGpuHours(d.used), formatGpuHours(d.limit), per);
    } else if (d.used <= d.limit + d.graceAllowance + kGpuHourTolerance) {
        d.outcome = Decision::Outcome::AllowedInGrace;
        d.message = QStringLiteral(
                        "Allowed in grace: %1 GPU-h used of %2 per %3, overrun allowed up to %4 (grace %5)")
                        .arg(formatGpuHours(d.used), formatGpuHours(d.limit), per,
                             formatGpuHours(d.limit + d.graceAllowance), formatDuration(budget.graceSeconds));
    } else {
        d.outcome = Decision::Outcome::Denied;
        d.message = QStringLiteral("Denied: %1 GPU-h used of %2 per %3, grace of %4 exhausted")
                        .arg(formatGpuHours(d.used), formatGpuHours(d.limit), per,
                             formatDuration(budget.graceSeconds));
    }
    return d;
}

std::optional<qint64> graceEnd(const Decision &d, qint64 now) {
    if (d.outcome != Decision::Outcome::AllowedInGrace || d.runningGpus <= 0)
        return std::nullopt;
    const double left = std::max(0.0, d.limit + d.graceAllowance - d.used); // GPU-h
    const qint64 end = now + qint64(std::floor(left * 3600.0 / d.runningGpus + 1e-6));
    return d.period.end > d.period.start ? std::min(end, d.period.end) : end;
}

Decision combine(const QList<Decision> &decisions, const AdmissionRequest &request) {
    if (decisions.isEmpty()) {
        Decision d;
        d.required = request.kind == AdmissionRequest::Kind::NewJob ? request.gpuHours() : 0;
        d.message = QStringLiteral("Allowed: no GPU-hour budget applies");
        return d;
    }
    auto rank = [](Decision::Outcome o) {
        return o == Decision::Outcome::Denied ? 2 : o == Decision::Outcome::AllowedInGrace ? 1 : 0;
    };
    // An unlimited newcomer allowance has more left than any limit.
    auto left = [](const Decision &d) {
        return d.unlimited ? std::numeric_limits<double>::infinity() : d.remaining;
    };
    const Decision *best = &decisions.front();
    for (const Decision &d : decisions) {
        const int r = rank(d.outcome), rb = rank(best->outcome);
        if (r > rb || (r == rb && left(d) < left(*best)))
            best = &d;
    }
    return *best;
}

} // namespace gq
