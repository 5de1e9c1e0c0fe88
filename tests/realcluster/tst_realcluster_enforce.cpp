// The controller's enforcement against the real control plane: the namespace clamp that
// kube-controller-manager copies to status.hard and the real quota admission then applies
// (the next GPU pod refused with `exceeded quota`), lifting it; the validating admission
// webhook called by the real API server over TLS (Go's client, a certificate with SANs,
// the caBundle); self-service with TokenReview and SubjectAccessReview answered by the real
// API server, for a static-token user and for a ServiceAccount token.
#include "tests/controller/controllertestutil.h"
#include "tests/realcluster/realcluster.h"
#include "testcluster/testcerts.h"
#include "core/usage/usagestore.h"
#include "tests/webhooktestutil.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace gq;
using namespace gq::test;

class TestRealClusterEnforce : public QObject {
    Q_OBJECT

    RealCluster m_cluster;
    QTemporaryDir m_dir;
    QString m_db;
    QString m_caFile;
    int m_listen = 0;
    int m_webhook = 0;
    std::unique_ptr<ControllerProcess> m_controller;

    ToolRun gq(const QStringList &args) { return runTool(binDir() + QStringLiteral("/gpuquota"), args); }
    ToolRun budget(const QStringList &args) {
        return gq(QStringList{QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), m_db,
                              QStringLiteral("--period"), QStringLiteral("day")} +
                  args);
    }
    QString quotaHard(const QString &path) {
        return QString::fromUtf8(
            m_cluster
                .kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("gpus"),
                          QStringLiteral("-n"), QStringLiteral("team-spent"), QStringLiteral("-o"),
                          QStringLiteral("jsonpath={.%1.hard.requests\\.nvidia\\.com/gpu}").arg(path)})
                .out);
    }
    ToolRun createPod(const QString &ns, const QString &name, const QString &user, int gpus) {
        return m_cluster.createGpuPod(ns, name, user, gpus);
    }
    QString quotaStatus(const QString &token, const QString &query = {}) {
        return curl({QStringLiteral("-H"), QStringLiteral("Authorization: Bearer ") + token,
                     QStringLiteral("http://127.0.0.1:%1/quota/status%2").arg(m_listen).arg(query)});
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
        writeFile(m_dir.filePath(QStringLiteral("tls.crt")), tls->serverCertPem);
        writeFile(m_dir.filePath(QStringLiteral("tls.key")), tls->serverKeyPem);
        m_caFile = writeFile(m_dir.filePath(QStringLiteral("ca.crt")), tls->caCertPem);
        for (const char *ns : {"gpuquota-system", "team-spent", "team-web"})
            QVERIFY(m_cluster.createNamespace(QLatin1String(ns)));
        QCOMPARE(m_cluster
                     .kubectl({QStringLiteral("label"), QStringLiteral("namespace"),
                               QStringLiteral("team-web"), QStringLiteral("gpuquota.io/webhook=on")})
                     .exitCode,
                 0);
        QCOMPARE(
            m_cluster
                .apply("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpus, namespace: team-spent}\n"
                       "spec:\n  hard: {requests.nvidia.com/gpu: \"4\", nvidia.com/gpu: \"4\", "
                       "limits.nvidia.com/gpu: \"4\"}\n")
                .exitCode,
            0);
        // The quota also lists keys the API server accepts but quota never counts (issue
        // #26: our own GPU policy refused the clamp of such a quota, so the budget was not
        // enforced). A namespace budget of nothing (clamped at the first tick) and a spent user.
        auto r = budget({QStringLiteral("--namespace"), QStringLiteral("team-spent"),
                         QStringLiteral("--limit"), QStringLiteral("0")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = budget({QStringLiteral("--user"), QStringLiteral("dave"), QStringLiteral("--limit"),
                    QStringLiteral("0")});
        QVERIFY2(r.exitCode == 0, r.err.constData());

        m_listen = freePort();
        m_webhook = freePort();
        const QString config = writeFile(
            m_dir.filePath(QStringLiteral("controller.yaml")),
            QStringLiteral("cluster: {kubeconfig: %1, context: admin}\nclusterName: real\n"
                           "database: %2\nlisten: 127.0.0.1:%3\ntimeZone: UTC\nspool: %4\n"
                           "enforce: {enabled: true, interval: 1s}\n"
                           "webhook: {listen: 127.0.0.1:%5, tlsCert: %6, tlsKey: %7}\n"
                           "leaderElection: {enabled: true, namespace: gpuquota-system, name: "
                           "gpuquota-controller}\n")
                .arg(m_cluster.kubeconfigPath(), m_db)
                .arg(m_listen)
                .arg(m_dir.filePath(QStringLiteral("spool")))
                .arg(m_webhook)
                .arg(m_dir.filePath(QStringLiteral("tls.crt")), m_dir.filePath(QStringLiteral("tls.key")))
                .toUtf8());
        m_controller = std::make_unique<ControllerProcess>();
        QVERIFY(m_controller->start(config, QStringLiteral("ctl-real")));
        QString ready;
        QVERIFY2(waitReadyz(m_listen, &ready), qPrintable(ready));
    }
    void cleanupTestCase() {
        m_cluster.kubectl({QStringLiteral("delete"), QStringLiteral("validatingwebhookconfiguration"),
                           QStringLiteral("gpuquota"), QStringLiteral("--ignore-not-found")});
        m_controller.reset();
    }

    void holdsTheRealLease() {
        QTRY_COMPARE_WITH_TIMEOUT(
            QString::fromUtf8(m_cluster
                                  .kubectl({QStringLiteral("get"), QStringLiteral("lease"),
                                            QStringLiteral("gpuquota-controller"), QStringLiteral("-n"),
                                            QStringLiteral("gpuquota-system"), QStringLiteral("-o"),
                                            QStringLiteral("jsonpath={.spec.holderIdentity}")})
                                  .out),
            QStringLiteral("ctl-real"), 30000);
    }

    // The clamp is written to spec.hard; admission enforces it only once the real
    // kube-controller-manager has copied it to status.hard.
    void clampIsEnforcedByTheRealQuotaAdmission() {
        QTRY_COMPARE_WITH_TIMEOUT(quotaHard(QStringLiteral("spec")), QStringLiteral("0"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(quotaHard(QStringLiteral("status")), QStringLiteral("0"), 60000);
        const ToolRun r =
            createPod(QStringLiteral("team-spent"), QStringLiteral("refused"), QStringLiteral("erin"), 1);
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("exceeded quota: gpus"), r.err.constData());
        // The controller says the clamp is enforced once status.hard shows it.
        QTRY_VERIFY_WITH_TIMEOUT(curl({QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_listen)})
                                     .contains(QLatin1String("\ngpuquota_clamps_not_enforced 0\n")),
                                 30000);
    }

    void liftingTheClampLetsPodsIn() {
        const ToolRun r = budget({QStringLiteral("--namespace"), QStringLiteral("team-spent"),
                                  QStringLiteral("--limit"), QStringLiteral("1000")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(quotaHard(QStringLiteral("spec")), QStringLiteral("4"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(quotaHard(QStringLiteral("status")), QStringLiteral("4"), 60000);
        const ToolRun p =
            createPod(QStringLiteral("team-spent"), QStringLiteral("admitted"), QStringLiteral("erin"), 1);
        QVERIFY2(p.exitCode == 0, p.err.constData());
    }

    // The real API server calls the controller's webhook over TLS with the caBundle: the
    // spent user's GPU pod is denied with the controller's numbers, another user's passes.
    void webhookIsCalledByTheRealApiServer() {
        WebhookYaml hook;
        hook.url = QStringLiteral("https://127.0.0.1:%1/validate/pods").arg(m_webhook);
        hook.caPem = readFile(m_caFile);
        hook.namespaceSelector = QStringLiteral("{matchLabels: {gpuquota.io/webhook: \"on\"}}");
        hook.timeoutSeconds = 10;
        const ToolRun k = m_cluster.apply(validatingWebhookYaml(hook));
        QVERIFY2(k.exitCode == 0, k.err.constData());
        // The registration takes effect when the API server's informer has it.
        ToolRun denied;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         denied = m_cluster.kubectl(
                             {QStringLiteral("create"), QStringLiteral("--dry-run=server"),
                              QStringLiteral("-f"),
                              writeFile(m_dir.filePath(QStringLiteral("dave.yaml")),
                                        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: dave-job\n"
                                        "  namespace: team-web\n  labels: {gpuquota.io/user: dave}\n"
                                        "spec:\n  containers:\n  - name: main\n    image: cuda\n"
                                        "    resources:\n      limits: {nvidia.com/gpu: \"1\"}\n")});
                         return denied.exitCode != 0;
                     },
                     30000),
                 denied.out.constData());
        QVERIFY2(denied.err.contains("admission webhook \"pods.gpuquota.io\" denied the request"),
                 denied.err.constData());
        QVERIFY2(denied.err.contains("dave"), denied.err.constData());
        // alice@example.com may not create a pod on dave's label (trust.mode enforce), and
        // is told which budget user she is.
        for (const QStringList &rbac :
             {QStringList{QStringLiteral("create"), QStringLiteral("role"), QStringLiteral("pod-maker"),
                          QStringLiteral("--verb=create"), QStringLiteral("--resource=pods"),
                          QStringLiteral("-n"), QStringLiteral("team-web")},
              QStringList{QStringLiteral("create"), QStringLiteral("rolebinding"),
                          QStringLiteral("alice-pods"), QStringLiteral("--role=pod-maker"),
                          QStringLiteral("--user=alice@example.com"), QStringLiteral("-n"),
                          QStringLiteral("team-web")}})
            QCOMPARE(m_cluster.kubectl(rbac).exitCode, 0);
        ToolRun asAlice;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         asAlice = m_cluster.kubectlAs(
                             QStringLiteral("t-alice"),
                             {QStringLiteral("create"), QStringLiteral("--dry-run=server"),
                              QStringLiteral("-f"), m_dir.filePath(QStringLiteral("dave.yaml"))});
                         return asAlice.err.contains("denied the request");
                     },
                     30000),
                 asAlice.err.constData());
        QVERIFY2(asAlice.err.contains("gpuquota.io/user: dave names another user: you are alice@example.com "
                                      "\xE2\x86\x92 alice (e-mail local part)"),
                 asAlice.err.constData());
        const ToolRun allowed =
            createPod(QStringLiteral("team-web"), QStringLiteral("frank-job"), QStringLiteral("frank"), 1);
        QVERIFY2(allowed.exitCode == 0, allowed.err.constData());
    }

    // A Deployment of the spent user: the real ReplicaSet controller's pod is denied by
    // the webhook, and besides the controller's FailedCreate the owner gets our Warning
    // Event GPUBudgetExceeded with the numbers, where `kubectl describe` shows it.
    void denialOfAControllersPodIsAnEventOnItsOwner() {
        const ToolRun d = m_cluster.apply(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: dave-train, namespace: team-web}\n"
            "spec:\n  replicas: 1\n  selector: {matchLabels: {app: dave-train}}\n  template:\n"
            "    metadata: {labels: {app: dave-train, gpuquota.io/user: dave}}\n    spec:\n"
            "      containers:\n      - name: main\n        image: cuda\n"
            "        resources: {limits: {nvidia.com/gpu: \"1\"}}\n");
        QVERIFY2(d.exitCode == 0, d.err.constData());
        QString events;
        QVERIFY2(
            QTest::qWaitFor(
                [&] {
                    events = QString::fromUtf8(
                        m_cluster
                            .kubectl({QStringLiteral("get"), QStringLiteral("events"), QStringLiteral("-n"),
                                      QStringLiteral("team-web"), QStringLiteral("--field-selector"),
                                      QStringLiteral("reason=GPUBudgetExceeded"), QStringLiteral("-o"),
                                      QStringLiteral("jsonpath={range .items[*]}{.type} "
                                                     "{.involvedObject.kind}/{.involvedObject.name}: "
                                                     "{.message}{\"\\n\"}{end}")})
                            .out);
                    return events.contains(QLatin1String("ReplicaSet/dave-train-"));
                },
                60000),
            qPrintable(events));
        QVERIFY2(events.startsWith(QLatin1String("Warning ")) && events.contains(QLatin1String("dave")),
                 qPrintable(events));
        // The real ReplicaSet controller reports its own FailedCreate beside it.
        QVERIFY(m_cluster
                    .kubectl({QStringLiteral("get"), QStringLiteral("events"), QStringLiteral("-n"),
                              QStringLiteral("team-web"), QStringLiteral("--field-selector"),
                              QStringLiteral("reason=FailedCreate"), QStringLiteral("-o"),
                              QStringLiteral("name")})
                    .out.contains("event"));
        m_cluster.kubectl({QStringLiteral("delete"), QStringLiteral("deployment"),
                           QStringLiteral("dave-train"), QStringLiteral("-n"), QStringLiteral("team-web")});
    }

    // TokenReview by the real API server: a static-token user and a ServiceAccount token,
    // whose usernames (alice@example.com, oidc:bob, system:serviceaccount:team-web:default)
    // the identity mapping turns into budget subjects.
    // The trust model's other half on the real API server: a Deployment's GPU template is
    // checked when alice writes it (workloads.gpuquota.io, /validate/workloads), since the
    // ReplicaSet controller that creates its pods is trusted.
    void workloadTemplatesAreCheckedWhenWritten() {
        QString yaml = QString::fromUtf8(validatingWebhookYaml([&] {
            WebhookYaml hook;
            hook.name = QStringLiteral("gpuquota-workloads");
            hook.webhookName = QStringLiteral("workloads.gpuquota.io");
            hook.url = QStringLiteral("https://127.0.0.1:%1/validate/workloads").arg(m_webhook);
            hook.caPem = readFile(m_caFile);
            hook.namespaceSelector = QStringLiteral("{matchLabels: {gpuquota.io/webhook: \"on\"}}");
            hook.timeoutSeconds = 10;
            return hook;
        }()));
        yaml.replace(
            QLatin1String("        apiGroups: [\"\"]\n        apiVersions: [v1]\n        resources: [pods]"),
            QLatin1String(
                "        apiGroups: [apps]\n        apiVersions: [v1]\n        resources: [deployments]"));
        const ToolRun k = m_cluster.apply(yaml.toUtf8());
        QVERIFY2(k.exitCode == 0, k.err.constData());
        for (const QStringList &rbac :
             {QStringList{QStringLiteral("create"), QStringLiteral("role"), QStringLiteral("deploy-maker"),
                          QStringLiteral("--verb=create"), QStringLiteral("--resource=deployments"),
                          QStringLiteral("-n"), QStringLiteral("team-web")},
              QStringList{QStringLiteral("create"), QStringLiteral("rolebinding"),
                          QStringLiteral("alice-deploys"), QStringLiteral("--role=deploy-maker"),
                          QStringLiteral("--user=alice@example.com"), QStringLiteral("-n"),
                          QStringLiteral("team-web")}})
            QCOMPARE(m_cluster.kubectl(rbac).exitCode, 0);
        const auto deployment = [&](const QString &user) {
            return writeFile(
                m_dir.filePath(QStringLiteral("deploy-%1.yaml").arg(user)),
                QStringLiteral("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: train-%1, "
                               "namespace: team-web}\nspec:\n  replicas: 0\n  selector: {matchLabels: "
                               "{app: train-%1}}\n  template:\n    metadata: {labels: {app: train-%1, "
                               "gpuquota.io/user: %1}}\n    spec:\n      containers:\n      - name: "
                               "main\n        image: cuda\n        resources: {limits: "
                               "{nvidia.com/gpu: \"1\"}}\n")
                    .arg(user)
                    .toUtf8());
        };
        ToolRun forDave;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         forDave = m_cluster.kubectlAs(
                             QStringLiteral("t-alice"),
                             {QStringLiteral("create"), QStringLiteral("--dry-run=server"),
                              QStringLiteral("-f"), deployment(QStringLiteral("dave"))});
                         return forDave.err.contains("denied the request");
                     },
                     30000),
                 forDave.err.constData());
        QVERIFY2(forDave.err.contains("admission webhook \"workloads.gpuquota.io\" denied the request: "
                                      "gpuquota.io/user: dave names another user"),
                 forDave.err.constData());
        const ToolRun own = m_cluster.kubectlAs(QStringLiteral("t-alice"),
                                                {QStringLiteral("create"), QStringLiteral("--dry-run=server"),
                                                 QStringLiteral("-f"), deployment(QStringLiteral("alice"))});
        QVERIFY2(own.exitCode == 0, own.err.constData());
        m_cluster.kubectl({QStringLiteral("delete"), QStringLiteral("validatingwebhookconfiguration"),
                           QStringLiteral("gpuquota-workloads")});
    }

    void selfServiceAsksTheRealApiServer() {
        const ToolRun set = budget({QStringLiteral("--user"), QStringLiteral("alice"),
                                    QStringLiteral("--limit"), QStringLiteral("5")});
        QVERIFY2(set.exitCode == 0, set.err.constData());
        QString answer = quotaStatus(QStringLiteral("t-alice"));
        QVERIFY2(answer.startsWith(QLatin1String("200 ")), qPrintable(answer));
        QJsonObject doc = QJsonDocument::fromJson(answer.mid(4).toUtf8()).object();
        QCOMPARE(doc.value(QLatin1String("scope")).toString(), QStringLiteral("user"));
        QCOMPARE(doc.value(QLatin1String("subject")).toString(), QStringLiteral("alice"));
        QCOMPARE(doc.value(QLatin1String("limit")).toDouble(), 5.0);
        QCOMPARE(doc.value(QLatin1String("period")).toString(), QStringLiteral("day"));
        QJsonObject identity = doc.value(QLatin1String("identity")).toObject();
        QCOMPARE(identity.value(QLatin1String("username")).toString(), QStringLiteral("alice@example.com"));
        QCOMPARE(identity.value(QLatin1String("subject")).toString(), QStringLiteral("alice"));
        QCOMPARE(identity.value(QLatin1String("rule")).toString(), QStringLiteral("email"));
        answer = quotaStatus(QStringLiteral("t-alice"), QStringLiteral("?user=alice"));
        QVERIFY2(answer.startsWith(QLatin1String("200 ")), qPrintable(answer));
        answer = quotaStatus(QStringLiteral("t-bob"));
        QVERIFY2(answer.startsWith(QLatin1String("200 ")), qPrintable(answer));
        doc = QJsonDocument::fromJson(answer.mid(4).toUtf8()).object();
        QCOMPARE(doc.value(QLatin1String("subject")).toString(), QStringLiteral("bob"));
        QCOMPARE(doc.value(QLatin1String("identity")).toObject().value(QLatin1String("rule")).toString(),
                 QStringLiteral("prefix"));
        QCOMPARE(curl({QStringLiteral("-H"), QStringLiteral("Authorization: Bearer not-a-token"),
                       QStringLiteral("http://127.0.0.1:%1/quota/status").arg(m_listen)})
                     .left(3),
                 QStringLiteral("401"));
        const ToolRun t =
            m_cluster.kubectl({QStringLiteral("create"), QStringLiteral("token"), QStringLiteral("default"),
                               QStringLiteral("-n"), QStringLiteral("team-web")});
        QVERIFY2(t.exitCode == 0, t.err.constData());
        answer = quotaStatus(QString::fromUtf8(t.out.trimmed()));
        QVERIFY2(answer.startsWith(QLatin1String("200 ")), qPrintable(answer));
        doc = QJsonDocument::fromJson(answer.mid(4).toUtf8()).object();
        QCOMPARE(doc.value(QLatin1String("scope")).toString(), QStringLiteral("namespace"));
        QCOMPARE(doc.value(QLatin1String("subject")).toString(), QStringLiteral("team-web"));
        identity = doc.value(QLatin1String("identity")).toObject();
        QCOMPARE(identity.value(QLatin1String("username")).toString(),
                 QStringLiteral("system:serviceaccount:team-web:default"));
        QCOMPARE(identity.value(QLatin1String("rule")).toString(), QStringLiteral("service-account"));
        // SubjectAccessReview: alice may not read team-web's quota, until a RoleBinding says so.
        answer = quotaStatus(QStringLiteral("t-alice"), QStringLiteral("?namespace=team-web"));
        QVERIFY2(answer.startsWith(QLatin1String("403 ")), qPrintable(answer));
        QCOMPARE(m_cluster
                     .kubectl({QStringLiteral("create"), QStringLiteral("rolebinding"),
                               QStringLiteral("alice-view"), QStringLiteral("--clusterrole=view"),
                               QStringLiteral("--user=alice@example.com"), QStringLiteral("-n"),
                               QStringLiteral("team-web")})
                     .exitCode,
                 0);
        QTRY_VERIFY_WITH_TIMEOUT(quotaStatus(QStringLiteral("t-alice"), QStringLiteral("?namespace=team-web"))
                                     .startsWith(QLatin1String("200 ")),
                                 30000);
    }
};

QTEST_GUILESS_MAIN(TestRealClusterEnforce)
#include "tst_realcluster_enforce.moc"
