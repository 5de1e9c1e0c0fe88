// JSON to the informer's compact views, and the pure functions informer.h exposes.
#include "core/kube/informer_p.h"

#include <QJsonArray>

namespace gq {

namespace {

QString metaString(const QJsonObject &meta, const char *key) {
    return meta.value(QLatin1String(key)).toString();
}

QDateTime parseTime(const QJsonValue &v) {
    const QString s = v.toString();
    if (s.isEmpty())
        return {};
    return QDateTime::fromString(s, Qt::ISODate);
}

QString internOr(detail::StringPool *pool, const QString &s) {
    return pool ? pool->intern(s) : s;
}

void addRequests(const QJsonObject &container, QHash<QString, Quantity> &into, bool sum) {
    const QJsonObject resources = container.value(QLatin1String("resources")).toObject();
    QJsonObject requests = resources.value(QLatin1String("requests")).toObject();
    const QJsonObject limits = resources.value(QLatin1String("limits")).toObject();
    // Extended resources may be given as limits only; the request then equals the limit.
    for (auto it = limits.constBegin(); it != limits.constEnd(); ++it) {
        if (!requests.contains(it.key()))
            requests.insert(it.key(), it.value());
    }
    for (auto it = requests.constBegin(); it != requests.constEnd(); ++it) {
        if (!isGpuResourceName(it.key()))
            continue;
        auto q = Quantity::parse(it.value().toString());
        if (!q)
            continue; // the API server validated it; a value we cannot read counts as none
        Quantity &slot = into[it.key()];
        if (sum) {
            if (auto total = slot.plus(*q))
                slot = *total;
        } else if (*q > slot) {
            slot = *q;
        }
    }
}

// spec.resourceClaims with the claim each names (status.resourceClaimStatuses for templates).
void decodePodClaims(const QJsonObject &spec, const QJsonObject &status, QList<PodClaim> &out) {
    const QJsonArray claims = spec.value(QLatin1String("resourceClaims")).toArray();
    if (claims.isEmpty())
        return;
    QHash<QString, QString> generated;
    for (const QJsonValue &v : status.value(QLatin1String("resourceClaimStatuses")).toArray()) {
        const QJsonObject o = v.toObject();
        generated.insert(o.value(QLatin1String("name")).toString(),
                         o.value(QLatin1String("resourceClaimName")).toString());
    }
    for (const QJsonValue &v : claims) {
        const QJsonObject o = v.toObject();
        PodClaim c;
        c.name = o.value(QLatin1String("name")).toString();
        c.templateName = o.value(QLatin1String("resourceClaimTemplateName")).toString();
        c.claimName = o.value(QLatin1String("resourceClaimName")).toString();
        if (c.claimName.isEmpty())
            c.claimName = generated.value(c.name);
        out.append(c);
    }
}

} // namespace

namespace detail {

NamespaceInfo decodeNamespace(const QJsonObject &object, StringPool *pool) {
    NamespaceInfo ns;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    ns.name = internOr(pool, metaString(meta, "name"));
    ns.uid = metaString(meta, "uid");
    ns.resourceVersion = metaString(meta, "resourceVersion");
    ns.creationTime = parseTime(meta.value(QLatin1String("creationTimestamp")));
    const QJsonObject labels = meta.value(QLatin1String("labels")).toObject();
    ns.labels.reserve(labels.size());
    for (auto it = labels.constBegin(); it != labels.constEnd(); ++it) // QJsonObject iterates sorted
        ns.labels.append({internOr(pool, it.key()), internOr(pool, it.value().toString())});
    ns.alertRecipients = meta.value(QLatin1String("annotations"))
                             .toObject()
                             .value(QLatin1String("gpuquota.io/alert-recipients"))
                             .toString();
    const QString phase =
        object.value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString();
    ns.phase = phase == QLatin1String("Active")        ? NamespaceInfo::Phase::Active
               : phase == QLatin1String("Terminating") ? NamespaceInfo::Phase::Terminating
                                                       : NamespaceInfo::Phase::Unknown;
    return ns;
}

PodInfo decodePod(const QJsonObject &object, const QString &userLabel, StringPool *pool,
                  const QString &userEmailKey) {
    PodInfo pod;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    pod.namespaceName = internOr(pool, metaString(meta, "namespace"));
    pod.name = metaString(meta, "name");
    pod.uid = metaString(meta, "uid");
    pod.resourceVersion = metaString(meta, "resourceVersion");
    pod.deletionTime = parseTime(meta.value(QLatin1String("deletionTimestamp")));
    pod.creationTime = parseTime(meta.value(QLatin1String("creationTimestamp")));
    if (const QJsonValue grace = meta.value(QLatin1String("deletionGracePeriodSeconds")); grace.isDouble())
        pod.deletionGraceSeconds = static_cast<qint64>(grace.toDouble());
    const QJsonObject labels = meta.value(QLatin1String("labels")).toObject();
    pod.user = internOr(pool, labels.value(userLabel).toString());
    if (!userEmailKey.isEmpty()) {
        pod.userEmail = labels.value(userEmailKey).toString();
        if (pod.userEmail.isEmpty())
            pod.userEmail =
                meta.value(QLatin1String("annotations")).toObject().value(userEmailKey).toString();
    }
    const QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    pod.nodeName = internOr(pool, spec.value(QLatin1String("nodeName")).toString());
    const QJsonObject status = object.value(QLatin1String("status")).toObject();
    const QString phase = status.value(QLatin1String("phase")).toString();
    using P = PodInfo::Phase;
    pod.phase = phase == QLatin1String("Pending")     ? P::Pending
                : phase == QLatin1String("Running")   ? P::Running
                : phase == QLatin1String("Succeeded") ? P::Succeeded
                : phase == QLatin1String("Failed")    ? P::Failed
                                                      : P::Unknown;
    pod.startTime = parseTime(status.value(QLatin1String("startTime")));
    // Only app containers: init containers run before them and hold the same GPUs in
    // the scheduler's count, but the pod's GPU time is counted from the app start.
    const QJsonArray containerStatuses = status.value(QLatin1String("containerStatuses")).toArray();
    bool allTerminated = !containerStatuses.isEmpty();
    for (const QJsonValue &cs : containerStatuses) {
        const QJsonObject state = cs.toObject().value(QLatin1String("state")).toObject();
        const QJsonObject running = state.value(QLatin1String("running")).toObject();
        const QJsonObject terminated = state.value(QLatin1String("terminated")).toObject();
        // A restarted container's current run starts late; the run before it (the only
        // earlier one the status keeps) started earlier, and the pod held its GPUs
        // across the restart.
        const QJsonObject previous = cs.toObject()
                                         .value(QLatin1String("lastState"))
                                         .toObject()
                                         .value(QLatin1String("terminated"))
                                         .toObject();
        for (const QJsonObject *s : {&running, &terminated, &previous}) {
            const QDateTime started = parseTime(s->value(QLatin1String("startedAt")));
            if (started.isValid() && (!pod.containersStarted.isValid() || started < pod.containersStarted))
                pod.containersStarted = started;
        }
        const QDateTime finished = parseTime(terminated.value(QLatin1String("finishedAt")));
        if (!finished.isValid()) {
            allTerminated = false;
        } else if (!pod.containersFinished.isValid() || finished > pod.containersFinished) {
            pod.containersFinished = finished;
        }
    }
    if (!allTerminated)
        pod.containersFinished = {};

    // Effective request: max(sum of app containers + sidecars, largest plain init container).
    QHash<QString, Quantity> sum;
    QHash<QString, Quantity> initMax;
    for (const QJsonValue &c : spec.value(QLatin1String("containers")).toArray())
        addRequests(c.toObject(), sum, true);
    for (const QJsonValue &c : spec.value(QLatin1String("initContainers")).toArray()) {
        const QJsonObject ic = c.toObject();
        const bool sidecar = ic.value(QLatin1String("restartPolicy")).toString() == QLatin1String("Always");
        addRequests(ic, sidecar ? sum : initMax, sidecar);
    }
    for (auto it = initMax.constBegin(); it != initMax.constEnd(); ++it) {
        if (it.value() > sum.value(it.key()))
            sum.insert(it.key(), it.value());
    }
    QStringList names = sum.keys();
    names.sort();
    for (const QString &n : names) {
        if (!sum.value(n).isZero())
            pod.gpus.append({internOr(pool, n), sum.value(n)});
    }
    decodePodClaims(spec, status, pod.claims);
    return pod;
}

StoredObject decodeStored(const QJsonObject &object, StringPool *pool) {
    StoredObject s;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    s.namespaceName = internOr(pool, metaString(meta, "namespace"));
    s.name = metaString(meta, "name");
    s.resourceVersion = metaString(meta, "resourceVersion");
    s.object = object;
    return s;
}

} // namespace detail

QString NamespaceInfo::label(const QString &key) const {
    for (const auto &kv : labels) {
        if (kv.first == key)
            return kv.second;
    }
    return {};
}

QString podPhaseName(PodInfo::Phase phase) {
    switch (phase) {
    case PodInfo::Phase::Pending: return QStringLiteral("Pending");
    case PodInfo::Phase::Running: return QStringLiteral("Running");
    case PodInfo::Phase::Succeeded: return QStringLiteral("Succeeded");
    case PodInfo::Phase::Failed: return QStringLiteral("Failed");
    case PodInfo::Phase::Unknown: break;
    }
    return QStringLiteral("Unknown");
}

bool isGpuResourceName(const QString &resource) {
    return resource == QLatin1String("nvidia.com/gpu") ||
           resource == QLatin1String("nvidia.com/gpu.shared") ||
           resource.startsWith(QLatin1String("nvidia.com/mig-")) ||
           resource == QLatin1String("amd.com/gpu") || resource.startsWith(QLatin1String("gpu.intel.com/"));
}

NamespaceInfo namespaceInfoFromJson(const QJsonObject &object) {
    return detail::decodeNamespace(object, nullptr);
}

PodInfo podInfoFromJson(const QJsonObject &object, const QString &userLabel) {
    return detail::decodePod(object, userLabel, nullptr);
}

} // namespace gq
