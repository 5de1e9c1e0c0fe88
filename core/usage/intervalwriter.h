#pragma once

#include "core/domain/result.h"
#include "core/usage/usagestore.h"

namespace gq {

class DayIndex;
class RollupWriter;
class UsageConnection;

// Stores and closes single intervals, moving the rollups with them in the same
// transaction (see UsageStore::upsertInterval and closeInterval).
class IntervalWriter {
public:
    IntervalWriter(UsageConnection &conn, const ResourceWeights &weights, DayIndex &days,
                   RollupWriter &rollups)
        : m_conn(conn)
        , m_weights(weights)
        , m_days(days)
        , m_rollups(rollups) {}
    Q_DISABLE_COPY_MOVE(IntervalWriter)

    Result<UsageStore::UpsertOutcome> upsert(const UsageInterval &iv);
    // upsert() inside the caller's transaction (a CSV import writes many rows in one).
    Result<UsageStore::UpsertOutcome> upsertInTx(const UsageInterval &iv);
    Result<bool> close(const QString &cluster, const QString &podUid, const QString &resource, qint64 start,
                       qint64 end, bool estimated = false);
    // The heartbeat of UsageStore::markIntervalsSeen.
    Result<qint64> markSeen(const QString &cluster, const QString &source, qint64 now);

private:
    Result<void> lockKey(const QString &cluster, const QString &podUid, const QString &resource,
                         qint64 start);

    UsageConnection &m_conn;
    const ResourceWeights &m_weights;
    DayIndex &m_days;
    RollupWriter &m_rollups;
};

} // namespace gq
