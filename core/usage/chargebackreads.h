#pragma once

#include "core/usage/ledger.h"
#include "core/domain/result.h"
#include "core/usage/timewindow.h"

#include <QList>
#include <QMap>
#include <QString>

namespace gq {

class UsageStore;

// The usage database's part of a month's chargeback (core/report's queryChargeback puts
// the report together). On the store's thread.
namespace chargebackreads {

// Weighted GPU-hours of one subject on one resource and GPU model.
struct RateHours {
    QString subject;
    QString resource;
    QString model;
    double gpuHours = 0;
};

// Weighted GPU-hours per (subject, resource, GPU model) overlapping `range`; open
// intervals reach `now` (clipped to the range). The overlap is computed in SQL with
// CASE, which both dialects share.
[[nodiscard]] Result<QList<RateHours>> hoursByRate(const UsageStore &store, GroupBy by,
                                                   const TimeRange &range, qint64 now);

// Idle GPU-hours per subject inside `range` from idle_spans (written by the controller's
// idle recorder): each span's wasted GPU-seconds in proportion to its overlap with the
// range. A span names its namespace and pod; its user is the one of the pod's interval
// that overlaps the span (spans of pods never recorded have none and are left out).
[[nodiscard]] Result<QMap<QString, double>> idleHours(const UsageStore &store, GroupBy by,
                                                      const TimeRange &range);

} // namespace chargebackreads

} // namespace gq
