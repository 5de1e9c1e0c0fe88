// gpuquota-testcluster over plain HTTPS (Qt Network), checked the way a client
// library sees it: exact Status objects, resourceVersion semantics, errors,
// conflicts, patches and validation — and every kind of response
// checked against the Kubernetes OpenAPI schema.

#include "tests/testcluster/apifixture.h"

using namespace apitest;

class TestApi : public QObject, public ApiFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpFixture(); }

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

    // Kueue's custom resources: in discovery at kueue.x-k8s.io/v1beta2 with their /status,
    // stored with a resourceVersion, listed, and watched like the built-in kinds.
    void kueueKinds() {
        Reply r = call("GET", QStringLiteral("/apis/kueue.x-k8s.io"));
        QCOMPARE(r.status, 200);
        QCOMPARE(at(r.json, "preferredVersion", "version").toString(), QStringLiteral("v1beta2"));
        r = call("GET", QStringLiteral("/apis"));
        QVERIFY(r.body.contains("kueue.x-k8s.io/v1beta2"));
        r = call("GET", QStringLiteral("/apis/kueue.x-k8s.io/v1beta2"));
        QCOMPARE(r.status, 200);
        QStringList names;
        for (const QJsonValue &v : r.json.value(QStringLiteral("resources")).toArray())
            names << v.toObject().value(QStringLiteral("name")).toString();
        for (const char *name : {"clusterqueues", "clusterqueues/status", "localqueues", "workloads/status",
                                 "cohorts", "resourceflavors"})
            QVERIFY2(names.contains(QLatin1String(name)), name);
        const QString path = QStringLiteral("/apis/kueue.x-k8s.io/v1beta2/clusterqueues");
        const Reply list = call("GET", path);
        QCOMPARE(list.status, 200);
        const QString rv = at(list.json, "metadata", "resourceVersion").toString();
        r = create(path, obj(R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue",
            "metadata":{"name":"cq-watch"},"spec":{"resourceGroups":[{"coveredResources":["nvidia.com/gpu"],
            "flavors":[{"name":"h100","resources":[{"name":"nvidia.com/gpu","nominalQuota":"8"}]}]}]}})"));
        QCOMPARE(r.status, 201);
        QCOMPARE(r.json.value(QStringLiteral("kind")).toString(), QStringLiteral("ClusterQueue"));
        QCOMPARE(r.json.value(QStringLiteral("apiVersion")).toString(),
                 QStringLiteral("kueue.x-k8s.io/v1beta2"));
        r = call("GET", path + QStringLiteral("?watch=true&timeoutSeconds=1&resourceVersion=") + rv);
        QCOMPARE(r.status, 200);
        QVERIFY2(r.body.contains("\"type\":\"ADDED\"") && r.body.contains("cq-watch"), r.body.constData());
        QCOMPARE(call("DELETE", path + QStringLiteral("/cq-watch")).status, 200);
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
};

QTEST_GUILESS_MAIN(TestApi)
#include "tst_api.moc"
