#pragma once

#include "ledger.h"
#include "ratecard.h"
#include "result.h"
#include "timewindow.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QTimeZone>

namespace gq {

// One calendar month in a time zone: the period a chargeback covers.
struct ChargebackMonth {
    int year = 0;
    int month = 0;
    QTimeZone tz;
    TimeRange range; // [first local midnight, next month's first local midnight)

    [[nodiscard]] QString label() const; // "2026-11"
};

// "2026-11" (YYYY-MM) in `tz`; the error names `field`.
[[nodiscard]] Result<ChargebackMonth> parseChargebackMonth(const QString &text, const QTimeZone &tz,
                                                           const QString &field = QStringLiteral("--month"));
// The month in `tz` before the one containing `now`: what one usually bills.
[[nodiscard]] ChargebackMonth previousMonth(qint64 now, const QTimeZone &tz);

struct ChargebackLine {
    QString subject;
    double gpuHours = 0; // what the usage query answered for the month
    qint64 hoursE4 = 0;  // gpuHours at 4 decimals: what is printed and charged (money.h)
    qint64 rateMicros = 0;
    // The subject's resources are charged different rates; rateMicros is their
    // average weighted by GPU-hours.
    bool mixedRate = false;
    qint64 costCents = 0;
    // GPU-hours per resource name, read only when the rate card is not flat.
    QMap<QString, double> resourceGpuHours;
};

// A month's chargeback per namespace or user: what was held (allocated GPU-hours)
// times the rate. Lines are sorted by cost, highest first (then GPU-hours, then
// name); the totals are the sums of the printed lines, so a column adds up to its
// total on paper.
struct ChargebackReport {
    GroupBy by = GroupBy::Namespace;
    ChargebackMonth month;
    RateCard rates;
    QList<ChargebackLine> lines;
    qint64 totalHoursE4 = 0;
    qint64 totalCents = 0;
    // Whether live GPU utilization is in the usage database, so that "used" and the
    // idle share could be shown beside "held". Not yet: the schema records
    // allocations only, and the report says "not recorded" instead of guessing.
    bool utilizationRecorded = false;
    qint64 generatedAt = 0;
};

// The pure part: lines from the GPU-hours per subject (as gpuHoursSeries answers for
// the month) and, for a rate card that is not flat, each subject's GPU-hours per
// resource, which only set the subject's average rate (the hours themselves always
// come from gpuHoursBySubject, so they equal `gpuquota usage`).
[[nodiscard]] ChargebackReport computeChargeback(GroupBy by, const ChargebackMonth &month,
                                                 const RateCard &rates,
                                                 const QMap<QString, double> &gpuHoursBySubject,
                                                 const QMap<QString, QMap<QString, double>> &resourceHours,
                                                 qint64 generatedAt);

} // namespace gq
