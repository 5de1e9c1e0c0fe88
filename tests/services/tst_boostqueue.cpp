// Boosts on a Kueue ClusterQueue flavor without a cluster: the stored target, the plan
// (checked against the queue as read and Kueue's rules), and each reconcile step as
// queueBoostStep() decides it from the queue it reads (apply, a revert that keeps a
// concurrent edit, a crash between the write and the record, an extend).
#include "core/boosts/boostannotation.h"
#include "core/boosts/boostplanner.h"
#include "services/boosts/boostqueuestep.h"
#include "core/kueue/kueueedit.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace gq;

namespace {

constexpr qint64 kNow = 1780308000; // 2026-06-01T10:00:00Z

// cq-a: flavor a100 with 8 GPUs nominal and a borrowing limit of 2, in a cohort.
QJsonObject queue(const QString &nominal = QStringLiteral("8"),
                  const QString &borrowing = QStringLiteral("2")) {
    return QJsonDocument::fromJson(QStringLiteral(R"({
      "apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ClusterQueue",
      "metadata": {"name": "cq-a", "resourceVersion": "7"},
      "spec": {"cohort": "research", "resourceGroups": [{
        "coveredResources": ["cpu", "nvidia.com/gpu"],
        "flavors": [{"name": "a100", "resources": [
          {"name": "cpu", "nominalQuota": "64"},
          {"name": "nvidia.com/gpu", "nominalQuota": "%1", "borrowingLimit": "%2"}]}]}]}})")
                                       .arg(nominal, borrowing)
                                       .toUtf8())
        .object();
}

QString valueOf(const QJsonObject &q, const QString &field = QStringLiteral("nominalQuota")) {
    auto v = kueue::quotaValue(q, QStringLiteral("a100"), QStringLiteral("nvidia.com/gpu"),
                               *kueue::parseFieldName(field));
    return v && *v ? (*v)->toString() : QStringLiteral("(none)");
}

QueueGrantRequest request(const QString &add, const QString &field = QStringLiteral("nominalQuota")) {
    QueueGrantRequest r;
    r.clusterQueue = QStringLiteral("cq-a");
    r.flavor = QStringLiteral("a100");
    r.field = field;
    r.add = add;
    r.when.duration = 3600;
    r.note = QStringLiteral("paper deadline on Friday");
    r.actor = QStringLiteral("admin");
    return r;
}

Boost planned(const QString &add, qint64 id = 7) {
    auto p = planQueueBoost(request(add), queue(), kNow);
    Boost b = p ? p->boost : Boost{};
    b.id = id;
    return b;
}

} // namespace

class TestBoostQueue : public QObject {
    Q_OBJECT
private slots:
    void targetRoundTrip() {
        const BoostTarget t =
            BoostTarget::queueEntry(QStringLiteral("cq-a"), QStringLiteral("a100"),
                                    QStringLiteral("borrowingLimit"), QStringLiteral("nvidia.com/gpu"));
        QCOMPARE(t.toString(), QStringLiteral("clusterqueue/cq-a/a100/borrowingLimit/nvidia.com/gpu"));
        auto back = BoostTarget::parse(t.toString());
        QVERIFY(back);
        QVERIFY(*back == t);
        QVERIFY(back->onCluster());
        QVERIFY(!BoostTarget::parse(QStringLiteral("clusterqueue/cq-a/a100/lendingLimit/nvidia.com/gpu")));
        QVERIFY(!BoostTarget::parse(QStringLiteral("clusterqueue/cq-a/a100")));
    }

    void planRaisesNominal() {
        auto p = planQueueBoost(request(QStringLiteral("+4")), queue(), kNow);
        QVERIFY2(p, p ? "" : qPrintable(p.error().message));
        QCOMPARE(p->before.toString(), QStringLiteral("8"));
        QCOMPARE(p->during.toString(), QStringLiteral("12"));
        QCOMPARE(p->after.toString(), QStringLiteral("8"));
        QCOMPARE(p->boost.delta, QStringLiteral("4"));
        QCOMPARE(p->boost.baseValue, QStringLiteral("8"));
        QCOMPARE(p->boost.target.kind, BoostTarget::Kind::ClusterQueue);
        QCOMPARE(p->boost.expiry - p->boost.start, qint64(3600));
    }

    void planRefuses_data() {
        QTest::addColumn<QString>("flavor");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("add");
        QTest::addColumn<QString>("errorField");
        QTest::newRow("no such flavor") << "h100"
                                        << "nominalQuota"
                                        << "4"
                                        << "flavor";
        QTest::newRow("lending limit") << "a100"
                                       << "lendingLimit"
                                       << "4"
                                       << "field";
        QTest::newRow("below zero") << "a100"
                                    << "nominalQuota"
                                    << "-9"
                                    << "add";
        QTest::newRow("zero") << "a100"
                              << "nominalQuota"
                              << "0"
                              << "add";
        QTest::newRow("not a quantity") << "a100"
                                        << "nominalQuota"
                                        << "four"
                                        << "add";
    }
    void planRefuses() {
        QFETCH(QString, flavor);
        QFETCH(QString, field);
        QFETCH(QString, add);
        QFETCH(QString, errorField);
        QueueGrantRequest r = request(add, field);
        r.flavor = flavor;
        auto p = planQueueBoost(r, queue(), kNow);
        QVERIFY(!p);
        QCOMPARE(p.error().field, errorField);
    }

    // An unset borrowing limit means "no limit": nothing to raise.
    void planRefusesAnUnsetLimit() {
        QJsonObject q = queue();
        auto without = kueue::withQuota(q, QStringLiteral("a100"), QStringLiteral("nvidia.com/gpu"),
                                        kueue::QuotaField::BorrowingLimit, std::nullopt);
        QVERIFY(without);
        auto p =
            planQueueBoost(request(QStringLiteral("2"), QStringLiteral("borrowingLimit")), *without, kNow);
        QVERIFY(!p);
        QCOMPARE(p.error().field, QStringLiteral("field"));
    }

    void applyThenRevert() {
        const Boost b = planned(QStringLiteral("4"));
        const QueueStep up = queueBoostStep(queue(), b, QueueStepOp::Apply);
        QCOMPARE(up.action, QueueStep::Action::Write);
        QCOMPARE(up.before, QStringLiteral("8"));
        QCOMPARE(up.after, QStringLiteral("12"));
        QCOMPARE(valueOf(up.queue), QStringLiteral("12"));
        QCOMPARE(valueOf(up.queue, QStringLiteral("borrowingLimit")), QStringLiteral("2"));
        // The write is conditional on the version read.
        QCOMPARE(up.queue.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")),
                 QJsonValue(QStringLiteral("7")));
        const QList<QJsonObject> entries = boostAnnotationEntries(up.queue);
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().value(QLatin1String("flavor")).toString(), QStringLiteral("a100"));
        QCOMPARE(entries.first().value(QLatin1String("field")).toString(), QStringLiteral("nominalQuota"));

        const QueueStep down = queueBoostStep(up.queue, b, QueueStepOp::Revert);
        QCOMPARE(down.action, QueueStep::Action::Write);
        QCOMPARE(valueOf(down.queue), QStringLiteral("8"));
        QVERIFY(boostAnnotationEntries(down.queue).isEmpty());
    }

    // 8 +4 -> 12; an admin raises it to 14 meanwhile; the expiry takes back 4 -> 10.
    void revertKeepsAConcurrentEdit() {
        const Boost b = planned(QStringLiteral("4"));
        const QueueStep up = queueBoostStep(queue(), b, QueueStepOp::Apply);
        auto edited = kueue::withQuota(up.queue, QStringLiteral("a100"), QStringLiteral("nvidia.com/gpu"),
                                       kueue::QuotaField::NominalQuota, Quantity::fromInt(14));
        QVERIFY(edited);
        const QueueStep down = queueBoostStep(*edited, b, QueueStepOp::Revert);
        QCOMPARE(down.action, QueueStep::Action::Write);
        QCOMPARE(down.before, QStringLiteral("14"));
        QCOMPARE(valueOf(down.queue), QStringLiteral("10"));
    }

    // Lowered below the boost meanwhile (12 -> 2): only what is left is taken back.
    void revertNeverGoesBelowZero() {
        const Boost b = planned(QStringLiteral("4"));
        const QueueStep up = queueBoostStep(queue(), b, QueueStepOp::Apply);
        auto edited = kueue::withQuota(up.queue, QStringLiteral("a100"), QStringLiteral("nvidia.com/gpu"),
                                       kueue::QuotaField::NominalQuota, Quantity::fromInt(2));
        QVERIFY(edited);
        QCOMPARE(valueOf(queueBoostStep(*edited, b, QueueStepOp::Revert).queue), QStringLiteral("0"));
    }

    // Two boosts on one flavor stack and end independently.
    void boostsStack() {
        const Boost first = planned(QStringLiteral("4"), 1);
        const Boost second = planned(QStringLiteral("2"), 2);
        const QueueStep a = queueBoostStep(queue(), first, QueueStepOp::Apply);
        const QueueStep b = queueBoostStep(a.queue, second, QueueStepOp::Apply);
        QCOMPARE(valueOf(b.queue), QStringLiteral("14"));
        const QueueStep c = queueBoostStep(b.queue, first, QueueStepOp::Revert);
        QCOMPARE(valueOf(c.queue), QStringLiteral("10"));
        QCOMPARE(boostAnnotationEntries(c.queue).size(), 1);
        QCOMPARE(boostAnnotationEntries(c.queue).first().value(QLatin1String("id")).toInteger(), qint64(2));
    }

    // The annotation is the proof: a run that takes over a crashed claim finishes the work
    // instead of doing it twice, in both directions.
    void takeOverFinishesInsteadOfRepeating() {
        const Boost b = planned(QStringLiteral("4"));
        const QueueStep up = queueBoostStep(queue(), b, QueueStepOp::Apply);
        const QueueStep again = queueBoostStep(up.queue, b, QueueStepOp::Apply);
        QCOMPARE(again.action, QueueStep::Action::Complete);
        QCOMPARE(again.before, QStringLiteral("8"));
        QCOMPARE(again.after, QStringLiteral("12"));
        const QueueStep down = queueBoostStep(up.queue, b, QueueStepOp::Revert);
        const QueueStep downAgain = queueBoostStep(down.queue, b, QueueStepOp::Revert);
        QCOMPARE(downAgain.action, QueueStep::Action::Complete);
        QCOMPARE(valueOf(down.queue), QStringLiteral("8"));
    }

    void extendRewritesTheAnnotationOnly() {
        Boost b = planned(QStringLiteral("4"));
        const QueueStep up = queueBoostStep(queue(), b, QueueStepOp::Apply);
        b.expiry += 3600;
        const QueueStep ann = queueBoostStep(up.queue, b, QueueStepOp::Annotate);
        QCOMPARE(ann.action, QueueStep::Action::Write);
        QVERIFY(ann.before.startsWith(QLatin1String("until ")));
        QCOMPARE(valueOf(ann.queue), QStringLiteral("12"));
        QVERIFY(annotationEntryIsCurrent(boostAnnotationEntries(ann.queue).first(), b));
        QCOMPARE(queueBoostStep(ann.queue, b, QueueStepOp::Annotate).action, QueueStep::Action::Complete);
    }

    void borrowingLimitBoost() {
        auto p =
            planQueueBoost(request(QStringLiteral("3"), QStringLiteral("borrowingLimit")), queue(), kNow);
        QVERIFY(p);
        Boost b = p->boost;
        b.id = 3;
        const QueueStep up = queueBoostStep(queue(), b, QueueStepOp::Apply);
        QCOMPARE(valueOf(up.queue, QStringLiteral("borrowingLimit")), QStringLiteral("5"));
        QCOMPARE(valueOf(up.queue), QStringLiteral("8"));
    }

    void failsWhenTheFlavorIsGone() {
        const Boost b = planned(QStringLiteral("4"));
        QJsonObject q = queue();
        QJsonObject meta = q.value(QLatin1String("metadata")).toObject();
        q.insert(QStringLiteral("spec"), QJsonObject{{QStringLiteral("resourceGroups"), QJsonArray()}});
        const QueueStep s = queueBoostStep(q, b, QueueStepOp::Apply);
        QCOMPARE(s.action, QueueStep::Action::Fail);
        QVERIFY2(s.error.contains(QLatin1String("a100")), qPrintable(s.error));
    }
};

QTEST_GUILESS_MAIN(TestBoostQueue)
#include "tst_boostqueue.moc"
