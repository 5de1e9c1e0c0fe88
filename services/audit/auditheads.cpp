#include "services/audit/auditheads.h"

#include "core/kube/kubeclient.h"

namespace gq::auditheads {

namespace {

// The head an object publishes: the annotation, or the ConfigMap's data.head.
std::optional<AuditHead> headOf(const QJsonObject &object) {
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    QString text = meta.value(QLatin1String("annotations"))
                       .toObject()
                       .value(QLatin1String(kAuditHeadAnnotation))
                       .toString();
    if (text.isEmpty() && meta.value(QLatin1String("name")).toString() == kConfigMapName)
        text = object.value(QLatin1String("data")).toObject().value(QLatin1String("head")).toString();
    if (text.isEmpty())
        return std::nullopt;
    auto head = AuditHead::parse(text);
    if (!head || head->count <= 0)
        return std::nullopt;
    return *head;
}

} // namespace

std::optional<Published> newestIn(const QList<QJsonObject> &objects) {
    std::optional<Published> best;
    for (const QJsonObject &o : objects) {
        const auto head = headOf(o);
        if (!head || (best && best->head.count >= head->count))
            continue;
        const QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
        QString kind = o.value(QLatin1String("kind")).toString();
        if (kind.isEmpty())
            kind = meta.value(QLatin1String("name")).toString() == kConfigMapName
                       ? QStringLiteral("ConfigMap")
                       : QStringLiteral("object");
        best = Published{*head, QStringLiteral("%1 %2/%3")
                                    .arg(kind, meta.value(QLatin1String("namespace")).toString(),
                                         meta.value(QLatin1String("name")).toString())};
    }
    return best;
}

Result<std::optional<Published>> newestFromCluster(KubeClient &client, const QString &controllerNamespace,
                                                   QStringList *skipped) {
    QList<QJsonObject> objects;
    for (const KubeResource *kind : {&KubeResource::resourceQuotas(), &KubeResource::limitRanges()}) {
        auto list = client.list(*kind, QString());
        list.waitForFinished();
        const auto r = list.result();
        if (!r) {
            if (r.error().kind != Error::Kind::Forbidden)
                return r.error();
            skipped->append(QStringLiteral("%1 (not allowed to list them)").arg(kind->plural));
            continue;
        }
        for (QJsonObject item : r->items) {
            item.insert(QStringLiteral("kind"), kind->kind);
            objects.append(item);
        }
    }
    auto cm = client.get(KubeResource::configMaps(), controllerNamespace, kConfigMapName);
    cm.waitForFinished();
    if (const auto r = cm.result(); r) {
        QJsonObject o = *r;
        o.insert(QStringLiteral("kind"), QStringLiteral("ConfigMap"));
        objects.append(o);
    } else if (r.error().kind != Error::Kind::NotFound) {
        skipped->append(QStringLiteral("ConfigMap %1/%2 (%3)")
                            .arg(controllerNamespace, kConfigMapName, r.error().message));
    }
    return newestIn(objects);
}

QJsonObject configMap(const QString &ns, const AuditHead &head) {
    return QJsonObject{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), kConfigMapName},
                     {QStringLiteral("namespace"), ns},
                     {QStringLiteral("labels"), QJsonObject{{QStringLiteral("app.kubernetes.io/managed-by"),
                                                             QStringLiteral("gpuquota-controller")}}}}},
        {QStringLiteral("data"), QJsonObject{{QStringLiteral("head"), head.toText()}}}};
}

QJsonObject dataPatch(const AuditHead &head) {
    return QJsonObject{{QStringLiteral("data"), QJsonObject{{QStringLiteral("head"), head.toText()}}}};
}

} // namespace gq::auditheads
