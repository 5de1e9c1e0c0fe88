#include "core/usage/intervalqueries.h"

#include "core/usage/usageconnection.h"

#include <QSqlQuery>

#include <algorithm>

namespace gq {

UsageInterval intervalFromRow(const QSqlQuery &q, int base) {
    UsageInterval u;
    u.cluster = q.value(base + 0).toString();
    u.ns = q.value(base + 1).toString();
    u.user = q.value(base + 2).toString();
    u.podUid = q.value(base + 3).toString();
    u.podName = q.value(base + 4).toString();
    u.resource = q.value(base + 5).toString();
    u.gpus = q.value(base + 6).toInt();
    u.start = q.value(base + 8).toLongLong();
    if (!q.value(base + 9).isNull())
        u.end = q.value(base + 9).toLongLong();
    u.source = q.value(base + 10).toString();
    return u;
}

Result<std::vector<UsageInterval>> IntervalQueries::select(const QString &where, const QVariantList &binds,
                                                           const QString &what) const {
    QSqlQuery q(m_conn.database());
    q.setForwardOnly(true);
    if (auto r = m_conn.prepare(
            q, QStringLiteral("SELECT %1, %2 FROM usage_intervals WHERE %3 "
                              "ORDER BY start_s, cluster, pod_uid, resource")
                   .arg(QLatin1String(kIntervalColumns), QLatin1String(kIntervalV7Columns), where));
        !r)
        return r.error();
    for (const QVariant &v : binds)
        q.addBindValue(v);
    if (auto r = m_conn.exec(q, what); !r)
        return r.error();
    std::vector<UsageInterval> out;
    while (q.next()) {
        UsageInterval iv = intervalFromRow(q);
        iv.endEstimated = q.value(11).toInt() != 0;
        if (!q.value(12).isNull())
            iv.seen = q.value(12).toLongLong();
        out.push_back(std::move(iv));
    }
    return out;
}

Result<std::vector<UsageInterval>> IntervalQueries::intervals(qint64 from, qint64 to, qint64 now) const {
    return select(QStringLiteral("start_s < ? AND ((end_s IS NULL AND ? > start_s) OR end_s > ?)"),
                  {to, std::max(now, from + 1), from}, QStringLiteral("reading intervals"));
}

Result<std::vector<UsageInterval>> IntervalQueries::runningNow(qint64 now) const {
    return select(QStringLiteral("end_s IS NULL AND start_s <= ?"), {now},
                  QStringLiteral("reading running intervals"));
}

Result<QList<QPair<QString, QString>>> IntervalQueries::runningUsersByNamespace(qint64 now) const {
    QSqlQuery q(m_conn.database());
    q.setForwardOnly(true);
    if (auto r = m_conn.prepare(
            q, QStringLiteral("SELECT DISTINCT ns, user_name FROM usage_intervals WHERE end_s IS "
                              "NULL AND start_s <= ? ORDER BY ns, user_name"));
        !r)
        return r.error();
    q.addBindValue(now);
    if (auto r = m_conn.exec(q, QStringLiteral("reading who runs where")); !r)
        return r.error();
    QList<QPair<QString, QString>> out;
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toString()});
    return out;
}

Result<QStringList> IntervalQueries::namespacesOf(const QString &user, const TimeRange &window,
                                                  qint64 now) const {
    const qint64 to = std::min(window.end, now);
    QSqlQuery q(m_conn.database());
    q.setForwardOnly(true);
    if (auto r =
            m_conn.prepare(q, QStringLiteral("SELECT DISTINCT ns FROM usage_intervals WHERE user_name = ? "
                                             "AND start_s < ? AND (end_s IS NULL OR end_s > ?) ORDER BY ns"));
        !r)
        return r.error();
    q.addBindValue(nonNull(user));
    q.addBindValue(to);
    q.addBindValue(window.start);
    if (auto r = m_conn.exec(q, QStringLiteral("reading a user's namespaces")); !r)
        return r.error();
    QStringList out;
    while (q.next())
        out << q.value(0).toString();
    return out;
}

Result<std::vector<UsageInterval>> IntervalQueries::runningFor(BudgetScope scope,
                                                               const QString &subject) const {
    QSqlQuery q(m_conn.database());
    q.setForwardOnly(true);
    if (auto r = m_conn.prepare(
            q, QStringLiteral("SELECT %1 FROM usage_intervals WHERE end_s IS NULL AND %2 = ?")
                   .arg(QLatin1String(kIntervalColumns),
                        scope == BudgetScope::User ? QLatin1String("user_name") : QLatin1String("ns")));
        !r)
        return r.error();
    q.addBindValue(nonNull(subject));
    if (auto r = m_conn.exec(q, QStringLiteral("reading running intervals")); !r)
        return r.error();
    std::vector<UsageInterval> out;
    while (q.next())
        out.push_back(intervalFromRow(q));
    return out;
}

Result<IntervalQueries::AfterNow> IntervalQueries::closedAfter(BudgetScope scope, const QString &subject,
                                                               qint64 now,
                                                               const QList<TimeRange> &windows) const {
    AfterNow out;
    out.laterGpuSeconds.fill(0.0, windows.size());
    qint64 until = now + 1; // rows starting by `now` are held at it, whatever the windows
    for (const TimeRange &w : windows)
        until = std::max(until, w.end);
    auto rows =
        select(QStringLiteral("%1 = ? AND end_s IS NOT NULL AND end_s > ? AND start_s < ?")
                   .arg(scope == BudgetScope::User ? QLatin1String("user_name") : QLatin1String("ns")),
               {nonNull(subject), now, until}, QStringLiteral("reading intervals ending after now"));
    if (!rows)
        return rows.error();
    for (const UsageInterval &iv : *rows) {
        if (iv.start <= now)
            out.heldGpus += iv.gpus * m_weights.weight(iv.resource);
        for (qsizetype i = 0; i < windows.size(); ++i) {
            const TimeRange after{std::max(windows[i].start, now), windows[i].end};
            if (after.end > after.start)
                out.laterGpuSeconds[i] += gpuSeconds(iv, after, now, m_weights);
        }
    }
    return out;
}

Result<IntervalQueries::ModelExtra> IntervalQueries::modelExtra(BudgetScope scope, const QString &subject,
                                                                const QList<TimeRange> &windows, qint64 now,
                                                                bool closedOnly) const {
    ModelExtra out;
    out.seconds.fill(0.0, windows.size());
    qint64 from = now, until = now + 1;
    for (const TimeRange &w : windows) {
        from = std::min(from, w.start);
        until = std::max(until, w.end);
    }
    auto q = m_conn.cached(
        QStringLiteral("SELECT gpus, weight, model_weight, start_s, end_s FROM usage_intervals WHERE %1 = ? "
                       "AND model_weight <> 1 AND start_s < ? AND %2")
            .arg(scope == BudgetScope::User ? QLatin1String("user_name") : QLatin1String("ns"),
                 closedOnly ? QLatin1String("end_s IS NOT NULL AND end_s > ?")
                            : QLatin1String("(end_s IS NULL OR end_s > ?)")));
    if (!q)
        return q.error();
    (*q)->bindValue(0, nonNull(subject));
    (*q)->bindValue(1, until);
    (*q)->bindValue(2, from);
    if (auto r = m_conn.exec(**q, QStringLiteral("reading intervals with a GPU model weight")); !r)
        return r.error();
    while ((*q)->next()) {
        const double factor =
            (*q)->value(0).toInt() * (*q)->value(1).toDouble() * ((*q)->value(2).toDouble() - 1);
        const qint64 start = (*q)->value(3).toLongLong();
        const bool open = (*q)->value(4).isNull();
        const qint64 end = open ? now : (*q)->value(4).toLongLong();
        if (start <= now && (open || end > now))
            out.heldGpus += factor;
        for (qsizetype i = 0; i < windows.size(); ++i) {
            const qint64 a = std::max(start, windows[i].start), b = std::min(end, windows[i].end);
            if (b > a)
                out.seconds[i] += double(b - a) * factor;
        }
    }
    (*q)->finish();
    return out;
}

Result<qint64> IntervalQueries::count() const {
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.execSql(q, QStringLiteral("SELECT COUNT(*) FROM usage_intervals")); !r)
        return r.error();
    return q.next() ? q.value(0).toLongLong() : 0;
}

Result<double> IntervalQueries::overlappingGpuSeconds(BudgetScope scope, const QString &subject,
                                                      const TimeRange &window, qint64 now,
                                                      bool withRunning) const {
    // Closed rows only, or running ones too (they count up to `now`).
    const QLatin1String endCondition = withRunning ? QLatin1String("(end_s IS NULL OR end_s > ?)")
                                                   : QLatin1String("end_s IS NOT NULL AND end_s > ?");
    auto q =
        m_conn.cached(QStringLiteral("SELECT %1 FROM usage_intervals WHERE %2 = ? AND start_s < ? AND %3")
                          .arg(QLatin1String(kIntervalColumns),
                               scope == BudgetScope::User ? QLatin1String("user_name") : QLatin1String("ns"),
                               endCondition));
    if (!q)
        return q.error();
    (*q)->bindValue(0, nonNull(subject));
    (*q)->bindValue(1, window.end);
    (*q)->bindValue(2, window.start);
    if (auto r = m_conn.exec(**q, QStringLiteral("reading intervals")); !r)
        return r.error();
    double s = 0;
    while ((*q)->next())
        s += gpuSeconds(intervalFromRow(**q), window, now, m_weights);
    (*q)->finish();
    return s;
}

Result<double> IntervalQueries::runningGpus(BudgetScope scope, const QString &subject, qint64 now) const {
    auto running = runningFor(scope, subject);
    if (!running)
        return running.error();
    double g = 0;
    for (const UsageInterval &iv : *running)
        if (iv.start <= now)
            g += iv.gpus * m_weights.weight(iv.resource);
    return g;
}

} // namespace gq
