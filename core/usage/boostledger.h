#pragma once

#include "core/usage/boosts.h"
#include "core/domain/clock.h"
#include "core/domain/result.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace gq {

class UsageStore;

// The audited changes people make to boosts: grant, revoke, extend, each recorded with
// its audit entry in one transaction, so a boost never exists without its "why". Only
// the database is touched; the cluster follows through BoostReconciler
// (services/boosts/boostreconciler.h). Errors name the field the way the CLI spells the flag
// ("note", "until", "id", ...), Invalid for bad values and NotFound for an unknown id.
class BoostLedger {
public:
    // The shortest note accepted, in characters (after trimming).
    static constexpr int kMinNoteLength = kBoostMinNoteLength;

    explicit BoostLedger(UsageStore &store, const Clock &clock = Clock::system());
    Q_DISABLE_COPY_MOVE(BoostLedger)

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
    // The audit entry's before is what the boost was ("boost 7: active until T"), its
    // after describeAfter(the edited boost).
    Result<Boost> change(qint64 id, const QString &note, const QString &actor, const QString &action,
                         const std::function<Result<Boost>(const Boost &)> &edit,
                         const std::function<QString(const Boost &)> &describeAfter);

    UsageStore &m_store;
    const Clock &m_clock;
};

} // namespace gq
