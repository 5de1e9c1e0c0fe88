#pragma once

// The fit advisor's decision as the CLI (`gpuquota advise`), the console's "Plan a
// fine-tune…" dialog and the self-service page make it: what the cluster says (the
// namespace's free quota GPUs, the GPU nodes' memory), the budget's decision on the
// GPU-hours, and the estimate (core/advisor), in the one JSON document all three show.

#include "core/usage/budget.h"
#include "core/advisor/fitadvice.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace gq {

class KubeClient;

// What the cluster says about a namespace.
struct FitClusterFacts {
    QString ns;
    std::optional<qint64> freeGpus; // ResourceQuota GPU hard − used, else the free nominal
                                    // quota of the Kueue ClusterQueue the namespace's
                                    // LocalQueue points to; nullopt: neither limits GPUs
    QString gpusSource;             // "ResourceQuota", "Kueue ClusterQueue NAME", or empty
    QString product;                // nvidia.com/gpu.product of the GPU model chosen
    qint64 memoryBytes = 0;         // 0: the nodes could not be read or have no known GPU
    QString memorySource;           // "label nvidia.com/gpu.memory" / "product table"
    QString memoryError;            // why memoryBytes is 0
};

// Lists the namespace's ResourceQuotas (without a GPU quota: its Kueue LocalQueues and their
// ClusterQueue, when Kueue is installed) and the cluster's Nodes (advisor::clusterGpu).
// Blocking: it waits for the requests, so call it off the GUI thread. An Error when the
// quotas cannot be read; a failed node list only sets memoryError (the GPU memory may
// come from elsewhere).
[[nodiscard]] Result<FitClusterFacts> readFitClusterFacts(KubeClient &client, const QString &ns);

// The budget part: the decision of core/usage on the recommendation's GPU-hours.
struct FitBudget {
    bool hasBudget = false;
    double remaining = 0;
    double needed = 0;
    bool allowed = true;
    QString decision; // "Allowed: 4.00 GPU-h ≤ 4.50 available" / "Denied: need …, only … left …"
};
[[nodiscard]] FitBudget fitBudget(const Decision &d, double neededGpuHours);

// The document of `gpuquota advise -o json` (keys in README "gpuquota advise").
[[nodiscard]] QJsonObject adviceJson(const advisor::AdviceRequest &request, const advisor::Advice &advice,
                                     const std::optional<FitClusterFacts> &cluster,
                                     const std::optional<FitBudget> &budget);

} // namespace gq
