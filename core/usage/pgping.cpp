#include "pgping.h"

#include "loadedlibpq.h"
#include "usageconnection.h"

#include <QDeadlineTimer>
#include <QSqlDriver>
#include <QSqlQuery>
#include <QThread>
#include <QVariant>

namespace gq {

namespace {
// libpq's C API (libpq-fe.h), stable since 7.4.
using PqSendQuery = int (*)(void *, const char *);
using PqConsumeInput = int (*)(void *);
using PqIsBusy = int (*)(void *);
using PqGetResult = void *(*)(void *);
using PqResultStatus = int (*)(const void *);
using PqClear = void (*)(void *);
using PqErrorMessage = char *(*)(const void *);
using PqTransactionStatus = int (*)(const void *);
constexpr int kPgresTuplesOk = 2; // PGRES_TUPLES_OK
constexpr int kPqTransActive = 1; // PQTRANS_ACTIVE

struct Libpq {
    void *library = nullptr;
    PqSendQuery sendQuery = nullptr;
    PqConsumeInput consumeInput = nullptr;
    PqIsBusy isBusy = nullptr;
    PqGetResult getResult = nullptr;
    PqResultStatus resultStatus = nullptr;
    PqClear clear = nullptr;
    PqErrorMessage errorMessage = nullptr;
    PqTransactionStatus transactionStatus = nullptr;
    Libpq()
        : library(loadedlibpq::acquire()) {}
    ~Libpq() {
        if (library)
            loadedlibpq::release(library);
    }
    Q_DISABLE_COPY_MOVE(Libpq)
    template <typename F> bool resolve(F &f, const char *name) {
        f = reinterpret_cast<F>(loadedlibpq::symbol(library, name));
        return f != nullptr;
    }
    bool resolveAll() {
        return library && resolve(sendQuery, "PQsendQuery") && resolve(consumeInput, "PQconsumeInput") &&
               resolve(isBusy, "PQisBusy") && resolve(getResult, "PQgetResult") &&
               resolve(resultStatus, "PQresultStatus") && resolve(clear, "PQclear") &&
               resolve(errorMessage, "PQerrorMessage") && resolve(transactionStatus, "PQtransactionStatus");
    }
};

Error pingError(const QString &what) {
    Error e = Error::make(Error::Kind::Database, what);
    e.reason = QStringLiteral("Unreachable");
    return e;
}

Result<void> pingStatement(const UsageConnection &conn) {
    QSqlQuery q(conn.database());
    return conn.execSql(q, QStringLiteral("SELECT 1"));
}
} // namespace

Result<void> pingConnection(const UsageConnection &conn, int timeoutMs) {
    if (!conn.isPostgres())
        return pingStatement(conn);
    void *pg = nullptr;
    const QVariant h = conn.database().driver()->handle();
    if (h.isValid() && (qstrcmp(h.typeName(), "pg_conn*") == 0 || qstrcmp(h.typeName(), "PGconn*") == 0))
        pg = *static_cast<void *const *>(h.constData());
    Libpq pq;
    if (!pg || !pq.resolveAll())
        return pingStatement(conn); // no libpq of the driver's to reach: unbounded, as before
    if (pq.transactionStatus(pg) == kPqTransActive) {
        // A finished Qt statement in single-row mode can leave its last (empty) result.
        while (void *r = pq.getResult(pg))
            pq.clear(r);
    }
    if (pq.sendQuery(pg, "SELECT 1") != 1)
        return pingError(QStringLiteral("the database connection is broken: %1")
                             .arg(QString::fromUtf8(pq.errorMessage(pg)).trimmed()));
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        if (pq.consumeInput(pg) != 1)
            return pingError(QStringLiteral("the database connection is broken: %1")
                                 .arg(QString::fromUtf8(pq.errorMessage(pg)).trimmed()));
        if (!pq.isBusy(pg))
            break;
        if (deadline.hasExpired())
            return pingError(
                QStringLiteral("the database did not answer within %1 ms (a silent network cut?)")
                    .arg(timeoutMs));
        QThread::msleep(2);
    }
    bool ok = false;
    QString failure;
    while (void *r = pq.getResult(pg)) {
        if (pq.resultStatus(r) == kPgresTuplesOk)
            ok = true;
        else if (failure.isEmpty())
            failure = QString::fromUtf8(pq.errorMessage(pg)).trimmed();
        pq.clear(r);
    }
    if (!ok)
        return pingError(QStringLiteral("the database did not answer the ping: %1").arg(failure));
    return {};
}

} // namespace gq
