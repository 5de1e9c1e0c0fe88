#pragma once

#include "core/domain/result.h"

#include <QByteArray>

#include <memory>

namespace gq {

class DriverLibpq;
class UsageConnection;

// COPY ... FROM STDIN on the Qt connection's own libpq connection (same session, same
// transaction): the PostgreSQL path of bulk loads. Reached like ChangeMonitor reaches
// libpq: through the driver's native handle and only the libpq.so.5 the QPSQL plugin
// has loaded (dlopen RTLD_NOLOAD). create() gives null when that is not possible
// (other driver build, no libpq loaded); callers then use statements.
class PgCopy {
public:
    [[nodiscard]] static std::unique_ptr<PgCopy> create(const UsageConnection &conn);
    ~PgCopy();
    Q_DISABLE_COPY_MOVE(PgCopy)

    // Runs `copySql` (COPY table (columns) FROM STDIN), sends `data` (text format, one
    // line per row) and collects the result. No Qt statement may be running on the
    // connection (every kept statement is finish()ed after use).
    Result<void> copy(const QByteArray &copySql, const QByteArray &data);

    // The same in steps, so the server stores rows while the caller makes the next
    // ones: start() begins the COPY, put() sends rows (blocking only while the
    // connection's buffer is full), end() finishes it and reports the first bad row;
    // abort() cancels it (nothing of it stays). While a COPY is open no other
    // statement may run on the connection.
    Result<void> start(const QByteArray &copySql);
    Result<void> put(const QByteArray &data);
    Result<void> end();
    void abort();
    [[nodiscard]] bool isOpen() const { return m_open; }

    // Appends `v` in COPY text format (backslash, tab, newline, CR escaped).
    static void appendText(QByteArray &out, const QString &v);
    static void appendText(QByteArray &out, const QByteArray &utf8);
    // Numbers without a temporary string per value (the shortest text that reads back
    // as the same double).
    static void appendNumber(QByteArray &out, qint64 v);
    static void appendNumber(QByteArray &out, double v);

private:
    explicit PgCopy(std::unique_ptr<DriverLibpq> pq);
    Result<void> finishCopy(const char *failure);
    std::unique_ptr<DriverLibpq> m_pq;
    bool m_open = false;
};

} // namespace gq
