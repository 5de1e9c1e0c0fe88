#include "core/usage/changeaudit.h"

#include "core/domain/yamldoc.h"
#include "core/usage/auditlog.h"
#include "core/usage/boostledger.h"
#include "core/usage/timewindow.h"
#include "core/usage/usagestore.h"

namespace gq::changeaudit {

QString objectText(const QJsonObject &object) {
    if (object.isEmpty())
        return {};
    QJsonObject shown;
    if (object.contains(QLatin1String("spec"))) {
        shown.insert(QStringLiteral("spec"), object.value(QLatin1String("spec")));
    } else {
        const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
        QJsonObject annotations = meta.value(QLatin1String("annotations")).toObject();
        annotations.remove(QStringLiteral("kubectl.kubernetes.io/last-applied-configuration"));
        QJsonObject m;
        if (meta.contains(QLatin1String("labels")))
            m.insert(QStringLiteral("labels"), meta.value(QLatin1String("labels")));
        if (!annotations.isEmpty())
            m.insert(QStringLiteral("annotations"), annotations);
        shown.insert(QStringLiteral("metadata"), m);
    }
    return QString::fromUtf8(emitYaml(YamlNode::fromJson(shown)));
}

ChangeAuditEntry entryFor(const QString &kind, const QString &ns, const QString &name,
                          const QJsonObject &before, const QJsonObject &after, const QString &note) {
    ChangeAuditEntry e;
    e.action = kind == QLatin1String("ResourceQuota") ? QStringLiteral("quota.apply")
               : kind == QLatin1String("LimitRange")  ? QStringLiteral("limitrange.apply")
                                                      : kind.toLower() + QStringLiteral(".apply");
    const QString object = kind + QLatin1Char('/') + name;
    e.target = ns.isEmpty() ? object : ns + QLatin1Char('/') + object;
    e.before = objectText(before);
    e.after = objectText(after);
    e.note = note;
    return e;
}

ChangeAuditEntry clampEntry(ClampStep step, const QString &ns, const QString &quota, const QString &before,
                            const QString &after, const QString &note) {
    ChangeAuditEntry e;
    switch (step) {
    case ClampStep::Applied: e.action = QStringLiteral("quota.clamp"); break;
    case ClampStep::Adjusted: e.action = QStringLiteral("quota.clamp.adjust"); break;
    case ClampStep::Lifted: e.action = QStringLiteral("quota.unclamp"); break;
    case ClampStep::Reverted: e.action = QStringLiteral("quota.clamp.reverted"); break;
    }
    e.target = QStringLiteral("%1/ResourceQuota/%2").arg(ns, quota);
    e.before = before;
    e.after = after;
    e.note = note;
    return e;
}

namespace {

// "boost 7: scheduled", with the window of a recurring boost that goes on.
QString lifeOf(const Boost &b) {
    QString s = QStringLiteral("boost %1: %2").arg(b.id).arg(boostStateName(b.state));
    if (b.recurrence.recurs() && !b.isFinal())
        s += QStringLiteral(" %1 to %2").arg(formatInstantUtc(b.start), formatInstantUtc(b.expiry));
    return s;
}

// "boost 7: active until 2026-06-01T12:00:00Z", "boost 7: scheduled from ... until ...":
// what a revoke or extend found and left.
QString lifeUntil(const Boost &b) {
    QString s = QStringLiteral("boost %1: %2").arg(b.id).arg(boostStateName(b.state));
    if (b.state == Boost::State::Scheduled)
        s += QStringLiteral(" from ") + formatInstantUtc(b.start);
    return s + QStringLiteral(" until ") + formatInstantUtc(b.expiry);
}

ChangeAuditEntry boostChangeEntry(const QString &action, const Boost &was, const QString &after,
                                  const QString &note) {
    ChangeAuditEntry e;
    e.action = action;
    e.target = BoostLedger::auditTarget(was.target);
    e.before = lifeUntil(was);
    e.after = after;
    e.note = note;
    return e;
}

} // namespace

ChangeAuditEntry boostGrantEntry(const Boost &granted) {
    ChangeAuditEntry e;
    e.action = QStringLiteral("boost.grant");
    e.target = BoostLedger::auditTarget(granted.target);
    e.after = BoostLedger::summary(granted);
    e.note = granted.note;
    return e;
}

ChangeAuditEntry boostRevokeEntry(const Boost &was, const Boost &now, qint64 at, const QString &note) {
    QString after = QStringLiteral("boost %1: revoked at %2").arg(now.id).arg(formatInstantUtc(at));
    if (now.state != Boost::State::Revoked && now.target.onCluster())
        after += now.target.kind == BoostTarget::Kind::Quota
                     ? QStringLiteral(" (the quota is taken back by the next reconcile)")
                     : QStringLiteral(" (the queue is taken back by the next reconcile)");
    return boostChangeEntry(QStringLiteral("boost.revoke"), was, after, note);
}

ChangeAuditEntry boostExtendEntry(const Boost &was, const Boost &now, const QString &note) {
    return boostChangeEntry(QStringLiteral("boost.extend"), was, lifeUntil(now), note);
}

ChangeAuditEntry boostStepEntry(const QString &action, const Boost &was, const Boost &now,
                                const QString &before, const QString &after, const QString &note) {
    const bool budget = was.target.kind == BoostTarget::Kind::Budget;
    const QString delta = budget ? QStringLiteral("%1 GPU-hours").arg(was.delta) : was.delta;
    // Budget boosts and windows that passed change no object: their texts say what the
    // boost was and is.
    const bool noValues = budget || (before.isEmpty() && after.isEmpty());
    ChangeAuditEntry e;
    e.action = action;
    e.target = BoostLedger::auditTarget(was.target);
    e.before = noValues ? lifeOf(was) : before;
    e.after = noValues ? lifeOf(now) + (budget ? QStringLiteral(" (%1)").arg(delta) : QString()) : after;
    e.note = QStringLiteral("boost %1 (%2): %3").arg(was.id).arg(delta, was.note) + note;
    return e;
}

ChangeAuditEntry boostFailureEntry(const Boost &was, const QString &reason, qint64 retryAt) {
    ChangeAuditEntry e;
    e.action = QStringLiteral("boost.fail");
    e.target = BoostLedger::auditTarget(was.target);
    e.before = QStringLiteral("boost %1: %2").arg(was.id).arg(boostStateName(was.state));
    e.after = QStringLiteral("boost %1: failed: %2; retry at %3")
                  .arg(was.id)
                  .arg(reason, formatInstantUtc(retryAt));
    e.note = was.note;
    return e;
}

} // namespace gq::changeaudit

namespace gq {

AuditLogSink::AuditLogSink(UsageStore &store, QString actor)
    : m_store(store)
    , m_actor(std::move(actor)) {}

Result<void> AuditLogSink::append(const ChangeAuditEntry &entry) {
    auto r =
        AuditLog(m_store).append(m_actor, entry.action, entry.target, entry.before, entry.after, entry.note);
    if (!r)
        return r.error();
    return {};
}

} // namespace gq
