// GPUs allocated through Dynamic Resource Allocation (resource.k8s.io/v1) on the real
// control plane: ResourceSlices published for the kwok GPU nodes by a fake driver
// (gpu.example.com), DeviceClasses for whole GPUs and 1g.10gb partitions, claims and
// templates that the real kube-scheduler allocates (and kube-controller-manager makes
// from templates). The built gpuquota-controller records them into SQLite: to the second,
// a partition as its fraction, a shared claim once; and the API server's quota key
// <class>.deviceclass.resource.k8s.io/devices refuses a claim over it.
#include "services/controller/clampplan.h"
#include "tests/controller/controllertestutil.h"
#include "tests/realcluster/realcluster.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QtTest>

using namespace gq;
using namespace gq::test;

namespace {

const QString kGpuKey = QStringLiteral("gpu.example.com.deviceclass.resource.k8s.io/devices");
const QString kMigKey = QStringLiteral("mig.example.com.deviceclass.resource.k8s.io/devices");

QByteArray slices() {
    QString out = QStringLiteral(
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\nspec:\n"
        "  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\" && "
        "device.attributes[\"gpu.example.com\"].type == \"gpu\"'}\n---\n"
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: mig.example.com}\nspec:\n"
        "  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\" && "
        "device.attributes[\"gpu.example.com\"].type == \"mig\"'}\n");
    for (int node = 1; node <= 2; ++node) {
        out += QStringLiteral(
                   "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: gpu-node-%1}\n"
                   "spec:\n  driver: gpu.example.com\n  nodeName: gpu-node-%1\n"
                   "  pool: {name: gpu-node-%1, generation: 1, resourceSliceCount: 1}\n  devices:\n")
                   .arg(node);
        for (int i = 0; i < 4; ++i)
            out += QStringLiteral("  - name: gpu-%1\n    attributes:\n      type: {string: gpu}\n"
                                  "      productName: {string: NVIDIA H100 80GB HBM3}\n")
                       .arg(i);
        for (int i = 0; i < 2; ++i)
            out +=
                QStringLiteral(
                    "  - name: mig-%1\n    attributes:\n      type: {string: mig}\n"
                    "      profile: {string: 1g.10gb}\n      productName: {string: NVIDIA A100-SXM4-80GB}\n")
                    .arg(i);
    }
    return out.toUtf8();
}

QByteArray claimYaml(const char *kind, const QString &ns, const QString &name, const QString &cls,
                     int count) {
    // A template holds the claim's spec one level down (spec.spec).
    const QString in = qstrcmp(kind, "ResourceClaimTemplate") == 0 ? QStringLiteral("  ") : QString();
    return QStringLiteral(
               "apiVersion: resource.k8s.io/v1\nkind: %1\nmetadata: {name: %2, namespace: %3}\nspec:\n%4"
               "%5  devices:\n%5    requests:\n%5    - name: gpu\n"
               "%5      exactly: {deviceClassName: %6, count: %7}\n")
        .arg(QLatin1String(kind), name, ns, in.isEmpty() ? QString() : QStringLiteral("  spec:\n"), in, cls)
        .arg(count)
        .toUtf8();
}

QByteArray podYaml(const QString &ns, const QString &name, const QString &user, const QString &claimLine) {
    return QStringLiteral(
               "apiVersion: v1\nkind: Pod\nmetadata:\n  name: %1\n  namespace: %2\n"
               "  labels: {gpuquota.io/user: %3}\nspec:\n  containers:\n  - name: main\n    image: cuda\n"
               "    resources:\n      claims: [{name: gpu}]\n  resourceClaims:\n  - name: gpu\n    %4\n")
        .arg(name, ns, user, claimLine)
        .toUtf8();
}

} // namespace

class TestRealClusterDra : public QObject {
    Q_OBJECT

    RealCluster m_cluster;
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<ControllerProcess> m_controller;

    struct Row {
        QString pod;
        QString user;
        QString resource;
        int gpus = 0;
        double weight = 0;
        qint64 start = 0;
        qint64 end = -1;
        QString model;
    };
    QList<Row> rows(const QString &ns) const {
        QList<Row> out;
        {
            QSqlDatabase db =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("dra-check"));
            db.setDatabaseName(m_dir.filePath(QStringLiteral("usage.db")));
            if (db.open()) {
                QSqlQuery q(db);
                q.prepare(QStringLiteral(
                    "SELECT pod_name, user_name, resource, gpus, weight, start_s, end_s, gpu_model "
                    "FROM usage_intervals WHERE ns = ? ORDER BY start_s, pod_name"));
                q.addBindValue(ns);
                if (q.exec())
                    while (q.next())
                        out.append(Row{q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                                       q.value(3).toInt(), q.value(4).toDouble(), q.value(5).toLongLong(),
                                       q.value(6).isNull() ? -1 : q.value(6).toLongLong(),
                                       q.value(7).toString()});
            }
        }
        QSqlDatabase::removeDatabase(QStringLiteral("dra-check"));
        return out;
    }
    static QString describe(const QList<Row> &rows) {
        QStringList out;
        for (const Row &r : rows)
            out << QStringLiteral("%1 %2 %3 %4x%5 %6-%7 %8")
                       .arg(r.pod, r.user, r.resource)
                       .arg(r.gpus)
                       .arg(r.weight)
                       .arg(r.start)
                       .arg(r.end)
                       .arg(r.model);
        return out.join(u'\n');
    }
    QList<Row> waitRows(const QString &ns, qsizetype n) const {
        QList<Row> out;
        (void)QTest::qWaitFor(
            [&] {
                out = rows(ns);
                return out.size() == n;
            },
            30000);
        return out;
    }
    void apply(const QByteArray &yaml) const {
        const ToolRun r = m_cluster.apply(yaml);
        QVERIFY2(r.exitCode == 0, QByteArray(r.err + "\n" + yaml).constData());
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo(binDir() + QStringLiteral("/gpuquota-controller")).isExecutable(),
                 "build the gpuquota-controller target");
        GQ_START_REAL_CLUSTER(m_cluster);
        m_db = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
        const QString config =
            writeFile(m_dir.filePath(QStringLiteral("controller.yaml")),
                      QStringLiteral("cluster: {kubeconfig: %1, context: admin}\nclusterName: real\n"
                                     "database: %2\nlisten: 127.0.0.1:%3\ntimeZone: UTC\nspool: %4\n")
                          .arg(m_cluster.kubeconfigPath(), m_db)
                          .arg(freePort())
                          .arg(m_dir.filePath(QStringLiteral("spool")))
                          .toUtf8());
        for (const char *ns : {"dra-a", "dra-b", "dra-c", "dra-q"})
            QVERIFY(m_cluster.createNamespace(QLatin1String(ns)));
        apply(slices());
        m_controller = std::make_unique<ControllerProcess>();
        QVERIFY(m_controller->start(config));
    }
    void cleanupTestCase() { m_controller.reset(); }

    // A claim from a template, allocated by the real scheduler: one row from the
    // container's start, the devices' model from the slice, closed on deletion.
    void templateClaimRecordedToTheSecond() {
        const QString ns = QStringLiteral("dra-a");
        apply(claimYaml("ResourceClaimTemplate", ns, QStringLiteral("two-gpus"),
                        QStringLiteral("gpu.example.com"), 2));
        apply(podYaml(ns, QStringLiteral("train"), QStringLiteral("alice"),
                      QStringLiteral("resourceClaimTemplateName: two-gpus")));
        const qint64 started = m_cluster.waitStartedAt(ns, QStringLiteral("train"));
        QVERIFY2(started > 0, "the scheduler did not allocate the claim or kwok did not run the pod");
        QList<Row> got = waitRows(ns, 1);
        QVERIFY2(got.size() == 1, qPrintable(describe(got)));
        QCOMPARE(got[0].pod, QStringLiteral("train"));
        QCOMPARE(got[0].user, QStringLiteral("alice"));
        QCOMPARE(got[0].resource, kGpuKey);
        QCOMPARE(got[0].gpus, 2);
        QCOMPARE(got[0].weight, 1.0);
        QCOMPARE(got[0].start, started);
        QCOMPARE(got[0].end, qint64(-1));
        QCOMPARE(got[0].model, QStringLiteral("NVIDIA H100 80GB HBM3"));

        const qint64 before = QDateTime::currentSecsSinceEpoch();
        const ToolRun d = m_cluster.kubectl({QStringLiteral("delete"), QStringLiteral("pod"),
                                             QStringLiteral("train"), QStringLiteral("-n"), ns});
        QVERIFY2(d.exitCode == 0, d.err.constData());
        const qint64 after = QDateTime::currentSecsSinceEpoch();
        QVERIFY(QTest::qWaitFor(
            [&] {
                got = rows(ns);
                return got.size() == 1 && got[0].end >= 0;
            },
            30000));
        QVERIFY2(got[0].end >= before && got[0].end <= after + 1, qPrintable(describe(got)));
    }

    // A 1g.10gb partition: one device at 1/7 of a GPU.
    void partitionCountsItsFraction() {
        const QString ns = QStringLiteral("dra-b");
        apply(claimYaml("ResourceClaim", ns, QStringLiteral("slice"), QStringLiteral("mig.example.com"), 1));
        apply(podYaml(ns, QStringLiteral("notebook"), QStringLiteral("bob"),
                      QStringLiteral("resourceClaimName: slice")));
        const qint64 started = m_cluster.waitStartedAt(ns, QStringLiteral("notebook"));
        QVERIFY(started > 0);
        const QList<Row> got = waitRows(ns, 1);
        QVERIFY2(got.size() == 1, qPrintable(describe(got)));
        QCOMPARE(got[0].resource, kMigKey);
        QCOMPARE(got[0].gpus, 1);
        QVERIFY2(qAbs(got[0].weight - 1.0 / 7.0) < 1e-9, qPrintable(describe(got)));
        QCOMPARE(got[0].start, started);
        QCOMPARE(got[0].model, QStringLiteral("NVIDIA A100-SXM4-80GB"));
    }

    // One claim, two pods: one row, charged to the pod that started first, open until
    // the last of them ends.
    void sharedClaimRecordedOnce() {
        const QString ns = QStringLiteral("dra-c");
        apply(
            claimYaml("ResourceClaim", ns, QStringLiteral("team-gpu"), QStringLiteral("gpu.example.com"), 1));
        apply(podYaml(ns, QStringLiteral("first"), QStringLiteral("carol"),
                      QStringLiteral("resourceClaimName: team-gpu")));
        const qint64 first = m_cluster.waitStartedAt(ns, QStringLiteral("first"));
        QVERIFY(first > 0);
        QTest::qWait(1100); // the second starts a second later at least
        apply(podYaml(ns, QStringLiteral("second"), QStringLiteral("dave"),
                      QStringLiteral("resourceClaimName: team-gpu")));
        QVERIFY(m_cluster.waitStartedAt(ns, QStringLiteral("second")) > first);
        QTest::qWait(3000); // what the controller makes of the second pod
        const QList<Row> got = waitRows(ns, 1);
        QVERIFY2(got.size() == 1, qPrintable(describe(got)));
        QCOMPARE(got[0].pod, QStringLiteral("first"));
        QCOMPARE(got[0].user, QStringLiteral("carol"));
        QCOMPARE(got[0].gpus, 1);
        QCOMPARE(got[0].start, first);
        QCOMPARE(got[0].end, qint64(-1));
        QCOMPARE(m_cluster
                     .kubectl({QStringLiteral("get"), QStringLiteral("resourceclaim"),
                               QStringLiteral("team-gpu"), QStringLiteral("-n"), ns, QStringLiteral("-o"),
                               QStringLiteral("jsonpath={.status.reservedFor[*].name}")})
                     .out.trimmed(),
                 QByteArray("first second"));
    }

    // The API server's DRA quota key: a claim asking for more devices of the class than
    // the quota leaves is refused at creation (no pod can use it).
    void draQuotaKeyRefusesAClaimOverIt() {
        const QString ns = QStringLiteral("dra-q");
        apply(QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpus, namespace: %1}\n"
                             "spec:\n  hard: {%2: \"1\"}\n")
                  .arg(ns, kGpuKey)
                  .toUtf8());
        // Quota admission reads status.hard: wait until kube-controller-manager filled it in.
        QVERIFY(QTest::qWaitFor(
            [&] {
                return m_cluster
                    .kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("gpus"),
                              QStringLiteral("-n"), ns, QStringLiteral("-o"),
                              QStringLiteral("jsonpath={.status.hard}")})
                    .out.contains(kGpuKey.toUtf8());
            },
            60000));
        const ToolRun refused = m_cluster.apply(
            claimYaml("ResourceClaim", ns, QStringLiteral("big"), QStringLiteral("gpu.example.com"), 2));
        QVERIFY2(refused.exitCode != 0, refused.out.constData());
        QVERIFY2(refused.err.contains("exceeded quota"), refused.err.constData());
        const ToolRun fits = m_cluster.apply(
            claimYaml("ResourceClaim", ns, QStringLiteral("small"), QStringLiteral("gpu.example.com"), 1));
        QVERIFY2(fits.exitCode == 0, fits.err.constData());
    }

    // The enforcer's clamp of a DRA key (clampplan::planClamp) written to the real quota:
    // hard becomes what the namespace's claims hold (status.used), so the held devices
    // stay and a new claim is refused; the lift gives the room back.
    void clampOfTheDraKeyKeepsWhatClaimsHold() {
        const QString ns = QStringLiteral("dra-q");
        apply(QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpus, namespace: %1}\n"
                             "spec:\n  hard: {%2: \"4\"}\n")
                  .arg(ns, kGpuKey)
                  .toUtf8());
        QJsonObject quota;
        const auto statusIs = [&](const char *hard, const char *used) {
            quota =
                QJsonDocument::fromJson(m_cluster
                                            .kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"),
                                                      QStringLiteral("gpus"), QStringLiteral("-n"), ns,
                                                      QStringLiteral("-o"), QStringLiteral("json")})
                                            .out)
                    .object();
            const QJsonObject status = quota.value(QLatin1String("status")).toObject();
            return status.value(QLatin1String("hard")).toObject().value(kGpuKey).toString() ==
                       QLatin1String(hard) &&
                   status.value(QLatin1String("used")).toObject().value(kGpuKey).toString() ==
                       QLatin1String(used);
        };
        QVERIFY(QTest::qWaitFor([&] { return statusIs("4", "1"); }, 60000)); // the claim "small"
        const clampplan::Plan plan = clampplan::planClamp(quota, {}, QDateTime::currentSecsSinceEpoch(),
                                                          QStringLiteral("Denied: spent"));
        QCOMPARE(plan.action, clampplan::Plan::Action::Replace);
        QCOMPARE(plan.after.value(kGpuKey).toString(), QStringLiteral("1"));
        const auto replace = [&](QJsonObject object) {
            QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
            meta.remove(QLatin1String("managedFields"));
            meta.remove(QLatin1String("resourceVersion")); // status updates must not make it a 409
            object.insert(QLatin1String("metadata"), meta);
            const QString f = writeFile(m_dir.filePath(QStringLiteral("quota.json")),
                                        QJsonDocument(object).toJson(QJsonDocument::Compact));
            return m_cluster.kubectl({QStringLiteral("replace"), QStringLiteral("-f"), f});
        };
        const ToolRun clamped = replace(plan.quota);
        QVERIFY2(clamped.exitCode == 0, clamped.err.constData());
        QVERIFY(QTest::qWaitFor([&] { return statusIs("1", "1"); }, 60000));
        const ToolRun refused = m_cluster.apply(
            claimYaml("ResourceClaim", ns, QStringLiteral("more"), QStringLiteral("gpu.example.com"), 1));
        QVERIFY2(refused.exitCode != 0 && refused.err.contains("exceeded quota"), refused.err.constData());

        const clampplan::Plan lift = clampplan::planLift(quota);
        QCOMPARE(lift.after.value(kGpuKey).toString(), QStringLiteral("4"));
        const ToolRun lifted = replace(lift.quota);
        QVERIFY2(lifted.exitCode == 0, lifted.err.constData());
        QVERIFY(QTest::qWaitFor([&] { return statusIs("4", "1"); }, 60000));
        const ToolRun fits = m_cluster.apply(
            claimYaml("ResourceClaim", ns, QStringLiteral("more"), QStringLiteral("gpu.example.com"), 1));
        QVERIFY2(fits.exitCode == 0, fits.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestRealClusterDra)
#include "tst_realcluster_dra.moc"
