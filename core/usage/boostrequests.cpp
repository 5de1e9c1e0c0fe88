#include "core/usage/boostrequests.h"

#include "core/usage/auditlog.h"
#include "core/usage/boostledger.h"
#include "core/usage/storeconnection.h"
#include "core/usage/timewindow.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagestore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

#include <cmath>

namespace gq {

namespace {

const char *const kStateNames[] = {"pending", "approved", "denied", "expired", "withdrawn"};

Error invalid(const QString &message, const QString &field) {
    return Error::make(Error::Kind::Invalid, message, field);
}

const QString kColumns =
    QStringLiteral("id, requester, scope, subject, hours, until_s, note, created_s, state,"
                   " decided_by, decision_note, decided_s, boost_id");

BoostRequest fromRow(const QSqlQuery &q) {
    BoostRequest r;
    r.id = q.value(0).toLongLong();
    r.requester = q.value(1).toString();
    r.scope = parseScope(q.value(2).toString()).value_or(BudgetScope::User);
    r.subject = q.value(3).toString();
    r.hours = q.value(4).toDouble();
    r.until = q.value(5).toLongLong();
    r.note = q.value(6).toString();
    r.createdAt = q.value(7).toLongLong();
    r.state = parseBoostRequestState(q.value(8).toString()).value_or(BoostRequest::State::Pending);
    r.decidedBy = q.value(9).toString();
    r.decisionNote = q.value(10).toString();
    r.decidedAt = q.value(11).toLongLong();
    r.boostId = q.value(12).toLongLong();
    return r;
}

QString hoursText(double h) {
    return QString::number(h, 'g', 12);
}

} // namespace

QString boostRequestStateName(BoostRequest::State s) {
    return QString::fromLatin1(kStateNames[int(s)]);
}

Result<BoostRequest::State> parseBoostRequestState(const QString &text) {
    for (int i = 0; i < 5; ++i)
        if (text == QLatin1String(kStateNames[i]))
            return BoostRequest::State(i);
    return Error::make(
        Error::Kind::Invalid,
        QStringLiteral("'%1' is not pending, approved, denied, expired or withdrawn").arg(text),
        QStringLiteral("state"));
}

QJsonObject boostRequestJson(const BoostRequest &r) {
    QJsonObject o{{QStringLiteral("id"), r.id},
                  {QStringLiteral("state"), boostRequestStateName(r.state)},
                  {QStringLiteral("requester"), r.requester},
                  {QStringLiteral("budget"), QString(scopeName(r.scope) + QLatin1Char(':') + r.subject)},
                  {QStringLiteral("hours"), r.hours},
                  {QStringLiteral("until"), formatInstantUtc(r.until)},
                  {QStringLiteral("note"), r.note},
                  {QStringLiteral("created"), formatInstantUtc(r.createdAt)}};
    if (r.decidedAt > 0) {
        o.insert(QStringLiteral("decided_by"), r.decidedBy);
        o.insert(QStringLiteral("decision_note"), r.decisionNote);
        o.insert(QStringLiteral("decided"), formatInstantUtc(r.decidedAt));
    }
    if (r.boostId > 0)
        o.insert(QStringLiteral("boost_id"), r.boostId);
    return o;
}

Result<void> migrateBoostRequestsToV8(UsageConnection &conn) {
    const bool pg = conn.isPostgres();
    QSqlQuery q(conn.database());
    const QString id = pg ? QStringLiteral("BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
                          : QStringLiteral("INTEGER PRIMARY KEY AUTOINCREMENT");
    const QString real = pg ? QStringLiteral("DOUBLE PRECISION") : QStringLiteral("REAL");
    QStringList sql{
        QStringLiteral("CREATE TABLE boost_requests (id %1, requester TEXT NOT NULL,"
                       " scope TEXT NOT NULL CHECK (scope IN ('user', 'namespace')), subject TEXT NOT NULL,"
                       " hours %2 NOT NULL CHECK (hours > 0), until_s BIGINT NOT NULL, note TEXT NOT NULL,"
                       " created_s BIGINT NOT NULL,"
                       " state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'denied', 'expired',"
                       " 'withdrawn')),"
                       " decided_by TEXT NOT NULL DEFAULT '', decision_note TEXT NOT NULL DEFAULT '',"
                       " decided_s BIGINT NOT NULL DEFAULT 0, boost_id BIGINT NOT NULL DEFAULT 0)")
            .arg(id, real),
        QStringLiteral("CREATE INDEX boost_requests_state ON boost_requests (state, created_s)"),
    };
    // The console's change notification, like every table of v2 (usageschema.cpp).
    if (pg)
        sql << QStringLiteral(
            "CREATE TRIGGER boost_requests_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE"
            " ON boost_requests FOR EACH STATEMENT EXECUTE FUNCTION gpuquota_notify_usage()");
    for (const QString &s : std::as_const(sql))
        if (auto r = conn.execSql(q, s); !r)
            return r;
    return {};
}

BoostRequestLedger::BoostRequestLedger(UsageStore &store, const Clock &clock)
    : m_store(store)
    , m_clock(clock) {}

QString BoostRequestLedger::auditTarget(const BoostRequest &r) {
    return BoostLedger::auditTarget(BoostTarget::budget(r.scope, r.subject));
}

QString BoostRequestLedger::summary(const BoostRequest &r) {
    QJsonObject o{{QStringLiteral("request"), r.id},
                  {QStringLiteral("state"), boostRequestStateName(r.state)},
                  {QStringLiteral("requester"), r.requester},
                  {QStringLiteral("hours"), hoursText(r.hours)},
                  {QStringLiteral("until"), formatInstantUtc(r.until)}};
    if (r.boostId > 0)
        o.insert(QStringLiteral("boost"), r.boostId);
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

Result<BoostRequest> BoostRequestLedger::submit(BoostRequest request) {
    if (auto r = checkBoostNote(request.note); !r)
        return r.error();
    if (request.requester.trimmed().isEmpty())
        return invalid(QStringLiteral("a request needs the requester's name"), QStringLiteral("requester"));
    if (request.subject.trimmed().isEmpty())
        return invalid(QStringLiteral("say whose budget: user:NAME or namespace:NAME"),
                       QStringLiteral("budget"));
    if (!(request.hours > 0) || !std::isfinite(request.hours))
        return invalid(QStringLiteral("the extra GPU-hours must be a positive number"),
                       QStringLiteral("add-hours"));
    const qint64 now = m_clock.nowSecs();
    if (request.until <= now)
        return invalid(QStringLiteral("the end %1 must be after now").arg(formatInstantUtc(request.until)),
                       QStringLiteral("until"));
    request.id = 0;
    request.subject = request.subject.trimmed();
    request.note = request.note.trimmed();
    request.state = BoostRequest::State::Pending;
    request.createdAt = now;
    request.decidedBy.clear();
    request.decisionNote.clear();
    request.decidedAt = 0;
    request.boostId = 0;
    UsageConnection &conn = storeConnection(m_store);
    UsageTx tx(conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(
            q, QStringLiteral("INSERT INTO boost_requests (requester, scope, subject, hours,"
                              " until_s, note, created_s, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
        !r)
        return r.error();
    q.addBindValue(request.requester);
    q.addBindValue(scopeName(request.scope));
    q.addBindValue(request.subject);
    q.addBindValue(request.hours);
    q.addBindValue(request.until);
    q.addBindValue(request.note);
    q.addBindValue(request.createdAt);
    q.addBindValue(boostRequestStateName(request.state));
    if (auto r = conn.exec(q, QStringLiteral("storing a boost request")); !r)
        return r.error();
    auto id = conn.lastInsertedId(QStringLiteral("boost_requests"));
    if (!id)
        return id.error();
    request.id = *id;
    AuditLog log(m_store);
    if (auto r = log.append(request.requester, QStringLiteral("boost.request"), auditTarget(request),
                            QString(), summary(request), request.note);
        !r)
        return r.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return request;
}

Result<BoostRequest> BoostRequestLedger::find(qint64 id) const {
    UsageConnection &conn = storeConnection(m_store);
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(q, QStringLiteral("SELECT %1 FROM boost_requests WHERE id = ?").arg(kColumns));
        !r)
        return r.error();
    q.addBindValue(id);
    if (auto r = conn.exec(q, QStringLiteral("reading a boost request")); !r)
        return r.error();
    if (!q.next())
        return Error::make(Error::Kind::NotFound, QStringLiteral("no boost request with id %1").arg(id),
                           QStringLiteral("id"));
    return fromRow(q);
}

Result<QList<BoostRequest>> BoostRequestLedger::list(const Filter &filter) {
    if (!storeConnection(m_store).isReadOnly())
        if (auto r = expireDue(); !r)
            return r.error();
    UsageConnection &conn = storeConnection(m_store);
    QSqlQuery q(conn.database());
    QString sql = QStringLiteral("SELECT %1 FROM boost_requests WHERE 1 = 1").arg(kColumns);
    if (filter.state)
        sql += QStringLiteral(" AND state = ?");
    if (!filter.requester.isEmpty())
        sql += QStringLiteral(" AND requester = ?");
    sql += QStringLiteral(" ORDER BY CASE state WHEN 'pending' THEN 0 ELSE 1 END, id DESC");
    if (auto r = conn.prepare(q, sql); !r)
        return r.error();
    if (filter.state)
        q.addBindValue(boostRequestStateName(*filter.state));
    if (!filter.requester.isEmpty())
        q.addBindValue(filter.requester);
    if (auto r = conn.exec(q, QStringLiteral("listing boost requests")); !r)
        return r.error();
    QList<BoostRequest> out;
    while (q.next())
        out.append(fromRow(q));
    return out;
}

Result<QList<BoostRequest>> BoostRequestLedger::decidedBetween(qint64 from, qint64 to) const {
    UsageConnection &conn = storeConnection(m_store);
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(
            q, QStringLiteral("SELECT %1 FROM boost_requests WHERE state IN ('approved', 'denied')"
                              " AND decided_s > ? AND decided_s <= ? ORDER BY decided_s, id")
                   .arg(kColumns));
        !r)
        return r.error();
    q.addBindValue(from);
    q.addBindValue(to);
    if (auto r = conn.exec(q, QStringLiteral("reading decided boost requests")); !r)
        return r.error();
    QList<BoostRequest> out;
    while (q.next())
        out.append(fromRow(q));
    return out;
}

Result<void> BoostRequestLedger::store(const BoostRequest &r, BoostRequest::State from) {
    UsageConnection &conn = storeConnection(m_store);
    QSqlQuery q(conn.database());
    if (auto e = conn.prepare(q, QStringLiteral("UPDATE boost_requests SET state = ?, decided_by = ?,"
                                                " decision_note = ?, decided_s = ?, boost_id = ?, hours = ?,"
                                                " until_s = ? WHERE id = ? AND state = ?"));
        !e)
        return e;
    q.addBindValue(boostRequestStateName(r.state));
    q.addBindValue(r.decidedBy);
    q.addBindValue(r.decisionNote);
    q.addBindValue(r.decidedAt);
    q.addBindValue(r.boostId);
    q.addBindValue(r.hours);
    q.addBindValue(r.until);
    q.addBindValue(r.id);
    q.addBindValue(boostRequestStateName(from));
    if (auto e = conn.exec(q, QStringLiteral("updating a boost request")); !e)
        return e;
    if (q.numRowsAffected() != 1)
        return Error::make(Error::Kind::Conflict,
                           QStringLiteral("boost request %1 changed meanwhile; try again").arg(r.id),
                           QStringLiteral("id"));
    return {};
}

Result<BoostRequest> BoostRequestLedger::decide(qint64 id, BoostRequest::State to, const QString &action,
                                                const QString &note, const QString &actor,
                                                const Decision *approval) {
    if (to != BoostRequest::State::Expired)
        if (auto r = checkBoostNote(note); !r)
            return r.error();
    if (actor.trimmed().isEmpty())
        return invalid(QStringLiteral("must not be empty"), QStringLiteral("actor"));
    const qint64 now = m_clock.nowSecs();
    UsageConnection &conn = storeConnection(m_store);
    UsageTx tx(conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    auto current = find(id);
    if (!current)
        return current.error();
    if (current->state == BoostRequest::State::Pending && current->until <= now &&
        to != BoostRequest::State::Expired)
        return invalid(QStringLiteral("boost request %1 ended %2 before it was decided")
                           .arg(id)
                           .arg(formatInstantUtc(current->until)),
                       QStringLiteral("id"));
    if (current->state != BoostRequest::State::Pending)
        return invalid(QStringLiteral("boost request %1 is already %2")
                           .arg(id)
                           .arg(boostRequestStateName(current->state)),
                       QStringLiteral("id"));
    const bool own =
        actor == current->requester || (current->scope == BudgetScope::User && actor == current->subject);
    if (to == BoostRequest::State::Withdrawn && actor != current->requester)
        return Error::make(Error::Kind::Forbidden,
                           QStringLiteral("only %1 may withdraw request %2").arg(current->requester).arg(id),
                           QStringLiteral("id"));
    if ((to == BoostRequest::State::Approved || to == BoostRequest::State::Denied) && own)
        return Error::make(Error::Kind::Forbidden,
                           QStringLiteral("%1 may not decide their own request %2").arg(actor).arg(id),
                           QStringLiteral("id"));
    BoostRequest next = *current;
    next.state = to;
    next.decidedBy = actor;
    next.decisionNote = note.trimmed();
    next.decidedAt = now;
    if (approval) {
        if (approval->hours < 0 || !std::isfinite(approval->hours))
            return invalid(QStringLiteral("the extra GPU-hours must be a positive number"),
                           QStringLiteral("add-hours"));
        if (approval->hours > 0)
            next.hours = approval->hours;
        if (approval->until > 0)
            next.until = approval->until;
        Boost b;
        b.target = BoostTarget::budget(current->scope, current->subject);
        b.delta = hoursText(next.hours);
        b.start = now;
        b.expiry = next.until;
        b.note = next.decisionNote;
        b.actor = actor;
        auto granted = BoostLedger(m_store, m_clock).grant(b);
        if (!granted)
            return granted.error();
        next.boostId = granted->id;
    }
    if (auto r = store(next, current->state); !r)
        return r.error();
    AuditLog log(m_store);
    if (auto r =
            log.append(actor, action, auditTarget(next), summary(*current), summary(next), next.decisionNote);
        !r)
        return r.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return next;
}

Result<BoostRequest> BoostRequestLedger::approve(qint64 id, const Decision &decision) {
    return decide(id, BoostRequest::State::Approved, QStringLiteral("boost.request.approve"), decision.note,
                  decision.actor, &decision);
}

Result<BoostRequest> BoostRequestLedger::deny(qint64 id, const QString &note, const QString &actor) {
    return decide(id, BoostRequest::State::Denied, QStringLiteral("boost.request.deny"), note, actor,
                  nullptr);
}

Result<BoostRequest> BoostRequestLedger::withdraw(qint64 id, const QString &note, const QString &requester) {
    return decide(id, BoostRequest::State::Withdrawn, QStringLiteral("boost.request.withdraw"), note,
                  requester, nullptr);
}

Result<int> BoostRequestLedger::expireDue() {
    UsageConnection &conn = storeConnection(m_store);
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(
            q, QStringLiteral("SELECT id FROM boost_requests WHERE state = 'pending' AND until_s <= ?"));
        !r)
        return r.error();
    q.addBindValue(m_clock.nowSecs());
    if (auto r = conn.exec(q, QStringLiteral("finding ended boost requests")); !r)
        return r.error();
    QList<qint64> due;
    while (q.next())
        due.append(q.value(0).toLongLong());
    int n = 0;
    for (qint64 id : std::as_const(due)) {
        auto r = decide(id, BoostRequest::State::Expired, QStringLiteral("boost.request.expire"),
                        QStringLiteral("ended before it was decided"), QStringLiteral("gpuquota"), nullptr);
        if (!r && r.error().kind != Error::Kind::Invalid) // decided meanwhile: not ours to expire
            return r.error();
        n += r ? 1 : 0;
    }
    return n;
}

} // namespace gq
