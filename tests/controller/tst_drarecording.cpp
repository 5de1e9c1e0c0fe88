// DRA claims as the usage recorder charges them (pure parts): a pod's spec.resourceClaims
// and the claim names status gives for templates, the devices a claim's allocation holds,
// their GPU model and fraction from the ResourceSlice, and the intervals they become.
#include "core/kube/dra.h"
#include "services/controller/draholdings.h"
#include "services/controller/usagerecorder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gq;

namespace {

QJsonObject json(const char *text) {
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

const char *kSlice = R"({"metadata":{"name":"node-1-gpu"},"spec":{"driver":"gpu.example.com",
    "pool":{"name":"node-1","generation":1,"resourceSliceCount":1},"nodeName":"node-1","devices":[
    {"name":"gpu-0","attributes":{"productName":{"string":"NVIDIA H100 80GB HBM3"}}},
    {"name":"gpu-1","attributes":{"gpu.example.com/productName":{"string":"NVIDIA H100 80GB HBM3"}}},
    {"name":"mig-0","attributes":{"productName":{"string":"NVIDIA A100-SXM4-40GB"},"profile":{"string":"3g.20gb"}}},
    {"name":"part-0","attributes":{"gpuquota.io/gpu-fraction":{"string":"1/4"}}}]}})";

QJsonObject claim(const char *ns, const char *name, const char *cls, const QStringList &devices) {
    QJsonArray results;
    for (const QString &d : devices)
        results.append(QJsonObject{{QStringLiteral("request"), QStringLiteral("gpu")},
                                   {QStringLiteral("driver"), QStringLiteral("gpu.example.com")},
                                   {QStringLiteral("pool"), QStringLiteral("node-1")},
                                   {QStringLiteral("device"), d}});
    QJsonObject o = json(R"({"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"count":2}}]}}})");
    QJsonObject spec = o.value(QStringLiteral("spec")).toObject();
    QJsonObject devs = spec.value(QStringLiteral("devices")).toObject();
    QJsonArray reqs = devs.value(QStringLiteral("requests")).toArray();
    QJsonObject req = reqs.first().toObject();
    QJsonObject exactly = req.value(QStringLiteral("exactly")).toObject();
    exactly.insert(QStringLiteral("deviceClassName"), QLatin1String(cls));
    req.insert(QStringLiteral("exactly"), exactly);
    devs.insert(QStringLiteral("requests"), QJsonArray{req});
    spec.insert(QStringLiteral("devices"), devs);
    o.insert(QStringLiteral("spec"), spec);
    o.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("namespace"), QLatin1String(ns)},
                                                     {QStringLiteral("name"), QLatin1String(name)}});
    o.insert(QStringLiteral("status"),
             QJsonObject{{QStringLiteral("allocation"),
                          QJsonObject{{QStringLiteral("devices"),
                                       QJsonObject{{QStringLiteral("results"), results}}}}}});
    return o;
}

const char *kPod =
    R"({"metadata":{"namespace":"ml","name":"train","uid":"u1","labels":{"gpuquota.io/user":"alice"}},
    "spec":{"nodeName":"node-1","containers":[{"name":"c"}],"resourceClaims":[
        {"name":"gpus","resourceClaimTemplateName":"two-gpus"},{"name":"shared","resourceClaimName":"team-gpu"},
        {"name":"later","resourceClaimTemplateName":"one-gpu"}]},
    "status":{"phase":"Running","startTime":"2026-11-30T08:00:00Z",
        "resourceClaimStatuses":[{"name":"gpus","resourceClaimName":"train-gpus-x7k2p"}],
        "containerStatuses":[{"name":"c","state":{"running":{"startedAt":"2026-11-30T08:00:03Z"}}}]}})";

} // namespace

class TestDraRecording : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void podClaimsResolveTemplatesFromStatus() {
        const PodInfo pod = podInfoFromJson(json(kPod));
        QCOMPARE(pod.claims.size(), 3);
        QCOMPARE(pod.claims[0].claimName, QStringLiteral("train-gpus-x7k2p"));
        QCOMPARE(pod.claims[0].templateName, QStringLiteral("two-gpus"));
        QCOMPARE(pod.claims[1].claimName, QStringLiteral("team-gpu"));
        QVERIFY(pod.claims[1].templateName.isEmpty());
        QVERIFY(pod.claims[2].claimName.isEmpty()); // not created yet
        QVERIFY(pod.gpus.isEmpty());
    }

    void sliceDevicesGiveModelAndFraction() {
        const auto devices =
            dra::indexSlices({StoredObject{{}, QStringLiteral("s"), QStringLiteral("1"), json(kSlice)}});
        QCOMPARE(devices.size(), 4);
        const auto key = [](const char *d) {
            return dra::deviceKey(QStringLiteral("gpu.example.com"), QStringLiteral("node-1"),
                                  QLatin1String(d));
        };
        QCOMPARE(devices.value(key("gpu-0")).gpuModel, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(devices.value(key("gpu-1")).gpuModel, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(devices.value(key("gpu-0")).fraction, 1.0);
        QCOMPARE(devices.value(key("mig-0")).fraction, 3.0 / 7.0);
        QCOMPARE(devices.value(key("part-0")).fraction, 0.25);
    }

    void quotaKeysNameTheirClass() {
        QCOMPARE(dra::quotaKey(QStringLiteral("gpu.example.com")),
                 QStringLiteral("gpu.example.com.deviceclass.resource.k8s.io/devices"));
        QCOMPARE(
            dra::deviceClassOfQuotaKey(QStringLiteral("gpu.example.com.deviceclass.resource.k8s.io/devices")),
            QStringLiteral("gpu.example.com"));
        QVERIFY(dra::deviceClassOfQuotaKey(QStringLiteral("requests.nvidia.com/gpu")).isEmpty());
    }

    void claimsBecomeHoldsAndIntervals() {
        const PodInfo pod = podInfoFromJson(json(kPod));
        const auto devices =
            dra::indexSlices({StoredObject{{}, QStringLiteral("s"), QStringLiteral("1"), json(kSlice)}});
        QHash<QString, QJsonObject> claims;
        claims.insert(QStringLiteral("ml/train-gpus-x7k2p"),
                      claim("ml", "train-gpus-x7k2p", "gpu.example.com",
                            {QStringLiteral("gpu-0"), QStringLiteral("gpu-1")}));
        claims.insert(QStringLiteral("ml/team-gpu"),
                      claim("ml", "team-gpu", "mig.example.com", {QStringLiteral("mig-0")}));
        const std::vector<DraHold> holds = draHoldsFor(pod, claims, devices, {});
        QCOMPARE(holds.size(), size_t(2));
        const DraHold &whole = holds[0].claim.isEmpty() ? holds[0] : holds[1];
        const DraHold &named = holds[0].claim.isEmpty() ? holds[1] : holds[0];
        QCOMPARE(whole.resource, QStringLiteral("gpu.example.com.deviceclass.resource.k8s.io/devices"));
        QCOMPARE(whole.devices, 2);
        QCOMPARE(whole.weight, 1.0);
        QCOMPARE(named.claim, QStringLiteral("ml/team-gpu"));
        QCOMPARE(named.resource, QStringLiteral("mig.example.com.deviceclass.resource.k8s.io/devices"));
        QCOMPARE(named.weight, 3.0 / 7.0);
        QCOMPARE(named.gpuModel, QStringLiteral("NVIDIA A100-SXM4-40GB"));

        const auto ivs =
            UsageRecorder::intervalsFor(pod, QStringLiteral("c"), QStringLiteral("controller"),
                                        {QStringLiteral("node label model"), 0}, 2000000000, holds);
        QCOMPARE(ivs.size(), size_t(2));
        const qint64 start =
            QDateTime::fromString(QStringLiteral("2026-11-30T08:00:03Z"), Qt::ISODate).toSecsSinceEpoch();
        for (const UsageInterval &iv : ivs) {
            QCOMPARE(iv.start, start);
            QVERIFY(!iv.end);
            QCOMPARE(iv.user, QStringLiteral("alice"));
            QVERIFY(iv.weight);
        }
        // A claim kept for a shared span ends with its last user, not with this pod.
        std::vector<DraHold> shared{named};
        shared[0].sharedSpan = true;
        shared[0].spanEnd = start + 100;
        const auto closed =
            UsageRecorder::intervalsFor(pod, QStringLiteral("c"), QStringLiteral("s"), {}, 0, shared);
        QCOMPARE(closed.size(), size_t(1));
        QCOMPARE(*closed[0].end, start + 100);
    }

    void nonGpuDevicesAndPendingPodsAreNotCharged() {
        PodInfo pod = podInfoFromJson(json(kPod));
        const auto devices = dra::indexSlices({});
        QHash<QString, QJsonObject> claims;
        QJsonObject nic = claim("ml", "team-gpu", "rdma.example.com", {QStringLiteral("nic-0")});
        nic =
            QJsonDocument::fromJson(QJsonDocument(nic).toJson().replace("gpu.example.com", "net.example.com"))
                .object();
        claims.insert(QStringLiteral("ml/team-gpu"), nic);
        QVERIFY(draHoldsFor(pod, claims, devices, {}).empty());
        QCOMPARE(draHoldsFor(pod, claims, devices, QSet<QString>{QStringLiteral("rdma.example.com")}).size(),
                 size_t(1));
        // Allocated but its pod not running: nothing.
        pod.phase = PodInfo::Phase::Pending;
        pod.containersStarted = {};
        pod.startTime = {};
        QVERIFY(UsageRecorder::intervalsFor(
                    pod, QStringLiteral("c"), QStringLiteral("s"), {}, 0,
                    draHoldsFor(pod, claims, devices, QSet<QString>{QStringLiteral("rdma.example.com")}))
                    .empty());
    }

    // What the admission webhook adds for a new pod's claims.
    void webhookCountsClaimsOfANewPod() {
        const QJsonObject pod = json(R"({"spec":{"resourceClaims":[
            {"name":"a","resourceClaimTemplateName":"two-gpus"},{"name":"b","resourceClaimName":"team-gpu"}]}})");
        QHash<QString, QJsonObject> templates;
        templates.insert(QStringLiteral("ml/two-gpus"), json(R"({"spec":{"spec":{"devices":{"requests":[
                              {"name":"gpu","exactly":{"deviceClassName":"gpu.example.com","count":2}}]}}}})"));
        QHash<QString, QJsonObject> claims;
        QJsonObject unallocated = claim("ml", "team-gpu", "gpu.example.com", {});
        unallocated.remove(QStringLiteral("status"));
        claims.insert(QStringLiteral("ml/team-gpu"), unallocated);
        const auto devices =
            dra::indexSlices({StoredObject{{}, QStringLiteral("s"), QStringLiteral("1"), json(kSlice)}});
        QCOMPARE(draRequestedGpus(pod, QStringLiteral("ml"), templates, claims, devices, {}),
                 4.0); // 2 + count 2
        // Allocated to a partition: its fraction.
        claims.insert(QStringLiteral("ml/team-gpu"),
                      claim("ml", "team-gpu", "mig.example.com", {QStringLiteral("mig-0")}));
        QCOMPARE(draRequestedGpus(pod, QStringLiteral("ml"), templates, claims, devices, {}),
                 2.0 + 3.0 / 7.0);
        // Already held by another pod: charged to that one.
        QJsonObject held = claims.value(QStringLiteral("ml/team-gpu"));
        QJsonObject status = held.value(QStringLiteral("status")).toObject();
        status.insert(QStringLiteral("reservedFor"),
                      QJsonArray{QJsonObject{{QStringLiteral("resource"), QStringLiteral("pods")},
                                             {QStringLiteral("name"), QStringLiteral("first")}}});
        held.insert(QStringLiteral("status"), status);
        claims.insert(QStringLiteral("ml/team-gpu"), held);
        QCOMPARE(draRequestedGpus(pod, QStringLiteral("ml"), templates, claims, devices, {}), 2.0);
        // Unknown template and claim in another namespace: nothing.
        QCOMPARE(draRequestedGpus(pod, QStringLiteral("other"), templates, claims, devices, {}), 0.0);
    }

    void templateRequestsCountBeforeAllocation() {
        const QJsonObject spec = json(R"({"devices":{"requests":[
            {"name":"a","exactly":{"deviceClassName":"gpu.example.com","count":3}},
            {"name":"b","exactly":{"deviceClassName":"nic.example.com","count":5}},
            {"name":"c","firstAvailable":[{"name":"big","deviceClassName":"gpu.example.com"}]}]}})");
        QCOMPARE(dra::requestedGpuDevices(spec, {}), 4);
        QCOMPARE(dra::requestedGpuDevices(spec, QSet<QString>{QStringLiteral("nic.example.com")}), 9);
    }
};

QTEST_GUILESS_MAIN(TestDraRecording)
#include "tst_drarecording.moc"
