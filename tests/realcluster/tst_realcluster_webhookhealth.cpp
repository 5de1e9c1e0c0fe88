// The webhook's failure modes against the real API server (issue #26 item 5): the
// shipped matchConditions send only GPU pods (a CPU pod leaves the review counter as it
// was), /readyz and /metrics show the webhook's health, a registration that points at
// the wrong port under failurePolicy Ignore admits GPU pods unchecked and the controller
// says so (gpuquota_webhook_unchecked_pods, the webhook-not-called alert) while the right
// one raises nothing, and the real Go client refuses a certificate with only a Common Name.
#include "tests/controller/controllertestutil.h"
#include "tests/realcluster/realcluster.h"
#include "testcluster/testcerts.h"
#include "core/usage/usagestore.h"
#include "tests/webhooktestutil.h"

#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QtTest>

using namespace gq;
using namespace gq::test;

namespace {

QByteArray podYaml(const QString &ns, const QString &name, const QString &resources,
                   const QString &extraSpec = {}) {
    return QStringLiteral("apiVersion: v1\nkind: Pod\nmetadata:\n  name: %1\n  namespace: %2\n"
                          "  labels: {gpuquota.io/user: frank}\nspec:\n%3  containers:\n  - name: main\n"
                          "    image: cuda\n    resources: %4\n")
        .arg(name, ns, extraSpec, resources)
        .toUtf8();
}

// The matchConditions block of the shipped registration, as it is.
QString shippedMatchConditions() {
    const QString text =
        QString::fromUtf8(readFile(QStringLiteral(GQ_SOURCE_DIR "/packaging/kubernetes/50-webhook.yaml")));
    const qsizetype from = text.indexOf(QLatin1String("    matchConditions:\n"));
    const qsizetype to = text.indexOf(QLatin1String("    clientConfig:\n"));
    return from >= 0 && to > from ? text.mid(from, to - from) : QString();
}

} // namespace

class TestRealClusterWebhookHealth : public QObject {
    Q_OBJECT

    RealCluster m_cluster;
    QTemporaryDir m_dir;
    QString m_db;
    QByteArray m_caPem;
    int m_listen = 0;
    int m_webhook = 0;
    std::unique_ptr<ControllerProcess> m_controller;

    QString metrics() { return curl({QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_listen)}); }
    double metric(const QString &series) {
        const QRegularExpression re(
            QStringLiteral("\n%1 ([0-9.e+]+)\n").arg(QRegularExpression::escape(series)));
        const auto m = re.match(metrics());
        return m.hasMatch() ? m.captured(1).toDouble() : -1;
    }
    double reviews() {
        double sum = 0;
        for (const char *result : {"allowed", "denied", "error"})
            sum += std::max(0.0, metric(QStringLiteral("gpuquota_admission_reviews_total{result=\"%1\"}")
                                            .arg(QLatin1String(result))));
        return sum;
    }
    ToolRun create(const QByteArray &yaml, bool dryRun = false) {
        static int n = 0;
        QStringList args{QStringLiteral("create"), QStringLiteral("-f"),
                         writeFile(m_dir.filePath(QStringLiteral("pod-%1.yaml").arg(++n)), yaml)};
        if (dryRun)
            args << QStringLiteral("--dry-run=server");
        return m_cluster.kubectl(args);
    }
    int webhookAlerts() {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("alerts-check"));
        db.setDatabaseName(m_dir.filePath(QStringLiteral("usage.db")));
        int n = -1;
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("SELECT COUNT(*) FROM alerts WHERE kind = 'webhook-not-called'")) &&
                q.next())
                n = q.value(0).toInt();
        }
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("alerts-check"));
        return n;
    }
    void registerHook(int port, const QString &failurePolicy) {
        WebhookYaml hook;
        hook.url = QStringLiteral("https://127.0.0.1:%1/validate/pods").arg(port);
        hook.caPem = m_caPem;
        hook.failurePolicy = failurePolicy;
        hook.namespaceSelector = QStringLiteral("{matchLabels: {gpuquota.io/webhook: \"on\"}}");
        hook.matchConditions = shippedMatchConditions();
        QVERIFY(!hook.matchConditions.isEmpty());
        const ToolRun k = m_cluster.apply(validatingWebhookYaml(hook));
        QVERIFY2(k.exitCode == 0, k.err.constData());
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        GQ_REQUIRE_TOOL("curl");
        QVERIFY(m_dir.isValid());
        GQ_START_REAL_CLUSTER(m_cluster);
        m_db = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
        QVERIFY(UsageStore::open(m_db));
        auto tls = tc::generateServingMaterial("IP:127.0.0.1");
        QVERIFY(tls);
        m_caPem = tls->caCertPem;
        writeFile(m_dir.filePath(QStringLiteral("tls.crt")), tls->serverCertPem);
        writeFile(m_dir.filePath(QStringLiteral("tls.key")), tls->serverKeyPem);
        for (const char *ns : {"gpuquota-system", "team-hook", "team-cn"})
            QVERIFY(m_cluster.createNamespace(QLatin1String(ns)));
        for (const char *label : {"gpuquota.io/webhook=on", "gpuquota.io/cn=on"})
            QCOMPARE(m_cluster
                         .kubectl({QStringLiteral("label"), QStringLiteral("namespace"),
                                   QString::fromLatin1(label).contains(QLatin1String("cn"))
                                       ? QStringLiteral("team-cn")
                                       : QStringLiteral("team-hook"),
                                   QLatin1String(label)})
                         .exitCode,
                     0);
        m_listen = freePort();
        m_webhook = freePort();
        const QString config = writeFile(
            m_dir.filePath(QStringLiteral("controller.yaml")),
            QStringLiteral("cluster: {kubeconfig: %1, context: admin}\nclusterName: real\n"
                           "database: %2\nlisten: 127.0.0.1:%3\ntimeZone: UTC\nspool: %4\n"
                           "webhook: {listen: 127.0.0.1:%5, tlsCert: %6, tlsKey: %7, names: [127.0.0.1], "
                           "uncheckedAfter: 5s}\n"
                           "alerts: {enabled: true, webhook: {url: \"http://127.0.0.1:9/alerts\"}}\n")
                .arg(m_cluster.kubeconfigPath(), m_db)
                .arg(m_listen)
                .arg(m_dir.filePath(QStringLiteral("spool")))
                .arg(m_webhook)
                .arg(m_dir.filePath(QStringLiteral("tls.crt")), m_dir.filePath(QStringLiteral("tls.key")))
                .toUtf8());
        m_controller = std::make_unique<ControllerProcess>();
        QVERIFY(m_controller->start(config, QStringLiteral("ctl-hook")));
        QString ready;
        QVERIFY2(waitReadyz(m_listen, &ready), qPrintable(ready));
    }
    void cleanupTestCase() {
        m_cluster.kubectl({QStringLiteral("delete"), QStringLiteral("validatingwebhookconfiguration"),
                           QStringLiteral("gpuquota"), QStringLiteral("cn-only"),
                           QStringLiteral("--ignore-not-found")});
        m_controller.reset();
    }

    void readyzShowsTheWebhook() {
        const QString ready = curl({QStringLiteral("http://127.0.0.1:%1/readyz").arg(m_listen)});
        QVERIFY2(ready.contains(QStringLiteral("webhook: listening on 127.0.0.1:%1\n").arg(m_webhook)),
                 qPrintable(ready));
        QVERIFY2(ready.contains(QLatin1String("webhook certificate: valid until")), qPrintable(ready));
        QVERIFY2(ready.contains(QLatin1String("webhook last review: never")), qPrintable(ready));
    }

    // The shipped matchConditions: a CPU-only pod is not sent to the webhook (the counter
    // stays), a GPU pod is, by a container, an init container or a resource claim.
    void onlyGpuPodsAreSent() {
        registerHook(m_webhook, QStringLiteral("Fail"));
        const QByteArray gpu = QByteArrayLiteral("{limits: {nvidia.com/gpu: \"1\"}}");
        // The registration takes effect when the API server's informer has it.
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         (void)create(podYaml(QStringLiteral("team-hook"), QStringLiteral("probe"),
                                              QString::fromLatin1(gpu)),
                                      true);
                         return reviews() >= 1;
                     },
                     30000),
                 qPrintable(metrics()));
        const double before = reviews();
        ToolRun r = create(podYaml(QStringLiteral("team-hook"), QStringLiteral("cpu-only"),
                                   QStringLiteral("{requests: {cpu: 100m}, limits: {memory: 64Mi}}")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QTest::qWait(2000);
        QCOMPARE(reviews(), before);
        r = create(
            podYaml(QStringLiteral("team-hook"), QStringLiteral("gpu-main"), QString::fromLatin1(gpu)));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(reviews(), before + 1, 10000);
        r = create(podYaml(QStringLiteral("team-hook"), QStringLiteral("gpu-init"), QStringLiteral("{}"),
                           QStringLiteral("  initContainers:\n  - name: warm\n    image: cuda\n"
                                          "    resources: {requests: {nvidia.com/gpu: \"1\"}, limits: "
                                          "{nvidia.com/gpu: \"1\"}}\n")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(reviews(), before + 2, 10000);
        r = create(
            podYaml(QStringLiteral("team-hook"), QStringLiteral("gpu-claim"),
                    QStringLiteral("{claims: [{name: gpu}]}"),
                    QStringLiteral("  resourceClaims:\n  - name: gpu\n    resourceClaimName: a-claim\n")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(reviews(), before + 3, 10000);
        QVERIFY2(metric(QStringLiteral("gpuquota_admission_reviews_total{result=\"allowed\"}")) >= 3,
                 qPrintable(metrics()));
        QVERIFY(metric(QStringLiteral("gpuquota_admission_last_review_timestamp_seconds")) > 0);
        const QString ready = curl({QStringLiteral("http://127.0.0.1:%1/readyz").arg(m_listen)});
        QVERIFY2(!ready.contains(QLatin1String("webhook last review: never")), qPrintable(ready));
    }

    // Reviewed GPU pods: nothing unchecked, no alert, after longer than uncheckedAfter.
    void reviewedPodsRaiseNothing() {
        QTest::qWait(12000);
        QCOMPARE(metric(QStringLiteral("gpuquota_webhook_unchecked_pods")), 0.0);
        QCOMPARE(webhookAlerts(), 0);
    }

    // The registration points at a port nobody serves; failurePolicy Ignore admits the
    // GPU pods unchecked. The controller's pod informer sees them, no review arrives: the
    // gauge and the alert (raised in the ledger, for the admins).
    void unreachableWebhookIsNoticed() {
        registerHook(freePort(), QStringLiteral("Ignore"));
        const double before = reviews();
        int n = 0;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         const ToolRun r = create(
                             podYaml(QStringLiteral("team-hook"), QStringLiteral("unchecked-%1").arg(++n),
                                     QStringLiteral("{limits: {nvidia.com/gpu: \"1\"}}")));
                         if (r.exitCode == 0 && metric(QStringLiteral("gpuquota_webhook_unchecked_pods")) > 0)
                             return true;
                         QTest::qWait(3000);
                         return false;
                     },
                     90000),
                 qPrintable(metrics()));
        QTRY_VERIFY_WITH_TIMEOUT(webhookAlerts() == 1, 90000);
        QVERIFY(reviews() <= before + 1); // at most the one sent before the new registration took
    }

    // The real API server's Go client refuses a serving certificate with only a Common
    // Name (our start-up check refuses it too: tst_webhookhealth).
    void commonNameOnlyCertificateIsRefused() {
        const auto cnOnly = tc::generateServingMaterial(QByteArray(), "127.0.0.1");
        QVERIFY(cnOnly);
        WebhookServer hook(*cnOnly, [](const QJsonObject &) {
            return QJsonObject{{QStringLiteral("allowed"), true}};
        });
        QVERIFY2(hook.start(), qPrintable(hook.errorString()));
        WebhookYaml w;
        w.name = QStringLiteral("cn-only");
        w.url = hook.url(QStringLiteral("/validate/pods"));
        w.caPem = cnOnly->caCertPem;
        w.namespaceSelector = QStringLiteral("{matchLabels: {gpuquota.io/cn: \"on\"}}");
        const ToolRun k = m_cluster.apply(validatingWebhookYaml(w));
        QVERIFY2(k.exitCode == 0, k.err.constData());
        ToolRun r;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         r = create(podYaml(QStringLiteral("team-cn"), QStringLiteral("cn"),
                                            QStringLiteral("{limits: {nvidia.com/gpu: \"1\"}}")),
                                    true);
                         return r.exitCode != 0;
                     },
                     30000),
                 r.out.constData());
        QVERIFY2(r.err.contains("x509: certificate relies on legacy Common Name field"), r.err.constData());
        QCOMPARE(hook.requests().size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestRealClusterWebhookHealth)
#include "tst_realcluster_webhookhealth.moc"
