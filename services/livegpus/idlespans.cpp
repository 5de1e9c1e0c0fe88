#include "idlespans.h"

#include "idlespanstore.h"

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
    auto spans = IdleSpanStore(store).current(nowS - fresh, minIdle);
    if (!spans)
        return spans.error();
    QList<IdleGpu> out;
    out.reserve(spans->size());
    for (const IdleSpan &s : std::as_const(*spans)) {
        IdleGpu g;
        g.gpu = gpuFromKey(s.node, s.gpuKey);
        g.holders = {GpuHolder{s.ns, s.pod, QString(), QString()}};
        g.sinceMs = s.start * 1000;
        g.lastMs = s.end * 1000;
        g.idleMs = g.lastMs - g.sinceMs;
        g.gpuHoursWasted = s.wastedGpuSeconds / 3600.0;
        g.meanUtilPct = g.maxUtilPct = std::numeric_limits<double>::quiet_NaN();
        out.append(std::move(g));
    }
    return out;
}

} // namespace gq
