#include "core/usage/chargebackreads.h"

#include "core/usage/storeconnection.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagestore.h"

#include <QSqlQuery>

#include <algorithm>

namespace gq::chargebackreads {

// Weighted GPU-hours per (subject, resource, GPU model) overlapping [from, to); open
// intervals reach `now`. The overlap is computed in SQL with CASE, which both dialects
// share.
Result<QList<RateHours>> hoursByRate(const UsageStore &store, GroupBy by, const TimeRange &range,
                                     qint64 now) {
    const QString col = by == GroupBy::User ? QStringLiteral("user_name") : QStringLiteral("ns");
    // Open rows end at `now`, which a past month clips to its end.
    const qint64 openEnd = std::clamp(now, range.start, range.end);
    const QString sql =
        QStringLiteral("SELECT %1, resource, gpu_model, SUM((CASE WHEN COALESCE(end_s, ?) < ? THEN "
                       "COALESCE(end_s, ?) ELSE ? END - CASE WHEN start_s > ? THEN start_s ELSE ? END) * "
                       "gpus * weight) FROM usage_intervals WHERE start_s < ? AND COALESCE(end_s, ?) > ? "
                       "AND COALESCE(end_s, ?) > start_s GROUP BY %1, resource, gpu_model")
            .arg(col);
    UsageConnection &conn = storeConnection(store);
    QSqlQuery q(conn.database());
    q.setForwardOnly(true);
    if (auto r = conn.prepare(q, sql); !r)
        return r.error();
    for (const qint64 v : {openEnd, range.end, openEnd, range.end, range.start, range.start, range.end,
                           openEnd, range.start, openEnd})
        q.addBindValue(QVariant(v));
    if (auto r = conn.exec(q, QStringLiteral("reading GPU-hours per resource and GPU model")); !r)
        return r.error();
    QList<RateHours> out;
    while (q.next())
        out << RateHours{q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                         q.value(3).toDouble() / 3600.0};
    return out;
}

// Idle GPU-hours per subject inside [from, to) from idle_spans (written by the
// controller's idle recorder): each span's wasted GPU-seconds in proportion to its
// overlap with the range. A span names its namespace and pod; its user is the one of
// the pod's interval that overlaps the span (spans of pods never recorded have none
// and are left out).
Result<QMap<QString, double>> idleHours(const UsageStore &store, GroupBy by, const TimeRange &range) {
    const QString overlap =
        QStringLiteral("s.wasted_gpu_seconds * (CASE WHEN s.end_s < ? THEN s.end_s ELSE ? END - "
                       "CASE WHEN s.start_s > ? THEN s.start_s ELSE ? END) / (s.end_s - s.start_s)");
    const QString subject =
        by == GroupBy::User
            ? QStringLiteral("(SELECT MIN(i.user_name) FROM usage_intervals i WHERE i.ns = s.ns AND "
                             "i.pod_name = s.pod_name AND i.start_s < s.end_s AND "
                             "(i.end_s IS NULL OR i.end_s > s.start_s))")
            : QStringLiteral("s.ns");
    const QString sql = QStringLiteral("SELECT subject, SUM(idle) FROM (SELECT %1 AS subject, %2 AS idle "
                                       "FROM idle_spans s WHERE s.start_s < ? AND s.end_s > ?) spans "
                                       "WHERE subject IS NOT NULL GROUP BY subject")
                            .arg(subject, overlap);
    UsageConnection &conn = storeConnection(store);
    QSqlQuery q(conn.database());
    q.setForwardOnly(true);
    if (auto r = conn.prepare(q, sql); !r)
        return r.error();
    for (const qint64 v : {range.end, range.end, range.start, range.start, range.end, range.start})
        q.addBindValue(QVariant(v));
    if (auto r = conn.exec(q, QStringLiteral("reading idle GPU-hours")); !r)
        return r.error();
    QMap<QString, double> out;
    while (q.next())
        out.insert(q.value(0).toString(), q.value(1).toDouble() / 3600.0);
    return out;
}

} // namespace gq::chargebackreads
