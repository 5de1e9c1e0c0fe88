#include "core/report/chargebackformat.h"

#include "core/domain/csvfield.h"
#include "core/report/money.h"

#include <QJsonArray>

#include <algorithm>

namespace gq {

namespace {
const QString kNotRecorded = QStringLiteral("not recorded");

QJsonValue e4OrNull(const std::optional<qint64> &e4) {
    return e4 ? QJsonValue(double(*e4) / 1e4) : QJsonValue(QJsonValue::Null);
}
} // namespace

QString lineRate(const ChargebackLine &l) {
    return l.mixedRate ? formatEffectiveRate(l.rateMicros) : formatRate(l.rateMicros);
}

QString formatShare(int perMille) {
    return QStringLiteral("%1.%2%").arg(perMille / 10).arg(perMille % 10);
}

QString groupByName(GroupBy by) {
    return by == GroupBy::User ? QStringLiteral("user") : QStringLiteral("namespace");
}

QString rateSummary(const RateCard &rates) {
    const QString cur = rates.currency.isEmpty() ? QString() : QLatin1Char(' ') + rates.currency;
    if (rates.isFlat())
        return formatRate(rates.defaultMicros) + cur + QStringLiteral(" per GPU-hour");
    const QStringList parts =
        QStringList{QStringLiteral("default %1").arg(formatRate(rates.defaultMicros))} + rates.exceptions();
    return parts.join(QStringLiteral("; ")) + cur + QStringLiteral(" per GPU-hour");
}

QByteArray chargebackCsv(const ChargebackReport &report) {
    QString out = QStringLiteral("subject,gpu_hours,rate,cost\n");
    for (const ChargebackLine &l : report.lines)
        out += csvField(l.subject) + QLatin1Char(',') + formatHoursE4(l.hoursE4) + QLatin1Char(',') +
               lineRate(l) + QLatin1Char(',') + formatCents(l.costCents) + QLatin1Char('\n');
    out += QStringLiteral("TOTAL,%1,,%2\n")
               .arg(formatHoursE4(report.totalHoursE4), formatCents(report.totalCents));
    return out.toUtf8();
}

QJsonObject chargebackJson(const ChargebackReport &report) {
    QJsonArray rows;
    for (const ChargebackLine &l : report.lines) {
        QJsonObject row{{QStringLiteral("subject"), l.subject},
                        {QStringLiteral("gpu_hours"), double(l.hoursE4) / 1e4},
                        {QStringLiteral("rate"), double(l.rateMicros) / 1e6},
                        {QStringLiteral("mixed_rate"), l.mixedRate},
                        {QStringLiteral("cost"), double(l.costCents) / 100.0},
                        {QStringLiteral("used_gpu_hours"), e4OrNull(l.usedE4())},
                        {QStringLiteral("idle_gpu_hours"), e4OrNull(l.idleE4)},
                        {QStringLiteral("idle_share"), l.idleE4 && l.hoursE4 > 0
                                                           ? QJsonValue(double(*l.idleE4) / double(l.hoursE4))
                                                           : QJsonValue(QJsonValue::Null)}};
        if (report.regroupedBy == QLatin1String("clusterqueue"))
            row.insert(QStringLiteral("clusterQueue"), l.subject);
        else if (report.regroupedBy == QLatin1String("localqueue"))
            row.insert(QStringLiteral("localQueue"), l.subject);
        if (!l.parts.isEmpty()) {
            QJsonObject res;
            QJsonArray parts;
            for (const RatedHours &p : l.parts) {
                res.insert(p.resource, res.value(p.resource).toDouble() + double(p.hoursE4) / 1e4);
                parts.append(QJsonObject{{QStringLiteral("resource"), p.resource},
                                         {QStringLiteral("model"), p.model},
                                         {QStringLiteral("gpu_hours"), double(p.hoursE4) / 1e4},
                                         {QStringLiteral("rate"), double(p.rateMicros) / 1e6}});
            }
            row.insert(QStringLiteral("resources"), res);
            row.insert(QStringLiteral("parts"), parts);
        }
        rows.append(row);
    }
    QJsonObject resources;
    for (auto it = report.rates.resourceMicros.cbegin(); it != report.rates.resourceMicros.cend(); ++it)
        resources.insert(it.key(), double(it.value()) / 1e6);
    QJsonObject models;
    for (auto it = report.rates.modelMicros.cbegin(); it != report.rates.modelMicros.cend(); ++it)
        models.insert(it.key(), double(it.value()) / 1e6);
    const QTimeZone &tz = report.month.tz;
    return QJsonObject{{QStringLiteral("month"), report.month.label()},
                       {QStringLiteral("tz"), QString::fromUtf8(tz.id())},
                       {QStringLiteral("from"), formatInstant(report.month.range.start, tz)},
                       {QStringLiteral("to"), formatInstant(report.month.range.end, tz)},
                       {QStringLiteral("by"), subjectKind(report)},
                       {QStringLiteral("currency"), report.rates.currency.isEmpty()
                                                        ? QJsonValue(QJsonValue::Null)
                                                        : QJsonValue(report.rates.currency)},
                       {QStringLiteral("rates"),
                        QJsonObject{{QStringLiteral("source"), report.rates.source},
                                    {QStringLiteral("default"), double(report.rates.defaultMicros) / 1e6},
                                    {QStringLiteral("resources"), resources},
                                    {QStringLiteral("models"), models}}},
                       {QStringLiteral("charged"), QStringLiteral("allocation")},
                       {QStringLiteral("utilization"),
                        report.utilizationRecorded ? QStringLiteral("recorded") : kNotRecorded},
                       {QStringLiteral("generated_at"), formatInstant(report.generatedAt, tz)},
                       {QStringLiteral("rows"), rows},
                       {QStringLiteral("total"),
                        QJsonObject{{QStringLiteral("gpu_hours"), double(report.totalHoursE4) / 1e4},
                                    {QStringLiteral("cost"), double(report.totalCents) / 100.0}}}};
}

QString chargebackTable(const ChargebackReport &report) {
    const QTimeZone &tz = report.month.tz;
    QString out;
    out += QStringLiteral("Chargeback %1 by %2, %3 .. %4 (%5)\n")
               .arg(report.month.label(), subjectKind(report), formatInstant(report.month.range.start, tz),
                    formatInstant(report.month.range.end, tz), QString::fromUtf8(tz.id()));
    out += QStringLiteral("Rate: %1 (%2)\n").arg(rateSummary(report.rates), report.rates.source);
    out +=
        report.utilizationRecorded
            ? QStringLiteral("Charged: GPU-hours held (allocated). Used = held - idle, from the idle spans "
                             "the controller recorded; not recorded where a subject has none.\n\n")
            : QStringLiteral("Charged: GPU-hours held (allocated). Used and idle share: not recorded (no "
                             "idle spans in the usage database for this month).\n\n");
    QList<QStringList> rows{{subjectKind(report).toUpper(), QStringLiteral("GPU-HOURS"),
                             QStringLiteral("RATE"), QStringLiteral("COST"), QStringLiteral("USED"),
                             QStringLiteral("IDLE")}};
    for (const ChargebackLine &l : report.lines) {
        const std::optional<qint64> used = l.usedE4();
        const std::optional<int> idle = l.idlePerMille();
        rows << QStringList{l.subject,
                            formatHoursE4(l.hoursE4),
                            lineRate(l) + (l.mixedRate ? QStringLiteral(" eff") : QString()),
                            formatCents(l.costCents),
                            used ? formatHoursE4(*used) : kNotRecorded,
                            idle ? formatShare(*idle) : kNotRecorded};
    }
    rows << QStringList{QStringLiteral("TOTAL"),
                        formatHoursE4(report.totalHoursE4),
                        QString(),
                        formatCents(report.totalCents),
                        QString(),
                        QString()};
    QList<int> width(rows.first().size(), 0);
    for (const QStringList &r : rows)
        for (int c = 0; c < r.size(); ++c)
            width[c] = std::max(width[c], int(r[c].size()));
    for (const QStringList &r : rows) {
        QString line;
        for (int c = 0; c < r.size(); ++c) {
            // Numbers right-aligned, so decimals line up.
            const bool numeric = c >= 1 && c <= 3;
            line += (numeric ? r[c].rightJustified(width[c]) : r[c].leftJustified(width[c])) +
                    QStringLiteral("   ");
        }
        while (line.endsWith(QLatin1Char(' ')))
            line.chop(1);
        out += line + QLatin1Char('\n');
    }
    if (std::any_of(report.lines.cbegin(), report.lines.cend(),
                    [](const ChargebackLine &l) { return l.mixedRate; }))
        out +=
            QStringLiteral("eff: the effective rate (cost / GPU-hours) of a subject charged several rates\n");
    if (report.lines.isEmpty())
        out += QStringLiteral("no GPU-hours recorded in %1\n").arg(report.month.label());
    return out;
}

} // namespace gq
