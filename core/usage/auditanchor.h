#pragma once

#include "core/domain/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace gq {

// What anchors the audit chain outside its table (see README, "What the audit chain
// proves"): a secret key the database does not hold, which signs every entry and every
// checkpoint, and checkpoints (entry count + head hash) kept where the database's writer
// cannot silently rewrite them.

// The HMAC-SHA256 key. Read from a file (GQ_AUDIT_KEY_FILE today; the keychain or a
// Kubernetes Secret mounted as a file for the controller). Never printed or logged:
// id() names it without revealing it.
class AuditKey {
public:
    // The file's bytes with surrounding whitespace removed (so `openssl rand -hex 32 >
    // key` and a raw 32-byte file both work); at least 16 bytes. Errors: Io, Config.
    [[nodiscard]] static Result<AuditKey> fromFile(const QString &path);
    [[nodiscard]] static Result<AuditKey> fromSecret(const QByteArray &secret);

    // HMAC-SHA256 of `message`, lower-case hex.
    [[nodiscard]] QString mac(const QByteArray &message) const;
    // 16 hex digits derived from the key (itself a MAC), to tell "different key" from
    // "altered" without exposing the key.
    [[nodiscard]] QString id() const;

private:
    explicit AuditKey(QByteArray secret)
        : m_secret(std::move(secret)) {}
    QByteArray m_secret;
};

// How an AuditLog signs and anchors what it appends.
struct AuditSigning {
    std::optional<AuditKey> key; // none: plain SHA-256 chain, rewrites are not detectable
    QString checkpointPath;      // empty: no checkpoint file is written

    // GQ_AUDIT_KEY_FILE and GQ_AUDIT_CHECKPOINT; unset gives an unsigned log without a
    // checkpoint. A set but unreadable key file is an error: the caller must not fall
    // back to unsigned entries silently.
    [[nodiscard]] static Result<AuditSigning> fromEnvironment();
};

// The chain's head: how many entries it has and the hash of the last one. Published
// with each change (the `gpuquota.io/audit-head` annotation) as "COUNT:HASH".
struct AuditHead {
    qint64 count = 0;
    QString hash; // empty when count is 0

    [[nodiscard]] QString toText() const;
    [[nodiscard]] static Result<AuditHead> parse(const QString &text);
};

inline constexpr const char *kAuditHeadAnnotation = "gpuquota.io/audit-head";

// `object` (a Kubernetes object as JSON) with the kAuditHeadAnnotation set to `head`,
// so `kubectl get -o yaml` shows how far the audit log went when we last wrote it and
// `gpuquota audit verify --head COUNT:HASH` can check the log still holds that. An
// empty head (count 0) leaves the object as it is. QuotaWriter::Request::auditHead
// puts it on every write it makes (services/quotas/quotawriter.h).
[[nodiscard]] QJsonObject withAuditHead(QJsonObject object, const AuditHead &head);
// The head published on `object`; nullopt when it has none (or not a valid one).
[[nodiscard]] std::optional<AuditHead> auditHeadOf(const QJsonObject &object);

// A signed statement "the chain had `count` entries ending in `head` at `at`", kept
// outside the database. `keyedFrom` is the first entry that carries a MAC (0: none),
// so stripping MACs from later entries shows.
struct AuditCheckpoint {
    qint64 count = 0;
    QString head;
    qint64 keyedFrom = 0;
    qint64 at = 0;  // epoch seconds
    QString keyId;  // AuditKey::id() of the signer, empty when unsigned
    QString mac;    // HMAC over canonical(), empty when unsigned
    QString source; // the database it was taken from (informational, not signed)

    [[nodiscard]] QByteArray canonical() const;
    void sign(const AuditKey &key);
    [[nodiscard]] bool isSigned() const { return !mac.isEmpty(); }
    // Empty when the signature holds; otherwise why not ("signed with another key", ...).
    [[nodiscard]] QString checkSignature(const AuditKey &key) const;

    [[nodiscard]] QByteArray toJson() const;
    [[nodiscard]] static Result<AuditCheckpoint> fromJson(const QByteArray &json, const QString &origin);
    // Errors: Io (a missing file too), Parse.
    [[nodiscard]] static Result<AuditCheckpoint> readFile(const QString &path);
    // Atomically replaces `path` under a lock file. With `neverBackwards`, a file that
    // already records as many entries or more is kept (a concurrent writer got there
    // first; a checkpoint never moves backwards).
    static Result<void> writeFile(const QString &path, const AuditCheckpoint &cp, bool neverBackwards = true);
};

} // namespace gq
