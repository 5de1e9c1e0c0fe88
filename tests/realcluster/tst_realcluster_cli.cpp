// `gpuquota get|apply|whoami|validate` against the real kube-apiserver (with
// kube-controller-manager filling quota status), checked against what kubectl says about
// the same objects. The same verbs are tested against the test cluster in
// tests/kube/tst_kubecli.cpp; here nothing of the server is ours.
#include "tests/realcluster/realcluster.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace gq::test;

class TestRealClusterCli : public QObject {
    Q_OBJECT

    RealCluster m_cluster;

    static QString gpuquota() {
        QString dir = qEnvironmentVariable("GQ_BIN_DIR");
        if (dir.isEmpty())
            dir = QStringLiteral(GQ_BINARY_DIR "/bin");
        return QDir(dir).filePath(QStringLiteral("gpuquota"));
    }
    ToolRun gq(const QStringList &args, const QString &kubeconfig = {}) {
        return runTool(gpuquota(),
                       QStringList{QStringLiteral("--kubeconfig"),
                                   kubeconfig.isEmpty() ? m_cluster.kubeconfigPath() : kubeconfig} +
                           args);
    }
    QString file(const QString &name, const QByteArray &text) {
        return writeFile(QDir(m_cluster.temporaryDir()).filePath(name), text);
    }
    QByteArray jsonPath(const QString &kind, const QString &ns, const QString &name, const QString &templ) {
        return m_cluster
            .kubectl({QStringLiteral("get"), kind, name, QStringLiteral("-n"), ns, QStringLiteral("-o"),
                      QStringLiteral("jsonpath=") + templ})
            .out;
    }
    QByteArray gpus(const QString &ns, const QString &name) {
        return jsonPath(QStringLiteral("resourcequota"), ns, name,
                        QStringLiteral("{.spec.hard.requests\\.nvidia\\.com/gpu}"));
    }
    static QByteArray quota(const char *name, const char *ns, const char *gpus) {
        return QByteArray("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: ") + name +
               "\n  namespace: " + ns + "\nspec:\n  hard:\n    requests.nvidia.com/gpu: \"" + gpus +
               "\"\n    pods: \"10\"\n";
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        QVERIFY2(QFileInfo(gpuquota()).isExecutable(), "build the gpuquota target");
        GQ_START_REAL_CLUSTER(m_cluster);
        for (const char *ns : {"team-a", "team-b", "research"})
            QVERIFY(m_cluster.createNamespace(QLatin1String(ns)));
    }

    void getMatchesKubectl() {
        QVERIFY(m_cluster.apply(quota("gpu-quota", "team-a", "4")).exitCode == 0);
        auto r = gq({QStringLiteral("get"), QStringLiteral("namespaces")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        for (const char *ns : {"team-a", "team-b", "research", "kube-system"})
            QVERIFY2(r.out.contains(ns), r.out.constData());
        r = gq({QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("-A"), QStringLiteral("-o"),
                QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const ToolRun k =
            m_cluster.kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("-A"),
                               QStringLiteral("-o"), QStringLiteral("json")});
        QCOMPARE(k.exitCode, 0);
        const auto names = [](const QByteArray &json) {
            QStringList out;
            for (const QJsonValue &v :
                 QJsonDocument::fromJson(json).object().value(QLatin1String("items")).toArray()) {
                const QJsonObject m = v.toObject().value(QLatin1String("metadata")).toObject();
                out << m.value(QLatin1String("namespace")).toString() + u'/' +
                           m.value(QLatin1String("name")).toString();
            }
            out.sort();
            return out;
        };
        QCOMPARE(names(r.out), names(k.out));
        QVERIFY(names(r.out).contains(QStringLiteral("team-a/gpu-quota")));
    }

    // The quota's used column comes from status, which kube-controller-manager fills in
    // asynchronously: the table shows it once it is there.
    void getQuotaTableShowsStatusOnceSynced() {
        QVERIFY(m_cluster.waitForJsonPath({QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
                                           QStringLiteral("-n"), QStringLiteral("team-a")},
                                          QStringLiteral("{.status.hard.requests\\.nvidia\\.com/gpu}"),
                                          QStringLiteral("4")));
        const auto r = gq({QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("-n"),
                           QStringLiteral("team-a")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("gpu-quota"), r.out.constData());
        QVERIFY2(r.out.contains("requests.nvidia.com/gpu: 0/4"), r.out.constData());
    }

    void whoamiNamesRealUsers() {
        const auto admin = gq({QStringLiteral("whoami")});
        QVERIFY2(admin.exitCode == 0, admin.err.constData());
        QVERIFY2(admin.out.contains("system:masters"), admin.out.constData());
        const auto k = m_cluster.kubectl({QStringLiteral("auth"), QStringLiteral("whoami")});
        QCOMPARE(k.exitCode, 0);
        QCOMPARE(QString::fromUtf8(admin.out).simplified(), QString::fromUtf8(k.out).simplified());

        const QString alice = m_cluster.kubeconfigFor(QStringLiteral("t-alice"), QStringLiteral("alice"));
        const auto a = gq({QStringLiteral("whoami"), QStringLiteral("-o"), QStringLiteral("json")}, alice);
        QVERIFY2(a.exitCode == 0, a.err.constData());
        const QJsonObject info = QJsonDocument::fromJson(a.out)
                                     .object()
                                     .value(QLatin1String("status"))
                                     .toObject()
                                     .value(QLatin1String("userInfo"))
                                     .toObject();
        QCOMPARE(info.value(QLatin1String("username")).toString(), QStringLiteral("alice@example.com"));
        const QStringList groups = info.value(QLatin1String("groups")).toVariant().toStringList();
        QVERIFY2(groups.contains(QLatin1String("team-a")) &&
                     groups.contains(QLatin1String("system:authenticated")),
                 qPrintable(groups.join(u',')));
        const QString bob = m_cluster.kubeconfigFor(QStringLiteral("t-bob"), QStringLiteral("bob"));
        const auto b = gq({QStringLiteral("whoami")}, bob);
        QVERIFY2(b.exitCode == 0, b.err.constData());
        QVERIFY2(b.out.contains("oidc:bob"), b.out.constData());
    }

    void applyCreatesConfiguresAndRefusesAStaleBase() {
        const QString f = file(QStringLiteral("q4.yaml"), quota("cli-quota", "team-b", "4"));
        auto r = gq({QStringLiteral("apply"), QStringLiteral("-f"), f});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("resourcequota/cli-quota created\n"));
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), f});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("resourcequota/cli-quota unchanged\n"));
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"),
                file(QStringLiteral("q6.yaml"), quota("cli-quota", "team-b", "6"))});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("resourcequota/cli-quota configured\n"));
        QCOMPARE(gpus(QStringLiteral("team-b"), QStringLiteral("cli-quota")), QByteArray("6"));

        // Our copy with its resourceVersion; someone else changes the quota; ours is 409.
        r = gq({QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("cli-quota"),
                QStringLiteral("-n"), QStringLiteral("team-b"), QStringLiteral("-o"),
                QStringLiteral("yaml")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("resourceVersion:"));
        QByteArray mine = r.out;
        mine.replace("requests.nvidia.com/gpu: \"6\"", "requests.nvidia.com/gpu: \"1\"")
            .replace("requests.nvidia.com/gpu: 6\n", "requests.nvidia.com/gpu: \"1\"\n");
        QVERIFY2(mine.contains("\"1\""), r.out.constData());
        const auto k =
            m_cluster.kubectl({QStringLiteral("patch"), QStringLiteral("resourcequota"),
                               QStringLiteral("cli-quota"), QStringLiteral("-n"), QStringLiteral("team-b"),
                               QStringLiteral("--type=merge"), QStringLiteral("-p"),
                               QStringLiteral("{\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"8\"}}}")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), file(QStringLiteral("mine.yaml"), mine)});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("the object has been modified"), r.err.constData());
        QVERIFY2(r.err.contains("nothing was overwritten"), r.err.constData());
        QCOMPARE(gpus(QStringLiteral("team-b"), QStringLiteral("cli-quota")), QByteArray("8"));
    }

    // kubectl's three-way rule on the real server: a field changed on the server and in
    // the file is refused unless forced; what only the server changed is kept.
    void applyIsThreeWay() {
        const QByteArray q = quota("tw-gpus", "team-b", "24");
        auto r = gq({QStringLiteral("apply"), QStringLiteral("-f"), file(QStringLiteral("tw24.yaml"), q)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto k = m_cluster.kubectl({QStringLiteral("patch"), QStringLiteral("resourcequota"),
                                    QStringLiteral("tw-gpus"), QStringLiteral("-n"), QStringLiteral("team-b"),
                                    QStringLiteral("--type=merge"), QStringLiteral("-p"),
                                    QStringLiteral("{\"metadata\":{\"labels\":{\"owner\":\"ops\"}},\"spec\":{"
                                                   "\"hard\":{\"requests.nvidia.com/gpu\":\"20\"}}}")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        const QString edited = file(QStringLiteral("tw28.yaml"), quota("tw-gpus", "team-b", "28"));
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), edited});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains("spec.hard[requests.nvidia.com/gpu]: changed on the server since your last apply "
                           "(base 24, server 20, yours 28)"),
            r.err.constData());
        QCOMPARE(gpus(QStringLiteral("team-b"), QStringLiteral("tw-gpus")), QByteArray("20"));
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), edited, QStringLiteral("--force")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("resourcequota/tw-gpus configured\n"));
        QCOMPARE(gpus(QStringLiteral("team-b"), QStringLiteral("tw-gpus")), QByteArray("28"));
        QCOMPARE(jsonPath(QStringLiteral("resourcequota"), QStringLiteral("team-b"),
                          QStringLiteral("tw-gpus"), QStringLiteral("{.metadata.labels.owner}")),
                 QByteArray("ops"));
        // kubectl reads our last-applied annotation as its base and agrees: unchanged.
        k = m_cluster.kubectl({QStringLiteral("apply"), QStringLiteral("-f"), edited});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        QVERIFY2(k.out.contains("unchanged"), k.out.constData());
    }

    void applyDryRunStoresNothing() {
        const QString f = file(QStringLiteral("dry.yaml"), quota("dry-quota", "research", "2"));
        const auto r =
            gq({QStringLiteral("apply"), QStringLiteral("-f"), f, QStringLiteral("--dry-run=server")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("resourcequota/dry-quota created (server dry run)"), r.out.constData());
        const auto k = m_cluster.kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"),
                                          QStringLiteral("dry-quota"), QStringLiteral("-n"),
                                          QStringLiteral("research")});
        QVERIFY(k.exitCode != 0);
        QVERIFY2(k.err.contains("NotFound") || k.err.contains("not found"), k.err.constData());
    }

    // A user with rights in one namespace only: the real RBAC answers 403 elsewhere, and
    // the CLI says so with the server's words.
    void applyWithNarrowRbac() {
        auto k = m_cluster.kubectl({QStringLiteral("create"), QStringLiteral("rolebinding"),
                                    QStringLiteral("alice-admin"), QStringLiteral("--clusterrole=admin"),
                                    QStringLiteral("--user=alice@example.com"), QStringLiteral("-n"),
                                    QStringLiteral("team-a")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        const QString alice = m_cluster.kubeconfigFor(QStringLiteral("t-alice"), QStringLiteral("alice"));
        // The admin ClusterRole does not include ResourceQuota writes: only reads.
        auto r = gq(
            {QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("-n"), QStringLiteral("team-a")},
            alice);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("gpu-quota"), r.out.constData());
        r = gq(
            {QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("-n"), QStringLiteral("team-b")},
            alice);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("forbidden"), r.err.constData());
        QVERIFY2(r.err.contains("alice@example.com"), r.err.constData());
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"),
                file(QStringLiteral("alice.yaml"), quota("alice-quota", "team-a", "2"))},
               alice);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("forbidden"), r.err.constData());
    }

    // A boost on the real server: granted and applied at once, a kubectl edit during the
    // boost, and at expiry `reconcile` takes back only the boost's own delta.
    void boostSurvivesAConcurrentEditAtExpiry() {
        // With a key the API server accepts and our GPU policy would refuse in an editor:
        // a boost is a machine write and must not be refused for it.
        QVERIFY(m_cluster.apply(quota("boosted", "team-b", "12") + "    limits.nvidia.com/gpu: \"12\"\n")
                    .exitCode == 0);
        const QString db = QStringLiteral("sqlite://") +
                           QDir(m_cluster.temporaryDir()).filePath(QStringLiteral("boosts.db"));
        auto r = gq({QStringLiteral("boost"), QStringLiteral("grant"), QStringLiteral("--db"), db,
                     QStringLiteral("--namespace"), QStringLiteral("team-b"), QStringLiteral("--quota"),
                     QStringLiteral("boosted"), QStringLiteral("--resource"),
                     QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("--add"), QStringLiteral("+4"),
                     QStringLiteral("--for"), QStringLiteral("20s"), QStringLiteral("--note"),
                     QStringLiteral("real cluster boost test")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(gpus(QStringLiteral("team-b"), QStringLiteral("boosted")), QByteArray("16"),
                                  20000);
        QVERIFY(!jsonPath(QStringLiteral("resourcequota"), QStringLiteral("team-b"),
                          QStringLiteral("boosted"),
                          QStringLiteral("{.metadata.annotations.gpuquota\\.io/boosts}"))
                     .isEmpty());
        const auto k =
            m_cluster.kubectl({QStringLiteral("patch"), QStringLiteral("resourcequota"),
                               QStringLiteral("boosted"), QStringLiteral("-n"), QStringLiteral("team-b"),
                               QStringLiteral("--type=merge"), QStringLiteral("-p"),
                               QStringLiteral("{\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"20\"}}}")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        QTest::qWait(21000);
        r = gq({QStringLiteral("reconcile"), QStringLiteral("--db"), db});
        QVERIFY2(r.exitCode == 0, QByteArray(r.err + r.out).constData());
        QCOMPARE(gpus(QStringLiteral("team-b"), QStringLiteral("boosted")), QByteArray("16"));
        r = gq({QStringLiteral("boost"), QStringLiteral("list"), QStringLiteral("--db"), db,
                QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("expired"), r.out.constData());
    }

    // `gpuquota validate --no-gpu-policy` (the API server's rules only) accepts exactly what
    // the real API server accepts (a server dry run); plain `validate` also refuses what
    // the project's GPU policy names (a key quota never counts), and nothing else.
    void validateAgreesWithTheServer_data() {
        QTest::addColumn<QByteArray>("hard");
        QTest::addColumn<bool>("serverAccepts");
        QTest::addColumn<bool>("policyRefuses");
        QTest::newRow("requests gpu") << QByteArray("requests.nvidia.com/gpu: \"4\"") << true << false;
        QTest::newRow("cpu memory pods")
            << QByteArray("requests.cpu: \"8\"\n    limits.memory: 64Gi\n    pods: \"10\"") << true << false;
        QTest::newRow("milli cpu") << QByteArray("requests.cpu: 1500m") << true << false;
        QTest::newRow("mig") << QByteArray("requests.nvidia.com/mig-1g.10gb: \"7\"") << true << false;
        QTest::newRow("count") << QByteArray("count/jobs.batch: \"5\"") << true << false;
        QTest::newRow("exponent") << QByteArray("requests.memory: 1e3") << true << false;
        // Accepted by the API server, though quota never counts them.
        QTest::newRow("extended without prefix") << QByteArray("nvidia.com/gpu: \"4\"") << true << true;
        QTest::newRow("limits of extended") << QByteArray("limits.nvidia.com/gpu: \"4\"") << true << true;
        QTest::newRow("fractional gpu") << QByteArray("requests.nvidia.com/gpu: 500m") << true << true;
        QTest::newRow("negative") << QByteArray("requests.nvidia.com/gpu: \"-1\"") << false << true;
        QTest::newRow("bad quantity") << QByteArray("requests.cpu: 1.2.3") << false << true;
        QTest::newRow("bad name") << QByteArray("\"not a name\": \"1\"") << false << true;
        QTest::newRow("standard without prefix") << QByteArray("foo: \"1\"") << false << true;
    }
    void validateAgreesWithTheServer() {
        QFETCH(QByteArray, hard);
        QFETCH(bool, serverAccepts);
        QFETCH(bool, policyRefuses);
        const QByteArray yaml =
            "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: v\n  namespace: research\n"
            "spec:\n  hard:\n    " +
            hard + "\n";
        const QString f = file(QStringLiteral("validate.yaml"), yaml);
        const auto k = m_cluster.kubectl(
            {QStringLiteral("create"), QStringLiteral("-f"), f, QStringLiteral("--dry-run=server")});
        QCOMPARE(k.exitCode == 0, serverAccepts);
        const auto describe = [&](const ToolRun &v) {
            return QStringLiteral("validate exit %1: %2 %3 | server: %4")
                .arg(v.exitCode)
                .arg(QString::fromUtf8(v.out), QString::fromUtf8(v.err), QString::fromUtf8(k.err));
        };
        const auto apiRules =
            runTool(gpuquota(), {QStringLiteral("validate"), QStringLiteral("--no-gpu-policy"), f});
        QVERIFY2((apiRules.exitCode == 0) == serverAccepts, qPrintable(describe(apiRules)));
        const auto withPolicy = runTool(gpuquota(), {QStringLiteral("validate"), f});
        QVERIFY2((withPolicy.exitCode != 0) == policyRefuses, qPrintable(describe(withPolicy)));
    }
};

QTEST_GUILESS_MAIN(TestRealClusterCli)
#include "tst_realcluster_cli.moc"
