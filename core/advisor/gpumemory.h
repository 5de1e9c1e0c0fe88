#pragma once

#include "core/domain/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace gq::advisor {

// The memory of one GPU (or MIG slice) by the name the GPU operator puts in the node
// label nvidia.com/gpu.product ("NVIDIA-A100-SXM4-80GB", "Tesla-T4", "NVIDIA-L4"), or a
// MIG profile ("1g.10gb", "3g.40gb", "nvidia.com/mig-3g.40gb"). The sizes are what
// nvidia-smi reports (MiB): A100 40GB 40960, A100 80GB 81920, H100 80GB 81559, L40S
// 46068, L4 23034, A10 23028, T4 15360, RTX 4090 24564; a MIG profile by its size in GiB.
// Otherwise a "<N>GB" in the name counts as N GiB. nullopt when unknown.
[[nodiscard]] std::optional<qint64> gpuMemoryForProduct(const QString &product);

// What the cluster's GPU nodes offer: the model with the most whole GPUs (ties: the one
// with less memory), its memory from the label nvidia.com/gpu.memory (MiB) when set, or
// from gpuMemoryForProduct().
struct ClusterGpu {
    QString product;
    qint64 memoryBytes = 0;
    qint64 gpus = 0; // whole GPUs of this model in the cluster (capacity nvidia.com/gpu)
    QString source;  // "label nvidia.com/gpu.memory" or "product table"
};
// From Node objects as the API server returns them. NotFound when no node has a GPU
// whose memory is known.
[[nodiscard]] Result<ClusterGpu> clusterGpu(const QList<QJsonObject> &nodes);

// The GPUs a namespace may still take from its ResourceQuotas: the least of hard − used
// (never below 0) over every quota entry of the GPU resource (requests.R, R, limits.R).
// R is nvidia.com/gpu when a quota names it, else the first MIG resource a quota names
// (nvidia.com/mig-3g.40gb: the namespace runs on slices of that size). nullopt when no
// quota limits GPUs.
struct QuotaGpus {
    qint64 free = 0;
    QString resource; // "nvidia.com/gpu", "nvidia.com/mig-3g.40gb"
};
[[nodiscard]] std::optional<QuotaGpus> freeQuotaGpus(const QList<QJsonObject> &quotas);

// The GPUs a Kueue ClusterQueue (kueue.x-k8s.io/v1beta1) still has of its nominal quota:
// the sum of spec.resourceGroups[].flavors[].resources[nvidia.com/gpu].nominalQuota less
// the sum of status.flavorsUsage[].resources[nvidia.com/gpu].total (never below 0).
// Borrowing from the cohort is not counted. nullopt when the queue has no GPU quota.
[[nodiscard]] std::optional<qint64> freeKueueGpus(const QJsonObject &clusterQueue);

} // namespace gq::advisor
