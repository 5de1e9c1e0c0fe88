#include "core/usage/driverlibpq.h"

#include "core/usage/loadedlibpq.h"
#include "core/usage/usageconnection.h"

#include <QSqlDriver>
#include <QVariant>

namespace gq {

namespace {
template <typename F> bool resolve(void *library, F &f, const char *name) {
    f = reinterpret_cast<F>(loadedlibpq::symbol(library, name));
    return f != nullptr;
}
} // namespace

std::unique_ptr<DriverLibpq> DriverLibpq::forConnection(const UsageConnection &conn) {
    if (!conn.isPostgres())
        return nullptr;
    std::unique_ptr<DriverLibpq> pq(new DriverLibpq);
    // Registered as the struct behind the PGconn typedef.
    const QVariant h = conn.database().driver()->handle();
    if (h.isValid() && (qstrcmp(h.typeName(), "pg_conn*") == 0 || qstrcmp(h.typeName(), "PGconn*") == 0))
        pq->conn = *static_cast<void *const *>(h.constData());
    if (!pq->conn)
        return nullptr;
    pq->m_library = loadedlibpq::acquire();
    void *lib = pq->m_library;
    if (!lib || !resolve(lib, pq->exec, "PQexec") || !resolve(lib, pq->sendQuery, "PQsendQuery") ||
        !resolve(lib, pq->consumeInput, "PQconsumeInput") || !resolve(lib, pq->isBusy, "PQisBusy") ||
        !resolve(lib, pq->getResult, "PQgetResult") || !resolve(lib, pq->resultStatus, "PQresultStatus") ||
        !resolve(lib, pq->clear, "PQclear") || !resolve(lib, pq->errorMessage, "PQerrorMessage") ||
        !resolve(lib, pq->resultErrorMessage, "PQresultErrorMessage") ||
        !resolve(lib, pq->transactionStatus, "PQtransactionStatus") ||
        !resolve(lib, pq->status, "PQstatus") || !resolve(lib, pq->putCopyData, "PQputCopyData") ||
        !resolve(lib, pq->putCopyEnd, "PQputCopyEnd") || !resolve(lib, pq->notifies, "PQnotifies") ||
        !resolve(lib, pq->freemem, "PQfreemem"))
        return nullptr;
    return pq;
}

DriverLibpq::~DriverLibpq() {
    if (m_library)
        loadedlibpq::release(m_library);
}

void DriverLibpq::collectLeftoverResults() {
    if (transactionStatus(conn) != kTransActive)
        return;
    while (void *r = getResult(conn))
        clear(r);
}

} // namespace gq
