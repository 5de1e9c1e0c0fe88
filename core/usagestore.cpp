#include "core/usagestore.h"
#include "core/usagestore_p.h"

#include <QAtomicInt>
#include <QHash>
#include <QIODevice>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QTextStream>
#include <QThread>

#include <sqlite3.h>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gq {

namespace {

QAtomicInt g_connectionCounter;

// Both dialects from one text: %ID% and %REAL% are the only differences in DDL.
QString dialect(QString sql, bool pg) {
    sql.replace(QLatin1String("%ID%"), pg ? QLatin1String("BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
                                          : QLatin1String("INTEGER PRIMARY KEY AUTOINCREMENT"));
    sql.replace(QLatin1String("%REAL%"), pg ? QLatin1String("DOUBLE PRECISION") : QLatin1String("REAL"));
    return sql;
}

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
    " PRIMARY KEY (ns, hour_s))",
    "CREATE INDEX rollup_ns_hour_by_hour ON rollup_ns_hour (hour_s, ns, gpu_seconds)",
    "CREATE TABLE rollup_user_hour (user_name TEXT NOT NULL, hour_s BIGINT NOT NULL, gpu_seconds %REAL% NOT "
    "NULL,"
    " PRIMARY KEY (user_name, hour_s))",
    "CREATE INDEX rollup_user_hour_by_hour ON rollup_user_hour (hour_s, user_name, gpu_seconds)",
    "CREATE TABLE rollup_ns_day (ns TEXT NOT NULL, day_s BIGINT NOT NULL, gpu_seconds %REAL% NOT NULL,"
    " PRIMARY KEY (ns, day_s))",
    "CREATE INDEX rollup_ns_day_by_day ON rollup_ns_day (day_s, ns, gpu_seconds)",
    "CREATE TABLE rollup_user_day (user_name TEXT NOT NULL, day_s BIGINT NOT NULL, gpu_seconds %REAL% NOT "
    "NULL,"
    " PRIMARY KEY (user_name, day_s))",
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

constexpr qint64 kHour = 3600;
constexpr int kBatchRows = 200; // rows per multi-row statement on the per-row paths
// Bulk statements. SQLite: one native single-row statement per batch (see
// SqliteStatement; through Qt, binding cost grew with the square of the parameters
// per multi-row statement). PostgreSQL gets one array per column, so only the
// statement text size bounds a batch.
constexpr int kSqliteBulkIntervalRows = 16; // x 11 columns
constexpr int kSqliteBulkRollupRows = 64;   // x 3 columns
constexpr int kPgBulkIntervalRows = 20000;
constexpr int kPgBulkRollupRows = 50000;
// A bulk load of at least this many rows rebuilds secondary indexes afterwards.
constexpr qint64 kDropIndexesFrom = 1000000;
// Partial rollup flush of a bulk load beyond this many cells (~50 bytes each).
constexpr size_t kMaxRollupCells = 8000000;

// Secondary indexes a huge load drops and recreates (the unique key and primary keys
// stay: they detect duplicates and serve the rollup upserts).
const char *const kSecondaryIndexes[] = {
    "usage_intervals_user",    "usage_intervals_ns",           "usage_intervals_start",
    "usage_intervals_running", "usage_intervals_running_user", "usage_intervals_running_ns",
    "rollup_ns_hour_by_hour",  "rollup_user_hour_by_hour",     "rollup_ns_day_by_day",
    "rollup_user_day_by_day",
};

// PostgreSQL array literals for unnest(): one bound text value per column.
void appendPgText(QString &out, const QString &v) {
    out += QLatin1Char('"');
    for (const QChar c : v) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        out += c;
    }
    out += QLatin1Char('"');
}

qint64 floorHour(qint64 t) {
    return t - (((t % kHour) + kHour) % kHour);
}

bool alignedToHour(qint64 t) {
    return t % kHour == 0;
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

QString csvField(const QString &v) {
    if (v.contains(QLatin1Char(',')) || v.contains(QLatin1Char('"')) || v.contains(QLatin1Char('\n')) ||
        v.contains(QLatin1Char('\r'))) {
        QString q = v;
        q.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + q + QLatin1Char('"');
    }
    return v;
}

// Splits one CSV record (RFC 4180 quoting). `in` may need further physical lines for
// a quoted field with a newline; `lineNo` advances with them.
Result<QStringList> readCsvRecord(QTextStream &in, QString line, int &lineNo) {
    QStringList fields;
    QString cur;
    bool quoted = false;
    qsizetype i = 0;
    for (;;) {
        if (i >= line.size()) {
            if (quoted) {
                if (in.atEnd()) {
                    Error e = Error::make(Error::Kind::Parse, QStringLiteral("unterminated quoted field"));
                    e.line = lineNo;
                    return e;
                }
                cur += QLatin1Char('\n');
                line = in.readLine();
                ++lineNo;
                i = 0;
                continue;
            }
            fields << cur;
            return fields;
        }
        const QChar c = line.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < line.size() && line.at(i + 1) == QLatin1Char('"')) {
                    cur += QLatin1Char('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                cur += c;
            }
        } else if (c == QLatin1Char('"') && cur.isEmpty()) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            fields << cur;
            cur.clear();
        } else if (c != QLatin1Char('\r')) {
            cur += c;
        }
        ++i;
    }
}

const QStringList kCsvHeader{
    QStringLiteral("cluster"), QStringLiteral("namespace"), QStringLiteral("user"),
    QStringLiteral("pod_uid"), QStringLiteral("pod_name"),  QStringLiteral("resource"),
    QStringLiteral("gpus"),    QStringLiteral("start"),     QStringLiteral("end")};

const char *const kIntervalColumns =
    "cluster, ns, user_name, pod_uid, pod_name, resource, gpus, weight, start_s, end_s, source";

UsageInterval intervalFromRow(const QSqlQuery &q, int base = 0) {
    UsageInterval u;
    u.cluster = q.value(base + 0).toString();
    u.ns = q.value(base + 1).toString();
    u.user = q.value(base + 2).toString();
    u.podUid = q.value(base + 3).toString();
    u.podName = q.value(base + 4).toString();
    u.resource = q.value(base + 5).toString();
    u.gpus = q.value(base + 6).toInt();
    u.start = q.value(base + 8).toLongLong();
    if (!q.value(base + 9).isNull())
        u.end = q.value(base + 9).toLongLong();
    u.source = q.value(base + 10).toString();
    return u;
}

} // namespace

TimeRange DayIndex::dayOf(qint64 t) {
    if (m_starts.size() < 2 || t < m_starts.front() || t >= m_starts.back())
        cover(t);
    const auto it = std::upper_bound(m_starts.begin(), m_starts.end(), t);
    return TimeRange{*(it - 1), *it};
}

void DayIndex::cover(qint64 t) {
    // Extend generously (two months either side) so a bulk load recomputes rarely.
    qint64 lo = t - 62 * 86400, hi = t + 62 * 86400;
    if (m_starts.size() >= 2) {
        lo = std::min(lo, m_starts.front());
        hi = std::max(hi, m_starts.back());
    }
    const std::vector<TimeRange> days = periodsCovering(lo, hi, Period::Day, m_tz);
    m_starts.clear();
    m_starts.reserve(days.size() + 1);
    for (const TimeRange &d : days)
        m_starts.push_back(d.start);
    m_starts.push_back(days.back().end);
}

void UsageStore::accumulate(RollupDelta &delta, const QString &nsName, const QString &userName, qint64 start,
                            qint64 end, double gpuWeight) const {
    for (qint64 h = floorHour(start); h < end; h += kHour) {
        const qint64 a = std::max(h, start), b = std::min(h + kHour, end);
        const double v = double(b - a) * gpuWeight;
        delta.nsHour[RollupKey(nsName, h)] += v;
        delta.userHour[RollupKey(userName, h)] += v;
    }
    for (qint64 t = start; t < end;) {
        const TimeRange day = m_days->dayOf(t);
        const double v = double(std::min(day.end, end) - t) * gpuWeight;
        delta.nsDay[RollupKey(nsName, day.start)] += v;
        delta.userDay[RollupKey(userName, day.start)] += v;
        t = day.end;
    }
}

bool RollupAccumulator::Interner::intern(const QString &name, quint32 &id) {
    if (!names.empty() && name == lastName) {
        id = lastId;
        return true;
    }
    auto it = ids.constFind(name);
    if (it == ids.cend()) {
        if (names.size() >= (size_t(1) << 24))
            return false;
        it = ids.insert(name, quint32(names.size()));
        names.push_back(name);
    }
    lastName = name;
    lastId = id = *it;
    return true;
}

bool RollupAccumulator::add(const QString &nsName, const QString &userName, qint64 start, qint64 end,
                            double gpuWeight) {
    quint32 n = 0, u = 0;
    if (!m_ns.intern(nsName, n) || !m_user.intern(userName, u))
        return false;
    for (qint64 h = floorHour(start); h < end; h += kHour) {
        const double v = double(std::min(h + kHour, end) - std::max(h, start)) * gpuWeight;
        m_cells[0][keyOf(n, h)] += v;
        m_cells[1][keyOf(u, h)] += v;
    }
    for (qint64 t = start; t < end;) {
        const TimeRange day = m_days.dayOf(t);
        const double v = double(std::min(day.end, end) - t) * gpuWeight;
        m_cells[2][keyOf(n, day.start)] += v;
        m_cells[3][keyOf(u, day.start)] += v;
        t = day.end;
    }
    return true;
}

QString boostStateName(Boost::State s) {
    switch (s) {
    case Boost::State::Pending: return QStringLiteral("pending");
    case Boost::State::Applied: return QStringLiteral("applied");
    case Boost::State::Reverted: return QStringLiteral("reverted");
    case Boost::State::Cancelled: return QStringLiteral("cancelled");
    }
    return {};
}

Result<Boost::State> parseBoostState(const QString &text) {
    for (auto s :
         {Boost::State::Pending, Boost::State::Applied, Boost::State::Reverted, Boost::State::Cancelled})
        if (boostStateName(s) == text)
            return s;
    return Error::make(Error::Kind::Invalid, QStringLiteral("unknown boost state '%1'").arg(text),
                       QStringLiteral("state"));
}

// --- transactions --------------------------------------------------------------

// --- kept admission-check inputs ---------------------------------------------------

namespace {
// libpq's notification record (libpq-fe.h PGnotify; part of its stable ABI since 7.x).
struct PgNotifyRecord {
    char *relname;
    int bePid;
    char *extra;
    PgNotifyRecord *next;
};
using PqConsumeInput = int (*)(void *);
using PqNotifies = PgNotifyRecord *(*)(void *);
using PqFreemem = void (*)(void *);
using PqTransactionStatus = int (*)(const void *);
constexpr int kPqTransIdle = 0;   // PQTRANS_IDLE
constexpr int kPqTransActive = 1; // PQTRANS_ACTIVE
constexpr char kNotifyChannel[] = "gpuquota_usage";
} // namespace

struct CheckCache {
    static constexpr qsizetype kMaxEntries = 100000; // per scope; a full table starts over
    QHash<QString, CheckSubject> entries[2];         // [0] users, [1] namespaces
    // SQLite: the markers the entries were read under.
    sqlite3_stmt *dataVersion = nullptr;
    qint64 sqliteVersion = -1;
    qint64 sqliteChanges = -1;
    // PostgreSQL: libpq of the QPSQL driver, reached through its connection handle,
    // so notifications are read without waiting for the event loop.
    void *libpq = nullptr;
    PqConsumeInput consumeInput = nullptr;
    PqNotifies notifies = nullptr;
    PqFreemem freemem = nullptr;
    PqTransactionStatus transactionStatus = nullptr;
    void *pgConn = nullptr;
    bool pgInTransaction = false;
    bool usable = false;
    UsageStore::CheckCacheStats stats;
    ~CheckCache() {
        sqlite3_finalize(dataVersion);
        if (libpq)
            dlclose(libpq);
    }
    void clear() {
        entries[0].clear();
        entries[1].clear();
    }
};

// --- open / migrate -------------------------------------------------------------

UsageStore::UsageStore(DbUrl url, Options options, QString connectionName)
    : m_url(std::move(url))
    , m_options(std::move(options))
    , m_connectionName(std::move(connectionName))
    , m_thread(QThread::currentThreadId()) {}

UsageStore::~UsageStore() {
    m_checkCache.reset(); // its native statement belongs to the connection removed below
    m_statements.clear(); // kept statements belong to the connection removed below
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
}

QSqlDatabase UsageStore::database() const {
    assertThread();
    return QSqlDatabase::database(m_connectionName, false);
}

void UsageStore::assertThread() const {
    Q_ASSERT_X(QThread::currentThreadId() == m_thread, "UsageStore",
               "a UsageStore must be used only on the thread that opened it");
}

Result<std::unique_ptr<UsageStore>> UsageStore::open(const QString &urlText, Options options) {
    auto url = DbUrl::parse(urlText);
    if (!url)
        return url.error();
    const QString name = QStringLiteral("gq-usage-%1").arg(g_connectionCounter.fetchAndAddRelaxed(1));
    std::unique_ptr<UsageStore> store(new UsageStore(*url, std::move(options), name));
    if (auto r = store->connect(); !r)
        return r.error();
    if (auto r = store->migrate(); !r)
        return r.error();
    if (auto r = store->loadSettings(); !r)
        return r.error();
    if (store->m_options.cacheChecks)
        if (auto r = store->setUpCheckCache(); !r)
            return r.error();
    return store;
}

Result<void> UsageStore::connect() {
    const bool pg = isPostgres();
    QSqlDatabase db =
        QSqlDatabase::addDatabase(pg ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"), m_connectionName);
    if (!db.isValid())
        return Error::make(
            Error::Kind::Database,
            QStringLiteral("the Qt SQL driver %1 is not installed (Debian: %2)")
                .arg(pg ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"),
                     pg ? QStringLiteral("libqt6sql6-psql") : QStringLiteral("libqt6sql6-sqlite")));
    if (pg) {
        db.setHostName(m_url.host);
        db.setPort(m_url.port);
        db.setUserName(m_url.user);
        db.setDatabaseName(m_url.database);
        // No password here on purpose: libpq reads PGPASSWORD / ~/.pgpass itself.
        QStringList opts{QStringLiteral("connect_timeout=%1").arg(m_url.connectTimeoutSeconds)};
        if (!m_url.sslmode.isEmpty())
            opts << QStringLiteral("sslmode=") + m_url.sslmode;
        db.setConnectOptions(opts.join(QLatin1Char(';')));
    } else {
        db.setDatabaseName(m_url.path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(m_options.busyTimeoutMs));
    }
    if (!db.open()) {
        Error e = Error::make(
            Error::Kind::Database,
            pg ? QStringLiteral("cannot connect to PostgreSQL at %1:%2 (database %3, user %4): %5")
                     .arg(m_url.host)
                     .arg(m_url.port)
                     .arg(m_url.database, m_url.user, db.lastError().text().trimmed())
               : QStringLiteral("cannot open SQLite database %1: %2")
                     .arg(m_url.path, db.lastError().text().trimmed()));
        e.reason = QStringLiteral("Unreachable");
        return e;
    }
    QSqlQuery q(db);
    if (pg) {
        if (auto r = execSql(q, QStringLiteral("SET client_min_messages TO warning")); !r)
            return r;
        if (!m_url.schema.isEmpty()) {
            // The schema name was checked to be a plain identifier in DbUrl::parse;
            // identifiers cannot be bound as values.
            if (auto r = execSql(q, QStringLiteral("CREATE SCHEMA IF NOT EXISTS \"%1\"").arg(m_url.schema));
                !r)
                return r;
            if (auto r = execSql(q, QStringLiteral("SET search_path TO \"%1\"").arg(m_url.schema)); !r)
                return r;
        }
    } else {
        if (m_url.path != QLatin1String(":memory:")) {
            if (auto r = execSql(q, QStringLiteral("PRAGMA journal_mode = WAL")); !r)
                return r;
        }
        if (auto r = execSql(q, QStringLiteral("PRAGMA synchronous = NORMAL")); !r)
            return r;
        // A larger page cache (64 MiB) keeps the rollup and index B-trees of a big
        // ledger in memory during bulk loads.
        if (auto r = execSql(q, QStringLiteral("PRAGMA cache_size = -65536")); !r)
            return r;
    }
    return {};
}

Result<void> UsageStore::migrate() {
    const bool pg = isPostgres();
    QSqlDatabase db = database();
    auto tableExists = [&](const QString &table) -> Result<bool> {
        QSqlQuery q(db);
        if (auto r = prepare(
                q, pg ? QStringLiteral("SELECT 1 FROM information_schema.tables"
                                       " WHERE table_schema = current_schema() AND table_name = ?")
                      : QStringLiteral("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"));
            !r)
            return r.error();
        q.addBindValue(nonNull(table));
        if (auto r = exec(q, QStringLiteral("inspecting the schema")); !r)
            return r.error();
        return q.next();
    };
    auto currentVersion = [&]() -> Result<int> {
        auto has = tableExists(QStringLiteral("schema_version"));
        if (!has)
            return has.error();
        if (!*has) {
            auto foreign = tableExists(QStringLiteral("usage_intervals"));
            if (!foreign)
                return foreign.error();
            if (*foreign)
                return Error::make(
                    Error::Kind::Schema,
                    QStringLiteral("%1 has a usage_intervals table but no schema_version: not a "
                                   "gpuquota database, or a damaged one")
                        .arg(m_url.display()));
            return 0;
        }
        return schemaVersion();
    };

    auto v = currentVersion();
    if (!v)
        return v.error();
    if (*v > kSchemaVersion)
        return Error::make(Error::Kind::Schema,
                           QStringLiteral("the database %1 has schema version %2, newer than this gpuquota "
                                          "understands (%3); upgrade gpuquota")
                               .arg(m_url.display())
                               .arg(*v)
                               .arg(kSchemaVersion));
    if (*v == kSchemaVersion)
        return {};

    UsageStoreTx tx(*this, m_txDepth);
    if (auto r = tx.begin(); !r)
        return r;
    QSqlQuery q(db);
    if (pg) {
        // Two processes opening a fresh database at once: one migrates, the other waits
        // and then sees the new version.
        if (auto r = execSql(q, QStringLiteral("SELECT pg_advisory_xact_lock(7301062001)")); !r)
            return r;
    }
    v = currentVersion();
    if (!v)
        return v.error();
    if (*v == 0) {
        if (auto r = execSql(q, QStringLiteral("CREATE TABLE schema_version (version INTEGER NOT NULL,"
                                               " applied_at BIGINT NOT NULL)"));
            !r)
            return r;
    }
    for (int target = *v + 1; target <= kSchemaVersion; ++target) {
        if (target == 1) {
            for (const char *sql : kSchemaV1)
                if (auto r = execSql(q, dialect(QString::fromLatin1(sql), pg)); !r)
                    return r;
            auto zone = parseZone(m_options.rollupZone, QStringLiteral("rollupZone"));
            if (!zone)
                return zone.error();
            QSqlQuery setting(db);
            if (auto r = prepare(setting,
                                 QStringLiteral("INSERT INTO store_settings (name, value) VALUES (?, ?)"));
                !r)
                return r;
            setting.addBindValue(QStringLiteral("rollup_tz"));
            setting.addBindValue(QString::fromUtf8(zone->id()));
            if (auto r = exec(setting, QStringLiteral("storing the rollup zone")); !r)
                return r;
            if (pg) {
                for (const char *sql : kAuditTriggersPg)
                    if (auto r = execSql(q, QString::fromLatin1(sql)); !r)
                        return r;
            } else {
                for (const char *sql : kAuditTriggersSqlite)
                    if (auto r = execSql(q, QString::fromLatin1(sql)); !r)
                        return r;
            }
        }
        if (target == 2 && pg) {
            if (auto r = execSql(q, QString::fromLatin1(kNotifyFunctionPg)); !r)
                return r;
            for (const char *table : kNotifyTables)
                if (auto r = execSql(q, QStringLiteral("CREATE TRIGGER %1_notify AFTER INSERT OR UPDATE OR "
                                                       "DELETE OR TRUNCATE ON %1 FOR EACH STATEMENT EXECUTE "
                                                       "FUNCTION gpuquota_notify_usage()")
                                            .arg(QLatin1String(table)));
                    !r)
                    return r;
        }
        QSqlQuery ins(db);
        if (auto r = prepare(
                ins, QStringLiteral("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)"));
            !r)
            return r;
        ins.addBindValue(target);
        ins.addBindValue(QDateTime::currentSecsSinceEpoch());
        if (auto r = exec(ins, QStringLiteral("recording the schema version")); !r)
            return r;
    }
    return tx.commit();
}

Result<void> UsageStore::loadSettings() {
    QSqlQuery q(database());
    if (auto r = execSql(q, QStringLiteral("SELECT value FROM store_settings WHERE name = 'rollup_tz'")); !r)
        return r;
    const QString id = q.next() ? q.value(0).toString() : QStringLiteral("UTC");
    auto zone = parseZone(id, QStringLiteral("rollup_tz"));
    if (!zone)
        return Error::make(
            Error::Kind::Schema,
            QStringLiteral("the database's rollup zone '%1' is unknown to this system").arg(id));
    m_rollupZone = QString::fromUtf8(zone->id());
    m_days = std::make_unique<DayIndex>(*zone);
    return {};
}

Result<int> UsageStore::schemaVersion() const {
    QSqlQuery q(database());
    if (auto r = execSql(q, QStringLiteral("SELECT MAX(version) FROM schema_version")); !r)
        return r.error();
    return q.next() ? q.value(0).toInt() : 0;
}

// --- low-level helpers ------------------------------------------------------------

Error UsageStore::sqlError(const QSqlError &err, const QString &what) const {
    Error e = Error::make(Error::Kind::Database, QStringLiteral("%1: %2").arg(what, err.text().trimmed()));
    const QString code = err.nativeErrorCode();
    if (!isPostgres() && (code == QLatin1String("5") || code == QLatin1String("6"))) {
        e.reason = QStringLiteral("Locked");
        e.message = QStringLiteral("%1: the database %2 is locked by another writer (waited %3 ms)")
                        .arg(what, m_url.path)
                        .arg(m_options.busyTimeoutMs);
    } else if (isPostgres() && !database().isOpen()) {
        e.reason = QStringLiteral("Unreachable");
    }
    return e;
}

Error UsageStore::sqlError(const QSqlQuery &q, const QString &what) const {
    return sqlError(q.lastError(), what);
}

Error UsageStore::sqlError(const QSqlDatabase &db, const QString &what) const {
    return sqlError(db.lastError(), what);
}

Result<void> UsageStore::prepare(QSqlQuery &q, const QString &sql) const {
    if (!q.prepare(sql))
        return sqlError(q, QStringLiteral("preparing a statement"));
    return {};
}

Result<void> UsageStore::exec(QSqlQuery &q, const QString &what) const {
    if (!q.exec())
        return sqlError(q, what);
    return {};
}

Result<void> UsageStore::execSql(QSqlQuery &q, const QString &sql) const {
    if (!q.exec(sql))
        return sqlError(q, sql.left(60));
    return {};
}

static sqlite3 *nativeSqlite(const QSqlDatabase &db) {
    const QVariant v = db.driver()->handle();
    if (!v.isValid() || qstrcmp(v.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(v.constData());
}

Result<void> UsageStore::setUpCheckCache() {
    auto cache = std::make_unique<CheckCache>();
    QSqlDatabase db = database();
    if (isPostgres()) {
        const QVariant h = db.driver()->handle();
        // Registered as the struct behind the PGconn typedef.
        if (h.isValid() && (qstrcmp(h.typeName(), "pg_conn*") == 0 || qstrcmp(h.typeName(), "PGconn*") == 0))
            cache->pgConn = *static_cast<void *const *>(h.constData());
        // Only the libpq the driver plugin has loaded (RTLD_NOLOAD): a different copy
        // must never touch that connection.
        if (cache->pgConn)
            cache->libpq = dlopen("libpq.so.5", RTLD_LAZY | RTLD_NOLOAD);
        if (cache->libpq) {
            cache->consumeInput = reinterpret_cast<PqConsumeInput>(dlsym(cache->libpq, "PQconsumeInput"));
            cache->notifies = reinterpret_cast<PqNotifies>(dlsym(cache->libpq, "PQnotifies"));
            cache->freemem = reinterpret_cast<PqFreemem>(dlsym(cache->libpq, "PQfreemem"));
            cache->transactionStatus =
                reinterpret_cast<PqTransactionStatus>(dlsym(cache->libpq, "PQtransactionStatus"));
        }
        if (cache->consumeInput && cache->notifies && cache->freemem && cache->transactionStatus) {
            QSqlQuery q(db);
            if (auto r = execSql(q, QStringLiteral("LISTEN %1").arg(QLatin1String(kNotifyChannel))); !r)
                return r;
            cache->usable = true;
        } else {
            qWarning(
                "gpuquota: the PostgreSQL driver's libpq.so.5 is not reachable; admission checks are not "
                "cached");
        }
    } else {
        sqlite3 *h = nativeSqlite(db);
        if (h && sqlite3_prepare_v2(h, "PRAGMA data_version", -1, &cache->dataVersion, nullptr) == SQLITE_OK)
            cache->usable = true;
    }
    m_checkCache = std::move(cache);
    return {};
}

UsageStore::CheckCacheStats UsageStore::checkCacheStats() const {
    if (!m_checkCache)
        return {};
    CheckCacheStats s = m_checkCache->stats;
    s.active = m_checkCache->usable;
    return s;
}

void UsageStore::invalidateChecks() const {
    if (m_checkCache)
        m_checkCache->clear();
}

bool UsageStore::refreshCheckCache() const {
    CheckCache &c = *m_checkCache;
    if (!c.usable)
        return false;
    // Inside a transaction of this connection a check must see its uncommitted writes,
    // which may yet roll back: read afresh and keep nothing.
    if (m_txDepth > 0)
        return false;
    if (isPostgres()) {
        // ACTIVE (a kept forward-only statement's end not yet collected by Qt) hides
        // the transaction state: the last one seen stands until the next idle/in-tx.
        const int status = c.transactionStatus(c.pgConn);
        if (status != kPqTransActive)
            c.pgInTransaction = status != kPqTransIdle;
        if (c.pgInTransaction)
            return false;
        // Non-blocking: reads what has reached the socket, queues notifications.
        if (!c.consumeInput(c.pgConn)) {
            c.clear();
            return false;
        }
        bool changed = false;
        while (PgNotifyRecord *n = c.notifies(c.pgConn)) {
            if (qstrcmp(n->relname, kNotifyChannel) == 0)
                changed = true;

            c.freemem(n);
        }
        if (changed) {
            c.clear();
            ++c.stats.changes;
        }
        return true;
    }
    // PRAGMA data_version moves with commits of other connections; the change
    // counter with this connection's own writes, including raw SQL on database().
    sqlite3 *h = sqlite3_db_handle(c.dataVersion);
    if (!sqlite3_get_autocommit(h))
        return false;
    const int rc = sqlite3_step(c.dataVersion);
    const qint64 version = rc == SQLITE_ROW ? sqlite3_column_int64(c.dataVersion, 0) : -1;
    sqlite3_reset(c.dataVersion);
    if (version < 0) {
        c.clear();
        return false;
    }
    const qint64 changes = sqlite3_total_changes64(h);
    if (version != c.sqliteVersion || changes != c.sqliteChanges) {
        if (c.sqliteVersion >= 0)
            ++c.stats.changes;
        c.clear();
        c.sqliteVersion = version;
        c.sqliteChanges = changes;
    }
    return true;
}

Result<QSqlQuery *> UsageStore::cached(const QString &sql) const {
    auto it = m_statements.constFind(sql);
    if (it != m_statements.cend())
        return it->get();
    auto q = std::make_shared<QSqlQuery>(database());
    q->setForwardOnly(true);
    if (!q->prepare(sql))
        return sqlError(*q, QStringLiteral("preparing a statement"));
    m_statements.insert(sql, q);
    return q.get();
}

Result<void> UsageStore::begin() {
    invalidateChecks();
    QSqlDatabase db = database();
    if (isPostgres()) {
        if (!db.transaction())
            return sqlError(db, QStringLiteral("starting a transaction"));
        return {};
    }
    // IMMEDIATE takes the write lock up front, so the busy timeout applies here
    // instead of failing later when a read lock would have to be upgraded.
    QSqlQuery q(db);
    return execSql(q, QStringLiteral("BEGIN IMMEDIATE"));
}

Result<void> UsageStore::commit() {
    invalidateChecks();
    QSqlDatabase db = database();
    if (isPostgres()) {
        if (!db.commit())
            return sqlError(db, QStringLiteral("committing"));
        return {};
    }
    QSqlQuery q(db);
    return execSql(q, QStringLiteral("COMMIT"));
}

void UsageStore::rollback() {
    invalidateChecks();
    QSqlDatabase db = database();
    if (isPostgres()) {
        db.rollback();
        return;
    }
    QSqlQuery q(db);
    q.exec(QStringLiteral("ROLLBACK"));
}

// --- rollups ----------------------------------------------------------------------

Result<void> UsageStore::flushRollups(const RollupDelta &delta) {
    QSqlDatabase db = database();
    auto flush = [&](const RollupMap &map, const QString &table, const QString &column) -> Result<void> {
        if (map.isEmpty())
            return {};
        const QString time =
            table.endsWith(QLatin1String("_day")) ? QStringLiteral("day_s") : QStringLiteral("hour_s");
        const QString head =
            QStringLiteral("INSERT INTO %1 (%2, %3, gpu_seconds) VALUES ").arg(table, column, time);
        const QString tail = QStringLiteral(" ON CONFLICT (%2, %3) DO UPDATE SET gpu_seconds = "
                                            "%1.gpu_seconds + excluded.gpu_seconds")
                                 .arg(table, column, time);
        auto sqlFor = [&](int rows) -> QString {
            QStringList values;
            values.reserve(rows);
            for (int i = 0; i < rows; ++i)
                values << QStringLiteral("(?, ?, ?)");
            return head + values.join(QLatin1Char(',')) + tail;
        };
        QSqlQuery full(db);
        bool fullPrepared = false;
        std::vector<std::pair<RollupKey, double>> batch;
        batch.reserve(kBatchRows);
        auto run = [&](QSqlQuery &q) -> Result<void> {
            int i = 0;
            for (const auto &[key, v] : batch) {
                q.bindValue(i++, nonNull(key.first));
                q.bindValue(i++, key.second);
                q.bindValue(i++, v);
            }
            return exec(q, QStringLiteral("updating %1").arg(table));
        };
        for (auto it = map.cbegin(); it != map.cend(); ++it) {
            batch.emplace_back(it.key(), it.value());
            if (int(batch.size()) == kBatchRows) {
                if (!fullPrepared) {
                    if (auto r = prepare(full, sqlFor(kBatchRows)); !r)
                        return r;
                    fullPrepared = true;
                }
                if (auto r = run(full); !r)
                    return r;
                batch.clear();
            }
        }
        if (!batch.empty()) {
            QSqlQuery rest(db);
            if (auto r = prepare(rest, sqlFor(int(batch.size()))); !r)
                return r;
            if (auto r = run(rest); !r)
                return r;
        }
        return {};
    };
    if (auto r = flush(delta.nsHour, QStringLiteral("rollup_ns_hour"), QStringLiteral("ns")); !r)
        return r;
    if (auto r = flush(delta.userHour, QStringLiteral("rollup_user_hour"), QStringLiteral("user_name")); !r)
        return r;
    if (auto r = flush(delta.nsDay, QStringLiteral("rollup_ns_day"), QStringLiteral("ns")); !r)
        return r;
    return flush(delta.userDay, QStringLiteral("rollup_user_day"), QStringLiteral("user_name"));
}

// --- intervals --------------------------------------------------------------------

Result<UsageStore::UpsertOutcome> UsageStore::upsertInterval(const UsageInterval &iv) {
    UsageStoreTx tx(*this, m_txDepth);
    if (auto r = tx.begin(); !r)
        return r.error();
    auto out = upsertIntervalInTx(iv);
    if (!out)
        return out;
    if (auto r = tx.commit(); !r)
        return r.error();
    return out;
}

Result<UsageStore::UpsertOutcome> UsageStore::upsertIntervalInTx(const UsageInterval &iv) {
    if (auto v = validateInterval(iv); !v)
        return v.error();
    QSqlDatabase db = database();
    const double weight = m_options.weights.weight(iv.resource);
    QSqlQuery find(db);
    if (auto r = prepare(find, QStringLiteral("SELECT id, ns, user_name, pod_name, gpus, weight, end_s "
                                              "FROM usage_intervals WHERE cluster = ? AND pod_uid = ? "
                                              "AND resource = ? AND start_s = ?"));
        !r)
        return r.error();
    find.addBindValue(nonNull(iv.cluster));
    find.addBindValue(nonNull(iv.podUid));
    find.addBindValue(nonNull(iv.resource));
    find.addBindValue(iv.start);
    if (auto r = exec(find, QStringLiteral("looking up an interval")); !r)
        return r.error();
    const QVariant endValue = iv.end ? QVariant(*iv.end) : QVariant(QMetaType(QMetaType::LongLong));
    RollupDelta delta;
    UpsertOutcome outcome = UpsertOutcome::Inserted;
    if (find.next()) {
        const qint64 id = find.value(0).toLongLong();
        const QString oldNs = find.value(1).toString(), oldUser = find.value(2).toString();
        const int oldGpus = find.value(4).toInt();
        const double oldWeight = find.value(5).toDouble();
        // (A plain flag and value rather than std::optional: GCC 12 -O2 warns spuriously.)
        const bool oldOpen = find.value(6).isNull();
        const qint64 oldEnd = oldOpen ? 0 : find.value(6).toLongLong();
        const bool sameEnd = oldOpen ? !iv.end.has_value() : (iv.end.has_value() && *iv.end == oldEnd);
        if (oldNs == iv.ns && oldUser == iv.user && find.value(3).toString() == iv.podName &&
            oldGpus == iv.gpus && sameEnd && std::abs(oldWeight - weight) < 1e-12)
            return UpsertOutcome::Unchanged;
        if (!oldOpen)
            accumulate(delta, oldNs, oldUser, iv.start, oldEnd, -oldGpus * oldWeight);
        QSqlQuery upd(db);
        if (auto r =
                prepare(upd, QStringLiteral("UPDATE usage_intervals SET ns = ?, user_name = ?, pod_name = ?, "
                                            "gpus = ?, weight = ?, end_s = ?, source = ? WHERE id = ?"));
            !r)
            return r.error();
        upd.addBindValue(nonNull(iv.ns));
        upd.addBindValue(nonNull(iv.user));
        upd.addBindValue(nonNull(iv.podName));
        upd.addBindValue(iv.gpus);
        upd.addBindValue(weight);
        upd.addBindValue(endValue);
        upd.addBindValue(nonNull(iv.source));
        upd.addBindValue(id);
        if (auto r = exec(upd, QStringLiteral("updating an interval")); !r)
            return r.error();
        outcome = UpsertOutcome::Updated;
    } else {
        QSqlQuery ins(db);
        if (auto r = prepare(
                ins, QStringLiteral("INSERT INTO usage_intervals (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                                    "?, ?, ?)")
                         .arg(QLatin1String(kIntervalColumns)));
            !r)
            return r.error();
        ins.addBindValue(nonNull(iv.cluster));
        ins.addBindValue(nonNull(iv.ns));
        ins.addBindValue(nonNull(iv.user));
        ins.addBindValue(nonNull(iv.podUid));
        ins.addBindValue(nonNull(iv.podName));
        ins.addBindValue(nonNull(iv.resource));
        ins.addBindValue(iv.gpus);
        ins.addBindValue(weight);
        ins.addBindValue(iv.start);
        ins.addBindValue(endValue);
        ins.addBindValue(nonNull(iv.source));
        if (auto r = exec(ins, QStringLiteral("inserting an interval")); !r)
            return r.error();
    }
    if (iv.end)
        accumulate(delta, iv.ns, iv.user, iv.start, *iv.end, iv.gpus * weight);
    if (auto r = flushRollups(delta); !r)
        return r.error();
    return outcome;
}

Result<bool> UsageStore::closeInterval(const QString &cluster, const QString &podUid, const QString &resource,
                                       qint64 start, qint64 end) {
    if (end <= start)
        return Error::make(Error::Kind::Invalid,
                           end == start ? QStringLiteral("zero-length interval: end equals start")
                                        : QStringLiteral("reversed interval: end is before start"),
                           QStringLiteral("end"));
    UsageStoreTx tx(*this, m_txDepth);
    if (auto r = tx.begin(); !r)
        return r.error();
    QSqlDatabase db = database();
    QSqlQuery find(db);
    if (auto r =
            prepare(find, QStringLiteral("SELECT id, ns, user_name, gpus, weight FROM usage_intervals "
                                         "WHERE cluster = ? AND pod_uid = ? AND resource = ? AND start_s = ? "
                                         "AND end_s IS NULL"));
        !r)
        return r.error();
    find.addBindValue(nonNull(cluster));
    find.addBindValue(nonNull(podUid));
    find.addBindValue(nonNull(resource));
    find.addBindValue(start);
    if (auto r = exec(find, QStringLiteral("looking up a running interval")); !r)
        return r.error();
    if (!find.next())
        return false;
    const qint64 id = find.value(0).toLongLong();
    RollupDelta delta;
    accumulate(delta, find.value(1).toString(), find.value(2).toString(), start, end,
               find.value(3).toInt() * find.value(4).toDouble());
    QSqlQuery upd(db);
    if (auto r = prepare(upd, QStringLiteral("UPDATE usage_intervals SET end_s = ? WHERE id = ?")); !r)
        return r.error();
    upd.addBindValue(end);
    upd.addBindValue(id);
    if (auto r = exec(upd, QStringLiteral("closing an interval")); !r)
        return r.error();
    if (auto r = flushRollups(delta); !r)
        return r.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return true;
}

Result<qint64> UsageStore::insertBulk(const std::vector<UsageInterval> &intervals) {
    auto load = beginBulk(qint64(intervals.size()));
    if (!load)
        return load.error();
    if (auto r = (*load)->add(intervals); !r)
        return r.error();
    return (*load)->finish();
}

Result<std::unique_ptr<UsageStore::BulkLoad>> UsageStore::beginBulk(qint64 expectedRows) {
    assertThread();
    if (m_bulkActive)
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("a bulk load is already running on this store"));
    std::unique_ptr<BulkLoad> load(new BulkLoad(*this));
    load->m_tx = std::make_unique<UsageStoreTx>(*this, m_txDepth);
    if (auto r = load->m_tx->begin(); !r)
        return r.error();
    m_bulkActive = true;
    QSqlQuery q(database());
    if (isPostgres()) {
        // Durability of this one commit is not worth a synchronous WAL flush wait.
        if (auto r = execSql(q, QStringLiteral("SET LOCAL synchronous_commit = off")); !r)
            return r.error();
    } else {
        // A larger page cache for the load (256 MiB); restored when it ends.
        if (auto r = execSql(q, QStringLiteral("PRAGMA cache_size = -262144")); !r)
            return r.error();
    }
    if (expectedRows >= kDropIndexesFrom) {
        // Only when the load dominates what is there: rebuilding the indexes of a large
        // table for a comparatively small load would cost more than it saves.
        QSqlQuery c(database());
        if (auto r =
                prepare(c, QStringLiteral("SELECT COUNT(*) FROM (SELECT 1 FROM usage_intervals LIMIT ?) t"));
            !r)
            return r.error();
        c.addBindValue(expectedRows + 1);
        if (auto r = exec(c, QStringLiteral("counting intervals")); !r)
            return r.error();
        const qint64 existing = c.next() ? c.value(0).toLongLong() : 0;
        c.finish();
        if (existing <= expectedRows) {
            if (isPostgres()) {
                // Index builds at finish() sort millions of entries; the default 64 MB
                // spills them to disk in many runs.
                QSqlQuery m(database());
                if (auto r = execSql(m, QStringLiteral("SET LOCAL maintenance_work_mem = '512MB'")); !r)
                    return r.error();
            }
            if (auto r = setSecondaryIndexes(false); !r)
                return r.error();
            load->m_droppedIndexes = true;
        }
    }
    return load;
}

UsageStore::BulkLoad::BulkLoad(UsageStore &store)
    : m_store(store)
    , m_acc(std::make_unique<RollupAccumulator>(*store.m_days)) {}

UsageStore::BulkLoad::~BulkLoad() {
    if (!m_done) {
        m_tx.reset(); // rolls back, including dropped indexes
        if (!m_store.isPostgres()) {
            QSqlQuery q(m_store.database());
            q.exec(QStringLiteral("PRAGMA cache_size = -65536"));
        }
    }
    m_store.m_bulkActive = false;
}

Result<void> UsageStore::BulkLoad::add(const std::vector<UsageInterval> &chunk) {
    if (m_done || m_failed)
        return Error::make(Error::Kind::Internal, QStringLiteral("the bulk load has already ended"));
    const ResourceWeights &weights = m_store.m_options.weights;
    for (size_t k = 0; k < chunk.size(); ++k) {
        const UsageInterval &iv = chunk[k];
        if (auto v = validateInterval(iv); !v) {
            m_failed = true;
            Error e = v.error();
            e.message = QStringLiteral("interval %1: %2").arg(m_added + qint64(k)).arg(e.message);
            return e;
        }
        if (iv.end && !m_acc->add(iv.ns, iv.user, iv.start, *iv.end, iv.gpus * weights.weight(iv.resource))) {
            m_failed = true;
            return Error::make(Error::Kind::Invalid, QStringLiteral("more than 16 million distinct subjects"),
                               QStringLiteral("user"));
        }
    }
    if (auto r = m_store.writeIntervals(chunk, 0, chunk.size()); !r) {
        m_failed = true;
        return r;
    }
    m_added += qint64(chunk.size());
    // Bound the client's memory on very large loads; the rollups stay in this
    // transaction either way (a partial flush adds to the stored cells).
    if (m_acc->size() > kMaxRollupCells) {
        if (auto r = m_store.writeRollups(*m_acc, RollupWrite::Add); !r) {
            m_failed = true;
            return r;
        }
        m_acc->clear();
    }
    return {};
}

Result<qint64> UsageStore::BulkLoad::finish() {
    if (m_done || m_failed)
        return Error::make(Error::Kind::Internal, QStringLiteral("the bulk load has already ended"));
    m_failed = true; // until everything below succeeded
    if (auto r = m_store.writeRollups(*m_acc, RollupWrite::Add); !r)
        return r.error();
    m_acc->clear();
    if (m_droppedIndexes)
        if (auto r = m_store.setSecondaryIndexes(true); !r)
            return r.error();
    if (auto r = m_tx->commit(); !r)
        return r.error();
    m_tx.reset();
    m_done = true;
    m_failed = false;
    if (!m_store.isPostgres()) {
        QSqlQuery q(m_store.database());
        q.exec(QStringLiteral("PRAGMA cache_size = -65536"));
    }
    return m_added;
}

Result<void> UsageStore::setSecondaryIndexes(bool present) {
    // Kept statements may refer to plans over the dropped indexes (SQLite re-prepares
    // on schema change, but dropping them is cheap and certain).
    m_statements.clear();
    QSqlQuery q(database());
    for (const char *name : kSecondaryIndexes) {
        const QString index = QString::fromLatin1(name);
        if (!present) {
            if (auto r = execSql(q, QStringLiteral("DROP INDEX IF EXISTS %1").arg(index)); !r)
                return r;
            continue;
        }
        const QString prefix = QStringLiteral("CREATE INDEX %1 ").arg(index);
        for (const char *ddl : kSchemaV1) {
            const QString sql = QString::fromLatin1(ddl);
            if (sql.startsWith(prefix))
                if (auto r = execSql(q, dialect(sql, isPostgres())); !r)
                    return r;
        }
    }
    return {};
}

Result<void> UsageStore::writeIntervals(const std::vector<UsageInterval> &rows, size_t from, size_t to) {
    const bool pg = isPostgres();
    const int batch = pg ? kPgBulkIntervalRows : kSqliteBulkIntervalRows;
    const QVariant nullEnd(QMetaType(QMetaType::LongLong));
    const QString head =
        QStringLiteral("INSERT INTO usage_intervals (%1) ").arg(QLatin1String(kIntervalColumns));
    while (from < to) {
        const size_t n = std::min<size_t>(size_t(batch), to - from);
        if (pg) {
            auto q =
                cached(head + QStringLiteral("SELECT * FROM unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[]), "
                                             "CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), "
                                             "CAST(? AS TEXT[]), CAST(? AS INTEGER[]), "
                                             "CAST(? AS DOUBLE PRECISION[]), CAST(? AS BIGINT[]), "
                                             "CAST(? AS BIGINT[]), CAST(? AS TEXT[]))"));
            if (!q)
                return q.error();
            QString cols[11];
            for (QString &c : cols) {
                c.reserve(qsizetype(n) * 24);
                c += QLatin1Char('{');
            }
            for (size_t k = from; k < from + n; ++k) {
                const UsageInterval &iv = rows[k];
                if (k != from)
                    for (QString &c : cols)
                        c += QLatin1Char(',');
                appendPgText(cols[0], iv.cluster);
                appendPgText(cols[1], iv.ns);
                appendPgText(cols[2], iv.user);
                appendPgText(cols[3], iv.podUid);
                appendPgText(cols[4], iv.podName);
                appendPgText(cols[5], iv.resource);
                cols[6] += QString::number(iv.gpus);
                cols[7] += QString::number(m_options.weights.weight(iv.resource), 'g', 17);
                cols[8] += QString::number(iv.start);
                cols[9] += iv.end ? QString::number(*iv.end) : QStringLiteral("NULL");
                appendPgText(cols[10], iv.source);
            }
            for (int c = 0; c < 11; ++c) {
                cols[c] += QLatin1Char('}');
                (*q)->bindValue(c, cols[c]);
            }
            auto r = exec(**q, QStringLiteral("bulk-inserting intervals"));
            (*q)->finish();
            if (!r)
                return r;
        } else {
            sqlite3 *h = nativeSqlite(database());
            if (!h)
                return Error::make(Error::Kind::Internal, QStringLiteral("no native SQLite handle"));
            const QByteArray sql =
                (head + QStringLiteral("VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")).toUtf8();
            SqliteStatement st(h, sql.constData());
            if (!st.ok())
                return Error::make(Error::Kind::Database,
                                   QStringLiteral("preparing a statement: %1").arg(st.error()));
            for (size_t k = from; k < from + n; ++k) {
                const UsageInterval &iv = rows[k];
                st.text(1, iv.cluster);
                st.text(2, iv.ns);
                st.text(3, iv.user);
                st.text(4, iv.podUid);
                st.text(5, iv.podName);
                st.text(6, iv.resource);
                st.integer(7, iv.gpus);
                st.real(8, m_options.weights.weight(iv.resource));
                st.integer(9, iv.start);
                if (iv.end)
                    st.integer(10, *iv.end);
                else
                    st.null(10);
                st.text(11, iv.source);
                if (!st.step())
                    return Error::make(
                        Error::Kind::Database,
                        QStringLiteral("bulk-inserting interval %1: %2").arg(k).arg(st.error()));
            }
        }
        from += n;
    }
    return {};
}

Result<void> UsageStore::writeRollups(const RollupAccumulator &acc, RollupWrite mode) {
    for (int t = 0; t < 4; ++t) {
        const auto &cells = acc.cells(t);
        if (cells.empty())
            continue;
        // Sorted by key (subject, time): B-tree inserts in key order.
        std::vector<std::pair<quint64, double>> sorted(cells.begin(), cells.end());
        std::sort(sorted.begin(), sorted.end());
        QStringList names;
        std::vector<qint64> times;
        std::vector<double> values;
        const size_t chunk = 200000;
        for (size_t i = 0; i < sorted.size(); i += chunk) {
            names.clear();
            times.clear();
            values.clear();
            for (size_t k = i; k < std::min(sorted.size(), i + chunk); ++k) {
                names << acc.subjectName(t, sorted[k].first);
                times.push_back(RollupAccumulator::timeOf(sorted[k].first));
                values.push_back(sorted[k].second);
            }
            if (auto r = writeRollupRows(t, names, times, values, mode); !r)
                return r;
        }
    }
    return {};
}

Result<void> UsageStore::writeRollupRows(int table, const QStringList &names,
                                         const std::vector<qint64> &times, const std::vector<double> &values,
                                         RollupWrite mode) {
    const RollupTable &t = kRollupTables[table];
    const bool pg = isPostgres();
    const QString tableName = QString::fromLatin1(t.name);
    const QString tail =
        QStringLiteral(" ON CONFLICT (%1, %2) DO UPDATE SET gpu_seconds = %3excluded.gpu_seconds")
            .arg(QLatin1String(t.subjectColumn), QLatin1String(t.timeColumn),
                 mode == RollupWrite::Add ? tableName + QStringLiteral(".gpu_seconds + ") : QString());
    const QString head = QStringLiteral("INSERT INTO %1 (%2, %3, gpu_seconds) ")
                             .arg(tableName, QLatin1String(t.subjectColumn), QLatin1String(t.timeColumn));
    const size_t total = times.size();
    const size_t batch = size_t(pg ? kPgBulkRollupRows : kSqliteBulkRollupRows);
    for (size_t from = 0; from < total;) {
        const size_t n = std::min(batch, total - from);
        if (pg) {
            auto q = cached(head +
                            QStringLiteral("SELECT * FROM unnest(CAST(? AS TEXT[]), CAST(? AS BIGINT[]), "
                                           "CAST(? AS DOUBLE PRECISION[]))") +
                            tail);
            if (!q)
                return q.error();
            QString a, b, c;
            a.reserve(qsizetype(n) * 12);
            b.reserve(qsizetype(n) * 11);
            c.reserve(qsizetype(n) * 20);
            a += QLatin1Char('{');
            b += QLatin1Char('{');
            c += QLatin1Char('{');
            for (size_t k = from; k < from + n; ++k) {
                if (k != from) {
                    a += QLatin1Char(',');
                    b += QLatin1Char(',');
                    c += QLatin1Char(',');
                }
                appendPgText(a, names[qsizetype(k)]);
                b += QString::number(times[k]);
                c += QString::number(values[k], 'g', 17);
            }
            a += QLatin1Char('}');
            b += QLatin1Char('}');
            c += QLatin1Char('}');
            (*q)->bindValue(0, a);
            (*q)->bindValue(1, b);
            (*q)->bindValue(2, c);
            auto r = exec(**q, QStringLiteral("updating %1").arg(tableName));
            (*q)->finish();
            if (!r)
                return r;
        } else {
            sqlite3 *h = nativeSqlite(database());
            if (!h)
                return Error::make(Error::Kind::Internal, QStringLiteral("no native SQLite handle"));
            const QByteArray sql = (head + QStringLiteral("VALUES (?, ?, ?)") + tail).toUtf8();
            SqliteStatement st(h, sql.constData());
            if (!st.ok())
                return Error::make(Error::Kind::Database,
                                   QStringLiteral("preparing a statement: %1").arg(st.error()));
            for (size_t k = from; k < from + n; ++k) {
                st.text(1, names[qsizetype(k)]);
                st.integer(2, times[k]);
                st.real(3, values[k]);
                if (!st.step())
                    return Error::make(Error::Kind::Database,
                                       QStringLiteral("updating %1: %2").arg(tableName, st.error()));
            }
        }
        from += n;
    }
    return {};
}

Result<UsageStore::RollupRebuildReport> UsageStore::rebuildRollups() {
    UsageStoreTx tx(*this, m_txDepth);
    if (auto r = tx.begin(); !r)
        return r.error();
    RollupRebuildReport report;
    RollupAccumulator fresh(*m_days);
    {
        QSqlQuery q(database());
        q.setForwardOnly(true);
        if (auto r = execSql(q, QStringLiteral("SELECT ns, user_name, gpus, weight, start_s, end_s FROM "
                                               "usage_intervals WHERE end_s IS NOT NULL"));
            !r)
            return r.error();
        while (q.next()) {
            // The stored per-row weight, as the incremental path used when the row was written.
            if (!fresh.add(q.value(0).toString(), q.value(1).toString(), q.value(4).toLongLong(),
                           q.value(5).toLongLong(), q.value(2).toInt() * q.value(3).toDouble()))
                return Error::make(Error::Kind::Invalid,
                                   QStringLiteral("more than 16 million distinct subjects"));
            ++report.intervals;
        }
    }
    constexpr double kTolerance = 1e-3; // GPU-seconds
    for (int t = 0; t < 4; ++t) {
        const RollupTable &tab = kRollupTables[t];
        RollupTableReport tr;
        tr.table = QString::fromLatin1(tab.name);
        // The stored rows, interned with the same ids as the fresh ones.
        std::unordered_map<quint64, double> stored;
        {
            QSqlQuery q(database());
            q.setForwardOnly(true);
            if (auto r = execSql(
                    q, QStringLiteral("SELECT %1, %2, gpu_seconds FROM %3")
                           .arg(QLatin1String(tab.subjectColumn), QLatin1String(tab.timeColumn), tr.table));
                !r)
                return r.error();
            while (q.next()) {
                quint32 id = 0;
                if (!fresh.interner(t).intern(q.value(0).toString(), id))
                    return Error::make(Error::Kind::Invalid,
                                       QStringLiteral("more than 16 million distinct subjects"));
                stored[RollupAccumulator::keyOf(id, q.value(1).toLongLong())] += q.value(2).toDouble();
            }
        }
        tr.rowsBefore = qint64(stored.size());
        const auto &want = fresh.cells(t);
        QStringList names;
        std::vector<qint64> times;
        std::vector<double> values;
        for (const auto &[key, v] : want) {
            auto it = stored.find(key);
            const double have = it == stored.end() ? 0.0 : it->second;
            if (it == stored.end()) {
                ++tr.added;
            } else if (std::abs(have - v) > kTolerance) {
                ++tr.changed;
            } else {
                continue;
            }
            tr.maxAbsDiffGpuHours = std::max(tr.maxAbsDiffGpuHours, std::abs(have - v) / 3600.0);
            names << fresh.subjectName(t, key);
            times.push_back(RollupAccumulator::timeOf(key));
            values.push_back(v);
        }
        if (!names.isEmpty())
            if (auto r = writeRollupRows(t, names, times, values, RollupWrite::Replace); !r)
                return r.error();
        QSqlQuery del(database());
        bool delPrepared = false;
        for (const auto &[key, have] : stored) {
            if (want.count(key))
                continue;
            if (std::abs(have) <= kTolerance)
                continue; // replaced intervals leave zero rows behind; they are harmless
            if (!delPrepared) {
                if (auto r = prepare(del, QStringLiteral("DELETE FROM %1 WHERE %2 = ? AND %3 = ?")
                                              .arg(tr.table, QLatin1String(tab.subjectColumn),
                                                   QLatin1String(tab.timeColumn)));
                    !r)
                    return r.error();
                delPrepared = true;
            }
            del.bindValue(0, nonNull(fresh.subjectName(t, key)));
            del.bindValue(1, RollupAccumulator::timeOf(key));
            if (auto r = exec(del, QStringLiteral("deleting from %1").arg(tr.table)); !r)
                return r.error();
            ++tr.removed;
            tr.maxAbsDiffGpuHours = std::max(tr.maxAbsDiffGpuHours, std::abs(have) / 3600.0);
        }
        tr.rowsAfter = tr.rowsBefore + tr.added - tr.removed;
        report.tables << tr;
    }
    if (auto r = tx.commit(); !r)
        return r.error();
    return report;
}

Result<std::vector<UsageInterval>> UsageStore::intervals(qint64 from, qint64 to, qint64 now) const {
    QSqlQuery q(database());
    q.setForwardOnly(true);
    if (auto r = prepare(q, QStringLiteral("SELECT %1 FROM usage_intervals WHERE start_s < ? AND "
                                           "((end_s IS NULL AND ? > start_s) OR end_s > ?) "
                                           "ORDER BY start_s, cluster, pod_uid, resource")
                                .arg(QLatin1String(kIntervalColumns)));
        !r)
        return r.error();
    q.addBindValue(to);
    q.addBindValue(std::max(now, from + 1));
    q.addBindValue(from);
    if (auto r = exec(q, QStringLiteral("reading intervals")); !r)
        return r.error();
    std::vector<UsageInterval> out;
    while (q.next())
        out.push_back(intervalFromRow(q));
    return out;
}

Result<std::vector<UsageInterval>> UsageStore::runningNow(qint64 now) const {
    QSqlQuery q(database());
    q.setForwardOnly(true);
    if (auto r =
            prepare(q, QStringLiteral("SELECT %1 FROM usage_intervals WHERE end_s IS NULL AND start_s <= ? "
                                      "ORDER BY start_s, cluster, pod_uid, resource")
                           .arg(QLatin1String(kIntervalColumns)));
        !r)
        return r.error();
    q.addBindValue(now);
    if (auto r = exec(q, QStringLiteral("reading running intervals")); !r)
        return r.error();
    std::vector<UsageInterval> out;
    while (q.next())
        out.push_back(intervalFromRow(q));
    return out;
}

Result<QList<QPair<QString, QString>>> UsageStore::runningUsersByNamespace(qint64 now) const {
    QSqlQuery q(database());
    q.setForwardOnly(true);
    if (auto r =
            prepare(q, QStringLiteral("SELECT DISTINCT ns, user_name FROM usage_intervals WHERE end_s IS "
                                      "NULL AND start_s <= ? ORDER BY ns, user_name"));
        !r)
        return r.error();
    q.addBindValue(now);
    if (auto r = exec(q, QStringLiteral("reading who runs where")); !r)
        return r.error();
    QList<QPair<QString, QString>> out;
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toString()});
    return out;
}

Result<std::vector<UsageInterval>> UsageStore::runningFor(BudgetScope scope, const QString &subject) const {
    QSqlQuery q(database());
    q.setForwardOnly(true);
    if (auto r = prepare(q, QStringLiteral("SELECT %1 FROM usage_intervals WHERE end_s IS NULL AND %2 = ?")
                                .arg(QLatin1String(kIntervalColumns), scope == BudgetScope::User
                                                                          ? QLatin1String("user_name")
                                                                          : QLatin1String("ns")));
        !r)
        return r.error();
    q.addBindValue(nonNull(subject));
    if (auto r = exec(q, QStringLiteral("reading running intervals")); !r)
        return r.error();
    std::vector<UsageInterval> out;
    while (q.next())
        out.push_back(intervalFromRow(q));
    return out;
}

Result<qint64> UsageStore::intervalCount() const {
    QSqlQuery q(database());
    if (auto r = execSql(q, QStringLiteral("SELECT COUNT(*) FROM usage_intervals")); !r)
        return r.error();
    return q.next() ? q.value(0).toLongLong() : 0;
}

// --- queries ----------------------------------------------------------------------

Result<std::vector<UsageStore::SeriesPoint>> UsageStore::seriesFromIntervals(GroupBy by, Period period,
                                                                             qint64 from, qint64 to,
                                                                             const QTimeZone &tz,
                                                                             qint64 now) const {
    auto ivs = intervals(from, to, now);
    if (!ivs)
        return ivs.error();
    std::vector<SeriesPoint> out;
    const auto m = gpuHoursByPeriod(*ivs, by, from, to, period, tz, now, m_options.weights);
    for (auto b = m.cbegin(); b != m.cend(); ++b)
        for (auto s = b->cbegin(); s != b->cend(); ++s)
            out.push_back(SeriesPoint{b.key(), s.key(), s.value()});
    return out;
}

Result<std::vector<UsageStore::SeriesPoint>> UsageStore::gpuHoursSeries(GroupBy by, Period period,
                                                                        qint64 from, qint64 to,
                                                                        const QTimeZone &tz,
                                                                        qint64 now) const {
    if (to <= from)
        return Error::make(Error::Kind::Invalid, QStringLiteral("'to' must be after 'from'"),
                           QStringLiteral("to"));
    const std::vector<TimeRange> buckets = periodsCovering(from, to, period, tz);
    if (buckets.size() > 200000)
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("%1 buckets requested; choose a longer period or a shorter range")
                               .arg(buckets.size()),
                           QStringLiteral("period"));
    // Whole local days in the rollup zone: one row per subject and day.
    const bool dayPath = period != Period::Hour && QString::fromUtf8(tz.id()) == m_rollupZone &&
                         m_days->isDayStart(from) && m_days->isDayStart(to);
    bool aligned = alignedToHour(from) && alignedToHour(to);
    for (const TimeRange &b : buckets)
        aligned = aligned && alignedToHour(b.start) && alignedToHour(b.end);
    if (!dayPath && !aligned)
        return seriesFromIntervals(by, period, from, to, tz, now);

    const QString table =
        by == GroupBy::Namespace ? QStringLiteral("rollup_ns_hour") : QStringLiteral("rollup_user_hour");
    const QString column = by == GroupBy::Namespace ? QStringLiteral("ns") : QStringLiteral("user_name");
    QMap<qint64, QMap<QString, double>> acc;
    QSqlDatabase db = database();
    if (dayPath) {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        if (auto r = prepare(
                q, QStringLiteral("SELECT day_s, %2, gpu_seconds FROM %1 WHERE day_s >= ? AND day_s < ?")
                       .arg(by == GroupBy::Namespace ? QStringLiteral("rollup_ns_day")
                                                     : QStringLiteral("rollup_user_day"),
                            column));
            !r)
            return r.error();
        q.addBindValue(from);
        q.addBindValue(to);
        if (auto r = exec(q, QStringLiteral("reading daily rollups")); !r)
            return r.error();
        QHash<qint64, qint64> bucketOfDay;
        while (q.next()) {
            const qint64 day = q.value(0).toLongLong();
            auto it = bucketOfDay.find(day);
            if (it == bucketOfDay.end())
                it = bucketOfDay.insert(day, period == Period::Day ? day
                                                                   : periodContaining(day, period, tz).start);
            acc[*it][q.value(1).toString()] += q.value(2).toDouble() / 3600.0;
        }
    } else if (period == Period::Hour) {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        if (auto r = prepare(q, QStringLiteral("SELECT hour_s, %2, gpu_seconds FROM %1 WHERE hour_s >= ? AND "
                                               "hour_s < ?")
                                    .arg(table, column));
            !r)
            return r.error();
        q.addBindValue(from);
        q.addBindValue(to);
        if (auto r = exec(q, QStringLiteral("reading hourly rollups")); !r)
            return r.error();
        while (q.next())
            acc[q.value(0).toLongLong()][q.value(1).toString()] += q.value(2).toDouble() / 3600.0;
    } else {
        // Calendar buckets are irregular (DST, month lengths), so their bounds are passed
        // as a VALUES list and joined; the database aggregates, the client receives one
        // row per bucket and subject.
        constexpr size_t kChunk = 300;
        for (size_t i = 0; i < buckets.size(); i += kChunk) {
            const size_t n = std::min(kChunk, buckets.size() - i);
            QStringList values;
            for (size_t k = 0; k < n; ++k)
                values << QStringLiteral("(CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))");
            QSqlQuery q(db);
            q.setForwardOnly(true);
            if (auto r = prepare(
                    q, QStringLiteral("SELECT b.column1, r.%2, SUM(r.gpu_seconds) FROM %1 r JOIN "
                                      "(VALUES %3) b ON r.hour_s >= b.column2 AND r.hour_s < b.column3 "
                                      "GROUP BY b.column1, r.%2")
                           .arg(table, column, values.join(QLatin1Char(','))));
                !r)
                return r.error();
            for (size_t k = i; k < i + n; ++k) {
                q.addBindValue(buckets[k].start);
                q.addBindValue(std::max(buckets[k].start, from));
                q.addBindValue(std::min(buckets[k].end, to));
            }
            if (auto r = exec(q, QStringLiteral("reading rollups")); !r)
                return r.error();
            while (q.next())
                acc[q.value(0).toLongLong()][q.value(1).toString()] += q.value(2).toDouble() / 3600.0;
        }
    }
    // Running pods are not in the rollups yet: add what they have used up to now.
    auto running = runningNow(now);
    if (!running)
        return running.error();
    const auto live = gpuHoursByPeriod(*running, by, from, to, period, tz, now, m_options.weights);
    for (auto b = live.cbegin(); b != live.cend(); ++b)
        for (auto s = b->cbegin(); s != b->cend(); ++s)
            acc[b.key()][s.key()] += s.value();

    std::vector<SeriesPoint> out;
    for (auto b = acc.cbegin(); b != acc.cend(); ++b)
        for (auto s = b->cbegin(); s != b->cend(); ++s)
            if (s.value() > 1e-12) // replaced intervals may leave exact-zero rollup rows
                out.push_back(SeriesPoint{b.key(), s.key(), s.value()});
    return out;
}

Result<QMap<QString, double>> UsageStore::subjectTotals(GroupBy by, qint64 from, qint64 to,
                                                        qint64 now) const {
    QMap<QString, double> totals;
    const bool dayPath = m_days->isDayStart(from) && m_days->isDayStart(to);
    if (!dayPath && (!alignedToHour(from) || !alignedToHour(to))) {
        auto ivs = intervals(from, to, now);
        if (!ivs)
            return ivs.error();
        for (const UsageInterval &iv : *ivs)
            totals[by == GroupBy::User ? iv.user : iv.ns] +=
                gpuSeconds(iv, TimeRange{from, to}, now, m_options.weights) / 3600.0;
        return totals;
    }
    const QString table =
        by == GroupBy::Namespace ? QStringLiteral("rollup_ns_hour") : QStringLiteral("rollup_user_hour");
    const QString column = by == GroupBy::Namespace ? QStringLiteral("ns") : QStringLiteral("user_name");
    QSqlQuery q(database());
    q.setForwardOnly(true);
    if (auto r = prepare(
            q,
            QStringLiteral("SELECT %2, SUM(gpu_seconds) FROM %1 WHERE %3 >= ? AND %3 < ? "
                           "GROUP BY %2")
                .arg(dayPath ? QString(table).replace(QLatin1String("_hour"), QLatin1String("_day")) : table,
                     column, dayPath ? QStringLiteral("day_s") : QStringLiteral("hour_s")));
        !r)
        return r.error();
    q.addBindValue(from);
    q.addBindValue(to);
    if (auto r = exec(q, QStringLiteral("reading rollups")); !r)
        return r.error();
    while (q.next())
        totals[q.value(0).toString()] += q.value(1).toDouble() / 3600.0;
    auto running = runningNow(now);
    if (!running)
        return running.error();
    for (const UsageInterval &iv : *running)
        totals[by == GroupBy::User ? iv.user : iv.ns] +=
            gpuSeconds(iv, TimeRange{from, to}, now, m_options.weights) / 3600.0;
    return totals;
}

Result<std::vector<std::pair<QString, double>>> UsageStore::topUsers(qint64 from, qint64 to, int n,
                                                                     qint64 now) const {
    auto totals = subjectTotals(GroupBy::User, from, to, now);
    if (!totals)
        return totals.error();
    std::vector<std::pair<QString, double>> out;
    for (auto it = totals->cbegin(); it != totals->cend(); ++it)
        if (it.value() > 1e-12)
            out.emplace_back(it.key(), it.value());
    std::stable_sort(out.begin(), out.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    if (n >= 0 && out.size() > size_t(n))
        out.resize(size_t(n));
    return out;
}

Result<double> UsageStore::usedGpuHours(BudgetScope scope, const QString &subject, const TimeRange &window,
                                        qint64 now) const {
    return usedGpuHoursWith(scope, subject, window, now, nullptr);
}

Result<double> UsageStore::usedGpuHoursWith(BudgetScope scope, const QString &subject,
                                            const TimeRange &window, qint64 now,
                                            const std::vector<UsageInterval> *knownRunning) const {
    const bool user = scope == BudgetScope::User;
    const QString table = user ? QStringLiteral("rollup_user_hour") : QStringLiteral("rollup_ns_hour");
    const QString column = user ? QStringLiteral("user_name") : QStringLiteral("ns");
    const bool dayPath = m_days->isDayStart(window.start) && m_days->isDayStart(window.end);
    if (!dayPath && (!alignedToHour(window.start) || !alignedToHour(window.end))) {
        // Exact path for zones whose calendar is not on whole UTC hours.
        QSqlQuery q(database());
        q.setForwardOnly(true);
        if (auto r =
                prepare(q, QStringLiteral("SELECT %1 FROM usage_intervals WHERE %2 = ? AND start_s < ? AND "
                                          "(end_s IS NULL OR end_s > ?)")
                               .arg(QLatin1String(kIntervalColumns), column));
            !r)
            return r.error();
        q.addBindValue(nonNull(subject));
        q.addBindValue(window.end);
        q.addBindValue(window.start);
        if (auto r = exec(q, QStringLiteral("reading intervals")); !r)
            return r.error();
        double s = 0;
        while (q.next())
            s += gpuSeconds(intervalFromRow(q), window, now, m_options.weights);
        return s / 3600.0;
    }
    QSqlQuery q(database());
    if (auto r = prepare(
            q,
            QStringLiteral("SELECT SUM(gpu_seconds) FROM %1 WHERE %2 = ? AND %3 >= ? AND %3 < ?")
                .arg(dayPath ? QString(table).replace(QLatin1String("_hour"), QLatin1String("_day")) : table,
                     column, dayPath ? QStringLiteral("day_s") : QStringLiteral("hour_s")));
        !r)
        return r.error();
    q.addBindValue(nonNull(subject));
    q.addBindValue(window.start);
    q.addBindValue(window.end);
    if (auto r = exec(q, QStringLiteral("reading rollups")); !r)
        return r.error();
    double seconds = q.next() ? q.value(0).toDouble() : 0.0;
    std::vector<UsageInterval> fetched;
    if (!knownRunning) {
        auto running = runningFor(scope, subject);
        if (!running)
            return running.error();
        fetched = std::move(*running);
        knownRunning = &fetched;
    }
    for (const UsageInterval &iv : *knownRunning)
        seconds += gpuSeconds(iv, window, now, m_options.weights);
    return seconds / 3600.0;
}

Result<double> UsageStore::usedGpuHoursNaive(BudgetScope scope, const QString &subject,
                                             const TimeRange &window, qint64 now) const {
    // What a straightforward quota service writes: the subject's rows that overlap
    // the period, summed in the client. Kept prepared like the fast path, so the
    // comparison is about the work, not about statement preparation.
    auto seconds = overlappingGpuSeconds(scope, subject, window, now, true);
    if (!seconds)
        return seconds.error();
    return *seconds / 3600.0;
}

Result<double> UsageStore::overlappingGpuSeconds(BudgetScope scope, const QString &subject,
                                                 const TimeRange &window, qint64 now,
                                                 bool withRunning) const {
    // Closed rows only, or running ones too (they count up to `now`).
    const QLatin1String endCondition = withRunning ? QLatin1String("(end_s IS NULL OR end_s > ?)")
                                                   : QLatin1String("end_s IS NOT NULL AND end_s > ?");
    auto q = cached(QStringLiteral("SELECT %1 FROM usage_intervals WHERE %2 = ? AND start_s < ? AND %3")
                        .arg(QLatin1String(kIntervalColumns),
                             scope == BudgetScope::User ? QLatin1String("user_name") : QLatin1String("ns"),
                             endCondition));
    if (!q)
        return q.error();
    (*q)->bindValue(0, nonNull(subject));
    (*q)->bindValue(1, window.end);
    (*q)->bindValue(2, window.start);
    if (auto r = exec(**q, QStringLiteral("reading intervals")); !r)
        return r.error();
    double s = 0;
    while ((*q)->next())
        s += gpuSeconds(intervalFromRow(**q), window, now, m_options.weights);
    (*q)->finish();
    return s;
}

Result<double> UsageStore::runningGpus(BudgetScope scope, const QString &subject, qint64 now) const {
    auto running = runningFor(scope, subject);
    if (!running)
        return running.error();
    double g = 0;
    for (const UsageInterval &iv : *running)
        if (iv.start <= now)
            g += iv.gpus * m_options.weights.weight(iv.resource);
    return g;
}

// --- budgets ----------------------------------------------------------------------

static Budget budgetFromRow(const QSqlQuery &q) {
    Budget b;
    b.id = q.value(0).toLongLong();
    b.scope = q.value(1).toString() == QLatin1String("user") ? BudgetScope::User : BudgetScope::Namespace;
    b.subject = q.value(2).toString();
    b.period = parsePeriod(q.value(3).toString()).value_or(Period::Day);
    b.limitGpuHours = q.value(4).toDouble();
    b.graceSeconds = q.value(5).toLongLong();
    b.tz = q.value(6).toString();
    return b;
}

Result<Budget> UsageStore::setBudget(const Budget &budget) {
    if (auto v = validateBudget(budget); !v)
        return v.error();
    UsageStoreTx tx(*this, m_txDepth);
    if (auto r = tx.begin(); !r)
        return r.error();
    QSqlQuery q(database());
    if (auto r = prepare(
            q, QStringLiteral("INSERT INTO budgets (scope, subject, period, limit_gpu_hours, grace_s, tz) "
                              "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, subject, period) DO UPDATE "
                              "SET limit_gpu_hours = excluded.limit_gpu_hours, grace_s = "
                              "excluded.grace_s, tz = excluded.tz"));
        !r)
        return r.error();
    q.addBindValue(scopeName(budget.scope));
    q.addBindValue(nonNull(budget.subject));
    q.addBindValue(periodName(budget.period));
    q.addBindValue(budget.limitGpuHours);
    q.addBindValue(budget.graceSeconds);
    q.addBindValue(nonNull(budget.tz));
    if (auto r = exec(q, QStringLiteral("storing a budget")); !r)
        return r.error();
    auto list = budgetsFor(budget.scope, budget.subject);
    if (!list)
        return list.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    for (const Budget &b : *list)
        if (b.period == budget.period)
            return b;
    return Error::make(Error::Kind::Internal, QStringLiteral("stored budget not found"));
}

Result<QList<Budget>> UsageStore::budgets() const {
    QSqlQuery q(database());
    if (auto r =
            execSql(q, QStringLiteral("SELECT id, scope, subject, period, limit_gpu_hours, grace_s, tz FROM "
                                      "budgets ORDER BY scope, subject, period"));
        !r)
        return r.error();
    QList<Budget> out;
    while (q.next())
        out << budgetFromRow(q);
    return out;
}

Result<QList<Budget>> UsageStore::budgetsFor(BudgetScope scope, const QString &subject) const {
    QSqlQuery q(database());
    if (auto r =
            prepare(q, QStringLiteral("SELECT id, scope, subject, period, limit_gpu_hours, grace_s, tz FROM "
                                      "budgets WHERE scope = ? AND subject = ? ORDER BY period"));
        !r)
        return r.error();
    q.addBindValue(scopeName(scope));
    q.addBindValue(nonNull(subject));
    if (auto r = exec(q, QStringLiteral("reading budgets")); !r)
        return r.error();
    QList<Budget> out;
    while (q.next())
        out << budgetFromRow(q);
    return out;
}

Result<int> UsageStore::deleteBudget(BudgetScope scope, const QString &subject,
                                     std::optional<Period> period) {
    invalidateChecks();
    QSqlQuery q(database());
    if (auto r = prepare(
            q, period ? QStringLiteral("DELETE FROM budgets WHERE scope = ? AND subject = ? AND period = ?")
                      : QStringLiteral("DELETE FROM budgets WHERE scope = ? AND subject = ?"));
        !r)
        return r.error();
    q.addBindValue(scopeName(scope));
    q.addBindValue(nonNull(subject));
    if (period)
        q.addBindValue(periodName(*period));
    if (auto r = exec(q, QStringLiteral("deleting a budget")); !r)
        return r.error();
    return q.numRowsAffected();
}

Result<QList<Decision>> UsageStore::budgetStatus(BudgetScope scope, const QString &subject,
                                                 qint64 now) const {
    auto list = budgetsFor(scope, subject);
    if (!list)
        return list.error();
    QList<Decision> out;
    if (list->isEmpty())
        return out;
    auto running = runningGpus(scope, subject, now);
    if (!running)
        return running.error();
    auto boost = activeBudgetBoost(scope, subject, now);
    if (!boost)
        return boost.error();
    for (const Budget &b : *list) {
        auto tz = parseZone(b.tz);
        if (!tz)
            return tz.error();
        const TimeRange period = periodContaining(now, b.period, *tz);
        auto used = usedGpuHours(scope, subject, period, now);
        if (!used)
            return used.error();
        out << decide(b, period, *used, *running, AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0},
                      *boost);
    }
    return out;
}

Result<double> UsageStore::closedSecondsExact(BudgetScope scope, const QString &subject,
                                              const TimeRange &window) const {
    // Exact path for zones whose calendar is not on whole UTC hours; running rows are
    // added at decision time like on the rollup path.
    return overlappingGpuSeconds(scope, subject, window, window.start, false);
}

Result<void> UsageStore::loadCheckInputs(const QString &user, const QString &ns, bool loadUser, bool loadNs,
                                         qint64 now, CheckSubject out[2]) const {
    // One round trip in the common case: the budgets, unexpired budget boosts and
    // running rows of both subjects, plus the daily-rollup sums of the current day,
    // week and month in the rollup zone for both subjects, in one kept statement.
    // Budgets in another zone need a second statement for their periods.
    const QVariant noSubject(QMetaType::fromType<QString>());
    const QVariant userValue = user.isEmpty() || !loadUser ? noSubject : QVariant(user);
    const QVariant nsValue = ns.isEmpty() || !loadNs ? noSubject : QVariant(ns);
    const Period kPeriods[3] = {Period::Day, Period::Week, Period::Month};
    TimeRange zoneWindows[3];
    for (int p = 0; p < 3; ++p)
        zoneWindows[p] = periodContaining(now, kPeriods[p], m_days->zone());
    QString sql =
        QStringLiteral("SELECT 0, scope, subject, period, tz, limit_gpu_hours, grace_s, id FROM budgets"
                       " WHERE (scope = 'user' AND subject = ?) OR (scope = 'namespace' AND subject = ?)"
                       " UNION ALL"
                       // Boosts that start later are kept too: a kept entry decides at
                       // later instants, when they may have become active.
                       " SELECT 1, target, delta, '', '', 0.0, start_s, expiry_s FROM boosts WHERE target IN "
                       "(?, ?) AND state IN ('pending', 'applied') AND expiry_s > ?"
                       " UNION ALL"
                       // One branch per subject, so each uses its partial index of
                       // running rows (an OR of the two made SQLite walk every running row).
                       " SELECT 2, user_name, ns, resource, '', 0.0, gpus, start_s FROM usage_intervals"
                       " WHERE end_s IS NULL AND user_name = ?"
                       " UNION ALL"
                       " SELECT 4, user_name, ns, resource, '', 0.0, gpus, start_s FROM usage_intervals"
                       " WHERE end_s IS NULL AND ns = ?");
    for (int k = 0; k < 2; ++k)
        for (int p = 0; p < 3; ++p)
            sql += QStringLiteral(
                       " UNION ALL SELECT 3, '', '', '', '', SUM(gpu_seconds), 0, %1 FROM %2 WHERE %3 = ? "
                       "AND day_s >= ? AND day_s < ?")
                       .arg(k * 3 + p)
                       .arg(k == 0 ? QLatin1String("rollup_user_day") : QLatin1String("rollup_ns_day"),
                            k == 0 ? QLatin1String("user_name") : QLatin1String("ns"));
    auto first = cached(sql);
    if (!first)
        return first.error();
    QSqlQuery &q = **first;
    q.bindValue(0, userValue);
    q.bindValue(1, nsValue);
    q.bindValue(2, userValue.isNull()
                       ? noSubject
                       : QVariant(QStringLiteral("budget/%1/%2").arg(scopeName(BudgetScope::User), user)));
    q.bindValue(3, nsValue.isNull()
                       ? noSubject
                       : QVariant(QStringLiteral("budget/%1/%2").arg(scopeName(BudgetScope::Namespace), ns)));
    q.bindValue(4, now);
    q.bindValue(5, userValue);
    q.bindValue(6, nsValue);
    int bind = 7;
    for (int k = 0; k < 2; ++k)
        for (int p = 0; p < 3; ++p) {
            q.bindValue(bind++, k == 0 ? userValue : nsValue);
            q.bindValue(bind++, zoneWindows[p].start);
            q.bindValue(bind++, zoneWindows[p].end);
        }
    if (auto r = exec(q, QStringLiteral("reading budgets, boosts, running intervals and rollups")); !r)
        return r.error();
    double zoneSums[2][3] = {{0, 0, 0}, {0, 0, 0}};
    out[0] = CheckSubject{};
    out[0].scope = BudgetScope::User;
    out[0].subject = user;
    out[1] = CheckSubject{};
    out[1].scope = BudgetScope::Namespace;
    out[1].subject = ns;
    const QString userTarget = QStringLiteral("budget/%1/%2").arg(scopeName(BudgetScope::User), user);
    while (q.next()) {
        switch (q.value(0).toInt()) {
        case 0: {
            Budget b;
            b.id = q.value(7).toLongLong();
            b.scope =
                q.value(1).toString() == QLatin1String("user") ? BudgetScope::User : BudgetScope::Namespace;
            b.subject = q.value(2).toString();
            b.period = parsePeriod(q.value(3).toString()).value_or(Period::Day);
            b.limitGpuHours = q.value(5).toDouble();
            b.graceSeconds = q.value(6).toLongLong();
            b.tz = q.value(4).toString();
            out[b.scope == BudgetScope::User ? 0 : 1].budgets << b;
            break;
        }
        case 1: {
            bool ok = false;
            const double d = q.value(2).toString().toDouble(&ok);
            if (ok)
                out[!userValue.isNull() && q.value(1).toString() == userTarget ? 0 : 1].boosts.push_back(
                    CheckBoost{q.value(6).toLongLong(), q.value(7).toLongLong(), d});
            break;
        }
        case 3: {
            const int k = q.value(7).toInt();
            if (k >= 0 && k < 6)
                zoneSums[k / 3][k % 3] = q.value(5).toDouble();
            break;
        }
        default: { // 2: a running row of the user, 4: of the namespace
            UsageInterval iv;
            iv.user = q.value(1).toString();
            iv.ns = q.value(2).toString();
            iv.resource = q.value(3).toString();
            iv.gpus = q.value(6).toInt();
            iv.start = q.value(7).toLongLong();
            out[q.value(0).toInt() == 2 ? 0 : 1].running.push_back(iv);
            break;
        }
        }
    }
    q.finish();

    // Periods of every budget, and which of them the rollups answer.
    struct Ref {
        int subject;
        size_t need;
    };
    std::vector<Ref> second;
    for (int k = 0; k < 2; ++k) {
        CheckSubject &sub = out[k];
        sub.readAt = now;
        sub.validFrom = now;
        std::sort(sub.budgets.begin(), sub.budgets.end(), [](const Budget &a, const Budget &b) {
            return periodName(a.period) < periodName(b.period);
        });
        for (const Budget &b : std::as_const(sub.budgets)) {
            auto tz = parseZone(b.tz);
            if (!tz)
                return tz.error();
            CheckNeed n{b, periodContaining(now, b.period, *tz)};
            const bool isUser = k == 0;
            const int pi = b.period == Period::Day ? 0 : b.period == Period::Week ? 1 : 2;
            if (n.period == zoneWindows[pi]) {
                n.table = isUser ? 3 : 2;
                n.closedSeconds = zoneSums[k][pi];
                n.summed = true;
            } else if (m_days->isDayStart(n.period.start) && m_days->isDayStart(n.period.end))
                n.table = isUser ? 3 : 2;
            else if (alignedToHour(n.period.start) && alignedToHour(n.period.end))
                n.table = isUser ? 1 : 0;
            sub.validFrom = std::max(sub.validFrom, n.period.start);
            sub.validUntil = std::min(sub.validUntil, n.period.end);
            sub.needs.push_back(n);
            if (n.table >= 0 && !n.summed)
                second.push_back(Ref{k, sub.needs.size() - 1});
        }
    }
    if (!second.empty()) {
        QStringList parts;
        for (size_t i = 0; i < second.size(); ++i) {
            const RollupTable &t = kRollupTables[out[second[i].subject].needs[second[i].need].table];
            parts << QStringLiteral("SELECT %1, SUM(gpu_seconds) FROM %2 WHERE %3 = ? AND %4 >= ? AND %4 < ?")
                         .arg(i)
                         .arg(QLatin1String(t.name), QLatin1String(t.subjectColumn),
                              QLatin1String(t.timeColumn));
        }
        auto stmt = cached(parts.join(QStringLiteral(" UNION ALL ")));
        if (!stmt)
            return stmt.error();
        QSqlQuery &r = **stmt;
        int p = 0;
        for (const Ref &ref : second) {
            const CheckNeed &n = out[ref.subject].needs[ref.need];
            r.bindValue(p++, ref.subject == 0 ? user : ns);
            r.bindValue(p++, n.period.start);
            r.bindValue(p++, n.period.end);
        }
        if (auto e = exec(r, QStringLiteral("reading rollups")); !e)
            return e.error();
        while (r.next()) {
            const size_t i = size_t(r.value(0).toInt());
            if (i < second.size())
                out[second[i].subject].needs[second[i].need].closedSeconds = r.value(1).toDouble();
        }
        r.finish();
    }
    for (int k = 0; k < 2; ++k)
        for (CheckNeed &n : out[k].needs)
            if (n.table < 0) {
                auto closed = closedSecondsExact(out[k].scope, out[k].subject, n.period);
                if (!closed)
                    return closed.error();
                n.closedSeconds = *closed;
            }
    return {};
}

QList<Decision> UsageStore::decideEach(const CheckSubject *subjects[2], const AdmissionRequest &request,
                                       qint64 now) const {
    QList<Decision> decisions;
    for (int k = 0; k < 2; ++k) {
        const CheckSubject &sub = *subjects[k];
        double boost = 0;
        for (const CheckBoost &b : sub.boosts)
            if (b.start <= now && b.expiry > now)
                boost += b.delta;
        double runningGpus = 0;
        for (const UsageInterval &iv : sub.running)
            if (iv.start <= now)
                runningGpus += iv.gpus * m_options.weights.weight(iv.resource);
        for (const CheckNeed &n : sub.needs) {
            double seconds = n.closedSeconds;
            for (const UsageInterval &iv : sub.running)
                seconds += gpuSeconds(iv, n.period, now, m_options.weights);
            decisions << decide(n.budget, n.period, seconds / 3600.0, runningGpus, request, boost);
        }
    }
    return decisions;
}

Result<Decision> UsageStore::check(const QString &user, const QString &ns, const AdmissionRequest &request,
                                   qint64 now) const {
    auto each = checkEach(user, ns, request, now);
    if (!each)
        return each.error();
    return combine(*each, request);
}

Result<QList<Decision>> UsageStore::checkEach(const QString &user, const QString &ns,
                                              const AdmissionRequest &request, qint64 now) const {
    CheckSubject loaded[2];
    const CheckSubject *use[2] = {&loaded[0], &loaded[1]};
    if (!m_checkCache || !refreshCheckCache()) {
        if (auto r = loadCheckInputs(user, ns, true, true, now, loaded); !r)
            return r.error();
        return decideEach(use, request, now);
    }
    CheckCache &cache = *m_checkCache;
    const QString *names[2] = {&user, &ns};
    bool load[2] = {false, false};
    for (int k = 0; k < 2; ++k) {
        if (names[k]->isEmpty()) {
            loaded[k].scope = k == 0 ? BudgetScope::User : BudgetScope::Namespace;
            continue; // nothing to read for no subject
        }
        auto it = cache.entries[k].constFind(*names[k]);
        if (it != cache.entries[k].cend() && now >= it->readAt && now >= it->validFrom &&
            now < it->validUntil)
            use[k] = &*it;
        else
            load[k] = true;
    }
    if (!load[0] && !load[1])
        ++cache.stats.fromCache;
    if (load[0] || load[1]) {
        ++cache.stats.reads;
        if (auto r = loadCheckInputs(user, ns, load[0], load[1], now, loaded); !r)
            return r.error();
        for (int k = 0; k < 2; ++k)
            if (load[k]) {
                if (cache.entries[k].size() >= CheckCache::kMaxEntries)
                    cache.entries[k].clear();
                use[k] = &*cache.entries[k].insert(*names[k], std::move(loaded[k]));
            }
    }
    return decideEach(use, request, now);
}

// --- boosts -----------------------------------------------------------------------

Result<Boost> UsageStore::addBoost(const Boost &boost) {
    if (boost.target.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("must not be empty"),
                           QStringLiteral("target"));
    if (boost.actor.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("must not be empty"),
                           QStringLiteral("actor"));
    if (boost.expiry <= boost.start)
        return Error::make(Error::Kind::Invalid, QStringLiteral("expiry must be after start"),
                           QStringLiteral("expiry"));
    UsageStoreTx tx(*this, m_txDepth);
    if (auto r = tx.begin(); !r)
        return r.error();
    QSqlQuery q(database());
    if (auto r = prepare(
            q, QStringLiteral("INSERT INTO boosts (target, delta, start_s, expiry_s, note, actor, state) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?)"));
        !r)
        return r.error();
    q.addBindValue(nonNull(boost.target));
    q.addBindValue(nonNull(boost.delta));
    q.addBindValue(boost.start);
    q.addBindValue(boost.expiry);
    q.addBindValue(nonNull(boost.note));
    q.addBindValue(nonNull(boost.actor));
    q.addBindValue(boostStateName(boost.state));
    if (auto r = exec(q, QStringLiteral("storing a boost")); !r)
        return r.error();
    QSqlQuery id(database());
    if (auto r = execSql(id, QStringLiteral("SELECT MAX(id) FROM boosts")); !r)
        return r.error();
    Boost out = boost;
    out.id = id.next() ? id.value(0).toLongLong() : 0;
    if (auto r = tx.commit(); !r)
        return r.error();
    return out;
}

Result<QList<Boost>> UsageStore::boosts() const {
    QSqlQuery q(database());
    if (auto r =
            execSql(q, QStringLiteral("SELECT id, target, delta, start_s, expiry_s, note, actor, state FROM "
                                      "boosts ORDER BY id"));
        !r)
        return r.error();
    QList<Boost> out;
    while (q.next()) {
        Boost b;
        b.id = q.value(0).toLongLong();
        b.target = q.value(1).toString();
        b.delta = q.value(2).toString();
        b.start = q.value(3).toLongLong();
        b.expiry = q.value(4).toLongLong();
        b.note = q.value(5).toString();
        b.actor = q.value(6).toString();
        b.state = parseBoostState(q.value(7).toString()).value_or(Boost::State::Pending);
        out << b;
    }
    return out;
}

Result<bool> UsageStore::setBoostState(qint64 id, Boost::State state) {
    invalidateChecks();
    QSqlQuery q(database());
    if (auto r = prepare(q, QStringLiteral("UPDATE boosts SET state = ? WHERE id = ?")); !r)
        return r.error();
    q.addBindValue(boostStateName(state));
    q.addBindValue(id);
    if (auto r = exec(q, QStringLiteral("updating a boost")); !r)
        return r.error();
    return q.numRowsAffected() > 0;
}

Result<double> UsageStore::activeBudgetBoost(BudgetScope scope, const QString &subject, qint64 now) const {
    QSqlQuery q(database());
    if (auto r =
            prepare(q, QStringLiteral("SELECT delta FROM boosts WHERE target = ? AND state IN ('pending', "
                                      "'applied') AND start_s <= ? AND expiry_s > ?"));
        !r)
        return r.error();
    q.addBindValue(QStringLiteral("budget/%1/%2").arg(scopeName(scope), subject));
    q.addBindValue(now);
    q.addBindValue(now);
    if (auto r = exec(q, QStringLiteral("reading boosts")); !r)
        return r.error();
    double extra = 0;
    while (q.next()) {
        bool ok = false;
        const double d = q.value(0).toString().toDouble(&ok);
        if (ok)
            extra += d;
    }
    return extra;
}

// --- CSV --------------------------------------------------------------------------

Result<UsageStore::ImportStats> UsageStore::importCsv(QIODevice &in, const QString &source) {
    QTextStream text(&in);
    text.setEncoding(QStringConverter::Utf8);
    int lineNo = 0;
    auto lineError = [&](Error e, int line) {
        e.line = line;
        return e;
    };
    // Skip leading blank lines; the first record must be the header.
    QString first;
    while (!text.atEnd()) {
        first = text.readLine();
        ++lineNo;
        if (!first.trimmed().isEmpty())
            break;
    }
    if (first.startsWith(QChar(0xfeff)))
        first.remove(0, 1);
    auto header = readCsvRecord(text, first, lineNo);
    if (!header)
        return header.error();
    QStringList names;
    for (const QString &h : *header)
        names << h.trimmed().toLower();
    if (names != kCsvHeader)
        return lineError(Error::make(Error::Kind::Parse, QStringLiteral("the header must be '%1', got '%2'")
                                                             .arg(kCsvHeader.join(QLatin1Char(',')),
                                                                  header->join(QLatin1Char(',')))),
                         lineNo);

    ImportStats stats;
    UsageStoreTx tx(*this, m_txDepth);
    if (auto r = tx.begin(); !r)
        return r.error();
    while (!text.atEnd()) {
        const QString raw = text.readLine();
        ++lineNo;
        const int recordLine = lineNo;
        if (raw.trimmed().isEmpty())
            continue;
        auto rec = readCsvRecord(text, raw, lineNo);
        if (!rec)
            return rec.error();
        const QStringList &f = *rec;
        if (f.size() != kCsvHeader.size())
            return lineError(
                Error::make(
                    Error::Kind::Parse,
                    QStringLiteral("expected %1 fields, got %2").arg(kCsvHeader.size()).arg(f.size())),
                recordLine);
        UsageInterval iv;
        iv.cluster = f[0].trimmed();
        iv.ns = f[1].trimmed();
        iv.user = f[2].trimmed();
        if (iv.user.isEmpty())
            iv.user = iv.ns; // the same fallback as podUser(): no user label -> the namespace
        iv.podUid = f[3].trimmed();
        iv.podName = f[4].trimmed();
        iv.resource = f[5].trimmed();
        bool ok = false;
        iv.gpus = f[6].trimmed().toInt(&ok);
        if (!ok)
            return lineError(Error::make(Error::Kind::Parse,
                                         QStringLiteral("'%1' is not a whole number of devices").arg(f[6]),
                                         QStringLiteral("gpus")),
                             recordLine);
        auto start = parseInstant(f[7], QStringLiteral("start"));
        if (!start)
            return lineError(start.error(), recordLine);
        iv.start = *start;
        if (!f[8].trimmed().isEmpty()) {
            auto end = parseInstant(f[8], QStringLiteral("end"));
            if (!end)
                return lineError(end.error(), recordLine);
            iv.end = *end;
        }
        iv.source = source;
        auto outcome = upsertIntervalInTx(iv);
        if (!outcome)
            return lineError(outcome.error(), recordLine);
        ++stats.rows;
        switch (*outcome) {
        case UpsertOutcome::Inserted: ++stats.inserted; break;
        case UpsertOutcome::Updated: ++stats.updated; break;
        case UpsertOutcome::Unchanged: ++stats.unchanged; break;
        }
    }
    if (auto r = tx.commit(); !r)
        return r.error();
    return stats;
}

Result<qint64> UsageStore::exportCsv(QIODevice &out, std::optional<qint64> from,
                                     std::optional<qint64> to) const {
    QSqlQuery q(database());
    q.setForwardOnly(true);
    if (from || to) {
        if (auto r =
                prepare(q, QStringLiteral("SELECT %1 FROM usage_intervals WHERE start_s < ? AND "
                                          "(end_s IS NULL OR end_s > ?) ORDER BY start_s, cluster, pod_uid, "
                                          "resource")
                               .arg(QLatin1String(kIntervalColumns)));
            !r)
            return r.error();
        q.addBindValue(to.value_or(std::numeric_limits<qint64>::max()));
        q.addBindValue(from.value_or(std::numeric_limits<qint64>::min()));
        if (auto r = exec(q, QStringLiteral("reading intervals")); !r)
            return r.error();
    } else {
        if (auto r = execSql(
                q, QStringLiteral("SELECT %1 FROM usage_intervals ORDER BY start_s, cluster, pod_uid, "
                                  "resource")
                       .arg(QLatin1String(kIntervalColumns)));
            !r)
            return r.error();
    }
    QTextStream ts(&out);
    ts.setEncoding(QStringConverter::Utf8);
    ts << kCsvHeader.join(QLatin1Char(',')) << '\n';
    qint64 n = 0;
    while (q.next()) {
        const UsageInterval iv = intervalFromRow(q);
        ts << csvField(iv.cluster) << ',' << csvField(iv.ns) << ',' << csvField(iv.user) << ','
           << csvField(iv.podUid) << ',' << csvField(iv.podName) << ',' << csvField(iv.resource) << ','
           << iv.gpus << ',' << formatInstantUtc(iv.start) << ','
           << (iv.end ? formatInstantUtc(*iv.end) : QString()) << '\n';
        ++n;
    }
    ts.flush();
    if (ts.status() != QTextStream::Ok)
        return Error::make(Error::Kind::Io, QStringLiteral("writing the CSV failed"));
    return n;
}

} // namespace gq
