#pragma once

#include "core/clock.h"
#include "core/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace gq {

class UsageStore;

// One append-only audit record: when, who, what, before -> after, why. `hash` is
// sha256(prevHash || canonical content) in lower-case hex, so editing or deleting a
// row breaks the chain from that row on. The first row's prevHash is 64 zeros.
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

    // The exact bytes hashed for this entry (length-prefixed fields, so no separator
    // inside a value can make two different entries hash alike).
    [[nodiscard]] QByteArray canonicalContent() const;
    [[nodiscard]] QString computeHash() const; // from prevHash and canonicalContent()
};

// Result of walking the chain from the first row.
struct AuditChainReport {
    bool ok = true;
    qint64 checked = 0;     // rows walked
    qint64 firstBadSeq = 0; // first row whose hash or link does not match, 0 if ok
    QString problem;        // "row 7: hash mismatch (content changed)", "row 5 missing", ...
};

// The audit trail on top of a UsageStore (same database, same connection, same
// thread as the store — see UsageStore). The database refuses UPDATE and DELETE on
// audit_log with a trigger (PostgreSQL) / RAISE(ABORT) (SQLite); appends are
// serialised by a table lock so two writers cannot fork the chain.
class AuditLog {
public:
    explicit AuditLog(UsageStore &store, const Clock &clock = Clock::system());

    // Appends and returns the stored entry (seq, at, prevHash, hash filled in).
    Result<AuditEntry> append(const QString &actor, const QString &action, const QString &target,
                              const QString &before, const QString &after, const QString &note);

    struct Filter {
        QString target;   // exact match when set
        QString actor;    // exact match when set
        qint64 since = 0; // at >= since (epoch seconds) when > 0
        qint64 until = 0; // at < until when > 0
        int limit = 1000; // newest first
    };
    [[nodiscard]] Result<QList<AuditEntry>> list(const Filter &filter) const;
    [[nodiscard]] Result<QList<AuditEntry>> list() const { return list(Filter{}); }

    // Recomputes every hash in seq order; detects edited, deleted and re-ordered rows.
    [[nodiscard]] Result<AuditChainReport> verifyChain() const;

private:
    UsageStore &m_store;
    const Clock &m_clock;
};

} // namespace gq
