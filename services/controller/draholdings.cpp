#include "services/controller/draholdings.h"

#include <QJsonArray>
#include <QLoggingCategory>

#include <map>
#include <tuple>

Q_LOGGING_CATEGORY(lcDra, "gq.controller.dra")

namespace gq {

std::vector<DraHold> draHoldsFor(const PodInfo &pod, const QHash<QString, QJsonObject> &claims,
                                 const QHash<QString, dra::DeviceFacts> &devices,
                                 const dra::GpuClasses &gpuClasses) {
    // Ordered so a pod's holds, and the names of same-class holds, never change order.
    std::map<std::tuple<QString, QString, QString, double>, DraHold> groups;
    for (const PodClaim &pc : pod.claims) {
        if (pc.claimName.isEmpty())
            continue;
        const QString key = pod.namespaceName + QLatin1Char('/') + pc.claimName;
        const auto claim = claims.constFind(key);
        if (claim == claims.constEnd())
            continue;
        const QString named = pc.templateName.isEmpty() ? key : QString();
        for (const dra::AllocatedDevice &d : dra::allocatedDevices(*claim)) {
            if (!dra::isGpuDevice(d, gpuClasses))
                continue;
            const dra::DeviceFacts facts = devices.value(dra::deviceKey(d.driver, d.pool, d.device));
            DraHold &hold = groups[{named, d.deviceClass, facts.gpuModel, dra::allocatedFraction(d, facts)}];
            hold.resource = dra::quotaKey(d.deviceClass.isEmpty() ? d.driver : d.deviceClass);
            hold.claim = named;
            hold.weight = dra::allocatedFraction(d, facts);
            hold.gpuModel = facts.gpuModel;
            ++hold.devices;
        }
    }
    std::vector<DraHold> out;
    QHash<QString, int> seen;
    for (auto &[key, hold] : groups) {
        // One interval per pod and resource: a second hold of the same class is named apart.
        if (const int n = seen[hold.resource]++; n > 0)
            hold.resource += QStringLiteral("#%1").arg(n + 1);
        out.push_back(hold);
    }
    return out;
}

namespace {

double devicesOf(const QJsonObject &claim, const QHash<QString, dra::DeviceFacts> &devices,
                 const dra::GpuClasses &gpuClasses) {
    const QList<dra::AllocatedDevice> allocated = dra::allocatedDevices(claim);
    if (allocated.isEmpty())
        return dra::requestedGpuDevices(claim.value(QLatin1String("spec")).toObject(), gpuClasses);
    double gpus = 0;
    for (const dra::AllocatedDevice &d : allocated)
        if (dra::isGpuDevice(d, gpuClasses))
            gpus += dra::allocatedFraction(d, devices.value(dra::deviceKey(d.driver, d.pool, d.device)));
    return gpus;
}

} // namespace

double draRequestedGpus(const QJsonObject &pod, const QString &ns,
                        const QHash<QString, QJsonObject> &templates,
                        const QHash<QString, QJsonObject> &claims,
                        const QHash<QString, dra::DeviceFacts> &devices, const dra::GpuClasses &gpuClasses) {
    double gpus = 0;
    const QJsonArray entries =
        pod.value(QLatin1String("spec")).toObject().value(QLatin1String("resourceClaims")).toArray();
    for (const QJsonValue &v : entries) {
        const QJsonObject entry = v.toObject();
        const QString tmpl = entry.value(QLatin1String("resourceClaimTemplateName")).toString();
        if (!tmpl.isEmpty()) {
            const QJsonObject t = templates.value(ns + QLatin1Char('/') + tmpl);
            gpus += dra::requestedGpuDevices(
                t.value(QLatin1String("spec")).toObject().value(QLatin1String("spec")).toObject(),
                gpuClasses);
            continue;
        }
        const QString name = entry.value(QLatin1String("resourceClaimName")).toString();
        const auto claim = claims.constFind(ns + QLatin1Char('/') + name);
        if (name.isEmpty() || claim == claims.constEnd() || !dra::reservedPods(*claim).isEmpty())
            continue;
        gpus += devicesOf(*claim, devices, gpuClasses);
    }
    return gpus;
}

DraWatch::DraWatch(std::shared_ptr<KubeClient> client, QSet<QString> gpuClasses, QObject *parent)
    : QObject(parent)
    , m_configuredClasses(gpuClasses)
    , m_gpuClasses(std::move(gpuClasses))
    , m_claims(std::make_unique<ObjectInformer>(client, dra::resourceClaims()))
    , m_classes(std::make_unique<ObjectInformer>(client, dra::deviceClasses()))
    , m_slices(std::make_unique<ObjectInformer>(client, dra::resourceSlices()))
    , m_templates(std::make_unique<ObjectInformer>(client, dra::resourceClaimTemplates())) {
    m_claims->setBatchInterval(0);
    connect(m_claims.get(), &Informer::changed, this, &DraWatch::takeSnapshot);
    connect(m_claims.get(), &Informer::changed, this, &DraWatch::changed);
    connect(m_templates.get(), &Informer::changed, this, &DraWatch::takeSnapshot);
    connect(m_templates.get(), &Informer::errorOccurred, this, &DraWatch::onError);
    connect(m_slices.get(), &Informer::changed, this, &DraWatch::onSlicesChanged);
    connect(m_claims.get(), &Informer::errorOccurred, this, &DraWatch::onError);
    connect(m_slices.get(), &Informer::errorOccurred, this, &DraWatch::onError);
    connect(m_classes.get(), &Informer::changed, this, &DraWatch::onClassesChanged);
    // Without DeviceClasses the configured names and the name rule decide: not fatal.
    connect(m_classes.get(), &Informer::errorOccurred, this, [this](const Error &error) {
        if (error.httpStatus != 403 && error.httpStatus != 404)
            return;
        qCWarning(lcDra) << "cannot list DeviceClasses - GPU classes by configuration and name only";
        disconnect(m_classes.get(), nullptr, this, nullptr);
        m_classes->stop();
    });
    m_classSnapshot = m_gpuClasses;
    dra::setCurrentGpuClasses(m_gpuClasses);
}

DraWatch::~DraWatch() = default;

void DraWatch::start() {
    m_classes->start();
    m_slices->start();
    m_claims->start();
    m_templates->start();
}

void DraWatch::stop() {
    if (m_stopped)
        return;
    m_stopped = true;
    disconnect(m_claims.get(), nullptr, this, nullptr);
    disconnect(m_slices.get(), nullptr, this, nullptr);
    disconnect(m_templates.get(), nullptr, this, nullptr);
    disconnect(m_classes.get(), nullptr, this, nullptr);
    m_classes->stop();
    m_claims->stop();
    m_slices->stop();
    m_templates->stop();
}

void DraWatch::onSlicesChanged() {
    m_devices = dra::indexSlices(m_slices->objects());
    takeSnapshot();
    Q_EMIT changed();
}

void DraWatch::onClassesChanged() {
    QList<QJsonObject> classes;
    for (const StoredObject &o : m_classes->objects())
        classes << o.object;
    m_gpuClasses = dra::GpuClasses::fromDeviceClasses(classes, m_configuredClasses);
    dra::setCurrentGpuClasses(m_gpuClasses);
    takeSnapshot();
    Q_EMIT changed();
}

void DraWatch::takeSnapshot() {
    auto wholeObjects = [](const QHash<QString, StoredObject> &in) {
        QHash<QString, QJsonObject> out;
        out.reserve(in.size());
        for (auto it = in.cbegin(); it != in.cend(); ++it)
            out.insert(it.key(), it->object);
        return out;
    };
    QHash<QString, QJsonObject> claims = wholeObjects(m_claims->objectMap());
    QHash<QString, QJsonObject> templates = wholeObjects(m_templates->objectMap());
    const QMutexLocker lock(&m_snapshotMutex);
    m_claimSnapshot.swap(claims);
    m_templateSnapshot.swap(templates);
    m_deviceSnapshot = m_devices;
    m_classSnapshot = m_gpuClasses;
}

double DraWatch::requestedGpus(const QJsonObject &pod, const QString &ns) const {
    const QMutexLocker lock(&m_snapshotMutex);
    return draRequestedGpus(pod, ns, m_templateSnapshot, m_claimSnapshot, m_deviceSnapshot, m_classSnapshot);
}

void DraWatch::onError(const Error &error) {
    if ((error.httpStatus != 404 && error.httpStatus != 403) || m_stopped)
        return;
    qCWarning(lcDra).noquote() << (error.httpStatus == 404
                                       ? QStringLiteral("the cluster does not serve resource.k8s.io/v1")
                                       : QStringLiteral(
                                             "no permission to list ResourceClaims or ResourceSlices"))
                               << "- GPUs from DRA claims are not recorded";
    stop();
}

std::vector<DraHold> DraWatch::holdsFor(const PodInfo &pod) const {
    if (pod.claims.isEmpty() || m_stopped)
        return {};
    QHash<QString, QJsonObject> claims;
    for (const PodClaim &pc : pod.claims) {
        if (pc.claimName.isEmpty())
            continue;
        if (const auto c = m_claims->object(pod.namespaceName, pc.claimName))
            claims.insert(pod.namespaceName + QLatin1Char('/') + pc.claimName, c->object);
    }
    return draHoldsFor(pod, claims, m_devices, m_gpuClasses);
}

} // namespace gq
