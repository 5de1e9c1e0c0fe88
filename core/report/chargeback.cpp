#include "core/report/chargeback.h"

#include "core/report/money.h"

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

std::optional<int> ChargebackLine::idlePerMille() const {
    if (!idleE4 || hoursE4 <= 0)
        return std::nullopt;
    return int((*idleE4 * 1000 + hoursE4 / 2) / hoursE4);
}

namespace {

// Splits the line's printed hours between its (resource, model) parts: each part's
// hours at 4 decimals, the rounding difference on the largest part, so the parts add
// up to exactly what the line prints and charges.
void splitHours(ChargebackLine &line, const RateCard &rates) {
    qint64 sum = 0;
    int largest = -1;
    for (int i = 0; i < line.parts.size(); ++i) {
        RatedHours &p = line.parts[i];
        p.hoursE4 = hoursE4(std::max(0.0, p.gpuHours));
        p.rateMicros = rates.rateFor(p.resource, p.model);
        sum += p.hoursE4;
        if (largest < 0 || p.hoursE4 > line.parts[largest].hoursE4)
            largest = i;
    }
    if (largest >= 0)
        line.parts[largest].hoursE4 += line.hoursE4 - sum;
}

void price(ChargebackLine &line, const RateCard &rates) {
    line.rateMicros = rates.defaultMicros;
    if (!line.parts.isEmpty()) {
        splitHours(line, rates);
        QList<std::pair<qint64, qint64>> priced;
        QList<qint64> seen;
        for (const RatedHours &p : std::as_const(line.parts)) {
            priced << std::pair{p.hoursE4, p.rateMicros};
            if (p.hoursE4 > 0 && !seen.contains(p.rateMicros))
                seen << p.rateMicros;
        }
        if (seen.size() > 1) {
            const MixedCost c = mixedCost(priced);
            line.mixedRate = true;
            line.rateMicros = c.effectiveRateMicros;
            line.costCents = c.cents;
            return;
        }
        if (seen.size() == 1)
            line.rateMicros = seen.first();
    }
    line.costCents = costCents(line.hoursE4, line.rateMicros);
}

} // namespace

ChargebackInputs regroupInputs(const ChargebackInputs &perNamespace,
                               const std::function<QString(const QString &)> &subjectOf) {
    ChargebackInputs out;
    for (auto it = perNamespace.gpuHours.cbegin(); it != perNamespace.gpuHours.cend(); ++it)
        out.gpuHours[subjectOf(it.key())] += it.value();
    for (auto it = perNamespace.idleGpuHours.cbegin(); it != perNamespace.idleGpuHours.cend(); ++it)
        out.idleGpuHours[subjectOf(it.key())] += it.value();
    for (auto it = perNamespace.parts.cbegin(); it != perNamespace.parts.cend(); ++it) {
        QList<RatedHours> &merged = out.parts[subjectOf(it.key())];
        for (const RatedHours &p : it.value()) {
            const auto same = std::find_if(merged.begin(), merged.end(), [&](const RatedHours &m) {
                return m.resource == p.resource && m.model == p.model;
            });
            if (same == merged.end())
                merged << p;
            else
                same->gpuHours += p.gpuHours;
        }
    }
    return out;
}

QString subjectKind(const ChargebackReport &report) {
    if (!report.regroupedBy.isEmpty())
        return report.regroupedBy;
    return report.by == GroupBy::User ? QStringLiteral("user") : QStringLiteral("namespace");
}

ChargebackReport computeChargeback(GroupBy by, const ChargebackMonth &month, const RateCard &rates,
                                   const ChargebackInputs &inputs, qint64 generatedAt) {
    ChargebackReport report;
    report.by = by;
    report.month = month;
    report.rates = rates;
    report.generatedAt = generatedAt;
    const bool flat = rates.isFlat();
    for (auto it = inputs.gpuHours.cbegin(); it != inputs.gpuHours.cend(); ++it) {
        ChargebackLine line;
        line.subject = it.key();
        line.gpuHours = it.value();
        line.hoursE4 = hoursE4(it.value());
        if (!flat)
            line.parts = inputs.parts.value(it.key());
        price(line, rates);
        if (auto idle = inputs.idleGpuHours.constFind(it.key()); idle != inputs.idleGpuHours.cend()) {
            // Never more idle than held: spans and intervals are recorded apart.
            line.idleE4 = std::clamp(hoursE4(*idle), qint64(0), std::max(qint64(0), line.hoursE4));
            report.utilizationRecorded = true;
        }
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
