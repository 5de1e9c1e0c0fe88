#pragma once

#include "core/domain/result.h"
#include "core/usage/rollupwriter.h"
#include "core/usage/usagestore.h"

#include <optional>
#include <vector>

namespace gq {

class DayIndex;
class PgCopy;
class RollupWriter;
class UsageConnection;

// The fast path for loads of many new intervals (demo data, imports of history,
// benchmarks): large multi-row statements, rollups aggregated in memory, one
// transaction, and for huge loads the secondary indexes rebuilt at the end. See
// UsageStore::insertBulk, beginBulk and UsageStore::BulkLoad.
class BulkLoader {
public:
    BulkLoader(UsageConnection &conn, const ResourceWeights &weights, DayIndex &days, RollupWriter &rollups);
    ~BulkLoader();
    Q_DISABLE_COPY_MOVE(BulkLoader)

    Result<std::unique_ptr<UsageStore::BulkLoad>> begin(qint64 expectedRows);
    Result<qint64> insert(const std::vector<UsageInterval> &intervals);

    // Adds `chunk` (valid rows with distinct keys) to `load` the way upsertInterval()
    // would, but in a few statements: each row is first looked up by its key, an equal
    // stored row is left alone, a different one replaced (its rollups moved in the
    // load's aggregate), a new one bulk-inserted. For imports into a database that may
    // already hold some of the rows.
    struct MergeCounts {
        qint64 inserted = 0;
        qint64 updated = 0;
        qint64 unchanged = 0;
    };
    Result<void> merge(UsageStore::BulkLoad &load, const std::vector<UsageInterval> &chunk,
                       MergeCounts &counts);
    // Rollup cells a load keeps in memory before adding them to the tables (~50 bytes
    // each); fewer cost more partial writes. 0 restores the default.
    void setRollupCellLimit(size_t cells);
    // Expected rows from which a load drops and rebuilds indexes. 0 restores the default.
    void setHugeLoadFrom(qint64 rows);
    [[nodiscard]] qint64 hugeLoadFrom() const { return m_hugeLoadFrom; }

private:
    friend class UsageStore::BulkLoad;
    // The stored row with a key of `chunk`, by index into `chunk`.
    struct Stored {
        qint64 id = 0;
        QString ns, user, podName;
        int gpus = 0;
        double weight = 0;
        std::optional<qint64> end;
    };
    struct Replacement {
        qint64 id;
        const UsageInterval *row;
    };
    Result<std::vector<std::optional<Stored>>> lookup(const std::vector<UsageInterval> &chunk);
    Result<void> replace(const std::vector<Replacement> &rows);
    // Rows [from, to) of `rows` as new intervals. PostgreSQL streams them with COPY
    // (or binds each column as one array for unnest when COPY is not reachable),
    // SQLite uses its native handle.
    Result<void> writeIntervals(const std::vector<UsageInterval> &rows, size_t from, size_t to,
                                bool stream = false);
    Result<void> copyIntervals(const std::vector<UsageInterval> &rows, size_t from, size_t to, bool stream);
    Result<void> insertIntervalsUnnest(const std::vector<UsageInterval> &rows, size_t from, size_t to);
    Result<void> insertIntervalsSqlite(const std::vector<UsageInterval> &rows, size_t from, size_t to);
    // Ends the open interval COPY of a streaming load (see BulkLoad::streamIntervals)
    // before another statement; abortStream() drops it.
    Result<void> endStream();
    void abortStream();
    // The COPY helper on PostgreSQL (created on first use), else null.
    PgCopy *copier();
    // Huge PostgreSQL loads (with the secondary indexes dropped): each rollup table
    // that is empty gives up its primary key for the load, so cells are COPYed in
    // rather than upserted (a third of the cost); restorePlainRollups() merges cells
    // written twice by partial flushes and adds the key back, before commit.
    Result<void> takePlainRollups(UsageStore::BulkLoad &load);
    Result<void> restorePlainRollups(UsageStore::BulkLoad &load);
    // Huge PostgreSQL loads also drop the intervals' primary and unique keys: kept up
    // per COPYed row they cost about as much as the COPY itself, built once at the end
    // a third of that (#31 item 7). restorePlainRollups() adds them back, so a key
    // the load duplicated is reported there (imports check their rows first; repeats
    // go through upserts after restoreKeys()).
    Result<void> takeIntervalKeys(UsageStore::BulkLoad &load);
    // Adds the intervals' keys back (and, `withIndexes`, their secondary indexes when
    // the load dropped them): finish() has the server build them while the client
    // orders the rollup cells.
    Result<void> restoreIntervalKeys(UsageStore::BulkLoad &load, bool withIndexes);
    [[nodiscard]] RollupWriter::PlainTables plainTables(const UsageStore::BulkLoad &load) const;

    UsageConnection &m_conn;
    const ResourceWeights &m_weights;
    DayIndex &m_days;
    RollupWriter &m_rollups;
    std::unique_ptr<PgCopy> m_copy;
    size_t m_maxRollupCells;
    qint64 m_hugeLoadFrom;
    bool m_copyProbed = false;
    bool m_active = false;
};

} // namespace gq
