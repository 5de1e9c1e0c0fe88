// kueueworkload, the pure half of the Kueue AdmissionCheck gpuquota.io/budget: what a
// Workload asks, the state and message it gets, the server-side apply bodies. The check
// against real Kueue is tst_realcluster_kueue.
#include "services/controller/kueueworkload.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gq;

namespace {

QJsonObject json(const char *text) {
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

// Two pod sets: 1 × 2 GPUs labelled alice (pinned to an H100), 3 × 1 GPU; at most an hour.
const char *kWorkload = R"({
  "metadata": {"name": "job-train-1", "namespace": "team-a"},
  "spec": {
    "maximumExecutionTimeSeconds": 3600,
    "podSets": [
      {"name": "launcher", "count": 1, "template": {
        "metadata": {"labels": {"gpuquota.io/user": "alice"}},
        "spec": {"nodeSelector": {"nvidia.com/gpu.product": "H100"},
                 "containers": [{"name": "m", "resources": {"limits": {"nvidia.com/gpu": "2"}}}]}}},
      {"name": "workers", "count": 3, "template": {
        "spec": {"containers": [{"name": "m", "resources": {"requests": {"nvidia.com/gpu": "1", "cpu": "1"}}}]}}}
    ]
  },
  "status": {
    "conditions": [{"type": "QuotaReserved", "status": "True"}, {"type": "Admitted", "status": "False"}],
    "admissionChecks": [
      {"name": "gpuquota-budget", "state": "Pending", "message": "", "lastTransitionTime": "2026-12-01T10:00:00Z"},
      {"name": "other", "state": "Ready", "message": "ok", "lastTransitionTime": "2026-12-01T10:00:00Z"}
    ]
  }
})";

Decision decided(double limit, double used, const AdmissionRequest &request, double runningGpus = 0) {
    Budget b;
    b.subject = QStringLiteral("alice");
    b.limitGpuHours = limit;
    return decide(b, TimeRange{0, 86400}, used, runningGpus, request);
}

} // namespace

class TestKueueWorkload : public QObject {
    Q_OBJECT

private slots:
    void readsTheAsk() {
        ResourceWeights weights;
        weights.setModel(QStringLiteral("H100"), 2.0);
        const auto ask = kueuecheck::readWorkload(json(kWorkload), kDefaultUserLabel, weights);
        QCOMPARE(ask.ns, QStringLiteral("team-a"));
        QCOMPARE(ask.name, QStringLiteral("job-train-1"));
        QCOMPARE(ask.user, QStringLiteral("alice"));
        QVERIFY(ask.labelled);
        QCOMPARE(ask.gpus, 2.0 * 2.0 + 3.0); // the pinned model's weight, count × per pod
        QCOMPARE(ask.maxSeconds.value_or(0), qint64(3600));
        QVERIFY(ask.quotaReserved);
        QVERIFY(!ask.finished);
        QCOMPARE(ask.request().kind, AdmissionRequest::Kind::NewJob);
        QCOMPARE(ask.request().gpuHours(), 7.0);
        QVERIFY(kueuecheck::needsDecision(ask, QStringLiteral("gpuquota-budget")));
        QVERIFY(!kueuecheck::needsDecision(ask, QStringLiteral("other")));   // Ready already
        QVERIFY(!kueuecheck::needsDecision(ask, QStringLiteral("missing"))); // not listed
    }

    void unlabelledWithoutRunLengthIsTheNamespacesAndRunning() {
        QJsonObject wl = json(kWorkload);
        QJsonObject spec = wl.value(QLatin1String("spec")).toObject();
        spec.remove(QStringLiteral("maximumExecutionTimeSeconds"));
        QJsonArray sets = spec.value(QLatin1String("podSets")).toArray();
        sets.removeFirst();
        spec.insert(QStringLiteral("podSets"), sets);
        wl.insert(QStringLiteral("spec"), spec);
        wl.insert(QStringLiteral("status"), QJsonObject{}); // no reservation yet
        const auto ask = kueuecheck::readWorkload(wl, kDefaultUserLabel, ResourceWeights{});
        QCOMPARE(ask.user, QStringLiteral("team-a"));
        QVERIFY(!ask.labelled);
        QVERIFY(!ask.maxSeconds);
        QCOMPARE(ask.request().kind, AdmissionRequest::Kind::Running);
        QVERIFY(!kueuecheck::needsDecision(ask, QStringLiteral("gpuquota-budget")));
    }

    void verdictsCarryTheNumbers() {
        auto ask = kueuecheck::readWorkload(json(kWorkload), kDefaultUserLabel, ResourceWeights{});
        AdmissionRequest four;
        four.gpus = 4;
        four.hours = 1;
        const auto denied = kueuecheck::verdict(ask, decided(8, 4.5, four), kDefaultUserLabel);
        QCOMPARE(denied.state, QStringLiteral("Pending"));
        QCOMPARE(
            denied.message,
            QStringLiteral("Denied: need 4.00 GPU-h, only 3.50 left (limit 8.00 per day) for user alice"));
        const auto allowed = kueuecheck::verdict(ask, decided(8, 3.5, four), kDefaultUserLabel);
        QCOMPARE(allowed.state, QStringLiteral("Ready"));
        QCOMPARE(allowed.message, QStringLiteral("Allowed: 4.00 GPU-h ≤ 4.50 available for user alice"));

        // Without a run length: allowed while anything is left, in grace while running
        // work overruns; spent with nothing running is held.
        ask.maxSeconds.reset();
        AdmissionRequest running;
        running.kind = AdmissionRequest::Kind::Running;
        running.gpus = 4;
        QCOMPARE(kueuecheck::verdict(ask, decided(8, 7.5, running), kDefaultUserLabel).state,
                 QStringLiteral("Ready"));
        const auto spent = kueuecheck::verdict(ask, decided(8, 8, running), kDefaultUserLabel);
        QCOMPARE(spent.state, QStringLiteral("Pending"));
        QCOMPARE(spent.message,
                 QStringLiteral("Denied: 8.00 GPU-h used of 8.00 per day, nothing left for user alice"));
        QCOMPARE(kueuecheck::verdict(ask, decided(8, 9, running), kDefaultUserLabel).state,
                 QStringLiteral("Pending"));
        QCOMPARE(kueuecheck::noGpus().state, QStringLiteral("Ready"));
    }

    void applyBodies() {
        const auto ask = kueuecheck::readWorkload(json(kWorkload), kDefaultUserLabel, ResourceWeights{});
        const qint64 now = 1796126400; // 2026-12-01T12:00:00Z
        // Still Pending: the transition time stays; Ready: now.
        auto body = kueuecheck::checkStatePatch(
            QStringLiteral("kueue.x-k8s.io/v1beta2"), ask, QStringLiteral("gpuquota-budget"),
            {QStringLiteral("Pending"), QStringLiteral("Denied: x")}, now);
        QCOMPARE(body.value(QLatin1String("kind")).toString(), QStringLiteral("Workload"));
        QCOMPARE(
            body.value(QLatin1String("metadata")).toObject().value(QLatin1String("namespace")).toString(),
            QStringLiteral("team-a"));
        QJsonObject state = body.value(QLatin1String("status"))
                                .toObject()
                                .value(QLatin1String("admissionChecks"))
                                .toArray()
                                .first()
                                .toObject();
        QCOMPARE(state.value(QLatin1String("lastTransitionTime")).toString(),
                 QStringLiteral("2026-12-01T10:00:00Z"));
        QCOMPARE(state.size(), 4); // name, state, message, lastTransitionTime: nothing else is ours
        body = kueuecheck::checkStatePatch(QStringLiteral("kueue.x-k8s.io/v1beta2"), ask,
                                           QStringLiteral("gpuquota-budget"),
                                           {QStringLiteral("Ready"), QStringLiteral("Allowed: x")}, now);
        state = body.value(QLatin1String("status"))
                    .toObject()
                    .value(QLatin1String("admissionChecks"))
                    .toArray()
                    .first()
                    .toObject();
        QCOMPARE(state.value(QLatin1String("state")).toString(), QStringLiteral("Ready"));
        QCOMPARE(state.value(QLatin1String("lastTransitionTime")).toString(),
                 QStringLiteral("2026-12-01T12:00:00Z"));

        const QJsonObject active = kueuecheck::activePatch(QStringLiteral("kueue.x-k8s.io/v1beta1"),
                                                           QStringLiteral("gpuquota-budget"), now);
        QJsonObject check{
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("c")}}},
            {QStringLiteral("spec"),
             QJsonObject{{QStringLiteral("controllerName"), QStringLiteral("gpuquota.io/budget")}}}};
        QVERIFY(!kueuecheck::isActive(check));
        check.insert(QStringLiteral("status"), active.value(QLatin1String("status")));
        QVERIFY(kueuecheck::isActive(check));
        const QJsonObject foreign = json(
            R"({"metadata":{"name":"prov"},"spec":{"controllerName":"kueue.x-k8s.io/provisioning-request"}})");
        QCOMPARE(kueuecheck::ourChecks({check, foreign}), QStringList{QStringLiteral("c")});
    }

    void picksTheServedVersion() {
        QCOMPARE(
            kueuecheck::pickVersion(json(
                R"({"versions":[{"version":"v1beta2"},{"version":"v1beta1"}],"preferredVersion":{"version":"v1beta2"}})")),
            QStringLiteral("v1beta2"));
        QCOMPARE(kueuecheck::pickVersion(json(R"({"versions":[{"version":"v1beta1"}]})")),
                 QStringLiteral("v1beta1"));
        QCOMPARE(kueuecheck::pickVersion(json(R"({"versions":[{"version":"v1alpha1"}]})")), QString());
    }
};

QTEST_GUILESS_MAIN(TestKueueWorkload)
#include "tst_kueueworkload.moc"
