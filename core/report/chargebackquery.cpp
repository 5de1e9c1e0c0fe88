#include "chargebackquery.h"

#include "usageconnection.h"
#include "usagestore.h"

#include <QSqlQuery>

#include <algorithm>

namespace gq {

namespace {

// Weighted GPU-hours per (subject, resource) overlapping [from, to); open intervals
// reach `now`. The overlap is computed in SQL with CASE, which both dialects share.
Result<QMap<QString, QMap<QString, double>>> hoursByResource(const UsageStore &store, GroupBy by,
                                                             const TimeRange &range, qint64 now) {
    const QString col = by == GroupBy::User ? QStringLiteral("user_name") : QStringLiteral("ns");
    // Open rows end at `now`, which a past month clips to its end.
    const qint64 openEnd = std::clamp(now, range.start, range.end);
    const QString sql =
        QStringLiteral("SELECT %1, resource, SUM((CASE WHEN COALESCE(end_s, ?) < ? THEN COALESCE(end_s, ?) "
                       "ELSE ? END - CASE WHEN start_s > ? THEN start_s ELSE ? END) * gpus * weight) "
                       "FROM usage_intervals WHERE start_s < ? AND COALESCE(end_s, ?) > ? "
                       "AND COALESCE(end_s, ?) > start_s GROUP BY %1, resource")
            .arg(col);
    UsageConnection &conn = store.connection();
    QSqlQuery q(conn.database());
    q.setForwardOnly(true);
    if (auto r = conn.prepare(q, sql); !r)
        return r.error();
    for (const qint64 v : {openEnd, range.end, openEnd, range.end, range.start, range.start, range.end,
                           openEnd, range.start, openEnd})
        q.addBindValue(QVariant(v));
    if (auto r = conn.exec(q, QStringLiteral("reading GPU-hours per resource")); !r)
        return r.error();
    QMap<QString, QMap<QString, double>> out;
    while (q.next())
        out[q.value(0).toString()][q.value(1).toString()] += q.value(2).toDouble() / 3600.0;
    return out;
}

} // namespace

Result<ChargebackReport> queryChargeback(const UsageStore &store, GroupBy by, const ChargebackMonth &month,
                                         const RateCard &rates, qint64 now) {
    auto series = store.gpuHoursSeries(by, Period::Month, month.range.start, month.range.end, month.tz, now);
    if (!series)
        return series.error();
    QMap<QString, double> hours;
    for (const UsageStore::SeriesPoint &p : *series)
        hours[p.subject] += p.gpuHours;
    QMap<QString, QMap<QString, double>> perResource;
    if (!rates.isFlat() && !hours.isEmpty()) {
        auto r = hoursByResource(store, by, month.range, now);
        if (!r)
            return r.error();
        perResource = std::move(*r);
    }
    return computeChargeback(by, month, rates, hours, perResource, now);
}

} // namespace gq
