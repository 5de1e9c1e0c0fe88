#include "core/usage/boosts.h"

#include "core/usage/usageconnection.h"

#include <QSqlQuery>

namespace gq {

namespace {
const QString kBudgetPrefix = QStringLiteral("budget/");
const QString kQuotaPrefix = QStringLiteral("quota/");
const QString kQueuePrefix = QStringLiteral("clusterqueue/");

Error targetError(const QString &message) {
    return Error::make(Error::Kind::Invalid, message, QStringLiteral("target"));
}
} // namespace

BoostTarget BoostTarget::budget(BudgetScope scope, const QString &subject) {
    BoostTarget t;
    t.kind = Kind::Budget;
    t.scope = scope;
    t.subject = subject;
    return t;
}

BoostTarget BoostTarget::quotaEntry(const QString &ns, const QString &quota, const QString &resource) {
    BoostTarget t;
    t.kind = Kind::Quota;
    t.scope = BudgetScope::Namespace;
    t.subject = ns;
    t.quota = quota;
    t.resource = resource;
    return t;
}

BoostTarget BoostTarget::queueEntry(const QString &clusterQueue, const QString &flavor, const QString &field,
                                    const QString &resource) {
    BoostTarget t;
    t.kind = Kind::ClusterQueue;
    t.scope = BudgetScope::Namespace; // unused: a ClusterQueue is cluster-wide
    t.subject = clusterQueue;
    t.quota = flavor;
    t.field = field;
    t.resource = resource;
    return t;
}

QString BoostTarget::toString() const {
    if (kind == Kind::Budget)
        return kBudgetPrefix + scopeName(scope) + QLatin1Char('/') + subject;
    if (kind == Kind::ClusterQueue)
        return kQueuePrefix + subject + QLatin1Char('/') + quota + QLatin1Char('/') + field +
               QLatin1Char('/') + resource;
    return kQuotaPrefix + subject + QLatin1Char('/') + quota + QLatin1Char('/') + resource;
}

Result<void> BoostTarget::validate() const {
    if (subject.trimmed().isEmpty())
        return targetError(QStringLiteral("must not be empty"));
    if (kind == Kind::Budget) {
        if (!quota.isEmpty() || !resource.isEmpty() || !field.isEmpty())
            return targetError(QStringLiteral("a budget target names no quota or resource"));
        return {};
    }
    if (kind == Kind::ClusterQueue) {
        if (field != QLatin1String("nominalQuota") && field != QLatin1String("borrowingLimit"))
            return targetError(QStringLiteral("'%1' is not nominalQuota or borrowingLimit").arg(field));
        if (quota.trimmed().isEmpty() || resource.trimmed().isEmpty())
            return targetError(QStringLiteral("a queue target needs a flavor and a resource"));
        if (subject.contains(QLatin1Char('/')) || quota.contains(QLatin1Char('/')))
            return targetError(QStringLiteral("'%1' or '%2' is not a Kubernetes name").arg(subject, quota));
        return {};
    }
    if (!field.isEmpty())
        return targetError(QStringLiteral("only a queue target names a field"));
    if (scope != BudgetScope::Namespace)
        return targetError(QStringLiteral("a quota target belongs to a namespace"));
    if (quota.trimmed().isEmpty() || resource.trimmed().isEmpty())
        return targetError(QStringLiteral("a quota target needs a quota name and a resource"));
    // Kubernetes names never hold '/'; the stored form relies on it.
    if (subject.contains(QLatin1Char('/')) || quota.contains(QLatin1Char('/')))
        return targetError(QStringLiteral("'%1' or '%2' is not a Kubernetes name").arg(subject, quota));
    return {};
}

Result<BoostTarget> BoostTarget::parse(const QString &text) {
    BoostTarget t;
    if (text.startsWith(kBudgetPrefix)) {
        const qsizetype slash = text.indexOf(QLatin1Char('/'), kBudgetPrefix.size());
        if (slash < 0)
            return targetError(QStringLiteral("'%1' names no subject").arg(text));
        auto scope = parseScope(text.mid(kBudgetPrefix.size(), slash - kBudgetPrefix.size()));
        if (!scope)
            return targetError(QStringLiteral("'%1': %2").arg(text, scope.error().message));
        t = budget(*scope, text.mid(slash + 1));
    } else if (text.startsWith(kQuotaPrefix)) {
        const qsizetype a = text.indexOf(QLatin1Char('/'), kQuotaPrefix.size());
        const qsizetype b = a < 0 ? -1 : text.indexOf(QLatin1Char('/'), a + 1);
        if (b < 0)
            return targetError(QStringLiteral("'%1' is not quota/<namespace>/<quota>/<resource>").arg(text));
        t = quotaEntry(text.mid(kQuotaPrefix.size(), a - kQuotaPrefix.size()), text.mid(a + 1, b - a - 1),
                       text.mid(b + 1));
    } else if (text.startsWith(kQueuePrefix)) {
        const QStringList parts = text.mid(kQueuePrefix.size()).split(QLatin1Char('/'));
        if (parts.size() < 4)
            return targetError(
                QStringLiteral("'%1' is not clusterqueue/<queue>/<flavor>/<field>/<resource>").arg(text));
        t = queueEntry(parts.at(0), parts.at(1), parts.at(2), parts.mid(3).join(QLatin1Char('/')));
    } else {
        return targetError(QStringLiteral("'%1' is not a boost target (budget/<user|namespace>/<name>, "
                                          "quota/<namespace>/<quota>/<resource> or "
                                          "clusterqueue/<queue>/<flavor>/<field>/<resource>)")
                               .arg(text));
    }
    if (auto v = t.validate(); !v)
        return v.error();
    return t;
}

namespace {
constexpr Boost::State kStates[] = {Boost::State::Scheduled, Boost::State::Applying, Boost::State::Active,
                                    Boost::State::Reverting, Boost::State::Expired,  Boost::State::Revoked,
                                    Boost::State::Failed};

const QString kColumns = QStringLiteral(
    "id, target, delta, set_value, base_value, start_s, expiry_s, note, actor, state, recur, "
    "recur_start_min, "
    "recur_end_min, recur_tz, recur_until_s, created_s, revoked_s, reason, next_retry_s, attempts, retry_op, "
    "claim_owner, claim_until_s");

Result<BoostRecurrence::Kind> parseKind(const QString &text) {
    for (auto k : {BoostRecurrence::Kind::None, BoostRecurrence::Kind::Nightly,
                   BoostRecurrence::Kind::Weekends, BoostRecurrence::Kind::Weekdays})
        if (recurrenceKindName(k) == text)
            return k;
    return Error::make(Error::Kind::Invalid,
                       QStringLiteral("'%1' is not nightly, weekends or weekdays").arg(text),
                       QStringLiteral("recur"));
}
} // namespace

QString boostStateName(Boost::State s) {
    switch (s) {
    case Boost::State::Scheduled: return QStringLiteral("scheduled");
    case Boost::State::Applying: return QStringLiteral("applying");
    case Boost::State::Active: return QStringLiteral("active");
    case Boost::State::Reverting: return QStringLiteral("reverting");
    case Boost::State::Expired: return QStringLiteral("expired");
    case Boost::State::Revoked: return QStringLiteral("revoked");
    case Boost::State::Failed: return QStringLiteral("failed");
    }
    return {};
}

Result<Boost::State> parseBoostState(const QString &text) {
    for (auto s : kStates)
        if (boostStateName(s) == text)
            return s;
    return Error::make(Error::Kind::Invalid,
                       QStringLiteral("unknown boost state '%1' (scheduled, applying, active, reverting, "
                                      "expired, revoked or failed)")
                           .arg(text),
                       QStringLiteral("state"));
}

Result<Boost> BoostStore::add(const Boost &boost) {
    if (auto v = boost.target.validate(); !v)
        return v.error();
    if (boost.actor.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("must not be empty"),
                           QStringLiteral("actor"));
    if (boost.expiry <= boost.start)
        return Error::make(Error::Kind::Invalid, QStringLiteral("expiry must be after start"),
                           QStringLiteral("expiry"));
    UsageTx tx(m_conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(
            q,
            QStringLiteral("INSERT INTO boosts (target, delta, set_value, base_value, start_s, expiry_s, "
                           "note, actor, state, recur, recur_start_min, recur_end_min, recur_tz, "
                           "recur_until_s, created_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        !r)
        return r.error();
    q.addBindValue(boost.target.toString());
    q.addBindValue(nonNull(boost.delta));
    q.addBindValue(nonNull(boost.setValue));
    q.addBindValue(nonNull(boost.baseValue));
    q.addBindValue(boost.start);
    q.addBindValue(boost.expiry);
    q.addBindValue(nonNull(boost.note));
    q.addBindValue(nonNull(boost.actor));
    q.addBindValue(boostStateName(boost.state));
    q.addBindValue(recurrenceKindName(boost.recurrence.kind));
    q.addBindValue(boost.recurrence.startMinute);
    q.addBindValue(boost.recurrence.endMinute);
    q.addBindValue(nonNull(boost.recurrence.tz));
    q.addBindValue(boost.recurrence.until);
    q.addBindValue(boost.createdAt);
    if (auto r = m_conn.exec(q, QStringLiteral("storing a boost")); !r)
        return r.error();
    auto id = m_conn.lastInsertedId(QStringLiteral("boosts"));
    if (!id)
        return id.error();
    Boost out = boost;
    out.id = *id;
    if (auto r = tx.commit(); !r)
        return r.error();
    return out;
}

Result<QList<Boost>> BoostStore::select(const QString &where, const QVariantList &binds) const {
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(q, QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM boosts ") +
                                       where + QStringLiteral(" ORDER BY id"));
        !r)
        return r.error();
    for (const QVariant &v : binds)
        q.addBindValue(v);
    if (auto r = m_conn.exec(q, QStringLiteral("reading boosts")); !r)
        return r.error();
    QList<Boost> out;
    while (q.next()) {
        Boost b;
        b.id = q.value(0).toLongLong();
        auto target = BoostTarget::parse(q.value(1).toString());
        if (!target) {
            Error e = target.error();
            e.message = QStringLiteral("stored boost %1: %2").arg(b.id).arg(e.message);
            return e;
        }
        b.target = *target;
        b.delta = q.value(2).toString();
        b.setValue = q.value(3).toString();
        b.baseValue = q.value(4).toString();
        b.start = q.value(5).toLongLong();
        b.expiry = q.value(6).toLongLong();
        b.note = q.value(7).toString();
        b.actor = q.value(8).toString();
        b.state = parseBoostState(q.value(9).toString()).value_or(Boost::State::Failed);
        b.recurrence.kind = parseKind(q.value(10).toString()).value_or(BoostRecurrence::Kind::None);
        b.recurrence.startMinute = q.value(11).toInt();
        b.recurrence.endMinute = q.value(12).toInt();
        b.recurrence.tz = q.value(13).toString();
        b.recurrence.until = q.value(14).toLongLong();
        b.createdAt = q.value(15).toLongLong();
        b.revokedAt = q.value(16).toLongLong();
        b.reason = q.value(17).toString();
        b.nextRetry = q.value(18).toLongLong();
        b.attempts = q.value(19).toInt();
        b.retryOp = q.value(20).toString();
        b.claimOwner = q.value(21).toString();
        b.claimUntil = q.value(22).toLongLong();
        out << b;
    }
    return out;
}

Result<QList<Boost>> BoostStore::all() const {
    return select({}, {});
}

Result<std::optional<Boost>> BoostStore::find(qint64 id) const {
    auto rows = select(QStringLiteral("WHERE id = ?"), {id});
    if (!rows)
        return rows.error();
    if (rows->isEmpty())
        return std::optional<Boost>{};
    return std::optional<Boost>{rows->first()};
}

Result<QList<Boost>> BoostStore::due(qint64 now) const {
    return select(
        QStringLiteral("WHERE (state = 'scheduled' AND start_s <= ?) OR (state = 'active' AND "
                       "(expiry_s <= ? OR retry_op = ?)) OR (state = 'failed' AND next_retry_s <= ?) "
                       "OR state IN ('applying', 'reverting')"),
        {now, now, QString::fromLatin1(Boost::kAnnotateOp), now});
}

Result<bool> BoostStore::clearAnnotateMark(qint64 id, qint64 expiry) {
    m_conn.noteWrite();
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(q, QStringLiteral("UPDATE boosts SET retry_op = '' WHERE id = ? AND state = "
                                                  "'active' AND retry_op = ? AND expiry_s = ?"));
        !r)
        return r.error();
    q.addBindValue(id);
    q.addBindValue(QString::fromLatin1(Boost::kAnnotateOp));
    q.addBindValue(expiry);
    if (auto r = m_conn.exec(q, QStringLiteral("updating a boost")); !r)
        return r.error();
    return q.numRowsAffected() > 0;
}

Result<bool> BoostStore::setState(qint64 id, Boost::State state) {
    m_conn.noteWrite();
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(q, QStringLiteral("UPDATE boosts SET state = ? WHERE id = ?")); !r)
        return r.error();
    q.addBindValue(boostStateName(state));
    q.addBindValue(id);
    if (auto r = m_conn.exec(q, QStringLiteral("updating a boost")); !r)
        return r.error();
    return q.numRowsAffected() > 0;
}

Result<bool> BoostStore::update(const Boost &b, Boost::State expectState, const QString &expectOwner) {
    if (b.expiry <= b.start)
        return Error::make(Error::Kind::Invalid, QStringLiteral("expiry must be after start"),
                           QStringLiteral("expiry"));
    m_conn.noteWrite();
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(
            q, QStringLiteral(
                   "UPDATE boosts SET delta = ?, start_s = ?, expiry_s = ?, state = ?, revoked_s = ?, "
                   "reason = ?, next_retry_s = ?, attempts = ?, retry_op = ?, claim_owner = ?, "
                   "claim_until_s = ? WHERE id = ? AND state = ? AND claim_owner = ?"));
        !r)
        return r.error();
    q.addBindValue(nonNull(b.delta));
    q.addBindValue(b.start);
    q.addBindValue(b.expiry);
    q.addBindValue(boostStateName(b.state));
    q.addBindValue(b.revokedAt);
    q.addBindValue(nonNull(b.reason));
    q.addBindValue(b.nextRetry);
    q.addBindValue(b.attempts);
    q.addBindValue(nonNull(b.retryOp));
    q.addBindValue(nonNull(b.claimOwner));
    q.addBindValue(b.claimUntil);
    q.addBindValue(b.id);
    q.addBindValue(boostStateName(expectState));
    q.addBindValue(nonNull(expectOwner));
    if (auto r = m_conn.exec(q, QStringLiteral("updating a boost")); !r)
        return r.error();
    return q.numRowsAffected() > 0;
}

Result<double> BoostStore::activeBudgetBoost(BudgetScope scope, const QString &subject, qint64 now) const {
    QSqlQuery q(m_conn.database());
    // Live boosts only (as the admission check's inputs, checkinputs.cpp): revoking one
    // that runs moves its expiry to the revoke instant, so it counts until then.
    if (auto r = m_conn.prepare(
            q,
            QStringLiteral("SELECT delta FROM boosts WHERE target = ? AND state IN ('scheduled', 'applying', "
                           "'active', 'reverting') AND start_s <= ? AND expiry_s > ?"));
        !r)
        return r.error();
    q.addBindValue(BoostTarget::budget(scope, subject).toString());
    q.addBindValue(now);
    q.addBindValue(now);
    if (auto r = m_conn.exec(q, QStringLiteral("reading boosts")); !r)
        return r.error();
    double extra = 0;
    while (q.next()) {
        bool ok = false;
        const double d = q.value(0).toString().toDouble(&ok);
        if (ok)
            extra += d;
    }
    return extra;
}

Result<void> checkBoostNote(const QString &note) {
    if (note.trimmed().size() < kBoostMinNoteLength)
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("a note of at least %1 characters is required (why this boost?)")
                               .arg(kBoostMinNoteLength),
                           QStringLiteral("note"));
    return {};
}

} // namespace gq
