#include "changemonitor.h"

#include "loadedlibpq.h"
#include "usageconnection.h"

#include <QSqlDriver>
#include <QSqlQuery>

#include <sqlite3.h>

namespace gq {

namespace {
// libpq's notification record (libpq-fe.h PGnotify; part of its stable ABI since 7.x).
struct PgNotifyRecord {
    char *relname;
    int bePid;
    char *extra;
    PgNotifyRecord *next;
};
using PqConsumeInput = int (*)(void *);
using PqNotifies = PgNotifyRecord *(*)(void *);
using PqFreemem = void (*)(void *);
using PqTransactionStatus = int (*)(const void *);
using PqStatus = int (*)(const void *);
constexpr int kPqConnectionOk = 0; // CONNECTION_OK
constexpr int kPqTransIdle = 0;    // PQTRANS_IDLE
constexpr int kPqTransActive = 1;  // PQTRANS_ACTIVE
constexpr char kNotifyChannel[] = "gpuquota_usage";
} // namespace

struct ChangeMonitor::Libpq {
    void *library = nullptr;
    PqConsumeInput consumeInput = nullptr;
    PqNotifies notifies = nullptr;
    PqFreemem freemem = nullptr;
    PqTransactionStatus transactionStatus = nullptr;
    PqStatus status = nullptr;
    void *conn = nullptr;
    ~Libpq() {
        if (library)
            loadedlibpq::release(library);
    }
};

ChangeMonitor::ChangeMonitor(UsageConnection &conn)
    : m_conn(conn) {}

ChangeMonitor::~ChangeMonitor() {
    sqlite3_finalize(m_dataVersion);
}

Result<std::unique_ptr<ChangeMonitor>> ChangeMonitor::create(UsageConnection &conn) {
    std::unique_ptr<ChangeMonitor> m(new ChangeMonitor(conn));
    QSqlDatabase db = conn.database();
    if (conn.isPostgres()) {
        auto pq = std::make_unique<Libpq>();
        const QVariant h = db.driver()->handle();
        // Registered as the struct behind the PGconn typedef.
        if (h.isValid() && (qstrcmp(h.typeName(), "pg_conn*") == 0 || qstrcmp(h.typeName(), "PGconn*") == 0))
            pq->conn = *static_cast<void *const *>(h.constData());
        // Only the libpq the driver plugin has loaded (never a copy of our own): a different copy
        // must never touch that connection.
        if (pq->conn)
            pq->library = loadedlibpq::acquire();
        if (pq->library) {
            pq->consumeInput =
                reinterpret_cast<PqConsumeInput>(loadedlibpq::symbol(pq->library, "PQconsumeInput"));
            pq->notifies = reinterpret_cast<PqNotifies>(loadedlibpq::symbol(pq->library, "PQnotifies"));
            pq->freemem = reinterpret_cast<PqFreemem>(loadedlibpq::symbol(pq->library, "PQfreemem"));
            pq->transactionStatus = reinterpret_cast<PqTransactionStatus>(
                loadedlibpq::symbol(pq->library, "PQtransactionStatus"));
            pq->status = reinterpret_cast<PqStatus>(loadedlibpq::symbol(pq->library, "PQstatus"));
        }
        if (pq->consumeInput && pq->notifies && pq->freemem && pq->transactionStatus && pq->status) {
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
    Libpq &pq = *m_pq;
    // ACTIVE (a kept forward-only statement's end not yet collected by Qt) hides
    // the transaction state: the last one seen stands until the next idle/in-tx.
    const int status = pq.transactionStatus(pq.conn);
    if (status != kPqTransActive)
        m_pgInTransaction = status != kPqTransIdle;
    if (m_pgInTransaction)
        return Freshness::Untrusted;
    // Non-blocking: reads what has reached the socket, queues notifications. A server
    // that went away leaves nothing to trust: the check reads afresh and fails instead
    // of answering from what it kept. Its last words (FATAL: terminating connection)
    // and the end of the stream are two reads: the second call sees the EOF (a read
    // of an idle socket only returns EAGAIN).
    for (int read = 0; read < 2; ++read)
        if (!pq.consumeInput(pq.conn) || pq.status(pq.conn) != kPqConnectionOk)
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
