#include "core/usage/budgetgroups.h"

#include "core/usage/usagestore.h"

#include <QMap>

namespace gq {

QList<BudgetGroup> groupBudgets(const QList<Decision> &decisions, const QStringList &keys) {
    QMap<QString, BudgetGroup> byKey;
    for (qsizetype i = 0; i < decisions.size() && i < keys.size(); ++i) {
        const Decision &d = decisions.at(i);
        BudgetGroup &g = byKey[keys.at(i)];
        g.key = keys.at(i);
        g.members << int(i);
        g.used += d.used;
        if (d.unlimited)
            ++g.unlimited;
        else
            g.limit += d.limit;
    }
    return byKey.values();
}

Result<QStringList> budgetNamespaces(const UsageStore &store, const Decision &d, qint64 now) {
    if (d.budget.scope == BudgetScope::Namespace)
        return QStringList{d.budget.subject};
    return store.namespacesOf(d.budget.subject, d.period, now);
}

} // namespace gq
