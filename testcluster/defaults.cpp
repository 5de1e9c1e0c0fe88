#include "testcluster/admission.h"
#include "testcluster/resourcemath.h"
#include "testcluster/scheduler.h"
#include "testcluster/webhooks.h"

// Decoding checks and defaulting, before validation and admission.

namespace gq::tc {

namespace {

const QLatin1String kQuantityRegexText("quantities must match the regular expression "
                                       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");

// The namespace's name label, its finalizer and phase.
void defaultNamespace(QJsonObject &object, QJsonObject &meta, QJsonObject &spec) {
    QJsonObject labels = meta.value(QLatin1String("labels")).toObject();
    labels.insert(QLatin1String("kubernetes.io/metadata.name"), meta.value(QLatin1String("name")));
    meta.insert(QLatin1String("labels"), labels);
    if (!spec.contains(QLatin1String("finalizers")))
        spec.insert(QLatin1String("finalizers"), QJsonArray{QStringLiteral("kubernetes")});
    QJsonObject status = object.value(QLatin1String("status")).toObject();
    if (status.value(QLatin1String("phase")).toString().isEmpty())
        status.insert(QLatin1String("phase"), QLatin1String("Active"));
    object.insert(QLatin1String("status"), status);
}

// SetDefaults_LimitRangeItem for a Container item: default <- max, defaultRequest <-
// default, then min.
void defaultContainerLimits(QJsonObject &item) {
    QJsonObject def = item.value(QLatin1String("default")).toObject();
    QJsonObject defReq = item.value(QLatin1String("defaultRequest")).toObject();
    const QJsonObject max = item.value(QLatin1String("max")).toObject();
    const QJsonObject min = item.value(QLatin1String("min")).toObject();
    for (auto it = max.begin(); it != max.end(); ++it) {
        if (!def.contains(it.key()))
            def.insert(it.key(), it.value());
    }
    for (auto it = def.begin(); it != def.end(); ++it) {
        if (!defReq.contains(it.key()))
            defReq.insert(it.key(), it.value());
    }
    for (auto it = min.begin(); it != min.end(); ++it) {
        if (!defReq.contains(it.key()))
            defReq.insert(it.key(), it.value());
    }
    if (!def.isEmpty())
        item.insert(QLatin1String("default"), def);
    if (!defReq.isEmpty())
        item.insert(QLatin1String("defaultRequest"), defReq);
}

// A container's resources (canonical, a request for every limit), pull policy and
// termination message.
void defaultContainer(QJsonObject &c) {
    QJsonObject res = c.value(QLatin1String("resources")).toObject();
    QJsonObject limits = canonicalList(res.value(QLatin1String("limits")).toObject());
    QJsonObject requests = canonicalList(res.value(QLatin1String("requests")).toObject());
    // SetDefaults_Pod: a limit without a request implies an equal request.
    for (auto it = limits.begin(); it != limits.end(); ++it) {
        if (!requests.contains(it.key()))
            requests.insert(it.key(), it.value());
    }
    res = QJsonObject();
    if (!limits.isEmpty())
        res.insert(QLatin1String("limits"), limits);
    if (!requests.isEmpty())
        res.insert(QLatin1String("requests"), requests);
    c.insert(QLatin1String("resources"), res);
    const QString image = c.value(QLatin1String("image")).toString();
    if (!c.contains(QLatin1String("imagePullPolicy"))) {
        const bool latest = !image.section(QLatin1Char('/'), -1).contains(QLatin1Char(':')) ||
                            image.endsWith(QLatin1String(":latest"));
        c.insert(QLatin1String("imagePullPolicy"),
                 latest ? QLatin1String("Always") : QLatin1String("IfNotPresent"));
    }
    if (!c.contains(QLatin1String("terminationMessagePath")))
        c.insert(QLatin1String("terminationMessagePath"), QLatin1String("/dev/termination-log"));
    if (!c.contains(QLatin1String("terminationMessagePolicy")))
        c.insert(QLatin1String("terminationMessagePolicy"), QLatin1String("File"));
}

void defaultPodSpec(QJsonObject &spec) {
    if (!spec.contains(QLatin1String("restartPolicy")))
        spec.insert(QLatin1String("restartPolicy"), QLatin1String("Always"));
    if (!spec.contains(QLatin1String("dnsPolicy")))
        spec.insert(QLatin1String("dnsPolicy"), QLatin1String("ClusterFirst"));
    if (!spec.contains(QLatin1String("schedulerName")))
        spec.insert(QLatin1String("schedulerName"), QLatin1String("default-scheduler"));
    if (!spec.contains(QLatin1String("terminationGracePeriodSeconds")))
        spec.insert(QLatin1String("terminationGracePeriodSeconds"), 30);
    if (!spec.contains(QLatin1String("securityContext")))
        spec.insert(QLatin1String("securityContext"), QJsonObject());
    if (!spec.contains(QLatin1String("priority")))
        spec.insert(QLatin1String("priority"), 0);
}

} // namespace

std::optional<ApiError> checkDecodable(Resource r, const QJsonObject &object) {
    QString bad;
    const QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    if (r == Resource::Lease)
        return checkLeaseDecodable(object);
    if (r == Resource::ResourceQuota) {
        bad = badQuantityPath(spec.value(QLatin1String("hard")).toObject(), QStringLiteral("spec.hard"));
    } else if (r == Resource::LimitRange) {
        const QJsonArray limits = spec.value(QLatin1String("limits")).toArray();
        for (qsizetype i = 0; i < limits.size() && bad.isEmpty(); ++i) {
            for (const char *f : {"max", "min", "default", "defaultRequest", "maxLimitRequestRatio"}) {
                bad = badQuantityPath(limits.at(i).toObject().value(QLatin1String(f)).toObject(), QString());
                if (!bad.isEmpty())
                    break;
            }
        }
    } else if (r == Resource::Pod) {
        for (bool init : {false, true}) {
            for (const QJsonValue &c : containersOf(spec, init)) {
                const QJsonObject res = c.toObject().value(QLatin1String("resources")).toObject();
                for (const char *f : {"requests", "limits"}) {
                    if (bad.isEmpty())
                        bad = badQuantityPath(res.value(QLatin1String(f)).toObject(), QString());
                }
            }
        }
    }
    if (bad.isEmpty())
        return std::nullopt;
    const QString kind = resourceInfo(r).kind;
    return ApiError::badRequest(kind + QStringLiteral(" in version \"v1\" cannot be handled as a ") + kind +
                                QStringLiteral(": ") + kQuantityRegexText);
}

void applyDefaults(Resource r, QJsonObject &object) {
    QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    // Go's omitempty: empty maps and lists in metadata are not sent.
    for (const char *key : {"labels", "annotations", "finalizers", "ownerReferences"}) {
        const QJsonValue v = meta.value(QLatin1String(key));
        if ((v.isObject() && v.toObject().isEmpty()) || (v.isArray() && v.toArray().isEmpty()) || v.isNull())
            meta.remove(QLatin1String(key));
    }
    QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    switch (r) {
    case Resource::Namespace: defaultNamespace(object, meta, spec); break;
    case Resource::ResourceQuota:
        if (spec.contains(QLatin1String("hard")))
            spec.insert(QLatin1String("hard"), canonicalList(spec.value(QLatin1String("hard")).toObject()));
        break;
    case Resource::LimitRange: {
        QJsonArray limits = spec.value(QLatin1String("limits")).toArray();
        for (qsizetype i = 0; i < limits.size(); ++i) {
            QJsonObject item = limits.at(i).toObject();
            for (const char *f : {"max", "min", "default", "defaultRequest", "maxLimitRequestRatio"}) {
                if (item.contains(QLatin1String(f)))
                    item.insert(QLatin1String(f), canonicalList(item.value(QLatin1String(f)).toObject()));
            }
            if (item.value(QLatin1String("type")).toString() == QLatin1String("Container"))
                defaultContainerLimits(item);
            limits[i] = item;
        }
        spec.insert(QLatin1String("limits"), limits);
        break;
    }
    case Resource::Pod: {
        for (const char *field : {"containers", "initContainers"}) {
            if (!spec.contains(QLatin1String(field)))
                continue;
            QJsonArray containers = spec.value(QLatin1String(field)).toArray();
            for (qsizetype i = 0; i < containers.size(); ++i) {
                QJsonObject c = containers.at(i).toObject();
                defaultContainer(c);
                containers[i] = c;
            }
            spec.insert(QLatin1String(field), containers);
        }
        defaultPodSpec(spec);
        break;
    }
    case Resource::ValidatingWebhookConfiguration: defaultWebhookConfiguration(object); break;
    case Resource::Node: defaultNode(object); break;
    default: break;
    }
    object.insert(QLatin1String("metadata"), meta);
    switch (r) {
    case Resource::Namespace:
    case Resource::ResourceQuota:
    case Resource::LimitRange:
    case Resource::Pod:
    case Resource::Service:
    case Resource::Node:
    case Resource::Deployment:
    case Resource::CronJob:
    case Resource::Lease:
    case Resource::ResourceFlavor:
    case Resource::ClusterQueue:
    case Resource::LocalQueue:
    case Resource::Cohort:
    case Resource::Workload:
    case Resource::ResourceClaim:
    case Resource::ResourceClaimTemplate:
    case Resource::ResourceSlice:
    case Resource::DeviceClass: object.insert(QLatin1String("spec"), spec); break;
    // Events, ConfigMaps, Secrets, RBAC objects and webhook configurations have no spec.
    default: object.remove(QLatin1String("spec")); break;
    }
}

} // namespace gq::tc
