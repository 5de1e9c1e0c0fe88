#include "core/usage/idlespanstore.h"

#include "core/usage/storeconnection.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagestore.h"

#include <QSqlQuery>

#include <algorithm>
#include <optional>

namespace gq {

Result<QList<IdleSpan>> IdleSpanStore::current(qint64 endedFrom, qint64 minSeconds) const {
    UsageConnection &conn = storeConnection(m_store);
    QSqlQuery q(conn.database());
    if (auto r =
            conn.prepare(q, QStringLiteral("SELECT ns, pod_name, node, gpu_uuid, start_s, end_s, "
                                           "wasted_gpu_seconds FROM idle_spans WHERE end_s >= ? AND "
                                           "end_s - start_s >= ? ORDER BY wasted_gpu_seconds DESC, node, "
                                           "gpu_uuid"));
        !r)
        return r.error();
    q.addBindValue(endedFrom);
    q.addBindValue(minSeconds);
    if (auto r = conn.exec(q, QStringLiteral("reading idle spans")); !r)
        return r.error();
    QList<IdleSpan> out;
    while (q.next())
        out.append(IdleSpan{q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                            q.value(3).toString(), q.value(4).toLongLong(), q.value(5).toLongLong(),
                            q.value(6).toDouble(), 1.0});
    return out;
}

namespace {
// The ids of the rows `span` touches within `tolerance`, `span` widened over them.
Result<QList<qint64>> touching(UsageConnection &conn, QSqlQuery &find, IdleSpan &span, qint64 tolerance) {
    find.addBindValue(span.node);
    find.addBindValue(span.gpuKey);
    find.addBindValue(span.ns);
    find.addBindValue(span.pod);
    find.addBindValue(span.start - tolerance);
    find.addBindValue(span.end + tolerance);
    if (auto r = conn.exec(find, QStringLiteral("reading idle spans")); !r)
        return r.error();
    QList<qint64> ids;
    while (find.next()) {
        ids << find.value(0).toLongLong();
        span.start = std::min(span.start, find.value(1).toLongLong());
        span.end = std::max(span.end, find.value(2).toLongLong());
    }
    find.finish();
    return ids;
}
} // namespace

Result<int> IdleSpanStore::upsert(const QList<IdleSpan> &spans, qint64 tolerance) {
    UsageConnection &conn = storeConnection(m_store);
    UsageTx tx(conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    QSqlQuery find(conn.database()), update(conn.database()), insert(conn.database());
    if (auto r =
            conn.prepare(find, QStringLiteral("SELECT id, start_s, end_s FROM idle_spans WHERE node = ? AND "
                                              "gpu_uuid = ? AND ns = ? AND pod_name = ? AND end_s >= ? AND "
                                              "start_s <= ? ORDER BY start_s"));
        !r)
        return r.error();
    if (auto r = conn.prepare(update, QStringLiteral("UPDATE idle_spans SET start_s = ?, end_s = ?, "
                                                     "wasted_gpu_seconds = ? WHERE id = ?"));
        !r)
        return r.error();
    if (auto r =
            conn.prepare(insert, QStringLiteral("INSERT INTO idle_spans (ns, pod_name, node, gpu_uuid, "
                                                "start_s, end_s, wasted_gpu_seconds) VALUES (?, ?, ?, ?, ?, "
                                                "?, ?)"));
        !r)
        return r.error();
    int written = 0;
    for (IdleSpan span : spans) {
        if (span.end <= span.start)
            continue;
        auto ids = touching(conn, find, span, tolerance);
        if (!ids)
            return ids.error();
        // Rows this span touches become one (a span first seen in two pieces).
        for (qsizetype k = 1; k < ids->size(); ++k) {
            QSqlQuery drop(conn.database());
            if (auto r = conn.prepare(drop, QStringLiteral("DELETE FROM idle_spans WHERE id = ?")); !r)
                return r.error();
            drop.addBindValue(ids->at(k));
            if (auto r = conn.exec(drop, QStringLiteral("merging idle spans")); !r)
                return r.error();
        }
        const std::optional<qint64> id = ids->isEmpty() ? std::nullopt : std::optional<qint64>(ids->first());
        const double wasted = double(span.end - span.start) * span.weight;
        QSqlQuery &q = id ? update : insert;
        if (id) {
            q.addBindValue(span.start);
            q.addBindValue(span.end);
            q.addBindValue(wasted);
            q.addBindValue(*id);
        } else {
            q.addBindValue(span.ns);
            q.addBindValue(span.pod);
            q.addBindValue(span.node);
            q.addBindValue(span.gpuKey);
            q.addBindValue(span.start);
            q.addBindValue(span.end);
            q.addBindValue(wasted);
        }
        if (auto r = conn.exec(q, QStringLiteral("writing an idle span")); !r)
            return r.error();
        ++written;
    }
    if (auto r = tx.commit(); !r)
        return r.error();
    return written;
}

} // namespace gq
