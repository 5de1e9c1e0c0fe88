#pragma once

#include "core/metrics/exposition.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq::metrics {

// A pod (container) holding a GPU or a MIG instance.
struct GpuHolder {
    QString ns;
    QString pod;
    QString container; // null when the source names no container
    QString uid;       // pod_uid where the exporter gives it: tells a restarted pod from its predecessor
    // DRA: the ResourceClaim ("ns/name") through which the pod holds the GPU, from
    // dcgm-exporter's dra_claim_namespace / dra_claim_name (null otherwise). A series with
    // claim labels but no pod label is a holder with an empty pod until
    // resolveClaimHolders() names the claim's pods.
    QString claim{}; // `{}`: aggregate initialisers that stop before it stay warning-free
    friend bool operator==(const GpuHolder &, const GpuHolder &) = default;
};

// One GPU's, or one MIG instance's, live reading (the design's GpuSample). Every value
// the source does not report is empty (std::nullopt / a null QString), never 0.
struct GpuSample {
    QString hostname;       // node (or exporter pod) name, else the scrape instance
    std::optional<int> gpu; // the index on its node; indexes repeat across nodes
    QString uuid;
    QString model;
    QString migProfile;            // "3g.40gb"; null for a whole GPU
    QString gpuInstance;           // GPU_I_ID; null for a whole GPU
    std::optional<double> utilPct; // 0..100
    std::optional<double> fbUsedMib;
    std::optional<double> fbFreeMib;
    std::optional<double> powerW;
    std::optional<double> tempC;
    bool shared = false;      // several holders (time-slicing, MPS, DRA, vGPU)
    QList<GpuHolder> holders; // empty: free

    [[nodiscard]] bool isMigInstance() const { return !gpuInstance.isNull(); }
    // Identity across refreshes: hostname, UUID (or index), MIG instance.
    [[nodiscard]] QString key() const;
    // The key of the physical GPU this row belongs to (its own key for a whole GPU).
    [[nodiscard]] QString physicalKey() const;
};

// Replaces each holder known only by its DRA claim (empty pod) with the pods the claim
// is reserved for (podsByClaim: "ns/claim" -> pod names, from status.reservedFor); a
// claim not found stays as it is. Marks a GPU shared when it then has several holders.
void resolveClaimHolders(QList<GpuSample> &gpus, const QHash<QString, QStringList> &podsByClaim);
// The claims ("ns/claim", sorted, once each) of the holders known only by their claim:
// what resolveClaimHolders() needs to know. Empty for most snapshots.
[[nodiscard]] QStringList claimsWithoutPods(const QList<GpuSample> &gpus);

// What the mapping found out about the source, for a "how was this read" line.
struct DcgmVariants {
    bool utilAsRatio = false;       // DCGM_FI_DEV_GPU_UTIL arrived as 0..1
    bool engineAsPercent = false;   // DCGM_FI_PROF_GR_ENGINE_ACTIVE arrived as 0..100
    bool memoryInBytes = false;     // framebuffer values in bytes on at least one GPU
    bool exportedLabels = false;    // Prometheus renamed the pod labels exported_*
    bool oldLabelNames = false;     // uuid / pod_name / pod_namespace / container_name
    bool lowerCaseHostname = false; // hostname instead of Hostname
    [[nodiscard]] QStringList describe() const;
};

struct GpuSnapshot {
    QList<GpuSample> gpus; // sorted: hostname, index, then each GPU's MIG instances
    DcgmVariants variants;
    QStringList warnings; // from the source (Prometheus warnings, malformed lines)
    qint64 takenAtMs = 0;
};

// The metric names the mapping reads (upper-case, as dcgm-exporter writes them).
[[nodiscard]] const QStringList &dcgmMetricNames();

// Units settled once for a whole time range (so one instant of all-integer ratios does
// not flip the reading); unset fields are detected from the samples at hand.
struct UnitHints {
    std::optional<bool> utilAsRatio;
    std::optional<bool> engineAsPercent;
};
[[nodiscard]] UnitHints detectUnitHints(const QList<Sample> &samples);

// Turns dcgm-exporter series (from a scrape or a Prometheus vector) into one row per
// GPU and per MIG instance. Every variant is detected from the data: percent vs ratio,
// MiB vs bytes, Hostname/hostname, UUID/uuid, old and exported_* pod labels, metric
// names in any case, empty pod labels, DCGM's "blank" sentinels. MIG instances get
// DCGM_FI_PROF_GR_ENGINE_ACTIVE x 100 as utilization and sit under a row for their
// physical GPU; a GPU with several series for several holders is one row marked
// shared. `help` (HELP texts by family) settles units when present.
[[nodiscard]] GpuSnapshot gpusFromSamples(const QList<Sample> &samples,
                                          const QHash<QString, QString> &help = {},
                                          const UnitHints &hints = {});

// Per row: a physical GPU listed only as the parent of its MIG instances (they count,
// it does not).
[[nodiscard]] QList<bool> migParentRows(const QList<GpuSample> &rows);

// The exporter's own pod, which a Prometheus scrape with honor_labels false (or an old
// exporter) puts into the pod labels: it never counts as a holder.
[[nodiscard]] bool isExporterPod(const QString &pod, const QString &container, const QString &hostnameLabel);

} // namespace gq::metrics
