// gpuquota-testcluster over plain HTTPS (Qt Network), checked the way a client
// library sees it: exact Status objects, resourceVersion semantics, pagination,
// watch streams, admission, fault knobs, persistence — and every kind of response
// checked against the Kubernetes OpenAPI schema.

#include "openapischema.h"
#include "testclusterprocess.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrlQuery>

using gq::test::TestClusterProcess;

namespace {

struct Reply {
    int status = 0;
    QByteArray body;
    QJsonObject json;
    QList<QNetworkReply::RawHeaderPair> headers;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    qint64 elapsedMs = 0;
    [[nodiscard]] QByteArray header(const QByteArray &name) const {
        for (const auto &h : headers)
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return h.second;
        return {};
    }
};

QJsonObject obj(const QByteArray &json) {
    return QJsonDocument::fromJson(json).object();
}

QByteArray compact(const QJsonObject &o) {
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The value down a path of object keys and array indexes, as in
// at(reply.json, "spec", "limits", 0, "type"); undefined where the path breaks off.
QJsonValue step(const QJsonValue &v, const char *key) {
    return v.toObject().value(QLatin1StringView(key));
}
QJsonValue step(const QJsonValue &v, const QString &key) {
    return v.toObject().value(key);
}
QJsonValue step(const QJsonValue &v, int index) {
    return v.toArray().at(index);
}
template <typename... Keys> QJsonValue at(QJsonValue v, const Keys &...keys) {
    ((v = step(v, keys)), ...);
    return v;
}

} // namespace

class TestApi : public QObject {
    Q_OBJECT

private:
    TestClusterProcess m_cluster{
        TestClusterProcess::Options{QStringLiteral("empty"),
                                    {},
                                    {QStringLiteral("--bookmark-interval-ms"), QStringLiteral("300")},
                                    60000}};
    QNetworkAccessManager m_nam;
    QSslConfiguration m_ssl;
    gq::tc::OpenApiSchema m_schema;

    QNetworkRequest request(const QString &pathAndQuery, const QString &token) {
        QUrl url = m_cluster.url();
        const qsizetype q = pathAndQuery.indexOf(QLatin1Char('?'));
        url.setPath(q < 0 ? pathAndQuery : pathAndQuery.left(q));
        if (q >= 0)
            url.setQuery(pathAndQuery.mid(q + 1));
        QNetworkRequest req(url);
        req.setSslConfiguration(m_ssl);
        req.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        if (!token.isEmpty())
            req.setRawHeader("Authorization", "Bearer " + token.toUtf8());
        return req;
    }

    Reply call(const QByteArray &method, const QString &path, const QByteArray &body = {},
               const QByteArray &contentType = "application/json",
               const QString &token = QStringLiteral("admin"),
               const QByteArray &accept = "application/json") {
        const QString t = token == QLatin1String("admin")      ? m_cluster.adminToken()
                          : token == QLatin1String("readonly") ? m_cluster.readonlyToken()
                                                               : token;
        QNetworkRequest req = request(path, t);
        req.setRawHeader("Accept", accept);
        if (!body.isEmpty())
            req.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
        QElapsedTimer timer;
        timer.start();
        QNetworkReply *reply = m_nam.sendCustomRequest(req, method, body);
        QEventLoop loop;
        connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(30000, &loop, &QEventLoop::quit);
        loop.exec();
        Reply r;
        r.elapsedMs = timer.elapsed();
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = reply->readAll();
        r.json = obj(r.body);
        r.headers = reply->rawHeaderPairs();
        r.error = reply->error();
        reply->deleteLater();
        return r;
    }

    void conforms(const QString &component, const QJsonObject &o) {
        const QStringList errors = m_schema.validate(component, o);
        QVERIFY2(errors.isEmpty(),
                 qPrintable(component + QStringLiteral(": ") + errors.join(QStringLiteral("; ")) +
                            QStringLiteral("\n") + QString::fromUtf8(compact(o))));
    }

    Reply create(const QString &collection, const QJsonObject &o, const QString &query = {}) {
        return call("POST", collection + query, compact(o));
    }

    static QJsonObject ns(const QString &name) {
        return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                           {QStringLiteral("kind"), QStringLiteral("Namespace")},
                           {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}};
    }

    static QJsonObject quota(const QString &name, const QJsonObject &hard) {
        return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                           {QStringLiteral("kind"), QStringLiteral("ResourceQuota")},
                           {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
                           {QStringLiteral("spec"), QJsonObject{{QStringLiteral("hard"), hard}}}};
    }

    // A LimitRange of one item (created by URL: no apiVersion or kind needed).
    static QJsonObject limitRange(const QString &name, const QJsonObject &item) {
        return QJsonObject{
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
            {QStringLiteral("spec"), QJsonObject{{QStringLiteral("limits"), QJsonArray{item}}}}};
    }

    static QJsonObject pod(const QString &name, const QJsonObject &resources,
                           const QJsonObject &labels = {}) {
        QJsonObject container{{QStringLiteral("name"), QStringLiteral("main")},
                              {QStringLiteral("image"), QStringLiteral("busybox:1.36")}};
        if (!resources.isEmpty())
            container.insert(QStringLiteral("resources"), resources);
        QJsonObject meta{{QStringLiteral("name"), name}};
        if (!labels.isEmpty())
            meta.insert(QStringLiteral("labels"), labels);
        return QJsonObject{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("Pod")},
            {QStringLiteral("metadata"), meta},
            {QStringLiteral("spec"), QJsonObject{{QStringLiteral("containers"), QJsonArray{container}}}}};
    }

    static QJsonObject res(const QJsonObject &requests, const QJsonObject &limits = {}) {
        QJsonObject r;
        if (!requests.isEmpty())
            r.insert(QStringLiteral("requests"), requests);
        if (!limits.isEmpty())
            r.insert(QStringLiteral("limits"), limits);
        return r;
    }

    static QJsonObject expectedStatus(int code, const QString &reason, const QString &message,
                                      const QString &name, const QString &kind) {
        QJsonObject s{{QStringLiteral("kind"), QStringLiteral("Status")},
                      {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                      {QStringLiteral("metadata"), QJsonObject()},
                      {QStringLiteral("status"), QStringLiteral("Failure")},
                      {QStringLiteral("message"), message},
                      {QStringLiteral("reason"), reason},
                      {QStringLiteral("code"), code}};
        QJsonObject details;
        if (!name.isEmpty())
            details.insert(QStringLiteral("name"), name);
        if (!kind.isEmpty())
            details.insert(QStringLiteral("kind"), kind);
        if (!details.isEmpty())
            s.insert(QStringLiteral("details"), details);
        return s;
    }

    QString usedOf(const QString &nsName, const QString &quotaName, const QString &resource) {
        const Reply r =
            call("GET", QStringLiteral("/api/v1/namespaces/%1/resourcequotas/%2").arg(nsName, quotaName));
        return at(r.json, "status", "used", resource).toString();
    }

private slots:
    void initTestCase() {
        QFile core(QStringLiteral(GQ_TESTCLUSTER_OPENAPI_DIR "/api__v1_openapi.json"));
        QFile authz(
            QStringLiteral(GQ_TESTCLUSTER_OPENAPI_DIR "/apis__authorization.k8s.io__v1_openapi.json"));
        QVERIFY(core.open(QIODevice::ReadOnly) && authz.open(QIODevice::ReadOnly));
        QVERIFY(m_schema.addDocument(core.readAll()));
        QVERIFY(m_schema.addDocument(authz.readAll()));
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        m_ssl = QSslConfiguration::defaultConfiguration();
        m_ssl.setCaCertificates(QSslCertificate::fromData(m_cluster.caCertificatePem()));
        QVERIFY(!m_ssl.caCertificates().isEmpty());
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces"), ns(QStringLiteral("team-a"))).status, 201);
    }

    void cleanupTestCase() { QVERIFY2(m_cluster.stop(), qPrintable(m_cluster.stderrText())); }

    void schemaCheckerCanFail() {
        // The checker must notice a wrong type, a missing required field and an unknown field.
        QJsonObject broken = quota(QStringLiteral("q"), QJsonObject{{QStringLiteral("pods"), QJsonArray{}}});
        broken.insert(QStringLiteral("bogus"), 1);
        QJsonObject ev{{QStringLiteral("object"), QJsonObject()}};
        const QStringList errors =
            m_schema.validate(QStringLiteral("io.k8s.api.core.v1.ResourceQuota"), broken);
        QVERIFY2(errors.join(QLatin1Char('\n')).contains(QStringLiteral("spec.hard.pods")),
                 qPrintable(errors.join(QLatin1Char('\n'))));
        QVERIFY(errors.join(QLatin1Char('\n')).contains(QStringLiteral("bogus: unknown field")));
        QVERIFY(!m_schema.validate(QStringLiteral("io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent"), ev)
                     .isEmpty());
    }

    void discovery() {
        Reply r = call("GET", QStringLiteral("/version"), {}, {}, QString());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QStringLiteral("major")).toString(), QStringLiteral("1"));
        r = call("GET", QStringLiteral("/api"));
        QCOMPARE(r.json.value(QStringLiteral("versions")).toArray(), QJsonArray{QStringLiteral("v1")});
        r = call("GET", QStringLiteral("/api/v1"));
        QCOMPARE(r.json.value(QStringLiteral("kind")).toString(), QStringLiteral("APIResourceList"));
        conforms(QStringLiteral("io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList"), r.json);
        QHash<QString, QJsonObject> byName;
        for (const QJsonValue &v : r.json.value(QStringLiteral("resources")).toArray())
            byName.insert(v.toObject().value(QStringLiteral("name")).toString(), v.toObject());
        QCOMPARE(byName.value(QStringLiteral("resourcequotas")).value(QStringLiteral("shortNames")).toArray(),
                 QJsonArray{QStringLiteral("quota")});
        QCOMPARE(byName.value(QStringLiteral("limitranges")).value(QStringLiteral("shortNames")).toArray(),
                 QJsonArray{QStringLiteral("limits")});
        QVERIFY(byName.contains(QStringLiteral("resourcequotas/status")));
        QVERIFY(byName.value(QStringLiteral("pods"))
                    .value(QStringLiteral("verbs"))
                    .toArray()
                    .contains(QStringLiteral("watch")));
        r = call("GET", QStringLiteral("/apis"));
        QCOMPARE(r.json.value(QStringLiteral("kind")).toString(), QStringLiteral("APIGroupList"));
        QVERIFY(r.body.contains("authorization.k8s.io/v1"));
        r = call("GET", QStringLiteral("/openapi/v3"));
        QVERIFY(r.json.value(QStringLiteral("paths")).toObject().contains(QStringLiteral("api/v1")));
    }

    void authentication() {
        const QJsonObject unauthorized =
            expectedStatus(401, QStringLiteral("Unauthorized"), QStringLiteral("Unauthorized"), {}, {});
        Reply r = call("GET", QStringLiteral("/api/v1/namespaces"), {}, {}, QString());
        QCOMPARE(r.status, 401);
        QCOMPARE(r.json, unauthorized);
        r = call("GET", QStringLiteral("/api/v1/namespaces"), {}, {}, QStringLiteral("not-a-token"));
        QCOMPARE(r.status, 401);
        conforms(QStringLiteral("io.k8s.apimachinery.pkg.apis.meta.v1.Status"), r.json);
        r = call("POST", QStringLiteral("/apis/authentication.k8s.io/v1/selfsubjectreviews"),
                 R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})",
                 "application/json", QStringLiteral("readonly"));
        QCOMPARE(r.status, 201);
        QCOMPARE(at(r.json, "status", "userInfo", "username").toString(), QStringLiteral("gq-viewer"));
    }

    // TokenReview and SubjectAccessReview about a user added with /_gq/users, in the
    // shapes of the real API (false booleans left out, the RBAC reason when allowed).
    void delegatedReviews() {
        const auto added = m_cluster.hook(
            "POST", QStringLiteral("/_gq/users"),
            obj(R"({"name":"erin","token":"tok-erin","groups":["team-a"],"rules":[{"namespaces":["team-a"],"verbs":["get"],"resources":["resourcequotas"]}]})"));
        QVERIFY2(added.ok(), qPrintable(added.error));
        Reply r = call(
            "POST", QStringLiteral("/apis/authentication.k8s.io/v1/tokenreviews"),
            R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":"tok-erin"}})");
        QCOMPARE(r.status, 201);
        QCOMPARE(r.json.value(QLatin1String("kind")).toString(), QStringLiteral("TokenReview"));
        QCOMPARE(at(r.json, "status", "authenticated").toBool(), true);
        QCOMPARE(at(r.json, "status", "user", "username").toString(), QStringLiteral("erin"));
        QCOMPARE(at(r.json, "status", "user", "groups").toArray(),
                 (QJsonArray{QStringLiteral("team-a"), QStringLiteral("system:authenticated")}));
        r = call("POST", QStringLiteral("/apis/authentication.k8s.io/v1/tokenreviews"),
                 R"({"spec":{"token":"nope"}})");
        QCOMPARE(r.status, 201);
        QVERIFY(!at(r.json, "status").toObject().contains(QLatin1String("authenticated")));
        QCOMPARE(at(r.json, "status", "error").toString(), QStringLiteral("invalid bearer token"));
        // Only a privileged caller may ask about others.
        r = call("POST", QStringLiteral("/apis/authentication.k8s.io/v1/tokenreviews"),
                 R"({"spec":{"token":"x"}})", "application/json", QStringLiteral("tok-erin"));
        QCOMPARE(r.status, 403);
        const auto sar = [](const char *ns, const char *verb) {
            return QStringLiteral(
                       R"({"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"erin","groups":["team-a"],"resourceAttributes":{"namespace":"%1","verb":"%2","resource":"resourcequotas"}}})")
                .arg(QLatin1String(ns), QLatin1String(verb))
                .toUtf8();
        };
        const QString path = QStringLiteral("/apis/authorization.k8s.io/v1/subjectaccessreviews");
        r = call("POST", path, sar("team-a", "get"));
        QCOMPARE(r.status, 201);
        conforms(QStringLiteral("io.k8s.api.authorization.v1.SubjectAccessReview"), r.json);
        QCOMPARE(at(r.json, "status", "allowed").toBool(), true);
        QVERIFY(at(r.json, "status", "reason")
                    .toString()
                    .startsWith(QLatin1String("RBAC: allowed by RoleBinding")));
        for (const auto &[ns, verb] :
             {std::pair{"team-b", "get"}, std::pair{"team-a", "update"}, std::pair{"", "list"}}) {
            r = call("POST", path, sar(ns, verb));
            QCOMPARE(r.status, 201);
            QCOMPARE(at(r.json, "status", "allowed").toBool(), false);
        }
        r = call("POST", path, R"({"spec":{"resourceAttributes":{"verb":"get","resource":"pods"}}})");
        QCOMPARE(r.status, 422);
        QVERIFY(m_cluster.hook("DELETE", QStringLiteral("/_gq/users/erin")).ok());
        r = call("GET", QStringLiteral("/api/v1/namespaces"), {}, {}, QStringLiteral("tok-erin"));
        QCOMPARE(r.status, 401);
    }

    void readonlyIsForbiddenToWrite() {
        Reply r = call("POST", QStringLiteral("/api/v1/namespaces/team-a/resourcequotas"),
                       compact(quota(QStringLiteral("q"), {{QStringLiteral("pods"), QStringLiteral("1")}})),
                       "application/json", QStringLiteral("readonly"));
        QCOMPARE(r.status, 403);
        QCOMPARE(r.json,
                 expectedStatus(
                     403, QStringLiteral("Forbidden"),
                     QStringLiteral("resourcequotas is forbidden: User \"gq-viewer\" cannot create resource "
                                    "\"resourcequotas\" in API group \"\" in the namespace \"team-a\""),
                     {}, QStringLiteral("resourcequotas")));
        r = call("GET", QStringLiteral("/api/v1/namespaces/team-a/resourcequotas"), {}, {},
                 QStringLiteral("readonly"));
        QCOMPARE(r.status, 200);
        const QByteArray review =
            R"({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"namespace":"team-a","verb":"update","group":"","resource":"resourcequotas"}}})";
        r = call("POST", QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"), review,
                 "application/json", QStringLiteral("readonly"));
        QCOMPARE(r.status, 201);
        QCOMPARE(at(r.json, "status", "allowed").toBool(), false);
        conforms(QStringLiteral("io.k8s.api.authorization.v1.SelfSubjectAccessReview"), r.json);
        r = call("POST", QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"), review);
        QCOMPARE(at(r.json, "status", "allowed").toBool(), true);
        QCOMPARE(at(r.json, "spec", "resourceAttributes", "resource").toString(),
                 QStringLiteral("resourcequotas"));
    }

    void resourceVersionsAndConflicts() {
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces"), ns(QStringLiteral("rv-test"))).status, 201);
        Reply a = create(
            QStringLiteral("/api/v1/namespaces/rv-test/resourcequotas"),
            quota(QStringLiteral("gpu"), {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("4")}}));
        QCOMPARE(a.status, 201);
        conforms(QStringLiteral("io.k8s.api.core.v1.ResourceQuota"), a.json);
        const QJsonObject meta = a.json.value(QStringLiteral("metadata")).toObject();
        QVERIFY(!meta.value(QStringLiteral("uid")).toString().isEmpty());
        QVERIFY(meta.value(QStringLiteral("creationTimestamp")).toString().endsWith(QLatin1Char('Z')));
        QCOMPARE(at(a.json, "status", "hard", "requests.nvidia.com/gpu").toString(), QStringLiteral("4"));
        const qint64 rv1 = meta.value(QStringLiteral("resourceVersion")).toString().toLongLong();
        Reply b = create(QStringLiteral("/api/v1/namespaces/rv-test/limitranges"),
                         limitRange(QStringLiteral("lr"),
                                    QJsonObject{{QStringLiteral("type"), QStringLiteral("Container")}}));
        QCOMPARE(b.status, 201);
        const qint64 rv2 = at(b.json, "metadata", "resourceVersion").toString().toLongLong();
        QVERIFY2(rv2 > rv1, "one resourceVersion counter across kinds");

        // PUT with the current resourceVersion works and bumps it; the old one is a 409.
        QJsonObject edited = a.json;
        QJsonObject spec = edited.value(QStringLiteral("spec")).toObject();
        spec.insert(QStringLiteral("hard"),
                    QJsonObject{{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("6")}});
        edited.insert(QStringLiteral("spec"), spec);
        Reply put =
            call("PUT", QStringLiteral("/api/v1/namespaces/rv-test/resourcequotas/gpu"), compact(edited));
        QCOMPARE(put.status, 200);
        QVERIFY(at(put.json, "metadata", "resourceVersion").toString().toLongLong() > rv2);
        QCOMPARE(at(put.json, "status", "hard", "requests.nvidia.com/gpu").toString(), QStringLiteral("6"));
        Reply stale =
            call("PUT", QStringLiteral("/api/v1/namespaces/rv-test/resourcequotas/gpu"), compact(edited));
        QCOMPARE(stale.status, 409);
        QCOMPARE(
            stale.json,
            expectedStatus(
                409, QStringLiteral("Conflict"),
                QStringLiteral("Operation cannot be fulfilled on resourcequotas \"gpu\": the object has been "
                               "modified; please apply your changes to the latest version and try again"),
                QStringLiteral("gpu"), QStringLiteral("resourcequotas")));
        conforms(QStringLiteral("io.k8s.apimachinery.pkg.apis.meta.v1.Status"), stale.json);
        // A no-op PUT keeps the resourceVersion.
        Reply same =
            call("PUT", QStringLiteral("/api/v1/namespaces/rv-test/resourcequotas/gpu"), compact(put.json));
        QCOMPARE(same.status, 200);
        QCOMPARE(at(same.json, "metadata", "resourceVersion"), at(put.json, "metadata", "resourceVersion"));

        Reply missing = call("GET", QStringLiteral("/api/v1/namespaces/rv-test/resourcequotas/nope"));
        QCOMPARE(missing.json, expectedStatus(404, QStringLiteral("NotFound"),
                                              QStringLiteral("resourcequotas \"nope\" not found"),
                                              QStringLiteral("nope"), QStringLiteral("resourcequotas")));
        Reply dup = create(QStringLiteral("/api/v1/namespaces/rv-test/resourcequotas"),
                           quota(QStringLiteral("gpu"), {{QStringLiteral("pods"), QStringLiteral("1")}}));
        QCOMPARE(dup.json, expectedStatus(409, QStringLiteral("AlreadyExists"),
                                          QStringLiteral("resourcequotas \"gpu\" already exists"),
                                          QStringLiteral("gpu"), QStringLiteral("resourcequotas")));
        Reply noNs = create(QStringLiteral("/api/v1/namespaces/absent/resourcequotas"),
                            quota(QStringLiteral("q"), {{QStringLiteral("pods"), QStringLiteral("1")}}));
        QCOMPARE(noNs.status, 404);
        QCOMPARE(noNs.json.value(QStringLiteral("message")).toString(),
                 QStringLiteral("namespaces \"absent\" not found"));
    }

    void patches() {
        Reply merge = call("PATCH", QStringLiteral("/api/v1/namespaces/rv-test/resourcequotas/gpu"),
                           R"({"metadata":{"labels":{"team":"a"}},"spec":{"hard":{"pods":"10"}}})",
                           "application/merge-patch+json");
        QCOMPARE(merge.status, 200);
        QCOMPARE(at(merge.json, "spec", "hard", "pods").toString(), QStringLiteral("10"));
        Reply json = call(
            "PATCH", QStringLiteral("/api/v1/namespaces/rv-test/resourcequotas/gpu"),
            R"([{"op":"replace","path":"/spec/hard/pods","value":"11"},{"op":"remove","path":"/metadata/labels/team"}])",
            "application/json-patch+json");
        QCOMPARE(json.status, 200);
        QCOMPARE(at(json.json, "spec", "hard", "pods").toString(), QStringLiteral("11"));
        QVERIFY(!at(json.json, "metadata", "labels").toObject().contains(QStringLiteral("team")));
        // A patch carrying a stale resourceVersion is a precondition and conflicts.
        Reply stale = call("PATCH", QStringLiteral("/api/v1/namespaces/rv-test/resourcequotas/gpu"),
                           R"({"metadata":{"resourceVersion":"1"},"spec":{"hard":{"pods":"12"}}})",
                           "application/merge-patch+json");
        QCOMPARE(stale.status, 409);
        Reply bad = call("PATCH", QStringLiteral("/api/v1/namespaces/rv-test/resourcequotas/gpu"), "{}",
                         "text/plain");
        QCOMPARE(bad.status, 415);
        Reply apply = call(
            "PATCH", QStringLiteral("/api/v1/namespaces/rv-test/limitranges/ssa?fieldManager=test"),
            R"({"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"ssa"},"spec":{"limits":[{"type":"Container","max":{"cpu":"4"}}]}})",
            "application/apply-patch+yaml");
        QCOMPARE(apply.status, 201);
        // Defaulting: a Container max becomes the default limit and default request.
        const QJsonObject item = at(apply.json, "spec", "limits", 0).toObject();
        QCOMPARE(at(item, "default", "cpu").toString(), QStringLiteral("4"));
        QCOMPARE(at(item, "defaultRequest", "cpu").toString(), QStringLiteral("4"));
        Reply noManager = call("PATCH", QStringLiteral("/api/v1/namespaces/rv-test/limitranges/ssa"), "{}",
                               "application/apply-patch+yaml");
        QCOMPARE(noManager.status, 422);
    }

    void validationErrors() {
        Reply r =
            create(QStringLiteral("/api/v1/namespaces/team-a/limitranges"),
                   limitRange(QStringLiteral("lr"),
                              QJsonObject{{QStringLiteral("type"), QStringLiteral("Container")},
                                          {QStringLiteral("min"),
                                           QJsonObject{{QStringLiteral("cpu"), QStringLiteral("2")}}},
                                          {QStringLiteral("max"),
                                           QJsonObject{{QStringLiteral("cpu"), QStringLiteral("1")}}}}));
        QCOMPARE(r.status, 422);
        QCOMPARE(r.json.value(QStringLiteral("reason")).toString(), QStringLiteral("Invalid"));
        QVERIFY2(
            r.json.value(QStringLiteral("message"))
                .toString()
                .startsWith(QStringLiteral("LimitRange \"lr\" is invalid: [spec.limits[0].min[cpu]: Invalid "
                                           "value: \"2\": min value 2 is greater than max value 1")),
            r.body.constData());
        const QJsonObject cause = at(r.json, "details", "causes", 0).toObject();
        QCOMPARE(cause.value(QStringLiteral("field")).toString(), QStringLiteral("spec.limits[0].min[cpu]"));
        QCOMPARE(cause.value(QStringLiteral("reason")).toString(), QStringLiteral("FieldValueInvalid"));
        QCOMPARE(at(r.json, "details", "kind").toString(), QStringLiteral("LimitRange"));
        conforms(QStringLiteral("io.k8s.apimachinery.pkg.apis.meta.v1.Status"), r.json);

        r = create(QStringLiteral("/api/v1/namespaces/team-a/resourcequotas"),
                   quota(QStringLiteral("neg"), {{QStringLiteral("requests.cpu"), QStringLiteral("-1")}}));
        QCOMPARE(r.status, 422);
        QCOMPARE(r.json.value(QStringLiteral("message")).toString(),
                 QStringLiteral("ResourceQuota \"neg\" is invalid: spec.hard[requests.cpu]: Invalid value: "
                                "\"-1\": must be greater than or equal to 0"));
        r = create(
            QStringLiteral("/api/v1/namespaces/team-a/resourcequotas"),
            quota(QStringLiteral("bad"), {{QStringLiteral("requests.cpu"), QStringLiteral("2 cores")}}));
        QCOMPARE(r.status, 400);
        QVERIFY(r.json.value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("quantities must match the regular expression")));
        r = create(QStringLiteral("/api/v1/namespaces"), ns(QStringLiteral("Bad_Name")));
        QCOMPARE(r.status, 422);
        QVERIFY(r.json.value(QStringLiteral("message"))
                    .toString()
                    .startsWith(QStringLiteral(
                        "Namespace \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\"")));
        r = create(QStringLiteral("/api/v1/namespaces/team-a/resourcequotas?dryRun=true"),
                   quota(QStringLiteral("q"), {{QStringLiteral("pods"), QStringLiteral("1")}}));
        QCOMPARE(r.status, 422);
        QCOMPARE(r.json.value(QStringLiteral("message")).toString(),
                 QStringLiteral("CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: "
                                "[\"true\"]: supported values: \"All\""));
        r = create(
            QStringLiteral("/api/v1/namespaces/team-a/resourcequotas?fieldValidation=Strict"),
            QJsonObject{
                {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("s")}}},
                {QStringLiteral("spec"), QJsonObject{{QStringLiteral("hardd"), QJsonObject()}}}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json.value(QStringLiteral("message")).toString(),
                 QStringLiteral("ResourceQuota in version \"v1\" cannot be handled as a ResourceQuota: "
                                "strict decoding error: unknown field \"spec.hardd\""));

        // Quota scopes: an unknown scope name is a 422 whose cause names the field.
        r = create(
            QStringLiteral("/api/v1/namespaces/team-a/resourcequotas"),
            obj(R"({"metadata":{"name":"scoped"},"spec":{"hard":{"requests.nvidia.com/gpu":"2"},)"
                R"("scopeSelector":{"matchExpressions":[{"scopeName":"Priority","operator":"In","values":["high"]}]}}})"));
        QCOMPARE(r.status, 422);
        QCOMPARE(r.json.value(QStringLiteral("message")).toString(),
                 QStringLiteral(
                     "ResourceQuota \"scoped\" is invalid: spec.scopeSelector.matchExpressions.scopeName: "
                     "Invalid value: \"Priority\": unsupported scope"));
        const QJsonObject scopeCause = at(r.json, "details", "causes", 0).toObject();
        QCOMPARE(scopeCause.value(QStringLiteral("field")).toString(),
                 QStringLiteral("spec.scopeSelector.matchExpressions.scopeName"));
        QCOMPARE(scopeCause.value(QStringLiteral("reason")).toString(), QStringLiteral("FieldValueInvalid"));
        conforms(QStringLiteral("io.k8s.apimachinery.pkg.apis.meta.v1.Status"), r.json);
        // A valid scoped quota is stored with its scopes; spec.scopes cannot change.
        r = create(
            QStringLiteral("/api/v1/namespaces/team-a/resourcequotas"),
            obj(R"({"metadata":{"name":"scoped"},"spec":{"hard":{"pods":"2"},"scopes":["NotBestEffort"]}})"));
        QCOMPARE(r.status, 201);
        conforms(QStringLiteral("io.k8s.api.core.v1.ResourceQuota"), r.json);
        QCOMPARE(at(r.json, "spec", "scopes").toArray(), QJsonArray{QStringLiteral("NotBestEffort")});
        r = call("PATCH", QStringLiteral("/api/v1/namespaces/team-a/resourcequotas/scoped"),
                 R"({"spec":{"scopes":["BestEffort"]}})", "application/merge-patch+json");
        QCOMPARE(r.status, 422);
        QCOMPARE(r.json.value(QStringLiteral("message")).toString(),
                 QStringLiteral("ResourceQuota \"scoped\" is invalid: spec.scopes: Invalid value: "
                                "[\"BestEffort\"]: field is immutable"));
        QCOMPARE(call("DELETE", QStringLiteral("/api/v1/namespaces/team-a/resourcequotas/scoped")).status,
                 200);
    }

    void limitRangerAndQuotaAdmission() {
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces"), ns(QStringLiteral("adm"))).status, 201);
        const QJsonObject lr = limitRange(
            QStringLiteral("mem"),
            QJsonObject{
                {QStringLiteral("type"), QStringLiteral("Container")},
                {QStringLiteral("max"), QJsonObject{{QStringLiteral("memory"), QStringLiteral("1Gi")}}},
                {QStringLiteral("default"), QJsonObject{{QStringLiteral("memory"), QStringLiteral("512Mi")},
                                                        {QStringLiteral("cpu"), QStringLiteral("500m")}}},
                {QStringLiteral("defaultRequest"),
                 QJsonObject{{QStringLiteral("memory"), QStringLiteral("256Mi")},
                             {QStringLiteral("cpu"), QStringLiteral("250m")}}}});
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces/adm/limitranges"), lr).status, 201);
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces/adm/resourcequotas"),
                        quota(QStringLiteral("compute"),
                              {{QStringLiteral("requests.memory"), QStringLiteral("1Gi")},
                               {QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("2")},
                               {QStringLiteral("count/pods"), QStringLiteral("5")}}))
                     .status,
                 201);
        // Defaults applied and annotated.
        Reply p = create(QStringLiteral("/api/v1/namespaces/adm/pods"), pod(QStringLiteral("small"), {}));
        QCOMPARE(p.status, 201);
        conforms(QStringLiteral("io.k8s.api.core.v1.Pod"), p.json);
        const QJsonObject resources = at(p.json, "spec", "containers", 0, "resources").toObject();
        QCOMPARE(at(resources, "requests", "memory").toString(), QStringLiteral("256Mi"));
        QCOMPARE(at(resources, "limits", "cpu").toString(), QStringLiteral("500m"));
        QCOMPARE(at(p.json, "metadata", "annotations", "kubernetes.io/limit-ranger").toString(),
                 QStringLiteral("LimitRanger plugin set: cpu, memory request for container main; cpu, memory "
                                "limit for container main"));
        QCOMPARE(usedOf(QStringLiteral("adm"), QStringLiteral("compute"), QStringLiteral("requests.memory")),
                 QStringLiteral("256Mi"));
        QCOMPARE(usedOf(QStringLiteral("adm"), QStringLiteral("compute"), QStringLiteral("count/pods")),
                 QStringLiteral("1"));

        // LimitRanger max.
        Reply big =
            create(QStringLiteral("/api/v1/namespaces/adm/pods"),
                   pod(QStringLiteral("big"), res({{QStringLiteral("memory"), QStringLiteral("1Gi")}},
                                                  {{QStringLiteral("memory"), QStringLiteral("1536Mi")}})));
        QCOMPARE(big.status, 403);
        QCOMPARE(big.json, expectedStatus(403, QStringLiteral("Forbidden"),
                                          QStringLiteral("pods \"big\" is forbidden: maximum memory usage "
                                                         "per Container is 1Gi, but limit is 1536Mi"),
                                          QStringLiteral("big"), QStringLiteral("pods")));
        // Quota: GPUs, exact upstream message, and dryRun does not charge.
        const QJsonObject gpu2 = res({{QStringLiteral("nvidia.com/gpu"), QStringLiteral("2")}},
                                     {{QStringLiteral("nvidia.com/gpu"), QStringLiteral("2")}});
        Reply dry = create(QStringLiteral("/api/v1/namespaces/adm/pods"), pod(QStringLiteral("g0"), gpu2),
                           QStringLiteral("?dryRun=All"));
        QCOMPARE(dry.status, 201);
        QCOMPARE(call("GET", QStringLiteral("/api/v1/namespaces/adm/pods/g0")).status, 404);
        QCOMPARE(usedOf(QStringLiteral("adm"), QStringLiteral("compute"),
                        QStringLiteral("requests.nvidia.com/gpu")),
                 QStringLiteral("0"));
        QCOMPARE(
            create(QStringLiteral("/api/v1/namespaces/adm/pods"), pod(QStringLiteral("g1"), gpu2)).status,
            201);
        QCOMPARE(usedOf(QStringLiteral("adm"), QStringLiteral("compute"),
                        QStringLiteral("requests.nvidia.com/gpu")),
                 QStringLiteral("2"));
        Reply over = create(
            QStringLiteral("/api/v1/namespaces/adm/pods"),
            pod(QStringLiteral("g2"), res({}, {{QStringLiteral("nvidia.com/gpu"), QStringLiteral("1")}})));
        QCOMPARE(over.status, 403);
        QCOMPARE(
            over.json.value(QStringLiteral("message")).toString(),
            QStringLiteral(
                "pods \"g2\" is forbidden: exceeded quota: compute, requested: requests.nvidia.com/gpu=1, "
                "used: requests.nvidia.com/gpu=2, limited: requests.nvidia.com/gpu=2"));
        // GPU requests must equal limits.
        Reply mismatch =
            create(QStringLiteral("/api/v1/namespaces/adm/pods"),
                   pod(QStringLiteral("g3"), res({{QStringLiteral("nvidia.com/gpu"), QStringLiteral("1")}},
                                                 {{QStringLiteral("nvidia.com/gpu"), QStringLiteral("2")}})));
        QCOMPARE(mismatch.status, 422);
        QVERIFY2(mismatch.json.value(QStringLiteral("message"))
                     .toString()
                     .contains(QStringLiteral("spec.containers[0].resources.requests: Invalid value: \"1\": "
                                              "must be equal to nvidia.com/gpu limit of 2")),
                 mismatch.body.constData());
        // A finished pod no longer counts; deleting one frees its share.
        QVERIFY(m_cluster.setPodPhase(QStringLiteral("adm"), QStringLiteral("g1"), QStringLiteral("Failed")));
        QCOMPARE(usedOf(QStringLiteral("adm"), QStringLiteral("compute"),
                        QStringLiteral("requests.nvidia.com/gpu")),
                 QStringLiteral("0"));
        QCOMPARE(call("DELETE", QStringLiteral("/api/v1/namespaces/adm/pods/small")).status, 200);
        QCOMPARE(usedOf(QStringLiteral("adm"), QStringLiteral("compute"), QStringLiteral("requests.memory")),
                 QStringLiteral("0"));
        // Quotas on cpu oblige every container to state it.
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces"), ns(QStringLiteral("adm2"))).status, 201);
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces/adm2/resourcequotas"),
                        quota(QStringLiteral("cpu"), {{QStringLiteral("limits.cpu"), QStringLiteral("4")}}))
                     .status,
                 201);
        Reply must = create(QStringLiteral("/api/v1/namespaces/adm2/pods"), pod(QStringLiteral("x"), {}));
        QCOMPARE(
            must.json.value(QStringLiteral("message")).toString(),
            QStringLiteral("pods \"x\" is forbidden: failed quota: cpu: must specify limits.cpu for: main"));
    }

    void quotaControllerWindow() {
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces"), ns(QStringLiteral("window"))).status, 201);
        QVERIFY(m_cluster.setQuotaControllerPaused(true));
        Reply q = create(
            QStringLiteral("/api/v1/namespaces/window/resourcequotas"),
            quota(QStringLiteral("gpu"), {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("1")}}));
        QCOMPARE(q.status, 201);
        QVERIFY2(!q.json.contains(QStringLiteral("status")) ||
                     q.json.value(QStringLiteral("status")).toObject().isEmpty(),
                 q.body.constData());
        const QJsonObject gpu2 = res({{QStringLiteral("nvidia.com/gpu"), QStringLiteral("2")}},
                                     {{QStringLiteral("nvidia.com/gpu"), QStringLiteral("2")}});
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces/window/pods"), pod(QStringLiteral("early"), gpu2))
                     .status,
                 201);
        QVERIFY(m_cluster.setQuotaControllerPaused(false));
        QCOMPARE(usedOf(QStringLiteral("window"), QStringLiteral("gpu"),
                        QStringLiteral("requests.nvidia.com/gpu")),
                 QStringLiteral("2"));
        Reply late = create(
            QStringLiteral("/api/v1/namespaces/window/pods"),
            pod(QStringLiteral("late"), res({}, {{QStringLiteral("nvidia.com/gpu"), QStringLiteral("1")}})));
        QCOMPARE(late.status, 403);
        QVERIFY(late.json.value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("exceeded quota: gpu")));
        // A status that lists a hard limit without its usage cannot be decided.
        Reply status = call(
            "PUT", QStringLiteral("/api/v1/namespaces/window/resourcequotas/gpu/status"),
            R"({"metadata":{"name":"gpu","namespace":"window"},"status":{"hard":{"requests.nvidia.com/gpu":"4"},"used":{}}})");
        QCOMPARE(status.status, 200);
        Reply unknown = create(QStringLiteral("/api/v1/namespaces/window/pods"),
                               pod(QStringLiteral("undecided"),
                                   res({}, {{QStringLiteral("nvidia.com/gpu"), QStringLiteral("1")}})));
        QCOMPARE(unknown.status, 403);
        QCOMPARE(unknown.json.value(QStringLiteral("message")).toString(),
                 QStringLiteral("pods \"undecided\" is forbidden: status unknown for quota: gpu, resources: "
                                "requests.nvidia.com/gpu"));
    }

    void listsPaginationAndSelectors() {
        for (int i = 0; i < 7; ++i) {
            QJsonObject n = ns(QStringLiteral("page-%1").arg(i));
            QJsonObject meta = n.value(QStringLiteral("metadata")).toObject();
            meta.insert(QStringLiteral("labels"),
                        QJsonObject{{QStringLiteral("parity"),
                                     i % 2 ? QStringLiteral("odd") : QStringLiteral("even")}});
            n.insert(QStringLiteral("metadata"), meta);
            QCOMPARE(create(QStringLiteral("/api/v1/namespaces"), n).status, 201);
        }
        Reply all = call("GET", QStringLiteral("/api/v1/namespaces"));
        conforms(QStringLiteral("io.k8s.api.core.v1.NamespaceList"), all.json);
        const QJsonArray allItems = all.json.value(QStringLiteral("items")).toArray();
        QStringList expected, got;
        for (const QJsonValue &v : allItems)
            expected.append(v.toObject()
                                .value(QStringLiteral("metadata"))
                                .toObject()
                                .value(QStringLiteral("name"))
                                .toString());
        QString cont;
        int pages = 0;
        do {
            Reply page = call("GET", QStringLiteral("/api/v1/namespaces?limit=3") +
                                         (cont.isEmpty() ? QString() : QStringLiteral("&continue=") + cont));
            QCOMPARE(page.status, 200);
            conforms(QStringLiteral("io.k8s.api.core.v1.NamespaceList"), page.json);
            for (const QJsonValue &v : page.json.value(QStringLiteral("items")).toArray())
                got.append(v.toObject()
                               .value(QStringLiteral("metadata"))
                               .toObject()
                               .value(QStringLiteral("name"))
                               .toString());
            const QJsonObject meta = page.json.value(QStringLiteral("metadata")).toObject();
            cont = meta.value(QStringLiteral("continue")).toString();
            if (!cont.isEmpty())
                QCOMPARE(meta.value(QStringLiteral("remainingItemCount")).toInt(),
                         allItems.size() - got.size());
            ++pages;
        } while (!cont.isEmpty() && pages < 100);
        QCOMPARE(got, expected);
        QCOMPARE(pages, int((allItems.size() + 2) / 3));

        Reply odd = call("GET", QStringLiteral("/api/v1/namespaces?labelSelector=parity%3Dodd"));
        QCOMPARE(odd.json.value(QStringLiteral("items")).toArray().size(), 3);
        Reply notIn =
            call("GET", QStringLiteral("/api/v1/namespaces?labelSelector=parity%20notin%20(odd),parity"));
        QCOMPARE(notIn.json.value(QStringLiteral("items")).toArray().size(), 4);
        Reply byName = call("GET", QStringLiteral("/api/v1/namespaces?fieldSelector=metadata.name%3Dpage-3"));
        QCOMPARE(byName.json.value(QStringLiteral("items")).toArray().size(), 1);
        Reply badField = call("GET", QStringLiteral("/api/v1/namespaces?fieldSelector=spec.foo%3Dx"));
        QCOMPARE(badField.status, 400);
        QCOMPARE(badField.json.value(QStringLiteral("message")).toString(),
                 QStringLiteral("field label not supported: spec.foo"));
        Reply cluster = call("GET", QStringLiteral("/api/v1/resourcequotas"));
        QCOMPARE(cluster.json.value(QStringLiteral("kind")).toString(), QStringLiteral("ResourceQuotaList"));
        conforms(QStringLiteral("io.k8s.api.core.v1.ResourceQuotaList"), cluster.json);
        Reply limitranges = call("GET", QStringLiteral("/api/v1/limitranges"));
        conforms(QStringLiteral("io.k8s.api.core.v1.LimitRangeList"), limitranges.json);
        for (const QJsonValue &v : limitranges.json.value(QStringLiteral("items")).toArray())
            conforms(QStringLiteral("io.k8s.api.core.v1.LimitRange"), v.toObject());
        Reply pods = call("GET", QStringLiteral("/api/v1/pods"));
        conforms(QStringLiteral("io.k8s.api.core.v1.PodList"), pods.json);
        Reply table =
            call("GET", QStringLiteral("/api/v1/namespaces?limit=2"), {}, {}, QStringLiteral("admin"),
                 "application/json;as=Table;v=v1;g=meta.k8s.io,application/json");
        QCOMPARE(table.json.value(QStringLiteral("kind")).toString(), QStringLiteral("Table"));
        QCOMPARE(table.json.value(QStringLiteral("rows")).toArray().size(), 2);
        QCOMPARE(at(table.json, "columnDefinitions", 1, "name").toString(), QStringLiteral("Status"));
        QVERIFY(!at(table.json, "metadata", "continue").toString().isEmpty());
    }

    void watchStream() {
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces"), ns(QStringLiteral("watched"))).status, 201);
        Reply list = call("GET", QStringLiteral("/api/v1/namespaces/watched/resourcequotas"));
        const QString rv = at(list.json, "metadata", "resourceVersion").toString();
        QVERIFY(!rv.isEmpty());
        QNetworkRequest req =
            request(QStringLiteral("/api/v1/namespaces/watched/"
                                   "resourcequotas?watch=1&allowWatchBookmarks=true&resourceVersion=") +
                        rv,
                    m_cluster.adminToken());
        QNetworkReply *watch = m_nam.get(req);
        QByteArray stream;
        connect(watch, &QNetworkReply::readyRead, this, [&] { stream += watch->readAll(); });
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces/watched/resourcequotas"),
                        quota(QStringLiteral("w"), {{QStringLiteral("pods"), QStringLiteral("3")}}))
                     .status,
                 201);
        QTRY_VERIFY_WITH_TIMEOUT(stream.contains("\"type\":\"ADDED\""), 10000);
        QCOMPARE(call("PATCH", QStringLiteral("/api/v1/namespaces/watched/resourcequotas/w"),
                      R"({"spec":{"hard":{"pods":"4"}}})", "application/merge-patch+json")
                     .status,
                 200);
        QTRY_VERIFY_WITH_TIMEOUT(stream.contains("\"type\":\"MODIFIED\""), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(stream.contains("\"type\":\"BOOKMARK\""), 10000);
        QCOMPARE(call("DELETE", QStringLiteral("/api/v1/namespaces/watched/resourcequotas/w")).status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(stream.contains("\"type\":\"DELETED\""), 10000);
        watch->abort();
        watch->deleteLater();
        qint64 lastRv = rv.toLongLong();
        for (const QByteArray &line : stream.split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject event = obj(line);
            conforms(QStringLiteral("io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent"), event);
            const QJsonObject o = event.value(QStringLiteral("object")).toObject();
            const qint64 eventRv = at(o, "metadata", "resourceVersion").toString().toLongLong();
            QVERIFY2(eventRv >= lastRv, line.constData());
            lastRv = eventRv;
            if (event.value(QStringLiteral("type")).toString() != QLatin1String("BOOKMARK")) {
                QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("ResourceQuota"));
                conforms(QStringLiteral("io.k8s.api.core.v1.ResourceQuota"), o);
            }
        }

        // After the event history is dropped, an old resourceVersion is 410 Gone.
        QVERIFY(m_cluster.compact());
        Reply gone = call(
            "GET",
            QStringLiteral("/api/v1/namespaces/watched/resourcequotas?watch=true&resourceVersion=") + rv);
        QCOMPARE(gone.status, 200);
        const QJsonObject error = obj(gone.body.split('\n').first());
        QCOMPARE(error.value(QStringLiteral("type")).toString(), QStringLiteral("ERROR"));
        const QJsonObject status = error.value(QStringLiteral("object")).toObject();
        QCOMPARE(status.value(QStringLiteral("code")).toInt(), 410);
        QCOMPARE(status.value(QStringLiteral("reason")).toString(), QStringLiteral("Expired"));
        QVERIFY(status.value(QStringLiteral("message"))
                    .toString()
                    .startsWith(QStringLiteral("too old resource version: ") + rv));

        // Without a resourceVersion: synthetic ADDED for what exists, then the server ends it at
        // timeoutSeconds.
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces/watched/resourcequotas"),
                        quota(QStringLiteral("w2"), {{QStringLiteral("pods"), QStringLiteral("1")}}))
                     .status,
                 201);
        Reply initial = call(
            "GET", QStringLiteral("/api/v1/namespaces/watched/resourcequotas?watch=true&timeoutSeconds=1"));
        QCOMPARE(initial.status, 200);
        QVERIFY(initial.body.contains("\"type\":\"ADDED\"") && initial.body.contains("\"name\":\"w2\""));
        QVERIFY(initial.elapsedMs >= 900);
    }

    // Boolean query parameters read as the API server reads them (apimachinery's
    // Convert_Slice_string_To_bool): "0" and "false" in any case are false, anything
    // else true; nothing is refused. The Python client sends "True", client-go "true".
    void booleanQueryParameters_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("expected");
        for (const char *t : {"1", "t", "T", "TRUE", "true", "True", "yes", "f", "F", ""})
            QTest::newRow(t[0] ? t : "(empty)") << QString::fromLatin1(t) << true;
        for (const char *f : {"0", "false", "False", "FALSE", "fAlSe"})
            QTest::newRow(f) << QString::fromLatin1(f) << false;
    }
    void booleanQueryParameters() {
        QFETCH(QString, value);
        QFETCH(bool, expected);
        const QString collection = QStringLiteral("/api/v1/namespaces");
        // watch: a stream of events, or a plain list.
        Reply watch = call("GET", collection + QStringLiteral("?timeoutSeconds=1&watch=") + value);
        QCOMPARE(watch.status, 200);
        QCOMPARE(watch.header("Content-Type").contains("stream=watch"), expected);
        if (expected) {
            const QJsonObject first = obj(watch.body.split('\n').first());
            QCOMPARE(first.value(QStringLiteral("type")).toString(), QStringLiteral("ADDED"));
        } else {
            QCOMPARE(watch.json.value(QStringLiteral("kind")).toString(), QStringLiteral("NamespaceList"));
        }
        // allowWatchBookmarks: the server sends BOOKMARKs (every 300 ms here) only when asked.
        Reply bookmarks = call(
            "GET", collection + QStringLiteral("?watch=true&timeoutSeconds=1&allowWatchBookmarks=") + value);
        QCOMPARE(bookmarks.status, 200);
        QCOMPARE(bookmarks.body.contains("\"type\":\"BOOKMARK\""), expected);
        // sendInitialEvents: the initial events end with the annotated bookmark only when asked.
        Reply initial =
            call("GET", collection +
                            QStringLiteral("?watch=1&timeoutSeconds=1&resourceVersionMatch=NotOlderThan"
                                           "&sendInitialEvents=") +
                            value);
        QCOMPARE(initial.status, 200);
        QCOMPARE(initial.body.contains("k8s.io/initial-events-end"), expected);
    }

    void namespaceDeleteCascades() {
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces"), ns(QStringLiteral("doomed"))).status, 201);
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces/doomed/resourcequotas"),
                        quota(QStringLiteral("q"), {{QStringLiteral("pods"), QStringLiteral("1")}}))
                     .status,
                 201);
        QCOMPARE(
            create(QStringLiteral("/api/v1/namespaces/doomed/pods"), pod(QStringLiteral("p"), {})).status,
            201);
        Reply del = call("DELETE", QStringLiteral("/api/v1/namespaces/doomed"));
        QCOMPARE(del.status, 200);
        QCOMPARE(at(del.json, "status", "phase").toString(), QStringLiteral("Terminating"));
        conforms(QStringLiteral("io.k8s.api.core.v1.Namespace"), del.json);
        QCOMPARE(call("GET", QStringLiteral("/api/v1/namespaces/doomed")).status, 404);
        QCOMPARE(call("GET", QStringLiteral("/api/v1/namespaces/doomed/resourcequotas"))
                     .json.value(QStringLiteral("items"))
                     .toArray()
                     .size(),
                 0);
        QCOMPARE(call("GET", QStringLiteral("/api/v1/pods?fieldSelector=metadata.namespace%3Ddoomed"))
                     .json.value(QStringLiteral("items"))
                     .toArray()
                     .size(),
                 0);
    }

    void faultKnobs() {
        QVERIFY(m_cluster.setFaults(QJsonObject{{QStringLiteral("errorCount"), 1}}));
        Reply r = call("GET", QStringLiteral("/api/v1/namespaces"));
        QCOMPARE(r.status, 500);
        QCOMPARE(r.json.value(QStringLiteral("reason")).toString(), QStringLiteral("InternalError"));
        QCOMPARE(call("GET", QStringLiteral("/api/v1/namespaces")).status, 200);

        QVERIFY(m_cluster.setFaults(
            QJsonObject{{QStringLiteral("throttleCount"), 1}, {QStringLiteral("retryAfterSeconds"), 2}}));
        r = call("GET", QStringLiteral("/api/v1/namespaces"));
        QCOMPARE(r.status, 429);
        QCOMPARE(r.header("Retry-After"), QByteArray("2"));
        QCOMPARE(at(r.json, "details", "retryAfterSeconds").toInt(), 2);
        conforms(QStringLiteral("io.k8s.apimachinery.pkg.apis.meta.v1.Status"), r.json);

        QVERIFY(m_cluster.setFaults(QJsonObject{{QStringLiteral("dropCount"), 1}}));
        r = call("GET", QStringLiteral("/api/v1/namespaces"));
        QVERIFY2(r.error != QNetworkReply::NoError, "a dropped response must surface as a transport error");
        QCOMPARE(call("GET", QStringLiteral("/api/v1/namespaces")).status, 200);

        QVERIFY(m_cluster.setFaults(QJsonObject{{QStringLiteral("latencyMs"), 300}}));
        r = call("GET", QStringLiteral("/api/v1/namespaces"));
        QCOMPARE(r.status, 200);
        QVERIFY2(r.elapsedMs >= 300, qPrintable(QString::number(r.elapsedMs)));

        QVERIFY(m_cluster.setFaults(QJsonObject{{QStringLiteral("stallWatches"), true}}));
        QNetworkReply *watch = m_nam.get(
            request(QStringLiteral("/api/v1/namespaces?watch=1&timeoutSeconds=2"), m_cluster.adminToken()));
        QByteArray stream;
        connect(watch, &QNetworkReply::readyRead, this, [&] { stream += watch->readAll(); });
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces"), ns(QStringLiteral("during-stall"))).status,
                 201);
        QTest::qWait(1000);
        QVERIFY2(stream.isEmpty(), stream.constData());
        watch->abort();
        watch->deleteLater();
        QVERIFY(m_cluster.clearFaults());
        // Hooks are admin-only over HTTPS as well.
        r = call("GET", QStringLiteral("/_gq/faults"), {}, {}, QStringLiteral("readonly"));
        QCOMPARE(r.status, 403);
        r = call("GET", QStringLiteral("/_gq/stats"));
        QCOMPARE(r.status, 200);
        QVERIFY(at(r.json, "objects", "namespaces").toInt() > 5);
    }

    void statePersistsAcrossRestarts() {
        QTemporaryDir dir;
        const QString state = dir.filePath(QStringLiteral("state.json"));
        QString rvBefore;
        {
            TestClusterProcess first(TestClusterProcess::Options{QStringLiteral("demo"), state, {}, 60000});
            QVERIFY2(first.start(), qPrintable(first.errorString()));
            QVERIFY(first.setPodPhase(QStringLiteral("team-nlp"), QStringLiteral("dana-train-1"),
                                      QStringLiteral("Succeeded")));
            rvBefore = first.stats().value(QStringLiteral("resourceVersion")).toString();
            const bool clean = first.stop();
            QVERIFY2(clean,
                     qPrintable(QStringLiteral(
                                    "SIGTERM must end the server cleanly (exit 0); exit code %1, stderr: %2")
                                    .arg(first.exitCode())
                                    .arg(first.stderrText())));
        }
        QVERIFY(QFile::exists(state));
        TestClusterProcess second(TestClusterProcess::Options{QStringLiteral("empty"), state, {}, 60000});
        QVERIFY2(second.start(), qPrintable(second.errorString()));
        const QJsonObject stats = second.stats();
        QCOMPARE(stats.value(QStringLiteral("resourceVersion")).toString(), rvBefore);
        QVERIFY(at(stats, "objects", "pods").toInt() > 10);
        // The finished pod is still finished and still not charged.
        const auto reply = second.hook("GET", QStringLiteral("/_gq/stats"));
        QVERIFY(reply.ok());
        QVERIFY(second.stop());
    }
};

QTEST_GUILESS_MAIN(TestApi)
#include "tst_api.moc"
