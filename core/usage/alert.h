#pragma once

#include "core/usage/budget.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace gq {

// One alert the rules raised, with everything a channel needs to say it and a key that
// is the same for the same event whoever evaluates it (another replica, a restarted
// controller), so the ledger can claim it once.
struct Alert {
    enum class Kind {
        BudgetThreshold,     // a budget's use crossed one of its thresholds this period
        BoostExpiring,       // an active boost ends within the lead time
        ClampApplied,        // the enforcer clamped a namespace's GPU quota
        ClampLifted,         // ... and lifted it again
        DatabaseUnwritable,  // the controller could not write to the usage database
        IdleGpus,            // GPUs held but idle for longer than the limit
        WebhookNotCalled,    // GPU pods created, but no admission review reached the webhook
        BoostRequestDecided, // an admin approved or denied a user's boost request
    };
    Kind kind = Kind::BudgetThreshold;
    // Unique per event: "budget/<scope>/<subject>/<period>/<periodStart>/<threshold>",
    // "boost/<id>/<expiry>", "clamp/<ns>/<applied|lifted>/<at>", "database/<since>",
    // "idle/<ns>/<pod>/<start>", "webhook/<last review>", "boost-request/<id>/<state>".
    QString key;
    qint64 at = 0; // when it was raised (the evaluation instant)

    // Who it is about, for recipients: the user and/or the namespace (either may be empty).
    QString user;
    QString ns;

    // BudgetThreshold
    qint64 budgetId = 0;
    BudgetScope scope = BudgetScope::User;
    QString subject;
    Period period = Period::Day;
    int threshold = 0; // percent
    double usedGpuHours = 0;
    double limitGpuHours = 0;
    qint64 periodStart = 0;
    qint64 periodEnd = 0;

    // BoostExpiring: the boost, its target as stored, its delta and expiry.
    qint64 boostId = 0;
    QString target;
    QString delta;
    qint64 expiry = 0;

    // ClampApplied / ClampLifted: the quota entry and its values.
    QString resource;
    QString before;
    QString after;
    QString reason;

    // DatabaseUnwritable: since when, and the last error. IdleGpus: the pod, GPUs held,
    // since when and the wasted GPU-hours.
    qint64 since = 0;
    QString detail;
    QString pod;
    double gpus = 0;
    double wastedGpuHours = 0;
    // WebhookNotCalled: the last review any replica answered (since, 0: never), the
    // unchecked pods (podCount, a few of them in detail) and when the first was seen (expiry).
    int podCount = 0;
    // BoostRequestDecided: the request, its budget ("user:alice") as `target`, the
    // decision ("approved" or "denied") as `detail`, the admin's note as `reason`, who
    // decided as `decidedBy`; approved: the hours as `delta`, the end as `expiry` and
    // the granted boost's `boostId`.
    qint64 requestId = 0;
    QString decidedBy;

    friend bool operator==(const Alert &, const Alert &) = default;
};

// "budget-threshold", "boost-expiring", "clamp-applied", "clamp-lifted",
// "database-unwritable", "idle-gpus", "webhook-not-called", "boost-request-decided": the webhook's `kind` and
// the ledger's column.
[[nodiscard]] QString alertKindName(Alert::Kind kind);
[[nodiscard]] Result<Alert::Kind> parseAlertKind(const QString &text);

// The stored form (the ledger keeps it so a later process can retry a delivery) and
// the webhook's structured fields. fromJson(toJson(a)) == a.
[[nodiscard]] QJsonObject alertToJson(const Alert &alert);
[[nodiscard]] Result<Alert> alertFromJson(const QJsonObject &json);

} // namespace gq
