// Nodes in gpuquota-testcluster, through the real kubectl: the gpu-nodes scenario's GPU
// nodes (labels and capacity as GPU feature discovery and the device plugin set them),
// `kubectl get nodes` as the real printer shows it, and the scheduler: pods bound to a
// node with room (GPU counts, MIG, time-sliced replicas, nodeSelector), Pending with the
// scheduler's FitError message when nothing fits, and bound once room appears.

#include "tests/testcluster/kubectlrun.h"
#include "tests/testclusterprocess.h"

#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using gq::test::TestClusterProcess;

namespace {

using Run = gq::test::KubectlRun;

QByteArray podYaml(const QString &name, const QString &resource, int count, const QString &product = {}) {
    const QString selector =
        product.isEmpty() ? QString()
                          : QStringLiteral("  nodeSelector: {nvidia.com/gpu.product: %1}\n").arg(product);
    return QStringLiteral("apiVersion: v1\n"
                          "kind: Pod\n"
                          "metadata: {name: %1, namespace: sched}\n"
                          "spec:\n"
                          "%4"
                          "  containers:\n"
                          "  - name: main\n"
                          "    image: nvcr.io/nvidia/pytorch:24.05-py3\n"
                          "    resources:\n"
                          "      requests: {cpu: \"1\", memory: 2Gi}\n"
                          "      limits: {%2: \"%3\"}\n")
        .arg(name, resource)
        .arg(count)
        .arg(selector)
        .toUtf8();
}

} // namespace

class TestNodes : public QObject {
    Q_OBJECT

private:
    TestClusterProcess m_cluster{TestClusterProcess::Options{QStringLiteral("gpu-nodes"), {}, {}, 60000}};
    QString m_kubectl;
    QTemporaryDir m_home;

    Run kubectl(const QStringList &args, const QByteArray &stdinData = {}) {
        return gq::test::runKubectl(m_kubectl, m_cluster.kubeconfigPath(), m_home.path(), args, stdinData);
    }

    void createPod(const QString &name, const QString &resource, int count, const QString &product = {}) {
        const Run r = kubectl({QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")},
                              podYaml(name, resource, count, product));
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    }

    // "NODE PHASE" of a pod.
    QString placement(const QString &name) {
        const Run r = kubectl({QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("-n"),
                               QStringLiteral("sched"), name, QStringLiteral("-o"),
                               QStringLiteral("jsonpath={.spec.nodeName} {.status.phase}")});
        return r.exitCode == 0 ? r.out.trimmed() : r.all();
    }

    QString podScheduledMessage(const QString &name) {
        return kubectl({QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("-n"),
                        QStringLiteral("sched"), name, QStringLiteral("-o"),
                        QStringLiteral("jsonpath={.status.conditions[?(@.type==\"PodScheduled\")].message}")})
            .out;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        m_kubectl = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
        GQ_REQUIRE_KUBECTL(m_kubectl);
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        const Run r =
            kubectl({QStringLiteral("create"), QStringLiteral("namespace"), QStringLiteral("sched")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    }

    void cleanupTestCase() { QVERIFY2(m_cluster.stop(), qPrintable(m_cluster.stderrText())); }

    void getNodesLikeTheRealPrinter() {
        Run r = kubectl({QStringLiteral("get"), QStringLiteral("nodes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 14);
        QVERIFY2(lines.first().contains(
                     QRegularExpression(QStringLiteral("^NAME\\s+STATUS\\s+ROLES\\s+AGE\\s+VERSION$"))),
                 qPrintable(lines.first()));
        QVERIFY2(r.out.contains(QRegularExpression(
                     QStringLiteral("gpu-node-1\\s+Ready\\s+<none>\\s+120d\\s+v1\\.32\\.4"))),
                 qPrintable(r.out));
        r = kubectl(
            {QStringLiteral("get"), QStringLiteral("nodes"), QStringLiteral("-o"), QStringLiteral("wide")});
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral(
                     "INTERNAL-IP\\s+EXTERNAL-IP\\s+OS-IMAGE\\s+KERNEL-VERSION\\s+CONTAINER-RUNTIME"))),
                 qPrintable(r.out));
        // The labels GPU feature discovery sets, and the device plugin's resources.
        r = kubectl({QStringLiteral("get"), QStringLiteral("nodes"), QStringLiteral("-L"),
                     QStringLiteral("nvidia.com/gpu.product,nvidia.com/gpu.replicas")});
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("gpu-node-1\\s.*NVIDIA-H100-80GB-HBM3"))),
                 qPrintable(r.out));
        QVERIFY2(
            r.out.contains(QRegularExpression(QStringLiteral("gpu-node-shared-1\\s.*NVIDIA-L4-SHARED\\s+4"))),
            qPrintable(r.out));
        r = kubectl(
            {QStringLiteral("get"), QStringLiteral("node"), QStringLiteral("gpu-node-mig-1"),
             QStringLiteral("-o"),
             QStringLiteral(
                 "jsonpath={.status.allocatable.nvidia\\.com/mig-3g\\.40gb} "
                 "{.status.allocatable.nvidia\\.com/gpu} {.metadata.labels.nvidia\\.com/mig\\.strategy}")});
        QCOMPARE(r.out, QStringLiteral("16 0 mixed"));
        r = kubectl({QStringLiteral("get"), QStringLiteral("node"), QStringLiteral("gpu-node-shared-1"),
                     QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.status.capacity.nvidia\\.com/gpu\\.shared}")});
        QCOMPARE(r.out, QStringLiteral("16"));
    }

    void podsGoWhereThereIsRoom() {
        // Four 8-GPU pods fill the four H100 nodes in name order.
        for (int i = 1; i <= 4; ++i)
            createPod(QStringLiteral("h100-%1").arg(i), QStringLiteral("nvidia.com/gpu"), 8,
                      QStringLiteral("NVIDIA-H100-80GB-HBM3"));
        for (int i = 1; i <= 4; ++i)
            QCOMPARE(placement(QStringLiteral("h100-%1").arg(i)),
                     QStringLiteral("gpu-node-%1 Running").arg(i));
        // A fifth finds no room: Pending, with the scheduler's words and a FailedScheduling event.
        createPod(QStringLiteral("h100-5"), QStringLiteral("nvidia.com/gpu"), 2,
                  QStringLiteral("NVIDIA-H100-80GB-HBM3"));
        QCOMPARE(placement(QStringLiteral("h100-5")), QStringLiteral("Pending"));
        const QString expected = QStringLiteral(
            "0/13 nodes are available: 4 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node "
            "affinity/selector. preemption: 0/13 nodes are available: 4 No preemption victims found for "
            "incoming "
            "pod, 9 Preemption is not helpful for scheduling..");
        QCOMPARE(podScheduledMessage(QStringLiteral("h100-5")), expected);
        Run r = kubectl({QStringLiteral("get"), QStringLiteral("events"), QStringLiteral("-n"),
                         QStringLiteral("sched"), QStringLiteral("--field-selector"),
                         QStringLiteral("reason=FailedScheduling")});
        QVERIFY2(r.out.contains(QStringLiteral("Warning   FailedScheduling   pod/h100-5   ") + expected),
                 qPrintable(r.out));
        // A finished pod frees its GPUs: the waiting pod is bound there and runs.
        QVERIFY(m_cluster.setPodPhase(QStringLiteral("sched"), QStringLiteral("h100-2"),
                                      QStringLiteral("Succeeded")));
        QCOMPARE(placement(QStringLiteral("h100-5")), QStringLiteral("gpu-node-2 Running"));
        // Deleting a pod frees room too.
        createPod(QStringLiteral("h100-6"), QStringLiteral("nvidia.com/gpu"), 8,
                  QStringLiteral("NVIDIA-H100-80GB-HBM3"));
        QCOMPARE(placement(QStringLiteral("h100-6")), QStringLiteral("Pending"));
        r = kubectl({QStringLiteral("delete"), QStringLiteral("pod"), QStringLiteral("-n"),
                     QStringLiteral("sched"), QStringLiteral("h100-3")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(placement(QStringLiteral("h100-6")), QStringLiteral("gpu-node-3 Running"));
    }

    void migAndTimeSlicedResources() {
        createPod(QStringLiteral("mig-1"), QStringLiteral("nvidia.com/mig-3g.40gb"), 2);
        QCOMPARE(placement(QStringLiteral("mig-1")), QStringLiteral("gpu-node-mig-1 Running"));
        createPod(QStringLiteral("shared-1"), QStringLiteral("nvidia.com/gpu.shared"), 1);
        QCOMPARE(placement(QStringLiteral("shared-1")), QStringLiteral("gpu-node-shared-1 Running"));
        createPod(QStringLiteral("shared-2"), QStringLiteral("nvidia.com/gpu.shared"), 16);
        QCOMPARE(placement(QStringLiteral("shared-2")), QStringLiteral("Pending"));
        QVERIFY2(podScheduledMessage(QStringLiteral("shared-2"))
                     .startsWith(
                         QStringLiteral("0/13 nodes are available: 13 Insufficient nvidia.com/gpu.shared.")),
                 qPrintable(podScheduledMessage(QStringLiteral("shared-2"))));
        // kubectl describe node sums what is bound there.
        const Run r =
            kubectl({QStringLiteral("describe"), QStringLiteral("node"), QStringLiteral("gpu-node-mig-1")});
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("nvidia.com/mig-3g.40gb\\s+2\\s+2"))),
                 qPrintable(r.out));
    }

    void aNewNodeMakesRoom() {
        createPod(QStringLiteral("wide-1"), QStringLiteral("nvidia.com/gpu"), 16);
        QCOMPARE(placement(QStringLiteral("wide-1")), QStringLiteral("Pending"));
        const QByteArray node =
            "apiVersion: v1\n"
            "kind: Node\n"
            "metadata:\n"
            "  name: gpu-node-big\n"
            "  labels: {nvidia.com/gpu.product: NVIDIA-B200}\n"
            "status:\n"
            "  capacity: {cpu: \"224\", memory: 2Ti, pods: \"110\", nvidia.com/gpu: \"16\"}\n";
        const Run r = kubectl({QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")}, node);
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(placement(QStringLiteral("wide-1")), QStringLiteral("gpu-node-big Running"));
        // The kubelet's part is filled in for a node created bare: allocatable and Ready.
        const Run nodes =
            kubectl({QStringLiteral("get"), QStringLiteral("node"), QStringLiteral("gpu-node-big")});
        QVERIFY2(nodes.out.contains(QRegularExpression(QStringLiteral("gpu-node-big\\s+Ready"))),
                 qPrintable(nodes.out));
    }
};

QTEST_GUILESS_MAIN(TestNodes)
#include "tst_nodes.moc"
