// What the usage recorder makes of a pod (UsageRecorder::intervalsFor over the
// informer's decoding): start and end from the container states, the scheduler's
// count over init containers, the user fallback and the time-sliced replica weight.
#include "services/controller/usagerecorder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gq;

namespace {

PodInfo podFrom(const char *json) {
    return podInfoFromJson(QJsonDocument::fromJson(QByteArray(json)).object());
}

} // namespace

class TestUsageRecorder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runningPodFromContainerStart() {
        const PodInfo pod = podFrom(R"({"metadata":{"namespace":"a","name":"p","uid":"u1",
            "labels":{"gpuquota.io/user":"alice"}},
            "spec":{"nodeName":"n1","initContainers":[{"name":"i","resources":{"limits":{"nvidia.com/gpu":"4"}}}],
                    "containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"1"}}},
                                  {"name":"d","resources":{"requests":{"nvidia.com/gpu":"2"}}}]},
            "status":{"phase":"Running","startTime":"2026-11-30T07:59:00Z","containerStatuses":[
                {"name":"c","state":{"running":{"startedAt":"2026-11-30T08:00:05Z"}}},
                {"name":"d","state":{"running":{"startedAt":"2026-11-30T08:00:02Z"}}}]}})");
        const auto ivs =
            UsageRecorder::intervalsFor(pod, QStringLiteral("c1"), QStringLiteral("controller"),
                                        {QStringLiteral("NVIDIA H100 80GB HBM3"), 0}, 2000000000);
        QCOMPARE(ivs.size(), size_t(1));
        QCOMPARE(ivs[0].gpus, 4); // max(init 4, containers 1 + 2)
        QCOMPARE(
            ivs[0].start,
            QDateTime::fromString(QStringLiteral("2026-11-30T08:00:02Z"), Qt::ISODate).toSecsSinceEpoch());
        QVERIFY(!ivs[0].end);
        QCOMPARE(ivs[0].user, QStringLiteral("alice"));
        QCOMPARE(ivs[0].node, QStringLiteral("n1"));
        QCOMPARE(ivs[0].gpuModel, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QVERIFY(!ivs[0].weight);
    }
    void finishedPodEndsAtLastContainer() {
        const PodInfo pod = podFrom(R"({"metadata":{"namespace":"team","name":"p","uid":"u2"},
            "spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/mig-1g.10gb":"2"}}},
                                  {"name":"s","resources":{"limits":{"nvidia.com/gpu.shared":"1"}}}]},
            "status":{"phase":"Succeeded","containerStatuses":[
                {"name":"c","state":{"terminated":{"startedAt":"2026-11-30T10:00:00Z","finishedAt":"2026-11-30T11:00:00Z"}}},
                {"name":"s","state":{"terminated":{"startedAt":"2026-11-30T10:00:00Z","finishedAt":"2026-11-30T11:30:00Z"}}}]}})");
        const auto ivs = UsageRecorder::intervalsFor(pod, QStringLiteral("c1"), QStringLiteral("controller"),
                                                     {QString(), 4}, 2000000000);
        QCOMPARE(ivs.size(), size_t(2));
        for (const UsageInterval &iv : ivs) {
            QCOMPARE(iv.user, QStringLiteral("team")); // no label: the namespace
            QCOMPARE(*iv.end - iv.start, qint64(5400));
            QVERIFY(!iv.endEstimated); // finishedAt: seen, not estimated
        }
        QCOMPARE(ivs[0].resource, QStringLiteral("nvidia.com/gpu.shared"));
        QCOMPARE(*ivs[0].weight, 0.25); // 1 of 4 replicas
        QCOMPARE(ivs[1].resource, QStringLiteral("nvidia.com/mig-1g.10gb"));
        QVERIFY(!ivs[1].weight); // the store's MIG rule
    }
    void pendingAndCpuPodsRecordNothing() {
        const PodInfo pending = podFrom(R"({"metadata":{"namespace":"a","name":"p","uid":"u3"},
            "spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"1"}}}]},
            "status":{"phase":"Pending"}})");
        QVERIFY(
            UsageRecorder::intervalsFor(pending, QStringLiteral("c"), QStringLiteral("s"), {}, 0).empty());
        const PodInfo cpu = podFrom(R"({"metadata":{"namespace":"a","name":"p","uid":"u4"},
            "spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]},
            "status":{"phase":"Running","startTime":"2026-11-30T10:00:00Z"}})");
        QVERIFY(UsageRecorder::intervalsFor(cpu, QStringLiteral("c"), QStringLiteral("s"), {}, 0).empty());
    }
    void failedWithoutFinishTimeEndsWhenNoticed() {
        const PodInfo pod = podFrom(R"({"metadata":{"namespace":"a","name":"p","uid":"u5"},
            "spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"1"}}}]},
            "status":{"phase":"Failed","startTime":"2026-11-30T10:00:00Z"}})");
        const qint64 start =
            QDateTime::fromString(QStringLiteral("2026-11-30T10:00:00Z"), Qt::ISODate).toSecsSinceEpoch();
        const auto ivs =
            UsageRecorder::intervalsFor(pod, QStringLiteral("c"), QStringLiteral("s"), {}, start + 77);
        QCOMPARE(ivs.size(), size_t(1));
        QCOMPARE(*ivs[0].end, start + 77);
        QVERIFY(ivs[0].endEstimated); // no container said when: an estimate (#31 item 4)
        // Ended in the second it started: one second, never a zero-length row.
        const auto instant =
            UsageRecorder::intervalsFor(pod, QStringLiteral("c"), QStringLiteral("s"), {}, start);
        QCOMPARE(*instant[0].end, start + 1);
    }
    // A pod stuck in Terminating (its node lost, no kubelet to confirm): quota stops
    // counting it at deletionTimestamp + deletionGracePeriodSeconds (QuotaV1Pod), so the
    // row ends there, not when someone finally force-deletes it; before that it is open.
    void stuckTerminatingEndsWhereQuotaStopsCounting() {
        const PodInfo pod = podFrom(R"({"metadata":{"namespace":"a","name":"p","uid":"u6",
            "deletionTimestamp":"2026-11-30T12:00:30Z","deletionGracePeriodSeconds":30},
            "spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"2"}}}]},
            "status":{"phase":"Running","startTime":"2026-11-30T10:00:00Z","containerStatuses":[
                {"name":"c","state":{"running":{"startedAt":"2026-11-30T10:00:00Z"}}}]}})");
        const qint64 cutoff =
            QDateTime::fromString(QStringLiteral("2026-11-30T12:01:00Z"), Qt::ISODate).toSecsSinceEpoch();
        QCOMPARE(pod.deletionGraceSeconds, qint64(30));
        auto ivs = UsageRecorder::intervalsFor(pod, QStringLiteral("c"), QStringLiteral("s"), {}, cutoff);
        QCOMPARE(ivs.size(), size_t(1));
        QVERIFY(!ivs[0].end); // still counted by quota at the cutoff itself
        ivs = UsageRecorder::intervalsFor(pod, QStringLiteral("c"), QStringLiteral("s"), {}, cutoff + 3600);
        QCOMPARE(*ivs[0].end, cutoff);
        // Containers that report a finish say when it really ended.
        const PodInfo finished = podFrom(R"({"metadata":{"namespace":"a","name":"p","uid":"u7",
            "deletionTimestamp":"2026-11-30T12:00:30Z","deletionGracePeriodSeconds":30},
            "spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"2"}}}]},
            "status":{"phase":"Running","startTime":"2026-11-30T10:00:00Z","containerStatuses":[
                {"name":"c","state":{"terminated":{"startedAt":"2026-11-30T10:00:00Z","finishedAt":"2026-11-30T12:00:10Z"}}}]}})");
        ivs = UsageRecorder::intervalsFor(finished, QStringLiteral("c"), QStringLiteral("s"), {},
                                          cutoff + 3600);
        QCOMPARE(*ivs[0].end, cutoff - 50);
    }
};

QTEST_GUILESS_MAIN(TestUsageRecorder)
#include "tst_usagerecorder.moc"
