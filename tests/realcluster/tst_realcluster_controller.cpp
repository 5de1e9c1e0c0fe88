// The built gpuquota-controller recording GPU pods that the real kube-scheduler binds
// to kwok GPU nodes and kwok runs (status.startTime and the containers' startedAt as a
// kubelet reports them), into a SQLite usage database: rows exact to the second from
// the pods' own status, closed on deletion, whole across a SIGKILL and restart.
#include "tests/controller/controllertestutil.h"
#include "tests/realcluster/realcluster.h"
#include "core/usage/timewindow.h"
#include "core/usage/usagestore.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <limits>

using namespace gq;
using namespace gq::test;

class TestRealClusterController : public QObject {
    Q_OBJECT

    RealCluster m_cluster;
    QTemporaryDir m_dir;
    QString m_db;
    QString m_config;
    int m_listenPort = 0;
    std::unique_ptr<ControllerProcess> m_controller;

    bool startController() {
        m_controller = std::make_unique<ControllerProcess>();
        return m_controller->start(m_config);
    }
    QString readyz() { return curl({QStringLiteral("http://127.0.0.1:%1/readyz").arg(m_listenPort)}); }

    ToolRun createPod(const QString &ns, const QString &name, const QString &user, int gpus) {
        return m_cluster.createGpuPod(ns, name, user, gpus);
    }
    qint64 waitRunning(const QString &ns, const QString &name) { return m_cluster.waitStartedAt(ns, name); }

    struct Row {
        QString user;
        int gpus = 0;
        qint64 start = 0;
        qint64 end = -1; // -1: open
    };
    QMap<QString, Row> ledger() const {
        UsageStore::Options o;
        o.readOnly = true;
        QMap<QString, Row> out;
        auto store = UsageStore::open(m_db, o);
        if (!store)
            return out;
        auto rows =
            (*store)->intervals(0, std::numeric_limits<qint32>::max(), QDateTime::currentSecsSinceEpoch());
        if (!rows)
            return out;
        for (const UsageInterval &iv : *rows)
            out.insert(iv.ns + u'/' + iv.podName, Row{iv.user, iv.gpus, iv.start, iv.end ? *iv.end : -1});
        return out;
    }
    static QString describe(const QMap<QString, Row> &rows) {
        QStringList out;
        for (auto it = rows.cbegin(); it != rows.cend(); ++it)
            out << QStringLiteral("%1 %2 %3 %4 %5")
                       .arg(it.key(), it->user)
                       .arg(it->gpus)
                       .arg(it->start)
                       .arg(it->end);
        return out.join(u'\n');
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo(binDir() + QStringLiteral("/gpuquota-controller")).isExecutable(),
                 "build the gpuquota-controller target");
        GQ_START_REAL_CLUSTER(m_cluster);
        m_db = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
        QVERIFY(UsageStore::open(m_db));
        m_listenPort = freePort();
        m_config = writeFile(m_dir.filePath(QStringLiteral("controller.yaml")),
                             QStringLiteral("cluster: {kubeconfig: %1, context: admin}\nclusterName: real\n"
                                            "database: %2\nlisten: 127.0.0.1:%3\ntimeZone: UTC\nspool: %4\n")
                                 .arg(m_cluster.kubeconfigPath(), m_db)
                                 .arg(m_listenPort)
                                 .arg(m_dir.filePath(QStringLiteral("spool")))
                                 .toUtf8());
        for (const char *ns : {"team-a", "team-b"})
            QVERIFY(m_cluster.createNamespace(QLatin1String(ns)));
    }
    void cleanupTestCase() { m_controller.reset(); }

    void recordsRunningPodsToTheSecond() {
        QVERIFY(startController());
        QVERIFY2(createPod(QStringLiteral("team-a"), QStringLiteral("train-a"), QStringLiteral("alice"), 2)
                         .exitCode == 0,
                 "pod train-a");
        QVERIFY2(createPod(QStringLiteral("team-b"), QStringLiteral("train-b"), QStringLiteral("bob"), 1)
                         .exitCode == 0,
                 "pod train-b");
        const qint64 a = waitRunning(QStringLiteral("team-a"), QStringLiteral("train-a"));
        const qint64 b = waitRunning(QStringLiteral("team-b"), QStringLiteral("train-b"));
        QVERIFY2(a > 0 && b > 0, "kwok did not run the pods");
        QMap<QString, Row> rows;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         rows = ledger();
                         return rows.size() == 2;
                     },
                     30000),
                 qPrintable(describe(rows)));
        const Row ra = rows.value(QStringLiteral("team-a/train-a"));
        QCOMPARE(ra.user, QStringLiteral("alice"));
        QCOMPARE(ra.gpus, 2);
        QCOMPARE(ra.start, a);
        QCOMPARE(ra.end, qint64(-1));
        const Row rb = rows.value(QStringLiteral("team-b/train-b"));
        QCOMPARE(rb.user, QStringLiteral("bob"));
        QCOMPARE(rb.start, b);
        QVERIFY(QTest::qWaitFor([&] { return readyz().startsWith(QLatin1String("200")); }, 20000));
    }

    // kubectl delete: the graceful deletion finishes (kwok), the row closes between the
    // request and its return.
    void deletionClosesTheRow() {
        const qint64 before = QDateTime::currentSecsSinceEpoch();
        const ToolRun d =
            m_cluster.kubectl({QStringLiteral("delete"), QStringLiteral("pod"), QStringLiteral("train-a"),
                               QStringLiteral("-n"), QStringLiteral("team-a")});
        QVERIFY2(d.exitCode == 0, d.err.constData());
        const qint64 after = QDateTime::currentSecsSinceEpoch();
        Row row;
        QVERIFY(QTest::qWaitFor(
            [&] {
                row = ledger().value(QStringLiteral("team-a/train-a"));
                return row.end >= 0;
            },
            30000));
        QVERIFY2(
            row.end >= before && row.end <= after + 1,
            qPrintable(QStringLiteral("end %1 not in [%2, %3]").arg(row.end).arg(before).arg(after + 1)));
    }

    // A pod that runs to completion (kwok's stage for gpuquota.io/test-run-seconds): the
    // row ends at the container's finishedAt, to the second.
    void completedPodEndsAtItsFinishedAt() {
        const ToolRun r = m_cluster.apply(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: short-d\n  namespace: team-b\n"
            "  labels: {gpuquota.io/user: dora}\n  annotations: {gpuquota.io/test-run-seconds: \"4\"}\n"
            "spec:\n  restartPolicy: Never\n  containers:\n  - name: main\n    image: cuda\n"
            "    resources:\n      limits: {nvidia.com/gpu: \"1\"}\n");
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QString finished;
        QVERIFY(QTest::qWaitFor(
            [&] {
                finished = QString::fromUtf8(
                    m_cluster
                        .kubectl({QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("short-d"),
                                  QStringLiteral("-n"), QStringLiteral("team-b"), QStringLiteral("-o"),
                                  QStringLiteral(
                                      "jsonpath={.status.containerStatuses[0].state.terminated.finishedAt} "
                                      "{.status.containerStatuses[0].state.terminated.startedAt}")})
                        .out.trimmed());
                return finished.contains(u' ') && !finished.startsWith(u' ');
            },
            60000));
        const qint64 end =
            QDateTime::fromString(finished.section(u' ', 0, 0), Qt::ISODate).toSecsSinceEpoch();
        const qint64 start =
            QDateTime::fromString(finished.section(u' ', 1, 1), Qt::ISODate).toSecsSinceEpoch();
        Row row;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         row = ledger().value(QStringLiteral("team-b/short-d"));
                         return row.end >= 0;
                     },
                     30000),
                 qPrintable(describe(ledger())));
        QCOMPARE(row.start, start);
        QCOMPARE(row.end, end);
        QCOMPARE(row.user, QStringLiteral("dora"));
    }

    // A pod stuck in Terminating (kwok leaves pods annotated gpuquota.io/test-hold alone,
    // as a lost node's kubelet would): the row ends where the real quota stops counting
    // it, deletionTimestamp + deletionGracePeriodSeconds, not when it is finally removed.
    void stuckInTerminatingEndsWhereQuotaLetsGo() {
        const ToolRun r = m_cluster.apply(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: lost-e\n  namespace: team-b\n"
            "  labels: {gpuquota.io/user: erin}\n  annotations: {gpuquota.io/test-hold: \"true\"}\n"
            "spec:\n  terminationGracePeriodSeconds: 3\n  containers:\n  - name: main\n    image: cuda\n"
            "    resources:\n      limits: {nvidia.com/gpu: \"1\"}\n");
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(waitRunning(QStringLiteral("team-b"), QStringLiteral("lost-e")) > 0);
        QVERIFY(m_cluster
                    .kubectl({QStringLiteral("delete"), QStringLiteral("pod"), QStringLiteral("lost-e"),
                              QStringLiteral("-n"), QStringLiteral("team-b"), QStringLiteral("--wait=false")})
                    .exitCode == 0);
        const QString deletion = QString::fromUtf8(
            m_cluster
                .kubectl(
                    {QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("lost-e"),
                     QStringLiteral("-n"), QStringLiteral("team-b"), QStringLiteral("-o"),
                     QStringLiteral(
                         "jsonpath={.metadata.deletionTimestamp} {.metadata.deletionGracePeriodSeconds}")})
                .out.trimmed());
        const qint64 cutoff =
            QDateTime::fromString(deletion.section(u' ', 0, 0), Qt::ISODate).toSecsSinceEpoch() +
            deletion.section(u' ', 1, 1).toLongLong();
        QVERIFY2(cutoff > 0 && deletion.endsWith(QLatin1String(" 3")), qPrintable(deletion));
        Row row;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         row = ledger().value(QStringLiteral("team-b/lost-e"));
                         return row.end >= 0;
                     },
                     30000),
                 qPrintable(describe(ledger())));
        QCOMPARE(row.end, cutoff);
        // The pod is still there, Terminating: only quota has let it go.
        QVERIFY(m_cluster
                    .kubectl({QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("lost-e"),
                              QStringLiteral("-n"), QStringLiteral("team-b")})
                    .exitCode == 0);
        m_cluster.kubectl({QStringLiteral("delete"), QStringLiteral("pod"), QStringLiteral("lost-e"),
                           QStringLiteral("-n"), QStringLiteral("team-b"), QStringLiteral("--force"),
                           QStringLiteral("--grace-period=0")});
    }

    // SIGKILL; a pod starts and another is deleted while no controller watches; after the
    // restart the new pod's row starts at its real start, the deleted one is closed.
    void restartAfterSigkill() {
        const qint64 killed = QDateTime::currentSecsSinceEpoch();
        m_controller.reset(); // SIGKILL
        QVERIFY(createPod(QStringLiteral("team-a"), QStringLiteral("late-c"), QStringLiteral("carol"), 4)
                    .exitCode == 0);
        const qint64 c = waitRunning(QStringLiteral("team-a"), QStringLiteral("late-c"));
        QVERIFY(c > 0);
        const qint64 before = QDateTime::currentSecsSinceEpoch();
        QVERIFY(m_cluster
                    .kubectl({QStringLiteral("delete"), QStringLiteral("pod"), QStringLiteral("train-b"),
                              QStringLiteral("-n"), QStringLiteral("team-b")})
                    .exitCode == 0);
        QTest::qWait(2000);
        QVERIFY(startController());
        QMap<QString, Row> rows;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         rows = ledger();
                         return rows.value(QStringLiteral("team-a/late-c")).start == c &&
                                rows.value(QStringLiteral("team-b/train-b")).end >= 0;
                     },
                     30000),
                 qPrintable(describe(rows)));
        QCOMPARE(rows.size(), 5);
        QCOMPARE(rows.value(QStringLiteral("team-a/late-c")).gpus, 4);
        QCOMPARE(rows.value(QStringLiteral("team-a/late-c")).end, qint64(-1));
        // Deleted while no controller watched: closed at its last heartbeat (seen_s, at most
        // one heartbeat interval before the kill), never at the restart's time.
        const qint64 end = rows.value(QStringLiteral("team-b/train-b")).end;
        QVERIFY2(end <= before && end >= killed - UsageStore::kSeenIntervalSeconds - 1,
                 qPrintable(
                     QStringLiteral("end %1, killed %2, deleted after %3").arg(end).arg(killed).arg(before)));
    }
};

QTEST_GUILESS_MAIN(TestRealClusterController)
#include "tst_realcluster_controller.moc"
