#pragma once

#include "core/domain/clock.h"
#include "core/usage/newcomer.h"
#include "core/domain/result.h"

#include <QList>
#include <QString>

namespace gq {

class UsageConnection;
class UsageStore;

// Schema v9: the newcomers table (one allowance per user, ever) and the change
// notification of it and of store_settings, where the policy lives. Self-contained:
// runs inside migrateUsageSchema's transaction, both dialects; renumber freely.
Result<void> migrateNewcomersToV9(UsageConnection &conn);

// The policy and the user's allowance at `now`, as the budget decisions read them (the
// admission check, BudgetStore::status). No allowance for an empty user. A user not yet
// in the newcomers table, with no interval before the moment the policy was set, is a
// newcomer already (provisional): from their first interval, or from `now` when they have
// none, so their first job is judged under the allowance without waiting for the sweep,
// which records them and audits the start once.
[[nodiscard]] Result<NewcomerTerms> readNewcomerTerms(const UsageConnection &conn, const QString &user,
                                                      qint64 now);

// The store side of the newcomer allowance (issue #30). One policy per database, for
// every user budget (store_settings "newcomer_policy", e.g. "7d:x3"; `gpuquota budget
// newcomer policy`). A user is a newcomer when their first recorded interval starts at
// or after the moment the policy was set (sweep()), or when an admin adds them (add());
// the allowance covers their first N calendar days in the database's rollup zone
// (newcomerEnd), and an admin can end it early (end()). Every start and end is audited
// exactly once ("budget.newcomer.start" / ".end" on "budget/user/U"), also when several
// controller replicas sweep the same PostgreSQL database: the audit entry is written in
// the transaction that flips the row's audited flag, and only the one replica whose
// UPDATE changed the row writes it.
class NewcomerLedger {
public:
    explicit NewcomerLedger(UsageStore &store, const Clock &clock = Clock::system());
    Q_DISABLE_COPY_MOVE(NewcomerLedger)

    [[nodiscard]] Result<NewcomerPolicy> policy() const;
    // Audited ("budget.newcomer.policy"); users first seen from now on are newcomers.
    Result<void> setPolicy(const NewcomerPolicy &policy, const QString &actor, const QString &note);

    // An allowance from now for `user` (Conflict when they have had one; Invalid when no
    // policy is set); its start is audited in the same transaction.
    Result<NewcomerAllowance> add(const QString &user, const QString &actor, const QString &note);
    // Ends the allowance in force now (NotFound when none is), audited with the note
    // (the note rule of boosts).
    Result<NewcomerAllowance> end(const QString &user, const QString &actor, const QString &note);

    struct SweepReport {
        int added = 0;   // users first seen since the last sweep
        int started = 0; // start entries this call wrote
        int ended = 0;   // end entries this call wrote
    };
    // The controller's pass: new users from their first intervals, then the audit of
    // starts and ends due by now that no one has written yet.
    Result<SweepReport> sweep(const QString &actor = QStringLiteral("controller"));

    // Every allowance, newest first.
    [[nodiscard]] Result<QList<NewcomerAllowance>> list() const;

    [[nodiscard]] static QString auditTarget(const QString &user) {
        return QStringLiteral("budget/user/") + user;
    }

private:
    Result<bool> insert(const NewcomerAllowance &a) const;
    Result<int> addFirstSeen(const NewcomerPolicy &policy, qint64 policySince, qint64 now) const;
    // Flips start_audited/end_audited of the row and, when this call flipped it, appends
    // the entry; one transaction. True when written here.
    Result<bool> auditOnce(const NewcomerAllowance &a, bool start, const QString &actor, const QString &note);

    UsageStore &m_store;
    const Clock &m_clock;
};

} // namespace gq
