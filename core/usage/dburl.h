#pragma once

#include "core/domain/result.h"

#include <QString>

namespace gq {

// Where the usage database lives:
//   sqlite:///var/lib/gpuquota/usage.db    (absolute path; sqlite://rel/usage.db is relative)
//   sqlite://:memory:
//   postgresql://user@host:5432/dbname[?schema=name&sslmode=require&connect_timeout=5
//                                       &lock_timeout=5s&statement_timeout=10m]
//
// A password in the URL is refused: URLs end up in shell history, process lists and
// logs. libpq takes the password from PGPASSWORD or ~/.pgpass (PGPASSFILE) instead.
struct DbUrl {
    enum class Driver { Sqlite, Postgres };
    Driver driver = Driver::Sqlite;
    QString path; // SQLite file
    QString host; // PostgreSQL
    int port = 5432;
    QString user;
    QString database;
    QString schema;  // PostgreSQL schema (search_path), created if missing; empty: default
    QString sslmode; // passed to libpq when set
    int connectTimeoutSeconds = 10;
    // PostgreSQL session limits (0: wait without limit). A statement waiting longer than
    // lockTimeoutMs for a lock held by another session (e.g. LOCK TABLE ... ACCESS
    // EXCLUSIVE) fails, as SQLite's busy timeout does; statementTimeoutMs bounds any one
    // statement. Written as 5s, 1m30s, 250ms or plain seconds.
    int lockTimeoutMs = 5000;
    int statementTimeoutMs = 600000;
    // PostgreSQL: never read from the URL nor shown; set by a caller that keeps it in the
    // OS keychain (the console). Empty: libpq's PGPASSWORD / ~/.pgpass.
    QString password;

    [[nodiscard]] static Result<DbUrl> parse(const QString &url);
    // The URL as shown to people (never contains a password: it cannot hold one).
    [[nodiscard]] QString display() const;
};

} // namespace gq
