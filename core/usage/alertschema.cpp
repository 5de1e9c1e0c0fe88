#include "core/usage/alertschema.h"

#include "core/usage/usageconnection.h"

#include <QSqlQuery>
#include <QStringList>

namespace gq {

Result<void> migrateAlertsToV5(UsageConnection &conn) {
    QSqlQuery q(conn.database());
    const QStringList sql{
        QStringLiteral("CREATE TABLE alerts ("
                       " alert_key TEXT PRIMARY KEY, kind TEXT NOT NULL, scope TEXT NOT NULL DEFAULT '',"
                       " subject TEXT NOT NULL DEFAULT '', budget_id BIGINT NOT NULL DEFAULT 0,"
                       " period_start_s BIGINT NOT NULL DEFAULT 0, threshold INTEGER NOT NULL DEFAULT 0,"
                       " fired_s BIGINT NOT NULL, payload TEXT NOT NULL)"),
        QStringLiteral("CREATE INDEX alerts_budget ON alerts (budget_id, period_start_s)"),
        QStringLiteral("CREATE TABLE alert_deliveries ("
                       " alert_key TEXT NOT NULL REFERENCES alerts (alert_key), channel TEXT NOT NULL"
                       " CHECK (channel IN ('email', 'webhook')), recipient TEXT NOT NULL,"
                       " state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed')),"
                       " attempts INTEGER NOT NULL DEFAULT 0, next_retry_s BIGINT NOT NULL DEFAULT 0,"
                       " last_error TEXT NOT NULL DEFAULT '', sent_s BIGINT NOT NULL DEFAULT 0,"
                       " claim_owner TEXT NOT NULL DEFAULT '', claim_until_s BIGINT NOT NULL DEFAULT 0,"
                       " PRIMARY KEY (alert_key, channel, recipient))"),
        QStringLiteral("CREATE INDEX alert_deliveries_due ON alert_deliveries (state, next_retry_s)"),
    };
    for (const QString &s : sql)
        if (auto r = conn.execSql(q, s); !r)
            return r;
    return {};
}

} // namespace gq
