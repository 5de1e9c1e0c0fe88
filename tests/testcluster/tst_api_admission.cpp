// gpuquota-testcluster over plain HTTPS (Qt Network), part two: LimitRanger and quota
// admission, the quota controller's window, pagination and selectors, watch streams,
// boolean query parameters, namespace deletion, fault knobs and persistence, every
// answer checked against the Kubernetes OpenAPI schema (see apifixture.h).

#include "tests/testcluster/apifixture.h"

using namespace apitest;

class TestApiAdmission : public QObject, public ApiFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpFixture(); }

    void cleanupTestCase() { QVERIFY2(m_cluster.stop(), qPrintable(m_cluster.stderrText())); }

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

QTEST_GUILESS_MAIN(TestApiAdmission)
#include "tst_api_admission.moc"
