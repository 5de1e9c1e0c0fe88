#pragma once

#include "core/usage/auditanchor.h"
#include "core/usage/auditentry.h"
#include "core/domain/clock.h"
#include "core/domain/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

class UsageConnection;
class UsageStore;

// The audit trail on a usage database connection (a UsageStore's, so the same
// database and the same thread as the store — see UsageStore). The database refuses UPDATE and DELETE on
// audit_log with a trigger (PostgreSQL) / RAISE(ABORT) (SQLite); appends are
// serialised by a table lock so two writers cannot fork the chain.
//
// Signing: with a key every appended entry gets a MAC, and with a checkpoint path every
// append replaces the checkpoint file by a signed one for the new head. The two
// constructors without an AuditSigning take it from the environment
// (AuditSigning::fromEnvironment); if that fails, append() reports why.
class AuditLog {
public:
    explicit AuditLog(UsageConnection &conn, const Clock &clock = Clock::system());
    // On the store's connection.
    explicit AuditLog(UsageStore &store, const Clock &clock = Clock::system());
    AuditLog(UsageConnection &conn, AuditSigning signing, const Clock &clock = Clock::system());
    AuditLog(UsageStore &store, AuditSigning signing, const Clock &clock = Clock::system());

    [[nodiscard]] bool hasKey() const { return m_signing.key.has_value(); }

    // Appends and returns the stored entry (seq, at, prevHash, hash, mac filled in). An
    // Io error after the entry was committed says so: only the checkpoint is behind.
    // Inside a caller's transaction the checkpoint is written when that one commits, and
    // that commit returns the error.
    Result<AuditEntry> append(const QString &actor, const QString &action, const QString &target,
                              const QString &before, const QString &after, const QString &note);

    struct Filter {
        QString target;   // exact match when set
        QString actor;    // exact match when set
        qint64 since = 0; // at >= since (epoch seconds) when > 0
        qint64 until = 0; // at < until when > 0
        int limit = 1000; // newest first
        // Added later: the `{}` keeps `Filter{target, actor, since, until, limit}` warning-free.
        QString action{};        // exact match when set
        QString namespaceName{}; // targets "NAMESPACE/..." when set
    };
    [[nodiscard]] Result<QList<AuditEntry>> list(const Filter &filter) const;
    [[nodiscard]] Result<QList<AuditEntry>> list() const { return list(Filter{}); }

    // The current head (count 0 for an empty log).
    [[nodiscard]] Result<AuditHead> head() const;
    // A checkpoint of the current head, signed when there is a key.
    [[nodiscard]] Result<AuditCheckpoint> checkpoint() const;

    // Recomputes every hash in seq order; detects edited, deleted and re-ordered rows,
    // with the key rewritten ones too, and against an anchor deleted last entries.
    [[nodiscard]] Result<AuditChainReport> verifyChain() const { return verifyChain(AuditAnchor{}); }
    [[nodiscard]] Result<AuditChainReport> verifyChain(const AuditAnchor &anchor) const;

private:
    [[nodiscard]] Result<qint64> firstKeyedSeq() const;
    // Runs after the commit that made `appended` durable (see UsageConnection::afterCommit).
    static Result<void> updateCheckpoint(UsageConnection &conn, const AuditSigning &signing,
                                         const AuditEntry &appended, qint64 at);

    UsageConnection &m_conn;
    const Clock &m_clock;
    AuditSigning m_signing;
    std::optional<Error> m_signingError;
};

} // namespace gq
