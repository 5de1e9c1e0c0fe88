#include "core/metrics/gpusample.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace gq::metrics {

QString GpuSample::key() const {
    return physicalKey() + u'|' + gpuInstance;
}

QString GpuSample::physicalKey() const {
    const QString id = !uuid.isEmpty() ? uuid : (gpu ? QStringLiteral("#%1").arg(*gpu) : QStringLiteral("?"));
    return hostname + u'|' + id;
}

QStringList DcgmVariants::describe() const {
    QStringList out;
    if (utilAsRatio)
        out << QStringLiteral("utilization reported as a 0-1 ratio");
    if (engineAsPercent)
        out << QStringLiteral("graphics engine activity reported in percent");
    if (memoryInBytes)
        out << QStringLiteral("framebuffer memory reported in bytes");
    if (exportedLabels)
        out << QStringLiteral("pod labels renamed exported_* by Prometheus");
    if (oldLabelNames)
        out << QStringLiteral("old label names (uuid, pod_name, pod_namespace, container_name)");
    if (lowerCaseHostname)
        out << QStringLiteral("lower-case hostname label");
    return out;
}

const QStringList &dcgmMetricNames() {
    static const QStringList names{
        QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), QStringLiteral("DCGM_FI_DEV_FB_USED"),
        QStringLiteral("DCGM_FI_DEV_FB_FREE"),  QStringLiteral("DCGM_FI_DEV_POWER_USAGE"),
        QStringLiteral("DCGM_FI_DEV_GPU_TEMP"), QStringLiteral("DCGM_FI_PROF_GR_ENGINE_ACTIVE"),
    };
    return names;
}

QList<bool> migParentRows(const QList<GpuSample> &rows) {
    QSet<QString> withInstances;
    for (const GpuSample &g : rows)
        if (g.isMigInstance())
            withInstances.insert(g.physicalKey());
    QList<bool> out;
    out.reserve(rows.size());
    for (const GpuSample &g : rows)
        out.append(!g.isMigInstance() && withInstances.contains(g.physicalKey()));
    return out;
}

bool isExporterPod(const QString &pod, const QString &container, const QString &hostnameLabel) {
    // Not running in host-network mode, the exporter reports its own pod name as the
    // hostname; deployed by the Helm chart or the GPU operator its pod and container
    // are named after it.
    if (!hostnameLabel.isEmpty() && pod == hostnameLabel)
        return true;
    static const QRegularExpression exporterName(QStringLiteral("(^|-)dcgm-exporter(-|$)"));
    return exporterName.match(pod).hasMatch() || container == QLatin1String("dcgm-exporter") ||
           container == QLatin1String("nvidia-dcgm-exporter");
}

namespace {

enum class Field { GpuUtil, FbUsed, FbFree, Power, Temp, EngineActive, Other };

Field fieldOf(const QString &name) {
    // Upper-cased once per distinct name: dcgm-exporter's names, any case.
    const QString n = name.toUpper();
    if (!n.startsWith(QLatin1String("DCGM_FI_")))
        return Field::Other;
    static const QHash<QString, Field> fields{
        {QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), Field::GpuUtil},
        {QStringLiteral("DCGM_FI_DEV_FB_USED"), Field::FbUsed},
        {QStringLiteral("DCGM_FI_DEV_FB_FREE"), Field::FbFree},
        {QStringLiteral("DCGM_FI_DEV_POWER_USAGE"), Field::Power},
        {QStringLiteral("DCGM_FI_DEV_GPU_TEMP"), Field::Temp},
        {QStringLiteral("DCGM_FI_PROF_GR_ENGINE_ACTIVE"), Field::EngineActive},
    };
    return fields.value(n, Field::Other);
}

// DCGM's "blank" values (not supported, not found, ...) start at 2^63 - 16.
bool isBlank(double v) {
    return std::isnan(v) || v >= 9.2233720368547758e18 || std::isinf(v);
}

QString firstOf(const Labels &labels, std::initializer_list<QStringView> names, bool *usedSecond = nullptr) {
    int i = 0;
    for (QStringView n : names) {
        const QString v = labelValue(labels, n);
        if (!v.isNull()) {
            if (usedSecond)
                *usedSecond = i > 0;
            return v;
        }
        ++i;
    }
    return {};
}

struct Row {
    GpuSample s;
    // Raw readings before units are settled.
    std::optional<double> util, engine, fbUsed, fbFree;
};

void keepFirst(std::optional<double> &slot, double v) {
    if (!slot && !isBlank(v))
        slot = v;
}

bool helpSays(const QHash<QString, QString> &help, QStringView family, QStringView word) {
    for (auto it = help.constBegin(); it != help.constEnd(); ++it)
        if (it.key().compare(family, Qt::CaseInsensitive) == 0)
            return it.value().contains(word, Qt::CaseInsensitive);
    return false;
}

} // namespace

UnitHints detectUnitHints(const QList<Sample> &samples) {
    // DCGM_FI_DEV_GPU_UTIL is an integer percent: a ratio has fractions and stays <= 1.
    // GR_ENGINE_ACTIVE is a ratio: a percent goes above 1.
    bool utilFraction = false, utilAboveOne = false, engineAboveOne = false, anyUtil = false,
         anyEngine = false;
    QHash<QString, Field> cache;
    for (const Sample &s : samples) {
        if (isBlank(s.value))
            continue;
        auto it = cache.constFind(s.name);
        if (it == cache.constEnd())
            it = cache.insert(s.name, fieldOf(s.name));
        const Field f = *it;
        if (f == Field::GpuUtil) {
            anyUtil = true;
            utilFraction = utilFraction || std::floor(s.value) != s.value;
            utilAboveOne = utilAboveOne || s.value > 1.0;
        } else if (f == Field::EngineActive) {
            anyEngine = true;
            engineAboveOne = engineAboveOne || s.value > 1.0;
        }
    }
    UnitHints h;
    if (anyUtil)
        h.utilAsRatio = utilFraction && !utilAboveOne;
    if (anyEngine)
        h.engineAsPercent = engineAboveOne;
    return h;
}

namespace {

// honor_labels: false renames the exporter's pod labels exported_*; the plain ones
// then name the exporter pod (the scrape target).
bool hasExportedLabels(const Labels &l) {
    return hasLabel(l, u"exported_pod") || hasLabel(l, u"exported_namespace");
}

QString scrapeTargetOf(const Labels &l) {
    return labelValue(l, u"job") + QChar(0x1f) + labelValue(l, u"instance");
}

// The GPU (or MIG instance) a series is about, with the label variants it shows in
// `var`; nothing for a series that is not per GPU (exporter self-metrics, say).
std::optional<GpuSample> gpuOfSeries(const Labels &l, DcgmVariants &var, QString &hostnameLabel) {
    bool lower = false, old = false;
    hostnameLabel = firstOf(l, {u"Hostname", u"hostname"}, &lower);
    var.lowerCaseHostname = var.lowerCaseHostname || (lower && !hostnameLabel.isNull());
    QString uuid = firstOf(l, {u"UUID", u"uuid"}, &old);
    var.oldLabelNames = var.oldLabelNames || (old && !uuid.isNull());
    const QString gpuText = labelValue(l, u"gpu");
    if (uuid.isEmpty() && gpuText.isEmpty())
        return std::nullopt;

    GpuSample g;
    g.hostname = hostnameLabel;
    if (g.hostname.isEmpty())
        g.hostname = firstOf(l, {u"kubernetes_node", u"node", u"instance"});
    bool ok = false;
    const int idx = gpuText.toInt(&ok);
    if (ok)
        g.gpu = idx;
    g.uuid = uuid.isEmpty() ? QString() : uuid;
    g.model = labelValue(l, u"modelName");
    const QString giId = labelValue(l, u"GPU_I_ID");
    if (!giId.isEmpty()) {
        g.gpuInstance = giId;
        g.migProfile = labelValue(l, u"GPU_I_PROFILE");
    }
    return g;
}

// Who holds the GPU a series is about. Decided per series, since one answer may mix
// jobs scraped either way: a series with exported_* labels takes its holder from them;
// one without, from pod/namespace, unless other series of its target (job and
// instance) carry exported_* labels, in which case its plain labels are the target's
// own (a free GPU of that job).
GpuHolder holderOfSeries(const Labels &l, const QSet<QString> &renamedTargets, const QString &hostnameLabel,
                         DcgmVariants &var) {
    GpuHolder h;
    if (hasExportedLabels(l)) {
        var.exportedLabels = true;
        h = GpuHolder{labelValue(l, u"exported_namespace"), labelValue(l, u"exported_pod"),
                      labelValue(l, u"exported_container"), labelValue(l, u"exported_pod_uid")};
        if (h.uid.isNull())
            h.uid = labelValue(l, u"pod_uid");
    } else if (!renamedTargets.isEmpty() && renamedTargets.contains(scrapeTargetOf(l))) {
        // The target's own pod labels: no holder.
    } else {
        bool oldPod = false;
        h.pod = firstOf(l, {u"pod", u"pod_name"}, &oldPod);
        h.ns = firstOf(l, {u"namespace", u"pod_namespace"});
        h.container = firstOf(l, {u"container", u"container_name"});
        h.uid = labelValue(l, u"pod_uid");
        var.oldLabelNames = var.oldLabelNames || (oldPod && !h.pod.isNull());
        if (!h.pod.isEmpty() && isExporterPod(h.pod, h.container, hostnameLabel))
            h.pod.clear();
    }
    // DRA (dcgm-exporter 4.x with a DRA driver): the claim the GPU is held through.
    if (const QString claimName = labelValue(l, u"dra_claim_name"); !claimName.isEmpty()) {
        const QString claimNs = labelValue(l, u"dra_claim_namespace");
        h.claim = claimNs + u'/' + claimName;
        if (h.pod.isEmpty()) {
            h.ns = claimNs;
            h.pod = QString(); // the claim's pods are resolved later
            h.container = QString();
        }
    }
    return h;
}

void keepReading(Row &r, Field f, double value) {
    switch (f) {
    case Field::GpuUtil: keepFirst(r.util, value); break;
    case Field::EngineActive: keepFirst(r.engine, value); break;
    case Field::FbUsed: keepFirst(r.fbUsed, value); break;
    case Field::FbFree: keepFirst(r.fbFree, value); break;
    case Field::Power: keepFirst(r.s.powerW, value); break;
    case Field::Temp: keepFirst(r.s.tempC, value); break;
    case Field::Other: break;
    }
}

// Units, from HELP texts where present, else from the values themselves (see
// detectUnitHints); no GPU has 4 TiB of memory, so a framebuffer figure above 4 Mi
// can only be bytes.
void settleUnits(QList<Row> &rows, const QList<Sample> &samples, const QHash<QString, QString> &help,
                 const UnitHints &hints, DcgmVariants &var) {
    constexpr double kMaxMib = 4.0 * 1024 * 1024;
    double fbMax = 0;
    for (const Row &r : rows)
        fbMax = std::max({fbMax, r.fbUsed.value_or(0), r.fbFree.value_or(0)});
    const UnitHints detected = detectUnitHints(samples);
    if (hints.utilAsRatio)
        var.utilAsRatio = *hints.utilAsRatio;
    else if (helpSays(help, u"DCGM_FI_DEV_GPU_UTIL", u"ratio"))
        var.utilAsRatio = true;
    else if (!helpSays(help, u"DCGM_FI_DEV_GPU_UTIL", u"%"))
        var.utilAsRatio = detected.utilAsRatio.value_or(false);
    if (hints.engineAsPercent)
        var.engineAsPercent = *hints.engineAsPercent;
    else
        var.engineAsPercent = helpSays(help, u"DCGM_FI_PROF_GR_ENGINE_ACTIVE", u"%") ||
                              detected.engineAsPercent.value_or(false);
    bool helpMib =
        helpSays(help, u"DCGM_FI_DEV_FB_USED", u"MiB") || helpSays(help, u"DCGM_FI_DEV_FB_FREE", u"MiB");
    bool helpBytes =
        helpSays(help, u"DCGM_FI_DEV_FB_USED", u"bytes") || helpSays(help, u"DCGM_FI_DEV_FB_FREE", u"bytes");
    const bool datasetBytes = helpBytes || (!helpMib && fbMax > kMaxMib);

    for (Row &r : rows) {
        GpuSample &g = r.s;
        if (r.util)
            g.utilPct = var.utilAsRatio ? *r.util * 100.0 : *r.util;
        // MIG instances have no GPU_UTIL; the graphics engine's activity stands in.
        if ((g.isMigInstance() || !g.utilPct) && r.engine)
            g.utilPct = var.engineAsPercent ? *r.engine : *r.engine * 100.0;
        bool bytes = datasetBytes;
        if (!helpMib && !helpBytes && r.fbUsed && r.fbFree)
            bytes = *r.fbUsed + *r.fbFree > kMaxMib;
        var.memoryInBytes = var.memoryInBytes || (bytes && (r.fbUsed || r.fbFree));
        const double scale = bytes ? 1.0 / (1024.0 * 1024.0) : 1.0;
        if (r.fbUsed)
            g.fbUsedMib = *r.fbUsed * scale;
        if (r.fbFree)
            g.fbFreeMib = *r.fbFree * scale;
        g.shared = g.holders.size() > 1;
    }
}

// Each MIG instance sits under a row for its physical GPU, made up when the source
// reported nothing for the GPU as a whole.
void addMissingMigParents(QList<Row> &rows) {
    QHash<QString, int> physical;
    for (int i = 0; i < rows.size(); ++i)
        if (!rows.at(i).s.isMigInstance())
            physical.insert(rows.at(i).s.physicalKey(), i);
    const qsizetype n = rows.size();
    for (qsizetype i = 0; i < n; ++i) {
        const GpuSample &m = rows.at(i).s;
        if (!m.isMigInstance() || physical.contains(m.physicalKey()))
            continue;
        GpuSample p;
        p.hostname = m.hostname;
        p.gpu = m.gpu;
        p.uuid = m.uuid;
        p.model = m.model;
        physical.insert(p.physicalKey(), int(rows.size()));
        rows.append(Row{p, {}, {}, {}, {}});
    }
}

// By node, GPU index and UUID; a physical GPU before its MIG instances, in instance order.
bool gpuDisplayOrder(const GpuSample &a, const GpuSample &b) {
    if (a.hostname != b.hostname)
        return a.hostname < b.hostname;
    const int ai = a.gpu.value_or(-1), bi = b.gpu.value_or(-1);
    if (ai != bi)
        return ai < bi;
    if (a.uuid != b.uuid)
        return a.uuid < b.uuid;
    if (a.isMigInstance() != b.isMigInstance())
        return !a.isMigInstance(); // the physical GPU first
    bool aok = false, bok = false;
    const int an = a.gpuInstance.toInt(&aok), bn = b.gpuInstance.toInt(&bok);
    if (aok && bok && an != bn)
        return an < bn;
    return a.gpuInstance < b.gpuInstance;
}

} // namespace

GpuSnapshot gpusFromSamples(const QList<Sample> &samples, const QHash<QString, QString> &help,
                            const UnitHints &hints) {
    GpuSnapshot snap;
    DcgmVariants &var = snap.variants;

    QHash<QString, Field> fieldCache;
    auto field = [&](const QString &name) {
        auto it = fieldCache.constFind(name);
        if (it == fieldCache.constEnd())
            it = fieldCache.insert(name, fieldOf(name));
        return *it;
    };
    auto isGpuSeries = [&](const Sample &s) {
        return field(s.name) != Field::Other ||
               s.name.startsWith(QLatin1String("DCGM_FI_"), Qt::CaseInsensitive);
    };
    QSet<QString> renamedTargets;
    for (const Sample &s : samples)
        if (isGpuSeries(s) && hasExportedLabels(s.labels))
            renamedTargets.insert(scrapeTargetOf(s.labels));

    QHash<QString, int> index; // key -> rows
    QList<Row> rows;
    for (const Sample &s : samples) {
        if (!isGpuSeries(s))
            continue;
        const Field f = field(s.name);
        const Labels &l = s.labels;
        QString hostnameLabel;
        const std::optional<GpuSample> g = gpuOfSeries(l, var, hostnameLabel);
        if (!g)
            continue;

        const QString k = g->key();
        auto it = index.constFind(k);
        if (it == index.constEnd()) {
            it = index.insert(k, int(rows.size()));
            rows.append(Row{*g, {}, {}, {}, {}});
        }
        Row &r = rows[*it];
        if (r.s.model.isEmpty())
            r.s.model = g->model;
        if (!r.s.gpu)
            r.s.gpu = g->gpu;

        GpuHolder h = holderOfSeries(l, renamedTargets, hostnameLabel, var);
        if (!h.pod.isEmpty() || !h.claim.isEmpty()) {
            if (h.container.isEmpty())
                h.container = QString();
            if (!r.s.holders.contains(h))
                r.s.holders.append(h);
        }
        keepReading(r, f, s.value);
    }

    settleUnits(rows, samples, help, hints, var);
    addMissingMigParents(rows);
    snap.gpus.reserve(rows.size());
    for (Row &r : rows)
        snap.gpus.append(std::move(r.s));
    // A lambda, not the function's address: std::sort inlines the comparison.
    std::sort(snap.gpus.begin(), snap.gpus.end(),
              [](const GpuSample &a, const GpuSample &b) { return gpuDisplayOrder(a, b); });
    return snap;
}

void resolveClaimHolders(QList<GpuSample> &gpus, const QHash<QString, QStringList> &podsByClaim) {
    for (GpuSample &g : gpus) {
        QList<GpuHolder> out;
        for (const GpuHolder &h : std::as_const(g.holders)) {
            const auto pods = podsByClaim.constFind(h.claim);
            if (!h.pod.isEmpty() || h.claim.isEmpty() || pods == podsByClaim.constEnd() || pods->isEmpty()) {
                if (!out.contains(h))
                    out << h;
                continue;
            }
            for (const QString &pod : *pods) {
                GpuHolder named = h;
                named.pod = pod;
                if (!out.contains(named))
                    out << named;
            }
        }
        g.holders = out;
        g.shared = g.shared || g.holders.size() > 1;
    }
}

QStringList claimsWithoutPods(const QList<GpuSample> &gpus) {
    QStringList out;
    for (const GpuSample &g : gpus)
        for (const GpuHolder &h : g.holders)
            if (h.pod.isEmpty() && !h.claim.isEmpty())
                out << h.claim;
    out.sort();
    out.removeDuplicates();
    return out;
}

} // namespace gq::metrics
