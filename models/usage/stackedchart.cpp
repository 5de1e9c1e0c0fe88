#include "models/usage/stackedchart.h"

#include "core/domain/csvfield.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QSet>

namespace gq {

namespace {
// FNV-1a over the UTF-8 bytes: fixed across runs (qHash is seeded per process).
quint32 stableHash(const QString &s) {
    quint32 h = 2166136261u;
    for (const char c : s.toUtf8()) {
        h ^= quint8(c);
        h *= 16777619u;
    }
    return h;
}

// Twenty hues that stay apart from each other and from the grey of "others".
constexpr QRgb kPalette[SubjectColors::kPaletteSize] = {
    0x4e79a7, 0xf28e2b, 0x59a14f, 0xe15759, 0x76b7b2, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0x2f6fbd,
    0x8cd17d, 0xd37295, 0x499894, 0xf1ce63, 0x86bcb6, 0xd4a6c8, 0xb6992d, 0x6b5b95, 0xe17c05, 0x5f9ed1,
};
} // namespace

QColor SubjectColors::base(const QString &subject) {
    return QColor(kPalette[stableHash(subject) % kPaletteSize]);
}

QColor SubjectColors::others() {
    return QColor(0xb8, 0xb8, 0xb8);
}

QList<QColor> SubjectColors::forStack(const QStringList &subjects) {
    QList<QColor> out;
    QHash<QRgb, int> uses;
    for (const QString &s : subjects) {
        const QColor c = base(s);
        const int n = uses[c.rgb()]++;
        out << (n == 0 ? c : c.lighter(100 + 28 * n));
    }
    return out;
}

QString bucketLabel(const TimeRange &bucket, Period period, const QTimeZone &tz, bool shortForm) {
    const QLocale locale;
    const QDateTime start = QDateTime::fromSecsSinceEpoch(bucket.start, tz);
    switch (period) {
    case Period::Hour:
        return shortForm ? start.toString(QStringLiteral("HH:mm"))
                         : locale.toString(start, QLocale::ShortFormat);
    case Period::Day:
        // The axis formats are translated: "d MMM" reads "25 11月" in Chinese.
        return shortForm
                   ? locale.toString(start.date(), QCoreApplication::translate("gq::StackedChart", "d MMM",
                                                                               "date format of a day bar"))
                   : locale.toString(start.date(), QLocale::LongFormat);
    case Period::Week: {
        int year = 0;
        const int week = start.date().weekNumber(&year);
        return shortForm ? QCoreApplication::translate("gq::StackedChart", "W%1").arg(week)
                         : QCoreApplication::translate("gq::StackedChart", "ISO week %1 of %2, from %3")
                               .arg(week)
                               .arg(year)
                               .arg(locale.toString(start.date(), QLocale::ShortFormat));
    }
    case Period::Month:
        return locale.toString(start.date(),
                               shortForm ? QCoreApplication::translate("gq::StackedChart", "MMM yyyy",
                                                                       "date format of a month bar")
                                         : QCoreApplication::translate("gq::StackedChart", "MMMM yyyy",
                                                                       "date format of a month title"));
    }
    return {};
}

StackedChart stackTopN(const ChartData &data, int topN, const QString &othersLabel) {
    StackedChart chart;
    const auto tz = parseZone(data.query.zone);
    const QTimeZone zone = tz ? *tz : QTimeZone::utc();
    for (const TimeRange &b : data.buckets) {
        chart.categories << bucketLabel(b, data.query.period, zone, true);
        chart.categoryTitles << bucketLabel(b, data.query.period, zone, false);
    }
    QStringList top;
    for (int i = 0; i < data.totals.size() && i < topN; ++i)
        top << data.totals.at(i).first;
    const QList<QColor> colors = SubjectColors::forStack(top);
    for (int i = 0; i < top.size(); ++i) {
        StackedChart::Band band;
        band.label = top.at(i);
        band.members = {top.at(i)};
        band.color = colors.at(i);
        for (size_t b = 0; b < data.buckets.size(); ++b)
            band.values << data.value(b, top.at(i));
        chart.bands << band;
    }
    if (data.totals.size() > topN) {
        StackedChart::Band others;
        others.label = othersLabel;
        others.others = true;
        others.color = SubjectColors::others();
        for (qsizetype i = topN; i < data.totals.size(); ++i)
            others.members << data.totals.at(i).first;
        const QSet<QString> inTop(top.cbegin(), top.cend());
        for (size_t b = 0; b < data.buckets.size(); ++b) {
            double s = 0;
            for (auto it = data.values[b].cbegin(); it != data.values[b].cend(); ++it)
                if (!inTop.contains(it.key()))
                    s += it.value();
            others.values << s;
        }
        chart.bands << others;
    }
    return chart;
}

QList<double> cumulative(const ChartData &data) {
    QList<double> out;
    double s = 0;
    for (size_t b = 0; b < data.buckets.size(); ++b) {
        // The future has no usage yet: the line stops at the bucket holding `now`.
        if (data.buckets[b].start > data.query.now) {
            out << qQNaN();
            continue;
        }
        out << (s += data.bucketTotal(b));
    }
    return out;
}

QByteArray chartCsv(const ChartData &data) {
    const auto tz = parseZone(data.query.zone);
    const QTimeZone zone = tz ? *tz : QTimeZone::utc();
    QByteArray out = "bucket_start,bucket_end,subject,gpu_hours\n";
    for (size_t b = 0; b < data.buckets.size(); ++b) {
        QList<std::pair<QString, double>> rows;
        for (auto it = data.values[b].cbegin(); it != data.values[b].cend(); ++it)
            rows.append({it.key(), it.value()});
        std::sort(rows.begin(), rows.end());
        for (const auto &[subject, hours] : rows)
            out += (formatInstant(data.buckets[b].start, zone) + QLatin1Char(',') +
                    formatInstant(data.buckets[b].end, zone) + QLatin1Char(',') + csvField(subject) +
                    QLatin1Char(',') + QString::number(hours, 'f', 4) + QLatin1Char('\n'))
                       .toUtf8();
    }
    return out;
}

QByteArray drillCsv(const DrillData &data) {
    const auto tz = parseZone(data.query.query.zone);
    const QTimeZone zone = tz ? *tz : QTimeZone::utc();
    QByteArray out = "pod,namespace,user,resource,gpus,start,end,gpu_hours_in_bucket\n";
    for (const DrillRow &r : data.rows) {
        const UsageInterval &iv = r.interval;
        out += QStringList{csvField(iv.podName),
                           csvField(iv.ns),
                           csvField(iv.user),
                           csvField(iv.resource),
                           QString::number(iv.gpus),
                           formatInstant(iv.start, zone),
                           iv.end ? formatInstant(*iv.end, zone) : QString(),
                           QString::number(r.gpuHoursInBucket, 'f', 4)}
                   .join(QLatin1Char(','))
                   .toUtf8() +
               '\n';
    }
    return out;
}

} // namespace gq

namespace gq {

namespace {
QString periodWord(Period p) {
    switch (p) {
    case Period::Hour: return QCoreApplication::translate("gq::StackedChart", "hour");
    case Period::Day: return QCoreApplication::translate("gq::StackedChart", "day");
    case Period::Week: return QCoreApplication::translate("gq::StackedChart", "week");
    case Period::Month: return QCoreApplication::translate("gq::StackedChart", "month");
    }
    return {};
}
} // namespace

bool addBudgetLines(StackedChart &chart, const ChartData &data) {
    bool added = false;
    const QLocale locale;
    for (const Decision &d : data.budgets) {
        if (!d.hasBudget)
            continue;
        if (d.period != data.query.range) {
            // Bars as long as the budget's period (daily bars, a daily budget): each bar
            // holds one period's use, so the limit is a line across them.
            if (data.query.period != d.budget.period)
                continue;
            added = true;
            chart.lines << StackedChart::Line{
                QCoreApplication::translate("gq::StackedChart", "budget %1 GPU-h per %2")
                    .arg(locale.toString(d.budget.limitGpuHours, 'f', 1), periodWord(d.budget.period)),
                QColor(0xc6, 0x28, 0x28),
                QList<double>(qsizetype(data.buckets.size()), d.budget.limitGpuHours), true};
            continue;
        }
        if (!added)
            chart.lines << StackedChart::Line{QCoreApplication::translate("gq::StackedChart", "cumulative"),
                                              QColor(0x33, 0x33, 0x33), cumulative(data), false};
        added = true;
        chart.lines << StackedChart::Line{QCoreApplication::translate("gq::StackedChart", "budget %1 GPU-h")
                                              .arg(locale.toString(d.limit, 'f', 1)),
                                          QColor(0xc6, 0x28, 0x28),
                                          QList<double>(qsizetype(data.buckets.size()), d.limit), true};
    }
    return added;
}

std::optional<BudgetView> budgetView(const ChartData &data) {
    for (const Decision &d : data.budgets)
        if (d.hasBudget)
            return BudgetView{d.period, d.budget.period == Period::Day ? Period::Hour : Period::Day};
    return std::nullopt;
}

} // namespace gq
