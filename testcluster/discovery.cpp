#include "testcluster/apicall.h"
#include "testcluster/protobuf.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>

// Discovery and the documents clients fetch before any API call: /version, /api,
// /apis and the groups' resource lists, and the OpenAPI v2/v3 documents.

namespace gq::tc {

namespace {

QByteArray discoveryCoreV1() {
    auto res = [](const QString &name, const QString &singular, bool namespaced, const QString &kind,
                  const QStringList &verbs, const QStringList &shortNames,
                  const QStringList &categories = {}) {
        QJsonObject o;
        o.insert(QLatin1String("name"), name);
        o.insert(QLatin1String("singularName"), singular);
        o.insert(QLatin1String("namespaced"), namespaced);
        o.insert(QLatin1String("kind"), kind);
        o.insert(QLatin1String("verbs"), QJsonArray::fromStringList(verbs));
        if (!shortNames.isEmpty())
            o.insert(QLatin1String("shortNames"), QJsonArray::fromStringList(shortNames));
        if (!categories.isEmpty())
            o.insert(QLatin1String("categories"), QJsonArray::fromStringList(categories));
        if (!singular.isEmpty())
            o.insert(
                QLatin1String("storageVersionHash"),
                QString::fromLatin1(
                    QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha256).left(8).toBase64()));
        return o;
    };
    const QStringList all = {
        QStringLiteral("create"), QStringLiteral("delete"), QStringLiteral("deletecollection"),
        QStringLiteral("get"),    QStringLiteral("list"),   QStringLiteral("patch"),
        QStringLiteral("update"), QStringLiteral("watch")};
    const QStringList nsVerbs = {QStringLiteral("create"), QStringLiteral("delete"), QStringLiteral("get"),
                                 QStringLiteral("list"),   QStringLiteral("patch"),  QStringLiteral("update"),
                                 QStringLiteral("watch")};
    const QStringList statusVerbs = {QStringLiteral("get"), QStringLiteral("patch"),
                                     QStringLiteral("update")};
    QJsonArray resources{
        res(QStringLiteral("configmaps"), QStringLiteral("configmap"), true, QStringLiteral("ConfigMap"), all,
            {QStringLiteral("cm")}),
        res(QStringLiteral("events"), QStringLiteral("event"), true, QStringLiteral("Event"), all,
            {QStringLiteral("ev")}),
        res(QStringLiteral("limitranges"), QStringLiteral("limitrange"), true, QStringLiteral("LimitRange"),
            all, {QStringLiteral("limits")}),
        res(QStringLiteral("namespaces"), QStringLiteral("namespace"), false, QStringLiteral("Namespace"),
            nsVerbs, {QStringLiteral("ns")}),
        res(QStringLiteral("namespaces/finalize"), {}, false, QStringLiteral("Namespace"),
            {QStringLiteral("update")}, {}),
        res(QStringLiteral("namespaces/status"), {}, false, QStringLiteral("Namespace"), statusVerbs, {}),
        res(QStringLiteral("nodes"), QStringLiteral("node"), false, QStringLiteral("Node"), all,
            {QStringLiteral("no")}),
        res(QStringLiteral("nodes/status"), {}, false, QStringLiteral("Node"), statusVerbs, {}),
        res(QStringLiteral("pods"), QStringLiteral("pod"), true, QStringLiteral("Pod"), all,
            {QStringLiteral("po")}, {QStringLiteral("all")}),
        res(QStringLiteral("pods/proxy"), {}, true, QStringLiteral("PodProxyOptions"),
            {QStringLiteral("create"), QStringLiteral("delete"), QStringLiteral("get"),
             QStringLiteral("patch"), QStringLiteral("update")},
            {}),
        res(QStringLiteral("pods/status"), {}, true, QStringLiteral("Pod"), statusVerbs, {}),
        res(QStringLiteral("resourcequotas"), QStringLiteral("resourcequota"), true,
            QStringLiteral("ResourceQuota"), all, {QStringLiteral("quota")}),
        res(QStringLiteral("resourcequotas/status"), {}, true, QStringLiteral("ResourceQuota"), statusVerbs,
            {}),
        res(QStringLiteral("secrets"), QStringLiteral("secret"), true, QStringLiteral("Secret"), all, {}),
        res(QStringLiteral("serviceaccounts"), QStringLiteral("serviceaccount"), true,
            QStringLiteral("ServiceAccount"), all, {QStringLiteral("sa")}),
        res(QStringLiteral("services"), QStringLiteral("service"), true, QStringLiteral("Service"), nsVerbs,
            {QStringLiteral("svc")}, {QStringLiteral("all")}),
    };
    QJsonObject list;
    list.insert(QLatin1String("kind"), QLatin1String("APIResourceList"));
    list.insert(QLatin1String("groupVersion"), QLatin1String("v1"));
    list.insert(QLatin1String("resources"), resources);
    return toCompactJson(list);
}

// The groups beside the core one whose kinds are stored (see store.h), in /apis order.
QStringList storedGroups() {
    QStringList groups;
    for (int i = 0; i < kResourceCount; ++i) {
        const QString g = resourceInfo(static_cast<Resource>(i)).group;
        if (!g.isEmpty() && !groups.contains(g))
            groups.append(g);
    }
    groups.sort();
    return groups;
}

// The version a stored group is served at: its kinds' (v1, or v1beta2 for Kueue's).
QString storedGroupVersion(const QString &group) {
    for (int i = 0; i < kResourceCount; ++i) {
        const ResourceInfo &info = resourceInfo(static_cast<Resource>(i));
        if (info.group == group)
            return info.version;
    }
    return QStringLiteral("v1");
}

// The APIResourceList of one stored group's version, from the resource table.
QByteArray discoveryStoredGroup(const QString &group) {
    QJsonArray resources;
    for (int i = 0; i < kResourceCount; ++i) {
        const ResourceInfo &info = resourceInfo(static_cast<Resource>(i));
        if (info.group != group)
            continue;
        QJsonObject o;
        o.insert(QLatin1String("name"), info.plural);
        o.insert(QLatin1String("singularName"), info.singular);
        o.insert(QLatin1String("namespaced"), info.namespaced);
        o.insert(QLatin1String("kind"), info.kind);
        o.insert(QLatin1String("verbs"),
                 QJsonArray{QStringLiteral("create"), QStringLiteral("delete"),
                            QStringLiteral("deletecollection"), QStringLiteral("get"), QStringLiteral("list"),
                            QStringLiteral("patch"), QStringLiteral("update"), QStringLiteral("watch")});
        if (!info.shortNames.isEmpty())
            o.insert(QLatin1String("shortNames"), QJsonArray::fromStringList(info.shortNames));
        if (info.resource == Resource::Deployment || info.resource == Resource::CronJob)
            o.insert(QLatin1String("categories"), QJsonArray{QStringLiteral("all")});
        o.insert(
            QLatin1String("storageVersionHash"),
            QString::fromLatin1(QCryptographicHash::hash(info.plural.toUtf8(), QCryptographicHash::Sha256)
                                    .left(8)
                                    .toBase64()));
        resources.append(o);
        if (info.hasStatus) {
            QJsonObject st;
            st.insert(QLatin1String("name"), QString(info.plural + QStringLiteral("/status")));
            st.insert(QLatin1String("singularName"), QString());
            st.insert(QLatin1String("namespaced"), info.namespaced);
            st.insert(QLatin1String("kind"), info.kind);
            st.insert(QLatin1String("verbs"),
                      QJsonArray{QStringLiteral("get"), QStringLiteral("patch"), QStringLiteral("update")});
            resources.append(st);
        }
    }
    QJsonObject list;
    list.insert(QLatin1String("kind"), QLatin1String("APIResourceList"));
    list.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
    list.insert(QLatin1String("groupVersion"), QString(group + u'/' + storedGroupVersion(group)));
    list.insert(QLatin1String("resources"), resources);
    return toCompactJson(list);
}

QJsonObject groupVersion(const QString &group, const QString &version) {
    QJsonObject v;
    v.insert(QLatin1String("groupVersion"), QString(group + QLatin1Char('/') + version));
    v.insert(QLatin1String("version"), version);
    return v;
}

QJsonObject apiGroup(const QString &name, const QStringList &versions) {
    QJsonArray vs;
    for (const QString &v : versions)
        vs.append(groupVersion(name, v));
    QJsonObject g;
    g.insert(QLatin1String("name"), name);
    g.insert(QLatin1String("versions"), vs);
    g.insert(QLatin1String("preferredVersion"), groupVersion(name, versions.first()));
    return g;
}

QByteArray discoveryGroups() {
    QJsonObject list;
    list.insert(QLatin1String("kind"), QLatin1String("APIGroupList"));
    list.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
    QJsonArray groups{
        apiGroup(QStringLiteral("authentication.k8s.io"), {QStringLiteral("v1"), QStringLiteral("v1beta1")}),
        apiGroup(QStringLiteral("authorization.k8s.io"), {QStringLiteral("v1")})};
    for (const QString &g : storedGroups())
        groups.append(apiGroup(g, {storedGroupVersion(g)}));
    list.insert(QLatin1String("groups"), groups);
    return toCompactJson(list);
}

QByteArray discoveryGroupResources(const QString &groupVersionText, const QString &name,
                                   const QString &kind) {
    QJsonObject r;
    r.insert(QLatin1String("name"), name);
    r.insert(QLatin1String("singularName"), name.chopped(1));
    r.insert(QLatin1String("namespaced"), false);
    r.insert(QLatin1String("kind"), kind);
    r.insert(QLatin1String("verbs"), QJsonArray{QStringLiteral("create")});
    QJsonArray resources{r};
    if (name == QLatin1String("selfsubjectaccessreviews")) {
        QJsonObject rr = r;
        rr.insert(QLatin1String("name"), QLatin1String("selfsubjectrulesreviews"));
        rr.insert(QLatin1String("singularName"), QLatin1String("selfsubjectrulesreview"));
        rr.insert(QLatin1String("kind"), QLatin1String("SelfSubjectRulesReview"));
        resources.append(rr);
        QJsonObject sar = r;
        sar.insert(QLatin1String("name"), QLatin1String("subjectaccessreviews"));
        sar.insert(QLatin1String("singularName"), QLatin1String("subjectaccessreview"));
        sar.insert(QLatin1String("kind"), QLatin1String("SubjectAccessReview"));
        resources.append(sar);
    }
    if (groupVersionText == QLatin1String("authentication.k8s.io/v1")) {
        QJsonObject tr = r;
        tr.insert(QLatin1String("name"), QLatin1String("tokenreviews"));
        tr.insert(QLatin1String("singularName"), QLatin1String("tokenreview"));
        tr.insert(QLatin1String("kind"), QLatin1String("TokenReview"));
        resources.append(tr);
    }
    QJsonObject list;
    list.insert(QLatin1String("kind"), QLatin1String("APIResourceList"));
    list.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
    list.insert(QLatin1String("groupVersion"), groupVersionText);
    list.insert(QLatin1String("resources"), resources);
    return toCompactJson(list);
}

QByteArray versionInfo() {
    QJsonObject v;
    v.insert(QLatin1String("major"), QLatin1String("1"));
    v.insert(QLatin1String("minor"), QLatin1String("32"));
    v.insert(QLatin1String("gitVersion"), QLatin1String("v1.32.4-gpuquota-testcluster"));
    v.insert(QLatin1String("gitCommit"), QLatin1String("0000000000000000000000000000000000000000"));
    v.insert(QLatin1String("gitTreeState"), QLatin1String("clean"));
    v.insert(QLatin1String("buildDate"), QLatin1String("2025-04-22T00:00:00Z"));
    v.insert(QLatin1String("goVersion"), QLatin1String("go1.23.8"));
    v.insert(QLatin1String("compiler"), QLatin1String("gc"));
    v.insert(QLatin1String("platform"), QLatin1String("linux/amd64"));
    return toCompactJson(v);
}

QString shortHash(const QByteArray &data) {
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha512).toHex().left(128));
}

QByteArray apiGroupDocument(const QString &name, const QStringList &versions) {
    QJsonObject g = apiGroup(name, versions);
    g.insert(QLatin1String("kind"), QLatin1String("APIGroup"));
    g.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
    return toCompactJson(g);
}

QByteArray apiVersions(const QString &serverAddress) {
    QJsonObject v;
    v.insert(QLatin1String("kind"), QLatin1String("APIVersions"));
    v.insert(QLatin1String("versions"), QJsonArray{QStringLiteral("v1")});
    QJsonObject cidr;
    cidr.insert(QLatin1String("clientCIDR"), QLatin1String("0.0.0.0/0"));
    cidr.insert(QLatin1String("serverAddress"), serverAddress);
    v.insert(QLatin1String("serverAddressByClientCIDRs"), QJsonArray{cidr});
    return toCompactJson(v);
}

// The v3 index: each document's URL carries its hash, so clients can cache by URL.
QByteArray openApiV3Index(const QByteArray &coreV1, const QByteArray &authorizationV1) {
    auto entry = [](const QString &url, const QByteArray &document) {
        QJsonObject o;
        o.insert(QLatin1String("serverRelativeURL"),
                 QString(url + QStringLiteral("?hash=") + shortHash(document)));
        return o;
    };
    QJsonObject paths;
    paths.insert(QLatin1String("api/v1"), entry(QStringLiteral("/openapi/v3/api/v1"), coreV1));
    paths.insert(QLatin1String("apis/authorization.k8s.io/v1"),
                 entry(QStringLiteral("/openapi/v3/apis/authorization.k8s.io/v1"), authorizationV1));
    QJsonObject doc;
    doc.insert(QLatin1String("paths"), paths);
    return toCompactJson(doc);
}

} // namespace

bool ApiServer::serveDiscovery(ApiCall &call) {
    const httplib::Request &req = call.req;
    httplib::Response &res = call.res;
    const QString path = QString::fromStdString(req.path);
    const bool get = req.method == "GET";
    auto reply = [&res](const QByteArray &body, const char *contentType = "application/json") {
        sendJson(res, 200, body, contentType);
        return true;
    };
    // The documents are fixed for the server's lifetime; clients may cache them.
    auto immutable = [&](const QByteArray &body, const char *contentType = "application/json") {
        res.set_header("Cache-Control", "public, immutable");
        return reply(body, contentType);
    };
    if (path == QLatin1String("/healthz") || path == QLatin1String("/livez") ||
        path == QLatin1String("/readyz")) {
        res.status = 200;
        res.set_content("ok", "text/plain");
        return true;
    }
    if (path == QLatin1String("/version"))
        return reply(versionInfo());
    if (path == QLatin1String("/api"))
        return reply(apiVersions(m_serverAddress));
    if (path == QLatin1String("/api/v1") && get) {
        static const QByteArray doc = discoveryCoreV1();
        return reply(doc);
    }
    if (path == QLatin1String("/apis")) {
        static const QByteArray doc = discoveryGroups();
        return reply(doc);
    }
    if (path == QLatin1String("/apis/authorization.k8s.io"))
        return reply(apiGroupDocument(QStringLiteral("authorization.k8s.io"), {QStringLiteral("v1")}));
    if (path == QLatin1String("/apis/authentication.k8s.io"))
        return reply(apiGroupDocument(QStringLiteral("authentication.k8s.io"),
                                      {QStringLiteral("v1"), QStringLiteral("v1beta1")}));
    if (path == QLatin1String("/apis/authorization.k8s.io/v1") && get)
        return reply(discoveryGroupResources(QStringLiteral("authorization.k8s.io/v1"),
                                             QStringLiteral("selfsubjectaccessreviews"),
                                             QStringLiteral("SelfSubjectAccessReview")));
    if ((path == QLatin1String("/apis/authentication.k8s.io/v1") ||
         path == QLatin1String("/apis/authentication.k8s.io/v1beta1")) &&
        get)
        return reply(discoveryGroupResources(path.mid(6), QStringLiteral("selfsubjectreviews"),
                                             QStringLiteral("SelfSubjectReview")));
    for (const QString &g : storedGroups()) {
        if (path == QStringLiteral("/apis/") + g)
            return reply(apiGroupDocument(g, {storedGroupVersion(g)}));
        if (path == QStringLiteral("/apis/") + g + u'/' + storedGroupVersion(g) && get)
            return reply(discoveryStoredGroup(g));
    }
    if (path == QLatin1String("/openapi/v3"))
        return reply(openApiV3Index(m_config.openapiCoreV1, m_config.openapiAuthorizationV1));
    if (path == QLatin1String("/openapi/v2") || path == QLatin1String("/swagger-2.0.0.pb-v1")) {
        std::call_once(m_openapiV2Once, [this] {
            m_openapiV2 = encodeOpenApiV2(QJsonDocument::fromJson(m_config.openapiCoreV1).object(),
                                          QJsonDocument::fromJson(m_config.openapiAuthorizationV1).object());
        });
        return immutable(m_openapiV2, "application/octet-stream");
    }
    if (path == QLatin1String("/openapi/v3/api/v1"))
        return immutable(m_config.openapiCoreV1);
    if (path == QLatin1String("/openapi/v3/apis/authorization.k8s.io/v1"))
        return immutable(m_config.openapiAuthorizationV1);
    return false;
}

} // namespace gq::tc
