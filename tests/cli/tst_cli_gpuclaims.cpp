// `gpuquota gpus` and DRA claims that dcgm-exporter names without a pod: a series with
// only dra_claim_* labels is shown held by the pods the claim's status.reservedFor lists,
// read from the test cluster's resource.k8s.io/v1 ResourceClaims, through the real
// Prometheus of scripts/start-services.sh and by a direct scrape of gq-test-exporter, in
// both output formats. Without a cluster the holder stays "ns/?" and a warning says why.
#include "core/kube/dra.h"
#include "core/kube/kubeclient.h"
#include "tests/metrics/promtestutil.h"
#include "tests/testclusterprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace gq;

namespace {

// GPU 0 held through the claim "team-gpu" (shared by two pods), GPU 1 through "solo",
// GPU 2 through "gone" (no such claim): claim labels only, as dcgm-exporter writes a
// GPU whose pod it cannot name.
QByteArray claimOnlyFrame() {
    QByteArray out;
    const char *claims[] = {"team-gpu", "solo", "gone"};
    for (const char *fam : {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE"}) {
        out += QByteArray("# HELP ") + fam + " test family\n# TYPE " + fam + " gauge\n";
        for (int i = 0; i < 3; ++i)
            out += QByteArray(fam) + "{gpu=\"" + QByteArray::number(i) + "\",UUID=\"GPU-claims-" +
                   QByteArray::number(i) + "\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"dra-node\"," +
                   "dra_claim_name=\"" + claims[i] + "\",dra_claim_namespace=\"ml\",dra_device_name=\"gpu-" +
                   QByteArray::number(i) +
                   "\",dra_driver_name=\"gpu.nvidia.com\",dra_pool_name=\"dra-node\"} " +
                   QByteArray(QByteArrayView(fam).endsWith("UTIL") ? "61" : "1000") + '\n';
    }
    return out;
}

QJsonObject claim(const QString &name, const QStringList &pods) {
    QJsonArray reserved;
    for (const QString &pod : pods)
        reserved.append(
            QJsonObject{{"resource", "pods"}, {"name", pod}, {"uid", QString(pod + QStringLiteral("-uid"))}});
    return QJsonObject{
        {"apiVersion", "resource.k8s.io/v1"},
        {"kind", "ResourceClaim"},
        {"metadata", QJsonObject{{"name", name}, {"namespace", "ml"}}},
        {"spec",
         QJsonObject{{"devices",
                      QJsonObject{{"requests",
                                   QJsonArray{QJsonObject{
                                       {"name", "gpu"},
                                       {"exactly", QJsonObject{{"deviceClassName", "gpu.nvidia.com"}}}}}}}}}},
        {"status", QJsonObject{{"reservedFor", reserved}}}};
}

// "ns/pod(claim)" of each holder of the row with UUID `uuid`.
QStringList holdersOf(const QJsonArray &rows, const QString &uuid) {
    QStringList out;
    for (const QJsonValue &v : rows) {
        if (v.toObject().value(QLatin1String("uuid")).toString() != uuid)
            continue;
        for (const QJsonValue &h : v.toObject().value(QLatin1String("holders")).toArray()) {
            const QJsonObject o = h.toObject();
            const QJsonValue pod = o.value(QLatin1String("pod"));
            out << o.value(QLatin1String("namespace")).toString() + u'/' +
                       (pod.isNull() ? QStringLiteral("null") : pod.toString()) + u'(' +
                       o.value(QLatin1String("claim")).toString() + u')';
        }
    }
    return out;
}

} // namespace

class TestCliGpuClaims : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void throughPrometheus();
    void throughDirectScrape();
    void withoutAClusterTheClaimStays();

private:
    [[nodiscard]] QStringList cluster() const {
        return {QStringLiteral("--kubeconfig"), m_cluster.kubeconfigPath(), QStringLiteral("--context"),
                QStringLiteral("admin")};
    }
    void checkResolved(const test::CliRun &json, const test::CliRun &table);

    test::PromEnv m_env;
    std::unique_ptr<test::TestExporter> m_exporter;
    test::TestClusterProcess m_cluster;
};

void TestCliGpuClaims::initTestCase() {
    GQ_REQUIRE_PROMETHEUS(m_env);
    QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
    auto client = KubeClient::fromKubeconfig(m_cluster.kubeconfigPath(), QStringLiteral("admin"));
    QVERIFY(client);
    QVERIFY(
        (*client)
            ->create(KubeResource::namespaces(), {}, QJsonObject{{"metadata", QJsonObject{{"name", "ml"}}}})
            .result());
    QVERIFY((*client)
                ->create(
                    dra::resourceClaims(), QStringLiteral("ml"),
                    claim(QStringLiteral("team-gpu"), {QStringLiteral("train-a"), QStringLiteral("train-b")}))
                .result());
    QVERIFY((*client)
                ->create(dra::resourceClaims(), QStringLiteral("ml"),
                         claim(QStringLiteral("solo"), {QStringLiteral("eval-1")}))
                .result());
    m_exporter = std::make_unique<test::TestExporter>(m_env);
    QVERIFY(m_exporter->start(m_env.ports[0], claimOnlyFrame()));
    QVERIFY(
        test::waitForPromValue(m_env.url, QStringLiteral("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-claims-1\"}"), 61));
}

void TestCliGpuClaims::cleanupTestCase() {
    m_exporter.reset();
    m_cluster.stop();
}

void TestCliGpuClaims::checkResolved(const test::CliRun &json, const test::CliRun &table) {
    QVERIFY2(json.code == 0, json.err.constData());
    QVERIFY2(json.err.isEmpty(), json.err.constData());
    const QJsonArray rows = QJsonDocument::fromJson(json.out).array();
    QCOMPARE(
        holdersOf(rows, QStringLiteral("GPU-claims-0")),
        (QStringList{QStringLiteral("ml/train-a(ml/team-gpu)"), QStringLiteral("ml/train-b(ml/team-gpu)")}));
    QCOMPARE(holdersOf(rows, QStringLiteral("GPU-claims-1")),
             QStringList{QStringLiteral("ml/eval-1(ml/solo)")});
    // A claim the cluster does not have stays known by the claim alone.
    QCOMPARE(holdersOf(rows, QStringLiteral("GPU-claims-2")),
             QStringList{QStringLiteral("ml/null(ml/gone)")});
    for (const QJsonValue &v : rows)
        if (v.toObject().value(QLatin1String("uuid")).toString() == QLatin1String("GPU-claims-0"))
            QVERIFY(v.toObject().value(QLatin1String("shared")).toBool());

    QVERIFY2(table.code == 0, table.err.constData());
    const QString text = QString::fromUtf8(table.out);
    QVERIFY2(text.contains(QLatin1String("shared: ml/train-a (claim team-gpu), ml/train-b (claim team-gpu)")),
             qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("ml/eval-1 (claim solo)")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("ml/? (claim gone)")), qPrintable(text));
}

void TestCliGpuClaims::throughPrometheus() {
    const QStringList gpus{QStringLiteral("gpus"), QStringLiteral("--prometheus"), m_env.url};
    checkResolved(test::runGpuquota(m_env.bin, cluster() + gpus +
                                                   QStringList{QStringLiteral("-o"), QStringLiteral("json")}),
                  test::runGpuquota(m_env.bin, cluster() + gpus));
}

void TestCliGpuClaims::throughDirectScrape() {
    const QStringList gpus{QStringLiteral("gpus"), QStringLiteral("--scrape"), m_exporter->url()};
    checkResolved(test::runGpuquota(m_env.bin, cluster() + gpus +
                                                   QStringList{QStringLiteral("-o"), QStringLiteral("json")}),
                  test::runGpuquota(m_env.bin, cluster() + gpus));
}

void TestCliGpuClaims::withoutAClusterTheClaimStays() {
    const test::CliRun r =
        test::runGpuquota(m_env.bin, {QStringLiteral("--kubeconfig"),
                                      QDir(m_cluster.temporaryDir()).filePath(QStringLiteral("none")),
                                      QStringLiteral("gpus"), QStringLiteral("--scrape"), m_exporter->url(),
                                      QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.err.contains("warning: the pods of DRA claims ml/gone, ml/solo, ml/team-gpu are not known"),
             r.err.constData());
    const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(holdersOf(rows, QStringLiteral("GPU-claims-1")),
             QStringList{QStringLiteral("ml/null(ml/solo)")});
}

QTEST_GUILESS_MAIN(TestCliGpuClaims)
#include "tst_cli_gpuclaims.moc"
