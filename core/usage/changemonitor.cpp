#include "core/usage/changemonitor.h"

#include "core/usage/driverlibpq.h"
#include "core/usage/usageconnection.h"

#include <QSqlDriver>
#include <QSqlQuery>

#include <sqlite3.h>

namespace gq {

namespace {
constexpr char kNotifyChannel[] = "gpuquota_usage";
} // namespace

ChangeMonitor::ChangeMonitor(UsageConnection &conn)
    : m_conn(conn) {}

ChangeMonitor::~ChangeMonitor() {
    sqlite3_finalize(m_dataVersion);
}

Result<std::unique_ptr<ChangeMonitor>> ChangeMonitor::create(UsageConnection &conn) {
    std::unique_ptr<ChangeMonitor> m(new ChangeMonitor(conn));
    QSqlDatabase db = conn.database();
    if (conn.isPostgres()) {
        auto pq = DriverLibpq::forConnection(conn);
        if (pq) {
            QSqlQuery q(db);
            if (auto r = conn.execSql(q, QStringLiteral("LISTEN %1").arg(QLatin1String(kNotifyChannel))); !r)
                return r.error();
            m->m_usable = true;
        } else {
            qWarning("gpuquota: the PostgreSQL driver's libpq is not reachable; admission checks are not "
                     "cached");
        }
        m->m_pq = std::move(pq);
    } else {
        sqlite3 *h = conn.sqliteHandle();
        if (h && sqlite3_prepare_v2(h, "PRAGMA data_version", -1, &m->m_dataVersion, nullptr) == SQLITE_OK)
            m->m_usable = true;
    }
    return m;
}

ChangeMonitor::Freshness ChangeMonitor::poll() {
    if (!m_usable)
        return Freshness::Untrusted;
    // Inside a transaction of this connection a check must see its uncommitted writes,
    // which may yet roll back: read afresh and keep nothing.
    if (m_conn.txDepth() > 0)
        return Freshness::Untrusted;
    return m_pq ? pollPostgres() : pollSqlite();
}

ChangeMonitor::Freshness ChangeMonitor::pollPostgres() {
    DriverLibpq &pq = *m_pq;
    // ACTIVE (a kept forward-only statement's end not yet collected by Qt) hides
    // the transaction state: the last one seen stands until the next idle/in-tx.
    const int status = pq.transactionStatus(pq.conn);
    if (status != DriverLibpq::kTransActive)
        m_pgInTransaction = status != DriverLibpq::kTransIdle;
    if (m_pgInTransaction)
        return Freshness::Untrusted;
    // Non-blocking: reads what has reached the socket, queues notifications. A server
    // that went away leaves nothing to trust: the check reads afresh and fails instead
    // of answering from what it kept. Its last words (FATAL: terminating connection)
    // and the end of the stream are two reads: the second call sees the EOF (a read
    // of an idle socket only returns EAGAIN).
    for (int read = 0; read < 2; ++read)
        if (!pq.consumeInput(pq.conn) || pq.status(pq.conn) != DriverLibpq::kConnectionOk)
            return Freshness::Lost;
    bool changed = false;
    while (PgNotifyRecord *n = pq.notifies(pq.conn)) {
        if (qstrcmp(n->relname, kNotifyChannel) == 0)
            changed = true;
        pq.freemem(n);
    }
    if (!changed)
        return Freshness::Unchanged;
    ++m_changes;
    return Freshness::Changed;
}

ChangeMonitor::Freshness ChangeMonitor::pollSqlite() {
    // PRAGMA data_version moves with commits of other connections; the change
    // counter with this connection's own writes, including raw SQL on database().
    sqlite3 *h = sqlite3_db_handle(m_dataVersion);
    if (!sqlite3_get_autocommit(h))
        return Freshness::Untrusted;
    const int rc = sqlite3_step(m_dataVersion);
    const qint64 version = rc == SQLITE_ROW ? sqlite3_column_int64(m_dataVersion, 0) : -1;
    sqlite3_reset(m_dataVersion);
    if (version < 0)
        return Freshness::Lost;
    const qint64 changes = sqlite3_total_changes64(h);
    if (version == m_sqliteVersion && changes == m_sqliteChanges)
        return Freshness::Unchanged;
    if (m_sqliteVersion >= 0)
        ++m_changes;
    m_sqliteVersion = version;
    m_sqliteChanges = changes;
    return Freshness::Changed;
}

} // namespace gq
