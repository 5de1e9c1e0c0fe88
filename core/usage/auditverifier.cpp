#include "core/usage/auditverifier.h"

#include "core/usage/timewindow.h"

namespace gq {

namespace {

QString shortHash(const QString &h) {
    return h.left(12);
}

QString checkpointName(const AuditCheckpoint &cp) {
    return QStringLiteral("the checkpoint of %1").arg(formatInstantUtc(cp.at));
}

} // namespace

QString statusName(AuditChainReport::Status status) {
    switch (status) {
    case AuditChainReport::Status::Intact: return QStringLiteral("intact");
    case AuditChainReport::Status::Rewritten: return QStringLiteral("rewritten");
    case AuditChainReport::Status::Deleted: return QStringLiteral("deleted");
    case AuditChainReport::Status::Truncated: return QStringLiteral("truncated");
    case AuditChainReport::Status::BadAnchor: return QStringLiteral("bad-anchor");
    }
    return {};
}

AuditChainVerifier::AuditChainVerifier(const std::optional<AuditKey> &key, const AuditAnchor &anchor)
    : m_key(key)
    , m_anchor(anchor)
    , m_prev(64, QLatin1Char('0')) {
    m_report.macsChecked = key.has_value();
    if (const auto &cp = m_anchor.checkpoint) {
        m_report.anchoredUpTo = cp->count;
        if (m_key) {
            // Without a valid signature the checkpoint is just a file anyone could write.
            if (const QString why = cp->checkSignature(*m_key); !why.isEmpty()) {
                fail(AuditChainReport::Status::BadAnchor, 0, why);
                return;
            }
            m_mustBeKeyedFrom = cp->keyedFrom;
        } else {
            m_report.notes << (cp->isSigned()
                                   ? QStringLiteral(
                                         "the checkpoint's signature was not checked (no key given)")
                                   : QStringLiteral("the checkpoint is not signed: whoever can write it "
                                                    "can make it match a truncated table"));
        }
    }
    if (m_anchor.head)
        m_report.anchoredUpTo = std::max(m_report.anchoredUpTo, m_anchor.head->count);
}

bool AuditChainVerifier::fail(AuditChainReport::Status status, qint64 seq, const QString &problem) {
    m_report.ok = false;
    m_report.status = status;
    m_report.firstBadSeq = seq;
    m_report.problem = problem;
    return false;
}

void AuditChainVerifier::checkAnchor(const AuditEntry &e, qint64 count, const QString &hash,
                                     const QString &what) {
    if (m_report.ok && e.seq == count && e.hash != hash)
        fail(AuditChainReport::Status::Rewritten, e.seq,
             QStringLiteral("entry %1: its hash %2… differs from %3's head %4…: entry %1 or one before it "
                            "was rewritten")
                 .arg(e.seq)
                 .arg(shortHash(e.hash), what, shortHash(hash)));
}

bool AuditChainVerifier::add(const AuditEntry &e) {
    using S = AuditChainReport::Status;
    if (!m_report.ok)
        return false;
    ++m_report.checked;
    if (e.seq != m_expected) {
        m_report.firstMissingSeq = m_expected;
        const QString gone = e.seq == m_expected + 1
                                 ? QStringLiteral("entry %1 is").arg(m_expected)
                                 : QStringLiteral("entries %1-%2 are").arg(m_expected).arg(e.seq - 1);
        return fail(S::Deleted, e.seq,
                    QStringLiteral("%1 missing (deleted; the next entry is %2)").arg(gone).arg(e.seq));
    }
    if (e.prevHash != m_prev)
        return fail(S::Rewritten, e.seq,
                    QStringLiteral("entry %1: its link to the previous entry is broken (prev_hash %2…, entry "
                                   "%3's hash is %4…)")
                        .arg(e.seq)
                        .arg(shortHash(e.prevHash))
                        .arg(e.seq - 1)
                        .arg(shortHash(m_prev)));
    if (const QString computed = e.computeHash(); computed != e.hash)
        return fail(S::Rewritten, e.seq,
                    QStringLiteral("entry %1: content changed (it hashes to %2…, the stored hash is %3…)")
                        .arg(e.seq)
                        .arg(shortHash(computed), shortHash(e.hash)));
    if (m_key) {
        if (e.mac.isEmpty()) {
            const qint64 keyedFrom = m_mustBeKeyedFrom > 0 ? m_mustBeKeyedFrom : m_report.keyedFrom;
            if (keyedFrom > 0 && e.seq >= keyedFrom)
                return fail(S::Rewritten, e.seq,
                            QStringLiteral("entry %1: its MAC was removed (entries are signed from entry %2 "
                                           "on): it was rewritten without the key")
                                .arg(e.seq)
                                .arg(keyedFrom));
        } else if (e.computeMac(*m_key) != e.mac) {
            return fail(S::Rewritten, e.seq,
                        QStringLiteral("entry %1: MAC mismatch: the entry was rewritten and the hashes "
                                       "recomputed without the key (or it was signed with another key)")
                            .arg(e.seq));
        }
    }
    if (!e.mac.isEmpty() && m_report.keyedFrom == 0)
        m_report.keyedFrom = e.seq;
    if (const auto &cp = m_anchor.checkpoint)
        checkAnchor(e, cp->count, cp->head, checkpointName(*cp));
    if (const auto &h = m_anchor.head)
        checkAnchor(e, h->count, h->hash, QStringLiteral("the published head"));
    if (!m_report.ok)
        return false;
    m_prev = e.hash;
    m_report.head = AuditHead{e.seq, e.hash};
    ++m_expected;
    return true;
}

AuditChainReport AuditChainVerifier::finish() {
    using S = AuditChainReport::Status;
    if (!m_report.ok)
        return m_report;
    const qint64 last = m_expected - 1;
    auto truncated = [&](qint64 recorded, const QString &what) {
        m_report.firstMissingSeq = last + 1;
        fail(S::Truncated, last + 1,
             last == 0
                 ? QStringLiteral("all %1 entries were deleted: the table is empty, %2 records %1")
                       .arg(recorded)
                       .arg(what)
                 : QStringLiteral("entries %1-%2 were deleted: %3 records %2 entries, the table ends at "
                                  "entry %4")
                       .arg(last + 1)
                       .arg(recorded)
                       .arg(what)
                       .arg(last));
    };
    if (const auto &cp = m_anchor.checkpoint; cp && cp->count > last)
        truncated(cp->count, checkpointName(*cp));
    else if (const auto &h = m_anchor.head; h && h->count > last)
        truncated(h->count, QStringLiteral("the published head"));
    if (!m_report.ok)
        return m_report;

    if (!m_key)
        m_report.notes << QStringLiteral("no key given: an entry edited with its hash and every later hash "
                                         "recomputed is not detected");
    else if (m_report.keyedFrom == 0 && last > 0)
        m_report.notes << QStringLiteral("no entry carries a MAC: they were written without the key, or "
                                         "their MACs were stripped; only a signed checkpoint tells which");
    if (!m_anchor.checkpoint && !m_anchor.head)
        m_report.notes << QStringLiteral("no checkpoint given: deleting the last entries (or all of them) is "
                                         "not detected");
    else if (m_report.anchoredUpTo < last)
        m_report.notes << QStringLiteral("entries %1-%2 came after the anchor: deleting them would not be "
                                         "detected")
                              .arg(m_report.anchoredUpTo + 1)
                              .arg(last);
    return m_report;
}

} // namespace gq
