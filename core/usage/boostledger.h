#pragma once

#include "core/usage/boosts.h"
#include "core/domain/clock.h"
#include "core/domain/result.h"

#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace gq {

class ChangeAuditSink;
struct ChangeAuditEntry;
class UsageStore;

// The audited changes people make to boosts: grant, revoke, extend, each recorded with
// its audit entry in one transaction, so a boost never exists without its "why". The
// entries are the one audit policy's (changeaudit.h), appended through a ChangeAuditSink
// like every other audited write: a grant from the console, the CLI or the controller's
// self-service gives the same entry apart from actor and time. Only
// the database is touched; the cluster follows through BoostReconciler
// (services/boosts/boostreconciler.h). Errors name the field the way the CLI spells the flag
// ("note", "until", "id", ...), Invalid for bad values and NotFound for an unknown id.
class BoostLedger {
public:
    // The shortest note accepted, in characters (after trimming).
    static constexpr int kMinNoteLength = kBoostMinNoteLength;

    explicit BoostLedger(UsageStore &store, const Clock &clock = Clock::system());
    ~BoostLedger();
    Q_DISABLE_COPY_MOVE(BoostLedger)

    // Where the entries go. Default (null): the store's audit log under the change's
    // actor (the boost's, or the one given), inside the change's transaction. Another
    // sink names its own actor; an error it returns rolls the change back.
    void setAuditSink(std::shared_ptr<ChangeAuditSink> sink) { m_auditSink = std::move(sink); }

    // Stores `boost` as scheduled (createdAt = now) with a boost.grant entry by its actor.
    Result<Boost> grant(Boost boost);
    // Ends a boost early. Not started: revoked at once. Applied (or failed): its expiry
    // becomes now, so the next reconcile takes the delta back and ends it as revoked.
    // A boost being applied or reverted by a reconcile right now is refused (Conflict).
    Result<Boost> revoke(qint64 id, const QString &note, const QString &actor);
    // Moves the end of a scheduled, active or failed boost to `newExpiry` (after now and
    // after its start). Recurring boosts end by their --recur-until and are refused.
    Result<Boost> extend(qint64 id, qint64 newExpiry, const QString &note, const QString &actor);

    struct Filter {
        QString ns;                        // quota boosts of this namespace and its budget
        std::optional<Boost::State> state; // only this state
    };
    [[nodiscard]] Result<QList<Boost>> list(const Filter &filter) const;
    [[nodiscard]] Result<Boost> find(qint64 id) const;

    [[nodiscard]] static Result<void> checkNote(const QString &note);
    // The audit target of a boost: "NS/ResourceQuota/QUOTA/RESOURCE" or "budget/user/U".
    [[nodiscard]] static QString auditTarget(const BoostTarget &target);
    // One line of JSON describing the grant (the grant entry's "after").
    [[nodiscard]] static QString summary(const Boost &boost);

private:
    // Edits the boost and appends entryFor(what it was, what it is now), in one transaction.
    Result<Boost> change(qint64 id, const QString &note, const QString &actor,
                         const std::function<Result<Boost>(const Boost &)> &edit,
                         const std::function<ChangeAuditEntry(const Boost &, const Boost &)> &entryFor);
    [[nodiscard]] Result<void> audit(const ChangeAuditEntry &entry, const QString &actor);

    UsageStore &m_store;
    const Clock &m_clock;
    std::shared_ptr<ChangeAuditSink> m_auditSink;
};

} // namespace gq
