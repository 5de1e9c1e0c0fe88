// The dcgm-exporter mapping on every real sample in tests/fixtures/dcgm/ (expected
// values written by hand from the files), and every variant of labels and units giving
// the same numbers.
#include "core/metrics/exposition.h"
#include "core/metrics/gpusample.h"

#include <QFile>
#include <QTest>

using namespace gq::metrics;

namespace {

GpuSnapshot fromText(const QByteArray &text, int expectedIssues = 0) {
    const Exposition e = parseExposition(text);
    if (e.issueCount != expectedIssues)
        qWarning("unexpected issues: %d (%s)", e.issueCount, qPrintable(e.issues.value(0).toString()));
    return gpusFromSamples(e.samples, e.help);
}

GpuSnapshot fromSample(const char *name) {
    QFile f(QStringLiteral(GQ_TEST_FIXTURES "/dcgm/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", name);
    const Exposition e = parseExposition(f.readAll());
    if (e.issueCount != 0)
        qFatal("fixture %s has parse issues: %s", name, qPrintable(e.issues.value(0).toString()));
    return gpusFromSamples(e.samples, e.help);
}

// Every reading of a row in one line, "null" for unknown, to compare rows as text.
QString row(const GpuSample &g) {
    auto n = [](const std::optional<double> &v) {
        return v ? QString::number(*v, 'g', 10) : QStringLiteral("null");
    };
    auto s = [](const QString &v) { return v.isNull() ? QStringLiteral("null") : v; };
    QStringList holders;
    for (const GpuHolder &h : g.holders)
        holders << h.ns + u'/' + h.pod + u'/' + s(h.container);
    return QStringLiteral("%1 gpu=%2 uuid=%3 model=%4 mig=%5/%6 util=%7 used=%8 free=%9 power=%10 temp=%11 "
                          "shared=%12 holders=[%13]")
        .arg(s(g.hostname), g.gpu ? QString::number(*g.gpu) : QStringLiteral("null"), s(g.uuid), s(g.model),
             s(g.migProfile), s(g.gpuInstance), n(g.utilPct), n(g.fbUsedMib), n(g.fbFreeMib))
        .arg(n(g.powerW), n(g.tempC), g.shared ? QStringLiteral("yes") : QStringLiteral("no"),
             holders.join(u','));
}

QStringList rows(const GpuSnapshot &s) {
    QStringList out;
    for (const GpuSample &g : s.gpus)
        out << row(g);
    return out;
}

} // namespace

class TestDcgmSamples : public QObject {
    Q_OBJECT
private slots:
    void v100WithoutKubernetes();
    void migWithOldLabelNames();
    void driverVersionLabel();
    void oldExporterEmptyPodLabels();
    void draSharedGh200();
    void draClaimLabelsNameTheClaim();
    void t4WithPodLabels();

    void utilizationPercentOrRatio();
    void memoryMibOrBytes();
    void hostnameAndUuidSpellings();
    void exportedLabelsThroughPrometheus();
    void mixedAnswerFromTwoJobs();
    void indexReuseAcrossNodes();
    void timeSlicedGpuIsOneSharedRow();
    void exporterPodIsNotAHolder();
    void blanksAndNaNAreUnknown();
    void migUnderPhysicalGpu();
    void helpTextSettlesUnits();
};

void TestDcgmSamples::v100WithoutKubernetes() {
    const GpuSnapshot s = fromSample("dcgm-exporter-issue250-v100-no-k8s.prom");
    QCOMPARE(rows(s),
             (QStringList{
                 "r6i3n0 gpu=0 uuid=GPU-a6158b59-2c1e-1e63-0068-9178c4298abd model=Tesla V100-SXM2-32GB "
                 "mig=null/null util=0 used=null free=null power=null temp=null shared=no holders=[]",
                 "r6i3n0 gpu=1 uuid=GPU-8d5053b3-9280-7d1a-751b-4fd2fdd547c5 model=Tesla V100-SXM2-32GB "
                 "mig=null/null util=null used=null free=null power=null temp=null shared=no holders=[]",
                 "r6i3n0 gpu=2 uuid=GPU-a9079f15-493e-6c1c-c78c-73ec2b840cba model=Tesla V100-SXM2-32GB "
                 "mig=null/null util=null used=null free=null power=null temp=null shared=no holders=[]",
                 "r6i3n0 gpu=3 uuid=GPU-bd94f0f5-8c2f-bc95-74ad-5f99fdc33d01 model=Tesla V100-SXM2-32GB "
                 "mig=null/null util=null used=null free=null power=null temp=null shared=no holders=[]",
             }));
    QVERIFY(s.variants.describe().isEmpty());
}

void TestDcgmSamples::migWithOldLabelNames() {
    // Lower-case metric name, uuid, pod_name/pod_namespace/container_name (all empty),
    // no Hostname; instances report GR_ENGINE_ACTIVE (a ratio) and no GPU_UTIL.
    const GpuSnapshot s = fromSample("dcgm-exporter-issue272-mig-old-namespace.prom");
    QCOMPARE(rows(s),
             (QStringList{
                 "null gpu=0 uuid=GPU-ed1353d6-52ba-8793-7230-4d5d3eb68167 model=NVIDIA A100 80GB PCIe "
                 "mig=null/null util=null used=null free=null power=null temp=null shared=no holders=[]",
                 "null gpu=0 uuid=GPU-ed1353d6-52ba-8793-7230-4d5d3eb68167 model=NVIDIA A100 80GB PCIe "
                 "mig=3g.40gb/1 util=0 used=null free=null power=null temp=null shared=no holders=[]",
                 "null gpu=0 uuid=GPU-ed1353d6-52ba-8793-7230-4d5d3eb68167 model=NVIDIA A100 80GB PCIe "
                 "mig=4g.40gb/2 util=0 used=null free=null power=null temp=null shared=no holders=[]",
                 "null gpu=1 uuid=GPU-6043e4b2-feaa-8010-34c7-61d1a01576bb model=NVIDIA A100 80GB PCIe "
                 "mig=null/null util=null used=null free=null power=null temp=null shared=no holders=[]",
                 "null gpu=1 uuid=GPU-6043e4b2-feaa-8010-34c7-61d1a01576bb model=NVIDIA A100 80GB PCIe "
                 "mig=3g.40gb/1 util=0 used=null free=null power=null temp=null shared=no holders=[]",
             }));
    QVERIFY(s.variants.oldLabelNames);
}

void TestDcgmSamples::driverVersionLabel() {
    const GpuSnapshot s = fromSample("dcgm-exporter-issue363-driver-version-label.prom");
    QCOMPARE(rows(s),
             (QStringList{
                 "k8s-gpu1 gpu=0 uuid=GPU-7ad09335-aadb-19c3-e3a8 model=NVIDIA RTX A5000 mig=null/null "
                 "util=0 used=21383 free=null power=null temp=null shared=no holders=[]",
             }));
    QVERIFY(!s.variants.memoryInBytes);
}

void TestDcgmSamples::oldExporterEmptyPodLabels() {
    // container="",namespace="",pod="": free GPUs. Hostname is the exporter's pod here.
    const GpuSnapshot s = fromSample("dcgm-exporter-issue58-empty-pod-labels.prom");
    QCOMPARE(s.gpus.size(), 5);
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(s.gpus[i].hostname, QStringLiteral("dcgm-exporter-lcxpl"));
        QCOMPARE(*s.gpus[i].gpu, i);
        QCOMPARE(s.gpus[i].model, QStringLiteral("NVIDIA TITAN V"));
        QVERIFY(s.gpus[i].holders.isEmpty());
        QVERIFY(!s.gpus[i].utilPct); // only SM clocks in this excerpt
    }
    QCOMPARE(s.gpus[4].uuid, QStringLiteral("GPU-58fae45b-e5a5-0c62-d478-8ff7c485e74e"));
}

void TestDcgmSamples::draSharedGh200() {
    // Two containers of one pod on GPU 0 through a shared DRA claim: one row, shared.
    const GpuSnapshot s = fromSample("dcgm-exporter-pr570-dra-gh200.prom");
    QCOMPARE(
        rows(s),
        (QStringList{
            "sc-starwars-mab9-b00 gpu=0 uuid=GPU-a4f34abc-7715-3560-dcea-7238b9611a45 model=NVIDIA GH200 "
            "96GB HBM3 mig=null/null util=null used=null free=null power=null temp=null shared=yes "
            "holders=[gpu-test2/pod/ctr0,gpu-test2/pod/ctr1]",
            "sc-starwars-mab9-b00 gpu=1 uuid=GPU-9e6df7cb-64d4-5e53-2b1d-cee9e58aeb94 model=NVIDIA GH200 "
            "96GB HBM3 mig=null/null util=null used=null free=null power=null temp=null shared=no holders=[]",
        }));
}

// dcgm-exporter's DRA labels: the claim a holder holds the GPU through; a series with
// only the claim (no pod label) is resolved to the pods the claim is reserved for.
void TestDcgmSamples::draClaimLabelsNameTheClaim() {
    const GpuSnapshot s = fromSample("dcgm-exporter-pr570-dra-gh200.prom");
    QCOMPARE(s.gpus[0].holders.size(), 2);
    QCOMPARE(s.gpus[0].holders[0].claim, QStringLiteral("gpu-test2/pod-shared-gpu-64std"));
    QVERIFY(s.gpus[1].holders.isEmpty());

    GpuSnapshot claimOnly =
        fromText("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-1\",Hostname=\"n1\",dra_claim_name=\"team-gpu\","
                 "dra_claim_namespace=\"ml\",dra_device_name=\"gpu-0\",dra_driver_name=\"gpu.nvidia.com\","
                 "dra_pool_name=\"n1\"} 40\n");
    QCOMPARE(claimOnly.gpus.size(), 1);
    QCOMPARE(claimOnly.gpus[0].holders.size(), 1);
    QCOMPARE(claimOnly.gpus[0].holders[0].ns, QStringLiteral("ml"));
    QVERIFY(claimOnly.gpus[0].holders[0].pod.isEmpty());
    QCOMPARE(claimsWithoutPods(claimOnly.gpus), QStringList{QStringLiteral("ml/team-gpu")});
    QVERIFY(claimsWithoutPods(s.gpus).isEmpty()); // claim and pod labels: nothing to look up
    QHash<QString, QStringList> podsByClaim;
    podsByClaim.insert(QStringLiteral("ml/team-gpu"), {QStringLiteral("train-a"), QStringLiteral("train-b")});
    resolveClaimHolders(claimOnly.gpus, podsByClaim);
    QVERIFY(claimsWithoutPods(claimOnly.gpus).isEmpty());
    QCOMPARE(claimOnly.gpus[0].holders.size(), 2);
    QCOMPARE(claimOnly.gpus[0].holders[1].pod, QStringLiteral("train-b"));
    QCOMPARE(claimOnly.gpus[0].holders[1].claim, QStringLiteral("ml/team-gpu"));
    QVERIFY(claimOnly.gpus[0].shared);
    // A claim the cluster does not know stays a claim-only holder.
    GpuSnapshot unknown =
        fromText("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-1\",Hostname=\"n1\",dra_claim_name=\"gone\","
                 "dra_claim_namespace=\"ml\"} 40\n");
    resolveClaimHolders(unknown.gpus, podsByClaim);
    QCOMPARE(unknown.gpus[0].holders.size(), 1);
    QVERIFY(unknown.gpus[0].holders[0].pod.isEmpty());
}

void TestDcgmSamples::t4WithPodLabels() {
    const GpuSnapshot s = fromSample("gpu-operator-issue340-t4-pod-labels.prom");
    QCOMPARE(rows(s), (QStringList{
                          "nvidia-dcgm-exporter-ml2wh gpu=0 uuid=GPU-e1200d64-e918-4277-cad9-75da90b9f618 "
                          "model=Tesla T4 mig=null/null util=null used=null free=15109 power=null temp=null "
                          "shared=no holders=[default/dcgmproftester/dcgmproftester11]",
                      }));
}

void TestDcgmSamples::utilizationPercentOrRatio() {
    const QByteArray percent = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 42\n"
                               "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 1\n";
    const QByteArray ratio = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 0.42\n"
                             "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 0.01\n";
    const GpuSnapshot p = fromText(percent), r = fromText(ratio);
    QCOMPARE(*p.gpus[0].utilPct, 42.0);
    QCOMPARE(*p.gpus[1].utilPct, 1.0);
    QVERIFY(!p.variants.utilAsRatio);
    QVERIFY(r.variants.utilAsRatio);
    QCOMPARE(rows(r), rows(p));
    // GR_ENGINE_ACTIVE in percent (a recording rule that multiplied already) is kept.
    const GpuSnapshot e =
        fromText("DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 42\n");
    QCOMPARE(*e.gpus[0].utilPct, 42.0);
    QVERIFY(e.variants.engineAsPercent);
}

void TestDcgmSamples::memoryMibOrBytes() {
    const QByteArray mib = "DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 21383\n"
                           "DCGM_FI_DEV_FB_FREE{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 3181\n"
                           "DCGM_FI_DEV_FB_USED{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 0\n"
                           "DCGM_FI_DEV_FB_FREE{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 24564\n";
    const QByteArray bytes =
        "DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 22421700608\n"
        "DCGM_FI_DEV_FB_FREE{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 3335520256\n"
        "DCGM_FI_DEV_FB_USED{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 0\n"
        "DCGM_FI_DEV_FB_FREE{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 2.5757220864e+10\n";
    const GpuSnapshot m = fromText(mib), b = fromText(bytes);
    QCOMPARE(*m.gpus[0].fbUsedMib, 21383.0);
    QCOMPARE(*m.gpus[0].fbFreeMib, 3181.0);
    QVERIFY(!m.variants.memoryInBytes);
    QVERIFY(b.variants.memoryInBytes);
    QCOMPARE(rows(b), rows(m));
}

void TestDcgmSamples::hostnameAndUuidSpellings() {
    const QByteArray upper = "DCGM_FI_DEV_GPU_TEMP{gpu=\"3\",UUID=\"GPU-x\",Hostname=\"node-7\",modelName="
                             "\"NVIDIA H100 80GB HBM3\"} 41\n";
    const QByteArray lower = "DCGM_FI_DEV_GPU_TEMP{hostname=\"node-7\",uuid=\"GPU-x\",modelName=\"NVIDIA "
                             "H100 80GB HBM3\",gpu=\"3\"} 41\n";
    const GpuSnapshot u = fromText(upper), l = fromText(lower);
    QCOMPARE(rows(l), rows(u));
    QCOMPARE(*u.gpus[0].tempC, 41.0);
    QCOMPARE(u.gpus[0].hostname, QStringLiteral("node-7"));
    QVERIFY(l.variants.lowerCaseHostname);
    QVERIFY(l.variants.oldLabelNames);
}

void TestDcgmSamples::exportedLabelsThroughPrometheus() {
    // honor_labels: false: the exporter's own pod is in namespace/pod on every series,
    // the workload in exported_*.
    const QByteArray viaProm =
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\",namespace=\"gpu-operator\",pod="
        "\"nvidia-dcgm-exporter-7kq2d\",container=\"nvidia-dcgm-exporter\",exported_namespace=\"team-a\","
        "exported_pod=\"train-1\",exported_container=\"main\",instance=\"10.0.0.5:9400\",job=\"dcgm\"} 87\n"
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\",namespace=\"gpu-operator\",pod="
        "\"nvidia-dcgm-exporter-7kq2d\",container=\"nvidia-dcgm-exporter\",instance=\"10.0.0.5:9400\",job="
        "\"dcgm\"} 0\n";
    const QByteArray direct = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\",namespace="
                              "\"team-a\",pod=\"train-1\",container=\"main\"} 87\n"
                              "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 0\n";
    const GpuSnapshot p = fromText(viaProm), d = fromText(direct);
    QVERIFY(p.variants.exportedLabels);
    QCOMPARE(rows(p), rows(d));
    QCOMPARE(p.gpus[0].holders, (QList<GpuHolder>{{"team-a", "train-1", "main", {}}}));
    QVERIFY(p.gpus[1].holders.isEmpty());
}

void TestDcgmSamples::mixedAnswerFromTwoJobs() {
    // mixed.prom: one Prometheus answer from two jobs, node n1 scraped with honor_labels:
    // true (plain pod labels), node n2 with honor_labels: false (the workload in
    // exported_*, the exporter's pod in the plain labels of every series). Each series is
    // read by its own labels: n1's holders are not lost because n2 renamed its own.
    const QByteArray mixed =
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-n1a\",Hostname=\"n1\",namespace=\"team-a\",pod=\"train-"
        "1\",container=\"main\",instance=\"10.0.0.1:9400\",job=\"dcgm-honor\"} 91\n"
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-n1b\",Hostname=\"n1\",instance=\"10.0.0.1:9400\",job="
        "\"dcgm-honor\"} 0\n"
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-n2a\",Hostname=\"n2\",namespace=\"gpu-operator\",pod="
        "\"exporter-on-n2\",container=\"exporter\",exported_namespace=\"team-b\",exported_pod=\"infer-7\","
        "exported_container=\"srv\",instance=\"10.0.0.2:9400\",job=\"dcgm-exported\"} 42\n"
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-n2b\",Hostname=\"n2\",namespace=\"gpu-operator\",pod="
        "\"exporter-on-n2\",container=\"exporter\",instance=\"10.0.0.2:9400\",job=\"dcgm-exported\"} 3\n";
    const GpuSnapshot s = fromText(mixed);
    QCOMPARE(s.gpus.size(), 4);
    QVERIFY(s.variants.exportedLabels);
    QCOMPARE(s.gpus[0].uuid, QStringLiteral("GPU-n1a"));
    QCOMPARE(s.gpus[0].holders, (QList<GpuHolder>{{"team-a", "train-1", "main", {}}}));
    QVERIFY(s.gpus[1].holders.isEmpty());
    QCOMPARE(s.gpus[2].holders, (QList<GpuHolder>{{"team-b", "infer-7", "srv", {}}}));
    // The free GPU of the renaming job: its plain labels name the exporter's pod (here
    // under a name no rule would recognise), not a holder.
    QVERIFY(s.gpus[3].holders.isEmpty());
    // Each part alone reads the same as within the mixed answer.
    const QList<QByteArray> lines = mixed.split('\n');
    QCOMPARE(rows(fromText(lines[0] + '\n' + lines[1] + '\n')), rows(s).mid(0, 2));
    QCOMPARE(rows(fromText(lines[2] + '\n' + lines[3] + '\n')), rows(s).mid(2, 2));
}

void TestDcgmSamples::indexReuseAcrossNodes() {
    QByteArray text;
    for (const char *node : {"node-a", "node-b"})
        for (int i = 0; i < 8; ++i)
            text += QByteArray("DCGM_FI_DEV_GPU_UTIL{gpu=\"") + QByteArray::number(i) + "\",UUID=\"GPU-" +
                    node + QByteArray::number(i) + "\",Hostname=\"" + node + "\"} " +
                    QByteArray::number(i * 10) + "\n";
    const GpuSnapshot s = fromText(text);
    QCOMPARE(s.gpus.size(), 16);
    QCOMPARE(s.gpus[8].hostname, QStringLiteral("node-b"));
    QCOMPARE(*s.gpus[8].gpu, 0);
    QCOMPARE(*s.gpus[9].utilPct, 10.0);
    // Without UUIDs (a stripped relabeling) the hostname still keeps them apart.
    const GpuSnapshot n = fromText("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"a\"} "
                                   "1\nDCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"b\"} 2\n");
    QCOMPARE(n.gpus.size(), 2);
}

void TestDcgmSamples::timeSlicedGpuIsOneSharedRow() {
    const QByteArray text = "DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\",namespace=\"team-"
                            "a\",pod=\"p1\",container=\"c\"} 1000\n"
                            "DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\",namespace=\"team-"
                            "b\",pod=\"p2\",container=\"c\"} 1000\n"
                            "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\",namespace=\"team-"
                            "a\",pod=\"p1\",container=\"c\"} 30\n"
                            "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\",namespace=\"team-"
                            "b\",pod=\"p2\",container=\"c\"} 30\n"
                            "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\",namespace="
                            "\"team-a\",pod=\"p1\",container=\"c\"} 302.206000\n"
                            "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\",namespace="
                            "\"team-b\",pod=\"p2\",container=\"c\"} 302.206000\n";
    const GpuSnapshot s = fromText(text);
    QCOMPARE(rows(s), (QStringList{
                          "n1 gpu=0 uuid=GPU-a model=null mig=null/null util=30 used=1000 free=null "
                          "power=302.206 temp=null shared=yes holders=[team-a/p1/c,team-b/p2/c]",
                      }));
}

void TestDcgmSamples::exporterPodIsNotAHolder() {
    QVERIFY(isExporterPod(QStringLiteral("dcgm-exporter-lcxpl"), {}, {}));
    QVERIFY(isExporterPod(QStringLiteral("nvidia-dcgm-exporter-ml2wh"), {}, {}));
    QVERIFY(isExporterPod(QStringLiteral("anything"), {}, QStringLiteral("anything")));
    QVERIFY(isExporterPod(QStringLiteral("x"), QStringLiteral("nvidia-dcgm-exporter"), {}));
    QVERIFY(!isExporterPod(QStringLiteral("dcgmproftester"), QStringLiteral("dcgmproftester11"),
                           QStringLiteral("nvidia-dcgm-exporter-ml2wh")));
    QVERIFY(!isExporterPod(QStringLiteral("my-dcgm-exporterish"), {}, {}));
    // honor_labels false while no GPU is allocated: no exported_* anywhere, the plain
    // labels name the exporter on every series. All free.
    const GpuSnapshot s = fromText("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\",namespace="
                                   "\"gpu-operator\",pod=\"nvidia-dcgm-exporter-7kq2d\"} 0\n");
    QVERIFY(s.gpus[0].holders.isEmpty());
}

void TestDcgmSamples::blanksAndNaNAreUnknown() {
    const GpuSnapshot s = fromText("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\"} NaN\n"
                                   "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\"} 9223372036854775794\n"
                                   "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-a\"} +Inf\n"
                                   "DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-a\"} 0\n");
    QCOMPARE(s.gpus.size(), 1);
    QVERIFY(!s.gpus[0].utilPct);
    QVERIFY(!s.gpus[0].powerW);
    QVERIFY(!s.gpus[0].tempC);
    QCOMPARE(*s.gpus[0].fbUsedMib, 0.0); // a real 0 stays 0
    QVERIFY(s.gpus[0].hostname.isNull());
}

void TestDcgmSamples::migUnderPhysicalGpu() {
    const QByteArray text =
        "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-m\",Hostname=\"n1\",modelName=\"NVIDIA "
        "A100-SXM4-80GB\"} 180.5\n"
        "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-m\",Hostname=\"n1\",modelName=\"NVIDIA A100-SXM4-80GB\"} "
        "44\n"
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",UUID=\"GPU-m\",Hostname=\"n1\",modelName=\"NVIDIA "
        "A100-SXM4-80GB\",GPU_I_PROFILE=\"1g.10gb\",GPU_I_ID=\"13\",namespace=\"team-a\",pod=\"nb-1\","
        "container=\"jupyter\"} 0.255\n"
        "DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-m\",Hostname=\"n1\",modelName=\"NVIDIA "
        "A100-SXM4-80GB\",GPU_I_PROFILE=\"1g.10gb\",GPU_I_ID=\"13\",namespace=\"team-a\",pod=\"nb-1\","
        "container=\"jupyter\"} 2048\n"
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",UUID=\"GPU-m\",Hostname=\"n1\",modelName=\"NVIDIA "
        "A100-SXM4-80GB\",GPU_I_PROFILE=\"3g.40gb\",GPU_I_ID=\"2\"} 0\n"
        // A stray GPU_UTIL on an instance (some drivers) is not what we show for MIG.
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-m\",Hostname=\"n1\",modelName=\"NVIDIA "
        "A100-SXM4-80GB\",GPU_I_PROFILE=\"3g.40gb\",GPU_I_ID=\"2\"} 99\n";
    const GpuSnapshot s = fromText(text);
    QCOMPARE(rows(s), (QStringList{
                          "n1 gpu=0 uuid=GPU-m model=NVIDIA A100-SXM4-80GB mig=null/null util=null used=null "
                          "free=null power=180.5 temp=44 shared=no holders=[]",
                          "n1 gpu=0 uuid=GPU-m model=NVIDIA A100-SXM4-80GB mig=3g.40gb/2 util=0 used=null "
                          "free=null power=null temp=null shared=no holders=[]",
                          "n1 gpu=0 uuid=GPU-m model=NVIDIA A100-SXM4-80GB mig=1g.10gb/13 util=25.5 "
                          "used=2048 free=null power=null temp=null shared=no holders=[team-a/nb-1/jupyter]",
                      }));
}

void TestDcgmSamples::helpTextSettlesUnits() {
    // All-integer 0/1 values are ambiguous; the HELP text says which.
    const GpuSnapshot r = fromText("# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (ratio).\n"
                                   "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\"} 1\n");
    QCOMPARE(*r.gpus[0].utilPct, 100.0);
    const GpuSnapshot b = fromText("# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in bytes).\n"
                                   "DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-a\"} 1048576\n");
    QCOMPARE(*b.gpus[0].fbUsedMib, 1.0);
}

QTEST_GUILESS_MAIN(TestDcgmSamples)
#include "tst_dcgmsamples.moc"
