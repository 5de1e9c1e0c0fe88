#include "services/livegpus/idlespans.h"

#include "core/usage/idlespanstore.h"

#include <limits>

namespace gq {

using namespace gq::metrics;

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
