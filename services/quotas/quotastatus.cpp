#include "services/quotas/quotastatus.h"

#include "core/usage/boosts.h"
#include "core/usage/forecast.h"
#include "core/usage/newcomer.h"
#include "core/usage/usagestore.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace gq {

namespace {

QJsonValue instantOrNull(const std::optional<qint64> &t, const QTimeZone &tz) {
    return t ? QJsonValue(formatInstant(*t, tz)) : QJsonValue(QJsonValue::Null);
}

QTimeZone zoneOf(const QString &id) {
    return parseZone(id).value_or(QTimeZone(QByteArrayLiteral("UTC")));
}

bool isLive(const Boost &b, qint64 now) {
    switch (b.state) {
    case Boost::State::Scheduled:
    case Boost::State::Applying:
    case Boost::State::Active:
    case Boost::State::Reverting: return b.start <= now && now < b.expiry;
    default: return false;
    }
}

} // namespace

namespace {
// What the boost is added to: the budget's limit, or the newcomer allowance's (x factor).
double newcomerBase(const Decision &d) {
    return d.newcomerUntil > 0 && !d.unlimited ? d.allowanceLimit : d.budget.limitGpuHours;
}
} // namespace

QJsonObject budgetStatusJson(const Decision &d, qint64 now) {
    const QTimeZone tz = zoneOf(d.budget.tz);
    const Forecast f = forecast(d, now);
    const std::optional<qint64> grace = graceEnd(d, now);
    return QJsonObject{
        {QStringLiteral("period"), periodName(d.budget.period)},
        {QStringLiteral("tz"), d.budget.tz},
        {QStringLiteral("used"), d.used},
        {QStringLiteral("used_raw"), d.usedRaw},
        {QStringLiteral("limit"), d.limit},
        {QStringLiteral("budget_limit"), d.budget.limitGpuHours},
        {QStringLiteral("boost"), d.limit - newcomerBase(d)},
        {QStringLiteral("remaining"), d.remaining},
        {QStringLiteral("period_start"), formatInstant(d.period.start, tz)},
        {QStringLiteral("period_end"), formatInstant(d.period.end, tz)},
        {QStringLiteral("state"), budgetStateName(budgetState(d))},
        {QStringLiteral("grace_seconds"), double(d.budget.graceSeconds)},
        {QStringLiteral("grace_end"), instantOrNull(grace, tz)},
        {QStringLiteral("running_gpus"), d.runningGpus},
        {QStringLiteral("forecast"), forecastKindName(f.kind)},
        {QStringLiteral("forecast_exhaustion"), instantOrNull(f.exhaustsAt, tz)},
        {QStringLiteral("newcomerUntil"),
         instantOrNull(d.newcomerUntil > 0 ? std::optional<qint64>(d.newcomerUntil) : std::nullopt, tz)},
        {QStringLiteral("newcomer"), newcomerText(d)},
        {QStringLiteral("unlimited"), d.unlimited}};
}

Result<QJsonObject> quotaStatus(const UsageStore &store, BudgetScope scope, const QString &subject,
                                qint64 now, const QuotaStatusOptions &options) {
    auto decisions = store.budgetStatus(scope, subject, now);
    if (!decisions)
        return decisions.error();
    const QTimeZone tz = zoneOf(decisions->isEmpty() ? store.rollupZone() : decisions->first().budget.tz);

    // The history: whole local days, today included; DST days are 23 or 25 hours.
    const TimeRange today = periodContaining(now, Period::Day, tz);
    qint64 from = today.start;
    for (int i = 1; i < std::max(1, options.historyDays); ++i)
        from = periodContaining(from - 1, Period::Day, tz).start;
    const GroupBy by = scope == BudgetScope::User ? GroupBy::User : GroupBy::Namespace;
    auto series = store.gpuHoursSeries(by, Period::Day, from, today.end, tz, now);
    if (!series)
        return series.error();
    QJsonArray days;
    double usedToday = 0;
    for (const TimeRange &day : periodsCovering(from, today.end, Period::Day, tz)) {
        double hours = 0;
        for (const UsageStore::SeriesPoint &p : *series)
            if (p.bucketStart == day.start && p.subject == subject)
                hours += p.gpuHours;
        if (day.start == today.start)
            usedToday = hours;
        days.append(QJsonObject{{QStringLiteral("date"),
                                 QDateTime::fromSecsSinceEpoch(day.start, tz).date().toString(Qt::ISODate)},
                                {QStringLiteral("start"), formatInstant(day.start, tz)},
                                {QStringLiteral("gpu_hours"), hours}});
    }

    QJsonObject doc{{QStringLiteral("scope"), scopeName(scope)},
                    {QStringLiteral("subject"), subject},
                    {QStringLiteral("now"), formatInstantUtc(now)},
                    {QStringLiteral("tz"), QString::fromUtf8(tz.id())}};
    QJsonArray budgets;
    const Decision *primary = nullptr;
    for (const Decision &d : std::as_const(*decisions)) {
        budgets.append(budgetStatusJson(d, now));
        // An unlimited newcomer allowance has more left than any limit.
        if (!primary || (primary->unlimited && !d.unlimited) ||
            (!d.unlimited && d.remaining < primary->remaining - kGpuHourTolerance))
            primary = &d;
    }
    doc.insert(QStringLiteral("budgets"), budgets);
    static const char *const summaryKeys[] = {
        "period", "period_start", "period_end",    "state",    "grace_end", "forecast", "forecast_exhaustion",
        "limit",  "remaining",    "newcomerUntil", "newcomer", "unlimited"};
    if (primary) {
        const QJsonObject p = budgetStatusJson(*primary, now);
        doc.insert(QStringLiteral("used"), p.value(QLatin1String("used")));
        doc.insert(QStringLiteral("used_raw"), p.value(QLatin1String("used_raw")));
        for (const char *key : summaryKeys)
            doc.insert(QLatin1String(key), p.value(QLatin1String(key)));
    } else {
        doc.insert(QStringLiteral("used"), usedToday);
        doc.insert(QStringLiteral("used_raw"), usedToday);
        for (const char *key : summaryKeys)
            doc.insert(QLatin1String(key), QJsonValue::Null);
        doc.insert(QStringLiteral("state"), QStringLiteral("none"));
    }

    auto boosts = store.boosts();
    if (!boosts)
        return boosts.error();
    QJsonArray live;
    for (const Boost &b : std::as_const(*boosts)) {
        if (!isLive(b, now))
            continue;
        const bool mine = b.target.kind == BoostTarget::Kind::Budget
                              ? b.target.scope == scope && b.target.subject == subject
                              : b.target.kind == BoostTarget::Kind::Quota &&
                                    scope == BudgetScope::Namespace && b.target.subject == subject;
        if (!mine)
            continue;
        const bool budget = b.target.kind == BoostTarget::Kind::Budget;
        live.append(QJsonObject{
            {QStringLiteral("id"), double(b.id)},
            {QStringLiteral("kind"), budget ? QStringLiteral("budget") : QStringLiteral("quota")},
            {QStringLiteral("target"), b.target.toString()},
            {QStringLiteral("resource"), budget ? QStringLiteral("gpu-hours") : b.target.resource},
            {QStringLiteral("delta"), b.delta},
            {QStringLiteral("start"), formatInstant(b.start, tz)},
            {QStringLiteral("expiry"), formatInstant(b.expiry, tz)},
            {QStringLiteral("note"), b.note},
            {QStringLiteral("actor"), b.actor}});
    }
    doc.insert(QStringLiteral("active_boosts"), live);
    doc.insert(QStringLiteral("history"), QJsonObject{{QStringLiteral("period"), QStringLiteral("day")},
                                                      {QStringLiteral("tz"), QString::fromUtf8(tz.id())},
                                                      {QStringLiteral("from"), formatInstant(from, tz)},
                                                      {QStringLiteral("to"), formatInstant(today.end, tz)},
                                                      {QStringLiteral("days"), days}});
    return doc;
}

} // namespace gq
