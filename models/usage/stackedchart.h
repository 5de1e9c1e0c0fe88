#pragma once

#include "core/usage/usagecharts.h"

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

// What one usage chart draws, independent of the chart library: the chart module
// (widgets/charts) turns it into series, and a move to another library keeps this.
struct StackedChart {
    QStringList categories;     // one short axis label per bucket
    QStringList categoryTitles; // the same, in full, for tooltips and drill-downs
    struct Band {
        QString label;       // a subject, or "others"
        QStringList members; // the subjects the band stands for (one, or the others)
        QColor color;
        QList<double> values; // one per bucket
        bool others = false;
    };
    QList<Band> bands; // bottom up
    struct Line {
        QString label;
        QColor color;
        QList<double> values; // one per bucket; NaN: no point there
        bool dashed = false;
    };
    QList<Line> lines;
    QString valueTitle; // the value axis, e.g. "GPU-hours"
    QString unit;       // after a value in a tooltip, e.g. "GPU-h"
};

// Colours that follow the subject, not its rank: the hue comes from the name (a
// fixed hash, so the same across views and sessions); when two subjects of one
// stack share a hue the lighter one gets a shade of it. "others" is always grey.
class SubjectColors {
public:
    [[nodiscard]] static QColor base(const QString &subject);
    [[nodiscard]] static QColor others();
    // The colours of a stack's subjects, in the order given (heaviest first).
    [[nodiscard]] static QList<QColor> forStack(const QStringList &subjects);
    static constexpr int kPaletteSize = 20;
};

// Bucket labels in the current default locale: short for the axis, full for titles.
[[nodiscard]] QString bucketLabel(const TimeRange &bucket, Period period, const QTimeZone &tz,
                                  bool shortForm);

// The top `topN` subjects of `data` as bands, heaviest at the bottom, and the rest
// summed into one "others" band; `othersLabel` names it.
[[nodiscard]] StackedChart stackTopN(const ChartData &data, int topN, const QString &othersLabel);
// A cumulative line: running sum of the stack's bucket totals, NaN for buckets that
// start after the query's `now`.
[[nodiscard]] QList<double> cumulative(const ChartData &data);

// Every subject of every bucket (the chart's data, not only its top N):
// bucket_start,bucket_end,subject,gpu_hours — instants RFC 3339 in the buckets' zone,
// GPU-hours with 4 decimals, a subject that looks like a formula quoted with "'".
[[nodiscard]] QByteArray chartCsv(const ChartData &data);
[[nodiscard]] QByteArray drillCsv(const DrillData &data);

} // namespace gq

namespace gq {
// For each of the subject's budgets whose current period is exactly the chart's
// range: the cumulative GPU-hours (once) and the budget's limit as lines. Over another
// range whose bars are as long as the budget's period (a daily budget on daily bars):
// the limit as a line across the bars, each bar being one period's use. Returns
// whether it added any (other ranges and bar lengths show none).
bool addBudgetLines(StackedChart &chart, const ChartData &data);
// The first budget's current period and the bucket that suits it (hours for a day,
// days for a week or month); nullopt without a budget.
struct BudgetView {
    TimeRange range;
    Period period;
};
[[nodiscard]] std::optional<BudgetView> budgetView(const ChartData &data);
} // namespace gq
