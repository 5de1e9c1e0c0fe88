#pragma once

#include "auditanchor.h"
#include "clock.h"
#include "result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

class UsageConnection;
class UsageStore;

// One append-only audit record: when, who, what, before -> after, why. `hash` is
// sha256(prevHash || canonical content) in lower-case hex, so editing or deleting a
// row breaks the chain from that row on. The first row's prevHash is 64 zeros. The hash
// alone proves nothing against someone who can write the table (they recompute it);
// `mac` (HMAC-SHA256 of the hash under a key the database does not hold) does, and
// checkpoints outside the database catch deleted last entries (see auditanchor.h).
struct AuditEntry {
    qint64 seq = 0; // 1, 2, 3... assigned by the database
    qint64 at = 0;  // epoch seconds
    QString actor;  // who: "alice@example.com", "controller"
    QString action; // "quota.apply", "boost.grant", "boost.revert", "budget.set", ...
    QString target; // "team-a/ResourceQuota/gpu-quota", "budget/user/alice"
    QString before; // text (YAML, JSON or a value) as it was; empty for a create
    QString after;  // as it is now; empty for a delete
    QString note;   // why
    QString prevHash;
    QString hash;
    QString mac; // empty when written without a key

    // The exact bytes hashed for this entry (length-prefixed fields, so no separator
    // inside a value can make two different entries hash alike).
    [[nodiscard]] QByteArray canonicalContent() const;
    [[nodiscard]] QString computeHash() const; // from prevHash and canonicalContent()
    // Over `hash`, which already commits to this entry and every one before it.
    [[nodiscard]] QString computeMac(const AuditKey &key) const;
    friend bool operator==(const AuditEntry &, const AuditEntry &) = default;
};

// What a verification is checked against besides the table itself: a checkpoint file
// and/or a head published elsewhere (the gpuquota.io/audit-head annotation).
struct AuditAnchor {
    std::optional<AuditCheckpoint> checkpoint;
    std::optional<AuditHead> head;
};

// Result of walking the chain from the first row.
struct AuditChainReport {
    enum class Status {
        Intact,
        Rewritten, // an entry's content, hash, link or MAC does not match
        Deleted,   // a gap: entries missing between two that are there
        Truncated, // the anchor records more entries than the table holds
        BadAnchor, // the checkpoint itself is unsigned, altered or signed by another key
    };
    bool ok = true;
    qint64 checked = 0; // rows walked
    // The first row that no longer matches (when truncated, the first missing one); 0 if ok.
    qint64 firstBadSeq = 0;
    QString problem; // "entry 7: content changed: ...", "entry 5 missing ...", ...
    Status status = Status::Intact;
    qint64 firstMissingSeq = 0; // Deleted, Truncated: the first id that is gone
    AuditHead head;             // of the rows walked
    bool macsChecked = false;   // a key was given
    qint64 keyedFrom = 0;       // first entry carrying a MAC, 0 if none
    qint64 anchoredUpTo = 0;    // entries the checkpoint / head given cover
    QStringList notes;          // what this verification could not prove, and why
};
[[nodiscard]] QString statusName(AuditChainReport::Status status);

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
