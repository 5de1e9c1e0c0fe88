#include "core/domain/resourcenames.h"

#include <array>

namespace gq {

namespace {

bool isLowerAlnum(QChar c) {
    return (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9');
}
bool isAlnum(QChar c) {
    return isLowerAlnum(c) || (c >= u'A' && c <= u'Z');
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool matchesDnsLabel(QStringView v) {
    if (v.isEmpty() || !isLowerAlnum(v.front()) || !isLowerAlnum(v.back()))
        return false;
    for (QChar c : v) {
        if (!isLowerAlnum(c) && c != u'-')
            return false;
    }
    return true;
}

bool matchesDnsSubdomain(QStringView v) {
    if (v.isEmpty())
        return false;
    qsizetype start = 0;
    while (true) {
        const qsizetype dot = v.indexOf(u'.', start);
        const QStringView part = dot < 0 ? v.mid(start) : v.mid(start, dot - start);
        if (!matchesDnsLabel(part))
            return false;
        if (dot < 0)
            return true;
        start = dot + 1;
    }
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool matchesQualifiedNamePart(QStringView v) {
    if (v.isEmpty() || !isAlnum(v.front()) || !isAlnum(v.back()))
        return false;
    for (QChar c : v) {
        if (!isAlnum(c) && c != u'-' && c != u'_' && c != u'.')
            return false;
    }
    return true;
}

const QString kDnsLabelMsg =
    QStringLiteral("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                   "and must start and end with an alphanumeric character (e.g. 'my-name', or '123-abc')");
const QString kDnsSubdomainMsg = QStringLiteral(
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com')");
const QString kQualifiedPartMsg =
    QStringLiteral("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                   "alphanumeric character (e.g. 'MyName', or 'my.name', or '123-abc')");

constexpr auto kStandardQuotaResources = std::to_array<QStringView>({
    u"cpu",
    u"memory",
    u"ephemeral-storage",
    u"requests.cpu",
    u"requests.memory",
    u"requests.storage",
    u"requests.ephemeral-storage",
    u"limits.cpu",
    u"limits.memory",
    u"limits.ephemeral-storage",
    u"pods",
    u"resourcequotas",
    u"services",
    u"replicationcontrollers",
    u"secrets",
    u"persistentvolumeclaims",
    u"configmaps",
    u"services.nodeports",
    u"services.loadbalancers",
});

constexpr auto kStandardResources = std::to_array<QStringView>({
    u"cpu",
    u"memory",
    u"ephemeral-storage",
    u"requests.cpu",
    u"requests.memory",
    u"requests.ephemeral-storage",
    u"limits.cpu",
    u"limits.memory",
    u"limits.ephemeral-storage",
    u"pods",
    u"resourcequotas",
    u"services",
    u"replicationcontrollers",
    u"secrets",
    u"configmaps",
    u"persistentvolumeclaims",
    u"storage",
    u"requests.storage",
    u"services.nodeports",
    u"services.loadbalancers",
});

constexpr auto kIntegerResources = std::to_array<QStringView>({
    u"pods",
    u"resourcequotas",
    u"services",
    u"replicationcontrollers",
    u"secrets",
    u"configmaps",
    u"persistentvolumeclaims",
    u"services.nodeports",
    u"services.loadbalancers",
});

constexpr auto kStandardContainerResources =
    std::to_array<QStringView>({u"cpu", u"memory", u"ephemeral-storage"});

constexpr auto kQuotaScopes = std::to_array<QStringView>({
    u"Terminating",
    u"NotTerminating",
    u"BestEffort",
    u"NotBestEffort",
    u"PriorityClass",
    u"CrossNamespacePodAffinity",
    u"VolumeAttributesClass",
});

constexpr auto kPodComputeQuotaResources = std::to_array<QStringView>({
    u"cpu",
    u"memory",
    u"limits.cpu",
    u"limits.memory",
    u"requests.cpu",
    u"requests.memory",
});

template <std::size_t N> bool contains(const std::array<QStringView, N> &set, QStringView v) {
    for (QStringView s : set) {
        if (s == v)
            return true;
    }
    return false;
}

const QString kHugePagesPrefix = QStringLiteral("hugepages-");
const QString kRequestsHugePagesPrefix = QStringLiteral("requests.hugepages-");
const QString kRequestsPrefix = QStringLiteral("requests.");
const QString kLimitsPrefix = QStringLiteral("limits.");

// Like the API server, a name that is both too long and malformed gets both messages.
QStringList lengthAndPatternErrors(QStringView value, qsizetype maxLength, bool (*matches)(QStringView),
                                   const QString &patternMessage) {
    QStringList errors;
    if (value.size() > maxLength)
        errors << QStringLiteral("must be no more than %1 characters").arg(maxLength);
    if (!matches(value))
        errors << patternMessage;
    return errors;
}

} // namespace

QStringList dns1123LabelErrors(QStringView value) {
    return lengthAndPatternErrors(value, 63, matchesDnsLabel, kDnsLabelMsg);
}

QStringList dns1123SubdomainErrors(QStringView value) {
    return lengthAndPatternErrors(value, 253, matchesDnsSubdomain, kDnsSubdomainMsg);
}

QStringList qualifiedNameErrors(QStringView value) {
    QStringList errors;
    QStringView name = value;
    const qsizetype slash = value.indexOf(u'/');
    if (slash >= 0) {
        if (value.indexOf(u'/', slash + 1) >= 0) {
            errors << QStringLiteral("a qualified name ") + kQualifiedPartMsg +
                          QStringLiteral(
                              " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            return errors;
        }
        const QStringView prefix = value.left(slash);
        name = value.mid(slash + 1);
        if (prefix.isEmpty()) {
            errors << QStringLiteral("prefix part must be non-empty");
        } else {
            for (const QString &msg : dns1123SubdomainErrors(prefix))
                errors << QStringLiteral("prefix part ") + msg;
        }
    }
    if (name.isEmpty()) {
        errors << QStringLiteral("name part must be non-empty");
    } else {
        if (name.size() > 63)
            errors << QStringLiteral("name part must be no more than 63 characters");
        if (!matchesQualifiedNamePart(name))
            errors << QStringLiteral("name part ") + kQualifiedPartMsg;
    }
    return errors;
}

QStringList labelValueErrors(QStringView value) {
    // A label value may be empty.
    const auto matches = [](QStringView v) { return v.isEmpty() || matchesQualifiedNamePart(v); };
    return lengthAndPatternErrors(value, 63, matches, QStringLiteral("a valid label ") + kQualifiedPartMsg);
}

bool isHugePageResourceName(QStringView name) {
    return name.startsWith(kHugePagesPrefix);
}

bool isQuotaHugePageResourceName(QStringView name) {
    return name.startsWith(kHugePagesPrefix) || name.startsWith(kRequestsHugePagesPrefix);
}

bool isNativeResource(QStringView name) {
    return !name.contains(u'/') || name.contains(QLatin1String("kubernetes.io/"));
}

bool isExtendedResourceName(QStringView name) {
    if (isNativeResource(name) || name.startsWith(kRequestsPrefix))
        return false;
    // It must still be a qualified name once quota puts "requests." in front.
    return qualifiedNameErrors(QString(kRequestsPrefix + name)).isEmpty();
}

bool isOvercommitAllowed(QStringView name) {
    return isNativeResource(name) && !isHugePageResourceName(name);
}

bool isStandardResourceName(QStringView name) {
    return contains(kStandardResources, name) || isQuotaHugePageResourceName(name);
}

bool isStandardQuotaResourceName(QStringView name) {
    return contains(kStandardQuotaResources, name) || isQuotaHugePageResourceName(name);
}

bool isStandardContainerResourceName(QStringView name) {
    return contains(kStandardContainerResources, name) || isHugePageResourceName(name);
}

bool isIntegerResourceName(QStringView name) {
    return contains(kIntegerResources, name) || isExtendedResourceName(name);
}

QStringList resourceNameErrors(QStringView name) {
    QStringList errors = qualifiedNameErrors(name);
    if (!errors.isEmpty())
        return errors;
    if (!name.contains(u'/') && !isStandardResourceName(name))
        errors << QStringLiteral("must be a standard resource type or fully qualified");
    return errors;
}

// Upstream reports both "must be a standard resource type or fully qualified" and the
// more specific message for a plain unknown name; one reason per name reads better.
QStringList quotaResourceNameErrors(QStringView name) {
    QStringList errors = qualifiedNameErrors(name);
    if (errors.isEmpty() && !name.contains(u'/') && !isStandardQuotaResourceName(name))
        errors << QStringLiteral("must be a standard resource for quota");
    return errors;
}

QStringList containerResourceNameErrors(QStringView name) {
    QStringList errors = qualifiedNameErrors(name);
    if (!errors.isEmpty())
        return errors;
    if (!name.contains(u'/')) {
        if (!isStandardContainerResourceName(name))
            errors << QStringLiteral("must be a standard resource for containers");
    } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
        errors << QStringLiteral("doesn't follow extended resource name standard");
    }
    return errors;
}

ResourceNameInfo classifyResourceName(QStringView name) {
    ResourceNameInfo info;
    info.base = name.toString();
    if (!qualifiedNameErrors(name).isEmpty()) {
        info.kind = ResourceNameKind::Invalid;
        return info;
    }
    if (name.startsWith(QLatin1String("count/"))) {
        info.kind = ResourceNameKind::ObjectCount;
        info.base = name.mid(6).toString();
        return info;
    }
    if (isQuotaHugePageResourceName(name)) {
        info.kind = ResourceNameKind::HugePages;
        if (name.startsWith(kRequestsPrefix))
            info.base = name.mid(kRequestsPrefix.size()).toString();
        return info;
    }
    if (!name.contains(u'/')) {
        info.kind = isStandardResourceName(name) ? ResourceNameKind::Standard : ResourceNameKind::Unknown;
        return info;
    }
    if (isNativeResource(name)) {
        info.kind = ResourceNameKind::Native;
        return info;
    }
    // Quota per storage class: the class name, then the storage API group; quota counts
    // it like requests.storage and persistentvolumeclaims (and the API server accepts it).
    static const QLatin1String kStorageClassGroup(".storageclass.storage.k8s.io/");
    if (const qsizetype at = name.indexOf(kStorageClassGroup); at > 0) {
        const QStringView what = name.mid(at + kStorageClassGroup.size());
        if (what == QLatin1String("requests.storage") || what == QLatin1String("persistentvolumeclaims")) {
            info.kind = ResourceNameKind::StorageClass;
            return info;
        }
    }
    if (name.startsWith(kRequestsPrefix) && isExtendedResourceName(name.mid(kRequestsPrefix.size()))) {
        info.kind = ResourceNameKind::QuotaRequests;
        info.base = name.mid(kRequestsPrefix.size()).toString();
        return info;
    }
    if (name.startsWith(kLimitsPrefix) && isExtendedResourceName(name.mid(kLimitsPrefix.size()))) {
        info.kind = ResourceNameKind::QuotaLimits;
        info.base = name.mid(kLimitsPrefix.size()).toString();
        return info;
    }
    info.kind = isExtendedResourceName(name) ? ResourceNameKind::Extended : ResourceNameKind::Unknown;
    return info;
}

QString resourceNameKindName(ResourceNameKind kind) {
    switch (kind) {
    case ResourceNameKind::Invalid: return QStringLiteral("invalid");
    case ResourceNameKind::Standard: return QStringLiteral("standard");
    case ResourceNameKind::HugePages: return QStringLiteral("hugepages");
    case ResourceNameKind::ObjectCount: return QStringLiteral("object count");
    case ResourceNameKind::Native: return QStringLiteral("native");
    case ResourceNameKind::Extended: return QStringLiteral("extended");
    case ResourceNameKind::StorageClass: return QStringLiteral("storage class");
    case ResourceNameKind::QuotaRequests: return QStringLiteral("quota requests");
    case ResourceNameKind::QuotaLimits: return QStringLiteral("quota limits");
    case ResourceNameKind::Unknown: return QStringLiteral("unknown");
    }
    return QStringLiteral("unknown");
}

QStringList standardQuotaScopes() {
    QStringList scopes;
    for (QStringView s : kQuotaScopes)
        scopes << s.toString();
    return scopes;
}

bool isStandardQuotaScope(QStringView scope) {
    return contains(kQuotaScopes, scope);
}

bool isQuotaScopeValidForResource(QStringView scope, QStringView resource) {
    const bool podResource = resource == u"pods" || contains(kPodComputeQuotaResources, resource);
    if (scope == u"Terminating" || scope == u"NotTerminating" || scope == u"NotBestEffort" ||
        scope == u"PriorityClass" || scope == u"CrossNamespacePodAffinity")
        return podResource;
    if (scope == u"BestEffort")
        return resource == u"pods";
    if (scope == u"VolumeAttributesClass")
        return resource == u"persistentvolumeclaims" || resource == u"requests.storage";
    return true;
}

bool quotaScopeRequiresExists(QStringView scope) {
    return scope == u"Terminating" || scope == u"NotTerminating" || scope == u"BestEffort" ||
           scope == u"NotBestEffort" || scope == u"CrossNamespacePodAffinity";
}

bool isStandardLimitRangeType(QStringView type) {
    return type == u"Container" || type == u"Pod" || type == u"PersistentVolumeClaim";
}

namespace {

// "3g.40gb" -> (3, 40); false when the profile is not <g>g.<m>gb[+suffix].
bool parseMigProfile(QStringView profile, int *slices, int *memoryGb) {
    const qsizetype plus = profile.indexOf(u'+');
    const QStringView core = plus >= 0 ? profile.left(plus) : profile;
    const qsizetype g = core.indexOf(QLatin1String("g."));
    if (g <= 0 || !core.endsWith(QLatin1String("gb")))
        return false;
    bool ok1 = false;
    bool ok2 = false;
    *slices = core.left(g).toInt(&ok1);
    *memoryGb = core.mid(g + 2, core.size() - g - 4).toInt(&ok2);
    return ok1 && ok2 && *slices > 0 && *slices <= 8 && *memoryGb > 0;
}

} // namespace

GpuWeight gpuWeight(QStringView resourceName) {
    QStringView name = resourceName;
    if (name.startsWith(kRequestsPrefix))
        name = name.mid(kRequestsPrefix.size());
    else if (name.startsWith(kLimitsPrefix))
        name = name.mid(kLimitsPrefix.size());

    GpuWeight w;
    const qsizetype slash = name.indexOf(u'/');
    if (slash <= 0)
        return w;
    const QStringView vendor = name.left(slash);
    const QStringView device = name.mid(slash + 1);

    if (vendor == u"nvidia.com") {
        if (device == u"gpu") {
            w = GpuWeight{true, false, 1, 1, vendor.toString(), {}};
            return w;
        }
        if (device.startsWith(QLatin1String("mig-"))) {
            const QStringView profile = device.mid(4);
            int slices = 0;
            int memoryGb = 0;
            if (!parseMigProfile(profile, &slices, &memoryGb))
                return w;
            // An A30 splits into 4 compute slices of 6 GB each; every other MIG GPU
            // (A100 40/80 GB, H100, H200, GH200, B200) into 7.
            const bool a30 = memoryGb == 6 * slices && (slices == 1 || slices == 2 || slices == 4);
            w = GpuWeight{true, true, slices, a30 ? 4 : 7, vendor.toString(), profile.toString()};
            if (w.numerator > w.denominator)
                w.numerator = w.denominator;
            return w;
        }
        return w;
    }
    if ((vendor == u"amd.com" && device == u"gpu") ||
        (vendor == u"gpu.intel.com" && (device == u"i915" || device == u"xe")))
        w = GpuWeight{true, false, 1, 1, vendor.toString(), {}};
    return w;
}

} // namespace gq
