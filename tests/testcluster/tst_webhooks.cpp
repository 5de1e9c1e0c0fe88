// Validating admission webhooks in gpuquota-testcluster, end to end with the real
// kubectl: a ValidatingWebhookConfiguration is applied, pods are created through kubectl,
// and a small HTTPS webhook server (test CA) answers the AdmissionReviews. The denial,
// the failure policies, the timeout, the CA check, the selectors and clientConfig.service
// must reach kubectl worded as kube-apiserver words them.

#include "tests/testcluster/kubectlrun.h"
#include "testcluster/testcerts.h"
#include "tests/testclusterprocess.h"
#include "tests/webhooktestutil.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using gq::test::TestClusterProcess;
using gq::test::WebhookServer;
using gq::test::WebhookYaml;

namespace {

using Run = gq::test::KubectlRun;

// The value at `path` below `object`: object keys, and "0", "1", ... for array items,
// separated by spaces.
QJsonValue jsonAt(const QJsonObject &object, const char *path) {
    QJsonValue v = object;
    for (const QString &step : QString::fromUtf8(path).split(QLatin1Char(' ')))
        v = v.isArray() ? v.toArray().at(step.toInt()) : v.toObject().value(step);
    return v;
}

const QString kDenial = QStringLiteral("Denied: need 4.00 GPU-h, only 0.50 left (limit 8.00 per day)");

// The webhook under test: users labelled "over" are over budget, everyone else may run.
QJsonObject decide(const QJsonObject &request) {
    const QString user = jsonAt(request, "object metadata labels gpuquota.io/user").toString();
    if (user == QLatin1String("over"))
        return QJsonObject{
            {QStringLiteral("allowed"), false},
            {QStringLiteral("status"), QJsonObject{{QStringLiteral("code"), 403},
                                                   {QStringLiteral("reason"), QStringLiteral("Forbidden")},
                                                   {QStringLiteral("message"), kDenial}}}};
    return QJsonObject{{QStringLiteral("allowed"), true},
                       {QStringLiteral("warnings"), QJsonArray{QStringLiteral("budget 80% used")}}};
}

QByteArray podYaml(const QString &ns, const QString &name, const QString &user) {
    QString labels =
        user.isEmpty() ? QString() : QStringLiteral("  labels: {gpuquota.io/user: %1}\n").arg(user);
    return QStringLiteral("apiVersion: v1\n"
                          "kind: Pod\n"
                          "metadata:\n"
                          "  name: %1\n"
                          "  namespace: %2\n"
                          "%3"
                          "spec:\n"
                          "  containers:\n"
                          "  - name: main\n"
                          "    image: nvcr.io/nvidia/pytorch:24.05-py3\n"
                          "    resources:\n"
                          "      limits: {nvidia.com/gpu: \"1\"}\n")
        .arg(name, ns, labels)
        .toUtf8();
}

} // namespace

class TestWebhooks : public QObject {
    Q_OBJECT

private:
    TestClusterProcess m_cluster;
    QString m_kubectl;
    QTemporaryDir m_home;
    std::optional<gq::tc::TlsMaterial> m_tls;
    std::unique_ptr<WebhookServer> m_hook;

    Run kubectl(const QStringList &args, const QByteArray &stdinData = {}) {
        return gq::test::runKubectl(m_kubectl, m_cluster.kubeconfigPath(), m_home.path(), args, stdinData);
    }

    void apply(const QByteArray &yaml) {
        const Run r = kubectl({QStringLiteral("apply"), QStringLiteral("-f"), QStringLiteral("-")}, yaml);
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    }

    Run createPod(const QString &ns, const QString &name, const QString &user) {
        return kubectl({QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")},
                       podYaml(ns, name, user));
    }

    bool podExists(const QString &ns, const QString &name) {
        return kubectl({QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("-n"), ns, name})
                   .exitCode == 0;
    }

    void createNamespace(const QString &ns, const QString &labels = {}) {
        QString yaml = QStringLiteral("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %1\n").arg(ns);
        if (!labels.isEmpty())
            yaml += QStringLiteral("  labels: %1\n").arg(labels);
        apply(yaml.toUtf8());
    }

    WebhookYaml baseConfig() const {
        WebhookYaml w;
        w.url = m_hook->url(QStringLiteral("/validate/pods"));
        w.caPem = m_tls->caCertPem;
        return w;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        m_kubectl = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
        GQ_REQUIRE_KUBECTL(m_kubectl);
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        auto tls =
            gq::tc::generateServingMaterial("IP:127.0.0.1,DNS:gpuquota-controller.gpuquota-system.svc");
        QVERIFY2(tls, qPrintable(tls ? QString() : tls.error().message));
        m_tls = *tls;
        m_hook = std::make_unique<WebhookServer>(*m_tls, decide);
        QVERIFY2(m_hook->start(), qPrintable(m_hook->errorString()));
        createNamespace(QStringLiteral("shared"));
    }

    void cleanup() {
        kubectl({QStringLiteral("delete"), QStringLiteral("validatingwebhookconfigurations"),
                 QStringLiteral("--all")});
        m_hook->setDelayMs(0);
        m_hook->clear();
    }

    void cleanupTestCase() {
        m_hook.reset();
        QVERIFY2(m_cluster.stop(), qPrintable(m_cluster.stderrText()));
    }

    void configurationIsStoredAndListed() {
        apply(gq::test::validatingWebhookYaml(baseConfig()));
        Run r = kubectl({QStringLiteral("get"), QStringLiteral("validatingwebhookconfigurations")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("NAME\\s+WEBHOOKS\\s+AGE\\n"
                                                                  "gpuquota\\s+1\\s+\\d+s"))),
                 qPrintable(r.out));
        // Defaults as the API server fills them in.
        r = kubectl({QStringLiteral("get"), QStringLiteral("validatingwebhookconfiguration"),
                     QStringLiteral("gpuquota"), QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.webhooks[0].matchPolicy} "
                                    "{.webhooks[0].rules[0].scope} {.webhooks[0].timeoutSeconds}")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(r.out, QStringLiteral("Equivalent * 5"));
        // A second apply patches the merge-keyed webhooks list (kubectl sends only the change).
        WebhookYaml w = baseConfig();
        w.failurePolicy = QStringLiteral("Ignore");
        apply(gq::test::validatingWebhookYaml(w));
        r = kubectl({QStringLiteral("get"), QStringLiteral("validatingwebhookconfiguration"),
                     QStringLiteral("gpuquota"), QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.webhooks[0].failurePolicy} "
                                    "{.webhooks[0].sideEffects}")});
        QCOMPARE(r.out, QStringLiteral("Ignore None"));
    }

    void invalidConfigurationIsRejected() {
        const QByteArray yaml = "apiVersion: admissionregistration.k8s.io/v1\n"
                                "kind: ValidatingWebhookConfiguration\n"
                                "metadata: {name: broken}\n"
                                "webhooks:\n"
                                "  - name: short\n"
                                "    clientConfig: {url: \"http://127.0.0.1:1/\"}\n"
                                "    timeoutSeconds: 31\n";
        const Run r = kubectl({QStringLiteral("apply"), QStringLiteral("-f"), QStringLiteral("-")}, yaml);
        QCOMPARE(r.exitCode, 1);
        // kubectl names the kind from details.kind (the group travels apart in details.group).
        QVERIFY2(r.err.startsWith(QStringLiteral("The ValidatingWebhookConfiguration \"broken\" is invalid")),
                 qPrintable(r.err));

        for (const char *expected :
             {"webhooks[0].name: Invalid value: \"short\": should be a domain with at least three segments "
              "separated by dots",
              "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
              "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
              "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 "
              "seconds",
              "webhooks[0].clientConfig.url: Invalid value: \"http://127.0.0.1:1/\": 'https' is the only "
              "allowed URL scheme"})
            QVERIFY2(r.err.contains(QLatin1String(expected)),
                     qPrintable(expected + QStringLiteral("\n") + r.err));
    }

    void denialReachesKubectl() {
        apply(gq::test::validatingWebhookYaml(baseConfig()));
        Run r = createPod(QStringLiteral("shared"), QStringLiteral("over-1"), QStringLiteral("over"));
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(
            r.err.trimmed(),
            QStringLiteral("Error from server (Forbidden): error when creating \"STDIN\": admission webhook "
                           "\"pods.gpuquota.io\" denied the request: ") +
                kDenial);
        QVERIFY(!podExists(QStringLiteral("shared"), QStringLiteral("over-1")));

        // Another user in the same namespace is admitted; the webhook's warning reaches kubectl.
        r = createPod(QStringLiteral("shared"), QStringLiteral("fine-1"), QStringLiteral("fine"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QVERIFY2(r.err.contains(QStringLiteral("Warning: budget 80% used")), qPrintable(r.err));
        QVERIFY(podExists(QStringLiteral("shared"), QStringLiteral("fine-1")));

        // What the webhook was told.
        const std::vector<QJsonObject> requests = m_hook->requests();
        QCOMPARE(requests.size(), std::size_t(2));
        const QJsonObject req = requests.back();
        QVERIFY(!req.value(QLatin1String("uid")).toString().isEmpty());
        QVERIFY(req.value(QLatin1String("uid")) != requests.front().value(QLatin1String("uid")));
        QCOMPARE(req.value(QLatin1String("kind")).toObject(),
                 (QJsonObject{{QStringLiteral("group"), QString()},
                              {QStringLiteral("version"), QStringLiteral("v1")},
                              {QStringLiteral("kind"), QStringLiteral("Pod")}}));
        QCOMPARE(req.value(QLatin1String("resource")).toObject(),
                 (QJsonObject{{QStringLiteral("group"), QString()},
                              {QStringLiteral("version"), QStringLiteral("v1")},
                              {QStringLiteral("resource"), QStringLiteral("pods")}}));
        QCOMPARE(req.value(QLatin1String("namespace")).toString(), QStringLiteral("shared"));
        QCOMPARE(req.value(QLatin1String("name")).toString(), QStringLiteral("fine-1"));
        QCOMPARE(req.value(QLatin1String("operation")).toString(), QStringLiteral("CREATE"));
        QCOMPARE(req.value(QLatin1String("dryRun")).toBool(), false);
        const QJsonObject user = req.value(QLatin1String("userInfo")).toObject();
        QCOMPARE(user.value(QLatin1String("username")).toString(), QStringLiteral("gq-admin"));
        QVERIFY(user.value(QLatin1String("groups")).toArray().contains(QStringLiteral("system:masters")));
        const QJsonObject object = req.value(QLatin1String("object")).toObject();
        QCOMPARE(object.value(QLatin1String("kind")).toString(), QStringLiteral("Pod"));
        QCOMPARE(object.value(QLatin1String("apiVersion")).toString(), QStringLiteral("v1"));
        QCOMPARE(jsonAt(object, "spec containers 0 resources limits nvidia.com/gpu").toString(),
                 QStringLiteral("1"));
        QVERIFY(req.value(QLatin1String("oldObject")).isNull());
        QCOMPARE(m_hook->paths().back(), QStringLiteral("/validate/pods?timeout=5s"));

        // Server-side dry run calls webhooks with dryRun (sideEffects None allows it) and stores nothing.
        m_hook->clear();
        r = kubectl({QStringLiteral("create"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                     QStringLiteral("-")},
                    podYaml(QStringLiteral("shared"), QStringLiteral("over-dry"), QStringLiteral("over")));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(kDenial), qPrintable(r.err));
        QCOMPARE(m_hook->requests().size(), std::size_t(1));
        QCOMPARE(m_hook->requests().front().value(QLatin1String("dryRun")).toBool(), true);
    }

    void updatesWhenTheRulesSaySo() {
        // CREATE only: a label change is not sent.
        apply(gq::test::validatingWebhookYaml(baseConfig()));
        QVERIFY(
            createPod(QStringLiteral("shared"), QStringLiteral("upd-1"), QStringLiteral("fine")).exitCode ==
            0);
        m_hook->clear();
        Run r = kubectl({QStringLiteral("label"), QStringLiteral("pod"), QStringLiteral("-n"),
                         QStringLiteral("shared"), QStringLiteral("upd-1"), QStringLiteral("team=a")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(m_hook->requests().size(), std::size_t(0));
        // CREATE and UPDATE: relabelling the pod to an over-budget user is denied, with the old object sent.
        WebhookYaml w = baseConfig();
        w.operations = {QStringLiteral("CREATE"), QStringLiteral("UPDATE")};
        apply(gq::test::validatingWebhookYaml(w));
        r = kubectl({QStringLiteral("label"), QStringLiteral("pod"), QStringLiteral("-n"),
                     QStringLiteral("shared"), QStringLiteral("upd-1"), QStringLiteral("--overwrite"),
                     QStringLiteral("gpuquota.io/user=over")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(
                     QStringLiteral("admission webhook \"pods.gpuquota.io\" denied the request: ") + kDenial),
                 qPrintable(r.err));
        QCOMPARE(m_hook->requests().size(), std::size_t(1));
        const QJsonObject req = m_hook->requests().front();
        QCOMPARE(req.value(QLatin1String("operation")).toString(), QStringLiteral("UPDATE"));
        QCOMPARE(jsonAt(req, "oldObject metadata labels gpuquota.io/user").toString(),
                 QStringLiteral("fine"));
        r = kubectl({QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("-n"),
                     QStringLiteral("shared"), QStringLiteral("upd-1"), QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.metadata.labels}")});
        QVERIFY2(r.out.contains(QStringLiteral("\"gpuquota.io/user\":\"fine\"")), qPrintable(r.out));
    }

    void failurePolicyWithTheWebhookDown() {
        // A port nobody listens on: take one, then let it go.
        WebhookServer gone(*m_tls, decide);
        QVERIFY(gone.start());
        const int port = gone.port();
        gone.stop();
        WebhookYaml w = baseConfig();
        w.url = QStringLiteral("https://127.0.0.1:%1/validate/pods").arg(port);

        w.failurePolicy = QStringLiteral("Fail");
        apply(gq::test::validatingWebhookYaml(w));
        Run r = createPod(QStringLiteral("shared"), QStringLiteral("down-fail"), QStringLiteral("fine"));
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.trimmed(),
                 QStringLiteral(
                     "Error from server (InternalError): error when creating \"STDIN\": Internal error "
                     "occurred: failed calling webhook \"pods.gpuquota.io\": failed to call webhook: Post "
                     "\"https://127.0.0.1:%1/validate/pods?timeout=5s\": dial tcp 127.0.0.1:%1: connect: "
                     "connection refused")
                     .arg(port));
        QVERIFY(!podExists(QStringLiteral("shared"), QStringLiteral("down-fail")));

        w.failurePolicy = QStringLiteral("Ignore");
        apply(gq::test::validatingWebhookYaml(w));
        r = createPod(QStringLiteral("shared"), QStringLiteral("down-ignore"), QStringLiteral("over"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QVERIFY(podExists(QStringLiteral("shared"), QStringLiteral("down-ignore")));
    }

    void timeoutSeconds() {
        WebhookYaml w = baseConfig();
        w.timeoutSeconds = 1;
        apply(gq::test::validatingWebhookYaml(w));
        m_hook->setDelayMs(1500);
        Run r = createPod(QStringLiteral("shared"), QStringLiteral("slow-fail"), QStringLiteral("fine"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(
                     QStringLiteral("failed calling webhook \"pods.gpuquota.io\": failed to call webhook: "
                                    "Post \"%1?timeout=1s\": context deadline exceeded")
                         .arg(w.url)),
                 qPrintable(r.err));
        w.failurePolicy = QStringLiteral("Ignore");
        apply(gq::test::validatingWebhookYaml(w));
        r = createPod(QStringLiteral("shared"), QStringLiteral("slow-ignore"), QStringLiteral("over"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    }

    void caBundleIsVerified() {
        const auto other = gq::tc::generateServingMaterial("IP:127.0.0.1");
        QVERIFY(other);
        WebhookYaml w = baseConfig();
        w.caPem = other->caCertPem; // not the CA that signed the webhook's certificate
        apply(gq::test::validatingWebhookYaml(w));
        const Run r = createPod(QStringLiteral("shared"), QStringLiteral("bad-ca"), QStringLiteral("fine"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(QStringLiteral("Post \"%1?timeout=5s\": tls: failed to verify certificate: x509: "
                                          "certificate signed by unknown authority")
                               .arg(w.url)),
            qPrintable(r.err));
        QCOMPARE(m_hook->requests().size(), std::size_t(0));
    }

    // The API server's Go client never falls back to the Common Name: a webhook whose
    // certificate has no subjectAltName cannot be called (with Fail: the pod is refused
    // with Go's words; with Ignore: admitted unchecked).
    void commonNameOnlyCertificateIsRefused() {
        const auto cnOnly = gq::tc::generateServingMaterial(QByteArray(), "127.0.0.1");
        QVERIFY(cnOnly);
        WebhookServer hook(*cnOnly, decide);
        QVERIFY2(hook.start(), qPrintable(hook.errorString()));
        WebhookYaml w = baseConfig();
        w.url = hook.url(QStringLiteral("/validate/pods"));
        w.caPem = cnOnly->caCertPem;
        apply(gq::test::validatingWebhookYaml(w));
        Run r = createPod(QStringLiteral("shared"), QStringLiteral("cn-only"), QStringLiteral("fine"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(QStringLiteral("Post \"%1?timeout=5s\": tls: failed to verify certificate: x509: "
                                          "certificate relies on legacy Common Name field, use SANs instead")
                               .arg(w.url)),
            qPrintable(r.err));
        QCOMPARE(hook.requests().size(), std::size_t(0));
        w.failurePolicy = QStringLiteral("Ignore");
        apply(gq::test::validatingWebhookYaml(w));
        r = createPod(QStringLiteral("shared"), QStringLiteral("cn-only-ignored"), QStringLiteral("over"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(hook.requests().size(), std::size_t(0));
        // The same hook with a subjectAltName for the host is called.
        const auto withSan = gq::tc::generateServingMaterial("IP:127.0.0.1", "127.0.0.1");
        QVERIFY(withSan);
        WebhookServer good(*withSan, decide);
        QVERIFY2(good.start(), qPrintable(good.errorString()));
        w.url = good.url(QStringLiteral("/validate/pods"));
        w.caPem = withSan->caCertPem;
        w.failurePolicy = QStringLiteral("Fail");
        apply(gq::test::validatingWebhookYaml(w));
        r = createPod(QStringLiteral("shared"), QStringLiteral("san-ok"), QStringLiteral("fine"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(good.requests().size(), std::size_t(1));
    }

    void namespaceAndObjectSelectors() {
        createNamespace(QStringLiteral("enforced"), QStringLiteral("{gpuquota.io/enforce: \"true\"}"));
        WebhookYaml w = baseConfig();
        w.namespaceSelector = QStringLiteral("{matchLabels: {gpuquota.io/enforce: \"true\"}}");
        w.objectSelector = QStringLiteral("{matchExpressions: [{key: gpuquota.io/user, operator: Exists}]}");
        apply(gq::test::validatingWebhookYaml(w));
        // Namespace not selected: not sent, admitted.
        Run r = createPod(QStringLiteral("shared"), QStringLiteral("sel-1"), QStringLiteral("over"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        // Selected namespace, pod without the user label: not sent.
        r = createPod(QStringLiteral("enforced"), QStringLiteral("sel-2"), QString());
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(m_hook->requests().size(), std::size_t(0));
        // Both match: sent and denied.
        r = createPod(QStringLiteral("enforced"), QStringLiteral("sel-3"), QStringLiteral("over"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(kDenial), qPrintable(r.err));
        QCOMPARE(m_hook->requests().size(), std::size_t(1));
    }

    void serviceClientConfig() {
        createNamespace(QStringLiteral("gpuquota-system"));
        WebhookYaml w = baseConfig();
        w.url.clear();
        w.serviceNamespace = QStringLiteral("gpuquota-system");
        w.serviceName = QStringLiteral("gpuquota-controller");
        w.servicePath = QStringLiteral("/validate/pods");
        apply(gq::test::validatingWebhookYaml(w));
        // No such Service yet.
        Run r = createPod(QStringLiteral("shared"), QStringLiteral("svc-0"), QStringLiteral("fine"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(QStringLiteral(
                "failed to call webhook: Post \"https://gpuquota-controller.gpuquota-system.svc:443/validate/"
                "pods?timeout=5s\": service \"gpuquota-controller\" not found")),
            qPrintable(r.err));
        // The Service, mapped to the webhook's loopback port; the certificate is checked for the service
        // name.
        apply(QStringLiteral(
                  "apiVersion: v1\nkind: Service\nmetadata:\n  name: gpuquota-controller\n"
                  "  namespace: gpuquota-system\n  annotations: {testcluster.gpuquota.io/endpoint: "
                  "\"127.0.0.1:%1\"}\nspec:\n  ports: [{name: webhook, port: 443, targetPort: 9443}]\n")
                  .arg(m_hook->port())
                  .toUtf8());
        r = createPod(QStringLiteral("shared"), QStringLiteral("svc-1"), QStringLiteral("over"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(
                     QStringLiteral("admission webhook \"pods.gpuquota.io\" denied the request: ") + kDenial),
                 qPrintable(r.err));
        r = createPod(QStringLiteral("shared"), QStringLiteral("svc-2"), QStringLiteral("fine"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(m_hook->requests().size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestWebhooks)
#include "tst_webhooks.moc"
