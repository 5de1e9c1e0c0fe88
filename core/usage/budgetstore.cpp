#include "core/usage/budgetstore.h"

#include "core/usage/boosts.h"
#include "core/usage/chartqueries.h"
#include "core/usage/intervalqueries.h"
#include "core/usage/newcomerledger.h"
#include "core/usage/usageconnection.h"

#include <QSqlQuery>

#include <algorithm>

namespace gq {

namespace {
Budget budgetFromRow(const QSqlQuery &q) {
    Budget b;
    b.id = q.value(0).toLongLong();
    b.scope = q.value(1).toString() == QLatin1String("user") ? BudgetScope::User : BudgetScope::Namespace;
    b.subject = q.value(2).toString();
    b.period = parsePeriod(q.value(3).toString()).value_or(Period::Day);
    b.limitGpuHours = q.value(4).toDouble();
    b.graceSeconds = q.value(5).toLongLong();
    b.tz = q.value(6).toString();
    return b;
}
} // namespace

Result<Budget> BudgetStore::set(const Budget &budget) {
    if (auto v = validateBudget(budget); !v)
        return v.error();
    UsageTx tx(m_conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(
            q, QStringLiteral("INSERT INTO budgets (scope, subject, period, limit_gpu_hours, grace_s, tz) "
                              "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, subject, period) DO UPDATE "
                              "SET limit_gpu_hours = excluded.limit_gpu_hours, grace_s = "
                              "excluded.grace_s, tz = excluded.tz"));
        !r)
        return r.error();
    q.addBindValue(scopeName(budget.scope));
    q.addBindValue(nonNull(budget.subject));
    q.addBindValue(periodName(budget.period));
    q.addBindValue(budget.limitGpuHours);
    q.addBindValue(budget.graceSeconds);
    q.addBindValue(nonNull(budget.tz));
    if (auto r = m_conn.exec(q, QStringLiteral("storing a budget")); !r)
        return r.error();
    auto list = forSubject(budget.scope, budget.subject);
    if (!list)
        return list.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    for (const Budget &b : *list)
        if (b.period == budget.period)
            return b;
    return Error::make(Error::Kind::Internal, QStringLiteral("stored budget not found"));
}

Result<QList<Budget>> BudgetStore::all() const {
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.execSql(
            q, QStringLiteral("SELECT id, scope, subject, period, limit_gpu_hours, grace_s, tz FROM "
                              "budgets ORDER BY scope, subject, period"));
        !r)
        return r.error();
    QList<Budget> out;
    while (q.next())
        out << budgetFromRow(q);
    return out;
}

Result<QList<Budget>> BudgetStore::forSubject(BudgetScope scope, const QString &subject) const {
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(
            q, QStringLiteral("SELECT id, scope, subject, period, limit_gpu_hours, grace_s, tz FROM "
                              "budgets WHERE scope = ? AND subject = ? ORDER BY period"));
        !r)
        return r.error();
    q.addBindValue(scopeName(scope));
    q.addBindValue(nonNull(subject));
    if (auto r = m_conn.exec(q, QStringLiteral("reading budgets")); !r)
        return r.error();
    QList<Budget> out;
    while (q.next())
        out << budgetFromRow(q);
    return out;
}

Result<int> BudgetStore::remove(BudgetScope scope, const QString &subject, std::optional<Period> period) {
    m_conn.noteWrite();
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(
            q, period ? QStringLiteral("DELETE FROM budgets WHERE scope = ? AND subject = ? AND period = ?")
                      : QStringLiteral("DELETE FROM budgets WHERE scope = ? AND subject = ?"));
        !r)
        return r.error();
    q.addBindValue(scopeName(scope));
    q.addBindValue(nonNull(subject));
    if (period)
        q.addBindValue(periodName(*period));
    if (auto r = m_conn.exec(q, QStringLiteral("deleting a budget")); !r)
        return r.error();
    return q.numRowsAffected();
}

Result<QList<Decision>> BudgetStore::status(BudgetScope scope, const QString &subject, qint64 now) const {
    auto list = forSubject(scope, subject);
    if (!list)
        return list.error();
    QList<Decision> out;
    if (list->isEmpty())
        return out;
    auto running = m_intervals.runningGpus(scope, subject, now);
    if (!running)
        return running.error();
    auto boost = m_boosts.activeBudgetBoost(scope, subject, now);
    if (!boost)
        return boost.error();
    QList<TimeRange> periods;
    for (const Budget &b : *list) {
        auto tz = parseZone(b.tz);
        if (!tz)
            return tz.error();
        periods << periodContaining(now, b.period, *tz);
    }
    // Everything as of `now`, also when it is in the past: rows recorded as closed
    // since were still held then, and their later hours were not used yet.
    auto after = m_intervals.closedAfter(scope, subject, now, periods);
    if (!after)
        return after.error();
    // GPU model weights: what they add to each period up to `now` (rollups are raw).
    QList<TimeRange> upToNow;
    for (const TimeRange &p : std::as_const(periods))
        upToNow << TimeRange{p.start, std::max(p.start, std::min(p.end, now))};
    auto extra = m_intervals.modelExtra(scope, subject, upToNow, now, false);
    if (!extra)
        return extra.error();
    NewcomerTerms newcomer;
    if (scope == BudgetScope::User) {
        auto terms = readNewcomerTerms(m_conn, subject, now);
        if (!terms)
            return terms.error();
        newcomer = *terms;
    }
    for (qsizetype i = 0; i < list->size(); ++i) {
        auto used = m_charts.usedGpuHours(scope, subject, periods[i], now);
        if (!used)
            return used.error();
        const double usedAtNow = std::max(0.0, *used - after->laterGpuSeconds[i] / 3600.0);
        Decision d =
            decideNewcomer(list->at(i), periods[i], usedAtNow + extra->seconds[i] / 3600.0,
                           *running + after->heldGpus + extra->heldGpus,
                           AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0}, *boost, newcomer, now);
        d.usedRaw = usedAtNow;
        out << d;
    }
    return out;
}

} // namespace gq
