// Idle detection on synthetic series with known answers: threshold edges, gaps in the
// data, pods restarted on the same GPU, shared GPUs, MIG weights, a Prometheus matrix
// turned into timelines, the look-back in windows for spans that began long ago
// (idlequery.h), and the incremental tracker for sources without history.
#include "core/metrics/idle.h"
#include "core/metrics/idlequery.h"
#include "core/metrics/idlespanrows.h"

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
    void lookBackWindowsAreBoundedAndAligned();
    void idleSinceYesterdayIsFoundThroughOlderWindows();
    void aBurstBetweenCoarseInstantsEndsTheSpan();
    void otherHoldersEndTheSpanInAnOlderWindow();
    void historyQueryAndItsAnswer();
    void trackerAgreesWithTheTimelineRule();
    void spanRowIdentityRoundTrips();
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

namespace {

// The utilization at second t of a GPU busy (80 %) until idleStart and at 1 % after it,
// except in [burstFrom, burstTo) where it is busy again.
struct Story {
    double idleStart = 0;
    double burstFrom = -1, burstTo = -1;
    double at(double t) const {
        if (t >= burstFrom && t < burstTo)
            return 90;
        return t < idleStart ? 80 : 1;
    }
};

// One reading per step of `w`, at its instants.
GpuTimeline instants(const GpuSample &g, const RangeWindow &w, const Story &story) {
    GpuTimeline tl{g, {}};
    for (double t = w.start; t <= w.end + 1e-6; t += w.step)
        tl.readings.append(GpuReading{qint64(std::llround(t * 1000)), story.at(t), {kA}});
    return tl;
}

// What idleHistoryQuery answers for `w`: per instant the highest and the mean reading
// of the two steps before it, from a scrape every 15 s.
StepTimelines stepsOf(
    const GpuSample &g, const RangeWindow &w, const Story &story,
    const std::function<QList<GpuHolder>(double)> &holders = [](double) { return QList<GpuHolder>{kA}; }) {
    StepTimelines out{{GpuTimeline{g, {}}}, {GpuTimeline{g, {}}}};
    for (double t = w.start; t <= w.end + 1e-6; t += w.step) {
        double max = 0, sum = 0;
        int n = 0;
        QList<GpuHolder> seen; // every pod of the range: series of both when it changed hands
        for (double s = t - 2 * w.step + 15; s <= t + 1e-6; s += 15) {
            max = std::max(max, story.at(s));
            sum += story.at(s);
            ++n;
            for (const GpuHolder &h : holders(s))
                if (!seen.contains(h))
                    seen << h;
        }
        const qint64 ms = qint64(std::llround(t * 1000));
        out.max[0].readings.append(GpuReading{ms, max, seen});
        out.mean[0].readings.append(GpuReading{ms, sum / n, seen});
    }
    return out;
}

// As findIdleThroughPrometheus does it, on the synthetic story instead of Prometheus.
QList<IdleGpu> lookBack(
    const GpuSample &g, qint64 forSeconds, double now, const Story &story, int *windows = nullptr,
    const std::function<QList<GpuHolder>(double)> &olderHolders = [](double) {
        return QList<GpuHolder>{kA};
    }) {
    RangeWindow w = recentIdleWindow(forSeconds, now);
    IdleOptions o;
    o.minIdleMs = forSeconds * 1000;
    o.nowMs = qint64(now * 1000);
    o.maxGapMs = qint64(w.step * 2000) + 1;
    QList<IdleGpu> idle = findIdleGpus({instants(g, w, story)}, o);
    int n = 1;
    while (!idle.isEmpty() && idle[0].openAtStart) {
        const auto older = olderIdleWindow(w, now, IdleLookback{});
        if (!older)
            break;
        extendIdleSpans(idle, stepsOf(g, *older, story, olderHolders), *older, o.thresholdPct);
        w = *older;
        ++n;
    }
    if (windows)
        *windows = n;
    return idle;
}

constexpr double kNow = 1'700'000'030; // not on a step: the windows align themselves

} // namespace

void TestIdle::lookBackWindowsAreBoundedAndAligned() {
    const RangeWindow recent = recentIdleWindow(30 * 60, kNow);
    QCOMPARE(recent.step, 60.0);
    QCOMPARE(std::fmod(recent.end, 60.0), 0.0);
    QVERIFY(recent.end <= kNow && kNow - recent.end < 60);
    QCOMPARE(recent.end - recent.start, 3600.0); // twice --for
    // The same instants a few seconds later: the recorder sees the same `since`.
    QCOMPARE(recentIdleWindow(30 * 60, kNow + 5).start, recent.start);
    RangeWindow w = recent;
    int windows = 1;
    while (const auto older = olderIdleWindow(w, kNow, IdleLookback{})) {
        QVERIFY2(older->points() <= 501, qPrintable(QString::number(older->points())));
        QVERIFY(older->step >= w.step);
        QCOMPARE(std::fmod(older->start, older->step), 0.0);
        QVERIFY(older->end < w.start && w.start - older->end <= older->step); // no hole, no overlap
        w = *older;
        ++windows;
    }
    QCOMPARE(windows, 4); // 1 h, 8 h, 64 h, 7 days
    QVERIFY(kNow - w.start <= 7 * 86400 + w.step);
    QVERIFY(kNow - w.start >= 7 * 86400 - w.step);
    // A 5 s rule looks back 15 s at 1 s, and reaches a week in a few more windows.
    const RangeWindow fine = recentIdleWindow(5, kNow);
    QCOMPARE(fine.step, 1.0);
    QCOMPARE(fine.end - fine.start, 15.0);
}

void TestIdle::idleSinceYesterdayIsFoundThroughOlderWindows() {
    // Busy until 26 h ago, idle since. The recent window alone (an hour) would say
    // "since 1 h ago, 1 GPU-hour"; the older windows carry it back to yesterday.
    const Story story{kNow - 26 * 3600};
    int windows = 0;
    const QList<IdleGpu> idle = lookBack(gpu(0), 30 * 60, kNow, story, &windows);
    QCOMPARE(idle.size(), 1);
    QCOMPARE(windows, 3); // 1 h, 8 h, 64 h (where it was busy)
    const double sinceS = double(idle[0].sinceMs) / 1000.0;
    // Within the 64 h window's step (7 min) after the real start, never before the last
    // busy scrape (every 15 s here).
    QVERIFY2(sinceS > story.idleStart - 15 && sinceS - story.idleStart < 420,
             qPrintable(QString::number(sinceS - story.idleStart)));
    QVERIFY(!idle[0].openAtStart);
    QCOMPARE(idle[0].idleMs, idle[0].lastMs - idle[0].sinceMs);
    QVERIFY2(idle[0].gpuHoursWasted > 25.8 && idle[0].gpuHoursWasted < 26.01,
             qPrintable(QString::number(idle[0].gpuHoursWasted)));
    QCOMPARE(idle[0].gpuHoursWasted, double(idle[0].idleMs) / 3.6e6);
    QVERIFY(std::abs(idle[0].meanUtilPct - 1.0) < 1e-9);
    QCOMPARE(idle[0].maxUtilPct, 1.0);

    // Idle for more than a week: reported from the look-back's limit, marked at_least.
    const QList<IdleGpu> week = lookBack(gpu(0), 30 * 60, kNow, Story{kNow - 9 * 86400});
    QCOMPARE(week.size(), 1);
    QVERIFY(week[0].openAtStart);
    QVERIFY(kNow - double(week[0].sinceMs) / 1000.0 >= 7 * 86400 - 1200);
}

void TestIdle::aBurstBetweenCoarseInstantsEndsTheSpan() {
    // A 2-minute burst 10 h ago, in the 64 h window whose instants are 404 s apart: it
    // falls between two of them, and the step's maximum still sees it.
    Story story{kNow - 30 * 3600};
    story.burstFrom = kNow - 10 * 3600 - 200;
    story.burstTo = story.burstFrom + 120;
    const QList<IdleGpu> idle = lookBack(gpu(0), 30 * 60, kNow, story);
    QCOMPARE(idle.size(), 1);
    const double sinceS = double(idle[0].sinceMs) / 1000.0;
    QVERIFY2(sinceS > story.burstTo - 15 && sinceS - story.burstTo < 404,
             qPrintable(QString::number(sinceS - story.burstTo)));
}

void TestIdle::otherHoldersEndTheSpanInAnOlderWindow() {
    // Idle for two days, but train-1 got the GPU only 20 h ago: its span starts then.
    const Story story{kNow - 48 * 3600};
    const double handover = kNow - 20 * 3600;
    const QList<IdleGpu> idle = lookBack(gpu(0), 30 * 60, kNow, story, nullptr, [handover](double t) {
        return QList<GpuHolder>{t > handover ? kA : kB};
    });
    QCOMPARE(idle.size(), 1);
    const double sinceS = double(idle[0].sinceMs) / 1000.0;
    QVERIFY2(sinceS >= handover - 420 && sinceS <= handover + 420,
             qPrintable(QString::number(sinceS - handover)));
}

void TestIdle::historyQueryAndItsAnswer() {
    GpuSample a = gpu(0), b = gpu(1, QStringLiteral("3g.40gb"));
    const QString q = idleHistoryQuery({a, b}, 600);
    for (const char *part : {"max_over_time(", "avg_over_time(", "[1200s]", R"("gq_agg", "max")",
                             R"("gq_field", "DCGM_FI_PROF_GR_ENGINE_ACTIVE")", R"(UUID=~"GPU\\-0|GPU\\-1")",
                             R"(uuid=~"GPU\\-0|GPU\\-1")"})
        QVERIFY2(q.contains(QLatin1String(part)), qPrintable(part + QStringLiteral(" in ") + q));
    // A GPU without a UUID: every GPU is read.
    GpuSample noUuid = gpu(2);
    noUuid.uuid.clear();
    QVERIFY(!idleHistoryQuery({a, noUuid}, 60).contains(QLatin1String("UUID=~")));

    PromResult m;
    m.resultType = QStringLiteral("matrix");
    const Labels base{{QStringLiteral("gpu"), QStringLiteral("0")},
                      {QStringLiteral("UUID"), QStringLiteral("GPU-0")},
                      {QStringLiteral("Hostname"), QStringLiteral("n1")},
                      {QStringLiteral("namespace"), QStringLiteral("team-a")},
                      {QStringLiteral("pod"), QStringLiteral("train-1")}};
    PromSeries max{base, {{600, 4}, {1200, 3}}}, mean{base, {{600, 2}, {1200, 1}}};
    max.metric << Label{QStringLiteral("gq_field"), QStringLiteral("DCGM_FI_DEV_GPU_UTIL")}
               << Label{QStringLiteral("gq_agg"), QStringLiteral("max")};
    mean.metric << Label{QStringLiteral("gq_field"), QStringLiteral("DCGM_FI_DEV_GPU_UTIL")}
                << Label{QStringLiteral("gq_agg"), QStringLiteral("avg")};
    m.series = {max, mean};
    const StepTimelines steps = stepTimelinesFromRange(m);
    QCOMPARE(steps.max.size(), 1);
    QCOMPARE(steps.mean.size(), 1);
    QCOMPARE(steps.max[0].gpu.uuid, QStringLiteral("GPU-0"));
    QCOMPARE(*steps.max[0].readings[0].utilPct, 4.0);
    QCOMPARE(*steps.mean[0].readings[1].utilPct, 1.0);
    QCOMPARE(steps.max[0].readings[0].holders.size(), 1);
    QCOMPARE(steps.max[0].readings[0].holders[0].pod, QStringLiteral("train-1"));
}

void TestIdle::trackerAgreesWithTheTimelineRule() {
    // The same readings one snapshot at a time: the tracker finds what findIdleGpus finds,
    // pod restarts and gaps included.
    const auto restarted = timeline(
        gpu(0), 0, 120, [](int) { return 0.0; }, [](int m) { return QList<GpuHolder>{m < 60 ? kA : kB}; });
    auto gappy = timeline(gpu(1), 0, 120, [](int m) { return m < 10 ? 50.0 : 2.0; });
    gappy.readings.erase(
        std::remove_if(gappy.readings.begin(), gappy.readings.end(),
                       [](const GpuReading &r) { return r.tMs > 40 * kMin && r.tMs < 50 * kMin; }),
        gappy.readings.end());
    const auto busy = timeline(gpu(2), 0, 120, [](int) { return 70.0; });
    const IdleOptions o = opts(120);
    IdleTracker tracker(o.thresholdPct, o.maxGapMs);
    for (int m = 0; m <= 120; ++m) {
        GpuSnapshot snap;
        for (const GpuTimeline *tl : std::initializer_list<const GpuTimeline *>{&restarted, &gappy, &busy})
            for (const GpuReading &r : tl->readings)
                if (r.tMs == m * kMin) {
                    GpuSample g = tl->gpu;
                    g.utilPct = r.utilPct;
                    g.holders = r.holders;
                    snap.gpus << g;
                }
        tracker.add(snap, m * kMin);
    }
    const QList<IdleGpu> expected = findIdleGpus({restarted, gappy, busy}, o);
    const QList<IdleGpu> got = tracker.idle(o);
    QCOMPARE(got.size(), expected.size());
    QCOMPARE(got.size(), 2);
    for (int i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].gpu.key(), expected[i].gpu.key());
        QCOMPARE(got[i].sinceMs, expected[i].sinceMs);
        QCOMPARE(got[i].gpuHoursWasted, expected[i].gpuHoursWasted);
        QCOMPARE(got[i].holders, expected[i].holders);
        QCOMPARE(got[i].meanUtilPct, expected[i].meanUtilPct);
    }
    QCOMPARE(got[0].sinceMs, 50 * kMin); // after the gap
    QCOMPARE(got[1].sinceMs, 60 * kMin); // the new pod
    QVERIFY(tracker.trackedSpans() == 2);
}

// An idle span's row names its GPU by UUID (with the MIG instance) or by index, and the
// first holder by namespace and pod; reading the key back gives the same identity.
void TestIdle::spanRowIdentityRoundTrips() {
    GpuSample whole;
    whole.hostname = QStringLiteral("gpu-node-1");
    whole.uuid = QStringLiteral("GPU-aaaa");
    whole.gpu = 3;
    QCOMPARE(gq::idlespans::gpuKey(whole), QStringLiteral("GPU-aaaa"));
    GpuSample mig = whole;
    mig.gpuInstance = QStringLiteral("7");
    mig.migProfile = QStringLiteral("1g.10gb");
    QVERIFY(mig.isMigInstance());
    QCOMPARE(gq::idlespans::gpuKey(mig), QStringLiteral("GPU-aaaa/7"));
    GpuSample anonymous;
    anonymous.gpu = 2;
    QCOMPARE(gq::idlespans::gpuKey(anonymous), QStringLiteral("#2"));

    const GpuSample back =
        gq::idlespans::gpuFromKey(QStringLiteral("gpu-node-1"), QStringLiteral("GPU-aaaa/7"));
    QCOMPARE(back.hostname, QStringLiteral("gpu-node-1"));
    QCOMPARE(back.uuid, QStringLiteral("GPU-aaaa"));
    QCOMPARE(back.gpuInstance, QStringLiteral("7"));
    const GpuSample byIndex = gq::idlespans::gpuFromKey(QStringLiteral("n"), QStringLiteral("#2"));
    QVERIFY(byIndex.uuid.isEmpty());
    QCOMPARE(byIndex.gpu, std::optional<int>(2));
    QVERIFY(!gq::idlespans::gpuFromKey(QStringLiteral("n"), QStringLiteral("#x")).gpu);

    IdleGpu shared;
    shared.holders = {GpuHolder{QStringLiteral("nlp"), QStringLiteral("train-b"), QString(), QString()},
                      GpuHolder{QStringLiteral("cv"), QStringLiteral("train-z"), QString(), QString()},
                      GpuHolder{QStringLiteral("nlp"), QStringLiteral("train-a"), QString(), QString()}};
    QCOMPARE(gq::idlespans::rowHolder(shared).ns, QStringLiteral("cv"));
    shared.holders.removeAt(1);
    QCOMPARE(gq::idlespans::rowHolder(shared).pod, QStringLiteral("train-a"));
    QCOMPARE(gq::idlespans::rowHolder(IdleGpu{}).pod, QString());
}

QTEST_GUILESS_MAIN(TestIdle)
#include "tst_idle.moc"
