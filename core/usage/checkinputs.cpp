#include "core/usage/checkinputs.h"

#include "core/usage/boosts.h"
#include "core/usage/intervalqueries.h"
#include "core/usage/newcomerledger.h"
#include "core/usage/rollups.h"
#include "core/usage/usageconnection.h"

#include <QSqlQuery>

#include <algorithm>

namespace gq {

namespace {
constexpr Period kZonePeriods[3] = {Period::Day, Period::Week, Period::Month};

QString firstStatement() {
    QString sql = QStringLiteral(
        "SELECT 0, scope, subject, period, tz, limit_gpu_hours, grace_s, id FROM budgets"
        " WHERE (scope = 'user' AND subject = ?) OR (scope = 'namespace' AND subject = ?)"
        " UNION ALL"
        // Boosts that start later are kept too: a kept entry decides at
        // later instants, when they may have become active.
        " SELECT 1, target, delta, '', '', 0.0, start_s, expiry_s FROM boosts WHERE target IN "
        "(?, ?) AND state IN ('scheduled', 'applying', 'active', 'reverting') AND expiry_s > ?"
        " UNION ALL"
        // One branch per subject, so each uses its partial index of
        // running rows (an OR of the two made SQLite walk every running row).
        " SELECT 2, user_name, ns, resource, '', model_weight, gpus, start_s FROM usage_intervals"
        " WHERE end_s IS NULL AND user_name = ?"
        " UNION ALL"
        " SELECT 4, user_name, ns, resource, '', model_weight, gpus, start_s FROM usage_intervals"
        " WHERE end_s IS NULL AND ns = ?");
    for (int k = 0; k < 2; ++k)
        for (int p = 0; p < 3; ++p)
            sql += QStringLiteral(
                       " UNION ALL SELECT 3, '', '', '', '', SUM(gpu_seconds), 0, %1 FROM %2 WHERE %3 = ? "
                       "AND day_s >= ? AND day_s < ?")
                       .arg(k * 3 + p)
                       .arg(k == 0 ? QLatin1String("rollup_user_day") : QLatin1String("rollup_ns_day"),
                            k == 0 ? QLatin1String("user_name") : QLatin1String("ns"));
    return sql;
}
} // namespace

CheckInputReader::CheckInputReader(const UsageConnection &conn, DayIndex &days,
                                   const IntervalQueries &intervals)
    : m_conn(conn)
    , m_days(days)
    , m_intervals(intervals)
    , m_firstSql(firstStatement()) {}

Result<void> CheckInputReader::read(const QString &user, const QString &ns, bool loadUser, bool loadNs,
                                    qint64 now, CheckSubject out[2]) const {
    TimeRange zoneWindows[3];
    for (int p = 0; p < 3; ++p)
        zoneWindows[p] = periodContaining(now, kZonePeriods[p], m_days.zone());
    auto first = m_conn.cached(m_firstSql);
    if (!first)
        return first.error();
    QSqlQuery &q = **first;
    bindFirst(q, user, ns, loadUser, loadNs, now, zoneWindows);
    if (auto r = m_conn.exec(q, QStringLiteral("reading budgets, boosts, running intervals and rollups")); !r)
        return r.error();
    ZoneSums zoneSums = {{0, 0, 0}, {0, 0, 0}};
    out[0] = CheckSubject{};
    out[0].scope = BudgetScope::User;
    out[0].subject = user;
    out[1] = CheckSubject{};
    out[1].scope = BudgetScope::Namespace;
    out[1].subject = ns;
    decodeFirst(q, !user.isEmpty() && loadUser, out, zoneSums);
    q.finish();

    auto second = planNeeds(now, zoneWindows, zoneSums, out);
    if (!second)
        return second.error();
    if (!second->empty())
        if (auto r = readRollupSums(*second, user, ns, out); !r)
            return r;
    if (auto r = readExactSums(out); !r)
        return r;
    if (auto r = readNewcomer(user, loadUser, now, out[0]); !r)
        return r;
    return readModelExtra(out);
}

Result<void> CheckInputReader::readNewcomer(const QString &user, bool loadUser, qint64 now,
                                            CheckSubject &out) const {
    if (user.isEmpty() || !loadUser || out.budgets.isEmpty())
        return {};
    auto terms = readNewcomerTerms(m_conn, user, now);
    if (!terms)
        return terms.error();
    out.newcomer = *terms;
    // The limit changes where the allowance starts or ends: kept inputs stop there.
    if (terms->policy.enabled() && terms->allowance) {
        const NewcomerAllowance &a = *terms->allowance;
        if (now < a.since)
            out.validUntil = std::min(out.validUntil, a.since);
        else if (now < a.end())
            out.validUntil = std::min(out.validUntil, a.end());
    }
    return {};
}

void CheckInputReader::bindFirst(QSqlQuery &q, const QString &user, const QString &ns, bool loadUser,
                                 bool loadNs, qint64 now, const TimeRange zoneWindows[3]) const {
    const QVariant noSubject(QMetaType::fromType<QString>());
    const QVariant userValue = user.isEmpty() || !loadUser ? noSubject : QVariant(user);
    const QVariant nsValue = ns.isEmpty() || !loadNs ? noSubject : QVariant(ns);
    q.bindValue(0, userValue);
    q.bindValue(1, nsValue);
    q.bindValue(2, userValue.isNull() ? noSubject
                                      : QVariant(BoostTarget::budget(BudgetScope::User, user).toString()));
    q.bindValue(3, nsValue.isNull() ? noSubject
                                    : QVariant(BoostTarget::budget(BudgetScope::Namespace, ns).toString()));
    q.bindValue(4, now);
    q.bindValue(5, userValue);
    q.bindValue(6, nsValue);
    int bind = 7;
    for (int k = 0; k < 2; ++k)
        for (int p = 0; p < 3; ++p) {
            q.bindValue(bind++, k == 0 ? userValue : nsValue);
            q.bindValue(bind++, zoneWindows[p].start);
            q.bindValue(bind++, zoneWindows[p].end);
        }
}

void CheckInputReader::decodeFirst(QSqlQuery &q, bool userLoaded, CheckSubject out[2], ZoneSums &zoneSums) {
    const QString userTarget = BoostTarget::budget(BudgetScope::User, out[0].subject).toString();
    while (q.next()) {
        switch (q.value(0).toInt()) {
        case 0: {
            Budget b;
            b.id = q.value(7).toLongLong();
            b.scope =
                q.value(1).toString() == QLatin1String("user") ? BudgetScope::User : BudgetScope::Namespace;
            b.subject = q.value(2).toString();
            b.period = parsePeriod(q.value(3).toString()).value_or(Period::Day);
            b.limitGpuHours = q.value(5).toDouble();
            b.graceSeconds = q.value(6).toLongLong();
            b.tz = q.value(4).toString();
            out[b.scope == BudgetScope::User ? 0 : 1].budgets << b;
            break;
        }
        case 1: {
            bool ok = false;
            const double d = q.value(2).toString().toDouble(&ok);
            if (ok)
                out[userLoaded && q.value(1).toString() == userTarget ? 0 : 1].boosts.push_back(
                    CheckBoost{q.value(6).toLongLong(), q.value(7).toLongLong(), d});
            break;
        }
        case 3: {
            const int k = q.value(7).toInt();
            if (k >= 0 && k < 6)
                zoneSums[k / 3][k % 3] = q.value(5).toDouble();
            break;
        }
        default: { // 2: a running row of the user, 4: of the namespace
            UsageInterval iv;
            iv.user = q.value(1).toString();
            iv.ns = q.value(2).toString();
            iv.resource = q.value(3).toString();
            iv.gpus = q.value(6).toInt();
            iv.start = q.value(7).toLongLong();
            iv.modelWeight = q.value(5).toDouble();
            out[q.value(0).toInt() == 2 ? 0 : 1].running.push_back(iv);
            break;
        }
        }
    }
}

Result<std::vector<CheckInputReader::Ref>> CheckInputReader::planNeeds(qint64 now,
                                                                       const TimeRange zoneWindows[3],
                                                                       const ZoneSums &zoneSums,
                                                                       CheckSubject out[2]) const {
    std::vector<Ref> second;
    for (int k = 0; k < 2; ++k) {
        CheckSubject &sub = out[k];
        sub.readAt = now;
        sub.validFrom = now;
        std::sort(sub.budgets.begin(), sub.budgets.end(), [](const Budget &a, const Budget &b) {
            return periodName(a.period) < periodName(b.period);
        });
        for (const Budget &b : std::as_const(sub.budgets)) {
            auto tz = parseZone(b.tz);
            if (!tz)
                return tz.error();
            CheckNeed n{b, periodContaining(now, b.period, *tz)};
            const bool isUser = k == 0;
            const int pi = b.period == Period::Day ? 0 : b.period == Period::Week ? 1 : 2;
            if (n.period == zoneWindows[pi]) {
                n.table = isUser ? 3 : 2;
                n.closedSeconds = zoneSums[k][pi];
                n.summed = true;
            } else if (m_days.isDayStart(n.period.start) && m_days.isDayStart(n.period.end))
                n.table = isUser ? 3 : 2;
            else if (alignedToHour(n.period.start) && alignedToHour(n.period.end))
                n.table = isUser ? 1 : 0;
            sub.validFrom = std::max(sub.validFrom, n.period.start);
            sub.validUntil = std::min(sub.validUntil, n.period.end);
            sub.needs.push_back(n);
            if (n.table >= 0 && !n.summed)
                second.push_back(Ref{k, sub.needs.size() - 1});
        }
    }
    return second;
}

Result<void> CheckInputReader::readRollupSums(const std::vector<Ref> &refs, const QString &user,
                                              const QString &ns, CheckSubject out[2]) const {
    QStringList parts;
    for (size_t i = 0; i < refs.size(); ++i) {
        const RollupTable &t = kRollupTables[out[refs[i].subject].needs[refs[i].need].table];
        parts << QStringLiteral("SELECT %1, SUM(gpu_seconds) FROM %2 WHERE %3 = ? AND %4 >= ? AND %4 < ?")
                     .arg(i)
                     .arg(QLatin1String(t.name), QLatin1String(t.subjectColumn), QLatin1String(t.timeColumn));
    }
    auto stmt = m_conn.cached(parts.join(QStringLiteral(" UNION ALL ")));
    if (!stmt)
        return stmt.error();
    QSqlQuery &r = **stmt;
    int p = 0;
    for (const Ref &ref : refs) {
        const CheckNeed &n = out[ref.subject].needs[ref.need];
        r.bindValue(p++, ref.subject == 0 ? user : ns);
        r.bindValue(p++, n.period.start);
        r.bindValue(p++, n.period.end);
    }
    if (auto e = m_conn.exec(r, QStringLiteral("reading rollups")); !e)
        return e.error();
    while (r.next()) {
        const size_t i = size_t(r.value(0).toInt());
        if (i < refs.size())
            out[refs[i].subject].needs[refs[i].need].closedSeconds = r.value(1).toDouble();
    }
    r.finish();
    return {};
}

Result<void> CheckInputReader::readExactSums(CheckSubject out[2]) const {
    // Exact path for zones whose calendar is not on whole UTC hours; running rows are
    // added at decision time like on the rollup path.
    for (int k = 0; k < 2; ++k)
        for (CheckNeed &n : out[k].needs)
            if (n.table < 0) {
                auto closed = m_intervals.overlappingGpuSeconds(out[k].scope, out[k].subject, n.period,
                                                                n.period.start, false);
                if (!closed)
                    return closed.error();
                n.closedSeconds = *closed;
            }
    return {};
}

Result<void> CheckInputReader::readModelExtra(CheckSubject out[2]) const {
    // Closed rows with a GPU model weight (a partial index: nothing to read when none is
    // configured); running rows carry theirs and are weighed at decision time.
    for (int k = 0; k < 2; ++k) {
        if (out[k].needs.empty())
            continue;
        QList<TimeRange> periods;
        for (const CheckNeed &n : out[k].needs)
            periods << n.period;
        auto extra = m_intervals.modelExtra(out[k].scope, out[k].subject, periods, out[k].readAt, true);
        if (!extra)
            return extra.error();
        for (size_t i = 0; i < out[k].needs.size(); ++i)
            out[k].needs[i].closedExtraSeconds = extra->seconds[qsizetype(i)];
    }
    return {};
}

} // namespace gq
