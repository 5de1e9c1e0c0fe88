#pragma once

#include <QtGlobal>

#include <memory>

namespace gq {

class UsageConnection;

// libpq's notification record (libpq-fe.h PGnotify; part of its stable ABI since 7.x).
struct PgNotifyRecord {
    char *relname;
    int bePid;
    char *extra;
    PgNotifyRecord *next;
};

// The libpq functions this library calls beside QtSql (COPY, LISTEN/NOTIFY, a bounded ping),
// resolved at once from the libpq that Qt's PostgreSQL driver has loaded (loadedlibpq.h),
// with the PGconn of one connection. One table for every such caller.
class DriverLibpq final {
public:
    // libpq-fe.h's values this library compares with (stable since 7.4).
    static constexpr int kConnectionOk = 0; // CONNECTION_OK
    static constexpr int kCommandOk = 1;    // PGRES_COMMAND_OK
    static constexpr int kTuplesOk = 2;     // PGRES_TUPLES_OK
    static constexpr int kCopyIn = 4;       // PGRES_COPY_IN
    static constexpr int kTransIdle = 0;    // PQTRANS_IDLE
    static constexpr int kTransActive = 1;  // PQTRANS_ACTIVE

    // nullptr when `conn` is not PostgreSQL, the driver's libpq is not loaded in this
    // process (never a copy of our own: it must not touch the driver's connection), or a
    // function is missing.
    static std::unique_ptr<DriverLibpq> forConnection(const UsageConnection &conn);
    ~DriverLibpq();
    Q_DISABLE_COPY_MOVE(DriverLibpq)

    // A statement Qt ran in single-row mode and then finished can leave its last (empty)
    // result uncollected (the connection says ACTIVE): collect it, as Qt's next exec would.
    void collectLeftoverResults();

    void *conn = nullptr; // the driver's PGconn
    void *(*exec)(void *, const char *) = nullptr;
    int (*sendQuery)(void *, const char *) = nullptr;
    int (*consumeInput)(void *) = nullptr;
    int (*isBusy)(void *) = nullptr;
    void *(*getResult)(void *) = nullptr;
    int (*resultStatus)(const void *) = nullptr;
    void (*clear)(void *) = nullptr;
    char *(*errorMessage)(const void *) = nullptr;
    char *(*resultErrorMessage)(const void *) = nullptr;
    int (*transactionStatus)(const void *) = nullptr;
    int (*status)(const void *) = nullptr;
    int (*putCopyData)(void *, const char *, int) = nullptr;
    int (*putCopyEnd)(void *, const char *) = nullptr;
    PgNotifyRecord *(*notifies)(void *) = nullptr;
    void (*freemem)(void *) = nullptr;

private:
    DriverLibpq() = default;
    void *m_library = nullptr;
};

} // namespace gq
