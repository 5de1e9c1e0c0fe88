#pragma once

#include "core/domain/result.h"

#include <QString>
#include <QTimeZone>
#include <QtGlobal>

#include <vector>

namespace gq {

// Calendar windows for GPU-hour accounting. All instants are epoch seconds (UTC);
// the calendar (where a day, week or month starts) comes from an IANA time zone, so
// a Berlin "day" in spring is 23 hours long and one in autumn 25.

enum class Period { Hour, Day, Week, Month };

// A half-open range [start, end) of epoch seconds.
struct TimeRange {
    qint64 start = 0;
    qint64 end = 0;
    [[nodiscard]] qint64 seconds() const { return end > start ? end - start : 0; }
    [[nodiscard]] bool contains(qint64 t) const { return t >= start && t < end; }
    friend bool operator==(const TimeRange &, const TimeRange &) = default;
};

// "hour" | "day" | "week" | "month" (the field name is used in the error).
[[nodiscard]] Result<Period> parsePeriod(const QString &text,
                                         const QString &field = QStringLiteral("period"));
[[nodiscard]] QString periodName(Period p);

// An IANA zone id ("Europe/Berlin", "UTC"); unknown ids are an Invalid error.
[[nodiscard]] Result<QTimeZone> parseZone(const QString &id, const QString &field = QStringLiteral("tz"));

// The calendar period that contains t. Hours are local hours (for zones whose offset
// is not a whole hour they start at :30 or :45 UTC); weeks are ISO weeks (Monday);
// a day starts at the first existing local instant of its date.
[[nodiscard]] TimeRange periodContaining(qint64 t, Period p, const QTimeZone &tz);

// The consecutive periods that together cover [from, to), unclipped: the first starts
// at or before `from`, the last ends at or after `to`. Empty if to <= from.
[[nodiscard]] std::vector<TimeRange> periodsCovering(qint64 from, qint64 to, Period p, const QTimeZone &tz);
// How many periods periodsCovering() would return, from calendar arithmetic on the
// local dates of `from` and `to` (constant time, nothing built), so a request for
// millions of buckets is refused before any is made. Exact for day, week and month
// (except in zones that skipped a whole date); for hours off by at most one per DST
// shift in the range (half-hour shifts add or drop a bucket). 0 if to <= from.
[[nodiscard]] qint64 periodCount(qint64 from, qint64 to, Period p, const QTimeZone &tz);
// The most buckets one GPU-hour series may have (about 22 years of hours): the
// console and the CLI check against it before asking, the store refuses more.
inline constexpr qint64 kMaxSeriesBuckets = 200000;

// RFC 3339 instants: "2026-03-29T00:30:00Z" or "2026-03-29T02:30:00+02:00". An offset
// (or Z) is required: a bare local time would be ambiguous. Fractions of a second are
// truncated (the ledger counts whole seconds).
[[nodiscard]] Result<qint64> parseInstant(const QString &text, const QString &field = QStringLiteral("time"));
// RFC 3339 with the zone's offset at that instant ("Z" when the offset is zero).
[[nodiscard]] QString formatInstant(qint64 t, const QTimeZone &tz);
[[nodiscard]] QString formatInstantUtc(qint64 t);

// Durations like "15m", "1h30m", "90s", "2d", or a plain number of seconds.
[[nodiscard]] Result<qint64> parseDuration(const QString &text,
                                           const QString &field = QStringLiteral("duration"));
// The shortest of the above forms ("15m", "1h30m", "0s").
[[nodiscard]] QString formatDuration(qint64 seconds);

} // namespace gq
