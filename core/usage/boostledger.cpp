#include "core/usage/boostledger.h"

#include "core/usage/changeaudit.h"
#include "core/usage/storeconnection.h"
#include "core/usage/timewindow.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagestore.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace gq {

namespace {
Error invalid(const QString &message, const QString &field) {
    return Error::make(Error::Kind::Invalid, message, field);
}

} // namespace

BoostLedger::BoostLedger(UsageStore &store, const Clock &clock)
    : m_store(store)
    , m_clock(clock) {}

BoostLedger::~BoostLedger() = default;

Result<void> BoostLedger::audit(const ChangeAuditEntry &entry, const QString &actor) {
    if (m_auditSink)
        return m_auditSink->append(entry);
    return AuditLogSink(m_store, actor).append(entry);
}

Result<void> BoostLedger::checkNote(const QString &note) {
    return checkBoostNote(note);
}

QString BoostLedger::auditTarget(const BoostTarget &t) {
    if (t.kind == BoostTarget::Kind::Budget)
        return t.toString();
    if (t.kind == BoostTarget::Kind::ClusterQueue)
        return QStringLiteral("ClusterQueue/%1/%2/%3/%4").arg(t.subject, t.quota, t.field, t.resource);
    return t.subject + QStringLiteral("/ResourceQuota/") + t.quota + QLatin1Char('/') + t.resource;
}

QString BoostLedger::summary(const Boost &b) {
    QJsonObject o{{QStringLiteral("id"), b.id},
                  {QStringLiteral("target"), b.target.toString()},
                  {QStringLiteral("delta"), b.delta},
                  {QStringLiteral("start"), formatInstantUtc(b.start)},
                  {QStringLiteral("until"), formatInstantUtc(b.expiry)}};
    if (!b.setValue.isEmpty())
        o.insert(QStringLiteral("set"), b.setValue);
    if (!b.baseValue.isEmpty())
        o.insert(QStringLiteral("base"), b.baseValue);
    if (b.recurrence.recurs()) {
        o.insert(QStringLiteral("recur"), recurrenceKindName(b.recurrence.kind));
        o.insert(QStringLiteral("window"), b.recurrence.window());
        o.insert(QStringLiteral("tz"), b.recurrence.tz);
        o.insert(QStringLiteral("recurUntil"), formatInstantUtc(b.recurrence.until));
    }
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

Result<Boost> BoostLedger::grant(Boost boost) {
    if (auto r = checkNote(boost.note); !r)
        return r.error();
    if (boost.delta.trimmed().isEmpty())
        return invalid(QStringLiteral("a boost needs a delta"), QStringLiteral("add"));
    if (boost.expiry <= boost.start)
        return invalid(QStringLiteral("the end must be after the start"), QStringLiteral("until"));
    boost.id = 0;
    boost.state = Boost::State::Scheduled;
    boost.createdAt = m_clock.nowSecs();
    UsageConnection &conn = storeConnection(m_store);
    UsageTx tx(conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    auto added = m_store.addBoost(boost);
    if (!added)
        return added.error();
    if (auto r = audit(changeaudit::boostGrantEntry(*added), boost.actor); !r)
        return r.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return *added;
}

Result<Boost> BoostLedger::find(qint64 id) const {
    BoostStore store(storeConnection(m_store));
    auto b = store.find(id);
    if (!b)
        return b.error();
    if (!*b)
        return Error::make(Error::Kind::NotFound, QStringLiteral("no boost with id %1").arg(id),
                           QStringLiteral("id"));
    return **b;
}

Result<Boost>
BoostLedger::change(qint64 id, const QString &note, const QString &actor,
                    const std::function<Result<Boost>(const Boost &)> &edit,
                    const std::function<ChangeAuditEntry(const Boost &, const Boost &)> &entryFor) {
    if (auto r = checkNote(note); !r)
        return r.error();
    UsageConnection &conn = storeConnection(m_store);
    UsageTx tx(conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    auto current = find(id);
    if (!current)
        return current.error();
    if (current->isFinal())
        return invalid(QStringLiteral("boost %1 is already %2").arg(id).arg(boostStateName(current->state)),
                       QStringLiteral("id"));
    if (current->state == Boost::State::Applying || current->state == Boost::State::Reverting)
        return Error::make(
            Error::Kind::Conflict,
            QStringLiteral("boost %1 is being %2 by a reconcile right now; try again in a moment")
                .arg(id)
                .arg(current->state == Boost::State::Applying ? QStringLiteral("applied")
                                                              : QStringLiteral("reverted")),
            QStringLiteral("id"));
    auto next = edit(*current);
    if (!next)
        return next.error();
    BoostStore store(conn);
    auto ok = store.update(*next, current->state, current->claimOwner);
    if (!ok)
        return ok.error();
    if (!*ok)
        return Error::make(Error::Kind::Conflict,
                           QStringLiteral("boost %1 changed while it was being edited; try again").arg(id),
                           QStringLiteral("id"));
    if (auto r = audit(entryFor(*current, *next), actor); !r)
        return r.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return *next;
}

Result<Boost> BoostLedger::revoke(qint64 id, const QString &note, const QString &actor) {
    const qint64 now = m_clock.nowSecs();
    return change(
        id, note, actor,
        [now](const Boost &cur) -> Result<Boost> {
            Boost b = cur;
            b.revokedAt = now;
            const bool mayBeOnCluster =
                cur.state == Boost::State::Active || cur.state == Boost::State::Failed;
            if (cur.start < now)
                b.expiry = std::min(cur.expiry, now);
            if (!mayBeOnCluster) {
                b.state = Boost::State::Revoked;
            } else if (cur.state == Boost::State::Failed) {
                // A failed apply may have reached the server before the answer was lost:
                // the revert looks at the quota's annotation and takes back only what is there.
                b.retryOp = QStringLiteral("revert");
                b.nextRetry = now;
            }
            if (b.expiry <= b.start)
                b.expiry = b.start + 1;
            return b;
        },
        [now, note](const Boost &was, const Boost &next) {
            return changeaudit::boostRevokeEntry(was, next, now, note);
        });
}

Result<Boost> BoostLedger::extend(qint64 id, qint64 newExpiry, const QString &note, const QString &actor) {
    const qint64 now = m_clock.nowSecs();
    return change(
        id, note, actor,
        [now, newExpiry](const Boost &cur) -> Result<Boost> {
            if (cur.recurrence.recurs())
                return invalid(QStringLiteral("boost %1 recurs until %2; revoke it and grant a new one")
                                   .arg(cur.id)
                                   .arg(formatInstantUtc(cur.recurrence.until)),
                               QStringLiteral("id"));
            if (newExpiry <= now || newExpiry <= cur.start)
                return invalid(QStringLiteral("the new end %1 must be after now and after the start %2")
                                   .arg(formatInstantUtc(newExpiry), formatInstantUtc(cur.start)),
                               QStringLiteral("until"));
            if (cur.state == Boost::State::Failed && cur.retryOp == QLatin1String("revert"))
                return invalid(
                    QStringLiteral("boost %1 is being taken back (its revert failed and is retried)")
                        .arg(cur.id),
                    QStringLiteral("id"));
            Boost b = cur;
            b.expiry = newExpiry;
            // Applied: the quota's annotation still shows the old end until a reconcile
            // rewrites it (BoostReconciler); the mark makes the boost due for that.
            if (cur.state == Boost::State::Active && cur.target.onCluster())
                b.retryOp = QString::fromLatin1(Boost::kAnnotateOp);
            return b;
        },
        [note](const Boost &was, const Boost &next) {
            return changeaudit::boostExtendEntry(was, next, note);
        });
}

Result<QList<Boost>> BoostLedger::list(const Filter &filter) const {
    auto all = m_store.boosts();
    if (!all)
        return all.error();
    QList<Boost> out;
    for (const Boost &b : *all) {
        if (filter.state && b.state != *filter.state)
            continue;
        if (!filter.ns.isEmpty() &&
            !(b.target.subject == filter.ns &&
              (b.target.kind == BoostTarget::Kind::Quota ||
               (b.target.kind == BoostTarget::Kind::Budget && b.target.scope == BudgetScope::Namespace))))
            continue;
        out << b;
    }
    return out;
}

} // namespace gq
