#pragma once

#include "core/usage/auditanchor.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

// The audit chain's value types: what an entry is and what a verification found.
// No database here (AuditLog, in auditlog.h, reads and writes them), so the console's
// models and pages can show entries without seeing the store.

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

} // namespace gq
