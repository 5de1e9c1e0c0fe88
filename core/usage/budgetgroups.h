#pragma once

// Budgets grouped under a key with subtotals: the Budgets page's and `gpuquota budget
// status --by clusterqueue|localqueue`'s grouping by the Kueue queue a budget is charged
// to. The key of each budget comes from the namespaces its usage this period went to
// (budgetNamespaces) through core/kueue's QueueAttribution::subjectOfAll: a namespace
// budget goes to its namespace's queue; a user budget to the queues of the namespaces the
// user ran in during the budget's current period, jointly when there are several
// ("cq-a+cq-b"), and to "(no queue)" when the user ran nowhere this period.

#include "core/domain/result.h"
#include "core/usage/budget.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace gq {

class UsageStore;

struct BudgetGroup {
    QString key;
    QList<int> members; // indexes into the decisions, in their order
    double used = 0;    // Σ used of the members (weighted GPU-hours this period)
    double limit = 0;   // Σ effective limit of the members with a limit
    int unlimited = 0;  // members under an unlimited newcomer allowance (no limit to add)
};

// `decisions[i]` under `keys[i]`; the groups by key. The subtotals add each budget's
// own period (a day budget's day beside a month budget's month) and count usage once
// per budget: a user's hours in a namespace with a budget too count in both.
[[nodiscard]] QList<BudgetGroup> groupBudgets(const QList<Decision> &decisions, const QStringList &keys);

// The namespaces the usage of `d`'s budget this period went to, sorted: a namespace
// budget its own namespace; a user budget the namespaces the user ran in from the start
// of `d`'s period to `now` (none when the user has not run).
[[nodiscard]] Result<QStringList> budgetNamespaces(const UsageStore &store, const Decision &d, qint64 now);

} // namespace gq
