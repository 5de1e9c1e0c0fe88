#include "core/quotas/gpuquotakeys.h"

#include "core/kube/dra.h"

namespace gq::gpukeys {

namespace {
const QLatin1String kWholeGpus("requests.nvidia.com/gpu");
} // namespace

bool isGpuQuotaKey(const QString &key) {
    if (dra::isGpuQuotaKey(key))
        return true;
    QStringView r(key);
    if (r.startsWith(u"requests."))
        r = r.mid(9);
    return r == u"nvidia.com/gpu" || r.startsWith(u"nvidia.com/mig-") || r == u"nvidia.com/gpu.shared" ||
           r == u"amd.com/gpu" || r.startsWith(u"gpu.intel.com/");
}

QString stepKey(const QStringList &keys) {
    if (keys.contains(kWholeGpus))
        return kWholeGpus;
    for (const QString &k : keys)
        if (k.startsWith(QLatin1String("requests.")) || k.endsWith(QLatin1String("/devices")))
            if (isGpuQuotaKey(k))
                return k;
    return kWholeGpus;
}

QString deviceClassOf(const QString &key) {
    return dra::currentGpuClasses().classOfQuotaKey(key);
}

} // namespace gq::gpukeys
