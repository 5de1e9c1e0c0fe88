#include "core/metrics/idlespanrows.h"

#include <tuple>

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

GpuHolder idlespans::rowHolder(const IdleGpu &g) {
    GpuHolder first = g.holders.value(0);
    for (const GpuHolder &h : g.holders)
        if (std::tie(h.ns, h.pod) < std::tie(first.ns, first.pod))
            first = h;
    return first;
}

} // namespace gq
