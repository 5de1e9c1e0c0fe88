#pragma once

#include "core/usage/budget.h"
#include "core/domain/result.h"

#include <QList>

#include <optional>

namespace gq {

class BoostStore;
class ChartQueries;
class IntervalQueries;
class UsageConnection;

// The budgets table and the remaining budget of a subject (see UsageStore's budget
// methods).
class BudgetStore {
public:
    BudgetStore(UsageConnection &conn, const IntervalQueries &intervals, const ChartQueries &charts,
                const BoostStore &boosts)
        : m_conn(conn)
        , m_intervals(intervals)
        , m_charts(charts)
        , m_boosts(boosts) {}
    Q_DISABLE_COPY_MOVE(BudgetStore)

    Result<Budget> set(const Budget &budget);
    [[nodiscard]] Result<QList<Budget>> all() const;
    [[nodiscard]] Result<QList<Budget>> forSubject(BudgetScope scope, const QString &subject) const;
    Result<int> remove(BudgetScope scope, const QString &subject, std::optional<Period> period);
    [[nodiscard]] Result<QList<Decision>> status(BudgetScope scope, const QString &subject, qint64 now) const;

private:
    UsageConnection &m_conn;
    const IntervalQueries &m_intervals;
    const ChartQueries &m_charts;
    const BoostStore &m_boosts;
};

} // namespace gq
