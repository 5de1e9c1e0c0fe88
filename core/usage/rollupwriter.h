#pragma once

#include "core/domain/result.h"
#include "core/usage/usagestore.h"

#include <QStringList>

#include <functional>
#include <utility>
#include <vector>

namespace gq {

class DayIndex;
class PgCopy;
class RollupAccumulator;
class UsageConnection;
struct RollupDelta;

// Writes the rollup tables: small deltas of single interval writes (multi-row
// upserts through Qt), the large aggregates of bulk loads (PostgreSQL binds each
// column as one array for unnest, SQLite uses its native handle), and the repair that
// recomputes them all from the raw intervals.
class RollupWriter {
public:
    RollupWriter(UsageConnection &conn, DayIndex &days)
        : m_conn(conn)
        , m_days(days) {}
    Q_DISABLE_COPY_MOVE(RollupWriter)

    // Adds the delta of one interval write (inside its transaction).
    Result<void> flush(const RollupDelta &delta);
    enum class Mode { Add, Replace };
    // Tables (bit t of `tables`, index into kRollupTables) that hold only this load's
    // cells and have no primary key for now: PostgreSQL COPYs into them, no upsert.
    // Cells of plain tables already in the order of their keys (see orderPlain).
    struct OrderedCells {
        std::vector<std::pair<quint64, double>> cells[4];
        unsigned tables = 0; // bit t: cells[t] holds table t's cells
    };
    struct PlainTables {
        PgCopy *copy;
        unsigned tables;
        const OrderedCells *ordered = nullptr;
    };
    Result<void> write(const RollupAccumulator &acc, Mode mode) { return write(acc, mode, {nullptr, 0}); }
    Result<void> write(const RollupAccumulator &acc, Mode mode, PlainTables plain);
    // The cells of the plain `tables` in the order the server sorts their keys, ordered
    // on a helper thread while `meanwhile` runs on this one (a huge load has the server
    // build the intervals' keys then, #31 item 7); without `meanwhile`, on this thread.
    // Asks the server for its order of the names first; `meanwhile` must not touch `acc`.
    Result<OrderedCells> orderPlain(const RollupAccumulator &acc, unsigned tables,
                                    const std::function<Result<void>()> &meanwhile);
    // table: index into kRollupTables.
    Result<void> writeRows(int table, const QStringList &names, const std::vector<qint64> &times,
                           const std::vector<double> &values, Mode mode);
    // UsageStore::rebuildRollups().
    Result<UsageStore::RollupRebuildReport> rebuild();

private:
    static QString upsertTail(int table, Mode mode);
    // COPY of a table without its key (see BulkLoader::takePlainRollups), in key order.
    Result<void> copyRows(int table, const RollupAccumulator &acc, PgCopy &copy,
                          const std::vector<std::pair<quint64, double>> &sorted);
    // The order the server sorts `names` in (its collation): indexes into `names`.
    Result<std::vector<quint32>> serverOrder(const std::vector<QString> &names);
    // All tables of `acc` on SQLite (the next one ordered while one is written).
    Result<void> writeSqlite(const RollupAccumulator &acc, Mode mode);
    Result<void> writeSqlite(int table, const RollupAccumulator &acc,
                             const std::vector<std::pair<quint64, double>> &sorted, Mode mode);

    UsageConnection &m_conn;
    DayIndex &m_days;
};

} // namespace gq
