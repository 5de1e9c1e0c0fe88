#include "core/usage/subjectintervals.h"

#include "core/usage/intervalqueries.h"
#include "core/usage/storeconnection.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagestore.h"

#include <QSqlQuery>

#include <algorithm>

namespace gq {

Result<std::vector<UsageInterval>> subjectIntervals(const UsageStore &store, BudgetScope scope,
                                                    const QString &subject, qint64 from, qint64 to,
                                                    qint64 now) {
    const UsageConnection &conn = storeConnection(store);
    QSqlQuery q(conn.database());
    q.setForwardOnly(true);
    if (auto r = conn.prepare(q, QStringLiteral("SELECT %1 FROM usage_intervals WHERE %2 = ? AND start_s < ? "
                                                "AND ((end_s IS NULL AND ? > start_s) OR end_s > ?) "
                                                "ORDER BY start_s, cluster, pod_uid, resource")
                                     .arg(QLatin1String(kIntervalColumns), scope == BudgetScope::User
                                                                               ? QLatin1String("user_name")
                                                                               : QLatin1String("ns")));
        !r)
        return r.error();
    q.addBindValue(nonNull(subject));
    q.addBindValue(to);
    q.addBindValue(std::max(now, from + 1));
    q.addBindValue(from);
    if (auto r = conn.exec(q, QStringLiteral("reading the intervals of %1").arg(subject)); !r)
        return r.error();
    std::vector<UsageInterval> out;
    while (q.next())
        out.push_back(intervalFromRow(q));
    return out;
}

} // namespace gq
