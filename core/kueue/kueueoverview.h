#pragma once

// What the Queues page and `gpuquota queues` / `workloads` show, computed from one read
// of Kueue's objects: per ClusterQueue and flavor the GPU nominal quota, limits, what is
// reserved and used, borrowed and lent; the cohort tree; the pending Workloads in the
// order Kueue considers them.

#include "core/kueue/kueuemodel.h"

namespace gq::kueue {

struct Snapshot {
    QString apiVersion; // the kueue.x-k8s.io version read ("v1beta2")
    std::vector<ClusterQueue> clusterQueues;
    std::vector<Cohort> cohorts; // Cohort objects; see cohortTree() for the implicit ones
    std::vector<LocalQueue> localQueues;
    std::vector<ResourceFlavor> flavors;
    std::vector<Workload> workloads;

    [[nodiscard]] const ClusterQueue *clusterQueue(const QString &name) const;
    // The ClusterQueue a Workload's LocalQueue points at ("" when none).
    [[nodiscard]] QString clusterQueueOf(const Workload &w) const;
};

// One ClusterQueue flavor's GPU line (one GPU resource; whole devices).
struct GpuRow {
    QString clusterQueue;
    QString cohort;
    QString flavor;
    QString resource; // "nvidia.com/gpu"
    qint64 nominal = 0;
    std::optional<qint64> borrowingLimit;
    std::optional<qint64> lendingLimit;
    qint64 reserved = 0; // flavorsReservation total
    qint64 used = 0;     // flavorsUsage total (admitted)
    qint64 borrowed = 0; // flavorsReservation borrowed
    qint64 lent = 0;     // estimate: this queue's idle lendable GPUs others in the cohort borrow
    int pending = 0;     // pending Workloads of the ClusterQueue (Kueue does not know their flavor yet)
};

// The GPU rows of every ClusterQueue, in ClusterQueue then resource-group order. A
// flavor without a GPU resource gives no row.
std::vector<GpuRow> gpuRows(const Snapshot &s);

// Cohorts with their parent, children and ClusterQueues; the roots first, then by name.
// Cohorts named only by a ClusterQueue (no Cohort object) are included, implicit.
struct CohortNode {
    Cohort cohort;
    QStringList children;      // child cohorts
    QStringList clusterQueues; // ClusterQueues whose cohort this is
};
std::vector<CohortNode> cohortTree(const Snapshot &s);

// Pending Workloads (no quota reserved, not finished) in the order Kueue tries them
// within a ClusterQueue: higher priority first, then older first. `ns` empty: all.
std::vector<Workload> pendingInOrder(const Snapshot &s, const QString &ns = {});
// Workloads holding quota (reserved, not finished), oldest reservation first.
std::vector<Workload> holdingQuota(const Snapshot &s, const QString &ns = {});

} // namespace gq::kueue
