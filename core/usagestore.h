#pragma once

#include "core/budget.h"
#include "core/clock.h"
#include "core/dburl.h"
#include "core/ledger.h"
#include "core/result.h"
#include "core/timewindow.h"

#include <QHash>
#include <QMap>
#include <QPair>
#include <QSqlDatabase>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QIODevice;
class QSqlError;
class QSqlQuery;

namespace gq {

class DayIndex;
struct CheckCache;
struct CheckSubject;
struct RollupDelta;
class RollupAccumulator;
class UsageStore;

// A time-bound increase of a quota or budget, recorded before it is applied.
// Targets of the form "budget/user/<name>" or "budget/namespace/<name>" with a
// numeric delta (GPU-hours) raise that subject's budget limits while active
// (pending or applied, start <= now < expiry); other targets (ResourceQuota
// entries, e.g. "quota/team-a/gpu-quota/requests.nvidia.com/gpu", delta a Quantity)
// are applied by the console/controller.
struct Boost {
    enum class State { Pending, Applied, Reverted, Cancelled };
    qint64 id = 0;
    QString target;
    QString delta;
    qint64 start = 0;
    qint64 expiry = 0;
    QString note;
    QString actor;
    State state = State::Pending;
    friend bool operator==(const Boost &, const Boost &) = default;
};
[[nodiscard]] QString boostStateName(Boost::State s);
[[nodiscard]] Result<Boost::State> parseBoostState(const QString &text);

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
class UsageStoreTx;

class UsageStore {
public:
    // v2: PostgreSQL statement triggers announce writes on the tables the admission
    // check reads (NOTIFY gpuquota_usage), so kept check caches can drop themselves.
    static constexpr int kSchemaVersion = 2;

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

    [[nodiscard]] const DbUrl &url() const { return m_url; }
    [[nodiscard]] bool isPostgres() const { return m_url.driver == DbUrl::Driver::Postgres; }
    [[nodiscard]] QSqlDatabase database() const;
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
    Result<bool> closeInterval(const QString &cluster, const QString &podUid, const QString &resource,
                               qint64 start, qint64 end);
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
    // transaction. The store must not be used otherwise until the load finishes or
    // is destroyed.
    Result<std::unique_ptr<BulkLoad>> beginBulk(qint64 expectedRows = 0);

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
    // All or nothing: the first bad row is an Error with its 1-based line number in
    // Error::line and the column name in Error::field, and the file is rolled back.
    Result<ImportStats> importCsv(QIODevice &in, const QString &source = QStringLiteral("import"));
    // Intervals overlapping [from, to) (all when not given), instants in UTC.
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
    // Σ numeric deltas of active boosts on "budget/<scope>/<subject>".
    [[nodiscard]] Result<double> activeBudgetBoost(BudgetScope scope, const QString &subject,
                                                   qint64 now) const;

private:
    UsageStore(DbUrl url, Options options, QString connectionName);
    Result<void> connect();
    Result<void> migrate();
    [[nodiscard]] Error sqlError(const QSqlError &err, const QString &what) const;
    [[nodiscard]] Error sqlError(const QSqlQuery &q, const QString &what) const;
    [[nodiscard]] Error sqlError(const QSqlDatabase &db, const QString &what) const;
    Result<void> exec(QSqlQuery &q, const QString &what) const;   // a prepared statement
    Result<void> execSql(QSqlQuery &q, const QString &sql) const; // fixed SQL text, no values
    Result<void> prepare(QSqlQuery &q, const QString &sql) const;
    Result<void> begin();
    Result<void> commit();
    void rollback();
    Result<void> flushRollups(const RollupDelta &delta);
    void accumulate(RollupDelta &delta, const QString &ns, const QString &user, qint64 start, qint64 end,
                    double gpuWeight) const;
    Result<void> loadSettings();
    // usedGpuHours() with the subject's running intervals possibly already at hand.
    [[nodiscard]] Result<double> usedGpuHoursWith(BudgetScope scope, const QString &subject,
                                                  const TimeRange &window, qint64 now,
                                                  const std::vector<UsageInterval> *running) const;
    Result<UpsertOutcome> upsertIntervalInTx(const UsageInterval &iv);
    [[nodiscard]] Result<std::vector<UsageInterval>> runningFor(BudgetScope scope,
                                                                const QString &subject) const;
    [[nodiscard]] Result<QMap<QString, double>> subjectTotals(GroupBy by, qint64 from, qint64 to,
                                                              qint64 now) const;
    [[nodiscard]] Result<std::vector<SeriesPoint>> seriesFromIntervals(GroupBy by, Period period, qint64 from,
                                                                       qint64 to, const QTimeZone &tz,
                                                                       qint64 now) const;
    void assertThread() const;
    // The admission check in two halves: reading the inputs of the given subjects
    // (both halves of the kept statement; an empty subject reads nothing) and deciding
    // from them at `now` without the database.
    Result<void> loadCheckInputs(const QString &user, const QString &ns, bool loadUser, bool loadNs,
                                 qint64 now, CheckSubject out[2]) const;
    [[nodiscard]] QList<Decision> decideEach(const CheckSubject *subjects[2], const AdmissionRequest &request,
                                             qint64 now) const;
    [[nodiscard]] Result<double> closedSecondsExact(BudgetScope scope, const QString &subject,
                                                    const TimeRange &window) const;
    // Weighted GPU-seconds of the subject's rows overlapping `window`, summed in the
    // client (the naive sum and the exact path for zones off whole UTC hours).
    [[nodiscard]] Result<double> overlappingGpuSeconds(BudgetScope scope, const QString &subject,
                                                       const TimeRange &window, qint64 now,
                                                       bool withRunning) const;
    // Drops kept check inputs (own writes, notifications, changed data version).
    void invalidateChecks() const;
    // Compares the database's change markers with those of the cached entries and
    // drops them when anything changed. False when the cache cannot be trusted now.
    bool refreshCheckCache() const;
    Result<void> setUpCheckCache();
    // A statement prepared once per connection and kept: with QPSQL a fresh QSqlQuery
    // costs PREPARE + EXECUTE + DEALLOCATE round trips, a kept one only EXECUTE.
    // Callers bind, exec, read and then finish() it (an unfinished SQLite statement
    // would hold its read snapshot open).
    [[nodiscard]] Result<QSqlQuery *> cached(const QString &sql) const;
    // Multi-row writers used by bulk loads and the rollup rebuild. PostgreSQL binds
    // each column as one array (unnest), SQLite uses many-row VALUES lists.
    Result<void> writeIntervals(const std::vector<UsageInterval> &rows, size_t from, size_t to);
    enum class RollupWrite { Add, Replace };
    Result<void> writeRollups(const RollupAccumulator &acc, RollupWrite mode);
    Result<void> writeRollupRows(int table, const QStringList &names, const std::vector<qint64> &times,
                                 const std::vector<double> &values, RollupWrite mode);
    Result<void> setSecondaryIndexes(bool present);

    DbUrl m_url;
    Options m_options;
    QString m_connectionName;
    Qt::HANDLE m_thread = nullptr;
    int m_txDepth = 0;
    QString m_rollupZone;
    std::unique_ptr<DayIndex> m_days; // mutable cache, single-threaded like the store
    mutable QHash<QString, std::shared_ptr<QSqlQuery>> m_statements;
    bool m_bulkActive = false;
    std::unique_ptr<CheckCache> m_checkCache; // null unless Options::cacheChecks

    friend class AuditLog;
    friend class UsageStoreTx;
};

// One transaction across many chunks of new intervals; rollups are aggregated in
// memory (bounded: partial flushes every few million cells) and written at finish().
// Destroying it unfinished rolls everything back.
class UsageStore::BulkLoad {
public:
    ~BulkLoad();
    Q_DISABLE_COPY_MOVE(BulkLoad)
    Result<void> add(const std::vector<UsageInterval> &chunk);
    // Flushes the rollups, rebuilds dropped indexes, commits. Returns rows added.
    Result<qint64> finish();
    [[nodiscard]] qint64 added() const { return m_added; }

private:
    friend class UsageStore;
    explicit BulkLoad(UsageStore &store);
    UsageStore &m_store;
    std::unique_ptr<UsageStoreTx> m_tx;
    std::unique_ptr<RollupAccumulator> m_acc;
    qint64 m_added = 0;
    bool m_droppedIndexes = false;
    bool m_done = false;
    bool m_failed = false;
};

} // namespace gq
