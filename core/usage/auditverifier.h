#pragma once

#include "core/usage/auditlog.h"

namespace gq {

// Walks an audit chain one entry at a time, in seq order, and says where it stops
// matching itself, its MACs (with a key) and its anchors. Pure: AuditLog feeds it from
// the table, tests from lists.
class AuditChainVerifier {
public:
    AuditChainVerifier(const std::optional<AuditKey> &key, const AuditAnchor &anchor);

    // False once the chain is found broken: feeding more changes nothing.
    bool add(const AuditEntry &e);
    [[nodiscard]] AuditChainReport finish();

private:
    bool fail(AuditChainReport::Status status, qint64 seq, const QString &problem);
    void checkAnchor(const AuditEntry &e, qint64 count, const QString &hash, const QString &what);

    const std::optional<AuditKey> &m_key;
    AuditAnchor m_anchor;
    AuditChainReport m_report;
    QString m_prev;
    qint64 m_expected = 1;
    qint64 m_mustBeKeyedFrom = 0; // from a verified checkpoint
};

} // namespace gq
