#pragma once

#include "core/domain/result.h"

#include <QList>
#include <QString>
#include <QtGlobal>

#include <utility>

namespace gq {

// Fixed-point amounts for the chargeback, so that a report adds up on paper: GPU-hours
// are kept in units of 1e-4 h (what the report prints), rates in millionths of the
// currency per GPU-hour, costs in cents. Rounding happens once, half up, in integers.

// A rate as written ("2.50", "2", "0.125"): digits with an optional point and at most
// six decimals, from 0 to 1,000,000. The error names `field`.
[[nodiscard]] Result<qint64> parseRateMicros(const QString &text, const QString &field);
// At least two decimals, more only when the rate has them: "2.50", "0.125", "0.357143".
[[nodiscard]] QString formatRate(qint64 micros);

// GPU-hours as the usage verb prints them (QString::number(h, 'f', 4)), read back as
// an integer number of 1e-4 h: the report charges exactly the digits it shows.
[[nodiscard]] qint64 hoursE4(double gpuHours);
[[nodiscard]] QString formatHoursE4(qint64 e4);
// "1234.56".
[[nodiscard]] QString formatCents(qint64 cents);
// hours x rate in cents, half up.
[[nodiscard]] qint64 costCents(qint64 hoursE4, qint64 rateMicros);

// GPU-hours charged at several rates: the exact sum of hours x rate, rounded to cents
// once (half up), and the effective rate (that exact sum / the hours) in micros.
struct MixedCost {
    qint64 cents = 0;
    qint64 effectiveRateMicros = 0;
};
[[nodiscard]] MixedCost mixedCost(const QList<std::pair<qint64, qint64>> &hoursE4AndRateMicros);
// An effective rate with exactly four decimals, half up: "1.7500", "2.1735".
[[nodiscard]] QString formatEffectiveRate(qint64 micros);

} // namespace gq
