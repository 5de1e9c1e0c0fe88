// `gpuquota queues` and `gpuquota workloads` (app/cli/cmd_queues.cpp) against the real
// gpuquota-testcluster's demo scenario, which serves Kueue's kinds at kueue.x-k8s.io/v1beta2
// (testcluster/kueuedemo.cpp): the GPU numbers per ClusterQueue flavor, the cohort tree,
// pending Workloads in order with Kueue's reasons, a namespace filter, a cluster without
// Kueue, and usage errors.
#include "tests/clirun.h"
#include "tests/testclusterprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using gq::test::CliRun;
using gq::test::gpuquotaBinary;
using gq::test::runCli;
using gq::test::TestClusterProcess;
using gq::test::words;

namespace {

QJsonObject findByName(const QJsonArray &a, const QString &name, const char *key = "name") {
    for (const QJsonValue &v : a)
        if (v.toObject().value(QLatin1String(key)).toString() == name)
            return v.toObject();
    return {};
}

QJsonObject flavorOf(const QJsonObject &queue, const QString &flavor) {
    return findByName(queue.value(QLatin1String("flavors")).toArray(), flavor, "flavor");
}

} // namespace

class TestCliQueues : public QObject {
    Q_OBJECT

    std::unique_ptr<TestClusterProcess> m_cluster;
    QStringList m_kube;

    CliRun run(const char *args) { return runCli(gpuquotaBinary(), m_kube + words(args)); }

private slots:
    void initTestCase() {
        m_cluster = TestClusterProcess::ofScenario(QStringLiteral("demo"));
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        m_kube = QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath(),
                             QStringLiteral("--context"), QStringLiteral("readonly")};
    }

    void queuesJson() {
        const CliRun r = run("queues -o json");
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("api_version")).toString(), QStringLiteral("kueue.x-k8s.io/v1beta2"));
        const QJsonArray queues = o.value(QLatin1String("clusterqueues")).toArray();
        QCOMPARE(queues.size(), 5);
        // cq-nlp: 16 H100 nominal, 20 reserved by three jobs, 4 of them borrowed; one pending.
        const QJsonObject nlp = findByName(queues, QStringLiteral("cq-nlp"));
        QCOMPARE(nlp.value(QLatin1String("cohort")).toString(), QStringLiteral("training"));
        QCOMPARE(nlp.value(QLatin1String("pending")).toInt(), 1);
        const QJsonObject h100 = flavorOf(nlp, QStringLiteral("h100"));
        QCOMPARE(h100.value(QLatin1String("nominal")).toInt(), 16);
        QCOMPARE(h100.value(QLatin1String("borrowing_limit")).toInt(), 8);
        QVERIFY(h100.value(QLatin1String("lending_limit")).isNull());
        QCOMPARE(h100.value(QLatin1String("reserved")).toInt(), 20);
        QCOMPARE(h100.value(QLatin1String("borrowed")).toInt(), 4);
        QCOMPARE(findByName(nlp.value(QLatin1String("local_queues")).toArray(), QStringLiteral("nlp"))
                     .value(QLatin1String("namespace"))
                     .toString(),
                 QStringLiteral("team-nlp"));
        // cq-vision lends its idle H100s (lendingLimit 4) to cq-nlp.
        const QJsonObject vision =
            flavorOf(findByName(queues, QStringLiteral("cq-vision")), QStringLiteral("h100"));
        QCOMPARE(vision.value(QLatin1String("reserved")).toInt(), 4);
        QCOMPARE(vision.value(QLatin1String("lending_limit")).toInt(), 4);
        QCOMPARE(vision.value(QLatin1String("lent")).toInt(), 4);
        // The cohort tree: ai-org holds training and inference.
        const QJsonObject root =
            findByName(o.value(QLatin1String("cohorts")).toArray(), QStringLiteral("ai-org"));
        QCOMPARE(root.value(QLatin1String("children")).toArray().size(), 2);
        const QJsonObject training =
            findByName(o.value(QLatin1String("cohorts")).toArray(), QStringLiteral("training"));
        QCOMPARE(training.value(QLatin1String("parent")).toString(), QStringLiteral("ai-org"));
        QCOMPARE(training.value(QLatin1String("clusterqueues")).toArray().size(), 3);
    }

    void queuesTable() {
        const CliRun r = run("queues");
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith(QLatin1String("Kueue kueue.x-k8s.io/v1beta2\n")), qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("BORROW-LIMIT")));
        const QString nlpLine = r.out.split(u'\n').filter(QStringLiteral("cq-nlp")).value(0);
        QCOMPARE(nlpLine.simplified(),
                 QStringLiteral("training cq-nlp h100 nvidia.com/gpu 16 8 - 20 20 4 0 1"));
    }

    void workloadsPendingInOrder() {
        const CliRun r = run("workloads --pending -o json");
        QCOMPARE(r.code, 0);
        const QJsonArray a = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(a.size(), 5);
        for (const QJsonValue &v : a) {
            QCOMPARE(v.toObject().value(QLatin1String("state")).toString(), QStringLiteral("pending"));
            QVERIFY(v.toObject()
                        .value(QLatin1String("reason"))
                        .toString()
                        .startsWith(QLatin1String("couldn't assign flavors to pod set main")));
        }
        // Higher priority first: genai-finetune-3 (50) before genai-eval-4 (0) in cq-genai,
        // and vision-sweep-3 (100) leads overall.
        QCOMPARE(a[0].toObject().value(QLatin1String("name")).toString(),
                 QStringLiteral("job-vision-sweep-3"));
        const QJsonObject finetune = findByName(a, QStringLiteral("job-genai-finetune-3"));
        const QJsonObject eval = findByName(a, QStringLiteral("job-genai-eval-4"));
        QCOMPARE(finetune.value(QLatin1String("position")).toInt(), 1);
        QCOMPARE(eval.value(QLatin1String("position")).toInt(), 2);
        QCOMPARE(finetune.value(QLatin1String("cluster_queue")).toString(), QStringLiteral("cq-genai"));
        QCOMPARE(finetune.value(QLatin1String("gpus")).toInt(), 8);
    }

    void workloadsOfNamespace() {
        const CliRun r = run("workloads --namespace team-nlp -o json");
        QCOMPARE(r.code, 0);
        const QJsonArray a = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(a.size(), 4);
        QCOMPARE(a[0].toObject().value(QLatin1String("state")).toString(), QStringLiteral("pending"));
        const QJsonObject pretrain = findByName(a, QStringLiteral("job-nlp-pretrain-1"));
        QCOMPARE(pretrain.value(QLatin1String("state")).toString(), QStringLiteral("admitted"));
        QCOMPARE(pretrain.value(QLatin1String("gpus")).toInt(), 8);
        QCOMPARE(pretrain.value(QLatin1String("flavors"))
                     .toObject()
                     .value(QLatin1String("nvidia.com/gpu"))
                     .toString(),
                 QStringLiteral("h100"));
        QVERIFY(pretrain.value(QLatin1String("age_seconds")).toDouble() >= 30 * 3600 - 60);
        const CliRun table = run("workloads --namespace team-nlp");
        QCOMPARE(table.code, 0);
        QVERIFY2(table.out.contains(QLatin1String("4 more needed")), qPrintable(table.out));
    }

    void noQueues() {
        TestClusterProcess empty; // the empty scenario serves Kueue's kinds but holds none
        QVERIFY2(empty.start(), qPrintable(empty.errorString()));
        const CliRun r =
            runCli(gpuquotaBinary(), QStringList{QStringLiteral("--kubeconfig"), empty.kubeconfigPath(),
                                                 QStringLiteral("--context"), QStringLiteral("admin")} +
                                         words("queues -o json"));
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(o.value(QLatin1String("clusterqueues")).toArray().isEmpty());
    }

    void unreachable() {
        const CliRun r = runCli(gpuquotaBinary(), words("queues --kubeconfig /nonexistent/kubeconfig"));
        QCOMPARE(r.code, 1);
        QVERIFY(!r.err.isEmpty());
    }

    void usageErrors_data() {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("words");
        QTest::newRow("queues output") << "queues -o yaml"
                                       << "-o";
        QTest::newRow("workloads flag") << "workloads --all"
                                        << "--all";
        QTest::newRow("extra") << "queues now"
                               << "now";
    }
    void usageErrors() {
        QFETCH(QString, args);
        QFETCH(QString, words);
        const CliRun r = runCli(gpuquotaBinary(), args.split(u' '));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(words), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliQueues)
#include "tst_cli_queues.moc"
