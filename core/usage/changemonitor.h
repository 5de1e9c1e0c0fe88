#pragma once

#include "core/domain/result.h"

#include <QtGlobal>

#include <memory>

struct sqlite3_stmt;

namespace gq {

class DriverLibpq;
class UsageConnection;

// Notices commits to the usage database that did not go through this connection's
// own guards, without a round trip, so the admission check may keep what it read:
// - SQLite: PRAGMA data_version (commits of any other connection or process) and the
//   connection's change counter (its own writes, including raw SQL on database());
// - PostgreSQL: schema v2 triggers NOTIFY gpuquota_usage on every write statement to
//   intervals, rollups, budgets and boosts; poll() reads whatever notifications have
//   reached the connection's socket (non-blocking). If libpq's notification calls
//   cannot be reached at run time the monitor is not usable.
class ChangeMonitor {
public:
    // Sets up the markers (PostgreSQL: LISTEN). Errors only from that statement; an
    // unreachable libpq gives a monitor that is not usable.
    [[nodiscard]] static Result<std::unique_ptr<ChangeMonitor>> create(UsageConnection &conn);
    ~ChangeMonitor();
    Q_DISABLE_COPY_MOVE(ChangeMonitor)

    [[nodiscard]] bool usable() const { return m_usable; }

    enum class Freshness {
        Untrusted, // now is no time to trust kept reads (a transaction is open): read afresh
        Lost,      // the markers could not be read: drop kept reads and read afresh
        Changed,   // something changed since the last poll: drop kept reads, then keep again
        Unchanged, // kept reads stand
    };
    [[nodiscard]] Freshness poll();
    // Changes noticed by poll() so far (the first SQLite reading is not one).
    [[nodiscard]] qint64 changes() const { return m_changes; }

private:
    explicit ChangeMonitor(UsageConnection &conn);
    Freshness pollPostgres();
    Freshness pollSqlite();

    UsageConnection &m_conn;
    bool m_usable = false;
    qint64 m_changes = 0;
    // SQLite: the markers seen last.
    sqlite3_stmt *m_dataVersion = nullptr;
    qint64 m_sqliteVersion = -1;
    qint64 m_sqliteChanges = -1;
    // PostgreSQL: libpq of the QPSQL driver, reached through its connection handle,
    // so notifications are read without waiting for the event loop.
    std::unique_ptr<DriverLibpq> m_pq;
    bool m_pgInTransaction = false;
};

} // namespace gq
