// Two gpuquota-controller replicas against a private PostgreSQL and the real API server,
// electing their leader on a real coordination.k8s.io/v1 Lease: the leader is SIGKILLed,
// the standby takes the Lease once it expires, and the pods that started meanwhile are
// recorded from their real start (kwok's startedAt), once; a pod that ran and was deleted
// before the standby led is recorded too (every replica records).
#include "tests/controller/controllertestutil.h"
#include "tests/realcluster/realcluster.h"
#include "core/usage/usagestore.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <limits>

using namespace gq;
using namespace gq::test;

class TestRealClusterHa : public QObject {
    Q_OBJECT

    RealCluster m_cluster;
    QTemporaryDir m_dir;
    PrivatePostgres m_pg;
    ControllerProcess m_a;
    ControllerProcess m_b;
    int m_portA = 0;
    int m_portB = 0;

    QString config(const QString &name, int port) {
        return writeFile(m_dir.filePath(name + QStringLiteral(".yaml")),
                         QStringLiteral("cluster: {kubeconfig: %1, context: admin}\nclusterName: real\n"
                                        "database: %2\nlisten: 127.0.0.1:%3\ntimeZone: UTC\nspool: %4\n"
                                        "leaderElection: {enabled: true, namespace: gpuquota-system, name: "
                                        "gpuquota-controller}\n")
                             .arg(m_cluster.kubeconfigPath(), m_pg.url)
                             .arg(port)
                             .arg(m_dir.filePath(name + QStringLiteral("-spool")))
                             .toUtf8());
    }
    QString holder() {
        return QString::fromUtf8(m_cluster
                                     .kubectl({QStringLiteral("get"), QStringLiteral("lease"),
                                               QStringLiteral("gpuquota-controller"), QStringLiteral("-n"),
                                               QStringLiteral("gpuquota-system"), QStringLiteral("-o"),
                                               QStringLiteral("jsonpath={.spec.holderIdentity}")})
                                     .out);
    }
    qint64 runPod(const QString &name, int gpus) {
        if (m_cluster.createGpuPod(QStringLiteral("team-ha"), name, QStringLiteral("hana"), gpus).exitCode !=
            0)
            return 0;
        return m_cluster.waitStartedAt(QStringLiteral("team-ha"), name);
    }
    // A one-GPU pod kwok runs for 2 s, deleted once it has finished: its start and end
    // as the pod's status gave them.
    std::pair<qint64, qint64> runAndDelete(const QString &name) {
        const QString yaml =
            QStringLiteral("apiVersion: v1\nkind: Pod\nmetadata:\n  name: %1\n  namespace: team-ha\n"
                           "  labels: {gpuquota.io/user: hana}\n"
                           "  annotations: {gpuquota.io/test-run-seconds: \"2\"}\nspec:\n  restartPolicy: Never\n  containers:\n"
                           "  - name: main\n    image: cuda\n    resources:\n"
                           "      limits: {nvidia.com/gpu: \"1\"}\n")
                .arg(name);
        if (m_cluster.apply(yaml.toUtf8()).exitCode != 0)
            return {0, 0};
        const QStringList pod{QStringLiteral("pod"), name, QStringLiteral("-n"), QStringLiteral("team-ha")};
        if (!m_cluster.waitForJsonPath(pod, QStringLiteral("{.status.phase}"), QStringLiteral("Succeeded")))
            return {0, 0};
        const auto at = [&](const char *path) {
            const QByteArray out =
                m_cluster
                    .kubectl(
                        QStringList{QStringLiteral("get")} + pod +
                        QStringList{QStringLiteral("-o"), QStringLiteral("jsonpath=") + QLatin1String(path)})
                    .out.trimmed();
            return QDateTime::fromString(QString::fromUtf8(out), Qt::ISODate).toSecsSinceEpoch();
        };
        const qint64 start = at("{.status.containerStatuses[0].state.terminated.startedAt}");
        const qint64 end = at("{.status.containerStatuses[0].state.terminated.finishedAt}");
        QTest::qWait(500); // the watching replica has seen the end before the deletion
        if (m_cluster.kubectl(QStringList{QStringLiteral("delete")} + pod).exitCode != 0)
            return {0, 0};
        return {start, end};
    }
    // pod name -> "gpus start end" ("-" for an open end), from the shared database.
    QMap<QString, QString> ledger() {
        UsageStore::Options o;
        o.readOnly = true;
        QMap<QString, QString> out;
        auto store = UsageStore::open(m_pg.url, o);
        if (!store)
            return out;
        auto rows =
            (*store)->intervals(0, std::numeric_limits<qint32>::max(), QDateTime::currentSecsSinceEpoch());
        if (!rows)
            return out;
        for (const UsageInterval &iv : *rows)
            out[iv.podName] += QStringLiteral("%1 %2 %3;")
                                   .arg(iv.gpus)
                                   .arg(iv.start)
                                   .arg(iv.end ? QString::number(*iv.end) : QStringLiteral("-"));
        return out;
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        QVERIFY(m_dir.isValid());
        QVERIFY2(m_pg.init(), qPrintable(m_pg.error));
        QVERIFY(UsageStore::open(m_pg.url));
        GQ_START_REAL_CLUSTER(m_cluster);
        for (const char *ns : {"gpuquota-system", "team-ha"})
            QVERIFY(m_cluster.createNamespace(QLatin1String(ns)));
        m_portA = freePort();
        m_portB = freePort();
    }

    void standbyTakesOverAndRecordsWhatStartedMeanwhile() {
        QVERIFY(m_a.start(config(QStringLiteral("a"), m_portA), QStringLiteral("replica-a")));
        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("replica-a"), 40000);
        QVERIFY(m_b.start(config(QStringLiteral("b"), m_portB), QStringLiteral("replica-b")));
        const qint64 first = runPod(QStringLiteral("before-kill"), 2);
        QVERIFY(first > 0);
        QTRY_COMPARE_WITH_TIMEOUT(ledger().value(QStringLiteral("before-kill")),
                                  QStringLiteral("2 %1 -;").arg(first), 30000);
        QCOMPARE(holder(), QStringLiteral("replica-a"));

        m_a.kill(); // SIGKILL: the Lease is not given up, it must expire
        // A pod that starts, ends and is deleted before anyone leads again: only a
        // replica that kept watching can know it ran.
        const auto [shortStart, shortEnd] = runAndDelete(QStringLiteral("gone-in-the-gap"));
        QVERIFY(shortStart > 0 && shortEnd > shortStart);
        QVERIFY2(holder() == QLatin1String("replica-a"),
                 "the pod outlived the handover: the test proves nothing");
        const qint64 during = runPod(QStringLiteral("during-handover"), 1);
        QVERIFY(during > 0);
        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("replica-b"), kLeaseDurationMs + 30000);
        QTRY_COMPARE_WITH_TIMEOUT(ledger().value(QStringLiteral("during-handover")),
                                  QStringLiteral("1 %1 -;").arg(during), 30000);
        QCOMPARE(ledger().value(QStringLiteral("gone-in-the-gap")),
                 QStringLiteral("1 %1 %2;").arg(shortStart).arg(shortEnd));
        // Nothing recorded twice, nothing closed by the handover.
        QCOMPARE(ledger().value(QStringLiteral("before-kill")), QStringLiteral("2 %1 -;").arg(first));
        QCOMPARE(ledger().size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestRealClusterHa)
#include "tst_realcluster_ha.moc"
