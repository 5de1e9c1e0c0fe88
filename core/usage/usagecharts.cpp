#include "core/usage/usagecharts.h"

#include <QDateTime>

namespace gq {

namespace {
// The start of the local day `date` in `tz`: noon of that date is always a real
// instant, and its day starts at the first existing instant of the date.
qint64 dayStart(const QDate &date, const QTimeZone &tz) {
    return periodContaining(QDateTime(date, QTime(12, 0), tz).toSecsSinceEpoch(), Period::Day, tz).start;
}
QDate localDate(qint64 t, const QTimeZone &tz) {
    return QDateTime::fromSecsSinceEpoch(t, tz).date();
}
} // namespace

TimeRange dayRange(const QDate &first, const QDate &last, const QTimeZone &tz) {
    return TimeRange{dayStart(first, tz), dayStart(last.addDays(1), tz)};
}

TimeRange presetRange(RangePreset preset, qint64 now, const QTimeZone &tz) {
    const QDate today = localDate(now, tz);
    switch (preset) {
    case RangePreset::Today:
    case RangePreset::Custom: return dayRange(today, today, tz);
    case RangePreset::Last7Days: return dayRange(today.addDays(-6), today, tz);
    case RangePreset::Last90Days: return dayRange(today.addDays(-89), today, tz);
    case RangePreset::ThisMonth: return periodContaining(now, Period::Month, tz);
    case RangePreset::LastMonth: {
        const TimeRange month = periodContaining(now, Period::Month, tz);
        return periodContaining(month.start - 1, Period::Month, tz);
    }
    }
    return dayRange(today, today, tz);
}

Period defaultPeriod(RangePreset preset) {
    switch (preset) {
    case RangePreset::Today: return Period::Hour;
    case RangePreset::Last90Days: return Period::Week;
    default: return Period::Day;
    }
}

double ChartData::total() const {
    double s = 0;
    for (const auto &t : totals)
        s += t.second;
    return s;
}

double ChartData::bucketTotal(size_t bucket) const {
    double s = 0;
    if (bucket < values.size())
        for (double v : values[bucket])
            s += v;
    return s;
}

double ChartData::value(size_t bucket, const QString &subject) const {
    return bucket < values.size() ? values[bucket].value(subject) : 0.0;
}

double DrillData::total() const {
    double s = 0;
    for (const DrillRow &r : rows)
        s += r.gpuHoursInBucket;
    return s;
}

} // namespace gq
