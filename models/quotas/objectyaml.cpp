#include "models/quotas/objectyaml.h"

#include "core/domain/yamldoc.h"

namespace gq {

QJsonObject editableObject(const QJsonObject &object, const QString &kind) {
    QJsonObject o = object;
    if (!kind.isEmpty() && !o.contains(QLatin1String("kind")))
        o.insert(QLatin1String("kind"), kind);
    if (!o.contains(QLatin1String("apiVersion")))
        o.insert(QLatin1String("apiVersion"), QStringLiteral("v1"));
    o.remove(QLatin1String("status"));
    QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
    for (const char *k :
         {"resourceVersion", "uid", "managedFields", "creationTimestamp", "generation", "selfLink"})
        meta.remove(QLatin1String(k));
    o.insert(QLatin1String("metadata"), meta);
    return o;
}

QString editableYaml(const QJsonObject &object, const QString &kind) {
    return QString::fromUtf8(emitYaml(YamlNode::fromJson(editableObject(object, kind))));
}

QString resourceVersionOf(const QJsonObject &object) {
    return object.value(QLatin1String("metadata"))
        .toObject()
        .value(QLatin1String("resourceVersion"))
        .toString();
}

} // namespace gq
