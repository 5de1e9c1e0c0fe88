#include "core/usage/intervalwriter.h"

#include "core/usage/intervalqueries.h"
#include "core/usage/rollups.h"
#include "core/usage/rollupwriter.h"
#include "core/usage/usageconnection.h"

#include <QSqlQuery>

#include <cmath>

namespace gq {

using UpsertOutcome = UsageStore::UpsertOutcome;

// Every controller replica records (see UsageRecorder): two may write the same row at
// once. On PostgreSQL a lock on the row's key, held to the end of the transaction,
// makes the second wait and then find the first one's row, so the rollups move once
// and no INSERT meets the unique key. (Only single-row transactions take it: a bulk
// import holding one lock per row would fill the server's lock table.) SQLite's
// BEGIN IMMEDIATE already serialises writers.
Result<void> IntervalWriter::lockKey(const QString &cluster, const QString &podUid, const QString &resource,
                                     qint64 start) {
    if (!m_conn.isPostgres())
        return {};
    QSqlQuery lock(m_conn.database());
    if (auto r = m_conn.prepare(lock, QStringLiteral("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))"));
        !r)
        return r.error();
    const QString key = cluster + QLatin1Char('\x1f') + podUid + QLatin1Char('\x1f') + resource +
                        QLatin1Char('\x1f') + QString::number(start);
    lock.addBindValue(key);
    return m_conn.exec(lock, QStringLiteral("locking an interval's key"));
}

Result<UpsertOutcome> IntervalWriter::upsert(const UsageInterval &iv) {
    UsageTx tx(m_conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    if (auto r = lockKey(iv.cluster, iv.podUid, iv.resource, iv.start); !r)
        return r.error();
    auto out = upsertInTx(iv);
    if (!out)
        return out;
    if (auto r = tx.commit(); !r)
        return r.error();
    return out;
}

Result<UpsertOutcome> IntervalWriter::upsertInTx(const UsageInterval &iv) {
    if (auto v = validateInterval(iv); !v)
        return v.error();
    QSqlDatabase db = m_conn.database();
    const double weight = iv.weight ? *iv.weight : m_weights.weight(iv.resource);
    const double modelWeight = iv.modelWeight ? *iv.modelWeight : m_weights.modelWeight(iv.gpuModel);
    if (!(modelWeight > 0))
        return Error::make(Error::Kind::Invalid, QStringLiteral("must be a positive number"),
                           QStringLiteral("model_weight"));
    QSqlQuery find(db);
    if (auto r = m_conn.prepare(
            find, QStringLiteral(
                      "SELECT id, ns, user_name, pod_name, gpus, weight, end_s, node, gpu_model, "
                      "model_weight, end_estimated FROM usage_intervals WHERE cluster = ? AND pod_uid = ? "
                      "AND resource = ? AND start_s = ?"));
        !r)
        return r.error();
    find.addBindValue(nonNull(iv.cluster));
    find.addBindValue(nonNull(iv.podUid));
    find.addBindValue(nonNull(iv.resource));
    find.addBindValue(iv.start);
    if (auto r = m_conn.exec(find, QStringLiteral("looking up an interval")); !r)
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
            oldGpus == iv.gpus && sameEnd && std::abs(oldWeight - weight) < 1e-12 &&
            find.value(7).toString() == iv.node && find.value(8).toString() == iv.gpuModel &&
            std::abs(find.value(9).toDouble() - modelWeight) < 1e-12 &&
            (find.value(10).toInt() != 0) == iv.endEstimated)
            return UpsertOutcome::Unchanged;
        if (!oldOpen)
            accumulate(delta, m_days, oldNs, oldUser, iv.start, oldEnd, -oldGpus * oldWeight);
        QSqlQuery upd(db);
        if (auto r = m_conn.prepare(
                upd, QStringLiteral("UPDATE usage_intervals SET ns = ?, user_name = ?, pod_name = ?, "
                                    "gpus = ?, weight = ?, end_s = ?, source = ?, node = ?, gpu_model = ?, "
                                    "model_weight = ?, end_estimated = ? WHERE id = ?"));
            !r)
            return r.error();
        upd.addBindValue(nonNull(iv.ns));
        upd.addBindValue(nonNull(iv.user));
        upd.addBindValue(nonNull(iv.podName));
        upd.addBindValue(iv.gpus);
        upd.addBindValue(weight);
        upd.addBindValue(endValue);
        upd.addBindValue(nonNull(iv.source));
        upd.addBindValue(nonNull(iv.node));
        upd.addBindValue(nonNull(iv.gpuModel));
        upd.addBindValue(modelWeight);
        upd.addBindValue(iv.endEstimated ? 1 : 0);
        upd.addBindValue(id);
        if (auto r = m_conn.exec(upd, QStringLiteral("updating an interval")); !r)
            return r.error();
        outcome = UpsertOutcome::Updated;
    } else {
        QSqlQuery ins(db);
        if (auto r = m_conn.prepare(
                ins, QStringLiteral("INSERT INTO usage_intervals (%1, node, gpu_model, model_weight, "
                                    "end_estimated, seen_s) VALUES "
                                    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
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
        ins.addBindValue(nonNull(iv.node));
        ins.addBindValue(nonNull(iv.gpuModel));
        ins.addBindValue(modelWeight);
        ins.addBindValue(iv.endEstimated ? 1 : 0);
        ins.addBindValue(iv.seen ? QVariant(*iv.seen) : QVariant(QMetaType(QMetaType::LongLong)));
        if (auto r = m_conn.exec(ins, QStringLiteral("inserting an interval")); !r)
            return r.error();
    }
    if (iv.end)
        accumulate(delta, m_days, iv.ns, iv.user, iv.start, *iv.end, iv.gpus * weight);
    if (auto r = m_rollups.flush(delta); !r)
        return r.error();
    return outcome;
}

Result<bool> IntervalWriter::close(const QString &cluster, const QString &podUid, const QString &resource,
                                   qint64 start, qint64 end, bool estimated) {
    if (end <= start)
        return Error::make(Error::Kind::Invalid,
                           end == start ? QStringLiteral("zero-length interval: end equals start")
                                        : QStringLiteral("reversed interval: end is before start"),
                           QStringLiteral("end"));
    UsageTx tx(m_conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    if (auto r = lockKey(cluster, podUid, resource, start); !r)
        return r.error();
    QSqlDatabase db = m_conn.database();
    QSqlQuery find(db);
    if (auto r = m_conn.prepare(
            find, QStringLiteral("SELECT id, ns, user_name, gpus, weight FROM usage_intervals "
                                 "WHERE cluster = ? AND pod_uid = ? AND resource = ? AND start_s = ? "
                                 "AND end_s IS NULL"));
        !r)
        return r.error();
    find.addBindValue(nonNull(cluster));
    find.addBindValue(nonNull(podUid));
    find.addBindValue(nonNull(resource));
    find.addBindValue(start);
    if (auto r = m_conn.exec(find, QStringLiteral("looking up a running interval")); !r)
        return r.error();
    if (!find.next())
        return false;
    const qint64 id = find.value(0).toLongLong();
    RollupDelta delta;
    accumulate(delta, m_days, find.value(1).toString(), find.value(2).toString(), start, end,
               find.value(3).toInt() * find.value(4).toDouble());
    QSqlQuery upd(db);
    if (auto r = m_conn.prepare(
            upd, QStringLiteral("UPDATE usage_intervals SET end_s = ?, end_estimated = ? WHERE id = ?"));
        !r)
        return r.error();
    upd.addBindValue(end);
    upd.addBindValue(estimated ? 1 : 0);
    upd.addBindValue(id);
    if (auto r = m_conn.exec(upd, QStringLiteral("closing an interval")); !r)
        return r.error();
    if (auto r = m_rollups.flush(delta); !r)
        return r.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return true;
}

// Only seen_s moves: no rollup changes and no row lock (a concurrent close of the same
// row still wins, since a closed row is not touched). The condition keeps the newest
// value when replicas' clocks differ slightly.
Result<qint64> IntervalWriter::markSeen(const QString &cluster, const QString &source, qint64 now) {
    auto q = m_conn.cached(QStringLiteral("UPDATE usage_intervals SET seen_s = ? WHERE end_s IS NULL AND "
                                          "cluster = ? AND source = ? AND (seen_s IS NULL OR seen_s < ?)"));
    if (!q)
        return q.error();
    (*q)->addBindValue(now);
    (*q)->addBindValue(nonNull(cluster));
    (*q)->addBindValue(nonNull(source));
    (*q)->addBindValue(now);
    if (auto r = m_conn.exec(**q, QStringLiteral("marking running intervals as seen")); !r)
        return r.error();
    const qint64 moved = (*q)->numRowsAffected();
    (*q)->finish();
    return moved; // nothing the admission checks read changed: no noteWrite()
}

} // namespace gq
