#include "core/kube/dra.h"

#include <QJsonArray>
#include <QRegularExpression>

#include "core/domain/quantity.h"

#include <algorithm>

namespace gq::dra {

namespace {

const QLatin1String kQuotaSuffix(".deviceclass.resource.k8s.io/devices");

KubeResource draResource(const char *plural, const char *kind, bool namespaced) {
    return KubeResource{QStringLiteral("resource.k8s.io"), QStringLiteral("v1"), QLatin1String(plural),
                        QLatin1String(kind), namespaced};
}

// An attribute by its short name or qualified by the driver (or gpuquota.io).
QJsonObject attribute(const QJsonObject &attributes, const QString &driver, const QString &name) {
    const QString qualified = driver + QLatin1Char('/') + name;
    for (const QString &key : {name, qualified})
        if (attributes.contains(key))
            return attributes.value(key).toObject();
    return {};
}

// "1/7", "0.5", "3/7"; 0 when unreadable or out of (0, 1].
double parseFraction(const QString &text) {
    bool ok = false;
    double value = 0;
    if (const qsizetype slash = text.indexOf(QLatin1Char('/')); slash > 0) {
        bool okDen = false;
        const double num = text.left(slash).trimmed().toDouble(&ok);
        const double den = text.mid(slash + 1).trimmed().toDouble(&okDen);
        ok = ok && okDen && den > 0;
        value = ok ? num / den : 0;
    } else {
        value = text.trimmed().toDouble(&ok);
    }
    return ok && value > 0 && value <= 1 ? value : 0;
}

QString requestClass(const QJsonObject &spec, const QString &request) {
    const QString main = request.section(QLatin1Char('/'), 0, 0);
    const QString sub = request.section(QLatin1Char('/'), 1);
    for (const QJsonValue &v :
         spec.value(QLatin1String("devices")).toObject().value(QLatin1String("requests")).toArray()) {
        const QJsonObject r = v.toObject();
        if (r.value(QLatin1String("name")).toString() != main)
            continue;
        if (sub.isEmpty())
            return r.value(QLatin1String("exactly"))
                .toObject()
                .value(QLatin1String("deviceClassName"))
                .toString();
        for (const QJsonValue &s : r.value(QLatin1String("firstAvailable")).toArray())
            if (s.toObject().value(QLatin1String("name")).toString() == sub)
                return s.toObject().value(QLatin1String("deviceClassName")).toString();
    }
    return {};
}

// Quantities by name: {"memory":"20Gi"} or, for a slice's capacity, {"memory":{"value":"80Gi"}}.
QHash<QString, double> numbers(const QJsonObject &map, bool nestedValue) {
    QHash<QString, double> out;
    for (auto it = map.begin(); it != map.end(); ++it) {
        const QJsonValue v = nestedValue ? it.value().toObject().value(QLatin1String("value")) : it.value();
        if (auto q = Quantity::parse(v.isString() ? v.toString() : QString::number(v.toDouble())))
            out.insert(it.key(), q->toDouble());
    }
    return out;
}

int requestCount(const QJsonObject &request) {
    if (request.value(QLatin1String("allocationMode")).toString() == QLatin1String("All"))
        return 1; // every matching device: unknown before allocation, at least one
    return qMax(1, request.value(QLatin1String("count")).toInt(1));
}

} // namespace

const KubeResource &resourceClaims() {
    static const KubeResource r = draResource("resourceclaims", "ResourceClaim", true);
    return r;
}
const KubeResource &resourceClaimTemplates() {
    static const KubeResource r = draResource("resourceclaimtemplates", "ResourceClaimTemplate", true);
    return r;
}
const KubeResource &resourceSlices() {
    static const KubeResource r = draResource("resourceslices", "ResourceSlice", false);
    return r;
}
const KubeResource &deviceClasses() {
    static const KubeResource r = draResource("deviceclasses", "DeviceClass", false);
    return r;
}

QString quotaKey(const QString &deviceClass) {
    return deviceClass + kQuotaSuffix;
}

QString deviceClassOfQuotaKey(const QString &key) {
    if (!key.endsWith(kQuotaSuffix))
        return {};
    return key.left(key.size() - kQuotaSuffix.size());
}

bool isGpuQuotaKey(const QString &key, const GpuClasses &gpuClasses) {
    return gpuClasses.isGpuQuotaKey(key);
}

bool isGpuQuotaKey(const QString &key) {
    return currentGpuClasses().isGpuQuotaKey(key);
}

DeviceFacts deviceFactsFromJson(const QJsonObject &device, const QString &driver) {
    DeviceFacts facts;
    const QJsonObject attributes = device.value(QLatin1String("attributes")).toObject();
    facts.capacity = numbers(device.value(QLatin1String("capacity")).toObject(), true);
    facts.gpuModel = attribute(attributes, driver, QStringLiteral("productName"))
                         .value(QLatin1String("string"))
                         .toString();
    const QJsonObject fraction = attributes.value(QLatin1String("gpuquota.io/gpu-fraction")).toObject();
    if (const double f = parseFraction(fraction.value(QLatin1String("string")).toString()); f > 0) {
        facts.fraction = f;
        return facts;
    }
    static const QRegularExpression mig(QStringLiteral("^([1-7])g\\."));
    const QString profile =
        attribute(attributes, driver, QStringLiteral("profile")).value(QLatin1String("string")).toString();
    if (const auto m = mig.match(profile); m.hasMatch())
        facts.fraction = m.captured(1).toInt() / 7.0;
    return facts;
}

QString deviceKey(const QString &driver, const QString &pool, const QString &device) {
    return driver + QLatin1Char('|') + pool + QLatin1Char('|') + device;
}

QHash<QString, DeviceFacts> indexSlices(const QList<StoredObject> &slices) {
    QHash<QString, DeviceFacts> out;
    for (const StoredObject &slice : slices) {
        const QJsonObject spec = slice.object.value(QLatin1String("spec")).toObject();
        const QString driver = spec.value(QLatin1String("driver")).toString();
        const QString pool =
            spec.value(QLatin1String("pool")).toObject().value(QLatin1String("name")).toString();
        for (const QJsonValue &v : spec.value(QLatin1String("devices")).toArray()) {
            const QJsonObject device = v.toObject();
            out.insert(deviceKey(driver, pool, device.value(QLatin1String("name")).toString()),
                       deviceFactsFromJson(device, driver));
        }
    }
    return out;
}

QList<AllocatedDevice> allocatedDevices(const QJsonObject &claim) {
    QList<AllocatedDevice> out;
    const QJsonObject spec = claim.value(QLatin1String("spec")).toObject();
    const QJsonArray results = claim.value(QLatin1String("status"))
                                   .toObject()
                                   .value(QLatin1String("allocation"))
                                   .toObject()
                                   .value(QLatin1String("devices"))
                                   .toObject()
                                   .value(QLatin1String("results"))
                                   .toArray();
    for (const QJsonValue &v : results) {
        const QJsonObject r = v.toObject();
        if (r.value(QLatin1String("adminAccess")).toBool())
            continue; // monitoring access to a device someone else holds
        AllocatedDevice d;
        d.request = r.value(QLatin1String("request")).toString();
        d.driver = r.value(QLatin1String("driver")).toString();
        d.pool = r.value(QLatin1String("pool")).toString();
        d.device = r.value(QLatin1String("device")).toString();
        d.deviceClass = requestClass(spec, d.request);
        d.consumedCapacity = numbers(r.value(QLatin1String("consumedCapacity")).toObject(), false);
        out.append(d);
    }
    return out;
}

QStringList reservedPods(const QJsonObject &claim) {
    QStringList out;
    for (const QJsonValue &v :
         claim.value(QLatin1String("status")).toObject().value(QLatin1String("reservedFor")).toArray()) {
        const QJsonObject r = v.toObject();
        if (r.value(QLatin1String("resource")).toString() == QLatin1String("pods"))
            out << r.value(QLatin1String("name")).toString();
    }
    return out;
}

double allocatedFraction(const AllocatedDevice &device, const DeviceFacts &facts) {
    double share = 0;
    for (auto it = device.consumedCapacity.cbegin(); it != device.consumedCapacity.cend(); ++it) {
        const double total = facts.capacity.value(it.key());
        if (total > 0)
            share = std::max(share, std::min(1.0, it.value() / total));
    }
    return share > 0 ? facts.fraction * share : facts.fraction;
}

bool isGpuDevice(const AllocatedDevice &device, const GpuClasses &gpuClasses) {
    return gpuClasses.isGpuClass(device.deviceClass) || isGpuDriver(device.driver);
}

int requestedGpuDevices(const QJsonObject &claimSpec, const GpuClasses &gpuClasses) {
    int total = 0;
    const auto isGpuClass = [&](const QString &c) { return gpuClasses.isGpuClass(c); };
    for (const QJsonValue &v :
         claimSpec.value(QLatin1String("devices")).toObject().value(QLatin1String("requests")).toArray()) {
        const QJsonObject r = v.toObject();
        const QJsonObject exactly = r.value(QLatin1String("exactly")).toObject();
        if (!exactly.isEmpty()) {
            if (isGpuClass(exactly.value(QLatin1String("deviceClassName")).toString()))
                total += requestCount(exactly);
            continue;
        }
        const QJsonArray first = r.value(QLatin1String("firstAvailable")).toArray();
        if (!first.isEmpty() &&
            isGpuClass(first.first().toObject().value(QLatin1String("deviceClassName")).toString()))
            total += requestCount(first.first().toObject());
    }
    return total;
}

} // namespace gq::dra
