#include "chargeback.h"

#include "money.h"

#include <QDateTime>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace gq {

QString ChargebackMonth::label() const {
    return QStringLiteral("%1-%2").arg(year, 4, 10, QLatin1Char('0')).arg(month, 2, 10, QLatin1Char('0'));
}

namespace {
ChargebackMonth monthOf(int year, int month, const QTimeZone &tz) {
    ChargebackMonth m;
    m.year = year;
    m.month = month;
    m.tz = tz;
    // periodContaining knows where a local day starts when midnight does not exist.
    const qint64 noon = QDateTime(QDate(year, month, 15), QTime(12, 0), tz).toSecsSinceEpoch();
    m.range = periodContaining(noon, Period::Month, tz);
    return m;
}
} // namespace

Result<ChargebackMonth> parseChargebackMonth(const QString &text, const QTimeZone &tz, const QString &field) {
    static const QRegularExpression re(QStringLiteral("^([0-9]{4})-([0-9]{2})$"));
    const auto m = re.match(text.trimmed());
    const int year = m.hasMatch() ? m.captured(1).toInt() : 0;
    const int month = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (!m.hasMatch() || month < 1 || month > 12 || year < 2000 || year > 2999)
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("expected a month as YYYY-MM (e.g. 2026-11), got '%1'").arg(elided(text)), field);
    return monthOf(year, month, tz);
}

ChargebackMonth previousMonth(qint64 now, const QTimeZone &tz) {
    const QDate today = QDateTime::fromSecsSinceEpoch(now, tz).date();
    const QDate last = QDate(today.year(), today.month(), 1).addMonths(-1);
    return monthOf(last.year(), last.month(), tz);
}

ChargebackReport computeChargeback(GroupBy by, const ChargebackMonth &month, const RateCard &rates,
                                   const QMap<QString, double> &gpuHoursBySubject,
                                   const QMap<QString, QMap<QString, double>> &resourceHours,
                                   qint64 generatedAt) {
    ChargebackReport report;
    report.by = by;
    report.month = month;
    report.rates = rates;
    report.generatedAt = generatedAt;
    const bool flat = rates.isFlat();
    for (auto it = gpuHoursBySubject.cbegin(); it != gpuHoursBySubject.cend(); ++it) {
        ChargebackLine line;
        line.subject = it.key();
        line.gpuHours = it.value();
        line.hoursE4 = hoursE4(it.value());
        line.rateMicros = rates.defaultMicros;
        if (!flat) {
            line.resourceGpuHours = resourceHours.value(it.key());
            double sum = 0, weighted = 0;
            QList<qint64> seen;
            for (auto r = line.resourceGpuHours.cbegin(); r != line.resourceGpuHours.cend(); ++r) {
                const qint64 rate = rates.rateFor(r.key());
                sum += r.value();
                weighted += r.value() * double(rate);
                if (r.value() > 0 && !seen.contains(rate))
                    seen << rate;
            }
            if (seen.size() == 1)
                line.rateMicros = seen.first();
            else if (sum > 0) {
                line.rateMicros = std::llround(weighted / sum);
                line.mixedRate = true;
            }
        }
        line.costCents = costCents(line.hoursE4, line.rateMicros);
        report.totalHoursE4 += line.hoursE4;
        report.totalCents += line.costCents;
        report.lines << line;
    }
    std::sort(report.lines.begin(), report.lines.end(), [](const ChargebackLine &a, const ChargebackLine &b) {
        if (a.costCents != b.costCents)
            return a.costCents > b.costCents;
        if (a.hoursE4 != b.hoursE4)
            return a.hoursE4 > b.hoursE4;
        return a.subject < b.subject;
    });
    return report;
}

} // namespace gq
