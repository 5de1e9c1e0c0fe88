#include "idlespans.h"

#include "usageconnection.h"

#include <QSqlQuery>

#include <limits>

namespace gq {

using namespace gq::metrics;

Result<QList<IdleGpu>> idlespans::current(UsageStore &store, qint64 nowS, qint64 minIdle, qint64 fresh) {
    UsageConnection &conn = store.connection();
    QSqlQuery q(conn.database());
    if (auto r =
            conn.prepare(q, QStringLiteral("SELECT ns, pod_name, node, gpu_uuid, start_s, end_s, "
                                           "wasted_gpu_seconds FROM idle_spans WHERE end_s >= ? AND "
                                           "end_s - start_s >= ? ORDER BY wasted_gpu_seconds DESC, node, "
                                           "gpu_uuid"));
        !r)
        return r.error();
    q.addBindValue(nowS - fresh);
    q.addBindValue(minIdle);
    if (auto r = conn.exec(q, QStringLiteral("reading idle spans")); !r)
        return r.error();
    QList<IdleGpu> out;
    while (q.next()) {
        IdleGpu g;
        g.gpu = gpuFromKey(q.value(2).toString(), q.value(3).toString());
        g.holders = {GpuHolder{q.value(0).toString(), q.value(1).toString(), QString(), QString()}};
        g.sinceMs = q.value(4).toLongLong() * 1000;
        g.lastMs = q.value(5).toLongLong() * 1000;
        g.idleMs = g.lastMs - g.sinceMs;
        g.gpuHoursWasted = q.value(6).toDouble() / 3600.0;
        g.meanUtilPct = g.maxUtilPct = std::numeric_limits<double>::quiet_NaN();
        out.append(std::move(g));
    }
    return out;
}

} // namespace gq
