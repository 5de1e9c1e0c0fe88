// The memory estimate against the figures its sources publish.
#include "core/advisor/fitestimate.h"
#include "core/advisor/modelcatalog.h"

#include <QTest>

using namespace gq::advisor;

namespace {

// One decimal in GB (10^9 bytes), as the papers print them.
double gb1(double bytes) {
    return std::round(bytes / 1e8) / 10;
}

FitInput fullInput(double params, int gpus, int zero) {
    FitInput in;
    in.model = shapeFromParams(params);
    in.model.params = params;
    in.method = Method::Full;
    in.gpus = gpus;
    in.zeroStage = zero;
    return in;
}

} // namespace

class TestFitEstimate : public QObject {
    Q_OBJECT
private slots:
    // Source: Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
    // Parameter Models" (SC'20), Fig. 1 / Sec. 5.1: a 7.5 B model with mixed-precision Adam
    // (K = 12) on Nd = 64 GPUs needs per device 120 GB of model states as baseline data
    // parallelism, 31.4 GB with P_os (stage 1), 16.6 GB with P_os+g (stage 2) and 1.9 GB
    // with P_os+g+p (stage 3).
    void zeroPaper_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("gb");
        QTest::newRow("baseline") << 0 << 120.0;
        QTest::newRow("stage 1") << 1 << 31.4;
        QTest::newRow("stage 2") << 2 << 16.6;
        QTest::newRow("stage 3") << 3 << 1.9;
    }
    void zeroPaper() {
        QFETCH(int, stage);
        QFETCH(double, gb);
        const MemoryBreakdown m = estimate(fullInput(7.5e9, 64, stage));
        QCOMPARE(gb1(m.modelStates()), gb);
    }

    // The same paper, Sec. 3.1: a 1.5 B GPT-2 needs at least 24 GB for its model states
    // (16Ψ), against 3 GB of 16-bit weights.
    void zeroPaperGpt2() {
        const MemoryBreakdown m = estimate(fullInput(1.5e9, 1, 0));
        QCOMPARE(gb1(m.modelStates()), 24.0);
        QCOMPARE(gb1(m.weights), 3.0);
    }

    void optimizerVariants_data() {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("optimizer");
        QTest::addColumn<double>("k");
        QTest::newRow("bf16 adamw") << int(Dtype::Bf16) << int(Optimizer::AdamW) << 12.0;
        QTest::newRow("bf16 adamw-8bit") << int(Dtype::Bf16) << int(Optimizer::AdamW8bit) << 6.0;
        QTest::newRow("bf16 sgd") << int(Dtype::Bf16) << int(Optimizer::Sgd) << 8.0;
        QTest::newRow("fp32 adamw") << int(Dtype::Fp32) << int(Optimizer::AdamW) << 8.0;
        QTest::newRow("fp32 sgd") << int(Dtype::Fp32) << int(Optimizer::Sgd) << 4.0;
    }
    void optimizerVariants() {
        QFETCH(int, dtype);
        QFETCH(int, optimizer);
        QFETCH(double, k);
        QCOMPARE(optimizerBytesPerParam(Dtype(dtype), Optimizer(optimizer)), k);
    }

    // Source: Korthikanti et al., "Reducing Activation Recomputation in Large Transformer
    // Models" (MLSys 2023), Sec. 4, eq. (1) and Table 3's GPT-3 configuration (a = 96,
    // h = 12288, L = 96, s = 2048): "5as/h = 80" against the 34 of the rest, so storing no
    // attention scores (selective recomputation) cuts a layer's activations by 70 %.
    void korthikantiGpt3() {
        ModelShape gpt3;
        gpt3.params = gpt3.activeParams = 175e9;
        gpt3.layers = 96;
        gpt3.hidden = 12288;
        gpt3.heads = 96;
        gpt3.vocab = 51200;
        const double full = activationBytesPerLayer(gpt3, 2048, 1, false);
        const double selective = activationBytesPerLayer(gpt3, 2048, 1, true);
        QCOMPARE(full, 2048.0 * 12288 * (34 + 80)); // 2.87 GB per layer at b = 1
        QCOMPARE(selective, 34.0 * 2048 * 12288);   // 0.86 GB
        QCOMPARE(gb1(full), 2.9);
        QCOMPARE(int(std::round(100 * (1 - selective / full))), 70);
        // The whole 96 layers without recomputation: 275 GB at b = 1 (their Fig. 1: far
        // beyond one 80 GB GPU); with full recomputation only 2sbh per layer stays: 4.8 GB.
        FitInput in;
        in.model = gpt3;
        in.seqLen = 2048;
        in.microBatch = 1;
        QCOMPARE(gb1(activationBytes(in) - 4.0 * 2048 * 51200), 275.4);
        in.gradientCheckpointing = true;
        const double ckpt = activationBytes(in) - 4.0 * 2048 * 51200 - full;
        QCOMPARE(ckpt, 2.0 * 2048 * 12288 * 96);
    }

    // Their 22B configuration (a = 64, h = 6144, s = 2048): 5as/h = 106.7.
    void korthikanti22b() {
        ModelShape m;
        m.layers = 48;
        m.hidden = 6144;
        m.heads = 64;
        QCOMPARE(activationBytesPerLayer(m, 2048, 4, false),
                 2048.0 * 4 * 6144 * (34 + 5.0 * 64 * 2048 / 6144));
    }

    // Source: Dettmers et al., "QLoRA: Efficient Finetuning of Quantized LLMs" (2023),
    // abstract and Sec. 1: QLoRA fine-tunes a 65 B model on a single 48 GB GPU, which
    // 16-bit fine-tuning (even LoRA) cannot. Here: LLaMA 65B, LoRA rank 8 on every linear
    // layer, gradient checkpointing (as the paper), 512 tokens, micro-batch 1.
    void qloraPaper() {
        FitInput in;
        in.model = findModel(QStringLiteral("llama-65b")).value();
        in.seqLen = 512;
        in.microBatch = 1;
        in.gradientCheckpointing = true;
        in.loraRank = 8;
        in.method = Method::Qlora;
        const MemoryBreakdown q = estimate(in);
        QVERIFY2(q.total() <= 48e9, qPrintable(formatGB(q.total())));
        // The 4-bit base: 4.127 bits for each of the 64.8 B block parameters, 16-bit embeddings.
        QCOMPARE(gb1(q.weights - 2 * loraParams(in.model, 8)), 34.5);
        in.method = Method::Lora;
        const MemoryBreakdown l = estimate(in);
        QVERIFY2(l.total() > 48e9, qPrintable(formatGB(l.total())));
        QCOMPARE(gb1(l.weights - 2 * loraParams(in.model, 8)), 130.6);
    }

    // Rank r on q, k, v, o, gate, up, down: r·(d_in + d_out) each. Llama 2 7B at rank 8:
    // 32 · 8 · (4·8192 + 3·(4096 + 11008)) = 19,988,480 (what PEFT prints for
    // target_modules = all linear).
    void loraParamCount() {
        QCOMPARE(loraParams(findModel(QStringLiteral("llama-2-7b")).value(), 8), 19988480.0);
    }

    void overheadStated() {
        FitInput in = fullInput(7e9, 1, 0);
        const MemoryBreakdown m = estimate(in);
        // In whole bytes, like every part.
        QCOMPARE(m.overhead, std::round(kCudaContextBytes + 0.10 * (m.modelStates() + m.activations)));
    }

    void catalogue() {
        QCOMPARE(findModel(QStringLiteral("meta-llama/Llama-2-7b-hf"))->name, QStringLiteral("llama-2-7b"));
        QCOMPARE(findModel(QStringLiteral("Qwen/Qwen2.5-72B-Instruct"))->name, QStringLiteral("qwen2.5-72b"));
        QCOMPARE(findModel(QStringLiteral("Qwen-VL-Chat"))->name, QStringLiteral("qwen-vl-chat"));
        const auto mixtral = findModel(QStringLiteral("mixtral-8x7b"));
        QVERIFY(mixtral && mixtral->isMoe());
        QCOMPARE(mixtral->params, 46.7e9);
        QCOMPARE(mixtral->activeParams, 12.9e9);
        const auto unknown = findModel(QStringLiteral("gpt-5"));
        QVERIFY(!unknown);
        QVERIFY(unknown.error().message.contains(QLatin1String("llama-2-7b")));
    }

    void paramCounts_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("params");
        QTest::newRow("7B") << QStringLiteral("7B") << 7e9;
        QTest::newRow("6.74e9") << QStringLiteral("6.74e9") << 6.74e9;
        QTest::newRow("plain") << QStringLiteral("7000000000") << 7e9;
        QTest::newRow("500M") << QStringLiteral("500M") << 5e8;
        QTest::newRow("bad") << QStringLiteral("seven") << 0.0;
        QTest::newRow("negative") << QStringLiteral("-7B") << 0.0;
        QTest::newRow("too small") << QStringLiteral("1000") << 0.0;
    }
    void paramCounts() {
        QFETCH(QString, text);
        QFETCH(double, params);
        const auto r = parseParamCount(text);
        if (params == 0)
            QVERIFY(!r);
        else
            QCOMPARE(r.value(), params);
    }

    // A model given by its numbers gets a Llama-like shape: 7 B -> 33 layers of 4224.
    void shapeFromNumbers() {
        const ModelShape m = shapeFromParams(7e9);
        QCOMPARE(m.layers, 33);
        QCOMPARE(m.hidden, 33 * 128);
        QVERIFY(std::abs(12.0 * m.layers * m.hidden * m.hidden / 7e9 - 1) < 0.1);
    }
};

QTEST_GUILESS_MAIN(TestFitEstimate)
#include "tst_fitestimate.moc"
