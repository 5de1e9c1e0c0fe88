// Idle detection on synthetic series with known answers: threshold edges, gaps in the
// data, pods restarted on the same GPU, shared GPUs, MIG weights, and a Prometheus
// matrix turned into timelines.
#include "idle.h"

#include <QTest>

using namespace gq::metrics;

namespace {

constexpr qint64 kMin = 60000;
const GpuHolder kA{QStringLiteral("team-a"), QStringLiteral("train-1"), QStringLiteral("main"), {}};
const GpuHolder kB{QStringLiteral("team-b"), QStringLiteral("infer-2"), QStringLiteral("main"), {}};

GpuSample gpu(int index, const QString &mig = {}) {
    GpuSample g;
    g.hostname = QStringLiteral("n1");
    g.gpu = index;
    g.uuid = QStringLiteral("GPU-%1").arg(index);
    g.model = QStringLiteral("NVIDIA A100-SXM4-80GB");
    if (!mig.isEmpty()) {
        g.migProfile = mig;
        g.gpuInstance = QStringLiteral("1");
    }
    return g;
}

// One reading a minute from minute `from` to `to` inclusive, utilization util(minute).
GpuTimeline timeline(
    const GpuSample &g, int from, int to, const std::function<std::optional<double>(int)> &util,
    const std::function<QList<GpuHolder>(int)> &holders = [](int) { return QList<GpuHolder>{kA}; }) {
    GpuTimeline tl{g, {}};
    for (int m = from; m <= to; ++m)
        tl.readings.append(GpuReading{m * kMin, util(m), holders(m)});
    return tl;
}

IdleOptions opts(int nowMinute, double threshold = 5, int forMinutes = 30) {
    IdleOptions o;
    o.thresholdPct = threshold;
    o.minIdleMs = forMinutes * kMin;
    o.maxGapMs = 2 * kMin;
    o.nowMs = nowMinute * kMin;
    return o;
}

} // namespace

class TestIdle : public QObject {
    Q_OBJECT
private slots:
    void idleSinceTheLastBusyReading();
    void thresholdEdges_data();
    void thresholdEdges();
    void durationEdge();
    void gapsBreakTheSpan();
    void unknownReadingsBreakTheSpan();
    void podRestartOnTheSameGpu();
    void restartWithTheSameNameButANewUid();
    void freeOrSilentGpusAreNotIdle();
    void sharedGpuIsOneRowWithAllHolders();
    void migWeightsAndSortByWaste();
    void timelinesFromAPrometheusMatrix();
};

void TestIdle::idleSinceTheLastBusyReading() {
    // Busy until minute 20, then 1% for minutes 21..120.
    const auto tl = timeline(gpu(0), 0, 120, [](int m) { return m <= 20 ? 80.0 : 1.0; });
    const auto idle = findIdleGpus({tl}, opts(120));
    QCOMPARE(idle.size(), 1);
    QCOMPARE(idle[0].sinceMs, 21 * kMin);
    QCOMPARE(idle[0].idleMs, 99 * kMin);
    QCOMPARE(idle[0].gpuHoursWasted, 99.0 / 60.0);
    QCOMPARE(idle[0].meanUtilPct, 1.0);
    QCOMPARE(idle[0].holders, QList<GpuHolder>{kA});
}

void TestIdle::thresholdEdges_data() {
    QTest::addColumn<double>("util");
    QTest::addColumn<bool>("idle");
    QTest::newRow("0") << 0.0 << true;
    QTest::newRow("4.99") << 4.99 << true;
    QTest::newRow("exactly 5 is not under 5") << 5.0 << false;
    QTest::newRow("5.01") << 5.01 << false;
}

void TestIdle::thresholdEdges() {
    QFETCH(double, util);
    QFETCH(bool, idle);
    const auto tl = timeline(gpu(0), 0, 60, [util](int) { return util; });
    QCOMPARE(findIdleGpus({tl}, opts(60)).size(), idle ? 1 : 0);
}

void TestIdle::durationEdge() {
    // Idle from minute 30 to 60: exactly 30 minutes is enough, 29 is not.
    const auto tl = timeline(gpu(0), 0, 60, [](int m) { return m < 30 ? 50.0 : 0.0; });
    QCOMPARE(findIdleGpus({tl}, opts(60, 5, 30)).size(), 1);
    QCOMPARE(findIdleGpus({tl}, opts(60, 5, 31)).size(), 0);
}

void TestIdle::gapsBreakTheSpan() {
    // Idle all along, but nothing reported between minutes 40 and 50 (a scrape outage):
    // only the 50..100 part is known to be idle.
    auto tl = timeline(gpu(0), 0, 100, [](int) { return 0.0; });
    tl.readings.erase(
        std::remove_if(tl.readings.begin(), tl.readings.end(),
                       [](const GpuReading &r) { return r.tMs > 40 * kMin && r.tMs < 50 * kMin; }),
        tl.readings.end());
    const auto idle = findIdleGpus({tl}, opts(100));
    QCOMPARE(idle.size(), 1);
    QCOMPARE(idle[0].sinceMs, 50 * kMin);
    // A missed scrape (one reading, gap 2 min = maxGap) does not break it.
    auto one = timeline(gpu(0), 0, 100, [](int) { return 0.0; });
    one.readings.removeAt(60);
    QCOMPARE(findIdleGpus({one}, opts(100))[0].sinceMs, 0);
}

void TestIdle::unknownReadingsBreakTheSpan() {
    const auto tl = timeline(gpu(0), 0, 100, [](int m) -> std::optional<double> {
        if (m == 55)
            return std::nullopt; // NaN or a DCGM blank
        return 0.0;
    });
    QCOMPARE(findIdleGpus({tl}, opts(100))[0].sinceMs, 56 * kMin);
}

void TestIdle::podRestartOnTheSameGpu() {
    // train-1 idles 0..59, crashes; infer-2 gets the GPU at 60 and idles too. The new
    // pod is idle since 60, not since 0.
    const auto tl = timeline(
        gpu(0), 0, 120, [](int) { return 0.0; }, [](int m) { return QList<GpuHolder>{m < 60 ? kA : kB}; });
    const auto idle = findIdleGpus({tl}, opts(120));
    QCOMPARE(idle.size(), 1);
    QCOMPARE(idle[0].sinceMs, 60 * kMin);
    QCOMPARE(idle[0].holders, QList<GpuHolder>{kB});
    // Restarted at 100: 20 minutes is under the 30-minute rule.
    const auto late = timeline(
        gpu(0), 0, 120, [](int) { return 0.0; }, [](int m) { return QList<GpuHolder>{m < 100 ? kA : kB}; });
    QVERIFY(findIdleGpus({late}, opts(120)).isEmpty());
}

void TestIdle::restartWithTheSameNameButANewUid() {
    GpuHolder first = kA, second = kA;
    first.uid = QStringLiteral("uid-1");
    second.uid = QStringLiteral("uid-2");
    const auto tl = timeline(
        gpu(0), 0, 120, [](int) { return 0.0; },
        [&](int m) { return QList<GpuHolder>{m < 80 ? first : second}; });
    QCOMPARE(findIdleGpus({tl}, opts(120))[0].sinceMs, 80 * kMin);
}

void TestIdle::freeOrSilentGpusAreNotIdle() {
    const auto free = timeline(
        gpu(0), 0, 120, [](int) { return 0.0; }, [](int) { return QList<GpuHolder>{}; });
    QVERIFY(findIdleGpus({free}, opts(120)).isEmpty());
    // Allocated and idle, but its last reading is 10 minutes old: not "now".
    const auto silent = timeline(gpu(1), 0, 110, [](int) { return 0.0; });
    QVERIFY(findIdleGpus({silent}, opts(120)).isEmpty());
}

void TestIdle::sharedGpuIsOneRowWithAllHolders() {
    const auto tl = timeline(
        gpu(0), 0, 60, [](int) { return 2.0; },
        [](int) {
            return QList<GpuHolder>{kA, kB};
        });
    const auto idle = findIdleGpus({tl}, opts(60));
    QCOMPARE(idle.size(), 1);
    QCOMPARE(idle[0].holders.size(), 2);
    QCOMPARE(idle[0].gpuHoursWasted, 1.0); // the GPU's hour, not one per holder
    // One of the two leaves at 40: the span restarts with the new holder set.
    const auto leave = timeline(
        gpu(0), 0, 60, [](int) { return 2.0; },
        [](int m) {
            return m < 40 ? QList<GpuHolder>{kA, kB} : QList<GpuHolder>{kB};
        });
    QVERIFY(findIdleGpus({leave}, opts(60)).isEmpty());
}

void TestIdle::migWeightsAndSortByWaste() {
    QCOMPARE(gpuWeight(gpu(0)), 1.0);
    QCOMPARE(gpuWeight(gpu(0, QStringLiteral("3g.40gb"))), 3.0 / 7.0);
    GpuSample a30 = gpu(0, QStringLiteral("2g.12gb"));
    a30.model = QStringLiteral("NVIDIA A30");
    QCOMPARE(gpuWeight(a30), 0.5);
    const auto whole = timeline(gpu(0), 0, 60, [](int) { return 0.0; });
    const auto slice = timeline(gpu(1, QStringLiteral("1g.10gb")), 0, 120, [](int) { return 0.0; });
    const auto longer = timeline(gpu(2), 0, 120, [](int m) { return m < 30 ? 90.0 : 0.0; });
    const auto idle = findIdleGpus({whole, slice, longer}, opts(120));
    // whole: its last reading is at 60, an hour before now: not idle now.
    QCOMPARE(idle.size(), 2);
    QCOMPARE(*idle[0].gpu.gpu, 2);
    QCOMPARE(idle[0].gpuHoursWasted, 1.5);
    QCOMPARE(idle[1].gpuHoursWasted, 2.0 / 7.0);
}

void TestIdle::timelinesFromAPrometheusMatrix() {
    // Two steps of a query_range answer: GPU 0 held by train-1 (through exported_*),
    // GPU 1 a MIG instance with engine activity as a ratio.
    PromResult m;
    m.resultType = QStringLiteral("matrix");
    PromSeries util{{{QStringLiteral("__name__"), QStringLiteral("DCGM_FI_DEV_GPU_UTIL")},
                     {QStringLiteral("gpu"), QStringLiteral("0")},
                     {QStringLiteral("UUID"), QStringLiteral("GPU-0")},
                     {QStringLiteral("Hostname"), QStringLiteral("n1")},
                     {QStringLiteral("pod"), QStringLiteral("dcgm-exporter-x")},
                     {QStringLiteral("exported_namespace"), QStringLiteral("team-a")},
                     {QStringLiteral("exported_pod"), QStringLiteral("train-1")},
                     {QStringLiteral("exported_container"), QStringLiteral("main")}},
                    {{60, 3}, {120, 4}}};
    PromSeries engine{{{QStringLiteral("__name__"), QStringLiteral("DCGM_FI_PROF_GR_ENGINE_ACTIVE")},
                       {QStringLiteral("gpu"), QStringLiteral("1")},
                       {QStringLiteral("UUID"), QStringLiteral("GPU-1")},
                       {QStringLiteral("Hostname"), QStringLiteral("n1")},
                       {QStringLiteral("GPU_I_PROFILE"), QStringLiteral("1g.10gb")},
                       {QStringLiteral("GPU_I_ID"), QStringLiteral("9")}},
                      {{60, 0.5}, {120, 0.25}}};
    m.series = {util, engine};
    const auto tls = timelinesFromRange(m);
    QCOMPARE(tls.size(), 2);
    QCOMPARE(tls[0].gpu.uuid, QStringLiteral("GPU-0"));
    QCOMPARE(tls[0].readings.size(), 2);
    QCOMPARE(tls[0].readings[1].tMs, Q_INT64_C(120000));
    QCOMPARE(*tls[0].readings[1].utilPct, 4.0);
    QCOMPARE(tls[0].readings[1].holders, (QList<GpuHolder>{{"team-a", "train-1", "main", {}}}));
    QCOMPARE(tls[1].gpu.gpuInstance, QStringLiteral("9"));
    QCOMPARE(*tls[1].readings[0].utilPct, 50.0);
    QVERIFY(tls[1].readings[0].holders.isEmpty());
}

QTEST_GUILESS_MAIN(TestIdle)
#include "tst_idle.moc"
