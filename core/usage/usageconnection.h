#pragma once

#include "core/usage/dburl.h"
#include "core/domain/result.h"

#include <QHash>
#include <QSqlDatabase>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

class QSqlError;
class QSqlQuery;
struct sqlite3;

namespace gq {

// Text columns are NOT NULL: a null QString (e.g. from `{}`) would bind as SQL NULL.
inline QString nonNull(const QString &s) {
    return s.isNull() ? QStringLiteral("") : s;
}

// One Qt SQL connection to the usage database (SQLite or PostgreSQL): opening it with
// the session settings of its dialect, errors as values, kept prepared statements and
// the transaction depth. Every part of the usage database (UsageStore's pieces, the
// AuditLog) works through one of these.
//
// Threading: like the QSqlDatabase it wraps, it belongs to the thread that opened it
// (checked in debug builds).
class UsageConnection {
public:
    // readOnly: for callers that only read. SQLite opens the file read-only (also on a
    // read-only file system: immutable when its WAL files cannot be created) and never
    // creates it; neither backend creates a schema. Writes then fail.
    [[nodiscard]] static Result<std::unique_ptr<UsageConnection>> open(const DbUrl &url, int busyTimeoutMs,
                                                                       bool readOnly = false);
    ~UsageConnection();
    Q_DISABLE_COPY_MOVE(UsageConnection)

    [[nodiscard]] const DbUrl &url() const { return m_url; }
    [[nodiscard]] bool isPostgres() const { return m_url.driver == DbUrl::Driver::Postgres; }
    [[nodiscard]] bool isReadOnly() const { return m_readOnly; }
    [[nodiscard]] QSqlDatabase database() const;
    // The native handle of an SQLite connection (bulk writes, change markers); null on
    // PostgreSQL or when the driver does not expose it.
    [[nodiscard]] sqlite3 *sqliteHandle() const;
    void assertThread() const;

    [[nodiscard]] Error sqlError(const QSqlError &err, const QString &what) const;
    [[nodiscard]] Error sqlError(const QSqlQuery &q, const QString &what) const;
    [[nodiscard]] Error sqlError(const QSqlDatabase &db, const QString &what) const;
    Result<void> exec(QSqlQuery &q, const QString &what) const;   // a prepared statement
    Result<void> execSql(QSqlQuery &q, const QString &sql) const; // fixed SQL text, no values
    Result<void> prepare(QSqlQuery &q, const QString &sql) const;

    // A statement prepared once per connection and kept: with QPSQL a fresh QSqlQuery
    // costs PREPARE + EXECUTE + DEALLOCATE round trips, a kept one only EXECUTE.
    // Callers bind, exec, read and then finish() it (an unfinished SQLite statement
    // would hold its read snapshot open).
    [[nodiscard]] Result<QSqlQuery *> cached(const QString &sql) const;
    // Forgets the kept statements (before a schema change they may have planned on).
    void dropCachedStatements();

    // The id the last INSERT on this connection gave a row of `table` (its `id` column):
    // PostgreSQL's currval of the table's sequence, SQLite's last_insert_rowid(), both
    // local to this connection. Never MAX(id): another writer's row committed in between
    // (a second replica or console on PostgreSQL) would be taken for ours.
    [[nodiscard]] Result<qint64> lastInsertedId(const QString &table) const;

    // Open transactions of UsageTx guards on this connection (0: autocommit, as far
    // as this object knows; raw SQL on database() is not counted).
    [[nodiscard]] int txDepth() const { return m_txDepth; }
    // Called on every write this connection starts, ends or makes outside a
    // transaction, so kept reads (the admission check's cache) can drop themselves.
    void setWriteListener(std::function<void()> listener) { m_onWrite = std::move(listener); }
    void noteWrite() const {
        if (m_onWrite)
            m_onWrite();
    }
    // Runs `action` once what was written so far is committed: when the outermost
    // UsageTx commits, or at once outside a transaction. Work outside the database that
    // must never get ahead of it (the audit checkpoint file) goes here. The first
    // failing action's error is what that commit returns (the data is committed then);
    // a rollback drops the actions.
    Result<void> afterCommit(std::function<Result<void>()> action);

private:
    friend class UsageTx;
    UsageConnection(DbUrl url, int busyTimeoutMs, bool readOnly, QString name);
    Result<void> connect();
    Result<void> openSqliteReadOnly(QSqlDatabase &db);
    Result<void> begin();
    Result<void> commit();
    void rollback();

    DbUrl m_url;
    int m_busyTimeoutMs = 0;
    bool m_readOnly = false;
    QString m_name;
    Qt::HANDLE m_thread = nullptr;
    int m_txDepth = 0;
    std::vector<std::function<Result<void>()>> m_afterCommit;
    mutable QHash<QString, std::shared_ptr<QSqlQuery>> m_statements;
    std::function<void()> m_onWrite;
};

// A transaction on a UsageConnection. Nested use is allowed: only the outermost guard
// begins and commits; an inner failure is returned to the outer code, whose guard
// rolls everything back.
class UsageTx {
public:
    explicit UsageTx(UsageConnection &conn)
        : m_conn(conn) {}
    ~UsageTx() {
        if (!m_active)
            return;
        --m_conn.m_txDepth;
        if (m_outer && !m_committed)
            m_conn.rollback();
    }
    Q_DISABLE_COPY_MOVE(UsageTx)
    Result<void> begin() {
        m_outer = m_conn.m_txDepth == 0;
        ++m_conn.m_txDepth;
        m_active = true;
        return m_outer ? m_conn.begin() : Result<void>{};
    }
    Result<void> commit() {
        m_committed = true;
        return m_outer ? m_conn.commit() : Result<void>{};
    }

private:
    UsageConnection &m_conn;
    bool m_outer = false;
    bool m_active = false;
    bool m_committed = false;
};

} // namespace gq
