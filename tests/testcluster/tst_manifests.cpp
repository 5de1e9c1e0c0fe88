// The deployment manifests in packaging/kubernetes/ against gpuquota-testcluster with every
// kubectl on the machine: `kubectl apply --dry-run=server -f packaging/kubernetes/` must
// accept every object (any rejection, or any unknown-field warning, fails), an unknown
// kind must be refused as a real cluster refuses it, and the controller's ClusterRole must
// grant exactly the verbs the controller uses: the built controller is run through what it
// does (records, clamps and lifts, creates and deletes a quota, leads, answers
// self-service, reads alert recipients, denies a ReplicaSet's pod in its webhook and
// records that as an Event on the ReplicaSet) against a test cluster that logs every request,
// and the grants must equal the requests it made, verb by verb.

#include "services/cluster/clusterdiscovery.h"
#include "tests/controller/controllertestutil.h"
#include "core/kube/kubeclient.h"
#include "tests/testcluster/kubectlrun.h"
#include "testcluster/testcerts.h"
#include "tests/testclusterprocess.h"
#include "tests/webhooktestutil.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QUrlQuery>

#include <csignal>
#include <future>
#include <set>

#ifndef GQ_PACKAGING_DIR
#error "GQ_PACKAGING_DIR must name packaging/kubernetes"
#endif

using gq::test::TestClusterProcess;

namespace {

using Run = gq::test::KubectlRun;

// The objects in the manifests: "kind/name" per YAML document.
QStringList documentsIn(const QString &dir) {
    QStringList out;
    for (const QFileInfo &f : QDir(dir).entryInfoList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name)) {
        QFile file(f.filePath());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QString text = QString::fromUtf8(file.readAll());
        for (const QString &doc : text.split(
                 QRegularExpression(QStringLiteral("^---\\s*$"), QRegularExpression::MultilineOption))) {
            const auto kind =
                QRegularExpression(QStringLiteral("^kind: (\\S+)$"), QRegularExpression::MultilineOption)
                    .match(doc);
            const auto name = QRegularExpression(QStringLiteral("^metadata:\\n(?:  .*\\n)*?  name: (\\S+)$"),
                                                 QRegularExpression::MultilineOption)
                                  .match(doc);
            if (kind.hasMatch() && name.hasMatch())
                out.append(kind.captured(1).toLower() + QLatin1Char('/') + name.captured(1));
        }
    }
    return out;
}

// "group resource verb" of one request line the test cluster logs with --verbose
// ("USER METHOD TARGET -> STATUS (N ms)"), as RBAC names it; empty for a path that is
// not a resource (discovery, /version).
QString rbacOf(const QString &method, const QString &target) {
    const QUrl url(target);
    QStringList segs = url.path().split(u'/', Qt::SkipEmptyParts);
    QString group;
    if (segs.value(0) == QLatin1String("api") && segs.size() > 2) {
        segs = segs.mid(2);
    } else if (segs.value(0) == QLatin1String("apis") && segs.size() > 3) {
        group = segs.at(1);
        segs = segs.mid(3);
    } else {
        return {};
    }
    if (segs.size() >= 3 && segs.at(0) == QLatin1String("namespaces"))
        segs = segs.mid(2); // namespaced: the namespace is no part of the grant here
    const QString resource = segs.value(0) + (segs.size() > 2 ? u'/' + segs.at(2) : QString());
    const bool named = segs.size() > 1;
    const QString query = QUrlQuery(url).queryItemValue(QStringLiteral("watch"));
    QString verb;
    if (method == QLatin1String("GET"))
        verb = named ? QStringLiteral("get")
                     : (!query.isEmpty() && query != QLatin1String("false") && query != QLatin1String("0")
                            ? QStringLiteral("watch")
                            : QStringLiteral("list"));
    else if (method == QLatin1String("POST"))
        verb = QStringLiteral("create");
    else if (method == QLatin1String("PUT"))
        verb = QStringLiteral("update");
    else if (method == QLatin1String("PATCH"))
        verb = QStringLiteral("patch");
    else if (method == QLatin1String("DELETE"))
        verb = named ? QStringLiteral("delete") : QStringLiteral("deletecollection");
    return group + u' ' + resource + u' ' + verb;
}

} // namespace

class TestManifests : public QObject {
    Q_OBJECT

private:
    TestClusterProcess m_cluster;
    QMap<QString, QString> m_kubectls;
    QTemporaryDir m_home;
    const QString m_dir = QStringLiteral(GQ_PACKAGING_DIR);

    Run kubectl(const QString &binary, const QStringList &args, const QByteArray &stdinData = {}) {
        return gq::test::runKubectl(binary, m_cluster.kubeconfigPath(), m_home.path(), args, stdinData);
    }
    // `kubectl apply --dry-run=server -f -` of `yaml`.
    Run dryRunApply(const QString &binary, const QByteArray &yaml) {
        return kubectl(binary,
                       {QStringLiteral("apply"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                        QStringLiteral("-")},
                       yaml);
    }

    // Registers the controller's webhook (on `port`, certificate signed by `caPem`) with
    // `cluster` and creates a ReplicaSet's pod of carol (no GPU-hours left): true once the
    // controller recorded the denial as a GPUBudgetExceeded Event on the ReplicaSet.
    static bool ownedPodDenialRecorded(const TestClusterProcess &cluster, const QTemporaryDir &dir, int port,
                                       const QByteArray &caPem) {
        auto k = [&](const QStringList &args) {
            return gq::test::runTool(QStringLiteral("kubectl"),
                                     QStringList{QStringLiteral("--kubeconfig"), cluster.kubeconfigPath()} +
                                         args);
        };
        auto file = [&](const char *name, const QByteArray &text) {
            return gq::test::writeFile(dir.filePath(QLatin1String(name)), text);
        };
        gq::test::WebhookYaml w;
        w.url = QStringLiteral("https://127.0.0.1:%1/validate/pods").arg(port);
        w.caPem = caPem;
        k({QStringLiteral("apply"), QStringLiteral("-f"),
           file("webhook.yaml", gq::test::validatingWebhookYaml(w))});
        k({QStringLiteral("create"), QStringLiteral("-f"),
           file("owned.yaml",
                "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-1\n  namespace: team-b\n"
                "  labels: {gpuquota.io/user: carol}\n  ownerReferences:\n  - {apiVersion: apps/v1,"
                " kind: ReplicaSet, name: web, uid: rs-uid-1, controller: true}\nspec:\n"
                "  containers:\n  - name: main\n    image: cuda\n"
                "    resources: {limits: {nvidia.com/gpu: \"1\"}}\n")});
        return QTest::qWaitFor(
            [&] {
                return k({QStringLiteral("get"), QStringLiteral("events"), QStringLiteral("-n"),
                          QStringLiteral("team-b"), QStringLiteral("--field-selector"),
                          QStringLiteral("reason=GPUBudgetExceeded"), QStringLiteral("-o"),
                          QStringLiteral("name")})
                    .out.contains("event");
            },
            15000);
    }

    // The built controller through everything it does, against a test cluster that logs
    // each request (--verbose), as its own user (context admin-cert): the "group resource
    // verb" of every request it made. Fails the current test when the run does not get
    // that far.
    std::set<QString> requestsOfTheController() {
        TestClusterProcess::Options options;
        options.extraArguments = {QStringLiteral("--verbose")};
        TestClusterProcess traced(options);
        if (!traced.start()) {
            QTest::qFail(qPrintable(traced.errorString()), __FILE__, __LINE__);
            return {};
        }
        QTemporaryDir dir;
        auto k = [&](const QStringList &args) {
            return gq::test::runTool(QStringLiteral("kubectl"),
                                     QStringList{QStringLiteral("--kubeconfig"), traced.kubeconfigPath()} +
                                         args);
        };
        auto file = [&](const char *name, const QByteArray &text) {
            return gq::test::writeFile(dir.filePath(QLatin1String(name)), text);
        };
        auto cli = [&](const QStringList &args) {
            return gq::test::runTool(gq::test::binDir() + QStringLiteral("/gpuquota"), args);
        };
        const QString db = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db"));
        auto budgets = [&](const char *limit) {
            for (const char *ns : {"team-q", "team-n"})
                if (cli({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), db,
                         QStringLiteral("--namespace"), QLatin1String(ns), QStringLiteral("--limit"),
                         QLatin1String(limit), QStringLiteral("--period"), QStringLiteral("day")})
                        .exitCode != 0)
                    return false;
            return true;
        };
        auto hardOf = [&](const char *ns, const char *quota) {
            return QString::fromUtf8(
                k({QStringLiteral("get"), QStringLiteral("resourcequota"), QLatin1String(quota),
                   QStringLiteral("-n"), QLatin1String(ns), QStringLiteral("-o"),
                   QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")})
                    .out);
        };
        for (const char *ns : {"gpuquota-system", "team-q", "team-n", "team-b"})
            k({QStringLiteral("create"), QStringLiteral("namespace"), QLatin1String(ns)});
        for (const char *ns : {"team-q", "team-b"})
            k({QStringLiteral("apply"), QStringLiteral("-f"),
               file("quota.yaml",
                    QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpus, "
                                   "namespace: %1}\nspec:\n  hard: {requests.nvidia.com/gpu: \"4\"}\n")
                        .arg(QLatin1String(ns))
                        .toUtf8())});
        k({QStringLiteral("apply"), QStringLiteral("-f"),
           file("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: train, namespace: team-q,"
                            " labels: {gpuquota.io/user: alice}}\nspec:\n  containers:\n  - name: main\n"
                            "    image: cuda\n    resources: {limits: {nvidia.com/gpu: \"1\"}}\n")});
        // Spent at once: team-q's quota is clamped, team-n gets one. And a boost of
        // team-b's quota that has just run out: the controller reverts it on its first tick.
        const bool boosted = cli({QStringLiteral("boost"),        QStringLiteral("grant"),
                                  QStringLiteral("--db"),         db,
                                  QStringLiteral("--kubeconfig"), traced.kubeconfigPath(),
                                  QStringLiteral("--context"),    QStringLiteral("admin"),
                                  QStringLiteral("--namespace"),  QStringLiteral("team-b"),
                                  QStringLiteral("--resource"),   QStringLiteral("requests.nvidia.com/gpu"),
                                  QStringLiteral("--quota"),      QStringLiteral("gpus"),
                                  QStringLiteral("--add"),        QStringLiteral("2"),
                                  QStringLiteral("--for"),        QStringLiteral("2s"),
                                  QStringLiteral("--note"),       QStringLiteral("rbac check")})
                                     .exitCode == 0 &&
                             hardOf("team-b", "gpus") == QLatin1String("6");
        // And one of a ClusterQueue flavor's nominal quota: get and update of clusterqueues.
        auto nominalOf = [&] {
            return QString::fromUtf8(
                k({QStringLiteral("get"), QStringLiteral("clusterqueues.kueue.x-k8s.io"),
                   QStringLiteral("cq-rbac"), QStringLiteral("-o"),
                   QStringLiteral("jsonpath={.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}")})
                    .out);
        };
        k({QStringLiteral("apply"), QStringLiteral("-f"),
           file("cq.yaml",
                "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq-rbac}\n"
                "spec:\n  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n"
                "    - name: a100\n      resources: [{name: nvidia.com/gpu, nominalQuota: \"4\"}]\n")});
        const bool queueBoosted =
            cli({QStringLiteral("boost"), QStringLiteral("grant"), QStringLiteral("--db"), db,
                 QStringLiteral("--kubeconfig"), traced.kubeconfigPath(), QStringLiteral("--context"),
                 QStringLiteral("admin"), QStringLiteral("--clusterqueue"), QStringLiteral("cq-rbac"),
                 QStringLiteral("--flavor"), QStringLiteral("a100"), QStringLiteral("--add"),
                 QStringLiteral("2"), QStringLiteral("--for"), QStringLiteral("2s"), QStringLiteral("--note"),
                 QStringLiteral("rbac check")})
                    .exitCode == 0 &&
            nominalOf() == QLatin1String("6");
        if (!budgets("0") || !boosted || !queueBoosted) {
            QTest::qFail("gpuquota budget set or boost grant failed", __FILE__, __LINE__);
            return {};
        }
        // carol has no GPU-hours: the webhook denies her pods.
        const bool carolBudget =
            cli({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), db,
                 QStringLiteral("--user"), QStringLiteral("carol"), QStringLiteral("--limit"),
                 QStringLiteral("0"), QStringLiteral("--period"), QStringLiteral("day")})
                .exitCode == 0;
        auto tls = gq::tc::generateServingMaterial("IP:127.0.0.1");
        if (!carolBudget || !tls) {
            QTest::qFail("the user budget or the webhook's certificate failed", __FILE__, __LINE__);
            return {};
        }
        file("tls.crt", tls->serverCertPem);
        file("tls.key", tls->serverKeyPem);
        const int webhookPort = gq::test::freePort();
        QTest::qWait(2500); // the boost's end has passed
        const int listen = gq::test::freePort();
        const QString config = file(
            "controller.yaml",
            QStringLiteral(
                "cluster: {kubeconfig: %1, context: admin-cert}\nclusterName: rbac\ndatabase: %2\n"
                "listen: 127.0.0.1:%3\ntimeZone: UTC\nspool: %4\nenforce: {enabled: true, interval: 1s}\n"
                "leaderElection: {enabled: true, namespace: gpuquota-system, name: gpuquota-controller}\n"
                "alerts: {enabled: true, webhook: {url: \"http://127.0.0.1:9/alerts\"}}\n"
                "webhook: {listen: 127.0.0.1:%5, tlsCert: %6, tlsKey: %7}\n")
                .arg(traced.kubeconfigPath(), db)
                .arg(listen)
                .arg(dir.filePath(QStringLiteral("spool")))
                .arg(webhookPort)
                .arg(dir.filePath(QStringLiteral("tls.crt")), dir.filePath(QStringLiteral("tls.key")))
                .toUtf8());
        gq::test::ControllerProcess controller;
        if (!controller.start(config, QStringLiteral("rbac-check"))) {
            QTest::qFail("gpuquota-controller did not start", __FILE__, __LINE__);
            return {};
        }
        // Clamp (an update of team-q's quota, a new quota in team-n), then lift both.
        const bool clamped = QTest::qWaitFor(
            [&] {
                return hardOf("team-q", "gpus") == QLatin1String("1") &&
                       !hardOf("team-n", "gpuquota-budget").isEmpty() &&
                       hardOf("team-b", "gpus") == QLatin1String("4") && nominalOf() == QLatin1String("4");
            },
            30000);
        const bool raised = budgets("1000");
        const bool lifted = QTest::qWaitFor(
            [&] {
                return hardOf("team-q", "gpus") == QLatin1String("4") &&
                       k({QStringLiteral("get"), QStringLiteral("resourcequota"),
                          QStringLiteral("gpuquota-budget"), QStringLiteral("-n"), QStringLiteral("team-n")})
                               .exitCode != 0;
            },
            30000);
        // A ReplicaSet's pod denied by the webhook: an Event on the ReplicaSet.
        const bool event = ownedPodDenialRecorded(traced, dir, webhookPort, tls->caCertPem);
        // Self-service: who is asking (TokenReview), may they see it (SubjectAccessReview).
        const QString status = gq::test::curl(
            {QStringLiteral("-H"), QStringLiteral("Authorization: Bearer ") + traced.adminToken(),
             QStringLiteral("http://127.0.0.1:%1/quota/status?user=alice").arg(listen)});
        controller.signal(SIGTERM); // gives the Lease up
        const bool exited = controller.waitForExit(15000);
        if (!clamped || !raised || !lifted || !exited || !event || status.startsWith(QLatin1String("000"))) {
            QTest::qFail(
                qPrintable(
                    QStringLiteral("the controller's run did not get through: clamped and boost reverted %1, "
                                   "raised %2, lifted %3, self-service %4, exited %5, denial event %6")
                        .arg(clamped)
                        .arg(raised)
                        .arg(lifted)
                        .arg(status.left(3))
                        .arg(exited)
                        .arg(event)),
                __FILE__, __LINE__);
            return {};
        }
        traced.stop(); // and read to the end of its log (a pipe is only read when asked)
        std::set<QString> used;
        for (const QString &line : traced.stderrText().split(u'\n')) {
            const QStringList f = line.split(u' ');
            if (f.size() >= 4 && f.at(0) == QLatin1String("gq-admin-cert"))
                if (const QString rbac = rbacOf(f.at(1), f.at(2)); !rbac.isEmpty())
                    used.insert(rbac);
        }
        return used;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        QVERIFY2(QFileInfo(m_dir).isDir(), qPrintable(m_dir));
        m_kubectls = gq::test::findKubectls();
        GQ_REQUIRE_KUBECTL(m_kubectls);
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        // As on a real cluster: the namespace exists before a dry run of what goes in it.
        const Run r =
            kubectl(m_kubectls.first(), {QStringLiteral("apply"), QStringLiteral("-f"),
                                         QDir(m_dir).filePath(QStringLiteral("00-namespace.yaml"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    }

    void cleanupTestCase() { QVERIFY2(m_cluster.stop(), qPrintable(m_cluster.stderrText())); }

    void serverSideDryRun_data() {
        QTest::addColumn<QString>("binary");
        for (auto it = m_kubectls.cbegin(); it != m_kubectls.cend(); ++it)
            QTest::newRow(qPrintable(it.key())) << it.value();
    }

    void serverSideDryRun() {
        QFETCH(QString, binary);
        const QStringList expected = documentsIn(m_dir);
        QVERIFY2(expected.size() >= 12, qPrintable(expected.join(QLatin1Char(' '))));
        for (const char *kind :
             {"namespace/", "serviceaccount/", "clusterrole/", "clusterrolebinding/", "configmap/",
              "deployment/", "service/", "validatingwebhookconfiguration/", "cronjob/"})
            QVERIFY2(expected.join(QLatin1Char(' ')).contains(QLatin1String(kind)), kind);
        const Run r = kubectl(binary, {QStringLiteral("apply"), QStringLiteral("--dry-run=server"),
                                       QStringLiteral("-f"), m_dir});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        // No object rejected, none with fields the server does not know.
        QVERIFY2(!r.err.contains(QStringLiteral("Error")) && !r.err.contains(QStringLiteral("unknown field")),
                 qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), expected.size());
        for (const QString &line : lines)
            QVERIFY2(line.endsWith(QLatin1String(" (server dry run)")), qPrintable(line));
        // Nothing was stored by the dry run.
        const Run get =
            kubectl(binary, {QStringLiteral("get"), QStringLiteral("deployments,cronjobs,configmaps"),
                             QStringLiteral("-n"), QStringLiteral("gpuquota-system")});
        QVERIFY2(get.exitCode == 0 && !get.out.contains(QStringLiteral("gpuquota")), qPrintable(get.all()));
    }

    void unknownKindsAreRefused() {
        const QString binary = m_kubectls.last();
        Run r = dryRunApply(
            binary, "apiVersion: example.com/v1\nkind: GpuBudget\nmetadata: {name: x, namespace: default}\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(QStringLiteral("no matches for kind \"GpuBudget\" in version \"example.com/v1\"")),
            qPrintable(r.err));
        r = dryRunApply(binary,
                        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: x, namespace: default}\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("no matches for kind \"StatefulSet\" in version \"apps/v1\"")),
                 qPrintable(r.err));
        // The same through the API directly: the path does not exist.
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("--raw"),
                             QStringLiteral("/apis/apps/v1/statefulsets")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("the server could not find the requested resource")),
                 qPrintable(r.err));
    }

    void brokenManifestsAreRejected() {
        const QString binary = m_kubectls.last();
        Run r = dryRunApply(
            binary,
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: bad, namespace: gpuquota-system}\n"
            "spec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: b}}\n"
            "    spec:\n      containers: [{name: c}]\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("The Deployment \"bad\" is invalid")), qPrintable(r.err));
        QVERIFY2(r.err.contains(
                     QStringLiteral("spec.template.metadata.labels: Invalid value: "
                                    "map[string]string{\"app\":\"b\"}: `selector` does not match template "
                                    "`labels`")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("spec.template.spec.containers[0].image: Required value")),
                 qPrintable(r.err));
        r = dryRunApply(
            binary,
            "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: bad, namespace: gpuquota-system}\n"
            "spec:\n  schedule: \"every minute\"\n  jobTemplate:\n    spec:\n      template:\n"
            "        spec:\n          restartPolicy: Always\n          containers: [{name: c, image: x}]\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("spec.schedule: Invalid value: \"every minute\": expected "
                                               "exactly 5 fields, found 2: every minute")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(
                     QStringLiteral("spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: "
                                    "\"Always\": supported values: \"OnFailure\", \"Never\"")),
                 qPrintable(r.err));
        r = dryRunApply(binary,
                        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: bad}\n"
                        "rules: [{apiGroups: [\"\"], resources: [pods]}]\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(
                     QStringLiteral("rules[0].verbs: Required value: verbs must contain at least one value")),
                 qPrintable(r.err));
    }

    void clusterRoleGrantsExactlyWhatTheControllerUses() {
        const QString binary = m_kubectls.last();
        Run r = kubectl(binary, {QStringLiteral("apply"), QStringLiteral("-f"),
                                 QDir(m_dir).filePath(QStringLiteral("10-rbac.yaml"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        r = kubectl(binary,
                    {QStringLiteral("get"), QStringLiteral("clusterrole"),
                     QStringLiteral("gpuquota-controller"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        // "group resource verb" for every grant.
        std::set<QString> granted;
        const QJsonArray rules =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("rules")).toArray();
        for (const QJsonValue &rule : rules) {
            const QJsonObject o = rule.toObject();
            QVERIFY2(!o.contains(QLatin1String("resourceNames")) &&
                         !o.contains(QLatin1String("nonResourceURLs")),
                     "unexpected rule shape");
            for (const QJsonValue &g : o.value(QLatin1String("apiGroups")).toArray())
                for (const QJsonValue &res : o.value(QLatin1String("resources")).toArray())
                    for (const QJsonValue &v : o.value(QLatin1String("verbs")).toArray()) {
                        QVERIFY2(g.toString() != QLatin1String("*") && res.toString() != QLatin1String("*") &&
                                     v.toString() != QLatin1String("*"),
                                 "no wildcards in a least-privilege role");
                        granted.insert(g.toString() + QLatin1Char(' ') + res.toString() + QLatin1Char(' ') +
                                       v.toString());
                    }
        }
        // The Role in gpuquota-system: the audit head's one ConfigMap (patch by name,
        // create, which RBAC cannot limit by name).
        r = kubectl(binary,
                    {QStringLiteral("get"), QStringLiteral("role"),
                     QStringLiteral("gpuquota-controller-audit-head"), QStringLiteral("-n"),
                     QStringLiteral("gpuquota-system"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        for (const QJsonValue &rule :
             QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("rules")).toArray()) {
            const QJsonObject o = rule.toObject();
            for (const QJsonValue &res : o.value(QLatin1String("resources")).toArray())
                for (const QJsonValue &v : o.value(QLatin1String("verbs")).toArray()) {
                    QVERIFY2(v.toString() == QLatin1String("create") ||
                                 o.value(QLatin1String("resourceNames")).toArray() ==
                                     QJsonArray{QStringLiteral("gpuquota-audit-head")},
                             "the Role grants more than the one ConfigMap");
                    granted.insert(QLatin1Char(' ') + res.toString() + QLatin1Char(' ') + v.toString());
                }
        }
        std::set<QString> used = requestsOfTheController();
        QVERIFY(!QTest::currentTestFailed());
        // The test cluster serves Kueue's queues but no AdmissionChecks, so the budget check
        // cannot get past its first list here (tst_realcluster_kueue runs it on real Kueue):
        // its grants are taken as used, and anything else it asks must still be granted. The
        // queue boost's (clusterqueues get, update) are checked like the rest.
        for (const QString &g : granted)
            if (g.startsWith(QLatin1String("kueue.x-k8s.io ")) &&
                !g.contains(QLatin1String(" clusterqueues ")))
                used.insert(g);
        const QStringList grants(granted.begin(), granted.end());
        const QStringList requests(used.begin(), used.end());
        QVERIFY2(
            grants == requests,
            qPrintable(QStringLiteral("the ClusterRole grants\n  %1\nthe controller made\n  %2")
                           .arg(grants.join(QStringLiteral("\n  ")), requests.join(QStringLiteral("\n  ")))));
        // Bound to the controller's service account, which the Deployment runs as.
        r = kubectl(binary,
                    {QStringLiteral("apply"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                     QDir(m_dir).filePath(QStringLiteral("30-deployment.yaml")), QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.spec.replicas} {.spec.template.spec.serviceAccountName} "
                                    "{.spec.template.spec.containers[0].livenessProbe.httpGet.path} "
                                    "{.spec.template.spec.containers[0].readinessProbe.httpGet.path}")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(r.out, QStringLiteral("2 gpuquota-controller /healthz /readyz"));
    }

    // What the manifests deploy is what the console's discovery looks for: the ConfigMap
    // and Service named gpuquota-controller, the database the controller itself uses,
    // and the port it serves self-service on (`listen`, the Service's metrics port).
    void consoleDiscoversTheDeployedController() {
        const QString binary = m_kubectls.last();
        for (const char *f : {"20-configmap.yaml", "40-service.yaml"}) {
            const Run r = kubectl(binary, {QStringLiteral("apply"), QStringLiteral("-f"),
                                           QDir(m_dir).filePath(QLatin1String(f))});
            QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        }
        auto client = gq::KubeClient::fromKubeconfig(m_cluster.kubeconfigPath(), QStringLiteral("admin"));
        QVERIFY(client);
        auto future = std::async(std::launch::async, [c = *client] { return gq::discovery::discover(c); });
        QVERIFY(QTest::qWaitFor(
            [&] { return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }, 60000));
        const auto found = future.get();
        QVERIFY2(found, qPrintable(found ? QString() : found.error().toString()));
        const QString findings = found->findings.join(u'\n');
        QVERIFY2(findings.contains(
                     QLatin1String("ConfigMap gpuquota-system/gpuquota-controller found: 1 settings")),
                 qPrintable(findings));
        QVERIFY2(found->ignored.isEmpty(), qPrintable(found->ignored.join(u' ')));

        // The controller's own configuration in the same ConfigMap names the same database
        // and serves on the port the console is pointed at.
        const Run cm = kubectl(binary, {QStringLiteral("get"), QStringLiteral("configmap"),
                                        QStringLiteral("gpuquota-controller"), QStringLiteral("-n"),
                                        QStringLiteral("gpuquota-system"), QStringLiteral("-o"),
                                        QStringLiteral("jsonpath={.data.config\\.yaml}")});
        QVERIFY2(cm.exitCode == 0, qPrintable(cm.all()));
        const QRegularExpression database(QStringLiteral("^database: (\\S+)$"),
                                          QRegularExpression::MultilineOption);
        const QRegularExpression listen(QStringLiteral("^listen: \\S+:(\\d+)$"),
                                        QRegularExpression::MultilineOption);
        QCOMPARE(found->proposal.usageDatabaseUrl, database.match(cm.out).captured(1));
        QCOMPARE(found->proposal.controllerUrl,
                 QStringLiteral("http://gpuquota-controller.gpuquota-system.svc:%1")
                     .arg(listen.match(cm.out).captured(1)));
        QCOMPARE(found->proposal.controllerUrl,
                 QStringLiteral("http://gpuquota-controller.gpuquota-system.svc:9464"));
        // And the Deployment mounts that ConfigMap.
        const Run dep = kubectl(
            binary, {QStringLiteral("apply"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                     QDir(m_dir).filePath(QStringLiteral("30-deployment.yaml")), QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.spec.template.spec.volumes[0].configMap.name}")});
        QVERIFY2(dep.exitCode == 0, qPrintable(dep.all()));
        QCOMPARE(dep.out, QStringLiteral("gpuquota-controller"));
    }
};

QTEST_GUILESS_MAIN(TestManifests)
#include "tst_manifests.moc"
