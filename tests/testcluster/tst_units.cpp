// The test cluster's building blocks on their own: JSON writing, selectors,
// patches, printing, protobuf decoding, schema pruning and the admission
// messages, each against the upstream behaviour it imitates.

#include "testcluster/admission.h"
#include "testcluster/openapischema.h"
#include "testcluster/patch.h"
#include "testcluster/protobuf.h"
#include "testcluster/queryparams.h"
#include "testcluster/selectors.h"
#include "testcluster/store.h"
#include "testcluster/tables.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace gq::tc;

namespace {

QJsonObject parse(const char *json) {
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

QByteArray varint(quint64 v) {
    QByteArray out;
    while (v >= 0x80) {
        out.append(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.append(static_cast<char>(v));
    return out;
}

QByteArray field(int number, const QByteArray &bytes) {
    return varint(quint64(number) << 3 | 2) + varint(static_cast<quint64>(bytes.size())) + bytes;
}

void put(Store &store, Resource r, const char *json) {
    std::lock_guard lock(store.mutex);
    QJsonObject o = parse(json);
    applyDefaults(r, o);
    if (r == Resource::ResourceQuota)
        o.insert(QStringLiteral("status"), computeQuotaStatus(store, o));
    store.commit(r, o, "ADDED");
}

} // namespace

class TestUnits : public QObject {
    Q_OBJECT

private slots:
    void compactJsonRoundTrips() {
        QJsonObject o;
        o.insert(QStringLiteral("quote\"and\\backslash"),
                 QStringLiteral("tab\there\nnewline \u00e9\u4e2d \x01"));
        o.insert(QStringLiteral("int"), 42);
        o.insert(QStringLiteral("negative"), -7);
        o.insert(QStringLiteral("big"), 9007199254740993.0);
        o.insert(QStringLiteral("fraction"), 0.25);
        o.insert(QStringLiteral("null"), QJsonValue());
        o.insert(QStringLiteral("nested"),
                 QJsonArray{true, false, QJsonObject{{QStringLiteral("a"), QJsonArray()}}});
        const QByteArray text = toCompactJson(o);
        QJsonParseError err{};
        const QJsonDocument back = QJsonDocument::fromJson(text, &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        QCOMPARE(back.object(), o);
        QVERIFY(text.contains("\"int\":42"));
        QVERIFY(text.contains("\\u0001"));
        QVERIFY(!text.contains(' ') || text.contains("newline "));
    }

    void labelSelectors_data() {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<bool>("matches");
        QTest::newRow("equals") << "team=a" << true;
        QTest::newRow("double equals") << "team==a" << true;
        QTest::newRow("not equals") << "team!=a" << false;
        QTest::newRow("not equals absent key") << "tier!=x" << true;
        QTest::newRow("in") << "team in (b, a)" << true;
        QTest::newRow("notin") << "team notin (a)" << false;
        QTest::newRow("exists") << "gpu" << true;
        QTest::newRow("not exists") << "!gpu" << false;
        QTest::newRow("and") << "team=a,gpu=yes" << true;
        QTest::newRow("and fails") << "team=a,gpu=no" << false;
        QTest::newRow("empty") << "" << true;
    }
    void labelSelectors() {
        QFETCH(QString, selector);
        QFETCH(bool, matches);
        LabelSelector s;
        const gq::Result<void> parsed = s.parse(selector);
        QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().message));
        const Labels labels = {{QStringLiteral("team"), QStringLiteral("a")},
                               {QStringLiteral("gpu"), QStringLiteral("yes")}};
        QCOMPARE(s.matches(labels), matches);
    }

    void fieldSelectors() {
        Entry e;
        e.name = QStringLiteral("p1");
        e.ns = QStringLiteral("team-a");
        e.phase = QStringLiteral("Running");
        FieldSelector f;
        QString err;
        // The selector's parse with the error message kept, as the assertions read it.
        auto parseFields = [&f, &err](Resource r, const QString &text) {
            const gq::Result<void> parsed = f.parse(r, text);
            err = parsed ? QString() : parsed.error().message;
            return bool(parsed);
        };
        QVERIFY(parseFields(Resource::Pod, QStringLiteral("metadata.name=p1,status.phase!=Succeeded")));
        QVERIFY(f.matches(e));
        QVERIFY(parseFields(Resource::Pod, QStringLiteral("metadata.namespace==other")));
        QVERIFY(!f.matches(e));
        QVERIFY(!parseFields(Resource::ResourceQuota, QStringLiteral("status.phase=Running")));
        QCOMPARE(err, QStringLiteral("field label not supported: status.phase"));
        Entry ev;
        ev.json =
            R"({"involvedObject":{"kind":"Pod","name":"p1"},"source":{"component":"kubelet"},"type":"Normal"})";
        QVERIFY(parseFields(Resource::Event,
                            QStringLiteral("involvedObject.name=p1,source=kubelet,type=Normal")));
        QVERIFY(f.matches(ev));
    }

    // The API server's reading of boolean query parameters (apimachinery's
    // Convert_Slice_string_To_bool): "0" and "false" in any case are false, all else true.
    void queryBools_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("expected");
        for (const char *t : {"1", "t", "T", "TRUE", "true", "True", "yes", "", "2", "f", "F"})
            QTest::newRow(t[0] ? t : "(empty)") << QString::fromLatin1(t) << true;
        for (const char *f : {"0", "FALSE", "false", "False", "fAlSe"})
            QTest::newRow(f) << QString::fromLatin1(f) << false;
    }
    void queryBools() {
        QFETCH(QString, value);
        QFETCH(bool, expected);
        QCOMPARE(parseQueryBool(value), expected);
    }

    void continueTokensRoundTrip() {
        const QByteArray token = encodeContinueToken({42, QStringLiteral("team-a/p1")});
        const auto decoded = decodeContinueToken(QString::fromLatin1(token));
        QVERIFY(decoded);
        QCOMPARE(decoded->resourceVersion, quint64(42));
        // The key resumes just after the last one returned.
        QCOMPARE(decoded->startKey, QString(QStringLiteral("team-a/p1") + QChar(0)));
        QVERIFY(!decodeContinueToken(QStringLiteral("not-a-token")));
    }

    void patches() {
        QJsonObject target =
            parse(R"({"metadata":{"name":"q","labels":{"a":"1","b":"2"}},"spec":{"hard":{"pods":"1"}}})");
        QVERIFY(!applyPatch(PatchType::Merge,
                            R"({"metadata":{"labels":{"a":null,"c":"3"}},"spec":{"hard":{"cpu":"2"}}})",
                            target));
        QCOMPARE(
            target,
            parse(
                R"({"metadata":{"name":"q","labels":{"b":"2","c":"3"}},"spec":{"hard":{"pods":"1","cpu":"2"}}})"));
        // Strategic merge directives are honoured or dropped, never stored.
        QVERIFY(!applyPatch(
            PatchType::StrategicMerge,
            R"({"$setElementOrder/x":[],"spec":{"hard":{"$patch":"replace","gpu":"4"}},"metadata":{"labels":{"$patch":"delete"}}})",
            target));
        QCOMPARE(target, parse(R"({"metadata":{"name":"q"},"spec":{"hard":{"gpu":"4"}}})"));
        QVERIFY(!applyPatch(
            PatchType::Json,
            R"([{"op":"add","path":"/spec/hard/pods","value":"3"},{"op":"test","path":"/spec/hard/gpu","value":"4"},{"op":"move","from":"/spec/hard/gpu","path":"/spec/hard/nvidia.com~1gpu"}])",
            target));
        QCOMPARE(target,
                 parse(R"({"metadata":{"name":"q"},"spec":{"hard":{"pods":"3","nvidia.com/gpu":"4"}}})"));
        const auto failed =
            applyPatch(PatchType::Json, R"([{"op":"test","path":"/spec/hard/pods","value":"9"}])", target);
        QVERIFY(failed);
        QCOMPARE(failed->code, 422);
        QVERIFY(applyPatch(PatchType::Merge, "not json", target));
        QCOMPARE(patchTypeFromContentType("application/strategic-merge-patch+json; charset=utf-8"),
                 std::optional(PatchType::StrategicMerge));
        QVERIFY(!patchTypeFromContentType("application/json"));
    }

    void humanDurations_data() {
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("now") << qint64(0) << "0s";
        QTest::newRow("clock skew") << qint64(-1) << "0s";
        QTest::newRow("invalid") << qint64(-5) << "<invalid>";
        QTest::newRow("119s") << qint64(119) << "119s";
        QTest::newRow("2m") << qint64(120) << "2m";
        QTest::newRow("2m30s") << qint64(150) << "2m30s";
        QTest::newRow("10m") << qint64(600) << "10m";
        QTest::newRow("179m") << qint64(179 * 60) << "179m";
        QTest::newRow("3h20m") << qint64(3 * 3600 + 20 * 60) << "3h20m";
        QTest::newRow("8h") << qint64(8 * 3600 + 59) << "8h";
        QTest::newRow("47h") << qint64(47 * 3600) << "47h";
        QTest::newRow("2d") << qint64(48 * 3600) << "2d";
        QTest::newRow("3d4h") << qint64(76 * 3600) << "3d4h";
        QTest::newRow("30d") << qint64(30 * 86400) << "30d";
        QTest::newRow("2y") << qint64(2 * 365 * 86400) << "2y";
        QTest::newRow("2y10d") << qint64(740 * 86400) << "2y10d";
    }
    void humanDurations() {
        QFETCH(qint64, seconds);
        QFETCH(QString, text);
        QCOMPARE(humanDuration(seconds), text);
    }

    void protobufNamespace() {
        const QByteArray typeMeta = field(1, "v1") + field(2, "Namespace");
        const QByteArray labels = field(11, field(1, "team") + field(2, "vision"));
        const QByteArray meta = field(1, "team-vision") + field(2, "") + labels;
        const QByteArray body = QByteArray("k8s\0", 4) + field(1, typeMeta) + field(2, field(1, meta)) +
                                field(4, "application/vnd.kubernetes.protobuf");
        const auto decoded = decodeKubernetesProtobuf(body);
        QVERIFY2(decoded, qPrintable(decoded ? QString() : decoded.error().message));
        QCOMPARE(
            *decoded,
            parse(
                R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-vision","labels":{"team":"vision"}}})"));
        QVERIFY(!decodeKubernetesProtobuf("{}"));
        const auto deployment =
            decodeKubernetesProtobuf(QByteArray("k8s\0", 4) + field(1, field(2, "Deployment")));
        QVERIFY(!deployment);
        const QString err = deployment.error().message;
        QVERIFY(err.contains(QStringLiteral("Deployment")));
    }

    void schemaPruning() {
        QFile f(QStringLiteral(GQ_TESTCLUSTER_OPENAPI_DIR "/api__v1_openapi.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        OpenApiSchema schema;
        QVERIFY(schema.addDocument(f.readAll()));
        QJsonObject lr = parse(
            R"({"metadata":{"name":"x","bogus":1},"spec":{"limits":[{"type":"Container","max":{"cpu":"1"},"extra":true}]}})");
        const QStringList unknown = schema.pruneUnknown(QStringLiteral("io.k8s.api.core.v1.LimitRange"), lr);
        QCOMPARE(unknown,
                 (QStringList{QStringLiteral("metadata.bogus"), QStringLiteral("spec.limits[0].extra")}));
        QCOMPARE(
            lr,
            parse(R"({"metadata":{"name":"x"},"spec":{"limits":[{"type":"Container","max":{"cpu":"1"}}]}})"));
        QVERIFY(schema.validate(QStringLiteral("io.k8s.api.core.v1.LimitRange"), lr).isEmpty());
        QVERIFY(!schema
                     .validate(QStringLiteral("io.k8s.api.core.v1.LimitRange"),
                               parse(R"({"spec":{"limits":[{"max":{"cpu":"1"}}]}})"))
                     .isEmpty());
    }

    void limitRangeValidationMessages() {
        QJsonObject lr = parse(
            R"({"metadata":{"name":"lr"},"spec":{"limits":[{"type":"Container","default":{"nvidia.com/gpu":"2"},"defaultRequest":{"nvidia.com/gpu":"1","cpu":"2"},"max":{"cpu":"1"}},{"type":"Pod","default":{"cpu":"1"}},{"type":"Node"}]}})");
        applyDefaults(Resource::LimitRange, lr);
        QStringList got;
        for (const FieldError &e : validateObject(Resource::LimitRange, lr, nullptr))
            got.append(e.toString());
        QVERIFY2(got.contains(QStringLiteral("spec.limits[0].defaultRequest[cpu]: Invalid value: \"2\": "
                                             "default request value 2 is greater than max value 1")),
                 qPrintable(got.join(QLatin1Char('\n'))));
        QVERIFY(got.contains(
            QStringLiteral("spec.limits[0].defaultRequest[nvidia.com/gpu]: Invalid value: \"1\": default "
                           "value 2 must equal to defaultRequest value 1 in nvidia.com/gpu")));
        QVERIFY(got.contains(
            QStringLiteral("spec.limits[1].default: Forbidden: may not be specified when `type` is 'Pod'")));
        QVERIFY(got.contains(QStringLiteral("spec.limits[2].type: Unsupported value: \"Node\": supported "
                                            "values: \"Container\", \"PersistentVolumeClaim\", \"Pod\"")));
    }

    void quotaAdmissionMatchesUpstreamExample() {
        // The example from the Kubernetes documentation, byte for byte.
        Store store;
        put(store, Resource::Namespace, R"({"metadata":{"name":"quota-mem-cpu-example"}})");
        put(store, Resource::ResourceQuota,
            R"({"metadata":{"name":"mem-cpu-demo","namespace":"quota-mem-cpu-example"},"spec":{"hard":{"requests.cpu":"1","requests.memory":"1Gi","limits.cpu":"2","limits.memory":"2Gi"}}})");
        QJsonObject first = parse(
            R"({"metadata":{"name":"quota-mem-cpu-demo","namespace":"quota-mem-cpu-example"},"spec":{"containers":[{"name":"c","image":"nginx","resources":{"limits":{"memory":"800Mi","cpu":"800m"},"requests":{"memory":"600Mi","cpu":"400m"}}}]}})");
        applyDefaults(Resource::Pod, first);
        {
            std::lock_guard lock(store.mutex);
            QVERIFY(!admitPod(store, QStringLiteral("quota-mem-cpu-example"), first));
            store.commit(Resource::Pod, first, "ADDED");
            QJsonObject q = QJsonDocument::fromJson(store
                                                        .find(Resource::ResourceQuota,
                                                              QStringLiteral("quota-mem-cpu-example"),
                                                              QStringLiteral("mem-cpu-demo"))
                                                        ->json)
                                .object();
            q.insert(QStringLiteral("status"), computeQuotaStatus(store, q));
            QCOMPARE(
                q.value(QStringLiteral("status")).toObject().value(QStringLiteral("used")).toObject(),
                parse(
                    R"({"limits.cpu":"800m","limits.memory":"800Mi","requests.cpu":"400m","requests.memory":"600Mi"})"));
            store.commit(Resource::ResourceQuota, q, "MODIFIED");
        }
        QJsonObject second = parse(
            R"({"metadata":{"name":"quota-mem-cpu-demo-2","namespace":"quota-mem-cpu-example"},"spec":{"containers":[{"name":"c","image":"redis","resources":{"limits":{"memory":"1Gi","cpu":"800m"},"requests":{"memory":"700Mi","cpu":"400m"}}}]}})");
        applyDefaults(Resource::Pod, second);
        std::lock_guard lock(store.mutex);
        const auto denied = admitPod(store, QStringLiteral("quota-mem-cpu-example"), second);
        QVERIFY(denied);
        QCOMPARE(denied->code, 403);
        QCOMPARE(denied->message,
                 QStringLiteral(
                     "pods \"quota-mem-cpu-demo-2\" is forbidden: exceeded quota: mem-cpu-demo, requested: "
                     "requests.memory=700Mi, used: requests.memory=600Mi, limited: requests.memory=1Gi"));
    }

    void podScopeFacts_data() {
        QTest::addColumn<QString>("pod");
        QTest::addColumn<bool>("terminating");
        QTest::addColumn<bool>("bestEffort");
        QTest::addColumn<bool>("crossNamespace");
        QTest::addColumn<QString>("priorityClass");
        QTest::newRow("nothing requested")
            << R"({"spec":{"containers":[{"name":"a"}]}})" << false << true << false << QString();
        // GPUs do not make a pod Burstable: QoS looks at cpu and memory only.
        QTest::newRow("gpu only")
            << R"({"spec":{"containers":[{"name":"a","resources":{"limits":{"nvidia.com/gpu":"1"}}}]}})"
            << false << true << false << QString();
        QTest::newRow("zero cpu")
            << R"({"spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"0"}}}]}})" << false
            << true << false << QString();
        QTest::newRow("init container memory")
            << R"({"spec":{"initContainers":[{"name":"i","resources":{"limits":{"memory":"1Gi"}}}],"containers":[{"name":"a"}]}})"
            << false << false << false << QString();
        QTest::newRow("deadline 0 is terminating")
            << R"({"spec":{"activeDeadlineSeconds":0,"priorityClassName":"high","containers":[{"name":"a","resources":{"requests":{"cpu":"1"}}}]}})"
            << true << false << false << QStringLiteral("high");
        QTest::newRow("affinity namespaces")
            << R"({"spec":{"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"k","namespaces":["other"]}]}},"containers":[{"name":"a"}]}})"
            << false << true << true << QString();
        QTest::newRow("anti-affinity namespaceSelector, weighted")
            << R"({"spec":{"affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"podAffinityTerm":{"topologyKey":"k","namespaceSelector":{}}}]}},"containers":[{"name":"a"}]}})"
            << false << true << true << QString();
        QTest::newRow("affinity in own namespace")
            << R"({"spec":{"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"k","labelSelector":{}}]}},"containers":[{"name":"a"}]}})"
            << false << true << false << QString();
    }
    void podScopeFacts() {
        QFETCH(QString, pod);
        const PodScopeFacts facts = gq::tc::podScopeFacts(QJsonDocument::fromJson(pod.toUtf8()).object());
        QTEST(facts.terminating, "terminating");
        QTEST(facts.bestEffort, "bestEffort");
        QTEST(facts.crossNamespaceAffinity, "crossNamespace");
        QTEST(facts.priorityClass, "priorityClass");
    }

    void priorityClassSelector_data() {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QStringList>("values");
        QTest::addColumn<QString>("podClass");
        QTest::addColumn<bool>("matches");
        const QStringList high{QStringLiteral("high")};
        QTest::newRow("In, same") << "In" << high << "high" << true;
        QTest::newRow("In, other") << "In" << high << "low" << false;
        QTest::newRow("In, none") << "In" << high << "" << false;
        QTest::newRow("NotIn, same") << "NotIn" << high << "high" << false;
        QTest::newRow("NotIn, other") << "NotIn" << high << "low" << true;
        // A label selector: NotIn also holds when the key is absent.
        QTest::newRow("NotIn, none") << "NotIn" << high << "" << true;
        QTest::newRow("Exists, some") << "Exists" << QStringList() << "low" << true;
        QTest::newRow("Exists, none") << "Exists" << QStringList() << "" << false;
        QTest::newRow("DoesNotExist, some") << "DoesNotExist" << QStringList() << "low" << false;
        QTest::newRow("DoesNotExist, none") << "DoesNotExist" << QStringList() << "" << true;
    }
    void priorityClassSelector() {
        QFETCH(QString, op);
        QFETCH(QStringList, values);
        QFETCH(QString, podClass);
        PodScopeFacts pod;
        pod.priorityClass = podClass;
        QTEST(podMatchesScopes({{QStringLiteral("PriorityClass"), op, values}}, pod), "matches");
    }

    void scopedQuotaCountsOnlyMatchingPods() {
        Store store;
        put(store, Resource::Namespace, R"({"metadata":{"name":"ns"}})");
        const auto pod = [&](const char *name, const char *extraSpec, const char *resources) {
            put(store, Resource::Pod,
                qPrintable(
                    QStringLiteral(
                        R"({"metadata":{"name":"%1","namespace":"ns"},"spec":{%2"containers":[{"name":"c","image":"i","resources":%3}]},"status":{"phase":"Running"}})")
                        .arg(QLatin1String(name), QLatin1String(extraSpec), QLatin1String(resources))));
        };
        const char *gpuAndCpu =
            R"({"requests":{"cpu":"1","nvidia.com/gpu":"2"},"limits":{"nvidia.com/gpu":"2"}})";
        pod("plain", "", gpuAndCpu);
        pod("high", R"("priorityClassName":"high",)", gpuAndCpu);
        pod("low", R"("priorityClassName":"low",)", gpuAndCpu);
        pod("job", R"("activeDeadlineSeconds":600,)", gpuAndCpu);
        pod("besteffort", "", "{}");
        const auto used = [&](const char *spec) -> QString {
            QJsonObject q =
                parse(qPrintable(QStringLiteral(R"({"metadata":{"name":"q","namespace":"ns"},"spec":%1})")
                                     .arg(QLatin1String(spec))));
            applyDefaults(Resource::ResourceQuota, q);
            std::lock_guard lock(store.mutex);
            const QJsonObject u = computeQuotaStatus(store, q).value(QStringLiteral("used")).toObject();
            return u.value(QStringLiteral("pods")).toString() + QLatin1Char('/') +
                   u.value(QStringLiteral("requests.nvidia.com/gpu")).toString();
        };
        QCOMPARE(used(R"({"hard":{"pods":"10","requests.nvidia.com/gpu":"100"}})"), QStringLiteral("5/8"));
        QCOMPARE(used(R"({"hard":{"pods":"10","requests.nvidia.com/gpu":"100"},"scopes":["Terminating"]})"),
                 QStringLiteral("1/2"));
        QCOMPARE(
            used(R"({"hard":{"pods":"10","requests.nvidia.com/gpu":"100"},"scopes":["NotTerminating"]})"),
            QStringLiteral("4/6"));
        QCOMPARE(used(R"({"hard":{"pods":"10"},"scopes":["BestEffort"]})").section(QLatin1Char('/'), 0, 0),
                 QStringLiteral("1"));
        QCOMPARE(
            used(
                R"({"hard":{"pods":"10","requests.nvidia.com/gpu":"100"},"scopes":["NotBestEffort","NotTerminating"]})"),
            QStringLiteral("3/6"));
        QCOMPARE(
            used(
                R"({"hard":{"pods":"10","requests.nvidia.com/gpu":"100"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In","values":["high"]}]}})"),
            QStringLiteral("1/2"));
        QCOMPARE(
            used(
                R"({"hard":{"pods":"10","requests.nvidia.com/gpu":"100"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"NotIn","values":["high"]}]}})"),
            QStringLiteral("4/6"));
        QCOMPARE(
            used(
                R"({"hard":{"pods":"10","requests.nvidia.com/gpu":"100"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"Exists"}]}})"),
            QStringLiteral("2/4"));
        // scopes and scopeSelector together: every requirement must hold.
        QCOMPARE(
            used(
                R"({"hard":{"pods":"10","requests.nvidia.com/gpu":"100"},"scopes":["Terminating"],"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"DoesNotExist"}]}})"),
            QStringLiteral("1/2"));
    }

    void scopedQuotaAdmission() {
        Store store;
        put(store, Resource::Namespace, R"({"metadata":{"name":"ns"}})");
        // Only "high" pods may use GPUs here, 2 at most; and they must state cpu.
        put(store, Resource::ResourceQuota,
            R"({"metadata":{"name":"high-gpu","namespace":"ns"},"spec":{"hard":{"requests.nvidia.com/gpu":"2","requests.cpu":"8"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In","values":["high"]}]}}})");
        const auto admit = [&](const char *name, const char *cls, int gpus, bool withCpu = true) {
            QJsonObject pod = parse(qPrintable(
                QStringLiteral(
                    R"({"metadata":{"name":"%1","namespace":"ns"},"spec":{"priorityClassName":"%2","containers":[{"name":"c","image":"i","resources":{"limits":{%4"nvidia.com/gpu":"%3"}}}]}})")
                    .arg(QLatin1String(name), QLatin1String(cls))
                    .arg(gpus)
                    .arg(withCpu ? QStringLiteral(R"("cpu":"1",)") : QString())));
            applyDefaults(Resource::Pod, pod);
            std::lock_guard lock(store.mutex);
            auto denied = admitPod(store, QStringLiteral("ns"), pod);
            if (!denied) {
                store.commit(Resource::Pod, pod, "ADDED");
                const Entry *e =
                    store.find(Resource::ResourceQuota, QStringLiteral("ns"), QStringLiteral("high-gpu"));
                QJsonObject q = QJsonDocument::fromJson(e->json).object();
                q.insert(QStringLiteral("status"), computeQuotaStatus(store, q));
                store.commit(Resource::ResourceQuota, q, "MODIFIED");
            }
            return denied ? denied->message : QString();
        };
        // Another class is neither counted nor held to the quota's "must specify".
        QCOMPARE(admit("low-1", "low", 4), QString());
        QCOMPARE(admit("low-2", "low", 4, false), QString());
        QCOMPARE(admit("high-1", "high", 1), QString());
        QCOMPARE(admit("high-2", "high", 2),
                 QStringLiteral("pods \"high-2\" is forbidden: exceeded quota: high-gpu, requested: "
                                "requests.nvidia.com/gpu=2, used: requests.nvidia.com/gpu=1, limited: "
                                "requests.nvidia.com/gpu=2"));
        QCOMPARE(
            admit("high-3", "high", 1, false),
            QStringLiteral(
                "pods \"high-3\" is forbidden: failed quota: high-gpu: must specify requests.cpu for: c"));
        QCOMPARE(admit("high-4", "high", 1), QString());
    }

    void quotaScopeValidationMessages_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QStringList>("errors");
        QTest::newRow("unknown scope")
            << R"({"hard":{"pods":"1"},"scopes":["Foo"]})"
            << QStringList{R"(spec.scopes: Invalid value: ["Foo"]: unsupported scope)"};
        QTest::newRow("BestEffort with cpu")
            << R"({"hard":{"pods":"1","requests.cpu":"1"},"scopes":["BestEffort"]})"
            << QStringList{
                   R"(spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource)"};
        // Extended resources and object counts are not checked against scopes.
        QTest::newRow("BestEffort with gpu and count/pods")
            << R"({"hard":{"count/pods":"1","requests.nvidia.com/gpu":"1"},"scopes":["BestEffort"]})"
            << QStringList{};
        QTest::newRow("PriorityClass with ephemeral storage")
            << R"({"hard":{"requests.ephemeral-storage":"1Gi"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"Exists"}]}})"
            << QStringList{
                   R"(spec.scopeSelector.matchExpressions: Invalid value: {"matchExpressions":[{"operator":"Exists","scopeName":"PriorityClass"}]}: unsupported scope applied to resource)"};
        QTest::newRow("conflicting")
            << R"({"hard":{"pods":"1"},"scopes":["Terminating","NotTerminating","BestEffort","NotBestEffort"]})"
            << QStringList{
                   R"(spec.scopes: Invalid value: ["Terminating","NotTerminating","BestEffort","NotBestEffort"]: conflicting scopes)",
                   R"(spec.scopes: Invalid value: ["Terminating","NotTerminating","BestEffort","NotBestEffort"]: conflicting scopes)"};
        QTest::newRow("selector scope name")
            << R"({"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"Priority","operator":"Exists"}]}})"
            << QStringList{
                   R"(spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Priority": unsupported scope)"};
        QTest::newRow("selector operator for Terminating")
            << R"({"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"Terminating","operator":"DoesNotExist"}]}})"
            << QStringList{
                   R"(spec.scopeSelector.matchExpressions.operator: Invalid value: "DoesNotExist": must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity)"};
        QTest::newRow("selector In without values")
            << R"({"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In"}]}})"
            << QStringList{"spec.scopeSelector.matchExpressions.values: Required value: must be at least one "
                           "value when `operator` is 'In' or 'NotIn' for scope selector"};
        QTest::newRow("selector Exists with values")
            << R"({"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"Exists","values":["a"]}]}})"
            << QStringList{
                   R"(spec.scopeSelector.matchExpressions.values: Invalid value: ["a"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector)"};
        QTest::newRow("selector bad operator")
            << R"({"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"Equals","values":["a"]}]}})"
            << QStringList{
                   R"(spec.scopeSelector.matchExpressions.operator: Invalid value: "Equals": not a valid selector operator)"};
        QTest::newRow("valid GPU quota for one class")
            << R"({"hard":{"pods":"4","requests.cpu":"8","requests.nvidia.com/gpu":"2"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In","values":["high","urgent"]}]}})"
            << QStringList{};
    }
    void quotaScopeValidationMessages() {
        QFETCH(QString, spec);
        QFETCH(QStringList, errors);
        QJsonObject q = parse(qPrintable(QStringLiteral(R"({"metadata":{"name":"q"},"spec":%1})").arg(spec)));
        applyDefaults(Resource::ResourceQuota, q);
        QStringList got;
        for (const FieldError &e : validateObject(Resource::ResourceQuota, q, nullptr))
            got.append(e.toString());
        QCOMPARE(got, errors);
    }

    void quotaScopesAreImmutable() {
        const QJsonObject old =
            parse(R"({"metadata":{"name":"q"},"spec":{"hard":{"pods":"1"},"scopes":["Terminating"]}})");
        QJsonObject changed = old;
        changed.insert(QStringLiteral("spec"), parse(R"({"hard":{"pods":"1"},"scopes":["NotTerminating"]})"));
        QStringList got;
        for (const FieldError &e : validateObject(Resource::ResourceQuota, changed, &old))
            got.append(e.toString());
        QCOMPARE(got, QStringList{R"(spec.scopes: Invalid value: ["NotTerminating"]: field is immutable)"});
        // Hard limits may change; the selector is not under the immutability rule.
        QJsonObject raised = old;
        raised.insert(
            QStringLiteral("spec"),
            parse(
                R"({"hard":{"pods":"5"},"scopes":["Terminating"],"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"Exists"}]}})"));
        QVERIFY(validateObject(Resource::ResourceQuota, raised, &old).isEmpty());
    }

    void podDeadlineRange() {
        QJsonObject pod = parse(
            R"({"metadata":{"name":"p"},"spec":{"activeDeadlineSeconds":0,"containers":[{"name":"c","image":"i"}]}})");
        QStringList got;
        for (const FieldError &e : validateObject(Resource::Pod, pod, nullptr))
            got.append(e.toString());
        QCOMPARE(got, QStringList{QStringLiteral("spec.activeDeadlineSeconds: Invalid value: 0: must be "
                                                 "between 1 and 2147483647, inclusive")});
        pod = parse(
            R"({"metadata":{"name":"p"},"spec":{"activeDeadlineSeconds":60,"containers":[{"name":"c","image":"i"}]}})");
        QVERIFY(validateObject(Resource::Pod, pod, nullptr).isEmpty());
    }

    void podUsageTakesLargestInitContainer() {
        const QJsonObject pod = parse(
            R"({"spec":{"initContainers":[{"name":"i","resources":{"requests":{"cpu":"3"}}}],"containers":[{"name":"a","resources":{"requests":{"cpu":"1","nvidia.com/gpu":"1"},"limits":{"nvidia.com/gpu":"1"}}},{"name":"b","resources":{"requests":{"cpu":"500m"}}}]}})");
        const Usage u = podUsage(pod);
        auto get = [&](const char *k) {
            for (const auto &[key, q] : u)
                if (key == QLatin1String(k))
                    return q.toString();
            return QString();
        };
        QCOMPARE(get("requests.cpu"), QStringLiteral("3"));
        QCOMPARE(get("cpu"), QStringLiteral("3"));
        QCOMPARE(get("requests.nvidia.com/gpu"), QStringLiteral("1"));
        QCOMPARE(get("limits.nvidia.com/gpu"), QStringLiteral("1"));
        QCOMPARE(get("count/pods"), QStringLiteral("1"));
        QCOMPARE(get("requests.memory"), QString());
    }
};

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
