#pragma once

// Dynamic Resource Allocation (resource.k8s.io/v1): what a ResourceClaim's allocation
// and the ResourceSlices say about the GPUs a pod holds. Pure functions over the JSON
// the API server serves (informers keep the objects whole).

#include "core/kube/dragpuclasses.h"
#include "core/kube/informer.h"
#include "core/kube/kuberequest.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace gq::dra {

// resource.k8s.io/v1 (GA since Kubernetes 1.34).
[[nodiscard]] const KubeResource &resourceClaims();
[[nodiscard]] const KubeResource &resourceClaimTemplates();
[[nodiscard]] const KubeResource &resourceSlices();
[[nodiscard]] const KubeResource &deviceClasses();

// "<class>.deviceclass.resource.k8s.io/devices": the ResourceQuota key counting the
// devices a namespace's claims request from a class.
[[nodiscard]] QString quotaKey(const QString &deviceClass);
// The device class a quota key names ("" for any other key).
[[nodiscard]] QString deviceClassOfQuotaKey(const QString &key);

// A quota key counting GPUs by DRA (any of the forms GpuClasses knows) whose class is a
// GPU class: by the given decision, or the process's current one (currentGpuClasses()).
[[nodiscard]] bool isGpuQuotaKey(const QString &key, const GpuClasses &gpuClasses);
[[nodiscard]] bool isGpuQuotaKey(const QString &key);

// What a device's ResourceSlice entry says. The GPU model is the attribute productName
// (NVIDIA's and the example drivers' name; qualified "<driver>/productName" too). The
// fraction of a whole GPU the device is: the attribute gpuquota.io/gpu-fraction ("1/7",
// "0.5") when the driver publishes one, else for a MIG device (attribute profile
// "<N>g.<memory>") N/7, else 1. capacity: the device's spec capacity values (by name, as
// numbers), for a device shared by capacity (allowMultipleAllocations).
struct DeviceFacts {
    QString gpuModel;
    double fraction = 1.0;
    QHash<QString, double> capacity;
    friend bool operator==(const DeviceFacts &, const DeviceFacts &) = default;
};
[[nodiscard]] DeviceFacts deviceFactsFromJson(const QJsonObject &device, const QString &driver);
[[nodiscard]] QString deviceKey(const QString &driver, const QString &pool, const QString &device);
// Every device of the slices, by deviceKey().
[[nodiscard]] QHash<QString, DeviceFacts> indexSlices(const QList<StoredObject> &slices);

// One entry of status.allocation.devices.results, with the device class its request
// asked for (spec.devices.requests[].exactly.deviceClassName, or the chosen
// firstAvailable subrequest's).
struct AllocatedDevice {
    QString request;
    QString driver;
    QString pool;
    QString device;
    QString deviceClass;
    // status.allocation.devices.results[].consumedCapacity (v1, DRAConsumableCapacity):
    // the part of a device shared by capacity this claim holds, by capacity name.
    QHash<QString, double> consumedCapacity;
    friend bool operator==(const AllocatedDevice &, const AllocatedDevice &) = default;
};
[[nodiscard]] QList<AllocatedDevice> allocatedDevices(const QJsonObject &claim);
// status.reservedFor: the pods (by name) the claim is reserved for.
[[nodiscard]] QStringList reservedPods(const QJsonObject &claim);

// The fraction of a GPU an allocated device is for its claim: the device's own fraction
// (DeviceFacts), times, for a device shared by capacity, the largest share of any capacity
// the claim consumed (consumedCapacity / the device's capacity; e.g. 20Gi of 80Gi memory
// is 1/4). A consumed capacity the slice does not publish is ignored.
[[nodiscard]] double allocatedFraction(const AllocatedDevice &device, const DeviceFacts &facts);

// Whether a device counts as a GPU: its class is a GPU class (GpuClasses), or the driver
// is a GPU driver (isGpuDriver).
[[nodiscard]] bool isGpuDevice(const AllocatedDevice &device, const GpuClasses &gpuClasses);

// The devices a claim spec asks for from GPU classes (spec.devices.requests: count for
// ExactCount, 1 for All or firstAvailable): what a pod will hold before allocation.
[[nodiscard]] int requestedGpuDevices(const QJsonObject &claimSpec, const GpuClasses &gpuClasses);

} // namespace gq::dra
