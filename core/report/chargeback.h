#pragma once

#include "core/usage/ledger.h"
#include "core/report/ratecard.h"
#include "core/domain/result.h"
#include "core/usage/timewindow.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QTimeZone>

#include <functional>
#include <optional>

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

// A subject's GPU-hours on one (resource, GPU model): what sets its rate. `model` is
// empty where the recorder did not know it.
struct RatedHours {
    QString resource;
    QString model;
    double gpuHours = 0; // as read from the intervals
    qint64 hoursE4 = 0;  // its share of the line's printed hours (they add up to them)
    qint64 rateMicros = 0;
};

struct ChargebackLine {
    QString subject;
    double gpuHours = 0; // what the usage query answered for the month
    qint64 hoursE4 = 0;  // gpuHours at 4 decimals: what is printed and charged (money.h)
    // The rate, or where the subject's GPU-hours were charged different rates
    // (mixedRate), the effective one: the exact cost divided by the GPU-hours.
    qint64 rateMicros = 0;
    bool mixedRate = false;
    // Sum of the parts' costs (hours x rate each), rounded to cents once.
    qint64 costCents = 0;
    // Per (resource, model), read only when the rate card is not flat.
    QList<RatedHours> parts;
    // GPU-hours the recorder found idle (idle_spans) in the month, when it found any
    // for this subject's GPUs; then used = held - idle. Absent: not recorded.
    std::optional<qint64> idleE4;

    [[nodiscard]] std::optional<qint64> usedE4() const {
        return idleE4 ? std::optional<qint64>(hoursE4 - *idleE4) : std::nullopt;
    }
    // Idle / held in per mille (0..1000), when recorded and something was held.
    [[nodiscard]] std::optional<int> idlePerMille() const;
};

// A month's chargeback per namespace or user: what was held (allocated GPU-hours)
// times the rate. Lines are sorted by cost, highest first (then GPU-hours, then
// name); the totals are the sums of the printed lines, so a column adds up to its
// total on paper.
struct ChargebackReport {
    GroupBy by = GroupBy::Namespace;
    // "clusterqueue" | "localqueue" when the namespaces' lines were summed into Kueue
    // queues (ChargebackRegroup); `by` is Namespace then. Empty otherwise.
    QString regroupedBy;
    ChargebackMonth month;
    RateCard rates;
    QList<ChargebackLine> lines;
    qint64 totalHoursE4 = 0;
    qint64 totalCents = 0;
    // Whether any subject has idle spans in the month (so that "used" and the idle
    // share are shown for at least one line); the others say "not recorded".
    bool utilizationRecorded = false;
    qint64 generatedAt = 0;
};

// What the report is computed from (chargebackquery.h reads it from the database).
struct ChargebackInputs {
    // GPU-hours per subject, as gpuHoursSeries answers for the month.
    QMap<QString, double> gpuHours;
    // For a rate card that is not flat, each subject's GPU-hours per (resource, model):
    // they only split the subject's hours between rates (the hours themselves always
    // come from gpuHours, so they equal `gpuquota usage`).
    QMap<QString, QList<RatedHours>> parts;
    // Idle GPU-hours in the month per subject with idle spans.
    QMap<QString, double> idleGpuHours;
};

// Per-namespace lines summed into other subjects (Kueue queues, core/kueue's
// QueueAttribution): `name` says which ("clusterqueue"), `subjectOf` maps a namespace.
struct ChargebackRegroup {
    QString name;
    std::function<QString(const QString &)> subjectOf;
    [[nodiscard]] bool isSet() const { return bool(subjectOf); }
};
// The inputs of namespaces summed per `subjectOf`: GPU-hours, idle GPU-hours and the
// (resource, GPU model) parts (merged where two namespaces share one).
[[nodiscard]] ChargebackInputs regroupInputs(const ChargebackInputs &perNamespace,
                                             const std::function<QString(const QString &)> &subjectOf);
// What the subject column holds: "namespace" | "user" | "clusterqueue" | "localqueue".
[[nodiscard]] QString subjectKind(const ChargebackReport &report);

[[nodiscard]] ChargebackReport computeChargeback(GroupBy by, const ChargebackMonth &month,
                                                 const RateCard &rates, const ChargebackInputs &inputs,
                                                 qint64 generatedAt);

} // namespace gq
