#pragma once

#include "core/usage/budget.h"
#include "core/usage/ledger.h"
#include "core/usage/timewindow.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <vector>

namespace gq {

// What a usage chart asks the database, and what comes back: value types shared by
// the chart service (which answers on its own thread), the chart models and the
// benchmark. No widgets, no item models.

// The range presets of the usage views, in the zone of the buckets.
enum class RangePreset { Today, Last7Days, ThisMonth, LastMonth, Last90Days, Custom };
// [start, end) of the preset at `now`: whole local days (today and the six before it
// for Last7Days), the calendar month, or the previous one. Custom has no range of its
// own and gives the day of `now`.
[[nodiscard]] TimeRange presetRange(RangePreset preset, qint64 now, const QTimeZone &tz);
// The bucket a preset shows best by default: hours for today, weeks for 90 days,
// days otherwise.
[[nodiscard]] Period defaultPeriod(RangePreset preset);
// Whole local days from the start of `first` to the end of `last` (inclusive dates).
[[nodiscard]] TimeRange dayRange(const QDate &first, const QDate &last, const QTimeZone &tz);

struct ChartQuery {
    enum class Kind {
        Cluster,   // every namespace, stacked by namespace, with the top users
        Namespace, // one namespace, stacked by user, with its budgets
        User,      // one user, stacked by namespace, with their budgets
    };
    Kind kind = Kind::Cluster;
    QString subject; // the namespace or user (empty for Cluster)
    Period period = Period::Day;
    TimeRange range;
    QString zone = QStringLiteral("UTC"); // IANA id of the bucket calendar
    qint64 now = 0;
    friend bool operator==(const ChartQuery &, const ChartQuery &) = default;
};

struct ChartData {
    ChartQuery query;
    // Every bucket of the range in order, clipped to it (the first and last may be
    // partial); empty buckets are kept so the axis has no holes.
    std::vector<TimeRange> buckets;
    // Per bucket (same order), subject -> GPU-hours; subjects with no use are absent.
    std::vector<QHash<QString, double>> values;
    // Every subject with use in the range, heaviest first (ties by name).
    QList<std::pair<QString, double>> totals;
    // Cluster: every user with use in the range, heaviest first.
    QList<std::pair<QString, double>> topUsers;
    // Weighted GPUs held now by what the chart covers (running intervals at `now`).
    double runningGpusNow = 0;
    // Namespace/User: the subject's budgets in the period containing `now`.
    QList<Decision> budgets;
    // Namespace: each stacked user's own budget state (most restrictive of theirs).
    QHash<QString, Decision> subjectBudgets;
    qint64 elapsedMs = 0; // time the worker took

    [[nodiscard]] double total() const;
    [[nodiscard]] double bucketTotal(size_t bucket) const;
    [[nodiscard]] double value(size_t bucket, const QString &subject) const;
};

// The intervals behind one bar segment: `subjects` (one, or the "others" of a stack)
// of `query`'s chart in bucket `bucket` (clipped to the chart's range).
struct DrillQuery {
    ChartQuery query;
    TimeRange bucket;
    QStringList subjects;
};

struct DrillRow {
    UsageInterval interval;
    double gpuHoursInBucket = 0;
};

struct DrillData {
    DrillQuery query;
    QList<DrillRow> rows; // in start order
    [[nodiscard]] double total() const;
};

} // namespace gq

Q_DECLARE_METATYPE(gq::ChartData)
Q_DECLARE_METATYPE(gq::DrillData)
