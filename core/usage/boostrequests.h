#pragma once

#include "core/usage/boosts.h"
#include "core/usage/budget.h"
#include "core/domain/clock.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace gq {

class UsageConnection;
class UsageStore;

// A user's request for more GPU-hours on a budget (their own, or a namespace's), which
// an admin approves (a budget boost is granted through BoostLedger::grant, the same path
// as `gpuquota boost grant`) or denies. The requester is the name the cluster's
// TokenReview gave (the controller's POST /quota/boost-requests) and nobody approves
// their own request. A pending request whose end has passed is expired by the next list
// or decision; the requester may withdraw a pending one.
struct BoostRequest {
    enum class State { Pending, Approved, Denied, Expired, Withdrawn };
    qint64 id = 0;
    QString requester; // the TokenReview username
    BudgetScope scope = BudgetScope::User;
    QString subject;
    double hours = 0; // extra GPU-hours asked for
    qint64 until = 0; // the boost would last from the decision until then
    QString note;     // why (the note rule of grants)
    qint64 createdAt = 0;
    State state = State::Pending;
    QString decidedBy;
    QString decisionNote;
    qint64 decidedAt = 0;
    qint64 boostId = 0; // approved: the granted boost
};

[[nodiscard]] QString boostRequestStateName(BoostRequest::State s);
[[nodiscard]] Result<BoostRequest::State> parseBoostRequestState(const QString &text);
// The request as the controller's /quota/boost-requests and `gpuquota boost requests -o
// json` print it: id, state, requester, budget ("user:alice"), hours, until, note,
// created, and once decided decided_by, decision_note, decided, boost_id.
[[nodiscard]] QJsonObject boostRequestJson(const BoostRequest &r);

// Schema v8: the boost_requests table. Self-contained (runs inside
// migrateUsageSchema's transaction, both dialects).
Result<void> migrateBoostRequestsToV8(UsageConnection &conn);

// The audited lifecycle of requests; each change is one transaction with its audit entry
// (boost.request, boost.request.approve / .deny / .withdraw / .expire). Errors name the
// CLI's flag ("note", "add-hours", "until", "id"); Forbidden for self-approval.
class BoostRequestLedger {
public:
    explicit BoostRequestLedger(UsageStore &store, const Clock &clock = Clock::system());
    Q_DISABLE_COPY_MOVE(BoostRequestLedger)

    // Stores a pending request (id, state and createdAt are set here).
    Result<BoostRequest> submit(BoostRequest request);

    // The boost an approval grants: the request's hours from now until its end, or the
    // admin's changes (hours > 0, until > 0), noted and acted by the admin.
    struct Decision {
        QString actor;
        QString note;
        double hours = 0; // 0: as asked
        qint64 until = 0; // 0: as asked
    };
    // Approves a pending request: grants the boost and records both in one transaction.
    Result<BoostRequest> approve(qint64 id, const Decision &decision);
    Result<BoostRequest> deny(qint64 id, const QString &note, const QString &actor);
    // Only the requester withdraws (Forbidden for anyone else).
    Result<BoostRequest> withdraw(qint64 id, const QString &note, const QString &requester);
    // Pending requests whose end has passed become expired (audited); how many.
    Result<int> expireDue();

    struct Filter {
        std::optional<BoostRequest::State> state;
        QString requester; // exact when set
    };
    // Pending first, then newest first (expires due requests before reading).
    [[nodiscard]] Result<QList<BoostRequest>> list(const Filter &filter);
    [[nodiscard]] Result<BoostRequest> find(qint64 id) const;
    // Approved and denied requests decided in (from, to], oldest first; reads only (the
    // controller's alerts tell each requester of the decision).
    [[nodiscard]] Result<QList<BoostRequest>> decidedBetween(qint64 from, qint64 to) const;

    // The audit target of a request: "budget/user/U" like its boost's.
    [[nodiscard]] static QString auditTarget(const BoostRequest &r);
    // One line of JSON: the request (the audit entry's "after").
    [[nodiscard]] static QString summary(const BoostRequest &r);

private:
    Result<BoostRequest> decide(qint64 id, BoostRequest::State to, const QString &action, const QString &note,
                                const QString &actor, const Decision *approval);
    Result<void> store(const BoostRequest &r, BoostRequest::State from);

    UsageStore &m_store;
    const Clock &m_clock;
};

} // namespace gq
