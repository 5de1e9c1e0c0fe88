#include "core/usage/usageschema.h"

#include "core/domain/clock.h"
#include "core/usage/alertschema.h"
#include "core/usage/boostrequests.h"
#include "core/usage/boostschema.h"
#include "core/usage/newcomerledger.h"
#include "core/usage/timewindow.h"
#include "core/usage/usageconnection.h"

#include <QDateTime>
#include <QSqlQuery>

namespace gq {

namespace {

// Both dialects from one text: %ID% and %REAL% are the only differences in DDL.
QString dialect(QString sql, bool pg) {
    sql.replace(QLatin1String("%ID%"), pg ? QLatin1String("BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
                                          : QLatin1String("INTEGER PRIMARY KEY AUTOINCREMENT"));
    sql.replace(QLatin1String("%REAL%"), pg ? QLatin1String("DOUBLE PRECISION") : QLatin1String("REAL"));
    // SQLite: a table whose rows are its primary key is stored as that key's B-tree
    // alone (a rowid table keeps the rows and a copy of the key: twice the writes).
    sql.replace(QLatin1String("%KEYED%"), pg ? QLatin1String("") : QLatin1String(" WITHOUT ROWID"));
    return sql;
}

// The controller's additions: where an interval ran, and idle spans (a GPU held but
// not used) with the GPU-seconds they wasted, for waste per namespace.
const char *const kSchemaV4[] = {
    "ALTER TABLE usage_intervals ADD COLUMN node TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE usage_intervals ADD COLUMN gpu_model TEXT NOT NULL DEFAULT ''",
    "CREATE TABLE idle_spans ("
    " id %ID%,"
    " ns TEXT NOT NULL, pod_name TEXT NOT NULL, node TEXT NOT NULL, gpu_uuid TEXT NOT NULL,"
    " start_s BIGINT NOT NULL, end_s BIGINT NOT NULL, wasted_gpu_seconds %REAL% NOT NULL,"
    " CHECK (end_s > start_s), UNIQUE (node, gpu_uuid, start_s))",
    "CREATE INDEX idle_spans_ns ON idle_spans (ns, start_s)",
};

// The GPU model's weight of each interval, fixed when it is stored like `weight`
// (1: none configured). Rollups and `weight` stay raw GPU-hours; budgets add
// gpus x weight x (model_weight - 1) of the few rows that have one, found by these
// partial indexes (empty when no model weights are configured).
const char *const kSchemaV6[] = {
    "ALTER TABLE usage_intervals ADD COLUMN model_weight %REAL% NOT NULL DEFAULT 1 CHECK (model_weight > 0)",
    "CREATE INDEX usage_intervals_model_user ON usage_intervals (user_name, start_s) WHERE model_weight <> 1",
    "CREATE INDEX usage_intervals_model_ns ON usage_intervals (ns, start_s) WHERE model_weight <> 1",
};

// Open rows' last-seen heartbeat (seen_s, written every UsageStore::kSeenIntervalSeconds
// by the recording controllers) and whether an end had to be estimated from it (a pod
// that vanished while no controller watched). Self-contained: the step only adds
// columns, so it can be renumbered.
const char *const kSchemaV7[] = {
    "ALTER TABLE usage_intervals ADD COLUMN seen_s BIGINT NULL",
    "ALTER TABLE usage_intervals ADD COLUMN end_estimated INTEGER NOT NULL DEFAULT 0"
    " CHECK (end_estimated IN (0, 1))",
};

// PostgreSQL: the heartbeat (an UPDATE of seen_s alone, every 30 s) must not announce a
// change: kept admission-check reads stay good. The intervals' notify trigger fires on
// every other column's update.
const char *const kSchemaV7NotifyPg[] = {
    "DROP TRIGGER usage_intervals_notify ON usage_intervals",
    "CREATE TRIGGER usage_intervals_notify AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF"
    " cluster, ns, user_name, pod_uid, pod_name, resource, gpus, weight, start_s, end_s, source,"
    " node, gpu_model, model_weight, end_estimated ON usage_intervals"
    " FOR EACH STATEMENT EXECUTE FUNCTION gpuquota_notify_usage()",
};

const char *const kSchemaV1[] = {
    "CREATE TABLE usage_intervals ("
    " id %ID%,"
    " cluster TEXT NOT NULL, ns TEXT NOT NULL, user_name TEXT NOT NULL,"
    " pod_uid TEXT NOT NULL, pod_name TEXT NOT NULL DEFAULT '', resource TEXT NOT NULL,"
    " gpus INTEGER NOT NULL CHECK (gpus > 0), weight %REAL% NOT NULL CHECK (weight > 0),"
    " start_s BIGINT NOT NULL, end_s BIGINT NULL, source TEXT NOT NULL DEFAULT '',"
    " CHECK (end_s IS NULL OR end_s > start_s),"
    " UNIQUE (cluster, pod_uid, resource, start_s))",
    "CREATE INDEX usage_intervals_user ON usage_intervals (user_name, start_s)",
    "CREATE INDEX usage_intervals_ns ON usage_intervals (ns, start_s)",
    "CREATE INDEX usage_intervals_start ON usage_intervals (start_s)",
    // The running set is small; these partial indexes keep "what runs now" from
    // touching the (large) closed history.
    "CREATE INDEX usage_intervals_running ON usage_intervals (start_s) WHERE end_s IS NULL",
    "CREATE INDEX usage_intervals_running_user ON usage_intervals (user_name) WHERE end_s IS NULL",
    "CREATE INDEX usage_intervals_running_ns ON usage_intervals (ns) WHERE end_s IS NULL",
    "CREATE TABLE rollup_ns_hour (ns TEXT NOT NULL, hour_s BIGINT NOT NULL, gpu_seconds %REAL% NOT NULL,"
    " PRIMARY KEY (ns, hour_s))%KEYED%",
    "CREATE INDEX rollup_ns_hour_by_hour ON rollup_ns_hour (hour_s, ns, gpu_seconds)",
    "CREATE TABLE rollup_user_hour (user_name TEXT NOT NULL, hour_s BIGINT NOT NULL, gpu_seconds %REAL% NOT "
    "NULL,"
    " PRIMARY KEY (user_name, hour_s))%KEYED%",
    "CREATE INDEX rollup_user_hour_by_hour ON rollup_user_hour (hour_s, user_name, gpu_seconds)",
    "CREATE TABLE rollup_ns_day (ns TEXT NOT NULL, day_s BIGINT NOT NULL, gpu_seconds %REAL% NOT NULL,"
    " PRIMARY KEY (ns, day_s))%KEYED%",
    "CREATE INDEX rollup_ns_day_by_day ON rollup_ns_day (day_s, ns, gpu_seconds)",
    "CREATE TABLE rollup_user_day (user_name TEXT NOT NULL, day_s BIGINT NOT NULL, gpu_seconds %REAL% NOT "
    "NULL,"
    " PRIMARY KEY (user_name, day_s))%KEYED%",
    "CREATE INDEX rollup_user_day_by_day ON rollup_user_day (day_s, user_name, gpu_seconds)",
    "CREATE TABLE store_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE budgets ("
    " id %ID%,"
    " scope TEXT NOT NULL CHECK (scope IN ('user', 'namespace')), subject TEXT NOT NULL,"
    " period TEXT NOT NULL CHECK (period IN ('day', 'week', 'month')),"
    " limit_gpu_hours %REAL% NOT NULL CHECK (limit_gpu_hours >= 0), grace_s BIGINT NOT NULL DEFAULT 0,"
    " tz TEXT NOT NULL DEFAULT 'UTC', UNIQUE (scope, subject, period))",
    "CREATE TABLE boosts ("
    " id %ID%,"
    " target TEXT NOT NULL, delta TEXT NOT NULL, start_s BIGINT NOT NULL, expiry_s BIGINT NOT NULL,"
    " note TEXT NOT NULL DEFAULT '', actor TEXT NOT NULL,"
    " state TEXT NOT NULL CHECK (state IN ('pending', 'applied', 'reverted', 'cancelled')),"
    " CHECK (expiry_s > start_s))",
    "CREATE INDEX boosts_target ON boosts (target, state)",
    "CREATE TABLE audit_log ("
    " seq BIGINT PRIMARY KEY, at_s BIGINT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,"
    " target TEXT NOT NULL, before_text TEXT NOT NULL, after_text TEXT NOT NULL, note TEXT NOT NULL,"
    " prev_hash TEXT NOT NULL, hash TEXT NOT NULL UNIQUE)",
};

const char *const kAuditTriggersSqlite[] = {
    "CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log"
    " BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END",
    "CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log"
    " BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END",
};

const char *const kAuditTriggersPg[] = {
    "CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS"
    " $$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$",
    "CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log"
    " FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()",
    "CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log"
    " FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()",
};

// Schema v2 (PostgreSQL): every write statement on a table the admission check reads
// announces itself, so stores keeping check inputs (Options::cacheChecks) in other
// processes drop them. Statement-level and deduplicated per transaction by the server,
// so bulk loads pay one notification per commit.
const char *const kNotifyFunctionPg =
    "CREATE FUNCTION gpuquota_notify_usage() RETURNS trigger LANGUAGE plpgsql AS"
    " $$ BEGIN PERFORM pg_notify('gpuquota_usage', ''); RETURN NULL; END $$";
const char *const kNotifyTables[] = {
    "usage_intervals",  "budgets",       "boosts",          "rollup_ns_hour",
    "rollup_user_hour", "rollup_ns_day", "rollup_user_day",
};

// v10 (PostgreSQL): the by-time indexes of the rollup tables key on the time alone, the
// subject and GPU-seconds ride along as INCLUDE columns: the same index-only scans of a
// time range, but a build sorts by a number instead of breaking each hour's ties by
// comparing names (a huge load builds them from scratch: #31 item 7). Rows of one time
// stay in heap order, which a bulk load writes by subject. SQLite keeps the v1 form.
const char *const kByTimeIndexesPg[] = {
    "CREATE INDEX rollup_ns_hour_by_hour ON rollup_ns_hour (hour_s) INCLUDE (ns, gpu_seconds)",
    "CREATE INDEX rollup_user_hour_by_hour ON rollup_user_hour (hour_s) INCLUDE (user_name, gpu_seconds)",
    "CREATE INDEX rollup_ns_day_by_day ON rollup_ns_day (day_s) INCLUDE (ns, gpu_seconds)",
    "CREATE INDEX rollup_user_day_by_day ON rollup_user_day (day_s) INCLUDE (user_name, gpu_seconds)",
};

// The current definition of a secondary index ("CREATE INDEX name ..."), or empty.
QString secondaryIndexDdl(const QString &index, bool pg) {
    const QString prefix = QStringLiteral("CREATE INDEX %1 ").arg(index);
    if (pg)
        for (const char *ddl : kByTimeIndexesPg)
            if (QString::fromLatin1(ddl).startsWith(prefix))
                return QString::fromLatin1(ddl);
    for (const char *ddl : kSchemaV1)
        if (QString::fromLatin1(ddl).startsWith(prefix))
            return dialect(QString::fromLatin1(ddl), pg);
    return {};
}

// Secondary indexes a huge load drops and recreates (the unique key and primary keys
// stay: they detect duplicates and serve the rollup upserts).
const char *const kSecondaryIndexes[] = {
    "usage_intervals_user",    "usage_intervals_ns",           "usage_intervals_start",
    "usage_intervals_running", "usage_intervals_running_user", "usage_intervals_running_ns",
    "rollup_ns_hour_by_hour",  "rollup_user_hour_by_hour",     "rollup_ns_day_by_day",
    "rollup_user_day_by_day",
};

} // namespace

namespace {

Result<bool> tableExists(UsageConnection &conn, const QString &table) {
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(
            q, conn.isPostgres()
                   ? QStringLiteral("SELECT 1 FROM information_schema.tables"
                                    " WHERE table_schema = current_schema() AND table_name = ?")
                   : QStringLiteral("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"));
        !r)
        return r.error();
    q.addBindValue(nonNull(table));
    if (auto r = conn.exec(q, QStringLiteral("inspecting the schema")); !r)
        return r.error();
    return q.next();
}

// 0 for an empty database; an error for one that holds usage tables of someone else.
Result<int> currentSchemaVersion(UsageConnection &conn) {
    auto has = tableExists(conn, QStringLiteral("schema_version"));
    if (!has)
        return has.error();
    if (!*has) {
        auto foreign = tableExists(conn, QStringLiteral("usage_intervals"));
        if (!foreign)
            return foreign.error();
        if (*foreign)
            return Error::make(Error::Kind::Schema,
                               QStringLiteral("%1 has a usage_intervals table but no schema_version: not a "
                                              "gpuquota database, or a damaged one")
                                   .arg(conn.url().display()));
        return 0;
    }
    return usageSchemaVersion(conn);
}

// Why a database at version v (older or newer than ours) is not migrated here, if it is not.
Result<void> refuseMigration(const UsageConnection &conn, int v) {
    if (v > kUsageSchemaVersion)
        return Error::make(Error::Kind::Schema,
                           QStringLiteral("the database %1 has schema version %2, newer than this gpuquota "
                                          "understands (%3); upgrade gpuquota")
                               .arg(conn.url().display())
                               .arg(v)
                               .arg(kUsageSchemaVersion));
    if (v != kUsageSchemaVersion && conn.isReadOnly())
        return Error::make(Error::Kind::Schema,
                           v == 0
                               ? QStringLiteral("%1 holds no gpuquota usage database yet (reading does not "
                                                "create one: import data or set a budget first)")
                                     .arg(conn.url().display())
                               : QStringLiteral("the database %1 has schema version %2, older than this "
                                                "gpuquota (%3); run a writing command once (e.g. gpuquota "
                                                "import) to upgrade it")
                                     .arg(conn.url().display())
                                     .arg(v)
                                     .arg(kUsageSchemaVersion));
    return {};
}

// Runs each statement, in the connection's SQL dialect when `translate` (the schema's
// portable DDL), else as written (dialect-specific statements).
template <std::size_t N>
Result<void> execAll(UsageConnection &conn, QSqlQuery &q, const char *const (&statements)[N],
                     bool translate) {
    for (const char *sql : statements)
        if (auto r = conn.execSql(q, translate ? dialect(QString::fromLatin1(sql), conn.isPostgres())
                                               : QString::fromLatin1(sql));
            !r)
            return r;
    return {};
}

// Version 1: the tables, the rollup zone and the audit log's triggers.
Result<void> createSchemaV1(UsageConnection &conn, QSqlQuery &q, const QString &rollupZone) {
    if (auto r = execAll(conn, q, kSchemaV1, true); !r)
        return r;
    auto zone = parseZone(rollupZone, QStringLiteral("rollupZone"));
    if (!zone)
        return zone.error();
    QSqlQuery setting(conn.database());
    if (auto r =
            conn.prepare(setting, QStringLiteral("INSERT INTO store_settings (name, value) VALUES (?, ?)"));
        !r)
        return r;
    setting.addBindValue(QStringLiteral("rollup_tz"));
    setting.addBindValue(QString::fromUtf8(zone->id()));
    if (auto r = conn.exec(setting, QStringLiteral("storing the rollup zone")); !r)
        return r;
    return conn.isPostgres() ? execAll(conn, q, kAuditTriggersPg, false)
                             : execAll(conn, q, kAuditTriggersSqlite, false);
}

// Version 2 (PostgreSQL only): a NOTIFY after every change of a usage table.
Result<void> createNotifyTriggersV2(UsageConnection &conn, QSqlQuery &q) {
    if (auto r = conn.execSql(q, QString::fromLatin1(kNotifyFunctionPg)); !r)
        return r;
    for (const char *table : kNotifyTables)
        if (auto r = conn.execSql(q, QStringLiteral("CREATE TRIGGER %1_notify AFTER INSERT OR UPDATE OR "
                                                    "DELETE OR TRUNCATE ON %1 FOR EACH STATEMENT EXECUTE "
                                                    "FUNCTION gpuquota_notify_usage()")
                                         .arg(QLatin1String(table)));
            !r)
            return r;
    return {};
}

// Version 10 (PostgreSQL): the rollups' by-time indexes key on the time alone and
// INCLUDE the subject and GPU-seconds (kByTimeIndexesPg).
Result<void> rebuildByTimeIndexesV10(UsageConnection &conn, QSqlQuery &q) {
    for (const char *ddl : kByTimeIndexesPg) {
        const QString index = QString::fromLatin1(ddl).section(QLatin1Char(' '), 2, 2);
        if (auto r = conn.execSql(q, QStringLiteral("DROP INDEX IF EXISTS %1").arg(index)); !r)
            return r;
        if (auto r = conn.execSql(q, QString::fromLatin1(ddl)); !r)
            return r;
    }
    return {};
}

// The step from version target - 1 to target.
Result<void> migrateToVersion(UsageConnection &conn, QSqlQuery &q, int target, const QString &rollupZone) {
    const bool pg = conn.isPostgres();
    switch (target) {
    case 1: return createSchemaV1(conn, q, rollupZone);
    case 2: return pg ? createNotifyTriggersV2(conn, q) : Result<void>{};
    case 3: return migrateBoostsToV3(conn);
    case 4: return execAll(conn, q, kSchemaV4, true);
    case 5: return migrateAlertsToV5(conn);
    case 6: return execAll(conn, q, kSchemaV6, true);
    case 7:
        if (auto r = execAll(conn, q, kSchemaV7, true); !r || !pg)
            return r;
        return execAll(conn, q, kSchemaV7NotifyPg, false);
    case 8: return migrateBoostRequestsToV8(conn);
    case 9: return migrateNewcomersToV9(conn);
    case 10: return pg ? rebuildByTimeIndexesV10(conn, q) : Result<void>{};
    default: return {};
    }
}

Result<void> recordSchemaVersion(UsageConnection &conn, int version) {
    QSqlQuery ins(conn.database());
    if (auto r = conn.prepare(
            ins, QStringLiteral("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)"));
        !r)
        return r;
    ins.addBindValue(version);
    ins.addBindValue(Clock::system().nowSecs());
    return conn.exec(ins, QStringLiteral("recording the schema version"));
}

} // namespace

Result<void> migrateUsageSchema(UsageConnection &conn, const QString &rollupZone) {
    auto v = currentSchemaVersion(conn);
    if (!v)
        return v.error();
    if (auto r = refuseMigration(conn, *v); !r)
        return r;
    if (*v == kUsageSchemaVersion)
        return {};

    UsageTx tx(conn);
    if (auto r = tx.begin(); !r)
        return r;
    QSqlQuery q(conn.database());
    if (conn.isPostgres()) {
        // Two processes opening a fresh database at once: one migrates, the other waits
        // and then sees the new version.
        if (auto r = conn.execSql(q, QStringLiteral("SELECT pg_advisory_xact_lock(7301062001)")); !r)
            return r;
    }
    v = currentSchemaVersion(conn);
    if (!v)
        return v.error();
    if (*v == 0) {
        if (auto r = conn.execSql(q, QStringLiteral("CREATE TABLE schema_version (version INTEGER NOT NULL,"
                                                    " applied_at BIGINT NOT NULL)"));
            !r)
            return r;
    }
    for (int target = *v + 1; target <= kUsageSchemaVersion; ++target) {
        if (auto r = migrateToVersion(conn, q, target, rollupZone); !r)
            return r;
        if (auto r = recordSchemaVersion(conn, target); !r)
            return r;
    }
    return tx.commit();
}

Result<QTimeZone> storedRollupZone(const UsageConnection &conn) {
    QSqlQuery q(conn.database());
    if (auto r = conn.execSql(q, QStringLiteral("SELECT value FROM store_settings WHERE name = 'rollup_tz'"));
        !r)
        return r.error();
    const QString id = q.next() ? q.value(0).toString() : QStringLiteral("UTC");
    auto zone = parseZone(id, QStringLiteral("rollup_tz"));
    if (!zone)
        return Error::make(
            Error::Kind::Schema,
            QStringLiteral("the database's rollup zone '%1' is unknown to this system").arg(id));
    return *zone;
}

Result<int> usageSchemaVersion(const UsageConnection &conn) {
    QSqlQuery q(conn.database());
    if (auto r = conn.execSql(q, QStringLiteral("SELECT MAX(version) FROM schema_version")); !r)
        return r.error();
    return q.next() ? q.value(0).toInt() : 0;
}

Result<void> setSecondaryIndexes(UsageConnection &conn, bool present, IndexGroup group) {
    // Kept statements may refer to plans over the dropped indexes (SQLite re-prepares
    // on schema change, but dropping them is cheap and certain).
    conn.dropCachedStatements();
    QSqlQuery q(conn.database());
    for (const char *name : kSecondaryIndexes) {
        const QString index = QString::fromLatin1(name);
        const bool ofIntervals = index.startsWith(QLatin1String("usage_intervals"));
        if ((group == IndexGroup::Intervals && !ofIntervals) || (group == IndexGroup::Rollups && ofIntervals))
            continue;
        if (!present) {
            if (auto r = conn.execSql(q, QStringLiteral("DROP INDEX IF EXISTS %1").arg(index)); !r)
                return r;
            continue;
        }
        const QString sql = secondaryIndexDdl(index, conn.isPostgres());
        if (!sql.isEmpty())
            if (auto r = conn.execSql(q, sql); !r)
                return r;
    }
    return {};
}

} // namespace gq
