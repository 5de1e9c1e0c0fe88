#pragma once

// Dynamic Resource Allocation (resource.k8s.io/v1): what a ResourceClaim's allocation
// and the ResourceSlices say about the GPUs a pod holds. Pure functions over the JSON
// the API server serves (informers keep the objects whole).

#include "informer.h"
#include "kuberequest.h"

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

// A quota key counting GPUs by DRA: "<class>.deviceclass.resource.k8s.io/devices" whose
// class is one of gpuClasses or has "gpu" in its name (gpu.nvidia.com, mig.gpu.example.com).
[[nodiscard]] bool isGpuQuotaKey(const QString &key, const QSet<QString> &gpuClasses = {});

// What a device's ResourceSlice entry says. The GPU model is the attribute productName
// (NVIDIA's and the example drivers' name; qualified "<driver>/productName" too). The
// fraction of a whole GPU the device is: the attribute gpuquota.io/gpu-fraction ("1/7",
// "0.5") when the driver publishes one, else for a MIG device (attribute profile
// "<N>g.<memory>") N/7, else 1.
struct DeviceFacts {
    QString gpuModel;
    double fraction = 1.0;
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
    friend bool operator==(const AllocatedDevice &, const AllocatedDevice &) = default;
};
[[nodiscard]] QList<AllocatedDevice> allocatedDevices(const QJsonObject &claim);
// status.reservedFor: the pods (by name) the claim is reserved for.
[[nodiscard]] QStringList reservedPods(const QJsonObject &claim);

// Whether a device counts as a GPU: its class is one of gpuClasses, or the class or the
// driver name contains "gpu" (gpu.nvidia.com, gpu.amd.com, gpu.intel.com).
[[nodiscard]] bool isGpuDevice(const AllocatedDevice &device, const QSet<QString> &gpuClasses);

// The devices a claim spec asks for from GPU classes (spec.devices.requests: count for
// ExactCount, 1 for All or firstAvailable): what a pod will hold before allocation.
[[nodiscard]] int requestedGpuDevices(const QJsonObject &claimSpec, const QSet<QString> &gpuClasses);

} // namespace gq::dra
