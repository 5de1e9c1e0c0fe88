// Every kubectl release on the machine (1.27 ... 1.33) through the workflow that
// tests/testcluster/tst_kubectl.cpp runs against our test cluster, here against the real
// kube-apiserver: the same exit codes and the same server messages, word for word. Where
// a real cluster is asynchronous (quota status filled by kube-controller-manager, pods
// counted until their deletion finishes) the workflow waits for it, as a user would.
#include "tests/realcluster/realcluster.h"
#include "tests/testcluster/kubectlrun.h"

#include <QRegularExpression>
#include <QtTest>

using namespace gq::test;
using Run = KubectlRun;

class TestRealClusterKubectl : public QObject {
    Q_OBJECT

    RealCluster m_cluster;
    QMap<QString, QString> m_kubectls;
    QTemporaryDir m_home;
    QString m_viewer; // kubeconfig of viewer@example.com

    Run kubectl(const QString &binary, const QStringList &args, const QByteArray &stdinData = {},
                const QString &kubeconfig = {}) {
        return runKubectl(binary, kubeconfig.isEmpty() ? m_cluster.kubeconfigPath() : kubeconfig,
                          m_home.path(), args, stdinData);
    }
    static QByteArray quotaYaml(const QString &ns, const QString &gpus, const QString &extra = {}) {
        return QStringLiteral(
                   "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpu\n  namespace: %1\n%3"
                   "spec:\n  hard:\n    requests.nvidia.com/gpu: \"%2\"\n    requests.cpu: \"16\"\n"
                   "    requests.memory: 64Gi\n")
            .arg(ns, gpus, extra)
            .toUtf8();
    }
    static QByteArray podYaml(const QString &ns, const QString &name, int gpus) {
        return QStringLiteral("apiVersion: v1\nkind: Pod\nmetadata:\n  name: %1\n  namespace: %2\n"
                              "  labels: {gpuquota.io/user: tester}\nspec:\n  containers:\n  - name: main\n"
                              "    image: nvcr.io/nvidia/pytorch:24.05-py3\n    resources:\n"
                              "      requests: {cpu: \"1\", memory: 2Gi}\n"
                              "      limits: {cpu: \"1\", memory: 2Gi, nvidia.com/gpu: \"%3\"}\n")
            .arg(name, ns)
            .arg(gpus)
            .toUtf8();
    }
    QString quotaState(const QString &binary, const QString &ns) {
        return kubectl(binary, {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("gpu"),
                                QStringLiteral("-n"), ns, QStringLiteral("-o"),
                                QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu} "
                                               "{.status.hard.requests\\.nvidia\\.com/gpu} "
                                               "{.status.used.requests\\.nvidia\\.com/gpu}")})
            .out.trimmed();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        m_kubectls = findKubectls();
        GQ_REQUIRE_KUBECTL(m_kubectls);
        GQ_START_REAL_CLUSTER(m_cluster);
        m_viewer = m_cluster.kubeconfigFor(QStringLiteral("t-viewer"), QStringLiteral("viewer"));
    }

    void workflow_data() {
        QTest::addColumn<QString>("binary");
        for (auto it = m_kubectls.cbegin(); it != m_kubectls.cend(); ++it)
            QTest::newRow(qPrintable(it.key())) << it.value();
    }

    void workflow() {
        QFETCH(QString, binary);
        const QString ns =
            QStringLiteral("kc-") +
            QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char('.'), QLatin1Char('-'));
        Run r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("nodes"), QStringLiteral("-l"),
                                 QStringLiteral("nvidia.com/gpu.present=true"), QStringLiteral("-o"),
                                 QStringLiteral("jsonpath={.items[*].status.allocatable.nvidia\\.com/gpu}")});
        QVERIFY2(r.exitCode == 0 && r.out.trimmed() == QLatin1String("8 8"), qPrintable(r.all()));

        QVERIFY(m_cluster.createNamespace(ns));
        for (const char *word : {"created", "unchanged"}) {
            r = kubectl(binary, {QStringLiteral("apply"), QStringLiteral("-f"), QStringLiteral("-")},
                        quotaYaml(ns, QStringLiteral("2")));
            QVERIFY2(r.exitCode == 0 &&
                         r.out.contains(QStringLiteral("resourcequota/gpu %1").arg(QLatin1String(word))),
                     qPrintable(r.all()));
        }
        r = kubectl(binary, {QStringLiteral("apply"), QStringLiteral("-f"), QStringLiteral("-")},
                    quotaYaml(ns, QStringLiteral("3")));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resourcequota/gpu configured")),
                 qPrintable(r.all()));
        // status.hard is kube-controller-manager's copy of spec.hard, made later.
        QTRY_COMPARE_WITH_TIMEOUT(quotaState(binary, ns), QStringLiteral("3 3 0"), 60000);

        r = kubectl(binary, {QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")},
                    podYaml(ns, QStringLiteral("train-1"), 2));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("pod/train-1 created")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")},
                    podYaml(ns, QStringLiteral("train-2"), 2));
        QVERIFY2(r.exitCode != 0, qPrintable(r.all()));
        QVERIFY2(r.err.contains(QStringLiteral("Error from server (Forbidden)")), qPrintable(r.err));
        QVERIFY2(
            r.err.contains(QStringLiteral(
                "pods \"train-2\" is forbidden: exceeded quota: gpu, requested: requests.nvidia.com/gpu=2, "
                "used: requests.nvidia.com/gpu=2, limited: requests.nvidia.com/gpu=3")),
            qPrintable(r.err));
        r = kubectl(binary,
                    {QStringLiteral("create"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                     QStringLiteral("-")},
                    podYaml(ns, QStringLiteral("train-3"), 1));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("pod/train-3 created (server dry run)")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("train-3"),
                             QStringLiteral("-n"), ns});
        QVERIFY2(r.exitCode != 0 && r.err.contains(QStringLiteral("pods \"train-3\" not found")),
                 qPrintable(r.all()));
        // kwok runs the pod on a GPU node as a kubelet would report it.
        QTRY_VERIFY_WITH_TIMEOUT(
            kubectl(binary, {QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("train-1"),
                             QStringLiteral("-n"), ns, QStringLiteral("-o"),
                             QStringLiteral("jsonpath={.status.phase}")})
                    .out.trimmed() == QLatin1String("Running"),
            60000);
        // A deleted pod counts until its deletion finishes; then 2 more GPUs fit.
        r = kubectl(binary, {QStringLiteral("delete"), QStringLiteral("pod"), QStringLiteral("train-1"),
                             QStringLiteral("-n"), ns});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("pod \"train-1\" deleted")),
                 qPrintable(r.all()));
        QTRY_COMPARE_WITH_TIMEOUT(quotaState(binary, ns), QStringLiteral("3 3 0"), 60000);
        r = kubectl(binary, {QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")},
                    podYaml(ns, QStringLiteral("train-2"), 2));
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));

        // replace: a fresh resourceVersion works, a stale one is a 409 Conflict.
        const QString rv =
            kubectl(binary, {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("gpu"),
                             QStringLiteral("-n"), ns, QStringLiteral("-o"),
                             QStringLiteral("jsonpath={.metadata.resourceVersion}")})
                .out.trimmed();
        QVERIFY(!rv.isEmpty());
        const QString withRv = QStringLiteral("  resourceVersion: \"%1\"\n").arg(rv);
        r = kubectl(binary, {QStringLiteral("replace"), QStringLiteral("-f"), QStringLiteral("-")},
                    quotaYaml(ns, QStringLiteral("4"), withRv));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resourcequota/gpu replaced")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("replace"), QStringLiteral("-f"), QStringLiteral("-")},
                    quotaYaml(ns, QStringLiteral("5"), withRv));
        QVERIFY2(r.exitCode != 0 && r.err.contains(QStringLiteral("Error from server (Conflict)")) &&
                     r.err.contains(
                         QStringLiteral("Operation cannot be fulfilled on resourcequotas \"gpu\": the object "
                                        "has been modified; please apply your changes to the latest "
                                        "version and try again")),
                 qPrintable(r.err));

        // RBAC: a viewer bound to `view` in the namespace reads but may not change.
        r = kubectl(binary, {QStringLiteral("create"), QStringLiteral("rolebinding"),
                             QStringLiteral("viewer"), QStringLiteral("--clusterrole=view"),
                             QStringLiteral("--user=viewer@example.com"), QStringLiteral("-n"), ns});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("auth"), QStringLiteral("can-i"), QStringLiteral("update"),
                             QStringLiteral("resourcequotas"), QStringLiteral("-n"), ns});
        QVERIFY2(r.exitCode == 0 && r.out.trimmed() == QLatin1String("yes"), qPrintable(r.all()));
        r = kubectl(binary,
                    {QStringLiteral("auth"), QStringLiteral("can-i"), QStringLiteral("update"),
                     QStringLiteral("resourcequotas"), QStringLiteral("-n"), ns},
                    {}, m_viewer);
        QVERIFY2(r.exitCode == 1 && r.out.trimmed() == QLatin1String("no"), qPrintable(r.all()));
        r = kubectl(binary,
                    {QStringLiteral("auth"), QStringLiteral("can-i"), QStringLiteral("list"),
                     QStringLiteral("pods"), QStringLiteral("-n"), ns},
                    {}, m_viewer);
        QVERIFY2(r.exitCode == 0 && r.out.trimmed() == QLatin1String("yes"), qPrintable(r.all()));
        r = kubectl(binary,
                    {QStringLiteral("delete"), QStringLiteral("quota"), QStringLiteral("gpu"),
                     QStringLiteral("-n"), ns},
                    {}, m_viewer);
        QVERIFY2(r.exitCode != 0 &&
                     r.err.contains(
                         QStringLiteral("Error from server (Forbidden): resourcequotas \"gpu\" is forbidden: "
                                        "User \"viewer@example.com\" cannot delete resource "
                                        "\"resourcequotas\" in API group \"\" in the namespace \"%1\"")
                             .arg(ns)),
                 qPrintable(r.all()));

        // Watch: the quota as it is, then our change.
        {
            QuotaWatch watch(binary, m_cluster.kubeconfigPath(), m_home.path(), ns);
            QVERIFY2(watch.waitFor(QStringLiteral("gpu 4")), qPrintable(watch.seen()));
            r = kubectl(binary,
                        {QStringLiteral("patch"), QStringLiteral("quota"), QStringLiteral("gpu"),
                         QStringLiteral("-n"), ns, QStringLiteral("--type=merge"), QStringLiteral("-p"),
                         QStringLiteral("{\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"7\"}}}")});
            QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resourcequota/gpu patched")),
                     qPrintable(r.all()));
            QVERIFY2(watch.waitFor(QStringLiteral("gpu 7")), qPrintable(watch.seen()));
        }

        r = kubectl(binary, {QStringLiteral("delete"), QStringLiteral("quota"), QStringLiteral("gpu"),
                             QStringLiteral("-n"), ns});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resourcequota \"gpu\" deleted")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("gpu"),
                             QStringLiteral("-n"), ns});
        QVERIFY2(r.exitCode != 0 && r.err.contains(QStringLiteral(
                                        "Error from server (NotFound): resourcequotas \"gpu\" not found")),
                 qPrintable(r.all()));
        // The namespace controller empties the namespace (kwok finishes the pod's deletion).
        r = kubectl(binary, {QStringLiteral("delete"), QStringLiteral("namespace"), ns,
                             QStringLiteral("--timeout=120s")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("namespace \"%1\" deleted").arg(ns)),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("-n"), ns,
                             QStringLiteral("-o"), QStringLiteral("name")});
        QVERIFY2(r.exitCode == 0 && r.out.trimmed().isEmpty(), qPrintable(r.all()));
    }
};

QTEST_GUILESS_MAIN(TestRealClusterKubectl)
#include "tst_realcluster_kubectl.moc"
