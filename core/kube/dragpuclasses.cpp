#include "core/kube/dragpuclasses.h"

#include <QJsonArray>
#include <QMutex>
#include <QRegularExpression>

#include <algorithm>

namespace gq::dra {

namespace {

const QLatin1String kDevicesSuffix(".deviceclass.resource.k8s.io/devices");
const QLatin1String kImplicitPrefix("requests.deviceclass.resource.kubernetes.io/");
const QLatin1String kRequests("requests.");

bool isGpuExtendedResource(const QString &r) {
    return r == QLatin1String("nvidia.com/gpu") || r.startsWith(QLatin1String("nvidia.com/mig-")) ||
           r == QLatin1String("nvidia.com/gpu.shared") || r == QLatin1String("amd.com/gpu") ||
           r.startsWith(QLatin1String("gpu.intel.com/"));
}

bool nameSaysGpu(const QString &name) {
    return name.contains(QLatin1String("gpu"), Qt::CaseInsensitive);
}

QMutex g_currentMutex;
GpuClasses &current() {
    static GpuClasses classes;
    return classes;
}

} // namespace

bool isGpuDriver(const QString &driver) {
    return nameSaysGpu(driver);
}

QStringList selectedDrivers(const QJsonObject &deviceClass) {
    static const QRegularExpression re(QStringLiteral("device\\.driver\\s*==\\s*[\"']([^\"']+)[\"']"));
    QStringList out;
    const QJsonArray selectors =
        deviceClass.value(QLatin1String("spec")).toObject().value(QLatin1String("selectors")).toArray();
    for (const QJsonValue &s : selectors) {
        const QString expr =
            s.toObject().value(QLatin1String("cel")).toObject().value(QLatin1String("expression")).toString();
        for (auto it = re.globalMatch(expr); it.hasNext();)
            if (const QString d = it.next().captured(1); !out.contains(d))
                out << d;
    }
    return out;
}

GpuClasses::GpuClasses(QSet<QString> configured)
    : m_configured(std::move(configured)) {}

GpuClasses GpuClasses::fromDeviceClasses(const QList<QJsonObject> &deviceClasses,
                                         const QSet<QString> &configured) {
    GpuClasses out(configured);
    for (const QJsonObject &dc : deviceClasses) {
        const QString name =
            dc.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
        if (name.isEmpty())
            continue;
        const QString extended = dc.value(QLatin1String("spec"))
                                     .toObject()
                                     .value(QLatin1String("extendedResourceName"))
                                     .toString();
        const QStringList drivers = selectedDrivers(dc);
        const bool gpu =
            std::any_of(drivers.cbegin(), drivers.cend(), isGpuDriver) || isGpuExtendedResource(extended);
        if (gpu)
            out.m_detected.insert(name);
        else if (!drivers.isEmpty())
            out.m_notGpu.insert(name);
        if (!extended.isEmpty() && (gpu || configured.contains(name)))
            out.m_extendedName.insert(extended, name);
    }
    return out;
}

bool GpuClasses::isGpuClass(const QString &deviceClass) const {
    if (deviceClass.isEmpty())
        return false;
    if (m_configured.contains(deviceClass) || m_detected.contains(deviceClass))
        return true;
    return !m_notGpu.contains(deviceClass) && nameSaysGpu(deviceClass);
}

QString GpuClasses::classOfQuotaKey(const QString &key) const {
    if (key.endsWith(kDevicesSuffix))
        return key.left(key.size() - kDevicesSuffix.size());
    if (key.startsWith(kImplicitPrefix))
        return key.mid(kImplicitPrefix.size());
    if (key.startsWith(kRequests))
        return m_extendedName.value(key.mid(kRequests.size()));
    return {};
}

bool GpuClasses::isGpuQuotaKey(const QString &key) const {
    return isGpuClass(classOfQuotaKey(key));
}

QStringList GpuClasses::knownGpuClasses() const {
    QStringList out(m_configured.cbegin(), m_configured.cend());
    for (const QString &c : m_detected)
        if (!m_configured.contains(c))
            out << c;
    out.sort();
    return out;
}

QString GpuClasses::classOfExtendedResource(const QString &resource) const {
    return m_extendedName.value(resource);
}

GpuClasses currentGpuClasses() {
    const QMutexLocker lock(&g_currentMutex);
    return current();
}

void setCurrentGpuClasses(const GpuClasses &classes) {
    const QMutexLocker lock(&g_currentMutex);
    current() = classes;
}

} // namespace gq::dra
