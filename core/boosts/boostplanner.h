#pragma once

#include "core/usage/boosts.h"
#include "core/domain/quantity.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace gq {

// Turns what an admin asks for ("4 more GPUs for team-nlp until Friday") into the Boost
// to record, checked against the namespace's ResourceQuotas as they are now. Pure: the
// caller brings the quotas (the console from its informer cache, the CLI from a list
// call) and gives the result to BoostLedger::grant. Errors are Invalid with the field
// named as the CLI flag ("namespace", "quota", "resource", "add", "set", "start",
// "for", "until", "recur", "window", "tz", "recur-until", "note", "add-hours", "budget").
struct BoostWhen {
    qint64 start = 0;    // 0: now
    qint64 duration = 0; // --for, seconds; or
    qint64 end = 0;      // --until
    // --recur with --window, --tz and --recur-until; start/duration/end then only
    // bound the first window (start) and are otherwise unused.
    std::optional<BoostRecurrence> recurrence;
};

struct QuotaGrantRequest {
    QString ns;
    QString resource; // "requests.nvidia.com/gpu", a MIG resource, ...
    QString quota;    // which ResourceQuota; empty: the only one listing `resource`
    QString add;      // a delta ("4", "+4", "-2", "500m"), or
    QString set;      // the value wanted during the boost ("16")
    BoostWhen when;
    QString note;
    QString actor;
};

// A boost on a Kueue ClusterQueue: one flavor's nominalQuota or borrowingLimit of one
// resource (errors name the flags "clusterqueue", "flavor", "resource", "field", "add").
struct QueueGrantRequest {
    QString clusterQueue;
    QString flavor;
    QString resource = QStringLiteral("nvidia.com/gpu");
    QString field = QStringLiteral("nominalQuota"); // or "borrowingLimit"
    QString add;                                    // a delta ("4", "+4", "-2")
    BoostWhen when;
    QString note;
    QString actor;
};

struct BudgetGrantRequest {
    BudgetScope scope = BudgetScope::User;
    QString subject;
    double hours = 0; // extra GPU-hours
    BoostWhen when;
    QString note;
    QString actor;
};

// The boost to record and the preview the console shows: the quota before -> during
// -> after (after is before: only the boost's own delta is ever taken back).
struct BoostPlan {
    Boost boost;
    Quantity before;
    Quantity during;
    Quantity after;
};

[[nodiscard]] Result<BoostPlan> planQuotaBoost(const QuotaGrantRequest &request,
                                               const QList<QJsonObject> &quotas, qint64 now);
// `queue` is the ClusterQueue as read now; the result is checked by Kueue's own rules
// (kueue::withQuota), so a boost Kueue would refuse is refused before it is recorded.
[[nodiscard]] Result<BoostPlan> planQueueBoost(const QueueGrantRequest &request, const QJsonObject &queue,
                                               qint64 now);
[[nodiscard]] Result<Boost> planBudgetBoost(const BudgetGrantRequest &request, qint64 now);

} // namespace gq
