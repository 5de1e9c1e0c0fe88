// The recommendation: first that fits of full (ZeRO-3 on more than one GPU), LoRA, QLoRA.
#include "core/advisor/fitadvice.h"
#include "core/advisor/gpumemory.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <QTest>

using namespace gq::advisor;

namespace {

AdviceRequest request(const char *model, int gpus, double gpuGB) {
    AdviceRequest r;
    r.input.model = findModel(QLatin1String(model)).value();
    r.input.seqLen = 2048;
    r.input.microBatch = 1;
    r.input.gradientCheckpointing = true;
    r.input.flashAttention = true;
    r.gpusAvailable = gpus;
    r.gpuMemoryBytes = gpuGB * 1e9;
    return r;
}

} // namespace

class TestFitAdvice : public QObject {
    Q_OBJECT
private slots:
    // One 80 GB GPU left: a 7 B model cannot be fully fine-tuned (16 B/param = 108 GB of
    // model states), LoRA fits.
    void oneA100PicksLora() {
        const Advice a = advise(request("llama-2-7b", 1, 80));
        QCOMPARE(a.alternatives.size(), 3);
        QVERIFY(!a.alternatives[0].fits);
        QVERIFY2(a.alternatives[0].why.startsWith(QLatin1String("full: ")),
                 qPrintable(a.alternatives[0].why));
        QVERIFY2(a.alternatives[0].why.contains(QLatin1String(" per GPU > 80.0 GB")),
                 qPrintable(a.alternatives[0].why));
        QCOMPARE(a.chosen.method, Method::Lora);
        QVERIFY(a.fits());
        QCOMPARE(a.chosen.gpus, 1);
    }

    // Eight GPUs: full fine-tuning with ZeRO-3 on the fewest that fit.
    void eightGpusShardFull() {
        const Advice a = advise(request("llama-2-7b", 8, 80));
        QCOMPARE(a.chosen.method, Method::Full);
        QCOMPARE(a.chosen.zeroStage, 3);
        QCOMPARE(a.chosen.gpus, 2); // 108 GB of states / 2 = 54 GB + activations
        QVERIFY(a.chosen.why.contains(QLatin1String("with ZeRO-3 on 2 GPUs")));
        const QStringList swift = swiftArgs(request("llama-2-7b", 8, 80), a.chosen);
        QVERIFY(swift.join(u' ').contains(QLatin1String("--deepspeed default-zero3")));
        QVERIFY(swift.join(u' ').contains(QLatin1String("--sft_type full")));
    }

    // The ms-swift example: Qwen-VL-Chat on one 24 GB card takes QLoRA.
    void qwenVlOn24GbIsQlora() {
        AdviceRequest r = request("qwen-vl-chat", 1, 24);
        r.input.microBatch = 2;
        const Advice a = advise(r);
        QCOMPARE(a.chosen.method, Method::Qlora);
        QVERIFY(a.fits());
        const QString swift = swiftArgs(r, a.chosen).join(u' ');
        QVERIFY2(swift.contains(QLatin1String("--sft_type lora --quantization_bit 4")), qPrintable(swift));
        QVERIFY(swift.contains(QLatin1String("--batch_size 2")));
        QVERIFY(swift.contains(QLatin1String("--use_flash_attn true")));
        QVERIFY(swift.contains(QLatin1String("--model_type qwen-vl-chat")));
    }

    void nothingFits() {
        const Advice a = advise(request("qwen2.5-72b", 1, 16));
        QVERIFY(!a.fits());
        QCOMPARE(a.chosen.method, Method::Qlora); // the least memory, shown as the closest
        for (const MethodFit &f : a.alternatives)
            QVERIFY(!f.fits);
    }

    void noGpuLeft() {
        const Advice a = advise(request("llama-2-7b", 0, 80));
        QVERIFY(!a.fits());
        QCOMPARE(a.alternatives[0].why, QStringLiteral("full: no GPU left to run on"));
    }

    void askedMethodOnly() {
        AdviceRequest r = request("llama-2-7b", 1, 80);
        r.method = Method::Full;
        const Advice a = advise(r);
        QCOMPARE(a.alternatives.size(), 1);
        QVERIFY(!a.fits());
    }

    // A Mixtral holds all 46.7 B parameters: full fine-tuning needs more than 8 × 80 GB? No:
    // 747 GB of states / 8 = 93 GB > 80 GB; LoRA with ZeRO-3 fits.
    void mixtralIsSparse() {
        const Advice a = advise(request("mixtral-8x7b", 8, 80));
        QVERIFY(!a.alternatives[0].fits);
        QCOMPARE(a.chosen.method, Method::Lora);
    }

    // GPU memory by product label and MIG profile (nvidia-smi's MiB).
    void gpuTable_data() {
        QTest::addColumn<QString>("product");
        QTest::addColumn<qint64>("mib");
        QTest::newRow("A100 80") << "NVIDIA-A100-SXM4-80GB" << qint64(81920);
        QTest::newRow("A100 40") << "NVIDIA-A100-SXM4-40GB" << qint64(40960);
        QTest::newRow("H100") << "NVIDIA-H100-80GB-HBM3" << qint64(81559);
        QTest::newRow("L4") << "NVIDIA-L4" << qint64(23034);
        QTest::newRow("L40S") << "NVIDIA-L40S" << qint64(46068);
        QTest::newRow("A10") << "NVIDIA-A10" << qint64(23028);
        QTest::newRow("T4") << "Tesla-T4" << qint64(15360);
        QTest::newRow("4090") << "NVIDIA-GeForce-RTX-4090" << qint64(24564);
        QTest::newRow("MIG 1g.10gb") << "1g.10gb" << qint64(10240);
        QTest::newRow("MIG resource") << "nvidia.com/mig-3g.40gb" << qint64(40960);
        QTest::newRow("unknown") << "Some-GPU" << qint64(0);
    }
    void gpuTable() {
        QFETCH(QString, product);
        QFETCH(qint64, mib);
        QCOMPARE(gpuMemoryForProduct(product).value_or(0), mib * 1024 * 1024);
    }

    // The label nvidia.com/gpu.memory wins over the table; the model with most GPUs is taken.
    void nodesAndQuota() {
        auto node = [](const char *product, const char *gpus, const char *memory) {
            QJsonObject labels{{QStringLiteral("nvidia.com/gpu.product"), QLatin1String(product)}};
            if (memory)
                labels.insert(QStringLiteral("nvidia.com/gpu.memory"), QLatin1String(memory));
            return QJsonObject{
                {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), labels}}},
                {QStringLiteral("status"),
                 QJsonObject{{QStringLiteral("capacity"),
                              QJsonObject{{QStringLiteral("nvidia.com/gpu"), QLatin1String(gpus)}}}}}};
        };
        const auto g =
            clusterGpu({node("NVIDIA-L4", "4", nullptr), node("NVIDIA-A100-SXM4-80GB", "8", "81920"),
                        node("NVIDIA-A100-SXM4-80GB", "8", "81920")});
        QVERIFY(g);
        QCOMPARE(g->product, QStringLiteral("NVIDIA-A100-SXM4-80GB"));
        QCOMPARE(g->gpus, 16);
        QCOMPARE(g->source, QStringLiteral("label nvidia.com/gpu.memory"));
        QVERIFY(!clusterGpu({}));
        const QJsonObject quota{
            {QStringLiteral("status"),
             QJsonObject{
                 {QStringLiteral("hard"), QJsonObject{{QStringLiteral("requests.nvidia.com/gpu"), "16"}}},
                 {QStringLiteral("used"), QJsonObject{{QStringLiteral("requests.nvidia.com/gpu"), "13"}}}}}};
        QCOMPARE(freeQuotaGpus({quota})->free, 3);
        QCOMPARE(freeQuotaGpus({quota})->resource, QStringLiteral("nvidia.com/gpu"));
        QVERIFY(!freeQuotaGpus({}));
        // A namespace on MIG slices: the slices left, and which.
        const QJsonObject mig{
            {QStringLiteral("spec"),
             QJsonObject{{QStringLiteral("hard"),
                          QJsonObject{{QStringLiteral("requests.nvidia.com/mig-3g.40gb"), "14"},
                                      {QStringLiteral("requests.cpu"), "64"}}}}},
            {QStringLiteral("status"),
             QJsonObject{{QStringLiteral("used"),
                          QJsonObject{{QStringLiteral("requests.nvidia.com/mig-3g.40gb"), "6"}}}}}};
        QCOMPARE(freeQuotaGpus({mig})->free, 8);
        QCOMPARE(freeQuotaGpus({mig})->resource, QStringLiteral("nvidia.com/mig-3g.40gb"));
    }

    // A Kueue ClusterQueue as kueue.x-k8s.io/v1beta1 has it: nominal quota over two flavors
    // (8 + 4 GPUs), 5 in use; CPU lines are not GPUs.
    void kueueClusterQueue() {
        const QByteArray cq = R"({"spec": {"resourceGroups": [
            {"coveredResources": ["cpu", "nvidia.com/gpu"], "flavors": [
              {"name": "a100", "resources": [{"name": "cpu", "nominalQuota": "64"},
                                             {"name": "nvidia.com/gpu", "nominalQuota": "8"}]},
              {"name": "h100", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 4}]}]}]},
          "status": {"flavorsUsage": [
            {"name": "a100", "resources": [{"name": "cpu", "total": "10"}, {"name": "nvidia.com/gpu", "total": "3", "borrowed": "0"}]},
            {"name": "h100", "resources": [{"name": "nvidia.com/gpu", "total": "2"}]}]}})";
        const QJsonObject o = QJsonDocument::fromJson(cq).object();
        QCOMPARE(freeKueueGpus(o).value_or(-1), 7);
        QVERIFY(!freeKueueGpus(QJsonObject{}));
    }
};

QTEST_GUILESS_MAIN(TestFitAdvice)
#include "tst_fitadvice.moc"
