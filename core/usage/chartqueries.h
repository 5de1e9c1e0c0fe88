#pragma once

#include "core/domain/result.h"
#include "core/usage/usagestore.h"

#include <QMap>

namespace gq {

class DayIndex;
class IntervalQueries;
class UsageConnection;

// GPU-hours over time and per subject for charts, top lists and budgets: read from
// the daily rollups for whole local days of the rollup zone, from the hourly ones for
// ranges on whole UTC hours, and from the raw intervals otherwise; running intervals
// are added up to `now` (they are not in the rollups).
class ChartQueries {
public:
    ChartQueries(const UsageConnection &conn, const ResourceWeights &weights, DayIndex &days,
                 QString rollupZone, const IntervalQueries &intervals)
        : m_conn(conn)
        , m_weights(weights)
        , m_days(days)
        , m_rollupZone(std::move(rollupZone))
        , m_intervals(intervals) {}
    Q_DISABLE_COPY_MOVE(ChartQueries)

    // See UsageStore for these four.
    [[nodiscard]] Result<std::vector<UsageStore::SeriesPoint>>
    gpuHoursSeries(GroupBy by, Period period, qint64 from, qint64 to, const QTimeZone &tz, qint64 now) const;
    [[nodiscard]] Result<std::vector<std::pair<QString, double>>> topUsers(qint64 from, qint64 to, int n,
                                                                           qint64 now) const;
    [[nodiscard]] Result<double> usedGpuHours(BudgetScope scope, const QString &subject,
                                              const TimeRange &window, qint64 now) const;
    [[nodiscard]] Result<double> usedGpuHoursNaive(BudgetScope scope, const QString &subject,
                                                   const TimeRange &window, qint64 now) const;

private:
    // Whether t starts a local day of the rollup zone.
    [[nodiscard]] bool isDayStart(qint64 t) const;
    // The part of [from, to) between the first and the last hourly rollup row (empty
    // when there is none).
    [[nodiscard]] Result<TimeRange> rollupExtent(const QString &hourTable, qint64 from, qint64 to) const;
    [[nodiscard]] Result<QMap<QString, double>> subjectTotals(GroupBy by, qint64 from, qint64 to,
                                                              qint64 now) const;
    [[nodiscard]] Result<std::vector<UsageStore::SeriesPoint>> seriesFromIntervals(GroupBy by, Period period,
                                                                                   qint64 from, qint64 to,
                                                                                   const QTimeZone &tz,
                                                                                   qint64 now) const;

    const UsageConnection &m_conn;
    const ResourceWeights &m_weights;
    DayIndex &m_days; // a lookup cache, single-threaded like the store
    QString m_rollupZone;
    const IntervalQueries &m_intervals;
};

} // namespace gq
