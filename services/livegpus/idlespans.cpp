#include "idlespans.h"

#include "usageconnection.h"

#include <QSqlQuery>

#include <limits>

namespace gq {

using namespace gq::metrics;

QString idlespans::gpuKey(const GpuSample &gpu) {
    QString key = !gpu.uuid.isEmpty() ? gpu.uuid : QStringLiteral("#%1").arg(gpu.gpu.value_or(-1));
    if (gpu.isMigInstance())
        key += QLatin1Char('/') + gpu.gpuInstance;
    return key;
}

GpuSample idlespans::gpuFromKey(const QString &node, const QString &key) {
    GpuSample g;
    g.hostname = node;
    const qsizetype slash = key.indexOf(QLatin1Char('/'));
    const QString id = slash < 0 ? key : key.left(slash);
    if (slash >= 0)
        g.gpuInstance = key.mid(slash + 1);
    if (id.startsWith(QLatin1Char('#'))) {
        bool ok = false;
        const int index = id.mid(1).toInt(&ok);
        if (ok && index >= 0)
            g.gpu = index;
    } else {
        g.uuid = id;
    }
    return g;
}

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
