#pragma once

// Reads Kueue's objects through the API server: the version from discovery, then one
// list of each kind. Blocking: call it from the CLI or a worker thread, never from the
// GUI thread (services wrap it in a future).

#include "core/kueue/kueueoverview.h"

#include <memory>

namespace gq {
class KubeClient;
struct KubeResource;
} // namespace gq

namespace gq::kueue {

// The kueue.x-k8s.io version to read, from GET /apis/kueue.x-k8s.io: the newest one this
// code supports among those served. NotFound when Kueue is not installed; Invalid when
// it serves only versions this code does not read (the message names them).
Result<QString> detectVersion(KubeClient &client);

// "clusterqueues", "cohorts", "localqueues", "resourceflavors", "workloads" at `version`.
KubeResource resource(const QString &plural, const QString &version);

// Everything the Queues page shows; `ns` limits LocalQueues and Workloads to one
// namespace (empty: all). Cohorts and ResourceFlavors that cannot be listed (a Kueue
// without the Cohort API, or no RBAC for them) are left empty, not an error.
Result<Snapshot> readSnapshot(KubeClient &client, const QString &ns = {});

// Every namespace's LocalQueues (one list): what grouping usage by queue needs.
Result<std::vector<LocalQueue>> readLocalQueues(KubeClient &client);

} // namespace gq::kueue
