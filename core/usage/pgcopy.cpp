#include "core/usage/pgcopy.h"

#include "core/usage/driverlibpq.h"
#include "core/usage/usageconnection.h"

#include <QSqlDriver>
#include <QVariant>

#include <charconv>

namespace gq {

namespace {
// Rows go to the server in pieces of this size (libpq buffers each put).
constexpr qsizetype kPutBytes = 1 << 20;
} // namespace

PgCopy::PgCopy(std::unique_ptr<DriverLibpq> pq)
    : m_pq(std::move(pq)) {}

PgCopy::~PgCopy() = default;

std::unique_ptr<PgCopy> PgCopy::create(const UsageConnection &conn) {
    auto pq = DriverLibpq::forConnection(conn);
    if (!pq)
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
    DriverLibpq &pq = *m_pq;
    if (m_open)
        return Error::make(Error::Kind::Internal, QStringLiteral("a COPY is already open on the connection"));
    pq.collectLeftoverResults();
    if (pq.transactionStatus(pq.conn) == DriverLibpq::kTransActive)
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("COPY while a statement is still running on the connection"));
    void *res = pq.exec(pq.conn, copySql.constData());
    const int status = res ? pq.resultStatus(res) : -1;
    if (status != DriverLibpq::kCopyIn) {
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
    DriverLibpq &pq = *m_pq;
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
    DriverLibpq &pq = *m_pq;
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
        if (first && pq.resultStatus(r) != DriverLibpq::kCommandOk && !failure)
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
