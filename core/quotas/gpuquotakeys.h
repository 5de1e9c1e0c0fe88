#pragma once

// Quota keys that count GPUs, for the console (namespace list, quota editor, boosts):
// extended-resource GPUs (requests.nvidia.com/gpu, MIG profiles, shared replicas, AMD,
// Intel) and the DRA keys of GPU classes (dra::GpuClasses: the cluster's DeviceClasses
// as the console last read them, the name rule before that).

#include <QString>
#include <QStringList>

namespace gq::gpukeys {

[[nodiscard]] bool isGpuQuotaKey(const QString &key);
// The key the one-click GPU edit steps and a boost starts on, among a quota's keys:
// requests.nvidia.com/gpu when the quota has it, else its first GPU key (a DRA key
// "<class>.deviceclass.resource.k8s.io/devices", a MIG profile), else
// requests.nvidia.com/gpu (added on the first step).
[[nodiscard]] QString stepKey(const QStringList &keys);
// The DRA device class a key counts ("" for a key of no DRA class).
[[nodiscard]] QString deviceClassOf(const QString &key);

} // namespace gq::gpukeys
