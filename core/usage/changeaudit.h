#pragma once

// The audit policy of a write to a cluster object (a quota, a limit range, a namespace):
// what the entry of one change says — action name, target, before/after text — decided
// here once, so the console, its templates and `gpuquota apply` write the same entry
// for the same change. QuotaWriter applies it through an injected ChangeAuditSink,
// which says who the actor is and where the entry goes. The machine writes follow the
// same path: a boost's steps (BoostReconciler, in the console, `gpuquota reconcile` and
// the controller alike) and the controller's clamp (BudgetEnforcer) take their entries
// from here and append them through a ChangeAuditSink too, and so do the changes people
// make to boosts (BoostLedger's grant, revoke and extend: the console, the CLI and the
// controller's self-service approvals).

#include "core/domain/result.h"
#include "core/usage/boosts.h"

#include <QJsonObject>
#include <QString>

namespace gq {

class UsageStore;

struct ChangeAuditEntry {
    QString action; // quota.apply, limitrange.apply, namespace.apply
    QString target; // "ns/Kind/name", "Kind/name" for a cluster-scoped object
    QString before; // what an admin changes of the object before, as YAML; empty: created
    QString after;  // the same of the object as written
    QString note;   // the reason given
};

// Where a tool's entries go and whom they name: the CLI's --db audit log, the console's
// usage database. append() may be asynchronous (the console's database thread); an
// error it returns is one the writer can report.
class ChangeAuditSink {
public:
    virtual ~ChangeAuditSink() = default;
    [[nodiscard]] virtual Result<void> append(const ChangeAuditEntry &entry) = 0;
};

namespace changeaudit {

// The part of an object an admin changes: spec (or, for a Namespace, its labels and
// annotations minus kubectl's last-applied record) as YAML; empty for no object.
[[nodiscard]] QString objectText(const QJsonObject &object);

// The entry of one change of `kind` ns/name from `before` (empty: created) to `after`.
[[nodiscard]] ChangeAuditEntry entryFor(const QString &kind, const QString &ns, const QString &name,
                                        const QJsonObject &before, const QJsonObject &after,
                                        const QString &note);

// A step of the controller's clamp of a namespace's quota over its GPU-hour budget.
enum class ClampStep {
    Applied,  // quota.clamp
    Adjusted, // quota.clamp.adjust
    Lifted,   // quota.unclamp
    Reverted, // quota.clamp.reverted: another owner undid it; the controller backs off
};
// The entry of a clamp step on ns/ResourceQuota/quota; `before`/`after` are the
// quota's hard limits the step read and wrote, as the clamp shows them.
[[nodiscard]] ChangeAuditEntry clampEntry(ClampStep step, const QString &ns, const QString &quota,
                                          const QString &before, const QString &after, const QString &note);

// The entry of one step of a boost's life on its target: boost.apply, boost.revert or
// boost.expire, from `was` to `now`. `before`/`after`: the target's values the step
// read and wrote; a budget boost, or a window that passed unapplied, changes no
// object, so its texts say what the boost was and is. `note`: why (the boost's note
// and what the reconcile found).
[[nodiscard]] ChangeAuditEntry boostStepEntry(const QString &action, const Boost &was, const Boost &now,
                                              const QString &before, const QString &after,
                                              const QString &note);
// boost.fail: a step that failed, to be retried at `retryAt`.
[[nodiscard]] ChangeAuditEntry boostFailureEntry(const Boost &was, const QString &reason, qint64 retryAt);

// boost.grant of `granted` (as stored, with its id): no before, the grant's summary
// (BoostLedger::summary) after, the boost's note.
[[nodiscard]] ChangeAuditEntry boostGrantEntry(const Boost &granted);
// boost.revoke at `at` and boost.extend, from `was` to `now`: before is what the boost
// was ("boost 7: active until T"), after what it is now; `note`: the reason given.
[[nodiscard]] ChangeAuditEntry boostRevokeEntry(const Boost &was, const Boost &now, qint64 at,
                                                const QString &note);
[[nodiscard]] ChangeAuditEntry boostExtendEntry(const Boost &was, const Boost &now, const QString &note);

} // namespace changeaudit

// The sink of a tool that writes the audit log itself (the CLI, the controller, a
// reconcile): each entry by `actor` into the log of `store`, on its connection, so an
// append inside the caller's transaction commits (or not) with it.
class AuditLogSink final : public ChangeAuditSink {
public:
    AuditLogSink(UsageStore &store, QString actor);
    [[nodiscard]] Result<void> append(const ChangeAuditEntry &entry) override;

private:
    UsageStore &m_store;
    QString m_actor;
};

} // namespace gq
