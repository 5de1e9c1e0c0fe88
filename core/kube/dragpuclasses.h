#pragma once

// Which DRA device classes are GPUs: the one place that decides it for the recorder,
// the admission webhook, the clamp, the namespace list and the quota editor.
//
// A class is a GPU class when
//  - it is named in the configuration (gpuDeviceClasses), or
//  - its DeviceClass selects a GPU driver: a CEL selector `device.driver == "<d>"` where
//    <d> is a GPU driver name (gpu.nvidia.com, gpu.amd.com, gpu.intel.com, or any driver
//    with "gpu" in its name, like the test clusters' gpu.example.com), or
//  - its DeviceClass maps a GPU extended resource (spec.extendedResourceName
//    nvidia.com/gpu, amd.com/gpu, ...), or
//  - no DeviceClass says otherwise and its name has "gpu" in it (the rule that applies
//    before the cluster's DeviceClasses are read, or where they cannot be read).
//
// The ResourceQuota keys the API server counts for DRA devices (Kubernetes 1.34+):
//  - "<class>.deviceclass.resource.k8s.io/devices": devices the namespace's claims
//    request from the class;
//  - "requests.deviceclass.resource.kubernetes.io/<class>": the class's implicit extended
//    resource (DRAExtendedResource), requested in a container's resources;
//  - "requests.<extendedResourceName>" where a DeviceClass declares one.

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace gq::dra {

class GpuClasses {
public:
    GpuClasses() = default;
    // Only the configured names (and the name rule); converts from the config's set.
    GpuClasses(QSet<QString> configured); // NOLINT(google-explicit-constructor)
    // configured plus what the cluster's DeviceClass objects say.
    [[nodiscard]] static GpuClasses fromDeviceClasses(const QList<QJsonObject> &deviceClasses,
                                                      const QSet<QString> &configured = {});

    [[nodiscard]] bool isGpuClass(const QString &deviceClass) const;
    // The device class a DRA quota key names, in any of the three forms ("" otherwise).
    [[nodiscard]] QString classOfQuotaKey(const QString &key) const;
    // A DRA quota key whose class is a GPU class.
    [[nodiscard]] bool isGpuQuotaKey(const QString &key) const;
    // The GPU classes known by name (configured and detected), sorted.
    [[nodiscard]] QStringList knownGpuClasses() const;
    // The class a GPU extended resource name maps to ("" when none).
    [[nodiscard]] QString classOfExtendedResource(const QString &resource) const;

    [[nodiscard]] const QSet<QString> &configured() const { return m_configured; }

    friend bool operator==(const GpuClasses &, const GpuClasses &) = default;

private:
    QSet<QString> m_configured;
    QSet<QString> m_detected;               // DeviceClasses selecting a GPU driver
    QSet<QString> m_notGpu;                 // DeviceClasses selecting only other drivers
    QHash<QString, QString> m_extendedName; // extendedResourceName -> class
};

// Whether a DRA driver name is a GPU driver's.
[[nodiscard]] bool isGpuDriver(const QString &driver);
// The drivers a DeviceClass's CEL selectors name (device.driver == "...").
[[nodiscard]] QStringList selectedDrivers(const QJsonObject &deviceClass);

// The process's current decision: set by whoever watches the cluster's DeviceClasses
// (the controller's DraWatch, the console's cluster load), read by code without a
// GpuClasses of its own (quota key checks in the clamp and the namespace list).
// Thread-safe.
[[nodiscard]] GpuClasses currentGpuClasses();
void setCurrentGpuClasses(const GpuClasses &classes);

} // namespace gq::dra
