#pragma once

#include "core/usage/alert.h"
#include "core/usage/boostrequests.h"
#include "core/usage/boosts.h"
#include "core/usage/budget.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

// When alerts are raised. Thresholds are percent of a budget's limit (boosts
// included); "less than 20% left" is the 80% one.
struct AlertRules {
    QList<int> thresholds{80, 100}; // the default for every budget
    // Per budget: key "user/alice", "namespace/team-a" (every period of the subject) or
    // "user/alice/day" (one budget), value its own thresholds (replacing the default).
    QHash<QString, QList<int>> budgetThresholds;
    qint64 boostLeadSeconds = 3600;    // boost ends within this
    qint64 databaseDownSeconds = 600;  // controller could not write for longer than this
    qint64 idleHoldSeconds = 2 * 3600; // GPUs idle for longer than this

    // The thresholds of one budget (the most specific entry wins), ascending.
    [[nodiscard]] QList<int> thresholdsFor(const Budget &budget) const;
};

// A clamp applied or lifted, as the alert rules see it (the enforcer's ClampEvent,
// services/controller/budgetenforcer.h, carries more and is turned into this by the controller).
struct ClampNotice {
    QString ns;
    QString resource; // "requests.nvidia.com/gpu"
    bool applied = true;
    qint64 at = 0;
    QString before; // the admin's value
    QString after;  // the clamped value (applied) or the restored one (lifted)
    QString reason; // "budget spent", "period rollover", "boost"
};

// GPUs held by a pod while idle (from idle detection), open while end == 0.
struct IdleHold {
    QString ns;
    QString user;
    QString pod;
    double gpus = 0;
    qint64 start = 0;
    qint64 end = 0;
    double wastedGpuHours = 0;
};

// Everything one evaluation looks at. The rules are pure functions of this: the caller
// reads the database and the cluster, and `now` comes from its (injected) clock.
struct AlertInputs {
    qint64 now = 0;
    QList<Decision> budgets; // one running decision per budget in the period containing now
    QList<Boost> boosts;     // active ones matter
    QList<ClampNotice> clamps;
    QList<IdleHold> idle;
    // Since when the controller has failed to write to the usage database (nullopt: it
    // can), and the last error.
    std::optional<qint64> databaseDownSince;
    QString databaseError;
    // GPU pods the leader saw created with no admission review at any replica since.
    struct WebhookSilence {
        qint64 lastReview = 0; // epoch s, 0: never
        qint64 firstSeen = 0;  // the first unchecked pod
        int pods = 0;
        QStringList examples; // "namespace/name", a few
    };
    std::optional<WebhookSilence> webhookSilence;
    // Boost requests an admin approved or denied lately: each tells its requester once.
    QList<BoostRequest> decidedRequests;
};

// Every alert the inputs call for now, in a stable order. A threshold that stays
// crossed gives the same key on every evaluation in the period (the ledger sends it
// once); the next period's keys differ, so it fires again after a rollover.
[[nodiscard]] QList<Alert> evaluateAlerts(const AlertRules &rules, const AlertInputs &inputs);

// The key of one budget threshold in one period.
[[nodiscard]] QString budgetAlertKey(const Budget &budget, qint64 periodStart, int threshold);

} // namespace gq
