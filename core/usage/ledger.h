#pragma once

#include "core/domain/result.h"
#include "core/usage/timewindow.h"

#include <QHash>
#include <QMap>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <span>

namespace gq {

// One pod's hold of `gpus` devices of one resource name from `start` to `end`
// (epoch seconds; `end` empty while the pod still runs). The ledger's unit of truth.
struct UsageInterval {
    QString cluster;
    QString ns; // the pod's namespace
    QString user;
    QString podUid;
    QString podName;
    QString resource = QStringLiteral("nvidia.com/gpu");
    int gpus = 0;
    qint64 start = 0;
    std::optional<qint64> end;
    QString source; // "controller", "import", "demo", ...
    // Where it ran (schema v4): spec.nodeName and the node's nvidia.com/gpu.product
    // label. Empty when unknown (imports, rows from before v4). Stored by upsert only;
    // the readers do not fill them.
    QString node;
    QString gpuModel;
    // Per-row weight instead of the store's ResourceWeights rule (a time-sliced
    // replica weighs 1/replicas of its node). Stored by upsert only.
    std::optional<double> weight;
    // The GPU model's weight (ResourceWeights::modelWeight of gpuModel) instead of the
    // store's: budgets count gpuSeconds() x modelWeight, everything else the raw
    // GPU-hours. Stored by upsert; read back only where budgets need it (running rows).
    std::optional<double> modelWeight;
    // Schema v7: the end was estimated, not seen (the pod vanished while no controller
    // watched it, and the row was closed at the time it was last seen running, or when
    // that was unknown at the time the controller noticed). Stored by upsert and
    // closeInterval; read back by the interval readers.
    bool endEstimated = false;
    // Schema v7: when a controller last saw an open row's pod running (epoch s; the
    // recorders' heartbeat, UsageStore::markIntervalsSeen). Stored by the insert of a
    // new row; read back by the interval readers.
    std::optional<qint64> seen;

    [[nodiscard]] bool isOpen() const { return !end.has_value(); }
    friend bool operator==(const UsageInterval &, const UsageInterval &) = default;
};

// How much of a whole GPU one unit of a resource is. `nvidia.com/gpu` is 1; an
// NVIDIA MIG slice `nvidia.com/mig-<N>g.<mem>` is N/7 of the card (A100/H100 have 7
// compute slices). Anything else counts as 1 unless configured. Overrides take
// precedence over the built-in rule.
//
// GPU model weights (gpuModelWeights, e.g. an H100-hour counts 2) are a second factor
// for budgets only: weighted GPU-hours = GPU-hours (with the resource weight) x model
// weight; a model without one counts 1. Both are stored per interval when it is
// written (usage_intervals.weight and model_weight), so a later change of the
// configuration does not rewrite history and every writer's rows keep their factor.
class ResourceWeights {
public:
    ResourceWeights() = default;
    void set(const QString &resource, double weight) { m_overrides.insert(resource, weight); }
    [[nodiscard]] double weight(const QString &resource) const;
    [[nodiscard]] const QHash<QString, double> &overrides() const { return m_overrides; }

    // The node label nvidia.com/gpu.product, exactly as recorded.
    void setModel(const QString &gpuModel, double weight) { m_models.insert(gpuModel, weight); }
    [[nodiscard]] double modelWeight(const QString &gpuModel) const { return m_models.value(gpuModel, 1.0); }
    [[nodiscard]] const QHash<QString, double> &models() const { return m_models; }

    // "nvidia.com/mig-1g.10gb=0.125,example.com/gpu=1": overrides from a setting or flag.
    [[nodiscard]] static Result<ResourceWeights> parse(const QString &text);
    // "NVIDIA H100 80GB HBM3=2,Tesla T4=0.5" (--gpu-model-weights) added to these
    // weights; the field of an error is `field`[model].
    [[nodiscard]] Result<void> addModels(const QString &text,
                                         const QString &field = QStringLiteral("gpu-model-weights"));

private:
    QHash<QString, double> m_overrides;
    QHash<QString, double> m_models;
};

// Rejects what the ledger cannot account: zero-length and reversed intervals (end <=
// start), non-positive GPU counts, and missing identity fields. The Error names the
// field ("end", "gpus", ...).
[[nodiscard]] Result<void> validateInterval(const UsageInterval &iv);

// Seconds of [start, end-or-now) that fall in `window`. An open interval counts up
// to `now`; an interval starting after `now` contributes nothing while open.
[[nodiscard]] qint64 overlapSeconds(const UsageInterval &iv, const TimeRange &window, qint64 now);

// GPU-seconds (weighted by the resource, not the GPU model) of one interval inside `window`.
[[nodiscard]] double gpuSeconds(const UsageInterval &iv, const TimeRange &window, qint64 now,
                                const ResourceWeights &weights = {});

// Σ overlap(window) × GPUs × weight, in hours.
[[nodiscard]] double gpuHours(std::span<const UsageInterval> intervals, const TimeRange &window, qint64 now,
                              const ResourceWeights &weights = {});

// GPU-hours per calendar period and subject (namespace or user) for [from, to): each
// interval is clipped to [from, to) and split over the periods it crosses. Keys are
// period starts (epoch seconds). The in-memory reference for the database's rollups.
enum class GroupBy { Namespace, User };
[[nodiscard]] Result<GroupBy> parseGroupBy(const QString &text);
[[nodiscard]] QMap<qint64, QMap<QString, double>>
gpuHoursByPeriod(std::span<const UsageInterval> intervals, GroupBy by, qint64 from, qint64 to, Period period,
                 const QTimeZone &tz, qint64 now, const ResourceWeights &weights = {});

// Who a pod's usage is charged to: the value of `userLabel` (default
// gpuquota.io/user) when present and non-empty, otherwise the namespace — a namespace
// per team is the common set-up, so the namespace is the natural fallback.
inline const QString kDefaultUserLabel = QStringLiteral("gpuquota.io/user");
[[nodiscard]] QString podUser(const QHash<QString, QString> &labels, const QString &ns,
                              const QString &userLabel = kDefaultUserLabel);

} // namespace gq
