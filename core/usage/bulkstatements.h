#pragma once

// The multi-row writers' statement helpers (bulk loads and rollup writes); private to
// gqusage (needs SQLite's own header).

#include <QString>
#include <QStringEncoder>

#include <sqlite3.h>

namespace gq {

// PostgreSQL array literals for unnest(): one bound text value per column.
inline void appendPgText(QString &out, const QString &v) {
    out += QLatin1Char('"');
    for (const QChar c : v) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        out += c;
    }
    out += QLatin1Char('"');
}

// Bulk writes on SQLite go through the connection's native handle: Qt's binding
// layer formats a placeholder name and looks it up for every bound value (and the
// driver scans the statement's variable list per value), which cost more than
// SQLite's own insert work. Same connection, same transaction; values still bound.
class SqliteStatement {
public:
    SqliteStatement(sqlite3 *db, const char *sql) {
        m_rc = sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr);
        m_db = db;
    }
    ~SqliteStatement() { sqlite3_finalize(m_stmt); }
    Q_DISABLE_COPY_MOVE(SqliteStatement)
    [[nodiscard]] bool ok() const { return m_rc == SQLITE_OK; }
    void text(int i, const QString &v) {
        // SQLITE_STATIC: the QString outlives the step() that reads it. utf16() of a
        // null QString is an empty array, so this binds '', never NULL.
        sqlite3_bind_text16(m_stmt, i, v.utf16(), int(v.size() * 2), SQLITE_STATIC);
    }
    // `v` converted to UTF-8 into `scratch` (kept by the caller until step(), reused
    // across rows): SQLite's own UTF-16 conversion allocates per value.
    void text(int i, const QString &v, QByteArray &scratch) {
        QStringEncoder enc(QStringConverter::Utf8);
        scratch.resize(enc.requiredSpace(v.size()));
        char *end = enc.appendToBuffer(scratch.data(), v);
        scratch.truncate(end - scratch.constData());
        text(i, scratch);
    }
    // UTF-8, what the database stores: no conversion inside SQLite.
    void text(int i, const QByteArray &v) {
        sqlite3_bind_text(m_stmt, i, v.constData(), int(v.size()), SQLITE_STATIC);
    }
    void integer(int i, qint64 v) { sqlite3_bind_int64(m_stmt, i, v); }
    void real(int i, double v) { sqlite3_bind_double(m_stmt, i, v); }
    void null(int i) { sqlite3_bind_null(m_stmt, i); }
    bool step() {
        m_rc = sqlite3_step(m_stmt);
        sqlite3_reset(m_stmt);
        return m_rc == SQLITE_DONE;
    }
    [[nodiscard]] QString error() const {
        return QStringLiteral("%1 (SQLite code %2)").arg(QString::fromUtf8(sqlite3_errmsg(m_db))).arg(m_rc);
    }

private:
    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_stmt = nullptr;
    int m_rc = SQLITE_OK;
};

} // namespace gq
