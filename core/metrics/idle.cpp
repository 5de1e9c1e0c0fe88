#include "idle.h"

#include <QMap>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace gq::metrics {

QString gpuSnapshotQuery() {
    // One round trip for every field; (?i) because old setups publish lower-case names.
    return QStringLiteral("{__name__=~\"(?i)%1\"}").arg(dcgmMetricNames().join(u'|'));
}

QString gpuUtilizationQuery() {
    return QStringLiteral("{__name__=~\"(?i)DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_GR_ENGINE_ACTIVE\"}");
}

double gpuWeight(const GpuSample &gpu) {
    if (!gpu.isMigInstance())
        return 1.0;
    static const QRegularExpression slices(QStringLiteral("^(\\d+)g\\."));
    const auto m = slices.match(gpu.migProfile);
    if (!m.hasMatch())
        return 1.0;
    const double total = gpu.model.contains(QLatin1String("A30")) ? 4.0 : 7.0;
    return std::min(1.0, m.captured(1).toDouble() / total);
}

namespace {

bool sameHolders(const QList<GpuHolder> &a, const QList<GpuHolder> &b) {
    if (a.size() != b.size())
        return false;
    for (const GpuHolder &h : a)
        if (!b.contains(h))
            return false;
    return true;
}

} // namespace

QList<IdleGpu> findIdleGpus(const QList<GpuTimeline> &timelines, const IdleOptions &o) {
    QList<IdleGpu> out;
    for (const GpuTimeline &tl : timelines) {
        if (tl.readings.isEmpty())
            continue;
        const GpuReading &last = tl.readings.last();
        if (last.holders.isEmpty() || o.nowMs - last.tMs > o.maxGapMs)
            continue;
        qint64 since = -1;
        double sum = 0, maxU = 0;
        int n = 0;
        qint64 later = last.tMs;
        for (qsizetype i = tl.readings.size() - 1; i >= 0; --i) {
            const GpuReading &r = tl.readings.at(i);
            if (!r.utilPct || !(*r.utilPct < o.thresholdPct) || !sameHolders(r.holders, last.holders) ||
                later - r.tMs > o.maxGapMs)
                break;
            since = r.tMs;
            later = r.tMs;
            sum += *r.utilPct;
            maxU = std::max(maxU, *r.utilPct);
            ++n;
        }
        if (since < 0 || last.tMs - since < o.minIdleMs)
            continue;
        IdleGpu g;
        g.gpu = tl.gpu;
        g.holders = last.holders;
        g.sinceMs = since;
        g.lastMs = last.tMs;
        g.idleMs = last.tMs - since;
        g.gpuHoursWasted = double(g.idleMs) / 3.6e6 * gpuWeight(tl.gpu);
        g.meanUtilPct = sum / n;
        g.maxUtilPct = maxU;
        out.append(std::move(g));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const IdleGpu &a, const IdleGpu &b) { return a.gpuHoursWasted > b.gpuHoursWasted; });
    return out;
}

QList<GpuTimeline> timelinesFromRange(const PromResult &matrix) {
    // Samples grouped by instant; the step grid makes the instants line up.
    QMap<qint64, QList<Sample>> byTime;
    QList<Sample> all;
    for (const PromSeries &s : matrix.series) {
        Sample base;
        base.name = labelValue(s.metric, u"__name__");
        for (const Label &l : s.metric)
            if (l.name != QLatin1String("__name__"))
                base.labels.append(l);
        for (const PromPoint &p : s.points) {
            Sample smp = base;
            smp.value = p.v;
            const qint64 t = qint64(std::llround(p.t * 1000.0));
            smp.timestampMs = t;
            byTime[t].append(smp);
            all.append(std::move(smp));
        }
    }
    const UnitHints hints = detectUnitHints(all);
    QHash<QString, int> index;
    QList<GpuTimeline> out;
    for (auto it = byTime.constBegin(); it != byTime.constEnd(); ++it) {
        const GpuSnapshot snap = gpusFromSamples(it.value(), {}, hints);
        for (const GpuSample &g : snap.gpus) {
            if (g.isMigInstance() == false && !g.utilPct && g.holders.isEmpty())
                continue; // a made-up parent row of MIG instances
            const QString k = g.key();
            auto found = index.constFind(k);
            if (found == index.constEnd()) {
                found = index.insert(k, int(out.size()));
                GpuTimeline tl;
                tl.gpu = g;
                out.append(tl);
            }
            out[*found].readings.append(GpuReading{it.key(), g.utilPct, g.holders});
        }
    }
    return out;
}

} // namespace gq::metrics
