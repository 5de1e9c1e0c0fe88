// `gpuquota advise --namespace` against the real kube-apiserver: the GPUs a namespace may
// still take from its ResourceQuota as kube-controller-manager fills `used`, the GPU memory
// from the node labels the GPU operator sets, and — for a namespace without a GPU quota —
// the free nominal quota of the Kueue ClusterQueue its LocalQueue points to (Kueue's
// resources as CRDs served by the real API server; the usage in the status as Kueue writes it).
#include "tests/realcluster/realcluster.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace gq::test;

namespace {

QByteArray crd(const char *plural, const char *kind, const char *scope) {
    return QStringLiteral(
               "apiVersion: apiextensions.k8s.io/v1\n"
               "kind: CustomResourceDefinition\n"
               "metadata: {name: %1.kueue.x-k8s.io}\n"
               "spec:\n"
               "  group: kueue.x-k8s.io\n"
               "  names: {kind: %2, plural: %1}\n"
               "  scope: %3\n"
               "  versions:\n"
               "  - name: v1beta1\n"
               "    served: true\n"
               "    storage: true\n"
               "    subresources: {status: {}}\n"
               "    schema:\n"
               "      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}\n")
        .arg(QLatin1String(plural), QLatin1String(kind), QLatin1String(scope))
        .toUtf8();
}

} // namespace

class TestRealClusterAdvise : public QObject {
    Q_OBJECT

    RealCluster m_cluster;

    static QString gpuquota() {
        QString dir = qEnvironmentVariable("GQ_BIN_DIR");
        if (dir.isEmpty())
            dir = QStringLiteral(GQ_BINARY_DIR "/bin");
        return QDir(dir).filePath(QStringLiteral("gpuquota"));
    }
    QJsonObject advise(const QString &ns) {
        const ToolRun r = runTool(gpuquota(), {QStringLiteral("--kubeconfig"), m_cluster.kubeconfigPath(),
                                               QStringLiteral("advise"), QStringLiteral("--model"),
                                               QStringLiteral("llama-2-7b"), QStringLiteral("--namespace"),
                                               ns, QStringLiteral("-o"), QStringLiteral("json")});
        if (r.exitCode != 0 && r.exitCode != 1)
            qWarning() << r.exitCode << r.err;
        return QJsonDocument::fromJson(r.out).object().value(QLatin1String("quota")).toObject();
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        QVERIFY2(QFileInfo(gpuquota()).isExecutable(), "build the gpuquota target");
        GQ_START_REAL_CLUSTER(m_cluster);
        for (const char *ns : {"team-a", "team-b"})
            QVERIFY(m_cluster.createNamespace(QLatin1String(ns)));
        // What GPU feature discovery puts on an A100 80GB node.
        const QString nodes = QString::fromUtf8(
            m_cluster
                .kubectl({QStringLiteral("get"), QStringLiteral("nodes"), QStringLiteral("-o"),
                          QStringLiteral("jsonpath={.items[*].metadata.name}")})
                .out);
        QVERIFY(!nodes.trimmed().isEmpty());
        for (const QString &node : nodes.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            QCOMPARE(m_cluster
                         .kubectl({QStringLiteral("label"), QStringLiteral("node"), node,
                                   QStringLiteral("--overwrite"),
                                   QStringLiteral("nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB"),
                                   QStringLiteral("nvidia.com/gpu.memory=81920")})
                         .exitCode,
                     0);
    }

    // hard 4, one pod of 1 GPU: 3 left; the memory from the label (81920 MiB).
    void resourceQuota() {
        QCOMPARE(
            m_cluster
                .apply("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpu-quota, namespace: team-a}\n"
                       "spec:\n  hard: {requests.nvidia.com/gpu: \"4\"}\n")
                .exitCode,
            0);
        QVERIFY(m_cluster.waitForJsonPath({QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
                                           QStringLiteral("-n"), QStringLiteral("team-a")},
                                          QStringLiteral("{.status.hard.requests\\.nvidia\\.com/gpu}"),
                                          QStringLiteral("4")));
        QCOMPARE(
            m_cluster
                .createGpuPod(QStringLiteral("team-a"), QStringLiteral("train-1"), QStringLiteral("alice"), 1)
                .exitCode,
            0);
        QVERIFY(m_cluster.waitForJsonPath({QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
                                           QStringLiteral("-n"), QStringLiteral("team-a")},
                                          QStringLiteral("{.status.used.requests\\.nvidia\\.com/gpu}"),
                                          QStringLiteral("1")));
        const QJsonObject q = advise(QStringLiteral("team-a"));
        QCOMPARE(q.value(QLatin1String("gpus_free")).toInt(), 3);
        QCOMPARE(q.value(QLatin1String("gpus_source")).toString(), QStringLiteral("ResourceQuota"));
        QCOMPARE(q.value(QLatin1String("gpu_model")).toString(), QStringLiteral("NVIDIA-A100-SXM4-80GB"));
        QCOMPARE(q.value(QLatin1String("gpu_memory_bytes")).toDouble(), 81920.0 * 1024 * 1024);
        QCOMPARE(q.value(QLatin1String("gpu_memory_source")).toString(),
                 QStringLiteral("label nvidia.com/gpu.memory"));
    }

    // No GPU quota in team-b; its LocalQueue points to a ClusterQueue of 8 GPUs, 3 in use.
    void kueueClusterQueue() {
        QVERIFY(advise(QStringLiteral("team-b")).value(QLatin1String("gpus_source")).isNull());
        QCOMPARE(m_cluster.apply(crd("clusterqueues", "ClusterQueue", "Cluster")).exitCode, 0);
        QCOMPARE(m_cluster.apply(crd("localqueues", "LocalQueue", "Namespaced")).exitCode, 0);
        for (const char *name : {"crd/clusterqueues.kueue.x-k8s.io", "crd/localqueues.kueue.x-k8s.io"})
            QCOMPARE(m_cluster
                         .kubectl({QStringLiteral("wait"), QStringLiteral("--for=condition=established"),
                                   QLatin1String(name), QStringLiteral("--timeout=60s")})
                         .exitCode,
                     0);
        QCOMPARE(
            m_cluster
                .apply("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: cq-gpu}\n"
                       "spec:\n  namespaceSelector: {}\n  resourceGroups:\n"
                       "  - coveredResources: [cpu, nvidia.com/gpu]\n    flavors:\n    - name: a100\n"
                       "      resources:\n      - {name: cpu, nominalQuota: \"64\"}\n"
                       "      - {name: nvidia.com/gpu, nominalQuota: \"8\"}\n")
                .exitCode,
            0);
        QCOMPARE(
            m_cluster
                .kubectl({QStringLiteral("patch"), QStringLiteral("clusterqueue"), QStringLiteral("cq-gpu"),
                          QStringLiteral("--subresource=status"), QStringLiteral("--type=merge"),
                          QStringLiteral("-p"),
                          QStringLiteral(
                              R"({"status":{"flavorsUsage":[{"name":"a100","resources":[)"
                              R"({"name":"cpu","total":"10"},{"name":"nvidia.com/gpu","total":"3"}]}]}})")})
                .exitCode,
            0);
        QCOMPARE(m_cluster
                     .apply("apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
                            "metadata: {name: user-queue, namespace: team-b}\nspec: {clusterQueue: cq-gpu}\n")
                     .exitCode,
                 0);
        const QJsonObject q = advise(QStringLiteral("team-b"));
        QCOMPARE(q.value(QLatin1String("gpus_source")).toString(),
                 QStringLiteral("Kueue ClusterQueue cq-gpu"));
        QCOMPARE(q.value(QLatin1String("gpus_free")).toInt(), 5);
    }
};

QTEST_GUILESS_MAIN(TestRealClusterAdvise)
#include "tst_realcluster_advise.moc"
