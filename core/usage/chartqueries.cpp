#include "core/usage/chartqueries.h"

#include "core/usage/intervalqueries.h"
#include "core/usage/rollups.h"
#include "core/usage/usageconnection.h"

#include <QSqlQuery>

#include <algorithm>

namespace gq {

using SeriesPoint = UsageStore::SeriesPoint;

Result<std::vector<SeriesPoint>> ChartQueries::seriesFromIntervals(GroupBy by, Period period, qint64 from,
                                                                   qint64 to, const QTimeZone &tz,
                                                                   qint64 now) const {
    auto ivs = m_intervals.intervals(from, to, now);
    if (!ivs)
        return ivs.error();
    std::vector<SeriesPoint> out;
    const auto m = gpuHoursByPeriod(*ivs, by, from, to, period, tz, now, m_weights);
    for (auto b = m.cbegin(); b != m.cend(); ++b)
        for (auto s = b->cbegin(); s != b->cend(); ++s)
            out.push_back(SeriesPoint{b.key(), s.key(), s.value()});
    return out;
}

bool ChartQueries::isDayStart(qint64 t) const {
    // Not through the DayIndex: it keeps every day between the instants it was asked
    // about, millions of them for a range like 0001..9999.
    return periodContaining(t, Period::Day, m_days.zone()).start == t;
}

Result<TimeRange> ChartQueries::rollupExtent(const QString &hourTable, qint64 from, qint64 to) const {
    // MIN and MAX of the leading column of the (hour_s, ...) index: two index probes.
    QSqlQuery q(m_conn.database());
    q.setForwardOnly(true);
    if (auto r = m_conn.execSql(q, QStringLiteral("SELECT MIN(hour_s), MAX(hour_s) FROM %1").arg(hourTable));
        !r)
        return r.error();
    if (!q.next() || q.value(0).isNull())
        return TimeRange{from, from};
    return TimeRange{std::max(from, q.value(0).toLongLong()), std::min(to, q.value(1).toLongLong() + 3600)};
}

namespace {

using SubjectHours = QMap<qint64, QMap<QString, double>>; // bucket start -> subject -> GPU-hours

// Whole local days in the rollup zone: one row per subject and day, summed into the
// period that holds the day.
Result<void> addDailyRollups(const UsageConnection &conn, GroupBy by, const QString &column, Period period,
                             qint64 from, qint64 to, const QTimeZone &tz, SubjectHours &acc) {
    QSqlQuery q(conn.database());
    q.setForwardOnly(true);
    if (auto r = conn.prepare(
            q, QStringLiteral("SELECT day_s, %2, gpu_seconds FROM %1 WHERE day_s >= ? AND day_s < ?")
                   .arg(by == GroupBy::Namespace ? QStringLiteral("rollup_ns_day")
                                                 : QStringLiteral("rollup_user_day"),
                        column));
        !r)
        return r;
    q.addBindValue(from);
    q.addBindValue(to);
    if (auto r = conn.exec(q, QStringLiteral("reading daily rollups")); !r)
        return r;
    QHash<qint64, qint64> bucketOfDay;
    while (q.next()) {
        const qint64 day = q.value(0).toLongLong();
        auto it = bucketOfDay.find(day);
        if (it == bucketOfDay.end())
            it = bucketOfDay.insert(day,
                                    period == Period::Day ? day : periodContaining(day, period, tz).start);
        acc[*it][q.value(1).toString()] += q.value(2).toDouble() / 3600.0;
    }
    return {};
}

Result<void> addHourlyRollups(const UsageConnection &conn, const QString &table, const QString &column,
                              qint64 from, qint64 to, SubjectHours &acc) {
    QSqlQuery q(conn.database());
    q.setForwardOnly(true);
    if (auto r =
            conn.prepare(q, QStringLiteral("SELECT hour_s, %2, gpu_seconds FROM %1 WHERE hour_s >= ? AND "
                                           "hour_s < ?")
                                .arg(table, column));
        !r)
        return r;
    q.addBindValue(from);
    q.addBindValue(to);
    if (auto r = conn.exec(q, QStringLiteral("reading hourly rollups")); !r)
        return r;
    while (q.next())
        acc[q.value(0).toLongLong()][q.value(1).toString()] += q.value(2).toDouble() / 3600.0;
    return {};
}

// Calendar buckets are irregular (DST, month lengths), so their bounds are passed
// as a VALUES list and joined; the database aggregates, the client receives one
// row per bucket and subject.
Result<void> addBucketRollups(const UsageConnection &conn, const QString &table, const QString &column,
                              const std::vector<TimeRange> &buckets, qint64 from, qint64 to,
                              SubjectHours &acc) {
    constexpr size_t kChunk = 300;
    for (size_t i = 0; i < buckets.size(); i += kChunk) {
        const size_t n = std::min(kChunk, buckets.size() - i);
        QStringList values;
        for (size_t k = 0; k < n; ++k)
            values << QStringLiteral("(CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))");
        QSqlQuery q(conn.database());
        q.setForwardOnly(true);
        if (auto r = conn.prepare(
                q, QStringLiteral("SELECT b.column1, r.%2, SUM(r.gpu_seconds) FROM %1 r JOIN "
                                  "(VALUES %3) b ON r.hour_s >= b.column2 AND r.hour_s < b.column3 "
                                  "GROUP BY b.column1, r.%2")
                       .arg(table, column, values.join(QLatin1Char(','))));
            !r)
            return r;
        for (size_t k = i; k < i + n; ++k) {
            q.addBindValue(buckets[k].start);
            q.addBindValue(std::max(buckets[k].start, from));
            q.addBindValue(std::min(buckets[k].end, to));
        }
        if (auto r = conn.exec(q, QStringLiteral("reading rollups")); !r)
            return r;
        while (q.next())
            acc[q.value(0).toLongLong()][q.value(1).toString()] += q.value(2).toDouble() / 3600.0;
    }
    return {};
}

} // namespace

Result<std::vector<SeriesPoint>> ChartQueries::gpuHoursSeries(GroupBy by, Period period, qint64 from,
                                                              qint64 to, const QTimeZone &tz,
                                                              qint64 now) const {
    if (to <= from)
        return Error::make(Error::Kind::Invalid, QStringLiteral("'to' must be after 'from'"),
                           QStringLiteral("to"));
    // Counted, not built: a range of ten thousand years must be refused at once.
    if (const qint64 n = periodCount(from, to, period, tz); n > kMaxSeriesBuckets)
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("from/to span %1 %2 buckets, more than %3; choose a longer period "
                                          "or a shorter range")
                               .arg(n)
                               .arg(periodName(period))
                               .arg(kMaxSeriesBuckets),
                           QStringLiteral("period"));
    const QString table =
        by == GroupBy::Namespace ? QStringLiteral("rollup_ns_hour") : QStringLiteral("rollup_user_hour");
    // Whole local days in the rollup zone: one row per subject and day.
    const bool dayPath = period != Period::Hour && QString::fromUtf8(tz.id()) == m_rollupZone &&
                         isDayStart(from) && isDayStart(to);
    std::vector<TimeRange> buckets;
    if (!dayPath) {
        // Only the buckets that can hold rollup rows are built and sent: a wide range
        // around a few months of data costs what those months cost.
        auto extent = rollupExtent(table, from, to);
        if (!extent)
            return extent.error();
        if (extent->end > extent->start)
            buckets = periodsCovering(extent->start, extent->end, period, tz);
    }
    bool aligned = alignedToHour(from) && alignedToHour(to);
    for (const TimeRange &b : buckets)
        aligned = aligned && alignedToHour(b.start) && alignedToHour(b.end);
    if (!dayPath && !aligned)
        return seriesFromIntervals(by, period, from, to, tz, now);

    const QString column = by == GroupBy::Namespace ? QStringLiteral("ns") : QStringLiteral("user_name");
    SubjectHours acc;
    const Result<void> read = dayPath ? addDailyRollups(m_conn, by, column, period, from, to, tz, acc)
                              : period == Period::Hour
                                  ? addHourlyRollups(m_conn, table, column, from, to, acc)
                                  : addBucketRollups(m_conn, table, column, buckets, from, to, acc);
    if (!read)
        return read.error();
    // Running pods are not in the rollups yet: add what they have used up to now.
    auto running = m_intervals.runningNow(now);
    if (!running)
        return running.error();
    const auto live = gpuHoursByPeriod(*running, by, from, to, period, tz, now, m_weights);
    for (auto b = live.cbegin(); b != live.cend(); ++b)
        for (auto s = b->cbegin(); s != b->cend(); ++s)
            acc[b.key()][s.key()] += s.value();

    std::vector<SeriesPoint> out;
    for (auto b = acc.cbegin(); b != acc.cend(); ++b)
        for (auto s = b->cbegin(); s != b->cend(); ++s)
            if (s.value() > 1e-12) // replaced intervals may leave exact-zero rollup rows
                out.push_back(SeriesPoint{b.key(), s.key(), s.value()});
    return out;
}

Result<QMap<QString, double>> ChartQueries::subjectTotals(GroupBy by, qint64 from, qint64 to,
                                                          qint64 now) const {
    QMap<QString, double> totals;
    const bool dayPath = isDayStart(from) && isDayStart(to);
    if (!dayPath && (!alignedToHour(from) || !alignedToHour(to))) {
        auto ivs = m_intervals.intervals(from, to, now);
        if (!ivs)
            return ivs.error();
        for (const UsageInterval &iv : *ivs)
            totals[by == GroupBy::User ? iv.user : iv.ns] +=
                gpuSeconds(iv, TimeRange{from, to}, now, m_weights) / 3600.0;
        return totals;
    }
    const QString table =
        by == GroupBy::Namespace ? QStringLiteral("rollup_ns_hour") : QStringLiteral("rollup_user_hour");
    const QString column = by == GroupBy::Namespace ? QStringLiteral("ns") : QStringLiteral("user_name");
    QSqlQuery q(m_conn.database());
    q.setForwardOnly(true);
    if (auto r = m_conn.prepare(
            q,
            QStringLiteral("SELECT %2, SUM(gpu_seconds) FROM %1 WHERE %3 >= ? AND %3 < ? "
                           "GROUP BY %2")
                .arg(dayPath ? QString(table).replace(QLatin1String("_hour"), QLatin1String("_day")) : table,
                     column, dayPath ? QStringLiteral("day_s") : QStringLiteral("hour_s")));
        !r)
        return r.error();
    q.addBindValue(from);
    q.addBindValue(to);
    if (auto r = m_conn.exec(q, QStringLiteral("reading rollups")); !r)
        return r.error();
    while (q.next())
        totals[q.value(0).toString()] += q.value(1).toDouble() / 3600.0;
    auto running = m_intervals.runningNow(now);
    if (!running)
        return running.error();
    for (const UsageInterval &iv : *running)
        totals[by == GroupBy::User ? iv.user : iv.ns] +=
            gpuSeconds(iv, TimeRange{from, to}, now, m_weights) / 3600.0;
    return totals;
}

Result<std::vector<std::pair<QString, double>>> ChartQueries::topUsers(qint64 from, qint64 to, int n,
                                                                       qint64 now) const {
    auto totals = subjectTotals(GroupBy::User, from, to, now);
    if (!totals)
        return totals.error();
    std::vector<std::pair<QString, double>> out;
    for (auto it = totals->cbegin(); it != totals->cend(); ++it)
        if (it.value() > 1e-12)
            out.emplace_back(it.key(), it.value());
    std::stable_sort(out.begin(), out.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    if (n >= 0 && out.size() > size_t(n))
        out.resize(size_t(n));
    return out;
}

Result<double> ChartQueries::usedGpuHours(BudgetScope scope, const QString &subject, const TimeRange &window,
                                          qint64 now) const {
    const bool user = scope == BudgetScope::User;
    const QString table = user ? QStringLiteral("rollup_user_hour") : QStringLiteral("rollup_ns_hour");
    const QString column = user ? QStringLiteral("user_name") : QStringLiteral("ns");
    const bool dayPath = isDayStart(window.start) && isDayStart(window.end);
    if (!dayPath && (!alignedToHour(window.start) || !alignedToHour(window.end))) {
        // Exact path for zones whose calendar is not on whole UTC hours.
        QSqlQuery q(m_conn.database());
        q.setForwardOnly(true);
        if (auto r = m_conn.prepare(
                q, QStringLiteral("SELECT %1 FROM usage_intervals WHERE %2 = ? AND start_s < ? AND "
                                  "(end_s IS NULL OR end_s > ?)")
                       .arg(QLatin1String(kIntervalColumns), column));
            !r)
            return r.error();
        q.addBindValue(nonNull(subject));
        q.addBindValue(window.end);
        q.addBindValue(window.start);
        if (auto r = m_conn.exec(q, QStringLiteral("reading intervals")); !r)
            return r.error();
        double s = 0;
        while (q.next())
            s += gpuSeconds(intervalFromRow(q), window, now, m_weights);
        return s / 3600.0;
    }
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(
            q,
            QStringLiteral("SELECT SUM(gpu_seconds) FROM %1 WHERE %2 = ? AND %3 >= ? AND %3 < ?")
                .arg(dayPath ? QString(table).replace(QLatin1String("_hour"), QLatin1String("_day")) : table,
                     column, dayPath ? QStringLiteral("day_s") : QStringLiteral("hour_s")));
        !r)
        return r.error();
    q.addBindValue(nonNull(subject));
    q.addBindValue(window.start);
    q.addBindValue(window.end);
    if (auto r = m_conn.exec(q, QStringLiteral("reading rollups")); !r)
        return r.error();
    double seconds = q.next() ? q.value(0).toDouble() : 0.0;
    auto running = m_intervals.runningFor(scope, subject);
    if (!running)
        return running.error();
    for (const UsageInterval &iv : *running)
        seconds += gpuSeconds(iv, window, now, m_weights);
    return seconds / 3600.0;
}

Result<double> ChartQueries::usedGpuHoursNaive(BudgetScope scope, const QString &subject,
                                               const TimeRange &window, qint64 now) const {
    // What a straightforward quota service writes: the subject's rows that overlap
    // the period, summed in the client. Kept prepared like the fast path, so the
    // comparison is about the work, not about statement preparation.
    auto seconds = m_intervals.overlappingGpuSeconds(scope, subject, window, now, true);
    if (!seconds)
        return seconds.error();
    return *seconds / 3600.0;
}

} // namespace gq
