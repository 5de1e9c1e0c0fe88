#pragma once

#include <QString>
#include <QStringList>
#include <QStringView>

namespace gq {

// Resource names, scopes and object names classified the way the Kubernetes API
// server's validation does (pkg/apis/core/helper and pkg/apis/core/validation), plus
// what this project needs on top: how much of a GPU a resource name stands for.
//
// The *Errors() functions return human-readable reasons; an empty list means valid.

// --- generic name grammars (k8s.io/apimachinery/pkg/util/validation) ---------------
[[nodiscard]] QStringList dns1123LabelErrors(QStringView value);     // namespaces
[[nodiscard]] QStringList dns1123SubdomainErrors(QStringView value); // object names
[[nodiscard]] QStringList qualifiedNameErrors(QStringView value);    // [prefix/]name
[[nodiscard]] QStringList labelValueErrors(QStringView value);

// --- resource names -------------------------------------------------------------
// The broad family a resource name belongs to, for display and for later rules.
enum class ResourceNameKind {
    Invalid,       // not a qualified name at all
    Standard,      // cpu, memory, pods, services, requests.cpu, limits.memory, ...
    HugePages,     // hugepages-2Mi, requests.hugepages-1Gi
    ObjectCount,   // count/pods, count/deployments.apps
    Native,        // a name in the *kubernetes.io/ namespace
    Extended,      // vendor.domain/name: nvidia.com/gpu, nvidia.com/mig-1g.10gb
    QuotaRequests, // requests.<extended>: requests.nvidia.com/gpu
    QuotaLimits,   // limits.<extended>: limits.nvidia.com/gpu (accepted upstream, never enforced)
    StorageClass,  // <class>.storageclass.storage.k8s.io/requests.storage (or .../persistentvolumeclaims)
    Unknown,       // a plain name the API server does not know ("gpu", "cpus")
};

struct ResourceNameInfo {
    ResourceNameKind kind = ResourceNameKind::Invalid;
    QString base; // the name without a requests./limits. quota prefix ("nvidia.com/gpu")
};

[[nodiscard]] ResourceNameInfo classifyResourceName(QStringView name);
[[nodiscard]] QString resourceNameKindName(ResourceNameKind kind);

// Upstream predicates, same names and meaning as pkg/apis/core/helper.
[[nodiscard]] bool isHugePageResourceName(QStringView name);
[[nodiscard]] bool isQuotaHugePageResourceName(QStringView name);
[[nodiscard]] bool isNativeResource(QStringView name);
[[nodiscard]] bool isExtendedResourceName(QStringView name);
[[nodiscard]] bool isOvercommitAllowed(QStringView name);
[[nodiscard]] bool isStandardResourceName(QStringView name);
[[nodiscard]] bool isStandardQuotaResourceName(QStringView name);
[[nodiscard]] bool isStandardContainerResourceName(QStringView name);
[[nodiscard]] bool isIntegerResourceName(QStringView name);

// Validation of a resource name in a given place; empty list means valid. Messages
// follow upstream ("must be a standard resource for quota", ...).
[[nodiscard]] QStringList resourceNameErrors(QStringView name);      // validateResourceName
[[nodiscard]] QStringList quotaResourceNameErrors(QStringView name); // ValidateResourceQuotaResourceName
[[nodiscard]] QStringList containerResourceNameErrors(QStringView name);

// --- quota scopes ------------------------------------------------------------------
// Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass,
// CrossNamespacePodAffinity, VolumeAttributesClass.
[[nodiscard]] QStringList standardQuotaScopes();
[[nodiscard]] bool isStandardQuotaScope(QStringView scope);
[[nodiscard]] bool isQuotaScopeValidForResource(QStringView scope, QStringView resource);
// Scopes that only take the Exists operator in a scopeSelector.
[[nodiscard]] bool quotaScopeRequiresExists(QStringView scope);

// --- limit range types -------------------------------------------------------------
[[nodiscard]] bool isStandardLimitRangeType(QStringView type); // Container, Pod, PersistentVolumeClaim

// --- GPU-ness -------------------------------------------------------------------------
// How much of one physical GPU one unit of a resource is. nvidia.com/gpu is 1/1;
// a MIG slice nvidia.com/mig-3g.40gb is 3/7 (3 of the 7 compute slices of an
// A100/H100); on an A30 (4 slices: mig-1g.6gb, 2g.12gb, 4g.24gb) it is g/4.
// A quota prefix (requests./limits.) is ignored, so requests.nvidia.com/gpu is 1/1.
struct GpuWeight {
    bool isGpu = false;
    bool isMig = false;
    int numerator = 0; // 0 when not a GPU
    int denominator = 1;
    QString vendor;  // "nvidia.com", "amd.com", "gpu.intel.com"
    QString profile; // MIG profile ("3g.40gb"), empty otherwise
    [[nodiscard]] double fraction() const { return denominator ? double(numerator) / denominator : 0.0; }
    friend bool operator==(const GpuWeight &, const GpuWeight &) = default;
};

[[nodiscard]] GpuWeight gpuWeight(QStringView resourceName);
[[nodiscard]] inline bool isGpuResource(QStringView resourceName) {
    return gpuWeight(resourceName).isGpu;
}

} // namespace gq
