// core/kueue/queueattribution: which Kueue queue a namespace's GPU-hours go to when usage is
// grouped by ClusterQueue or LocalQueue, and the sums per queue.
#include "core/kueue/queueattribution.h"

#include <QMap>
#include <QTest>

using namespace gq::kueue;

namespace {
LocalQueue lq(const char *ns, const char *name, const char *cq) {
    return LocalQueue{QString::fromLatin1(ns), QString::fromLatin1(name), QString::fromLatin1(cq), 0, 0};
}

const QueueAttribution &cluster() {
    static const QueueAttribution a(std::vector<LocalQueue>{
        lq("team-nlp", "nlp", "cq-nlp"),
        lq("team-speech", "speech", "cq-serving"),
        lq("team-recsys", "recsys", "cq-serving"),
        // Two LocalQueues to one ClusterQueue, and two to two.
        lq("team-cv", "interactive", "cq-cv"),
        lq("team-cv", "batch", "cq-cv"),
        lq("lab", "train", "cq-train"),
        lq("lab", "eval", "cq-eval"),
        lq("orphan", "lost", ""),
    });
    return a;
}
} // namespace

class TestQueueAttribution : public QObject {
    Q_OBJECT
private slots:
    void subjectOf_data() {
        QTest::addColumn<QString>("ns");
        QTest::addColumn<QString>("clusterQueue");
        QTest::addColumn<QString>("localQueue");
        QTest::newRow("one LocalQueue") << "team-nlp"
                                        << "cq-nlp"
                                        << "team-nlp/nlp";
        QTest::newRow("shared ClusterQueue") << "team-recsys"
                                             << "cq-serving"
                                             << "team-recsys/recsys";
        QTest::newRow("two LocalQueues, one ClusterQueue") << "team-cv"
                                                           << "cq-cv"
                                                           << "team-cv/batch+interactive";
        QTest::newRow("two LocalQueues, two ClusterQueues") << "lab"
                                                            << "cq-eval+cq-train"
                                                            << "lab/eval+train";
        QTest::newRow("LocalQueue without ClusterQueue") << "orphan"
                                                         << "(no queue)"
                                                         << "orphan/lost";
        QTest::newRow("no LocalQueue") << "scratch"
                                       << "(no queue)"
                                       << "(no queue)";
    }
    void subjectOf() {
        QFETCH(QString, ns);
        QFETCH(QString, clusterQueue);
        QFETCH(QString, localQueue);
        QCOMPARE(cluster().subjectOf(ns, QueueLevel::ClusterQueue), clusterQueue);
        QCOMPARE(cluster().subjectOf(ns, QueueLevel::LocalQueue), localQueue);
    }

    // A user's budget: the queues of the namespaces the user ran in, jointly.
    void subjectOfAll() {
        const QueueAttribution &a = cluster();
        const auto all = [&a](const QStringList &namespaces, QueueLevel level) {
            return a.subjectOfAll(namespaces, level);
        };
        QCOMPARE(all({}, QueueLevel::ClusterQueue), kNoQueue);
        QCOMPARE(all({}, QueueLevel::LocalQueue), kNoQueue);
        QCOMPARE(all({QStringLiteral("team-nlp")}, QueueLevel::ClusterQueue), QStringLiteral("cq-nlp"));
        QCOMPARE(all({QStringLiteral("team-nlp")}, QueueLevel::LocalQueue), QStringLiteral("team-nlp/nlp"));
        // Two namespaces of one ClusterQueue: that queue alone.
        QCOMPARE(
            all({QStringLiteral("team-speech"), QStringLiteral("team-recsys")}, QueueLevel::ClusterQueue),
            QStringLiteral("cq-serving"));
        QCOMPARE(all({QStringLiteral("team-speech"), QStringLiteral("team-recsys")}, QueueLevel::LocalQueue),
                 QStringLiteral("team-recsys/recsys+team-speech/speech"));
        // A joint ClusterQueue subject counts by its parts, sorted and once each.
        QCOMPARE(all({QStringLiteral("lab"), QStringLiteral("team-nlp"), QStringLiteral("orphan")},
                     QueueLevel::ClusterQueue),
                 QStringLiteral("(no queue)+cq-eval+cq-nlp+cq-train"));
        QCOMPARE(all({QStringLiteral("lab"), QStringLiteral("team-cv")}, QueueLevel::LocalQueue),
                 QStringLiteral("lab/eval+train+team-cv/batch+interactive"));
        QCOMPARE(all({QStringLiteral("scratch"), QStringLiteral("team-nlp")}, QueueLevel::ClusterQueue),
                 QStringLiteral("(no queue)+cq-nlp"));
    }

    void regroupSums() {
        const QMap<QString, double> perNamespace{{QStringLiteral("team-speech"), 8.0},
                                                 {QStringLiteral("team-recsys"), 6.0},
                                                 {QStringLiteral("team-nlp"), 8.0},
                                                 {QStringLiteral("scratch"), 3.0},
                                                 {QStringLiteral("other"), 1.5}};
        const QMap<QString, double> expected{{QStringLiteral("cq-serving"), 14.0},
                                             {QStringLiteral("cq-nlp"), 8.0},
                                             {QStringLiteral("(no queue)"), 4.5}};
        QCOMPARE(regroup(perNamespace, cluster(), QueueLevel::ClusterQueue), expected);
    }

    void emptyCluster() {
        const QueueAttribution none;
        QVERIFY(none.isEmpty());
        QCOMPARE(none.subjectOf(QStringLiteral("team-nlp"), QueueLevel::ClusterQueue), kNoQueue);
    }

    void parseLevel() {
        QVERIFY(parseQueueLevel(QStringLiteral("clusterqueue")) == QueueLevel::ClusterQueue);
        QVERIFY(parseQueueLevel(QStringLiteral("LocalQueue")) == QueueLevel::LocalQueue);
        QVERIFY(parseQueueLevel(QStringLiteral("cq")) == QueueLevel::ClusterQueue);
        QVERIFY(!parseQueueLevel(QStringLiteral("namespace")));
        QCOMPARE(queueLevelKey(QueueLevel::ClusterQueue), QStringLiteral("clusterQueue"));
        QCOMPARE(queueLevelKey(QueueLevel::LocalQueue), QStringLiteral("localQueue"));
    }
};

QTEST_GUILESS_MAIN(TestQueueAttribution)
#include "tst_queueattribution.moc"
