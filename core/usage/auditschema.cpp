#include "core/usage/auditschema.h"

#include "core/usage/usageconnection.h"

#include <QSqlQuery>

namespace gq {

Result<void> migrateAuditLog(UsageConnection &conn) {
    const bool pg = conn.isPostgres();
    QSqlQuery q(conn.database());
    auto hasMacColumn = [&]() -> Result<bool> {
        if (auto r = conn.execSql(
                q,
                pg ? QStringLiteral("SELECT 1 FROM information_schema.columns WHERE table_schema = "
                                    "current_schema() AND table_name = 'audit_log' AND column_name = 'mac'")
                   : QStringLiteral("SELECT 1 FROM pragma_table_info('audit_log') WHERE name = 'mac'"));
            !r)
            return r.error();
        const bool has = q.next();
        q.finish();
        return has;
    };
    // The common case (already there) costs one read and no lock.
    auto has = hasMacColumn();
    if (!has)
        return has.error();
    if (*has)
        return {};
    UsageTx tx(conn);
    if (auto r = tx.begin(); !r)
        return r;
    // Two processes upgrading at once: PostgreSQL's IF NOT EXISTS settles it under the
    // table lock; on SQLite the transaction holds the write lock, so look again.
    if (!pg) {
        has = hasMacColumn();
        if (!has)
            return has.error();
        if (*has)
            return tx.commit();
    }
    conn.dropCachedStatements();
    if (auto r =
            conn.execSql(q, pg ? QStringLiteral("ALTER TABLE audit_log ADD COLUMN IF NOT EXISTS mac TEXT "
                                                "NOT NULL DEFAULT ''")
                               : QStringLiteral("ALTER TABLE audit_log ADD COLUMN mac TEXT NOT NULL "
                                                "DEFAULT ''"));
        !r)
        return r;
    return tx.commit();
}

} // namespace gq
