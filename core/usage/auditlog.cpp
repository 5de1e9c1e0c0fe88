#include "core/usage/auditlog.h"

#include "core/usage/auditverifier.h"
#include "core/usage/storeconnection.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagestore.h"

#include <QCryptographicHash>
#include <QSqlQuery>

namespace gq {

namespace {
const QString kGenesis = QString(64, QLatin1Char('0'));

void appendField(QByteArray &out, const QByteArray &value) {
    out += QByteArray::number(value.size());
    out += ':';
    out += value;
    out += ';';
}

AuditEntry entryFromRow(const QSqlQuery &q) {
    AuditEntry e;
    e.seq = q.value(0).toLongLong();
    e.at = q.value(1).toLongLong();
    e.actor = q.value(2).toString();
    e.action = q.value(3).toString();
    e.target = q.value(4).toString();
    e.before = q.value(5).toString();
    e.after = q.value(6).toString();
    e.note = q.value(7).toString();
    e.prevHash = q.value(8).toString();
    e.hash = q.value(9).toString();
    e.mac = q.value(10).toString();
    return e;
}

const char *const kColumns =
    "seq, at_s, actor, action, target, before_text, after_text, note, prev_hash, hash, mac";

Result<qint64> firstKeyedSeqOf(const UsageConnection &conn) {
    QSqlQuery q(conn.database());
    q.setForwardOnly(true);
    if (auto r =
            conn.execSql(q, QStringLiteral("SELECT seq FROM audit_log WHERE mac <> '' ORDER BY seq LIMIT 1"));
        !r)
        return r.error();
    return q.next() ? q.value(0).toLongLong() : 0;
}
} // namespace

QByteArray AuditEntry::canonicalContent() const {
    QByteArray out;
    appendField(out, QByteArray::number(seq));
    appendField(out, QByteArray::number(at));
    for (const QString *f : {&actor, &action, &target, &before, &after, &note})
        appendField(out, f->toUtf8());
    return out;
}

QString AuditEntry::computeHash() const {
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(prevHash.toLatin1());
    h.addData(canonicalContent());
    return QString::fromLatin1(h.result().toHex());
}

QString AuditEntry::computeMac(const AuditKey &key) const {
    return key.mac(QByteArrayLiteral("gpuquota audit entry v1;") + hash.toLatin1());
}

AuditLog::AuditLog(UsageConnection &conn, AuditSigning signing, const Clock &clock)
    : m_conn(conn)
    , m_clock(clock)
    , m_signing(std::move(signing)) {}

AuditLog::AuditLog(UsageStore &store, AuditSigning signing, const Clock &clock)
    : AuditLog(storeConnection(store), std::move(signing), clock) {}

AuditLog::AuditLog(UsageConnection &conn, const Clock &clock)
    : m_conn(conn)
    , m_clock(clock) {
    auto signing = AuditSigning::fromEnvironment();
    if (signing)
        m_signing = *signing;
    else
        m_signingError = signing.error();
}

AuditLog::AuditLog(UsageStore &store, const Clock &clock)
    : AuditLog(storeConnection(store), clock) {}

Result<AuditEntry> AuditLog::append(const QString &actor, const QString &action, const QString &target,
                                    const QString &before, const QString &after, const QString &note) {
    // An entry written unsigned because the key could not be read would look like one
    // whose MAC was stripped; refuse instead.
    if (m_signingError)
        return *m_signingError;
    if (actor.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("must not be empty"),
                           QStringLiteral("actor"));
    if (action.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("must not be empty"),
                           QStringLiteral("action"));
    UsageTx tx(m_conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    QSqlDatabase db = m_conn.database();
    QSqlQuery q(db);
    if (m_conn.isPostgres()) {
        // Serialise appenders so two of them cannot both extend the same tail.
        if (auto r = m_conn.execSql(q, QStringLiteral("LOCK TABLE audit_log IN EXCLUSIVE MODE")); !r)
            return r.error();
    } // SQLite: BEGIN IMMEDIATE already holds the database's write lock.
    if (auto r =
            m_conn.execSql(q, QStringLiteral("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1"));
        !r)
        return r.error();
    AuditEntry e;
    e.seq = 1;
    e.prevHash = kGenesis;
    if (q.next()) {
        e.seq = q.value(0).toLongLong() + 1;
        e.prevHash = q.value(1).toString();
    }
    e.at = m_clock.nowSecs();
    e.actor = actor;
    e.action = action;
    e.target = target;
    e.before = before;
    e.after = after;
    e.note = note;
    e.hash = e.computeHash();
    if (m_signing.key)
        e.mac = e.computeMac(*m_signing.key);
    QSqlQuery ins(db);
    if (auto r = m_conn.prepare(
            ins, QStringLiteral("INSERT INTO audit_log (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                     .arg(QLatin1String(kColumns)));
        !r)
        return r.error();
    ins.addBindValue(e.seq);
    ins.addBindValue(e.at);
    ins.addBindValue(nonNull(e.actor));
    ins.addBindValue(nonNull(e.action));
    ins.addBindValue(nonNull(e.target));
    ins.addBindValue(nonNull(e.before));
    ins.addBindValue(nonNull(e.after));
    ins.addBindValue(nonNull(e.note));
    ins.addBindValue(nonNull(e.prevHash));
    ins.addBindValue(nonNull(e.hash));
    ins.addBindValue(nonNull(e.mac));
    if (auto r = m_conn.exec(ins, QStringLiteral("appending to the audit log")); !r)
        return r.error();
    // After the commit (of the caller's transaction too, when this append is part of
    // one): a checkpoint must never get ahead of the table (that would read as a
    // truncation); one left behind by a crash only anchors a little less.
    auto checkpoint = m_conn.afterCommit([conn = &m_conn, signing = m_signing, e,
                                          at = m_clock.nowSecs()]() -> Result<void> {
        if (auto r = updateCheckpoint(*conn, signing, e, at); !r) {
            Error err = r.error();
            err.message = QStringLiteral("audit entry %1 was recorded, but %2").arg(e.seq).arg(err.message);
            return err;
        }
        return {};
    });
    if (!checkpoint)
        return checkpoint.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return e;
}

Result<qint64> AuditLog::firstKeyedSeq() const {
    return firstKeyedSeqOf(m_conn);
}

Result<void> AuditLog::updateCheckpoint(UsageConnection &conn, const AuditSigning &signing,
                                        const AuditEntry &appended, qint64 at) {
    const QString &path = signing.checkpointPath;
    if (path.isEmpty())
        return {};
    AuditCheckpoint cp;
    cp.count = appended.seq;
    cp.head = appended.hash;
    cp.at = at;
    cp.source = conn.url().display();
    // Where signing began is carried over from the previous checkpoint; looked up only
    // until a checkpoint records it.
    if (auto previous = AuditCheckpoint::readFile(path); previous && previous->keyedFrom > 0) {
        cp.keyedFrom = previous->keyedFrom;
    } else if (signing.key) {
        auto first = firstKeyedSeqOf(conn);
        if (!first)
            return first.error();
        cp.keyedFrom = *first;
    }
    if (signing.key)
        cp.sign(*signing.key);
    return AuditCheckpoint::writeFile(path, cp);
}

Result<AuditHead> AuditLog::head() const {
    QSqlQuery q(m_conn.database());
    q.setForwardOnly(true);
    if (auto r =
            m_conn.execSql(q, QStringLiteral("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1"));
        !r)
        return r.error();
    if (!q.next())
        return AuditHead{};
    return AuditHead{q.value(0).toLongLong(), q.value(1).toString()};
}

Result<AuditCheckpoint> AuditLog::checkpoint() const {
    auto h = head();
    if (!h)
        return h.error();
    auto first = firstKeyedSeq();
    if (!first)
        return first.error();
    AuditCheckpoint cp;
    cp.count = h->count;
    cp.head = h->hash;
    cp.keyedFrom = *first;
    cp.at = m_clock.nowSecs();
    cp.source = m_conn.url().display();
    if (m_signing.key)
        cp.sign(*m_signing.key);
    return cp;
}

Result<QList<AuditEntry>> AuditLog::list(const Filter &filter) const {
    // Only fixed fragments are concatenated; every value is bound.
    QStringList where;
    QVariantList values;
    if (!filter.target.isEmpty()) {
        where << QStringLiteral("target = ?");
        values << filter.target;
    }
    if (!filter.actor.isEmpty()) {
        where << QStringLiteral("actor = ?");
        values << filter.actor;
    }
    if (filter.since > 0) {
        where << QStringLiteral("at_s >= ?");
        values << filter.since;
    }
    if (filter.until > 0) {
        where << QStringLiteral("at_s < ?");
        values << filter.until;
    }
    if (!filter.action.isEmpty()) {
        where << QStringLiteral("action = ?");
        values << filter.action;
    }
    if (!filter.namespaceName.isEmpty()) {
        // A prefix compare without LIKE, so no character in the name is a wildcard.
        const QString prefix = filter.namespaceName + QLatin1Char('/');
        where << QStringLiteral("substr(target, 1, ?) = ?");
        values << prefix.size() << prefix;
    }
    QString sql = QStringLiteral("SELECT %1 FROM audit_log").arg(QLatin1String(kColumns));
    if (!where.isEmpty())
        sql += QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
    sql += QStringLiteral(" ORDER BY seq DESC LIMIT ?");
    values << qMax(0, filter.limit);
    QSqlQuery q(m_conn.database());
    q.setForwardOnly(true);
    if (auto r = m_conn.prepare(q, sql); !r)
        return r.error();
    for (const QVariant &v : values)
        q.addBindValue(v);
    if (auto r = m_conn.exec(q, QStringLiteral("reading the audit log")); !r)
        return r.error();
    QList<AuditEntry> out;
    while (q.next())
        out << entryFromRow(q);
    return out;
}

Result<AuditChainReport> AuditLog::verifyChain(const AuditAnchor &anchor) const {
    QSqlQuery q(m_conn.database());
    q.setForwardOnly(true);
    if (auto r = m_conn.execSql(
            q, QStringLiteral("SELECT %1 FROM audit_log ORDER BY seq").arg(QLatin1String(kColumns)));
        !r)
        return r.error();
    AuditChainVerifier verifier(m_signing.key, anchor);
    while (q.next() && verifier.add(entryFromRow(q))) {
    }
    return verifier.finish();
}

} // namespace gq
