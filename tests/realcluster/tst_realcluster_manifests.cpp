// packaging/kubernetes/ on the real API server: every manifest passes a server-side dry
// run in the namespace it ships (labelled pod-security.kubernetes.io/enforce: restricted)
// without a Pod Security warning, and the controller's Deployment really gets its pods
// admitted there: the ReplicaSet controller creates them, the restricted profile lets
// them in, kwok runs them. (The webhook registration is only dry-run: its Service would
// route to a cluster IP, which nothing here may call.)
#include "tests/realcluster/realcluster.h"

#include <QtTest>

using namespace gq::test;

class TestRealClusterManifests : public QObject {
    Q_OBJECT

    RealCluster m_cluster;
    static QString manifest(const char *name) {
        return QStringLiteral(GQ_SOURCE_DIR "/packaging/kubernetes/") + QLatin1String(name);
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        GQ_START_REAL_CLUSTER(m_cluster);
        const ToolRun ns =
            m_cluster.kubectl({QStringLiteral("apply"), QStringLiteral("-f"), manifest("00-namespace.yaml")});
        QVERIFY2(ns.exitCode == 0, ns.err.constData());
        QCOMPARE(m_cluster
                     .kubectl({QStringLiteral("get"), QStringLiteral("namespace"),
                               QStringLiteral("gpuquota-system"), QStringLiteral("-o"),
                               QStringLiteral(
                                   "jsonpath={.metadata.labels.pod-security\\.kubernetes\\.io/enforce}")})
                     .out,
                 QByteArray("restricted"));
    }

    void serverDryRunPassesWithoutPodSecurityWarnings_data() {
        QTest::addColumn<QString>("file");
        for (const char *f : {"10-rbac.yaml", "20-configmap.yaml", "30-deployment.yaml", "40-service.yaml",
                              "50-webhook.yaml", "reconcile-cronjob.yaml"})
            QTest::newRow(f) << manifest(f);
    }
    void serverDryRunPassesWithoutPodSecurityWarnings() {
        QFETCH(QString, file);
        const ToolRun r = m_cluster.kubectl(
            {QStringLiteral("apply"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"), file});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(!r.err.contains("PodSecurity"), r.err.constData());
    }

    void controllerPodsAreAdmittedUnderRestricted() {
        for (const char *f : {"10-rbac.yaml", "20-configmap.yaml", "30-deployment.yaml"}) {
            const ToolRun r = m_cluster.kubectl({QStringLiteral("apply"), QStringLiteral("-f"), manifest(f)});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY2(!r.err.contains("PodSecurity"), r.err.constData());
        }
        QVERIFY2(
            m_cluster.waitForJsonPath({QStringLiteral("deployment"), QStringLiteral("gpuquota-controller"),
                                       QStringLiteral("-n"), QStringLiteral("gpuquota-system")},
                                      QStringLiteral("{.status.replicas}"), QStringLiteral("2"), 90000),
            m_cluster
                .kubectl({QStringLiteral("get"), QStringLiteral("events"), QStringLiteral("-n"),
                          QStringLiteral("gpuquota-system")})
                .out.constData());
        // No FailedCreate from the ReplicaSet: the pods exist.
        const ToolRun pods = m_cluster.kubectl({QStringLiteral("get"), QStringLiteral("pods"),
                                                QStringLiteral("-n"), QStringLiteral("gpuquota-system"),
                                                QStringLiteral("-o"), QStringLiteral("name")});
        QCOMPARE(pods.out.count("pod/gpuquota-controller-"), 2);
    }
};

QTEST_GUILESS_MAIN(TestRealClusterManifests)
#include "tst_realcluster_manifests.moc"
