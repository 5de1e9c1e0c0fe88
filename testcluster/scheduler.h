#pragma once

#include "testcluster/store.h"

#include <QJsonObject>
#include <QString>

// The scheduler's filter step, reduced to what GPU quota work needs: a pod goes to the
// first Node (by name) that is schedulable, matches spec.nodeSelector and has room for
// its requests (cpu, memory, pods, nvidia.com/gpu, MIG and nvidia.com/gpu.shared, any
// extended resource) in status.allocatable, counting the requests of the unfinished pods
// already bound there. When nothing fits the pod stays Pending with the scheduler's own
// FitError message ("0/6 nodes are available: 6 Insufficient nvidia.com/gpu. preemption: ...").
//
// A cluster without any Node (the `empty` scenario, the scale seeding) keeps the old
// behaviour: every pod runs, on a made-up node name, so tests that only care about pods
// need no nodes.

namespace gq::tc {

struct SchedulingDecision {
    QString node;    // where to bind; empty when nothing fits
    QString message; // the FitError message when nothing fits
};

// Called with the store mutex held. `podName` picks the made-up node when there are no Nodes.
SchedulingDecision schedulePodOnNodes(const Store &store, const QJsonObject &pod);

// What a Node gets when it is created without them, as a registering kubelet reports
// them: allocatable = capacity, a Ready condition, addresses and node info.
void defaultNode(QJsonObject &node);

} // namespace gq::tc
