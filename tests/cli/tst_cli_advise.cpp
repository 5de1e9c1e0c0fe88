// `gpuquota advise`: the contract of issue 29 (flags, JSON keys, exit codes), against the
// built binary; --namespace against gpuquota-testcluster's demo scenario, --db against a
// real SQLite usage database written by `gpuquota budget set`.
#include "tests/clirun.h"
#include "tests/testclusterprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using gq::test::CliRun;
using gq::test::gpuquotaBinary;
using gq::test::runCli;
using gq::test::words;

namespace {

QJsonObject json(const CliRun &r) {
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

} // namespace

class TestCliAdvise : public QObject {
    Q_OBJECT
private slots:
    // One 80 GB GPU: a 7 B model's full fine-tune does not fit (16 bytes per parameter),
    // LoRA does; every key of the contract is there.
    void jsonContract() {
        const CliRun r = runCli(gpuquotaBinary(), words("advise --model llama-2-7b --gpus 1 --gpu-memory 80G "
                                                        "--seq-len 2048 --batch 1 --gradient-checkpointing "
                                                        "--flash-attn -o json"));
        QCOMPARE(r.code, 0);
        const QJsonObject o = json(r);
        for (const char *key : {"params", "method", "gpus", "gpu_memory_bytes", "per_gpu_bytes", "breakdown",
                                "fits", "recommendation", "alternatives", "swift_args"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o.value(QLatin1String("params")).toDouble(), 6.74e9);
        QCOMPARE(o.value(QLatin1String("method")).toString(), QStringLiteral("lora"));
        QCOMPARE(o.value(QLatin1String("gpu_memory_bytes")).toDouble(), 80e9);
        QCOMPARE(o.value(QLatin1String("fits")).toBool(), true);
        const QJsonObject b = o.value(QLatin1String("breakdown")).toObject();
        double sum = 0;
        for (const char *key : {"weights", "gradients", "optimizer", "activations", "overhead"}) {
            QVERIFY2(b.contains(QLatin1String(key)), key);
            sum += b.value(QLatin1String(key)).toDouble();
        }
        QCOMPARE(qRound64(sum), qRound64(o.value(QLatin1String("per_gpu_bytes")).toDouble()));
        const QJsonObject rec = o.value(QLatin1String("recommendation")).toObject();
        QCOMPARE(rec.value(QLatin1String("method")).toString(), QStringLiteral("lora"));
        QCOMPARE(rec.value(QLatin1String("gpus")).toInt(), 1);
        const QJsonArray alts = o.value(QLatin1String("alternatives")).toArray();
        QCOMPARE(alts.size(), 3);
        QCOMPARE(alts[0].toObject().value(QLatin1String("fits")).toBool(), false);
        QVERIFY2(alts[0]
                     .toObject()
                     .value(QLatin1String("why"))
                     .toString()
                     .contains(QLatin1String(" per GPU > 80.0 GB")),
                 qPrintable(alts[0].toObject().value(QLatin1String("why")).toString()));
        const QString swift = o.value(QLatin1String("swift_args")).toVariant().toStringList().join(u' ');
        QVERIFY2(swift.contains(QLatin1String("--sft_type lora")), qPrintable(swift));
        QVERIFY(swift.contains(QLatin1String("--use_flash_attn true")));
        QVERIFY(swift.contains(QLatin1String("--gradient_checkpointing true")));
        QVERIFY(swift.contains(QLatin1String("--lora_rank 8")));
    }

    void tableOutput() {
        const CliRun r =
            runCli(gpuquotaBinary(), words("advise --params 7B --gpus 1 --gpu-memory 24Gi --method qlora "
                                           "--gradient-checkpointing"));
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(QLatin1String("qlora")), qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("swift sft --sft_type lora --quantization_bit 4")));
    }

    void nothingFitsExitsOne() {
        const CliRun r =
            runCli(gpuquotaBinary(), words("advise --model qwen2.5-72b --gpus 1 --gpu-memory 16G -o json"));
        QCOMPARE(r.code, 1);
        QCOMPARE(json(r).value(QLatin1String("fits")).toBool(), false);
        QVERIFY(json(r)
                    .value(QLatin1String("recommendation"))
                    .toObject()
                    .value(QLatin1String("method"))
                    .isNull());
    }

    void badInput_data() {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("flag");
        QTest::newRow("no model") << "advise --gpus 1 --gpu-memory 80G"
                                  << "--model";
        QTest::newRow("both") << "advise --model llama-2-7b --params 7B --gpu-memory 80G"
                              << "--params";
        QTest::newRow("unknown model") << "advise --model gpt-9 --gpu-memory 80G"
                                       << "--model";
        QTest::newRow("params") << "advise --params seven --gpu-memory 80G"
                                << "--params";
        QTest::newRow("method") << "advise --params 7B --gpu-memory 80G --method dora"
                                << "--method";
        QTest::newRow("dtype") << "advise --params 7B --gpu-memory 80G --dtype int8"
                               << "--dtype";
        QTest::newRow("optimizer") << "advise --params 7B --gpu-memory 80G --optimizer lion"
                                   << "--optimizer";
        QTest::newRow("zero") << "advise --params 7B --gpu-memory 80G --zero 4"
                              << "--zero";
        QTest::newRow("gpus") << "advise --params 7B --gpu-memory 80G --gpus -1"
                              << "--gpus";
        QTest::newRow("memory") << "advise --params 7B --gpu-memory 80GB"
                                << "--gpu-memory";
        QTest::newRow("no memory") << "advise --params 7B --gpus 2"
                                   << "--gpu-memory";
        QTest::newRow("seq") << "advise --params 7B --gpu-memory 80G --seq-len 0"
                             << "--seq-len";
        QTest::newRow("batch") << "advise --params 7B --gpu-memory 80G --batch x"
                               << "--batch";
        QTest::newRow("rank") << "advise --params 7B --gpu-memory 80G --lora-rank 0"
                              << "--lora-rank";
        QTest::newRow("hours") << "advise --params 7B --gpu-memory 80G --hours 0"
                               << "--hours";
        QTest::newRow("output") << "advise --params 7B --gpu-memory 80G -o yaml"
                                << "-o";
        QTest::newRow("switch") << "advise --params 7B --gpu-memory 80G --flash-attn=yes"
                                << "--flash-attn";
        QTest::newRow("db without user") << "advise --params 7B --gpu-memory 80G --db sqlite:///x.db"
                                         << "--user";
        QTest::newRow("unknown") << "advise --params 7B --gpu-memory 80G --tp 2"
                                 << "--tp";
    }
    void badInput() {
        QFETCH(QString, args);
        QFETCH(QString, flag);
        const CliRun r = runCli(gpuquotaBinary(), args.split(u' '));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(flag), qPrintable(r.err));
    }

    void help() {
        const CliRun r = runCli(gpuquotaBinary(), words("advise --help"));
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QLatin1String("--gradient-checkpointing")));
        const CliRun all = runCli(gpuquotaBinary(), words("--help"));
        QVERIFY(all.out.contains(QLatin1String("advise")));
    }

    // --db: the budget decision in the seed's words, on the recommendation's GPU-hours.
    void budget() {
        QTemporaryDir dir;
        const QString db = QStringLiteral("sqlite:///%1/usage.db").arg(dir.path());
        const CliRun set =
            runCli(gpuquotaBinary(),
                   QStringList{QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), db} +
                       words("--user alice --limit 4.5 --period day"));
        QVERIFY2(set.code == 0, qPrintable(set.err));
        const QStringList base = QStringList{QStringLiteral("advise"), QStringLiteral("--db"), db} +
                                 words("--user alice --model llama-2-7b --gpus 1 --gpu-memory 80G -o json");
        CliRun r = runCli(gpuquotaBinary(), base + words("--hours 4"));
        QCOMPARE(r.code, 0);
        QJsonObject b = json(r).value(QLatin1String("budget")).toObject();
        QCOMPARE(b.value(QLatin1String("decision")).toString(),
                 QStringLiteral("Allowed: 4.00 GPU-h ≤ 4.50 available"));
        QCOMPARE(b.value(QLatin1String("remaining_gpu_hours")).toDouble(), 4.5);
        QCOMPARE(b.value(QLatin1String("needed_gpu_hours")).toDouble(), 4.0);
        r = runCli(gpuquotaBinary(), base + words("--hours 10"));
        b = json(r).value(QLatin1String("budget")).toObject();
        QVERIFY2(b.value(QLatin1String("decision"))
                     .toString()
                     .startsWith(QLatin1String("Denied: need 10.00 GPU-h, only 4.50 left")),
                 qPrintable(b.value(QLatin1String("decision")).toString()));
        QCOMPARE(b.value(QLatin1String("allowed")).toBool(), false);
    }

    // --namespace: the quota's hard − used and the GPU nodes' memory, as if given by hand.
    void namespaceFromCluster() {
        gq::test::TestClusterProcess::Options options;
        options.scenario = QStringLiteral("demo");
        gq::test::TestClusterProcess cluster(options);
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        const QStringList kube{QStringLiteral("--kubeconfig"), cluster.kubeconfigPath(),
                               QStringLiteral("--context"), QStringLiteral("admin")};
        const CliRun r =
            runCli(gpuquotaBinary(), kube + words("advise --model llama-2-7b --namespace team-vision "
                                                  "--gradient-checkpointing --flash-attn -o json"));
        QVERIFY2(r.code == 0 || r.code == 1, qPrintable(r.err));
        const QJsonObject o = json(r);
        const QJsonObject q = o.value(QLatin1String("quota")).toObject();
        QCOMPARE(q.value(QLatin1String("namespace")).toString(), QStringLiteral("team-vision"));
        QCOMPARE(q.value(QLatin1String("gpus_free")).toInt(), 3); // 16 hard, 13 running
        QCOMPARE(q.value(QLatin1String("gpus_source")).toString(), QStringLiteral("ResourceQuota"));
        QVERIFY(!q.value(QLatin1String("gpu_model")).toString().isEmpty());
        const double memory = q.value(QLatin1String("gpu_memory_bytes")).toDouble();
        QVERIFY(memory > 40e9);
        QCOMPARE(o.value(QLatin1String("gpu_memory_bytes")).toDouble(), memory);
        // The same numbers from the flags.
        const CliRun byHand =
            runCli(gpuquotaBinary(), words("advise --model llama-2-7b --gpus 3 --gradient-checkpointing "
                                           "--flash-attn -o json --gpu-memory") +
                                         QStringList{QString::number(qint64(memory))});
        QCOMPARE(byHand.code, r.code);
        QCOMPARE(json(byHand).value(QLatin1String("per_gpu_bytes")), o.value(QLatin1String("per_gpu_bytes")));
        QCOMPARE(json(byHand).value(QLatin1String("recommendation")),
                 o.value(QLatin1String("recommendation")));
        // A namespace on MIG slices (platform-ml: 14 of 3g.40gb, 6 running): slices of 40 GiB.
        const CliRun mig =
            runCli(gpuquotaBinary(), kube + words("advise --params 1B --namespace platform-ml -o json"));
        const QJsonObject mq = json(mig).value(QLatin1String("quota")).toObject();
        QCOMPARE(mq.value(QLatin1String("gpus_free")).toInt(), 8);
        QCOMPARE(mq.value(QLatin1String("gpu_model")).toString(), QStringLiteral("nvidia.com/mig-3g.40gb"));
        QCOMPARE(mq.value(QLatin1String("gpu_memory_bytes")).toDouble(), 40.0 * 1024 * 1024 * 1024);
        // A cluster that cannot be reached is bad input of --namespace.
        const CliRun bad = runCli(gpuquotaBinary(),
                                  words("advise --model llama-2-7b --namespace x --kubeconfig /nonexistent"));
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains(QLatin1String("--namespace")), qPrintable(bad.err));
    }
};

QTEST_GUILESS_MAIN(TestCliAdvise)
#include "tst_cli_advise.moc"
