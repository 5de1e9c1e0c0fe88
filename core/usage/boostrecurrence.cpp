#include "core/usage/boosts.h"
#include "core/usage/timewindow.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QTimeZone>

namespace gq {

namespace {
Error invalid(const QString &message, const QString &field) {
    return Error::make(Error::Kind::Invalid, message, field);
}

QString hhmm(int minutes) {
    return QStringLiteral("%1:%2")
        .arg(minutes / 60, 2, 10, QLatin1Char('0'))
        .arg(minutes % 60, 2, 10, QLatin1Char('0'));
}

bool dayMatches(BoostRecurrence::Kind kind, const QDate &d) {
    const int dow = d.dayOfWeek(); // 1 Monday .. 7 Sunday
    switch (kind) {
    case BoostRecurrence::Kind::Nightly: return true;
    case BoostRecurrence::Kind::Weekends: return dow >= 6;
    case BoostRecurrence::Kind::Weekdays: return dow <= 5;
    case BoostRecurrence::Kind::None: return false;
    }
    return false;
}

// A bound on the walk over local days (ten years of windows).
constexpr int kMaxDays = 3700;
} // namespace

QString recurrenceKindName(BoostRecurrence::Kind kind) {
    switch (kind) {
    case BoostRecurrence::Kind::None: return QStringLiteral("");
    case BoostRecurrence::Kind::Nightly: return QStringLiteral("nightly");
    case BoostRecurrence::Kind::Weekends: return QStringLiteral("weekends");
    case BoostRecurrence::Kind::Weekdays: return QStringLiteral("weekdays");
    }
    return {};
}

QString BoostRecurrence::window() const {
    return recurs() ? hhmm(startMinute) + QLatin1Char('-') + hhmm(endMinute) : QString();
}

Result<BoostRecurrence> BoostRecurrence::make(const QString &kind, const QString &window, const QString &tz,
                                              qint64 until) {
    BoostRecurrence r;
    if (kind == QLatin1String("nightly"))
        r.kind = Kind::Nightly;
    else if (kind == QLatin1String("weekends"))
        r.kind = Kind::Weekends;
    else if (kind == QLatin1String("weekdays"))
        r.kind = Kind::Weekdays;
    else
        return invalid(QStringLiteral("'%1' is not nightly, weekends or weekdays").arg(kind),
                       QStringLiteral("recur"));
    static const QRegularExpression re(
        QStringLiteral("^([01][0-9]|2[0-3]):([0-5][0-9])-([01][0-9]|2[0-3]):([0-5][0-9])$"));
    const auto m = re.match(window);
    if (!m.hasMatch())
        return invalid(QStringLiteral("'%1' is not HH:MM-HH:MM (e.g. 20:00-08:00)").arg(window),
                       QStringLiteral("window"));
    r.startMinute = m.captured(1).toInt() * 60 + m.captured(2).toInt();
    r.endMinute = m.captured(3).toInt() * 60 + m.captured(4).toInt();
    auto zone = parseZone(tz, QStringLiteral("tz"));
    if (!zone)
        return zone.error();
    r.tz = QString::fromUtf8(zone->id());
    r.until = until;
    return r;
}

std::optional<std::pair<qint64, qint64>> BoostRecurrence::nextOccurrence(qint64 after,
                                                                         qint64 notBefore) const {
    if (!recurs())
        return std::nullopt;
    const QTimeZone zone(tz.toUtf8());
    if (!zone.isValid())
        return std::nullopt;
    // Start a day early: the window that began yesterday evening may still be open.
    QDate day = QDateTime::fromSecsSinceEpoch(after, zone).date().addDays(-1);
    const int lengthDays = endMinute <= startMinute ? 1 : 0;
    for (int i = 0; i < kMaxDays; ++i, day = day.addDays(1)) {
        if (!dayMatches(kind, day))
            continue;
        const qint64 start =
            QDateTime(day, QTime(startMinute / 60, startMinute % 60), zone).toSecsSinceEpoch();
        if (until > 0 && start >= until)
            return std::nullopt;
        qint64 end = QDateTime(day.addDays(lengthDays), QTime(endMinute / 60, endMinute % 60), zone)
                         .toSecsSinceEpoch();
        if (until > 0)
            end = std::min(end, until);
        if (end <= after)
            continue;
        const qint64 s = std::max({start, notBefore});
        if (s < end)
            return std::make_pair(s, end);
    }
    return std::nullopt;
}

std::optional<std::pair<qint64, qint64>> BoostRecurrence::occurrenceAt(qint64 now, qint64 after,
                                                                       int *missed) const {
    int skipped = 0;
    std::optional<std::pair<qint64, qint64>> occ = nextOccurrence(after);
    // One step per window that passed unseen; the walk is bounded like nextOccurrence's.
    for (int i = 0; occ && occ->second <= now && i < kMaxDays; ++i) {
        ++skipped;
        occ = nextOccurrence(occ->second);
    }
    if (occ && occ->second <= now) // more than ten years of windows: jump
        occ = nextOccurrence(now);
    if (missed)
        *missed = skipped;
    return occ;
}

} // namespace gq
