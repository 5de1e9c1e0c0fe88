#pragma once

// `--by clusterqueue|localqueue` of `gpuquota usage` and `report chargeback`: the usage
// database answers per namespace, and the cluster's LocalQueues (read through
// --kubeconfig/--context) say which queue each namespace's GPU-hours go to
// (core/kueue/queueattribution.h).

#include "app/cli/cliargs.h"
#include "core/kueue/queueattribution.h"
#include "core/domain/result.h"

#include <memory>

namespace gq {
class KubeClient;
}

namespace gq::cli {

// The cluster of --kubeconfig/--context, its clear-text warning (if any) on stderr.
[[nodiscard]] Result<std::shared_ptr<KubeClient>> kueueCluster(const Args &a);

// The cluster's LocalQueues as an attribution; an error (kind kept) when Kueue is not
// installed or cannot be read.
[[nodiscard]] Result<kueue::QueueAttribution> readQueueAttribution(const Args &a);

} // namespace gq::cli
