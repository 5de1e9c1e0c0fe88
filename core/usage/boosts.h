#pragma once

#include "core/usage/budget.h"
#include "core/domain/result.h"

#include <QList>
#include <QString>
#include <QVariantList>

#include <optional>
#include <utility>

namespace gq {

class UsageConnection;

// What a boost raises: a user's or namespace's GPU-hour budget, one entry of a
// namespace's ResourceQuota, or a Kueue ClusterQueue flavor's nominalQuota or
// borrowingLimit of one resource. Stored as text, and built and read only here:
//   budget/user/<name>                        budget/namespace/<name>
//   quota/<namespace>/<quota name>/<resource>   (the resource may contain '/')
//   clusterqueue/<queue>/<flavor>/<nominalQuota|borrowingLimit>/<resource>
struct BoostTarget {
    enum class Kind { Budget, Quota, ClusterQueue };
    Kind kind = Kind::Budget;
    // Budget: whose budget. Quota: always Namespace (a ResourceQuota lives in one).
    BudgetScope scope = BudgetScope::User;
    // Budget: the user or namespace. Quota: the namespace. ClusterQueue: the queue.
    QString subject;
    // Quota: the ResourceQuota's name and the entry raised ("requests.nvidia.com/gpu").
    // ClusterQueue: the flavor's name and the resource ("nvidia.com/gpu").
    QString quota;
    QString resource;
    // ClusterQueue only: "nominalQuota" or "borrowingLimit".
    QString field;

    [[nodiscard]] static BoostTarget budget(BudgetScope scope, const QString &subject);
    [[nodiscard]] static BoostTarget quotaEntry(const QString &ns, const QString &quota,
                                                const QString &resource);
    [[nodiscard]] static BoostTarget queueEntry(const QString &clusterQueue, const QString &flavor,
                                                const QString &field, const QString &resource);
    // Whether the boost changes an object on the cluster (a quota or a queue), not a budget.
    [[nodiscard]] bool onCluster() const { return kind != Kind::Budget; }
    // The stored form (above); what the database's boosts.target holds.
    [[nodiscard]] QString toString() const;
    // The inverse of toString(). Errors: Invalid with field "target".
    [[nodiscard]] static Result<BoostTarget> parse(const QString &text);
    // Whether toString() would give a target parse() reads back as this one.
    [[nodiscard]] Result<void> validate() const;
    friend bool operator==(const BoostTarget &, const BoostTarget &) = default;
};

// When a boost recurs: on the nights of every day, on weekends or on weekdays, the
// window HH:MM-HH:MM local to a zone (an end at or before the start is on the next
// day; equal ends give a whole day), until an instant. Occurrences are computed in the
// zone, so a window keeps its wall-clock times across a DST change (a night then lasts
// an hour more or less).
struct BoostRecurrence {
    enum class Kind { None, Nightly, Weekends, Weekdays };
    Kind kind = Kind::None;
    int startMinute = 0; // minutes after local midnight
    int endMinute = 0;
    QString tz;       // IANA zone id
    qint64 until = 0; // no occurrence starts at or after this instant

    [[nodiscard]] bool recurs() const { return kind != Kind::None; }
    [[nodiscard]] QString window() const; // "20:00-08:00"
    // Parses "nightly|weekends|weekdays", "HH:MM-HH:MM" and the zone. Errors are
    // Invalid with field "recur", "window" or "tz".
    [[nodiscard]] static Result<BoostRecurrence> make(const QString &kind, const QString &window,
                                                      const QString &tz, qint64 until);
    // The first occurrence [start, end) that ends after `after` and starts before
    // `until` (clipped to start no earlier than `notBefore`); nullopt when none is left.
    [[nodiscard]] std::optional<std::pair<qint64, qint64>> nextOccurrence(qint64 after,
                                                                          qint64 notBefore = 0) const;
    // The occurrence that is right at `now` for a boost whose last window ended at
    // `after`: the first one ending after both (it has begun when its start <= now);
    // nullopt when none is left. `missed` counts the windows that began and ended in
    // between (after `after`, by `now`): those no reconcile ran for.
    [[nodiscard]] std::optional<std::pair<qint64, qint64>> occurrenceAt(qint64 now, qint64 after,
                                                                        int *missed = nullptr) const;
    friend bool operator==(const BoostRecurrence &, const BoostRecurrence &) = default;
};
[[nodiscard]] QString recurrenceKindName(BoostRecurrence::Kind kind); // "", "nightly", ...

// A time-bound increase of a quota or budget, recorded before it is applied.
//
// Lifecycle (the state column):
//   scheduled -> applying -> active -> reverting -> expired      (a recurring boost goes
//   back to scheduled for its next window instead of expired), or revoked (taken back
//   early, or never started), or failed (reason, nextRetry; retryOp says whether the
//   retry applies or reverts); an active quota boost whose end moved carries retryOp
//   kAnnotateOp until its annotation on the quota shows the new end. applying /
//   reverting are claims: the row names the process working on it (claimOwner) until
//   claimUntil (wall clock), so a crashed claim is taken over by the next reconcile.
// Budget targets (delta in GPU-hours) count towards the budget while live (scheduled
// ... reverting) and start <= t < expiry (revoking sets expiry to the revoke instant);
// quota targets (delta a Quantity) change the cluster only through the reconciler.
struct Boost {
    enum class State { Scheduled, Applying, Active, Reverting, Expired, Revoked, Failed };
    qint64 id = 0;
    BoostTarget target;
    QString delta;     // "+4" is stored as "4"; quota: a Quantity, budget: GPU-hours
    QString setValue;  // the value asked for with --set ("" when granted by a delta)
    QString baseValue; // the target's value at grant time ("" when unknown)
    qint64 start = 0;  // the current (or only) window
    qint64 expiry = 0;
    QString note;
    QString actor;
    State state = State::Scheduled;
    BoostRecurrence recurrence;
    qint64 createdAt = 0;
    qint64 revokedAt = 0; // 0: not revoked
    QString reason;       // why the last attempt failed
    qint64 nextRetry = 0;
    int attempts = 0;
    QString retryOp; // failed: "apply" or "revert"; active: kAnnotateOp or ""
    // An active quota boost whose end changed (extend): the quota's gpuquota.io/boosts
    // annotation still shows the old one until a reconcile rewrites it.
    static constexpr const char *kAnnotateOp = "annotate";
    QString claimOwner;
    qint64 claimUntil = 0;

    [[nodiscard]] bool isFinal() const { return state == State::Expired || state == State::Revoked; }
    friend bool operator==(const Boost &, const Boost &) = default;
};
[[nodiscard]] QString boostStateName(Boost::State s);
[[nodiscard]] Result<Boost::State> parseBoostState(const QString &text);

// The boosts table (see UsageStore's boost methods and BoostLedger for the audited
// grant / revoke / extend).
class BoostStore {
public:
    explicit BoostStore(UsageConnection &conn)
        : m_conn(conn) {}
    Q_DISABLE_COPY_MOVE(BoostStore)

    Result<Boost> add(const Boost &boost);
    [[nodiscard]] Result<QList<Boost>> all() const;
    [[nodiscard]] Result<std::optional<Boost>> find(qint64 id) const;
    // Boosts with work at `now`: scheduled and started, active and ended (or with an
    // annotation to rewrite), failed and due for a retry, or claimed (applying/reverting)
    // with a claim that may be stale.
    [[nodiscard]] Result<QList<Boost>> due(qint64 now) const;
    // The annotation of an active boost was rewritten for `expiry`: clears its mark,
    // unless the boost changed meanwhile (another extend: its mark stays). True if cleared.
    Result<bool> clearAnnotateMark(qint64 id, qint64 expiry);
    Result<bool> setState(qint64 id, Boost::State state);
    // Writes every mutable column of `b` if the row is still in `expectState` with
    // `expectOwner` as claim owner: the compare-and-set behind every transition, so of
    // two processes trying the same transition exactly one gets true.
    Result<bool> update(const Boost &b, Boost::State expectState, const QString &expectOwner);
    [[nodiscard]] Result<double> activeBudgetBoost(BudgetScope scope, const QString &subject,
                                                   qint64 now) const;

private:
    [[nodiscard]] Result<QList<Boost>> select(const QString &where, const QVariantList &binds) const;
    UsageConnection &m_conn;
};

// The shortest note a boost change accepts, in characters (after trimming): every
// grant, revoke and extend says why (BoostLedger, and the console's dialogs before they
// send anything).
inline constexpr int kBoostMinNoteLength = 10;
// Invalid (field "note") when `note` is shorter than kBoostMinNoteLength.
[[nodiscard]] Result<void> checkBoostNote(const QString &note);

} // namespace gq
