#include "core/auditlog.h"

#include "core/usagestore.h"
#include "core/usagestore_p.h"

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
    return e;
}

const char *const kColumns =
    "seq, at_s, actor, action, target, before_text, after_text, note, prev_hash, hash";
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

AuditLog::AuditLog(UsageStore &store, const Clock &clock)
    : m_store(store)
    , m_clock(clock) {}

Result<AuditEntry> AuditLog::append(const QString &actor, const QString &action, const QString &target,
                                    const QString &before, const QString &after, const QString &note) {
    if (actor.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("must not be empty"),
                           QStringLiteral("actor"));
    if (action.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("must not be empty"),
                           QStringLiteral("action"));
    UsageStoreTx tx(m_store, m_store.m_txDepth);
    if (auto r = tx.begin(); !r)
        return r.error();
    QSqlDatabase db = m_store.database();
    QSqlQuery q(db);
    if (m_store.isPostgres()) {
        // Serialise appenders so two of them cannot both extend the same tail.
        if (auto r = m_store.execSql(q, QStringLiteral("LOCK TABLE audit_log IN EXCLUSIVE MODE")); !r)
            return r.error();
    } // SQLite: BEGIN IMMEDIATE already holds the database's write lock.
    if (auto r =
            m_store.execSql(q, QStringLiteral("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1"));
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
    QSqlQuery ins(db);
    if (auto r = m_store.prepare(
            ins, QStringLiteral("INSERT INTO audit_log (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
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
    if (auto r = m_store.exec(ins, QStringLiteral("appending to the audit log")); !r)
        return r.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return e;
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
    QString sql = QStringLiteral("SELECT %1 FROM audit_log").arg(QLatin1String(kColumns));
    if (!where.isEmpty())
        sql += QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
    sql += QStringLiteral(" ORDER BY seq DESC LIMIT ?");
    values << qMax(0, filter.limit);
    QSqlQuery q(m_store.database());
    q.setForwardOnly(true);
    if (auto r = m_store.prepare(q, sql); !r)
        return r.error();
    for (const QVariant &v : values)
        q.addBindValue(v);
    if (auto r = m_store.exec(q, QStringLiteral("reading the audit log")); !r)
        return r.error();
    QList<AuditEntry> out;
    while (q.next())
        out << entryFromRow(q);
    return out;
}

Result<AuditChainReport> AuditLog::verifyChain() const {
    QSqlQuery q(m_store.database());
    q.setForwardOnly(true);
    if (auto r = m_store.execSql(
            q, QStringLiteral("SELECT %1 FROM audit_log ORDER BY seq").arg(QLatin1String(kColumns)));
        !r)
        return r.error();
    AuditChainReport report;
    QString prev = kGenesis;
    qint64 expectedSeq = 1;
    while (q.next()) {
        const AuditEntry e = entryFromRow(q);
        ++report.checked;
        auto fail = [&](const QString &problem) {
            report.ok = false;
            report.firstBadSeq = e.seq;
            report.problem = problem;
            return report;
        };
        if (e.seq != expectedSeq)
            return fail(QStringLiteral("row %1 missing (next row is %2)").arg(expectedSeq).arg(e.seq));
        if (e.prevHash != prev)
            return fail(QStringLiteral("row %1: link to the previous row broken").arg(e.seq));
        if (e.computeHash() != e.hash)
            return fail(QStringLiteral("row %1: hash mismatch (content changed)").arg(e.seq));
        prev = e.hash;
        ++expectedSeq;
    }
    return report;
}

} // namespace gq
