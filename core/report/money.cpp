#include "core/report/money.h"

#include <QRegularExpression>

namespace gq {

namespace {
constexpr qint64 kMaxRateMicros = 1000000LL * 1000000LL; // 1,000,000 per GPU-hour

QString fixed(qint64 value, int decimals) {
    qint64 scale = 1;
    for (int i = 0; i < decimals; ++i)
        scale *= 10;
    const QString sign = value < 0 ? QStringLiteral("-") : QString();
    const qint64 v = value < 0 ? -value : value;
    return sign + QString::number(v / scale) + QLatin1Char('.') +
           QString::number(v % scale).rightJustified(decimals, QLatin1Char('0'));
}
} // namespace

Result<qint64> parseRateMicros(const QString &text, const QString &field) {
    static const QRegularExpression re(QStringLiteral("^([0-9]{1,7})(?:\\.([0-9]{1,6}))?$"));
    const QString t = text.trimmed();
    const auto m = re.match(t);
    if (!m.hasMatch())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("a rate must be a non-negative number with at most six "
                                          "decimals (e.g. 2.50), got '%1'")
                               .arg(elided(text)),
                           field);
    const qint64 micros =
        m.captured(1).toLongLong() * 1000000 + m.captured(2).leftJustified(6, QLatin1Char('0')).toLongLong();
    if (micros > kMaxRateMicros)
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("a rate above 1000000 per GPU-hour is surely a typo, got '%1'").arg(t), field);
    return micros;
}

QString formatRate(qint64 micros) {
    QString s = fixed(micros, 6);
    // Keep two decimals, drop the zeros after them.
    while (s.endsWith(QLatin1Char('0')) && s.size() - s.indexOf(QLatin1Char('.')) > 3)
        s.chop(1);
    return s;
}

qint64 hoursE4(double gpuHours) {
    // Through the printed text, not llround(h * 1e4): the two can differ by one unit at
    // a binary half-way point, and the report must show the usage verb's digits.
    QString s = QString::number(gpuHours, 'f', 4);
    const bool negative = s.startsWith(QLatin1Char('-'));
    if (negative)
        s.remove(0, 1);
    const qint64 v = s.remove(QLatin1Char('.')).toLongLong();
    return negative ? -v : v;
}

QString formatHoursE4(qint64 e4) {
    return fixed(e4, 4);
}

QString formatCents(qint64 cents) {
    return fixed(cents, 2);
}

namespace {
// 128 bits: a large month at a large rate overflows 64 (g++ and clang both have it).
__extension__ using Int128 = __int128;

Int128 roundDiv(Int128 value, Int128 unit) {
    const Int128 half = unit / 2;
    return value >= 0 ? (value + half) / unit : -((-value + half) / unit);
}
} // namespace

qint64 costCents(qint64 hoursE4, qint64 rateMicros) {
    // 1e-4 h x 1e-6 money = 1e-10 money; a cent is 1e8 of those.
    return static_cast<qint64>(roundDiv(static_cast<Int128>(hoursE4) * rateMicros, 100000000));
}

MixedCost mixedCost(const QList<std::pair<qint64, qint64>> &hoursE4AndRateMicros) {
    Int128 sum = 0, hours = 0;
    for (const auto &[h, rate] : hoursE4AndRateMicros) {
        sum += static_cast<Int128>(h) * rate;
        hours += h;
    }
    MixedCost c;
    c.cents = static_cast<qint64>(roundDiv(sum, 100000000));
    // 1e-10 money / 1e-4 h = 1e-6 money per hour: micros.
    c.effectiveRateMicros = hours > 0 ? static_cast<qint64>(roundDiv(sum, hours)) : 0;
    return c;
}

QString formatEffectiveRate(qint64 micros) {
    return fixed(static_cast<qint64>(roundDiv(micros, 100)), 4);
}

} // namespace gq
