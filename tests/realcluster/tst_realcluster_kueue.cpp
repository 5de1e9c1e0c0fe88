// Real Kueue (the manager built from sigs.k8s.io/kueue at the pinned release, its CRDs and
// webhooks on the real API server; scripts/real-cluster.sh start --kueue) with batch/v1 Jobs
// labelled kueue.x-k8s.io/queue-name running on the kwok GPU nodes: admission, borrowing in a
// cohort, a pending reason, and the controller's AdmissionCheck gpuquota.io/budget holding a
// Workload on a spent GPU-hour budget and releasing it once the budget is raised. Boosts on
// queues: a boost of cq-a's nominal quota lets its pending Workload in and expires back to
// the nominal; a budget boost and (with an injectable clock) the period's rollover release
// Workloads the budget check holds.
#include "tests/controller/controllertestutil.h"
#include "core/kube/kubeclient.h"
#include "services/controller/kueuebudgetcheck.h"
#include "tests/realcluster/realcluster.h"
#include "core/usage/usagestore.h"

#include <QtTest>

using namespace gq;
using namespace gq::test;

namespace {

// One flavor on the kwok nodes' GPU model; cq-a borrows from cq-b in cohort research;
// cq-budget (no cohort) lists the budget AdmissionCheck.
const char *kQueues = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: a100}
spec:
  nodeLabels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata: {name: gpuquota-budget}
spec: {controllerName: gpuquota.io/budget}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq-a}
spec:
  cohortName: research
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: a100
      resources:
      - {name: nvidia.com/gpu, nominalQuota: 4, borrowingLimit: 4}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq-b}
spec:
  cohortName: research
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: a100
      resources:
      - {name: nvidia.com/gpu, nominalQuota: 4}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq-budget}
spec:
  namespaceSelector: {}
  admissionChecksStrategy:
    admissionChecks:
    - name: gpuquota-budget
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: a100
      resources:
      - {name: nvidia.com/gpu, nominalQuota: 8}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq-a, namespace: team-a}
spec: {clusterQueue: cq-a}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq-budget, namespace: team-c}
spec: {clusterQueue: cq-budget}
)";

// A Job of `pods` pods with `gpus` GPUs each in LocalQueue `queue`; `extraLabels` on the
// Job (e.g. max-exec-time-seconds), the user label on its pod template.
QByteArray job(const QString &ns, const QString &name, const QString &queue, int pods, int gpus,
               const QString &user, const QString &extraLabels = {}) {
    return QStringLiteral(
               "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: %1\n  namespace: %2\n"
               "  labels: {kueue.x-k8s.io/queue-name: %3%7}\nspec:\n  parallelism: %4\n"
               "  completions: %4\n  template:\n    metadata:\n      labels: {gpuquota.io/user: %6}\n"
               "    spec:\n      restartPolicy: Never\n      containers:\n      - name: main\n"
               "        image: cuda\n        resources:\n          limits: {nvidia.com/gpu: \"%5\"}\n")
        .arg(name, ns, queue)
        .arg(pods)
        .arg(gpus)
        .arg(user, extraLabels.isEmpty() ? QString() : QStringLiteral(", ") + extraLabels)
        .toUtf8();
}

} // namespace

class TestRealClusterKueue : public QObject {
    Q_OBJECT

    RealCluster m_cluster{[] {
        RealCluster::Options o;
        o.extraArguments = {QStringLiteral("--kueue")};
        return o;
    }()};
    QTemporaryDir m_dir;
    QString m_db;
    int m_listen = 0;
    std::unique_ptr<ControllerProcess> m_controller;

    ToolRun gq(const QStringList &args) { return runTool(binDir() + QStringLiteral("/gpuquota"), args); }
    QString get(const QStringList &object, const QString &jsonPath) {
        return QString::fromUtf8(
                   m_cluster
                       .kubectl(QStringList{QStringLiteral("get")} + object +
                                QStringList{QStringLiteral("-o"), QStringLiteral("jsonpath=") + jsonPath})
                       .out)
            .trimmed();
    }
    // The Workload Kueue made for Job `name` (its owner).
    QString workloadOf(const QString &ns, const QString &name) {
        QString wl;
        (void)QTest::qWaitFor(
            [&] {
                wl = get({QStringLiteral("workloads.kueue.x-k8s.io"), QStringLiteral("-n"), ns,
                          QStringLiteral("-l"),
                          QStringLiteral("kueue.x-k8s.io/job-uid=") +
                              get({QStringLiteral("job"), name, QStringLiteral("-n"), ns},
                                  QStringLiteral("{.metadata.uid}"))},
                         QStringLiteral("{.items[0].metadata.name}"));
                return !wl.isEmpty();
            },
            30000);
        return wl;
    }
    QString condition(const QString &ns, const QString &wl, const QString &type, const QString &field) {
        return get({QStringLiteral("workloads.kueue.x-k8s.io"), wl, QStringLiteral("-n"), ns},
                   QStringLiteral("{.status.conditions[?(@.type==\"%1\")].%2}").arg(type, field));
    }
    QString checkOf(const QStringList &object, const char *what) {
        return get(object, QStringLiteral("{.status.admissionChecks[?(@.name==\"gpuquota-budget\")].%1}")
                               .arg(QLatin1String(what)));
    }
    // A 2-GPU Job of at most an hour in lq-budget for `user`: its Workload.
    QStringList budgetJob(const QString &name, const QString &user) {
        const ToolRun r =
            m_cluster.apply(job(QStringLiteral("team-c"), name, QStringLiteral("lq-budget"), 1, 2, user,
                                QStringLiteral("kueue.x-k8s.io/max-exec-time-seconds: \"3600\"")));
        if (r.exitCode != 0)
            qWarning("%s", r.err.constData());
        return {QStringLiteral("workloads.kueue.x-k8s.io"), workloadOf(QStringLiteral("team-c"), name),
                QStringLiteral("-n"), QStringLiteral("team-c")};
    }
    int runningPods(const QString &ns, const QString &jobName) {
        const QString phases = get({QStringLiteral("pods"), QStringLiteral("-n"), ns, QStringLiteral("-l"),
                                    QStringLiteral("batch.kubernetes.io/job-name=") + jobName},
                                   QStringLiteral("{.items[*].status.phase}"));
        return int(phases.split(QLatin1Char(' '), Qt::SkipEmptyParts).count(QStringLiteral("Running")));
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        QVERIFY(m_dir.isValid());
        GQ_START_REAL_CLUSTER(m_cluster);
        for (const char *ns : {"team-a", "team-c"})
            QVERIFY(m_cluster.createNamespace(QLatin1String(ns)));
        const ToolRun applied = m_cluster.apply(kQueues);
        QVERIFY2(applied.exitCode == 0, applied.err.constData());

        m_db = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
        QVERIFY(UsageStore::open(m_db));
        const ToolRun b = gq({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), m_db,
                              QStringLiteral("--period"), QStringLiteral("day"), QStringLiteral("--user"),
                              QStringLiteral("dave"), QStringLiteral("--limit"), QStringLiteral("1")});
        QVERIFY2(b.exitCode == 0, b.err.constData());
        m_listen = freePort();
        const QString config =
            writeFile(m_dir.filePath(QStringLiteral("controller.yaml")),
                      QStringLiteral("cluster: {kubeconfig: %1, context: admin}\nclusterName: real\n"
                                     "database: %2\nlisten: 127.0.0.1:%3\ntimeZone: UTC\nspool: %4\n"
                                     "enforce: {enabled: true, interval: 1s}\n")
                          .arg(m_cluster.kubeconfigPath(), m_db)
                          .arg(m_listen)
                          .arg(m_dir.filePath(QStringLiteral("spool")))
                          .toUtf8());
        m_controller = std::make_unique<ControllerProcess>();
        QVERIFY(m_controller->start(config));
        QString ready;
        QVERIFY2(waitReadyz(m_listen, &ready), qPrintable(ready));
    }
    void cleanupTestCase() { m_controller.reset(); }

    // Kueue suspends the Job at creation (its webhook), admits its Workload into cq-a's
    // nominal quota and unsuspends it; the scheduler binds the pod to a kwok GPU node.
    void jobIsAdmittedAndRuns() {
        const ToolRun r = m_cluster.apply(job(QStringLiteral("team-a"), QStringLiteral("train-1"),
                                              QStringLiteral("lq-a"), 1, 2, QStringLiteral("alice")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString wl = workloadOf(QStringLiteral("team-a"), QStringLiteral("train-1"));
        QVERIFY(!wl.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(
            condition(QStringLiteral("team-a"), wl, QStringLiteral("Admitted"), QStringLiteral("status")),
            QStringLiteral("True"), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(runningPods(QStringLiteral("team-a"), QStringLiteral("train-1")), 1, 60000);
        QCOMPARE(get({QStringLiteral("job"), QStringLiteral("train-1"), QStringLiteral("-n"),
                      QStringLiteral("team-a")},
                     QStringLiteral("{.spec.suspend}")),
                 QStringLiteral("false"));
    }

    // 2 + 4 GPUs in cq-a (nominal 4): the second Job borrows 2 of cq-b's idle GPUs.
    void borrowsInTheCohort() {
        const ToolRun r = m_cluster.apply(job(QStringLiteral("team-a"), QStringLiteral("train-2"),
                                              QStringLiteral("lq-a"), 2, 2, QStringLiteral("alice")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString wl = workloadOf(QStringLiteral("team-a"), QStringLiteral("train-2"));
        QTRY_COMPARE_WITH_TIMEOUT(
            condition(QStringLiteral("team-a"), wl, QStringLiteral("Admitted"), QStringLiteral("status")),
            QStringLiteral("True"), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(
            get({QStringLiteral("clusterqueue"), QStringLiteral("cq-a")},
                QStringLiteral("{.status.flavorsReservation[0].resources[0].borrowed}")),
            QStringLiteral("2"), 60000);
        QCOMPARE(get({QStringLiteral("clusterqueue"), QStringLiteral("cq-a")},
                     QStringLiteral("{.status.flavorsReservation[0].resources[0].total}")),
                 QStringLiteral("6"));
        QTRY_COMPARE_WITH_TIMEOUT(runningPods(QStringLiteral("team-a"), QStringLiteral("train-2")), 2, 60000);
    }

    // 6 + 4 > 4 nominal + 4 borrowing limit: pending, with Kueue's reason on QuotaReserved.
    void pendingWithKueuesReason() {
        const ToolRun r = m_cluster.apply(job(QStringLiteral("team-a"), QStringLiteral("train-3"),
                                              QStringLiteral("lq-a"), 2, 2, QStringLiteral("alice")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString wl = workloadOf(QStringLiteral("team-a"), QStringLiteral("train-3"));
        QTRY_VERIFY_WITH_TIMEOUT(condition(QStringLiteral("team-a"), wl, QStringLiteral("QuotaReserved"),
                                           QStringLiteral("message"))
                                     .contains(QLatin1String("insufficient unused quota")),
                                 60000);
        QCOMPARE(condition(QStringLiteral("team-a"), wl, QStringLiteral("QuotaReserved"),
                           QStringLiteral("status")),
                 QStringLiteral("False"));
        QCOMPARE(runningPods(QStringLiteral("team-a"), QStringLiteral("train-3")), 0);
        QCOMPARE(get({QStringLiteral("job"), QStringLiteral("train-3"), QStringLiteral("-n"),
                      QStringLiteral("team-a")},
                     QStringLiteral("{.spec.suspend}")),
                 QStringLiteral("true"));
    }

    // dave has 1 GPU-h a day; a 2-GPU Job of at most an hour needs 2: the check holds its
    // Workload (Pending, the numbers in the message) until the budget is raised to 4.
    void budgetCheckHoldsThenReleases() {
        QTRY_COMPARE_WITH_TIMEOUT(get({QStringLiteral("admissioncheck"), QStringLiteral("gpuquota-budget")},
                                      QStringLiteral("{.status.conditions[?(@.type==\"Active\")].status}")),
                                  QStringLiteral("True"), 30000);
        const ToolRun r = m_cluster.apply(
            job(QStringLiteral("team-c"), QStringLiteral("big"), QStringLiteral("lq-budget"), 1, 2,
                QStringLiteral("dave"), QStringLiteral("kueue.x-k8s.io/max-exec-time-seconds: \"3600\"")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString wl = workloadOf(QStringLiteral("team-c"), QStringLiteral("big"));
        QVERIFY(!wl.isEmpty());
        const QStringList object{QStringLiteral("workloads.kueue.x-k8s.io"), wl, QStringLiteral("-n"),
                                 QStringLiteral("team-c")};
        const QString message =
            QStringLiteral("{.status.admissionChecks[?(@.name==\"gpuquota-budget\")].message}");
        const QString state =
            QStringLiteral("{.status.admissionChecks[?(@.name==\"gpuquota-budget\")].state}");
        QTRY_VERIFY_WITH_TIMEOUT(
            get(object, message).startsWith(QLatin1String("Denied: need 2.00 GPU-h, only 1.00 left")), 60000);
        QVERIFY2(get(object, message).endsWith(QLatin1String("for user dave")),
                 qPrintable(get(object, message)));
        QCOMPARE(get(object, state), QStringLiteral("Pending"));
        QTest::qWait(3000); // several passes: still held, never admitted
        QCOMPARE(get(object, state), QStringLiteral("Pending"));
        QVERIFY(condition(QStringLiteral("team-c"), wl, QStringLiteral("Admitted"),
                          QStringLiteral("status")) != QLatin1String("True"));
        QCOMPARE(runningPods(QStringLiteral("team-c"), QStringLiteral("big")), 0);

        const ToolRun b = gq({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), m_db,
                              QStringLiteral("--period"), QStringLiteral("day"), QStringLiteral("--user"),
                              QStringLiteral("dave"), QStringLiteral("--limit"), QStringLiteral("4")});
        QVERIFY2(b.exitCode == 0, b.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(get(object, state), QStringLiteral("Ready"), 60000);
        QCOMPARE(get(object, message), QStringLiteral("Allowed: 2.00 GPU-h ≤ 4.00 available for user dave"));
        QTRY_COMPARE_WITH_TIMEOUT(
            condition(QStringLiteral("team-c"), wl, QStringLiteral("Admitted"), QStringLiteral("status")),
            QStringLiteral("True"), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(runningPods(QStringLiteral("team-c"), QStringLiteral("big")), 1, 60000);
    }

    // train-3 waits in cq-a (6 of 4 nominal + 4 borrowing reserved). `gpuquota boost grant
    // --clusterqueue` raises cq-a's nominal quota 4 -> 8 for 20 s: Kueue admits it; at the
    // end the controller takes the 4 back (nominal 4, annotation gone).
    void queueBoostLetsAPendingWorkloadIn() {
        const QString wl = workloadOf(QStringLiteral("team-a"), QStringLiteral("train-3"));
        QVERIFY(condition(QStringLiteral("team-a"), wl, QStringLiteral("Admitted"),
                          QStringLiteral("status")) != QLatin1String("True"));
        const QStringList cq{QStringLiteral("clusterqueue"), QStringLiteral("cq-a")};
        const QString nominal =
            QStringLiteral("{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}");
        const ToolRun g =
            gq({QStringLiteral("--kubeconfig"),   m_cluster.kubeconfigPath(),
                QStringLiteral("--context"),      QStringLiteral("admin"),
                QStringLiteral("boost"),          QStringLiteral("grant"),
                QStringLiteral("--db"),           m_db,
                QStringLiteral("--clusterqueue"), QStringLiteral("cq-a"),
                QStringLiteral("--flavor"),       QStringLiteral("a100"),
                QStringLiteral("--resource"),     QStringLiteral("nvidia.com/gpu"),
                QStringLiteral("--add"),          QStringLiteral("4"),
                QStringLiteral("--for"),          QStringLiteral("20s"),
                QStringLiteral("--note"),         QStringLiteral("let train-3 in for the demo")});
        QVERIFY2(g.exitCode == 0, g.err.constData());
        QCOMPARE(get(cq, nominal), QStringLiteral("8"));
        QVERIFY(get(cq, QStringLiteral("{.metadata.annotations.gpuquota\\.io/boosts}"))
                    .contains(QLatin1String("a100")));
        QTRY_COMPARE_WITH_TIMEOUT(
            condition(QStringLiteral("team-a"), wl, QStringLiteral("Admitted"), QStringLiteral("status")),
            QStringLiteral("True"), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(get(cq, nominal), QStringLiteral("4"), 90000);
        QCOMPARE(get(cq, QStringLiteral("{.metadata.annotations.gpuquota\\.io/boosts}")), QString());
        const ToolRun list =
            gq({QStringLiteral("boost"), QStringLiteral("list"), QStringLiteral("--db"), m_db});
        QVERIFY2(list.out.contains("expired") && list.out.contains("clusterqueue/cq-a a100 nominalQuota"),
                 list.out.constData());
    }

    // erin has 1 GPU-h a day and needs 2: held until a budget boost of 2 GPU-h is granted.
    void budgetBoostReleasesAHeldWorkload() {
        const ToolRun b = gq({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), m_db,
                              QStringLiteral("--period"), QStringLiteral("day"), QStringLiteral("--user"),
                              QStringLiteral("erin"), QStringLiteral("--limit"), QStringLiteral("1")});
        QVERIFY2(b.exitCode == 0, b.err.constData());
        const QStringList object = budgetJob(QStringLiteral("erin-job"), QStringLiteral("erin"));
        QTRY_VERIFY_WITH_TIMEOUT(
            checkOf(object, "message").startsWith(QLatin1String("Denied: need 2.00 GPU-h, only 1.00 left")),
            60000);
        QCOMPARE(checkOf(object, "state"), QStringLiteral("Pending"));
        const ToolRun g =
            gq({QStringLiteral("boost"), QStringLiteral("grant"), QStringLiteral("--db"), m_db,
                QStringLiteral("--budget"), QStringLiteral("user:erin"), QStringLiteral("--add-hours"),
                QStringLiteral("2"), QStringLiteral("--for"), QStringLiteral("2h"), QStringLiteral("--note"),
                QStringLiteral("erin's deadline run")});
        QVERIFY2(g.exitCode == 0, g.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(checkOf(object, "state"), QStringLiteral("Ready"), 60000);
        QCOMPARE(checkOf(object, "message"),
                 QStringLiteral("Allowed: 2.00 GPU-h ≤ 3.00 available for user erin"));
        QTRY_COMPARE_WITH_TIMEOUT(condition(QStringLiteral("team-c"), object.at(1),
                                            QStringLiteral("Admitted"), QStringLiteral("status")),
                                  QStringLiteral("True"), 60000);
    }

    // The rollover, on an injectable clock: the controller is stopped and the check runs here
    // on its own database, where frank spent 2 of his 3 GPU-h on 1 December. At noon that day
    // his 2-GPU-h Job is held; at the next day's start it is released.
    void periodRolloverReleasesAHeldWorkload() {
        m_controller.reset();
        constexpr qint64 kNoon = 1796126400; // 2026-12-01T12:00:00Z
        constexpr qint64 kNextDay = kNoon + 12 * 3600 + 30;
        auto store =
            UsageStore::open(QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("rollover.db")));
        QVERIFY(store);
        Budget budget;
        budget.scope = BudgetScope::User;
        budget.subject = QStringLiteral("frank");
        budget.limitGpuHours = 3;
        QVERIFY((*store)->setBudget(budget));
        UsageInterval iv;
        iv.cluster = QStringLiteral("real");
        iv.ns = QStringLiteral("team-c");
        iv.user = QStringLiteral("frank");
        iv.podUid = QStringLiteral("uid-frank-1");
        iv.podName = QStringLiteral("done");
        iv.gpus = 2;
        iv.start = kNoon - 6 * 3600;
        iv.end = iv.start + 3600;
        iv.source = QStringLiteral("test");
        QVERIFY((*store)->upsertInterval(iv));
        auto client = KubeClient::fromKubeconfig(m_cluster.kubeconfigPath(), QStringLiteral("admin"));
        QVERIFY(client);
        KueueBudgetCheck check(**store, *client, {});
        auto tick = [&](qint64 now) {
            QSignalSpy done(&check, &KueueBudgetCheck::finished);
            return check.tick(now) && done.wait(30000);
        };
        const QStringList object = budgetJob(QStringLiteral("frank-job"), QStringLiteral("frank"));
        QTRY_VERIFY_WITH_TIMEOUT(
            tick(kNoon) && checkOf(object, "message")
                               .startsWith(QLatin1String("Denied: need 2.00 GPU-h, only 1.00 left")),
            60000);
        QCOMPARE(checkOf(object, "state"), QStringLiteral("Pending"));
        QTRY_VERIFY_WITH_TIMEOUT(tick(kNextDay) && checkOf(object, "state") == QLatin1String("Ready"), 60000);
        QCOMPARE(checkOf(object, "message"),
                 QStringLiteral("Allowed: 2.00 GPU-h ≤ 3.00 available for user frank"));
        QTRY_COMPARE_WITH_TIMEOUT(condition(QStringLiteral("team-c"), object.at(1),
                                            QStringLiteral("Admitted"), QStringLiteral("status")),
                                  QStringLiteral("True"), 60000);
    }
};

QTEST_GUILESS_MAIN(TestRealClusterKueue)
#include "tst_realcluster_kueue.moc"
