#include "core/kube/kuberequest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

namespace gq {

QString KubeResource::apiVersion() const {
    return group.isEmpty() ? version : QString(group + QLatin1Char('/') + version);
}

QString KubeResource::path(const QString &ns, const QString &name, const QString &subresource) const {
    auto enc = [](const QString &s) { return QString::fromLatin1(QUrl::toPercentEncoding(s)); };
    QString p = group.isEmpty() ? QString(QStringLiteral("/api/") + version)
                                : QString(QStringLiteral("/apis/") + group + QLatin1Char('/') + version);
    if (namespaced && !ns.isEmpty())
        p += QStringLiteral("/namespaces/") + enc(ns);
    p += QLatin1Char('/') + plural;
    if (!name.isEmpty()) {
        p += QLatin1Char('/') + enc(name);
        if (!subresource.isEmpty())
            p += QLatin1Char('/') + subresource;
    }
    return p;
}

const KubeResource &KubeResource::namespaces() {
    static const KubeResource r{
        {}, QStringLiteral("v1"), QStringLiteral("namespaces"), QStringLiteral("Namespace"), false};
    return r;
}
const KubeResource &KubeResource::resourceQuotas() {
    static const KubeResource r{
        {}, QStringLiteral("v1"), QStringLiteral("resourcequotas"), QStringLiteral("ResourceQuota"), true};
    return r;
}
const KubeResource &KubeResource::limitRanges() {
    static const KubeResource r{
        {}, QStringLiteral("v1"), QStringLiteral("limitranges"), QStringLiteral("LimitRange"), true};
    return r;
}
const KubeResource &KubeResource::pods() {
    static const KubeResource r{
        {}, QStringLiteral("v1"), QStringLiteral("pods"), QStringLiteral("Pod"), true};
    return r;
}
const KubeResource &KubeResource::events() {
    static const KubeResource r{
        {}, QStringLiteral("v1"), QStringLiteral("events"), QStringLiteral("Event"), true};
    return r;
}

const KubeResource &KubeResource::configMaps() {
    static const KubeResource r{
        {}, QStringLiteral("v1"), QStringLiteral("configmaps"), QStringLiteral("ConfigMap"), true};
    return r;
}

const KubeResource *KubeResource::find(const QString &nameOrKind) {
    const QString n = nameOrKind.toLower();
    struct Alias {
        const KubeResource *r;
        QStringList names;
    };
    const Alias aliases[] = {
        {&namespaces(), {QStringLiteral("namespaces"), QStringLiteral("namespace"), QStringLiteral("ns")}},
        {&resourceQuotas(),
         {QStringLiteral("resourcequotas"), QStringLiteral("resourcequota"), QStringLiteral("quota"),
          QStringLiteral("quotas")}},
        {&limitRanges(),
         {QStringLiteral("limitranges"), QStringLiteral("limitrange"), QStringLiteral("limits")}},
        {&pods(), {QStringLiteral("pods"), QStringLiteral("pod"), QStringLiteral("po")}},
        {&events(), {QStringLiteral("events"), QStringLiteral("event"), QStringLiteral("ev")}},
    };
    for (const Alias &a : aliases) {
        if (a.names.contains(n))
            return a.r;
    }
    return nullptr;
}

QString KubeRequest::describe() const {
    return methodName(method) + QLatin1Char(' ') + path;
}

QJsonObject KubeResponse::json() const {
    return QJsonDocument::fromJson(body).object();
}

QJsonObject ObjectList::toListJson(const KubeResource &resource) const {
    QJsonArray array;
    for (QJsonObject item : items) {
        // Items of a typed list carry no kind/apiVersion; a v1 List's items must.
        item.insert(QStringLiteral("apiVersion"), resource.apiVersion());
        item.insert(QStringLiteral("kind"), resource.kind);
        array.append(item);
    }
    return QJsonObject{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("items"), array},
        {QStringLiteral("kind"), QStringLiteral("List")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("resourceVersion"), QString()}}}};
}

} // namespace gq
