#include "core/usage/timewindow.h"

#include <QDateTime>
#include <QRegularExpression>

namespace gq {

Result<Period> parsePeriod(const QString &text, const QString &field) {
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("hour"))
        return Period::Hour;
    if (t == QLatin1String("day"))
        return Period::Day;
    if (t == QLatin1String("week"))
        return Period::Week;
    if (t == QLatin1String("month"))
        return Period::Month;
    return Error::make(Error::Kind::Invalid,
                       QStringLiteral("unknown period '%1'; expected hour, day, week or month").arg(text),
                       field);
}

QString periodName(Period p) {
    switch (p) {
    case Period::Hour: return QStringLiteral("hour");
    case Period::Day: return QStringLiteral("day");
    case Period::Week: return QStringLiteral("week");
    case Period::Month: return QStringLiteral("month");
    }
    return {};
}

Result<QTimeZone> parseZone(const QString &id, const QString &field) {
    const QByteArray iana = id.trimmed().toUtf8();
    if (iana.isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("empty time zone"), field);
    QTimeZone tz(iana);
    if (!tz.isValid())
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("unknown time zone '%1'; expected an IANA id like Europe/Berlin or UTC").arg(id),
            field);
    return tz;
}

static qint64 startOfDate(const QDate &d, const QTimeZone &tz) {
    return d.startOfDay(tz).toSecsSinceEpoch();
}

TimeRange periodContaining(qint64 t, Period p, const QTimeZone &tz) {
    if (p == Period::Hour) {
        // Offsets are whole minutes, so the local hour containing t is found by
        // arithmetic on the offset in force at t; this is exact across DST changes
        // (the repeated autumn hour is two separate buckets, as it should be).
        const qint64 local = t + tz.offsetFromUtc(QDateTime::fromSecsSinceEpoch(t, Qt::UTC));
        const qint64 floorLocal = local - (((local % 3600) + 3600) % 3600);
        const qint64 start = t - (local - floorLocal);
        return {start, start + 3600};
    }
    const QDate d = QDateTime::fromSecsSinceEpoch(t, tz).date();
    QDate first = d;
    QDate next;
    switch (p) {
    case Period::Day: next = d.addDays(1); break;
    case Period::Week:
        first = d.addDays(1 - d.dayOfWeek());
        next = first.addDays(7);
        break;
    case Period::Month:
        first = QDate(d.year(), d.month(), 1);
        next = first.addMonths(1);
        break;
    case Period::Hour: break;
    }
    return {startOfDate(first, tz), startOfDate(next, tz)};
}

std::vector<TimeRange> periodsCovering(qint64 from, qint64 to, Period p, const QTimeZone &tz) {
    std::vector<TimeRange> out;
    if (to <= from)
        return out;
    TimeRange r = periodContaining(from, p, tz);
    while (r.start < to) {
        out.push_back(r);
        const TimeRange next = periodContaining(r.end, p, tz);
        if (next.start <= r.start) // defensive: a zone database oddity must not loop forever
            break;
        r = next;
    }
    return out;
}

qint64 periodCount(qint64 from, qint64 to, Period p, const QTimeZone &tz) {
    if (to <= from)
        return 0;
    const TimeRange first = periodContaining(from, p, tz);
    if (p == Period::Hour)
        return (to - first.start + 3599) / 3600;
    // The date of the last instant inside the range: its period is the last one.
    const QDate a = QDateTime::fromSecsSinceEpoch(first.start, tz).date();
    const QDate b = QDateTime::fromSecsSinceEpoch(to - 1, tz).date();
    switch (p) {
    case Period::Day: return a.daysTo(b) + 1;
    case Period::Week: return a.daysTo(b.addDays(1 - b.dayOfWeek())) / 7 + 1;
    case Period::Month: return (qint64(b.year()) - a.year()) * 12 + (b.month() - a.month()) + 1;
    case Period::Hour: break;
    }
    return 0;
}

Result<qint64> parseInstant(const QString &text, const QString &field) {
    static const QRegularExpression re(QStringLiteral(
        R"(^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$)"));
    const QString s = text.trimmed();
    const auto m = re.match(s);
    if (!m.hasMatch())
        return Error::make(
            Error::Kind::Parse,
            QStringLiteral("'%1' is not an RFC 3339 instant (expected e.g. 2026-03-29T00:30:00Z or "
                           "2026-03-29T02:30:00+02:00)")
                .arg(text),
            field);
    const QDate date(m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt());
    const int hh = m.captured(4).toInt(), mm = m.captured(5).toInt(), ss = m.captured(6).toInt();
    // RFC 3339 allows a leap second (:60); we fold it into the next second's start.
    const QTime time(hh, mm, ss == 60 ? 59 : ss);
    if (!date.isValid() || !time.isValid())
        return Error::make(Error::Kind::Parse, QStringLiteral("'%1' is not a valid date and time").arg(text),
                           field);
    int offset = 0;
    const QString off = m.captured(8);
    if (off.compare(QLatin1String("z"), Qt::CaseInsensitive) != 0) {
        const int oh = off.mid(1, 2).toInt(), om = off.mid(4, 2).toInt();
        if (oh > 23 || om > 59)
            return Error::make(Error::Kind::Parse, QStringLiteral("'%1' has an invalid UTC offset").arg(text),
                               field);
        offset = (oh * 3600 + om * 60) * (off.startsWith(QLatin1Char('-')) ? -1 : 1);
    }
    const qint64 local = QDateTime(date, time, Qt::UTC).toSecsSinceEpoch() + (ss == 60 ? 1 : 0);
    return local - offset;
}

QString formatInstant(qint64 t, const QTimeZone &tz) {
    const QDateTime dt = QDateTime::fromSecsSinceEpoch(t, tz);
    const int off = dt.offsetFromUtc();
    const QString base = dt.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    if (off == 0)
        return base + QLatin1Char('Z');
    const int a = off < 0 ? -off : off;
    return base + (off < 0 ? QLatin1Char('-') : QLatin1Char('+')) +
           QStringLiteral("%1:%2")
               .arg(a / 3600, 2, 10, QLatin1Char('0'))
               .arg((a % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString formatInstantUtc(qint64 t) {
    return QDateTime::fromSecsSinceEpoch(t, Qt::UTC).toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss")) +
           QLatin1Char('Z');
}

Result<qint64> parseDuration(const QString &text, const QString &field) {
    const QString s = text.trimmed();
    bool plain = false;
    const qint64 n = s.toLongLong(&plain);
    if (plain) {
        if (n < 0)
            return Error::make(Error::Kind::Invalid, QStringLiteral("duration must not be negative"), field);
        return n;
    }
    static const QRegularExpression whole(QStringLiteral(R"(^(?:\d+[dhms])+$)"));
    static const QRegularExpression part(QStringLiteral(R"((\d+)([dhms]))"));
    if (!whole.match(s).hasMatch())
        return Error::make(
            Error::Kind::Parse,
            QStringLiteral("'%1' is not a duration (expected e.g. 15m, 1h30m, 90s, 2d)").arg(text), field);
    qint64 total = 0;
    auto it = part.globalMatch(s);
    while (it.hasNext()) {
        const auto m = it.next();
        const qint64 v = m.captured(1).toLongLong();
        const QChar unit = m.captured(2).at(0);
        const qint64 mult = unit == QLatin1Char('d')   ? 86400
                            : unit == QLatin1Char('h') ? 3600
                            : unit == QLatin1Char('m') ? 60
                                                       : 1;
        total += v * mult;
    }
    return total;
}

QString formatDuration(qint64 seconds) {
    if (seconds <= 0)
        return QStringLiteral("0s");
    QString out;
    const qint64 h = seconds / 3600, m = (seconds % 3600) / 60, s = seconds % 60;
    if (h)
        out += QString::number(h) + QLatin1Char('h');
    if (m)
        out += QString::number(m) + QLatin1Char('m');
    if (s)
        out += QString::number(s) + QLatin1Char('s');
    return out;
}

} // namespace gq
