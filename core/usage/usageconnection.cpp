#include "core/usage/usageconnection.h"

#include "core/usage/timewindow.h"

#include <QAtomicInt>
#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QUrl>

#include <optional>
#include <utility>

namespace gq {

namespace {
QAtomicInt g_connectionCounter;

QString timeoutText(int ms) {
    return ms % 1000 == 0 ? formatDuration(ms / 1000) : QStringLiteral("%1ms").arg(ms);
}
} // namespace

UsageConnection::UsageConnection(DbUrl url, int busyTimeoutMs, bool readOnly, QString name)
    : m_url(std::move(url))
    , m_busyTimeoutMs(busyTimeoutMs)
    , m_readOnly(readOnly)
    , m_name(std::move(name))
    , m_thread(QThread::currentThreadId()) {}

UsageConnection::~UsageConnection() {
    m_statements.clear(); // kept statements belong to the connection removed below
    {
        QSqlDatabase db = QSqlDatabase::database(m_name, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_name);
}

Result<std::unique_ptr<UsageConnection>> UsageConnection::open(const DbUrl &url, int busyTimeoutMs,
                                                               bool readOnly) {
    const QString name = QStringLiteral("gq-usage-%1").arg(g_connectionCounter.fetchAndAddRelaxed(1));
    // A read-only in-memory database would always be empty: it is simply a new one.
    const bool memory = url.driver == DbUrl::Driver::Sqlite && url.path == QLatin1String(":memory:");
    std::unique_ptr<UsageConnection> conn(new UsageConnection(url, busyTimeoutMs, readOnly && !memory, name));
    if (auto r = conn->connect(); !r)
        return r.error();
    return conn;
}

QSqlDatabase UsageConnection::database() const {
    assertThread();
    return QSqlDatabase::database(m_name, false);
}

void UsageConnection::assertThread() const {
    Q_ASSERT_X(QThread::currentThreadId() == m_thread, "UsageStore",
               "a UsageStore must be used only on the thread that opened it");
}

sqlite3 *UsageConnection::sqliteHandle() const {
    const QVariant v = database().driver()->handle();
    if (!v.isValid() || qstrcmp(v.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(v.constData());
}

Result<void> UsageConnection::connect() {
    const bool pg = isPostgres();
    QSqlDatabase db =
        QSqlDatabase::addDatabase(pg ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"), m_name);
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
        // A password only when the caller holds one from the keychain; otherwise libpq
        // reads PGPASSWORD / ~/.pgpass itself.
        if (!m_url.password.isEmpty())
            db.setPassword(m_url.password);
        QStringList opts{QStringLiteral("connect_timeout=%1").arg(m_url.connectTimeoutSeconds)};
        // A network cut without FIN or RST is otherwise noticed only when the kernel
        // gives up on unacknowledged data (15 minutes and more): TCP keepalives on an
        // idle connection (first probe after 10 s, 3 probes 5 s apart) and a bound on
        // unacknowledged data (tcp_user_timeout, libpq 12+) end it within ~25 s.
        opts << QStringLiteral("keepalives=1") << QStringLiteral("keepalives_idle=10")
             << QStringLiteral("keepalives_interval=5") << QStringLiteral("keepalives_count=3")
             << QStringLiteral("tcp_user_timeout=25000");
        if (!m_url.sslmode.isEmpty())
            opts << QStringLiteral("sslmode=") + m_url.sslmode;
        db.setConnectOptions(opts.join(QLatin1Char(';')));
    } else if (m_readOnly) {
        return openSqliteReadOnly(db);
    } else {
        db.setDatabaseName(m_url.path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(m_busyTimeoutMs));
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
        // A lock held by another session (LOCK TABLE ... ACCESS EXCLUSIVE, a long
        // migration) must end in an error, not in waiting forever.
        if (auto r = execSql(q, QStringLiteral("SET lock_timeout = %1").arg(m_url.lockTimeoutMs)); !r)
            return r;
        if (auto r = execSql(q, QStringLiteral("SET statement_timeout = %1").arg(m_url.statementTimeoutMs));
            !r)
            return r;
        if (m_readOnly)
            if (auto r = execSql(q, QStringLiteral("SET default_transaction_read_only = on")); !r)
                return r;
        if (!m_url.schema.isEmpty() && m_readOnly) {
            if (auto r = execSql(q, QStringLiteral("SET search_path TO \"%1\"").arg(m_url.schema)); !r)
                return r;
        } else if (!m_url.schema.isEmpty()) {
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

Result<void> UsageConnection::openSqliteReadOnly(QSqlDatabase &db) {
    const QFileInfo file(m_url.path);
    if (!file.exists())
        return Error::make(Error::Kind::Database,
                           QStringLiteral("the SQLite database %1 does not exist (reading does not create "
                                          "one: import data or set a budget first)")
                               .arg(m_url.path));
    const QString options =
        QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1;QSQLITE_OPEN_READONLY").arg(m_busyTimeoutMs);
    db.setDatabaseName(m_url.path);
    db.setConnectOptions(options);
    // Reading a WAL database needs its -wal and -shm files; where they cannot be
    // created (a read-only directory or file system) nobody can be writing it either,
    // so it is opened as immutable instead.
    for (const bool immutable : {false, true}) {
        if (immutable) {
            db.close();
            QUrl uri = QUrl::fromLocalFile(file.absoluteFilePath());
            uri.setQuery(QStringLiteral("immutable=1"));
            db.setDatabaseName(uri.toString(QUrl::FullyEncoded));
            db.setConnectOptions(options + QStringLiteral(";QSQLITE_OPEN_URI"));
        }
        if (!db.open())
            return Error::make(Error::Kind::Database, QStringLiteral("cannot open SQLite database %1: %2")
                                                          .arg(m_url.path, db.lastError().text().trimmed()));
        QSqlQuery probe(db);
        if (probe.exec(QStringLiteral("SELECT COUNT(*) FROM sqlite_master")))
            break;
        if (immutable || probe.lastError().nativeErrorCode() != QLatin1String("14")) // SQLITE_CANTOPEN
            return sqlError(probe, QStringLiteral("reading %1").arg(m_url.path));
    }
    QSqlQuery q(db);
    return execSql(q, QStringLiteral("PRAGMA cache_size = -65536"));
}

Error UsageConnection::sqlError(const QSqlError &err, const QString &what) const {
    Error e = Error::make(Error::Kind::Database, QStringLiteral("%1: %2").arg(what, err.text().trimmed()));
    const QString code = err.nativeErrorCode();
    if (!isPostgres() && (code == QLatin1String("5") || code == QLatin1String("6"))) {
        e.reason = QStringLiteral("Locked");
        e.message = QStringLiteral("%1: the database %2 is locked by another writer (waited %3 ms)")
                        .arg(what, m_url.path)
                        .arg(m_busyTimeoutMs);
    } else if (isPostgres() && code == QLatin1String("55P03")) { // lock_not_available
        e.reason = QStringLiteral("Locked");
        e.message = QStringLiteral("%1: a table it needs is locked by another session; gave up after "
                                   "lock_timeout %2 (raise it with ?lock_timeout= in the database URL)")
                        .arg(what, timeoutText(m_url.lockTimeoutMs));
    } else if (isPostgres() && code == QLatin1String("57014") &&
               err.databaseText().contains(QLatin1String("statement timeout"))) {
        e.reason = QStringLiteral("Timeout");
        e.message = QStringLiteral("%1: cancelled after statement_timeout %2 (a table may be locked by "
                                   "another session; raise it with ?statement_timeout= in the database URL)")
                        .arg(what, timeoutText(m_url.statementTimeoutMs));
    } else if (isPostgres() && !database().isOpen()) {
        e.reason = QStringLiteral("Unreachable");
    }
    return e;
}

Error UsageConnection::sqlError(const QSqlQuery &q, const QString &what) const {
    return sqlError(q.lastError(), what);
}

Error UsageConnection::sqlError(const QSqlDatabase &db, const QString &what) const {
    return sqlError(db.lastError(), what);
}

Result<void> UsageConnection::prepare(QSqlQuery &q, const QString &sql) const {
    if (!q.prepare(sql))
        return sqlError(q, QStringLiteral("preparing a statement"));
    return {};
}

Result<void> UsageConnection::exec(QSqlQuery &q, const QString &what) const {
    if (!q.exec())
        return sqlError(q, what);
    return {};
}

Result<void> UsageConnection::execSql(QSqlQuery &q, const QString &sql) const {
    if (!q.exec(sql))
        return sqlError(q, sql.left(60));
    return {};
}

Result<qint64> UsageConnection::lastInsertedId(const QString &table) const {
    QSqlQuery q(database());
    const QString sql = isPostgres()
                            ? QStringLiteral("SELECT currval(pg_get_serial_sequence('%1', 'id'))").arg(table)
                            : QStringLiteral("SELECT last_insert_rowid()");
    if (auto r = execSql(q, sql); !r)
        return r.error();
    if (!q.next())
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("no id for the row just stored in %1").arg(table));
    return q.value(0).toLongLong();
}

Result<QSqlQuery *> UsageConnection::cached(const QString &sql) const {
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

void UsageConnection::dropCachedStatements() {
    m_statements.clear();
}

Result<void> UsageConnection::begin() {
    noteWrite();
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

Result<void> UsageConnection::afterCommit(std::function<Result<void>()> action) {
    if (m_txDepth == 0)
        return action();
    m_afterCommit.push_back(std::move(action));
    return {};
}

Result<void> UsageConnection::commit() {
    noteWrite();
    const std::vector<std::function<Result<void>()>> after = std::exchange(m_afterCommit, {});
    QSqlDatabase db = database();
    if (isPostgres()) {
        if (!db.commit())
            return sqlError(db, QStringLiteral("committing"));
    } else {
        QSqlQuery q(db);
        if (auto r = execSql(q, QStringLiteral("COMMIT")); !r)
            return r;
    }
    std::optional<Error> first;
    for (const auto &action : after)
        if (auto r = action(); !r && !first)
            first = r.error();
    if (first)
        return *first;
    return {};
}

void UsageConnection::rollback() {
    noteWrite();
    m_afterCommit.clear();
    QSqlDatabase db = database();
    if (isPostgres()) {
        db.rollback();
        return;
    }
    QSqlQuery q(db);
    q.exec(QStringLiteral("ROLLBACK"));
}

} // namespace gq
