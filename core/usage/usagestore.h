#pragma once

#include "core/domain/clock.h"
#include "core/domain/result.h"
#include "core/usage/boosts.h"
#include "core/usage/budget.h"
#include "core/usage/dburl.h"
#include "core/usage/ledger.h"
#include "core/usage/timewindow.h"
#include "core/usage/usageschema.h"

#include <QHash>
#include <QMap>
#include <QPair>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QIODevice;
class QSqlError;
class QSqlQuery;

namespace gq {

class AdmissionChecker;
class BoostStore;
class BudgetStore;
class BulkLoader;
class ChartQueries;
class CheckInputReader;
class DayIndex;
class IntervalQueries;
class IntervalWriter;
class RollupAccumulator;
class RollupWriter;
class UsageConnection;
class UsageTx;

// The usage database: intervals, hourly rollups, budgets, boosts and the audit log
// (see AuditLog), on SQLite or PostgreSQL with one schema and one set of statements.
//
// Threading: Qt SQL connections belong to the thread that created them. A UsageStore
// opens its own uniquely named connection in open() and must be used only on that
// thread for its whole life (it checks this in debug builds). To use the database
// from a worker, open a store ON the worker thread (e.g. in the worker's first job)
// and destroy it there; open as many stores as threads need — they share the
// database, not the connection.
//
// Rollups: every closed interval adds its weighted GPU-seconds to the hourly
// (UTC-hour) tables rollup_ns_hour and rollup_user_hour in the same transaction
// that stores or closes it; replacing an interval subtracts the old contribution
// first. Open intervals are not in the rollups; queries add their contribution up
// to `now` from the small set of running rows. The same happens per local day of the
// store's rollup zone (rollup_ns_day, rollup_user_day), which day/week/month charts
// and budgets in that zone read. Chart and budget queries therefore
// never scan raw intervals — except for zones whose calendar boundaries are not on a
// whole UTC hour (e.g. Asia/Kolkata), where the exact answer is computed from the
// intervals overlapping the range instead.
//
// This class is a facade: each concern is its own class in this folder (connection,
// schema, change monitor, interval/bulk/rollup writers, interval and chart queries,
// budgets, admission checker, boosts, CSV), and the store only wires them together.

class UsageStore {
public:
    static constexpr int kSchemaVersion = kUsageSchemaVersion; // see usageschema.h

    struct Options {
        ResourceWeights weights;  // how MIG slices count; stored per row at insert time
        int busyTimeoutMs = 5000; // SQLite: how long to wait for another writer
        // The zone of the daily rollups, fixed when the database is created (the stored
        // value wins afterwards). Day/week/month queries and budgets in this zone read
        // one row per subject and day; other zones read hourly rollups.
        QString rollupZone = QStringLiteral("UTC");
        // Keep the inputs of check() per (scope, subject) in memory: for a long-running
        // caller (console, controller, admission webhook) a repeated check then needs no
        // round trip. See check() for the freshness guarantee. Off for one-shot callers.
        bool cacheChecks = false;
        // For callers that only read (the CLI's usage, check, export, budget list):
        // SQLite opens read-only, also on a read-only file system; nothing is created
        // or migrated (a missing or older schema is a Schema error); writes fail.
        bool readOnly = false;
        // PostgreSQL password from the keychain (see DbUrl::password); never logged.
        QString password;
    };

    // Opens (creating an SQLite file or PostgreSQL schema if needed) and migrates.
    // Errors: Usage (bad URL), Database (unreachable, locked, SQL failure), Schema
    // (newer than this build, or not a gpuquota database).
    [[nodiscard]] static Result<std::unique_ptr<UsageStore>> open(const QString &url, Options options);
    [[nodiscard]] static Result<std::unique_ptr<UsageStore>> open(const QString &url) {
        return open(url, Options{});
    }
    ~UsageStore();
    Q_DISABLE_COPY_MOVE(UsageStore)

    [[nodiscard]] const DbUrl &url() const;
    [[nodiscard]] bool isPostgres() const;
    [[nodiscard]] QSqlDatabase database() const;
    // A transaction on the store's connection (nested ones join the outer one): the
    // writes of this store and of the stores and ledgers built on it between begin()
    // and commit() are one.
    [[nodiscard]] UsageTx transaction() const;
    // Whether the database still answers, waiting at most timeoutMs (see pgping.h: a
    // silent network cut ends in a Database error, not a wait for the kernel).
    [[nodiscard]] Result<void> ping(int timeoutMs) const;
    // The boosts table on the store's connection, for the reconciler's compare-and-set
    // steps (the audited changes go through BoostLedger).
    [[nodiscard]] BoostStore &boostStore() const { return *m_boosts; }
    [[nodiscard]] const ResourceWeights &weights() const { return m_options.weights; }
    [[nodiscard]] Result<int> schemaVersion() const;
    [[nodiscard]] const QString &rollupZone() const { return m_rollupZone; }

    // --- intervals ---------------------------------------------------------------
    enum class UpsertOutcome { Inserted, Updated, Unchanged };
    // Idempotent by (cluster, pod_uid, resource, start): the same row again is
    // Unchanged; a changed row (e.g. now with an end) replaces the old one and the
    // rollups move with it. Validates first (zero-length/reversed rejected).
    Result<UpsertOutcome> upsertInterval(const UsageInterval &iv);
    // Sets the end of a running interval. False if no such open interval exists.
    // estimated: the end is a guess (end_estimated, schema v7).
    Result<bool> closeInterval(const QString &cluster, const QString &podUid, const QString &resource,
                               qint64 start, qint64 end, bool estimated = false);
    // The recorders' heartbeat (schema v7): every open row of `cluster` written by
    // `source` was seen running at `now` (seen_s; a later value already there stays).
    // One statement, harmless when several replicas send it. Returns the rows moved.
    Result<qint64> markIntervalsSeen(const QString &cluster, const QString &source, qint64 now);
    static constexpr int kSeenIntervalSeconds = 30;
    // Runs `writes` (calls on this store) in one transaction: committed when it returns
    // success, rolled back when it or the commit fails (that error is returned).
    Result<void> inTransaction(const std::function<Result<void>()> &writes);
    // Fast path for bulk loads (demo data, benchmarks): new rows only (a duplicate
    // key is an error), large multi-row statements, rollups aggregated in memory, one
    // transaction. Returns the number of rows inserted. For loads that arrive in
    // chunks use beginBulk(), which keeps one transaction and one rollup aggregate
    // across all chunks.
    Result<qint64> insertBulk(const std::vector<UsageInterval> &intervals);
    class BulkLoad;
    // Starts a bulk load (see BulkLoad). `expectedRows` is a hint: when it is large
    // (>= 1 million) and at least the number of rows already stored, secondary
    // indexes are dropped for the load and rebuilt at finish(), inside the same
    // transaction (on PostgreSQL also the primary key of each empty rollup table,
    // whose cells are then COPYed in). The store must not be used otherwise until the load finishes or
    // is destroyed.
    Result<std::unique_ptr<BulkLoad>> beginBulk(qint64 expectedRows = 0);
    // Rollup cells a bulk load keeps in memory before writing part of them (0: the
    // default, 8 million); tests make it small to exercise the partial writes.
    void setBulkRollupCellLimit(size_t cells);
    // Loads of at least this many expected rows count as huge (see beginBulk; 0: the
    // default, 1 million); tests make it small to exercise the huge path.
    void setBulkHugeLoadFrom(qint64 rows);

    // Recomputes every rollup table from the raw intervals in one transaction and
    // writes only what differs. Values equal within 1e-3 GPU-seconds count as equal.
    struct RollupTableReport {
        QString table;
        qint64 rowsBefore = 0;
        qint64 rowsAfter = 0;
        qint64 added = 0;   // rows that were missing
        qint64 removed = 0; // rows no closed interval accounts for (zero rows left alone)
        qint64 changed = 0; // rows with a wrong value
        double maxAbsDiffGpuHours = 0;
    };
    struct RollupRebuildReport {
        qint64 intervals = 0; // closed intervals read
        QList<RollupTableReport> tables;
        [[nodiscard]] bool changedAnything() const {
            for (const RollupTableReport &t : tables)
                if (t.added || t.removed || t.changed)
                    return true;
            return false;
        }
    };
    Result<RollupRebuildReport> rebuildRollups();

    // Intervals overlapping [from, to) (open ones count as reaching `now`), by start.
    [[nodiscard]] Result<std::vector<UsageInterval>> intervals(qint64 from, qint64 to, qint64 now) const;
    [[nodiscard]] Result<std::vector<UsageInterval>> runningNow(qint64 now) const;
    [[nodiscard]] Result<qint64> intervalCount() const;

    // --- CSV ---------------------------------------------------------------------
    // Header: cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end
    struct ImportStats {
        int rows = 0;
        int inserted = 0;
        int updated = 0;
        int unchanged = 0;
    };
    struct ImportOptions {
        QString source = QStringLiteral("import");
        qint64 earliestStart = 946684800;       // rows starting before 2000-01-01T00:00:00Z are refused
        qint64 longestInterval = 366LL * 86400; // and closed rows longer than this (seconds)
    };
    // All or nothing: the whole file is read and checked first (nothing is written when
    // a row is bad: the Error has its 1-based line in Error::line and the column name in
    // Error::field), then loaded in one transaction through the bulk path. Idempotent:
    // a row equal to a stored one (same cluster, pod_uid, resource, start) is left
    // alone, a different one replaces it. Invalid UTF-8 and control characters in
    // names are refused. A pipe is spooled to a temporary file for the second read.
    Result<ImportStats> importCsv(QIODevice &in, const ImportOptions &options);
    Result<ImportStats> importCsv(QIODevice &in, const QString &source = QStringLiteral("import")) {
        ImportOptions o;
        o.source = source;
        return importCsv(in, o);
    }
    // Intervals overlapping [from, to) (all when not given), instants in UTC. A name a
    // spreadsheet would run as a formula (= + - @ first) is written as "'name" (OWASP);
    // importCsv() reads it back as it was.
    Result<qint64> exportCsv(QIODevice &out, std::optional<qint64> from = {},
                             std::optional<qint64> to = {}) const;

    // --- queries -----------------------------------------------------------------
    struct SeriesPoint {
        qint64 bucketStart = 0; // start of the calendar period in `tz` (unclipped)
        QString subject;
        double gpuHours = 0;
        friend bool operator==(const SeriesPoint &, const SeriesPoint &) = default;
    };
    // GPU-hours per period and subject for [from, to), ordered by bucket then subject;
    // buckets/subjects with no usage are absent.
    [[nodiscard]] Result<std::vector<SeriesPoint>>
    gpuHoursSeries(GroupBy by, Period period, qint64 from, qint64 to, const QTimeZone &tz, qint64 now) const;
    // The heaviest users in [from, to), descending.
    [[nodiscard]] Result<std::vector<std::pair<QString, double>>> topUsers(qint64 from, qint64 to, int n,
                                                                           qint64 now) const;
    // GPU-hours of one user or namespace in `window` (rollups + running rows).
    [[nodiscard]] Result<double> usedGpuHours(BudgetScope scope, const QString &subject,
                                              const TimeRange &window, qint64 now) const;
    // The same by reading the subject's rows overlapping the window and summing in
    // the client: what a simple quota service does. Kept for the benchmark and as a
    // cross-check.
    [[nodiscard]] Result<double> usedGpuHoursNaive(BudgetScope scope, const QString &subject,
                                                   const TimeRange &window, qint64 now) const;
    // Who runs where now: each (namespace, user) with a running interval started by
    // `now`, once. Cheaper than runningNow() when only the pairs matter.
    [[nodiscard]] Result<QList<QPair<QString, QString>>> runningUsersByNamespace(qint64 now) const;
    // The namespaces `user` used GPUs in during `window` up to `now` (running rows
    // too), sorted.
    [[nodiscard]] Result<QStringList> namespacesOf(const QString &user, const TimeRange &window,
                                                   qint64 now) const;
    // Weighted GPUs the subject holds right now.
    [[nodiscard]] Result<double> runningGpus(BudgetScope scope, const QString &subject, qint64 now) const;

    // --- budgets -----------------------------------------------------------------
    // Insert or replace by (scope, subject, period); returns it with its id.
    Result<Budget> setBudget(const Budget &budget);
    [[nodiscard]] Result<QList<Budget>> budgets() const;
    [[nodiscard]] Result<QList<Budget>> budgetsFor(BudgetScope scope, const QString &subject) const;
    // Deletes the subject's budget for `period`, or all of its budgets; returns how many.
    Result<int> deleteBudget(BudgetScope scope, const QString &subject, std::optional<Period> period = {});

    // Remaining budget: one decision per budget of the subject for running work
    // (used, limit incl. boosts, remaining, grace state) in the period containing now.
    [[nodiscard]] Result<QList<Decision>> budgetStatus(BudgetScope scope, const QString &subject,
                                                       qint64 now) const;
    // The admission check: every budget of the user and (when given) the namespace,
    // combined (most restrictive wins).
    //
    // With Options::cacheChecks, the per-subject inputs (budgets, budget boosts that
    // have not expired, running rows, and the closed GPU-seconds of each budget's
    // current period) are kept after the first read; later checks compute in the
    // client. The running rows' share up to `now` is always computed at check time.
    // An entry is re-read when `now` leaves one of its periods (rollover) or goes
    // back before the moment it was read. Freshness:
    // - writes through this store drop the cache at once (also on rollback);
    // - SQLite: every check first compares PRAGMA data_version (commits of any other
    //   connection or process) and this connection's change counter (also catches raw
    //   SQL on database()); a check therefore sees every commit that finished before it.
    // - PostgreSQL: schema v2 triggers NOTIFY gpuquota_usage on every write statement
    //   to intervals, rollups, budgets and boosts; every check first reads whatever
    //   notifications have reached this connection's socket (non-blocking, no round
    //   trip). A commit by another connection is therefore seen once its notification
    //   has arrived: usually well under a millisecond after that commit returns, but a
    //   check racing the commit may still answer from the previous state. If libpq's
    //   notification calls cannot be reached at run time the cache stays off.
    // Writes by this process on another store object count as another connection.
    // Inside a transaction on this store's connection (its own or raw SQL on
    // database()) checks read afresh and keep nothing: they must see uncommitted
    // writes that may still roll back.
    [[nodiscard]] Result<Decision> check(const QString &user, const QString &ns,
                                         const AdmissionRequest &request, qint64 now) const;
    // check() without combining: every budget of the user and (when given) the
    // namespace decided on its own, from the same inputs, kept cache and freshness as
    // check(). An empty subject reads nothing; no budget at all gives an empty list.
    // For callers that show each budget (the console's list), not only the verdict.
    [[nodiscard]] Result<QList<Decision>> checkEach(const QString &user, const QString &ns,
                                                    const AdmissionRequest &request, qint64 now) const;
    struct CheckCacheStats {
        bool active = false;  // cacheChecks on and usable on this backend
        qint64 fromCache = 0; // checks answered without touching the database
        qint64 reads = 0;     // checks that read inputs (first use, rollover, change)
        qint64 changes = 0;   // times a change elsewhere was noticed (marker, NOTIFY)
    };
    [[nodiscard]] CheckCacheStats checkCacheStats() const;

    // --- boosts ------------------------------------------------------------------
    Result<Boost> addBoost(const Boost &boost);
    [[nodiscard]] Result<QList<Boost>> boosts() const;
    Result<bool> setBoostState(qint64 id, Boost::State state);
    // Σ numeric deltas of active boosts on the subject's budget (BoostTarget::budget).
    [[nodiscard]] Result<double> activeBudgetBoost(BudgetScope scope, const QString &subject,
                                                   qint64 now) const;

private:
    // The connection itself is for core/usage only (storeconnection.h): the parts and
    // ledgers in this folder build on it; everyone else asks the store.
    friend UsageConnection &storeConnection(const UsageStore &store);
    explicit UsageStore(Options options);

    Options m_options;
    QString m_rollupZone;
    // In the order they are built: each part refers to parts above it, and all of them
    // (the change monitor's native statement too) are destroyed before the connection.
    std::unique_ptr<UsageConnection> m_conn;
    std::unique_ptr<DayIndex> m_days; // mutable lookup cache, single-threaded like the store
    std::unique_ptr<RollupWriter> m_rollups;
    std::unique_ptr<IntervalWriter> m_writer;
    std::unique_ptr<BulkLoader> m_bulk;
    std::unique_ptr<IntervalQueries> m_intervals;
    std::unique_ptr<ChartQueries> m_charts;
    std::unique_ptr<BoostStore> m_boosts;
    std::unique_ptr<BudgetStore> m_budgets;
    std::unique_ptr<CheckInputReader> m_checkInputs;
    std::unique_ptr<AdmissionChecker> m_checker;
};

// One transaction across many chunks of new intervals; rollups are aggregated in
// memory (bounded: partial flushes every few million cells) and written at finish().
// Destroying it unfinished rolls everything back.
class UsageStore::BulkLoad {
public:
    ~BulkLoad();
    Q_DISABLE_COPY_MOVE(BulkLoad)
    Result<void> add(const std::vector<UsageInterval> &chunk);
    // Writes the rollups gathered so far and gives rollup tables that lost their
    // primary key for the load (see beginBulk) their key back, so single-row upserts
    // (which need the keys) can follow in the same transaction.
    Result<void> restoreKeys();
    // PostgreSQL: the intervals of all add()s go to the server as one COPY that it
    // stores while the caller reads on, so a bad row (a key already stored) is
    // reported by the next restoreKeys() or finish() rather than by its add(). For
    // loads whose rows were checked first (imports).
    void streamIntervals();
    // Flushes the rollups, rebuilds dropped indexes, commits. Returns rows added.
    Result<qint64> finish();
    [[nodiscard]] qint64 added() const { return m_added; }

private:
    friend class BulkLoader;
    explicit BulkLoad(BulkLoader &loader);
    // Ends an open interval COPY, then adds the gathered rollup cells to the tables.
    // `last`: no cells follow; when these are the load's only ones and go to tables
    // without keys, the server builds the intervals' keys and indexes meanwhile.
    Result<void> writeRollups(bool last = false);
    // The rollup cells of the last add()ed chunk are gathered on a helper thread while
    // the caller reads the next one; this waits for them (and writes part of the cells
    // when there are too many). Everything that reads the accumulator calls it first.
    Result<void> settle();
    struct Gathering;
    BulkLoader &m_loader;
    std::unique_ptr<UsageTx> m_tx;
    std::unique_ptr<RollupAccumulator> m_acc;
    std::unique_ptr<Gathering> m_gathering; // the chunk being gathered, if any
    qint64 m_added = 0;
    bool m_droppedIndexes = false;
    bool m_intervalIndexesBack = false; // the intervals' dropped indexes rebuilt already
    bool m_streaming = false;
    // PostgreSQL: bit t set when rollup table t was empty and lost its primary key for
    // the load (cells COPYed in, key rebuilt at finish); see BulkLoader::plainRollups.
    unsigned m_plainRollups = 0;
    // PostgreSQL: the intervals' primary and unique keys dropped for the load, as
    // "ADD CONSTRAINT name definition" clauses (see BulkLoader::takeIntervalKeys).
    QStringList m_intervalKeys;
    int m_rollupWrites = 0;
    bool m_done = false;
    bool m_failed = false;
};

} // namespace gq
