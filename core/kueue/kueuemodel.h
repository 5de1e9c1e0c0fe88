#pragma once

// Kueue's objects as the console, the CLI and the controller read them: ClusterQueue,
// Cohort, LocalQueue, ResourceFlavor and Workload of kueue.x-k8s.io, at v1beta1 (Kueue
// 0.9 to 0.19) and v1beta2 (Kueue 0.15 and later; the only one from 0.20). The two differ
// where this reads: v1beta2 names a ClusterQueue's cohort `cohortName` and a Cohort's
// parent `parentName`, v1beta1 `cohort` and `parent`; both spellings are read.
//
// Pure JSON in, values out (Qt Core only); the GPU numbers are whole devices.

#include "core/domain/quantity.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <vector>

namespace gq::kueue {

inline constexpr char16_t kGroup[] = u"kueue.x-k8s.io";

// The API versions this code reads, preferred first.
QStringList supportedVersions();
// The version to use from the versions the API server serves for kueue.x-k8s.io (its
// discovery document), the newest supported one; nullopt when Kueue is not installed or
// serves none of them.
std::optional<QString> pickVersion(const QStringList &served);

// nvidia.com/gpu, nvidia.com/mig-*, amd.com/gpu, gpu.intel.com/*: the resources counted as GPUs.
bool isGpuResource(const QString &name);

struct ResourceLimits {
    QString name; // "nvidia.com/gpu"
    Quantity nominal;
    std::optional<Quantity> borrowingLimit;
    std::optional<Quantity> lendingLimit;
};

struct FlavorQuotas {
    QString flavor;
    std::vector<ResourceLimits> resources;
    [[nodiscard]] const ResourceLimits *find(const QString &resource) const;
};

struct ResourceGroup {
    QStringList coveredResources;
    std::vector<FlavorQuotas> flavors;
};

// One flavor's line of status.flavorsReservation / flavorsUsage: resource -> amounts.
struct FlavorAmounts {
    QString flavor;
    std::map<QString, Quantity> total;
    std::map<QString, Quantity> borrowed;
};

struct ClusterQueue {
    QString name;
    QString cohort;
    QString resourceVersion;
    std::vector<ResourceGroup> resourceGroups;
    std::vector<FlavorAmounts> reservation; // status.flavorsReservation: quota reserved now
    std::vector<FlavorAmounts> usage;       // status.flavorsUsage: admitted workloads
    int pendingWorkloads = 0;
    int reservingWorkloads = 0;
    int admittedWorkloads = 0;
    bool stopped = false; // spec.stopPolicy other than None

    // The flavors in resource-group order.
    [[nodiscard]] QStringList flavorNames() const;
    [[nodiscard]] const FlavorQuotas *flavor(const QString &name) const;
};

struct Cohort {
    QString name;
    QString parent;
    std::vector<ResourceGroup> resourceGroups;
    bool implicit = false; // named by a ClusterQueue but no Cohort object exists
};

struct LocalQueue {
    QString ns;
    QString name;
    QString clusterQueue;
    int pendingWorkloads = 0;
    int admittedWorkloads = 0;
};

struct ResourceFlavor {
    QString name;
    std::map<QString, QString> nodeLabels;
};

struct Workload {
    QString ns;
    QString name;
    QString queueName;    // the LocalQueue
    QString clusterQueue; // status.admission.clusterQueue when quota is reserved
    int priority = 0;
    qint64 createdMs = 0;
    qint64 reservedMs = 0; // when the QuotaReserved condition became True
    bool quotaReserved = false;
    bool admitted = false;
    bool finished = false;
    QString reason;                        // QuotaReserved (or Admitted) condition's message: why it waits
    qint64 gpus = 0;                       // requested GPUs across pod sets (count x per-pod requests)
    std::map<QString, QString> gpuFlavors; // resource -> flavor assigned at admission
    qint64 maximumExecutionTimeSeconds = 0;

    [[nodiscard]] bool pending() const { return !quotaReserved && !finished; }
};

Result<ClusterQueue> parseClusterQueue(const QJsonObject &object);
Result<Cohort> parseCohort(const QJsonObject &object);
LocalQueue parseLocalQueue(const QJsonObject &object);
ResourceFlavor parseResourceFlavor(const QJsonObject &object);
Workload parseWorkload(const QJsonObject &object);

// Kueue's own validation of a ClusterQueue (or Cohort, `cohortObject` true) spec, as its
// webhook applies it: each flavor lists exactly the group's coveredResources in order; a
// resource or flavor in one group only; quantities not negative; borrowingLimit and
// lendingLimit only where there is a cohort (a parent, for a Cohort); lendingLimit not
// above nominalQuota. Each problem names its field ("spec.resourceGroups[0].flavors[1]
// .resources[0].borrowingLimit"). Empty when the object is valid.
struct Problem {
    QString field;
    QString message;
};
QList<Problem> validateQueueSpec(const QJsonObject &object, bool cohortObject = false);

} // namespace gq::kueue
