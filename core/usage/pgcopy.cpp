#include "pgcopy.h"

#include "loadedlibpq.h"
#include "usageconnection.h"

#include <QSqlDriver>
#include <QVariant>

#include <charconv>

namespace gq {

namespace {
// libpq's C API (libpq-fe.h), stable since 7.4.
using PqExec = void *(*)(void *, const char *);
using PqResultStatus = int (*)(const void *);
using PqClear = void (*)(void *);
using PqPutCopyData = int (*)(void *, const char *, int);
using PqPutCopyEnd = int (*)(void *, const char *);
using PqGetResult = void *(*)(void *);
using PqErrorMessage = char *(*)(const void *);
using PqResultErrorMessage = char *(*)(const void *);
using PqTransactionStatus = int (*)(const void *);
constexpr int kPgresCommandOk = 1; // PGRES_COMMAND_OK
constexpr int kPgresCopyIn = 4;    // PGRES_COPY_IN
constexpr int kPqTransActive = 1;  // PQTRANS_ACTIVE
// Rows go to the server in pieces of this size (libpq buffers each put).
constexpr qsizetype kPutBytes = 1 << 20;
} // namespace

struct PgCopy::Libpq {
    void *library = nullptr;
    void *conn = nullptr;
    PqExec exec = nullptr;
    PqResultStatus resultStatus = nullptr;
    PqClear clear = nullptr;
    PqPutCopyData putCopyData = nullptr;
    PqPutCopyEnd putCopyEnd = nullptr;
    PqGetResult getResult = nullptr;
    PqErrorMessage errorMessage = nullptr;
    PqResultErrorMessage resultErrorMessage = nullptr;
    PqTransactionStatus transactionStatus = nullptr;
    ~Libpq() {
        if (library)
            loadedlibpq::release(library);
    }
    template <typename F> bool resolve(F &f, const char *name) {
        f = reinterpret_cast<F>(loadedlibpq::symbol(library, name));
        return f != nullptr;
    }
};

PgCopy::PgCopy(std::unique_ptr<Libpq> pq)
    : m_pq(std::move(pq)) {}

PgCopy::~PgCopy() = default;

std::unique_ptr<PgCopy> PgCopy::create(const UsageConnection &conn) {
    if (!conn.isPostgres())
        return nullptr;
    auto pq = std::make_unique<Libpq>();
    const QVariant h = conn.database().driver()->handle();
    if (h.isValid() && (qstrcmp(h.typeName(), "pg_conn*") == 0 || qstrcmp(h.typeName(), "PGconn*") == 0))
        pq->conn = *static_cast<void *const *>(h.constData());
    if (!pq->conn)
        return nullptr;
    // Only the copy the driver uses may touch its connection.
    pq->library = loadedlibpq::acquire();
    if (!pq->library)
        return nullptr;
    if (!pq->resolve(pq->exec, "PQexec") || !pq->resolve(pq->resultStatus, "PQresultStatus") ||
        !pq->resolve(pq->clear, "PQclear") || !pq->resolve(pq->putCopyData, "PQputCopyData") ||
        !pq->resolve(pq->putCopyEnd, "PQputCopyEnd") || !pq->resolve(pq->getResult, "PQgetResult") ||
        !pq->resolve(pq->errorMessage, "PQerrorMessage") ||
        !pq->resolve(pq->resultErrorMessage, "PQresultErrorMessage") ||
        !pq->resolve(pq->transactionStatus, "PQtransactionStatus"))
        return nullptr;
    return std::unique_ptr<PgCopy>(new PgCopy(std::move(pq)));
}

namespace {
Error copyError(const char *what, const char *detail) {
    return Error::make(Error::Kind::Database, QStringLiteral("%1: %2").arg(
                                                  QLatin1String(what), QString::fromUtf8(detail).trimmed()));
}
} // namespace

Result<void> PgCopy::copy(const QByteArray &copySql, const QByteArray &data) {
    if (auto r = start(copySql); !r)
        return r;
    if (auto r = put(data); !r) {
        abort();
        return r;
    }
    return end();
}

Result<void> PgCopy::start(const QByteArray &copySql) {
    Libpq &pq = *m_pq;
    if (m_open)
        return Error::make(Error::Kind::Internal, QStringLiteral("a COPY is already open on the connection"));
    if (pq.transactionStatus(pq.conn) == kPqTransActive) {
        // A statement Qt ran in single-row mode and then finish()ed can leave its last
        // (empty) result uncollected; collect it, as Qt's own next exec would.
        while (void *r = pq.getResult(pq.conn))
            pq.clear(r);
    }
    if (pq.transactionStatus(pq.conn) == kPqTransActive)
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("COPY while a statement is still running on the connection"));
    void *res = pq.exec(pq.conn, copySql.constData());
    const int status = res ? pq.resultStatus(res) : -1;
    if (status != kPgresCopyIn) {
        const Error e =
            copyError("starting COPY", res ? pq.resultErrorMessage(res) : pq.errorMessage(pq.conn));
        if (res)
            pq.clear(res);
        // Collect whatever else the server sent, so the connection is usable again.
        while (void *more = pq.getResult(pq.conn))
            pq.clear(more);
        return e;
    }
    pq.clear(res);
    m_open = true;
    return {};
}

Result<void> PgCopy::put(const QByteArray &data) {
    Libpq &pq = *m_pq;
    if (!m_open)
        return Error::make(Error::Kind::Internal, QStringLiteral("no COPY is open on the connection"));
    for (qsizetype off = 0; off < data.size(); off += kPutBytes) {
        const qsizetype n = std::min(kPutBytes, data.size() - off);
        if (pq.putCopyData(pq.conn, data.constData() + off, int(n)) != 1)
            return Error::make(Error::Kind::Database,
                               QStringLiteral("sending COPY rows: %1")
                                   .arg(QString::fromUtf8(pq.errorMessage(pq.conn)).trimmed()));
    }
    return {};
}

Result<void> PgCopy::finishCopy(const char *failure) {
    Libpq &pq = *m_pq;
    if (!m_open)
        return {};
    m_open = false;
    // Ending with an error message aborts the COPY on the server.
    QString sendError;
    if (pq.putCopyEnd(pq.conn, failure) != 1)
        sendError = QString::fromUtf8(pq.errorMessage(pq.conn)).trimmed();
    Result<void> result;
    bool first = true;
    while (void *r = pq.getResult(pq.conn)) {
        if (first && pq.resultStatus(r) != kPgresCommandOk && !failure)
            result = copyError("COPY", pq.resultErrorMessage(r));
        first = false;
        pq.clear(r);
    }
    if (!sendError.isEmpty() && !failure)
        return Error::make(Error::Kind::Database, QStringLiteral("sending COPY rows: %1").arg(sendError));
    return result;
}

Result<void> PgCopy::end() {
    return finishCopy(nullptr);
}

void PgCopy::abort() {
    (void)finishCopy("client failed to send the rows");
}

void PgCopy::appendText(QByteArray &out, const QString &v) {
    appendText(out, v.toUtf8());
}

void PgCopy::appendText(QByteArray &out, const QByteArray &u) {
    const char *s = u.constData();
    qsizetype run = 0;
    for (qsizetype i = 0; i < u.size(); ++i) {
        const char c = s[i];
        const char *esc = c == '\\'   ? "\\\\"
                          : c == '\t' ? "\\t"
                          : c == '\n' ? "\\n"
                          : c == '\r' ? "\\r"
                                      : nullptr;
        if (!esc)
            continue;
        out.append(s + run, i - run);
        out.append(esc);
        run = i + 1;
    }
    out.append(s + run, u.size() - run);
}

void PgCopy::appendNumber(QByteArray &out, qint64 v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr - buf);
}

void PgCopy::appendNumber(QByteArray &out, double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr - buf);
}

} // namespace gq
