#include "core/metrics/idle.h"

#include <QMap>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace gq::metrics {

namespace {
// Every label the mapping reads (gpusFromSamples), for the presence series below.
const char *const kIdentityLabels[] = {"gpu",
                                       "UUID",
                                       "uuid",
                                       "Hostname",
                                       "hostname",
                                       "kubernetes_node",
                                       "node",
                                       "instance",
                                       "job",
                                       "modelName",
                                       "GPU_I_ID",
                                       "GPU_I_PROFILE",
                                       "pod",
                                       "namespace",
                                       "container",
                                       "pod_uid",
                                       "pod_name",
                                       "pod_namespace",
                                       "container_name",
                                       "exported_pod",
                                       "exported_namespace",
                                       "exported_container",
                                       "exported_pod_uid",
                                       "dra_claim_name",
                                       "dra_claim_namespace"};
constexpr QStringView kPresenceLabel = u"gq_presence";
constexpr QStringView kPresenceName = u"DCGM_FI_GQ_PRESENCE";
} // namespace

QString gpuSnapshotQuery() {
    // One round trip for every field; (?i) because old setups publish lower-case names.
    // The second part gives, per GPU and holder, one series of its labels without a
    // value: a GPU whose exporter publishes none of the fields read here is still
    // listed, with its holders, as a direct scrape lists it.
    QStringList labels;
    for (const char *l : kIdentityLabels)
        labels << QLatin1String(l);
    return QStringLiteral(
               "{__name__=~\"(?i)%1\"} or label_replace(group by (%2) ({__name__=~\"(?i)DCGM_FI_.+\"}), "
               "\"%3\", \"1\", \"\", \"\")")
        .arg(dcgmMetricNames().join(u'|'), labels.join(QStringLiteral(", ")), kPresenceLabel);
}

GpuSnapshot gpusFromVector(const PromResult &vector) {
    QList<Sample> samples = vector.samples();
    for (Sample &s : samples) {
        if (!s.name.isEmpty() || !hasLabel(s.labels, kPresenceLabel))
            continue;
        s.name = kPresenceName.toString();
        s.labels.removeIf([](const Label &l) { return l.name == kPresenceLabel; });
    }
    GpuSnapshot snap = gpusFromSamples(samples);
    snap.warnings = vector.notes();
    return snap;
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

bool sameHolders(const QList<GpuHolder> &a, const QList<GpuHolder> &b) {
    if (a.size() != b.size())
        return false;
    for (const GpuHolder &h : a)
        if (!b.contains(h))
            return false;
    return true;
}

void sortByWaste(QList<IdleGpu> &idle) {
    std::stable_sort(idle.begin(), idle.end(),
                     [](const IdleGpu &a, const IdleGpu &b) { return a.gpuHoursWasted > b.gpuHoursWasted; });
}

namespace {

IdleGpu idleSpan(const GpuSample &gpu, const QList<GpuHolder> &holders, qint64 sinceMs, qint64 lastMs,
                 double meanPct, double maxPct, bool openAtStart) {
    IdleGpu g;
    g.gpu = gpu;
    g.holders = holders;
    g.sinceMs = sinceMs;
    g.lastMs = lastMs;
    g.idleMs = lastMs - sinceMs;
    g.gpuHoursWasted = double(g.idleMs) / 3.6e6 * gpuWeight(gpu);
    g.meanUtilPct = meanPct;
    g.maxUtilPct = maxPct;
    g.openAtStart = openAtStart;
    return g;
}

// A physical GPU's row that exists only as the parent of its MIG instances: no reading
// of its own.
bool isMadeUpParent(const GpuSample &g) {
    return !g.isMigInstance() && !g.utilPct && g.holders.isEmpty();
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
        bool ranOut = true;
        for (qsizetype i = tl.readings.size() - 1; i >= 0; --i) {
            const GpuReading &r = tl.readings.at(i);
            if (!r.utilPct || !(*r.utilPct < o.thresholdPct) || !sameHolders(r.holders, last.holders) ||
                later - r.tMs > o.maxGapMs) {
                ranOut = false;
                break;
            }
            since = r.tMs;
            later = r.tMs;
            sum += *r.utilPct;
            maxU = std::max(maxU, *r.utilPct);
            ++n;
        }
        if (since < 0 || last.tMs - since < o.minIdleMs)
            continue;
        out.append(idleSpan(tl.gpu, last.holders, since, last.tMs, sum / n, maxU, ranOut));
    }
    sortByWaste(out);
    return out;
}

IdleTracker::IdleTracker(double thresholdPct, qint64 maxGapMs)
    : m_threshold(thresholdPct)
    , m_maxGapMs(maxGapMs) {}

void IdleTracker::add(const GpuSnapshot &snapshot, qint64 tMs) {
    if (m_firstMs < 0)
        m_firstMs = tMs;
    for (const GpuSample &g : snapshot.gpus) {
        if (isMadeUpParent(g))
            continue;
        const QString key = g.key();
        const bool idleNow = !g.holders.isEmpty() && g.utilPct && *g.utilPct < m_threshold;
        if (!idleNow) {
            m_spans.remove(key);
            continue;
        }
        auto it = m_spans.find(key);
        if (it == m_spans.end() || !sameHolders(it->holders, g.holders) || tMs - it->lastMs > m_maxGapMs ||
            tMs < it->lastMs) {
            Span s;
            s.gpu = g;
            s.holders = g.holders;
            s.sinceMs = tMs;
            it = m_spans.insert(key, s);
        }
        it->lastMs = tMs;
        it->sum += *g.utilPct;
        it->max = it->n == 0 ? *g.utilPct : std::max(it->max, *g.utilPct);
        ++it->n;
    }
    // A GPU that stopped reporting: its span cannot go on.
    for (auto it = m_spans.begin(); it != m_spans.end();)
        it = tMs - it->lastMs > m_maxGapMs ? m_spans.erase(it) : std::next(it);
}

QList<IdleGpu> IdleTracker::idle(const IdleOptions &o) const {
    QList<IdleGpu> out;
    for (const Span &s : m_spans) {
        if (o.nowMs - s.lastMs > m_maxGapMs || s.lastMs - s.sinceMs < o.minIdleMs)
            continue;
        out.append(
            idleSpan(s.gpu, s.holders, s.sinceMs, s.lastMs, s.sum / s.n, s.max, s.sinceMs <= m_firstMs));
    }
    sortByWaste(out);
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
            if (isMadeUpParent(g))
                continue;
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
