#pragma once

#include "core/usage/budget.h"
#include "core/domain/quantity.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

// Used versus hard for one resource of one namespace. `hard` is empty when no
// quota in the namespace limits that resource.
struct UsageBar {
    Quantity used;
    std::optional<Quantity> hard;
    bool tracked = false; // some quota in the namespace counts this resource
    // The quota key the bar counts ("requests.nvidia.com/gpu",
    // "requests.nvidia.com/mig-3g.40gb"); empty when no quota counts it.
    QString resource{}; // `{}`: aggregate initialisers that stop before it stay warning-free

    // The GPU bar counts MIG slices of one profile, not whole devices.
    [[nodiscard]] bool countsMigSlices() const { return resource.contains(QLatin1String("nvidia.com/mig-")); }

    // used / hard; -1 without a limit; a zero limit with any use counts as full.
    [[nodiscard]] double ratio() const;
    friend bool operator==(const UsageBar &, const UsageBar &) = default;
};

// What one ResourceQuota object says, reduced to the maps the list needs.
struct QuotaUsage {
    QString name;
    QMap<QString, Quantity> hard;
    QMap<QString, Quantity> used;
    // status.hard: what quota admission enforces, copied from spec.hard by
    // kube-controller-manager some time after a change (never, while it is down).
    QMap<QString, Quantity> statusHard;
    friend bool operator==(const QuotaUsage &, const QuotaUsage &) = default;
};

// One GPU-hour budget of a namespace as the list shows it: what the current period
// has used against its limit (active boosts included), at the instant `at`. Budgets
// live in the usage database, not in Kubernetes, so these arrive separately from the
// quota rows.
struct BudgetUse {
    enum class Period { Day, Week, Month };
    // Ordered from fine to worst.
    enum class State {
        Within,  // below kNear of the limit
        Near,    // at least kNear of the limit used, not over
        InGrace, // over; running work may overrun until graceEndsAt, new jobs denied
        Over,    // over and its grace is spent (or there is none / nothing running)
    };
    Period period = Period::Day;
    double usedGpuHours = 0;
    double limitGpuHours = 0;
    // From the budget check (decide() for running work): over but still allowed.
    bool inGrace = false;
    qint64 graceEndsAt = 0;  // epoch seconds, see graceEnd() in core/budget.h
    qint64 graceSeconds = 0; // the budget's grace duration
    qint64 at = 0;           // epoch seconds the numbers are for

    static constexpr double kNear = 0.8;
    // The same tolerance as decide(): 8.00 of 8.00 is not over.
    [[nodiscard]] bool over() const { return usedGpuHours > limitGpuHours + kGpuHourTolerance; }
    [[nodiscard]] State state() const;
    // "12.5 of 8.0 GPU-h today", in the current default locale.
    [[nodiscard]] QString text() const;
    friend bool operator==(const BudgetUse &, const BudgetUse &) = default;
};
using NamespaceBudgets = QHash<QString, QList<BudgetUse>>;
// Per namespace: users with GPU pods running there now who are over their own
// (user-scope) GPU-hour budget, sorted.
using UsersOverBudget = QHash<QString, QStringList>;

// One row of the namespace list.
struct NamespaceSummary {
    QString name;
    UsageBar gpu;
    UsageBar cpu;
    UsageBar memory;
    int quotaCount = 0;
    bool overBudget = false;
    QString alertRecipients; // the namespace's gpuquota.io/alert-recipients annotation
    // Being deleted (status.phase Terminating, e.g. finalizers pending): the API server
    // refuses new objects in it, so the console offers no edits there.
    bool terminating = false;
    // GPU limits whose spec.hard is not enforced yet (status.hard differs), as
    // "QUOTA: RESOURCE SPEC (enforced: STATUS)": a clamp or a boost waiting for the
    // controller-manager; admission still applies the old value.
    QStringList notEnforced;

    static constexpr double kNearLimit = 0.8;
    [[nodiscard]] bool nearLimit() const;

    // Combines every quota of a namespace: for each bar the quota that is closest
    // to its limit wins, because that is the one that will reject the next pod.
    static NamespaceSummary fromQuotas(const QString &name, const QList<QuotaUsage> &quotas);

    friend bool operator==(const NamespaceSummary &, const NamespaceSummary &) = default;
};

// A whole namespace list as a ClusterConnection delivers it: one row per namespace,
// sorted by name, with its name index built where the rows were made (off the GUI
// thread: hashing 20,000 names is most of what a list reset would cost there).
struct NamespaceRows {
    QList<NamespaceSummary> rows;
    QHash<QString, int> index; // name -> position in rows

    [[nodiscard]] static NamespaceRows of(QList<NamespaceSummary> rows);
};

} // namespace gq
