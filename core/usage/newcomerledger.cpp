#include "core/usage/newcomerledger.h"

#include "core/usage/auditlog.h"
#include "core/usage/boosts.h"
#include "core/usage/storeconnection.h"
#include "core/usage/storesettings.h"
#include "core/usage/timewindow.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usageschema.h"
#include "core/usage/usagestore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

#include <algorithm>

namespace gq {

namespace {

const QString kPolicyKey = QStringLiteral("newcomer_policy");
const QString kSinceKey = QStringLiteral("newcomer_policy_since");

QString summary(const NewcomerAllowance &a, const NewcomerPolicy &policy) {
    QJsonObject o{{QStringLiteral("user"), a.user},
                  {QStringLiteral("since"), formatInstantUtc(a.since)},
                  {QStringLiteral("until"), formatInstantUtc(a.until)},
                  {QStringLiteral("policy"), policy.toString()}};
    if (a.endedAt > 0)
        o.insert(QStringLiteral("ended"), formatInstantUtc(a.endedAt));
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

Result<QString> setting(const UsageConnection &conn, const QString &name) {
    return storesettings::value(conn, name, QStringLiteral("reading a store setting"));
}

Result<void> putSetting(UsageConnection &conn, const QString &name, const QString &value) {
    return storesettings::put(conn, name, value, QStringLiteral("storing a store setting"));
}

NewcomerAllowance fromRow(const QSqlQuery &q, int first) {
    NewcomerAllowance a;
    a.user = q.value(first).toString();
    a.since = q.value(first + 1).toLongLong();
    a.until = q.value(first + 2).toLongLong();
    a.endedAt = q.value(first + 3).toLongLong();
    return a;
}

} // namespace

Result<void> migrateNewcomersToV9(UsageConnection &conn) {
    QSqlQuery q(conn.database());
    QStringList sql{
        QStringLiteral("CREATE TABLE newcomers (user_name TEXT PRIMARY KEY, since_s BIGINT NOT NULL,"
                       " until_s BIGINT NOT NULL, ended_s BIGINT NOT NULL DEFAULT 0,"
                       " ended_by TEXT NOT NULL DEFAULT '', end_note TEXT NOT NULL DEFAULT '',"
                       " start_audited INTEGER NOT NULL DEFAULT 0 CHECK (start_audited IN (0, 1)),"
                       " end_audited INTEGER NOT NULL DEFAULT 0 CHECK (end_audited IN (0, 1)),"
                       " CHECK (until_s >= since_s))"),
    };
    // Kept admission-check inputs hold the allowance and the policy: writes to either
    // announce themselves like every table the check reads (schema v2).
    if (conn.isPostgres())
        for (const char *table : {"newcomers", "store_settings"})
            sql << QStringLiteral("CREATE TRIGGER %1_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE"
                                  " ON %1 FOR EACH STATEMENT EXECUTE FUNCTION gpuquota_notify_usage()")
                       .arg(QLatin1String(table));
    for (const QString &s : std::as_const(sql))
        if (auto r = conn.execSql(q, s); !r)
            return r;
    return {};
}

Result<NewcomerTerms> readNewcomerTerms(const UsageConnection &conn, const QString &user, qint64 now) {
    // One kept statement: the policy, the user's row, and for a user with no row while a
    // policy is on, when they were first seen (the moment the policy was set, the zone of
    // the calendar days and their first interval's start: an index seek).
    auto stmt = conn.cached(QStringLiteral(
        "SELECT s.value, n.user_name, n.since_s, n.until_s, n.ended_s,"
        " (SELECT value FROM store_settings WHERE name = 'newcomer_policy_since'),"
        " (SELECT value FROM store_settings WHERE name = 'rollup_tz'),"
        " CASE WHEN n.user_name IS NULL AND s.value <> 'off' THEN"
        " (SELECT MIN(start_s) FROM usage_intervals WHERE user_name = ?) END"
        " FROM store_settings s LEFT JOIN newcomers n ON n.user_name = ? WHERE s.name = 'newcomer_policy'"));
    if (!stmt)
        return stmt.error();
    QSqlQuery &q = **stmt;
    q.bindValue(0, user);
    q.bindValue(1, user);
    if (auto r = conn.exec(q, QStringLiteral("reading the newcomer allowance")); !r)
        return r.error();
    NewcomerTerms terms;
    if (!q.next() || user.isEmpty()) {
        q.finish();
        return terms;
    }
    auto policy = NewcomerPolicy::parse(q.value(0).toString());
    if (!policy) {
        q.finish();
        return policy.error();
    }
    terms.policy = *policy;
    if (!q.value(1).isNull()) {
        terms.allowance = fromRow(q, 1);
        q.finish();
        return terms;
    }
    const qint64 policySince = q.value(5).toLongLong();
    const QString zoneId = q.value(6).isNull() ? QStringLiteral("UTC") : q.value(6).toString();
    // No interval yet: the job being judged is their first, from now.
    const qint64 firstSeen = q.value(7).isNull() ? now : q.value(7).toLongLong();
    q.finish();
    // Seen before the policy was set: no newcomer (the sweep's rule).
    if (!terms.policy.enabled() || firstSeen < policySince)
        return terms;
    const auto zone = parseZone(zoneId, QStringLiteral("rollup_tz"));
    if (!zone)
        return zone.error();
    terms.allowance = newcomerAllowance(user, firstSeen, terms.policy, *zone);
    terms.allowance->provisional = true;
    return terms;
}

NewcomerLedger::NewcomerLedger(UsageStore &store, const Clock &clock)
    : m_store(store)
    , m_clock(clock) {}

Result<NewcomerPolicy> NewcomerLedger::policy() const {
    auto text = setting(storeConnection(m_store), kPolicyKey);
    if (!text)
        return text.error();
    return NewcomerPolicy::parse(*text);
}

Result<void> NewcomerLedger::setPolicy(const NewcomerPolicy &policy, const QString &actor,
                                       const QString &note) {
    UsageConnection &conn = storeConnection(m_store);
    UsageTx tx(conn);
    if (auto r = tx.begin(); !r)
        return r;
    auto before = this->policy();
    if (!before)
        return before.error();
    if (auto r = putSetting(conn, kPolicyKey, policy.toString()); !r)
        return r;
    // Only a change from off starts the clock: users seen before it are no newcomers.
    if (!before->enabled() && policy.enabled())
        if (auto r = putSetting(conn, kSinceKey, QString::number(m_clock.nowSecs())); !r)
            return r;
    AuditLog log(m_store, m_clock);
    if (auto r = log.append(actor, QStringLiteral("budget.newcomer.policy"),
                            QStringLiteral("budget/newcomer"), before->toString(), policy.toString(), note);
        !r)
        return r.error();
    return tx.commit();
}

Result<bool> NewcomerLedger::insert(const NewcomerAllowance &a) const {
    UsageConnection &conn = storeConnection(m_store);
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(q, QStringLiteral("INSERT INTO newcomers (user_name, since_s, until_s)"
                                                " VALUES (?, ?, ?) ON CONFLICT (user_name) DO NOTHING"));
        !r)
        return r.error();
    q.addBindValue(a.user);
    q.addBindValue(a.since);
    q.addBindValue(a.until);
    if (auto r = conn.exec(q, QStringLiteral("storing a newcomer")); !r)
        return r.error();
    return q.numRowsAffected() > 0;
}

Result<NewcomerAllowance> NewcomerLedger::add(const QString &user, const QString &actor,
                                              const QString &note) {
    const QString name = user.trimmed();
    if (name.isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("must not be empty"), QStringLiteral("user"));
    auto p = policy();
    if (!p)
        return p.error();
    if (!p->enabled())
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("no newcomer policy is set (gpuquota budget newcomer policy 7d:x3)"),
            QStringLiteral("newcomer"));
    auto zone = storedRollupZone(storeConnection(m_store));
    if (!zone)
        return zone.error();
    const NewcomerAllowance a = newcomerAllowance(name, m_clock.nowSecs(), *p, *zone);
    UsageTx tx(storeConnection(m_store));
    if (auto r = tx.begin(); !r)
        return r.error();
    auto added = insert(a);
    if (!added)
        return added.error();
    if (!*added)
        return Error::make(Error::Kind::Conflict,
                           QStringLiteral("%1 already had a newcomer allowance (one per user)").arg(name),
                           QStringLiteral("user"));
    if (auto r = auditOnce(a, true, actor, note); !r)
        return r.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return a;
}

Result<NewcomerAllowance> NewcomerLedger::end(const QString &user, const QString &actor,
                                              const QString &note) {
    if (auto r = checkBoostNote(note); !r)
        return r.error();
    const qint64 now = m_clock.nowSecs();
    UsageConnection &conn = storeConnection(m_store);
    UsageTx tx(conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    auto terms = readNewcomerTerms(conn, user.trimmed(), now);
    if (!terms)
        return terms.error();
    if (!terms->allowance || !terms->allowance->activeAt(now))
        return Error::make(Error::Kind::NotFound,
                           QStringLiteral("%1 has no newcomer allowance in force").arg(user.trimmed()),
                           QStringLiteral("user"));
    NewcomerAllowance a = *terms->allowance;
    // In force but not yet swept: record it first, so its start and end are both audited.
    if (a.provisional)
        if (auto inserted = insert(a); !inserted)
            return inserted.error();
    a.provisional = false;
    // A start nobody has audited yet goes first, so the chain reads start, end.
    if (auto r = auditOnce(a, true, actor, QString()); !r)
        return r.error();
    QSqlQuery q(conn.database());
    if (auto r =
            conn.prepare(q, QStringLiteral("UPDATE newcomers SET ended_s = ?, ended_by = ?, end_note = ?,"
                                           " end_audited = 1 WHERE user_name = ? AND ended_s = 0"
                                           " AND end_audited = 0"));
        !r)
        return r.error();
    q.addBindValue(now);
    q.addBindValue(actor);
    q.addBindValue(note.trimmed());
    q.addBindValue(a.user);
    if (auto r = conn.exec(q, QStringLiteral("ending a newcomer allowance")); !r)
        return r.error();
    if (q.numRowsAffected() < 1)
        return Error::make(Error::Kind::Conflict,
                           QStringLiteral("%1's newcomer allowance was ended meanwhile").arg(a.user),
                           QStringLiteral("user"));
    const NewcomerAllowance before = a;
    a.endedAt = now;
    AuditLog log(m_store, m_clock);
    if (auto r = log.append(actor, QStringLiteral("budget.newcomer.end"), auditTarget(a.user),
                            summary(before, terms->policy), summary(a, terms->policy), note.trimmed());
        !r)
        return r.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return a;
}

Result<bool> NewcomerLedger::auditOnce(const NewcomerAllowance &a, bool start, const QString &actor,
                                       const QString &note) {
    UsageConnection &conn = storeConnection(m_store);
    UsageTx tx(conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    const QLatin1String column = start ? QLatin1String("start_audited") : QLatin1String("end_audited");
    QSqlQuery q(conn.database());
    if (auto r =
            conn.prepare(q, QStringLiteral("UPDATE newcomers SET %1 = 1 WHERE user_name = ? AND since_s = ?"
                                           " AND %1 = 0")
                                .arg(column));
        !r)
        return r.error();
    q.addBindValue(a.user);
    q.addBindValue(a.since);
    if (auto r = conn.exec(q, QStringLiteral("marking a newcomer audited")); !r)
        return r.error();
    if (q.numRowsAffected() < 1)
        return false; // another replica (or an earlier pass) wrote it
    auto p = policy();
    if (!p)
        return p.error();
    AuditLog log(m_store, m_clock);
    if (auto r = log.append(
            actor, start ? QStringLiteral("budget.newcomer.start") : QStringLiteral("budget.newcomer.end"),
            auditTarget(a.user), start ? QString() : summary(a, *p), summary(a, *p),
            note.isEmpty() ? (start ? QStringLiteral("first seen") : QStringLiteral("ended by itself"))
                           : note);
        !r)
        return r.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return true;
}

Result<int> NewcomerLedger::addFirstSeen(const NewcomerPolicy &policy, qint64 policySince, qint64 now) const {
    UsageConnection &conn = storeConnection(m_store);
    auto zone = storedRollupZone(conn);
    if (!zone)
        return zone.error();
    // A user first seen more than the allowance's days ago has no allowance left.
    const qint64 from = std::max(policySince, now - qint64(policy.days + 2) * 86400);
    // One statement: the users seen lately and not recorded yet (the start index), with
    // their first interval ever (the user index); those seen before the policy drop out.
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(
            q, QStringLiteral("SELECT user_name, MIN(start_s) FROM usage_intervals WHERE user_name IN"
                              " (SELECT DISTINCT user_name FROM usage_intervals WHERE start_s >= ?"
                              " AND start_s <= ? AND user_name <> '') AND user_name NOT IN"
                              " (SELECT user_name FROM newcomers) GROUP BY user_name"
                              " HAVING MIN(start_s) >= ? ORDER BY user_name"));
        !r)
        return r.error();
    q.addBindValue(from);
    q.addBindValue(now);
    q.addBindValue(policySince);
    if (auto r = conn.exec(q, QStringLiteral("finding users seen for the first time")); !r)
        return r.error();
    QList<NewcomerAllowance> found;
    while (q.next())
        found << newcomerAllowance(q.value(0).toString(), q.value(1).toLongLong(), policy, *zone);
    // Read to the end before writing: an unfinished read keeps SQLite's shared lock, and
    // another replica's writer waiting for it while this insert waits for theirs would be a
    // deadlock ("database is locked").
    q.finish();
    int added = 0;
    for (const NewcomerAllowance &a : std::as_const(found)) {
        auto inserted = insert(a);
        if (!inserted)
            return inserted.error();
        added += *inserted ? 1 : 0;
    }
    return added;
}

Result<NewcomerLedger::SweepReport> NewcomerLedger::sweep(const QString &actor) {
    SweepReport report;
    const qint64 now = m_clock.nowSecs();
    auto p = policy();
    if (!p)
        return p.error();
    if (p->enabled()) {
        auto since = setting(storeConnection(m_store), kSinceKey);
        if (!since)
            return since.error();
        auto added = addFirstSeen(*p, since->toLongLong(), now);
        if (!added)
            return added.error();
        report.added = *added;
    }
    UsageConnection &conn = storeConnection(m_store);
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(q, QStringLiteral("SELECT user_name, since_s, until_s, ended_s, start_audited,"
                                                " end_audited FROM newcomers WHERE (start_audited = 0 AND"
                                                " since_s <= ?) OR (end_audited = 0 AND (until_s <= ? OR"
                                                " (ended_s > 0 AND ended_s <= ?))) ORDER BY since_s"));
        !r)
        return r.error();
    q.addBindValue(now);
    q.addBindValue(now);
    q.addBindValue(now);
    if (auto r = conn.exec(q, QStringLiteral("reading newcomer allowances due")); !r)
        return r.error();
    QList<std::pair<NewcomerAllowance, bool>> due; // the allowance, whether its start is due
    while (q.next())
        due.append({fromRow(q, 0), q.value(4).toInt() == 0});
    q.finish();
    for (const auto &[a, startDue] : std::as_const(due)) {
        if (startDue) {
            auto wrote = auditOnce(a, true, actor, QString());
            if (!wrote)
                return wrote.error();
            report.started += *wrote ? 1 : 0;
        }
        if (a.end() <= now) {
            auto wrote = auditOnce(a, false, actor, QString());
            if (!wrote)
                return wrote.error();
            report.ended += *wrote ? 1 : 0;
        }
    }
    return report;
}

Result<QList<NewcomerAllowance>> NewcomerLedger::list() const {
    UsageConnection &conn = storeConnection(m_store);
    QSqlQuery q(conn.database());
    if (auto r = conn.execSql(q, QStringLiteral("SELECT user_name, since_s, until_s, ended_s FROM newcomers"
                                                " ORDER BY since_s DESC, user_name"));
        !r)
        return r.error();
    QList<NewcomerAllowance> out;
    while (q.next())
        out << fromRow(q, 0);
    return out;
}

} // namespace gq
