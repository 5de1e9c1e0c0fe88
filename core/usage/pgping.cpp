#include "core/usage/pgping.h"

#include "core/usage/driverlibpq.h"
#include "core/usage/usageconnection.h"

#include <QDeadlineTimer>
#include <QSqlDriver>
#include <QSqlQuery>
#include <QThread>
#include <QVariant>

namespace gq {

namespace {
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
    const std::unique_ptr<DriverLibpq> lib = DriverLibpq::forConnection(conn);
    if (!lib)
        return pingStatement(conn); // no libpq of the driver's to reach: unbounded, as before
    DriverLibpq &pq = *lib;
    void *pg = pq.conn;
    pq.collectLeftoverResults();
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
        if (pq.resultStatus(r) == DriverLibpq::kTuplesOk)
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
