// The controller composed (app/controller: ControllerParts around ControllerRuntime),
// the built binary against the test cluster and SQLite: it takes the Lease, serves
// /metrics and the self-service endpoints on `listen` and the admission webhook over
// TLS, clamps a spent namespace budget on its enforce timer, gives the Lease up on
// SIGTERM, and refuses a bad alerts: or selfService: section with exit 2 before
// anything starts. Each part has its own suite; this one checks they are wired.
#include "kube/kubetestutil.h"
#include "testcerts.h"
#include "testclusterprocess.h"
#include "usagestore.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QtTest>

#include <csignal>

using namespace gq;
using namespace gq::test;

namespace {

QString binDir() {
    QString dir = qEnvironmentVariable("GQ_BIN_DIR");
    return dir.isEmpty() ? QStringLiteral(GQ_BINARY_DIR "/bin") : dir;
}

int freePort() {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace

class TestControllerParts : public QObject {
    Q_OBJECT

    std::unique_ptr<TestClusterProcess> m_cluster;
    QTemporaryDir m_dir;
    QString m_db;
    QString m_caFile;
    int m_listen = 0;
    int m_webhook = 0;

    ToolRun kubectl(const QStringList &args) {
        return runTool(QStringLiteral("kubectl"),
                       QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath()} + args);
    }
    ToolRun gq(const QStringList &args) { return runTool(binDir() + QStringLiteral("/gpuquota"), args); }
    // curl: "STATUS body".
    QString curl(const QStringList &args) {
        const ToolRun r = runTool(
            QStringLiteral("curl"),
            QStringList{QStringLiteral("-s"), QStringLiteral("-w"), QStringLiteral("%{http_code}")} + args);
        return QString::fromUtf8(r.out.right(3) + ' ' + r.out.chopped(3));
    }
    QString config(const QString &extra) {
        const QString yaml =
            QStringLiteral(
                "cluster: {kubeconfig: %1, context: admin}\nclusterName: test\n"
                "database: %2\nlisten: 127.0.0.1:%3\ntimeZone: UTC\nspool: %4\n"
                "enforce: {enabled: true, interval: 1s}\n"
                "webhook: {listen: 127.0.0.1:%5, tlsCert: %6, tlsKey: %7}\n"
                "leaderElection: {enabled: true, namespace: gpuquota-system, name: gpuquota-controller}\n")
                .arg(m_cluster->kubeconfigPath(), m_db)
                .arg(m_listen)
                .arg(m_dir.filePath(QStringLiteral("spool")))
                .arg(m_webhook)
                .arg(m_dir.filePath(QStringLiteral("tls.crt")), m_dir.filePath(QStringLiteral("tls.key"))) +
            extra;
        return writeFile(m_dir.filePath(QStringLiteral("controller.yaml")), yaml.toUtf8());
    }
    QString leaseHolder() {
        return QString::fromUtf8(
            kubectl({QStringLiteral("get"), QStringLiteral("lease"), QStringLiteral("gpuquota-controller"),
                     QStringLiteral("-n"), QStringLiteral("gpuquota-system"), QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.spec.holderIdentity}")})
                .out);
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        GQ_REQUIRE_TOOL("curl");
        QVERIFY(m_dir.isValid());
        m_cluster = std::make_unique<TestClusterProcess>(TestClusterProcess::Options{});
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        m_db = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
        QVERIFY(UsageStore::open(m_db));
        auto tls = tc::generateServingMaterial("IP:127.0.0.1");
        QVERIFY(tls);
        writeFile(m_dir.filePath(QStringLiteral("tls.crt")), tls->serverCertPem);
        writeFile(m_dir.filePath(QStringLiteral("tls.key")), tls->serverKeyPem);
        m_caFile = writeFile(m_dir.filePath(QStringLiteral("ca.crt")), tls->caCertPem);
        m_listen = freePort();
        m_webhook = freePort();
        for (const char *ns : {"gpuquota-system", "team-spent"})
            QCOMPARE(
                kubectl({QStringLiteral("create"), QStringLiteral("namespace"), QLatin1String(ns)}).exitCode,
                0);
        const QByteArray quota =
            "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpus, namespace: team-spent}\n"
            "spec:\n  hard: {requests.nvidia.com/gpu: \"4\"}\n";
        QCOMPARE(kubectl({QStringLiteral("apply"), QStringLiteral("-f"),
                          writeFile(m_dir.filePath(QStringLiteral("quota.yaml")), quota)})
                     .exitCode,
                 0);
        // A budget of nothing: spent at once, so the first enforce tick clamps.
        const ToolRun set =
            gq({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), m_db,
                QStringLiteral("--namespace"), QStringLiteral("team-spent"), QStringLiteral("--limit"),
                QStringLiteral("0"), QStringLiteral("--period"), QStringLiteral("day")});
        QVERIFY2(set.exitCode == 0, set.err.constData());
    }

    void badSectionsStopBeforeAnythingRuns() {
        const QString bad = config(QStringLiteral("selfService: {perUserMetric: true}\n"));
        QProcess p;
        p.start(binDir() + QStringLiteral("/gpuquota-controller"), {QStringLiteral("--config"), bad});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QLatin1String("selfService.perUserMetric")), qPrintable(err));
        QVERIFY2(err.contains(QLatin1String(":10:")), qPrintable(err)); // its line
        QCOMPARE(curl({QStringLiteral("http://127.0.0.1:%1/healthz").arg(m_listen)}).left(3),
                 QStringLiteral("000"));
        const QString badAlerts = config(QStringLiteral("alerts: {enabled: maybe}\n"));
        p.start(binDir() + QStringLiteral("/gpuquota-controller"), {QStringLiteral("--config"), badAlerts});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(QString::fromUtf8(p.readAllStandardError()).contains(QLatin1String("alerts")),
                 "names the section");
    }

    void partsAreWired() {
        const QString cfg = config(QStringLiteral("selfService: {perUserMetrics: false}\n"));
        QProcess controller;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("POD_NAME"), QStringLiteral("ctl-a"));
        controller.setProcessEnvironment(env);
        controller.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        controller.start(binDir() + QStringLiteral("/gpuquota-controller"),
                         {QStringLiteral("--config"), cfg});
        QVERIFY(controller.waitForStarted(10000));

        // The Lease is ours, so it records and enforces: the spent budget is clamped.
        QTRY_COMPARE_WITH_TIMEOUT(leaseHolder(), QStringLiteral("ctl-a"), 30000);
        auto hard = [&] {
            return QString::fromUtf8(
                kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("gpus"),
                         QStringLiteral("-n"), QStringLiteral("team-spent"), QStringLiteral("-o"),
                         QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")})
                    .out);
        };
        QTRY_COMPARE_WITH_TIMEOUT(hard(), QStringLiteral("0"), 30000);

        // listen: /metrics (unauthenticated), the self-service endpoints (401 without a token).
        const QString metrics = curl({QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_listen)});
        QVERIFY2(metrics.startsWith(QLatin1String("200 ")), qPrintable(metrics.left(200)));
        QVERIFY(metrics.contains(QLatin1String("gpuquota_spool_intervals")));
        QVERIFY(metrics.contains(QLatin1String("gpuquota_clamps_active")));
        QCOMPARE(curl({QStringLiteral("http://127.0.0.1:%1/quota/status?user=alice").arg(m_listen)}).left(3),
                 QStringLiteral("401"));
        QCOMPARE(curl({QStringLiteral("http://127.0.0.1:%1/readyz").arg(m_listen)}).left(3),
                 QStringLiteral("200"));

        // The webhook over TLS, verified with its CA: a pod without GPUs is allowed.
        const QByteArray review =
            R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u-1",)"
            R"("kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},)"
            R"("namespace":"team-spent","operation":"CREATE","userInfo":{"username":"alice"},)"
            R"("object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"team-spent"},)"
            R"("spec":{"containers":[{"name":"c","image":"busybox"}]}}}})";
        const QString answer = curl({QStringLiteral("--cacert"), m_caFile, QStringLiteral("-H"),
                                     QStringLiteral("Content-Type: application/json"),
                                     QStringLiteral("--data-binary"), QString::fromUtf8(review),
                                     QStringLiteral("https://127.0.0.1:%1/validate/pods").arg(m_webhook)});
        QVERIFY2(answer.startsWith(QLatin1String("200 ")), qPrintable(answer));
        const QJsonObject response = QJsonDocument::fromJson(answer.mid(4).toUtf8())
                                         .object()
                                         .value(QLatin1String("response"))
                                         .toObject();
        QCOMPARE(response.value(QLatin1String("uid")).toString(), QStringLiteral("u-1"));
        QCOMPARE(response.value(QLatin1String("allowed")).toBool(), true);

        // SIGTERM: the Lease is given up (no waiting out its duration) and the exit is clean.
        ::kill(static_cast<pid_t>(controller.processId()), SIGTERM);
        QVERIFY(controller.waitForFinished(15000));
        QCOMPARE(controller.exitStatus(), QProcess::NormalExit);
        QCOMPARE(controller.exitCode(), 0);
        QCOMPARE(leaseHolder(), QString());
    }

    void cleanupTestCase() {
        if (m_cluster)
            QVERIFY(m_cluster->stop());
    }
};

QTEST_GUILESS_MAIN(TestControllerParts)
#include "tst_controllerparts.moc"
