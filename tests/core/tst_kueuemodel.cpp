// core/kueue: Kueue's objects at v1beta1 and v1beta2 parsed into values, Kueue's own
// resourceGroups rules with the field named, the GPU overview (reserved, borrowed, the
// lent estimate, pending counts), the cohort tree and the pending order.
#include "core/kueue/kueueedit.h"
#include "core/kueue/kueueoverview.h"

#include <QJsonArray>

#include <QJsonDocument>
#include <QTest>

using gq::Quantity;
using namespace gq::kueue;

namespace {

QJsonObject json(const char *text) {
    QJsonParseError e;
    const QJsonObject o = QJsonDocument::fromJson(QByteArray(text), &e).object();
    if (e.error != QJsonParseError::NoError)
        qFatal("bad fixture: %s", qPrintable(e.errorString()));
    return o;
}

// v1beta1 spelling: spec.cohort.
const char kTeamA[] = R"({"metadata":{"name":"team-a","resourceVersion":"7"},
 "spec":{"cohort":"org","resourceGroups":[{"coveredResources":["cpu","nvidia.com/gpu"],"flavors":[
   {"name":"h100","resources":[{"name":"cpu","nominalQuota":"64"},
                               {"name":"nvidia.com/gpu","nominalQuota":8,"borrowingLimit":"4","lendingLimit":"2"}]},
   {"name":"a100","resources":[{"name":"cpu","nominalQuota":"32"},{"name":"nvidia.com/gpu","nominalQuota":"4"}]}]}]},
 "status":{"pendingWorkloads":1,"admittedWorkloads":2,
   "flavorsReservation":[{"name":"h100","resources":[{"name":"nvidia.com/gpu","total":"10","borrowed":"2"}]},
                         {"name":"a100","resources":[{"name":"nvidia.com/gpu","total":"1","borrowed":"0"}]}],
   "flavorsUsage":[{"name":"h100","resources":[{"name":"nvidia.com/gpu","total":"8","borrowed":"0"}]}]}})";

// v1beta2 spelling: spec.cohortName.
const char kTeamB[] = R"({"metadata":{"name":"team-b"},
 "spec":{"cohortName":"org","resourceGroups":[{"coveredResources":["nvidia.com/gpu"],"flavors":[
   {"name":"h100","resources":[{"name":"nvidia.com/gpu","nominalQuota":"8"}]}]}]},
 "status":{"flavorsReservation":[{"name":"h100","resources":[{"name":"nvidia.com/gpu","total":"3"}]}]}})";

Workload pendingWorkload(const char *name, int priority, qint64 created) {
    Workload w;
    w.ns = QStringLiteral("team-a");
    w.name = QLatin1String(name);
    w.queueName = QStringLiteral("a");
    w.priority = priority;
    w.createdMs = created;
    return w;
}

} // namespace

class TestKueueModel : public QObject {
    Q_OBJECT
private slots:
    void versions() {
        QCOMPARE(pickVersion({QStringLiteral("v1beta1"), QStringLiteral("v1beta2")}),
                 QStringLiteral("v1beta2"));
        QCOMPARE(pickVersion({QStringLiteral("v1beta1")}), QStringLiteral("v1beta1"));
        QVERIFY(!pickVersion({QStringLiteral("v1alpha1")}));
        QVERIFY(!pickVersion({}));
    }

    void clusterQueueBothSpellings() {
        auto a = parseClusterQueue(json(kTeamA));
        QVERIFY2(a, qPrintable(a ? QString() : a.error().message));
        QCOMPARE(a->cohort, QStringLiteral("org"));
        QCOMPARE(a->resourceVersion, QStringLiteral("7"));
        QCOMPARE(a->flavorNames(), (QStringList{QStringLiteral("h100"), QStringLiteral("a100")}));
        const ResourceLimits *gpu = a->flavor(QStringLiteral("h100"))->find(QStringLiteral("nvidia.com/gpu"));
        QVERIFY(gpu);
        QCOMPARE(gpu->nominal.value(), 8); // a number in hand-written YAML reads too
        QCOMPARE(gpu->borrowingLimit->value(), 4);
        QCOMPARE(gpu->lendingLimit->value(), 2);
        QVERIFY(!a->flavor(QStringLiteral("a100"))->resources[1].borrowingLimit);
        QCOMPARE(a->pendingWorkloads, 1);
        auto b = parseClusterQueue(json(kTeamB));
        QVERIFY(b);
        QCOMPARE(b->cohort, QStringLiteral("org"));
    }

    void badQuantityNamesField() {
        auto r =
            parseClusterQueue(json(R"({"metadata":{"name":"x"},"spec":{"resourceGroups":[{"coveredResources":
            ["nvidia.com/gpu"],"flavors":[{"name":"f","resources":[{"name":"nvidia.com/gpu","nominalQuota":"eight"}]}]}]}})"));
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(
                     QLatin1String("spec.resourceGroups[0].flavors[0].resources[0].nominalQuota")) ||
                     r.error().field.contains(QLatin1String("nominalQuota")),
                 qPrintable(r.error().message + QStringLiteral(" / ") + r.error().field));
    }

    void validation_data() {
        QTest::addColumn<QByteArray>("object");
        QTest::addColumn<bool>("cohort");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("words");
        QTest::newRow("valid") << QByteArray(kTeamA) << false << QString() << QString();
        QTest::newRow("resources differ from covered")
            << QByteArray(
                   R"({"spec":{"cohortName":"o","resourceGroups":[{"coveredResources":["cpu","nvidia.com/gpu"],
               "flavors":[{"name":"f","resources":[{"name":"nvidia.com/gpu","nominalQuota":"1"}]}]}]}})")
            << false << QStringLiteral("spec.resourceGroups[0].flavors[0].resources")
            << QStringLiteral("same names as the resource group's coveredResources");
        QTest::newRow("borrowing without cohort")
            << QByteArray(R"({"spec":{"resourceGroups":[{"coveredResources":["nvidia.com/gpu"],
               "flavors":[{"name":"f","resources":[{"name":"nvidia.com/gpu","nominalQuota":"4","borrowingLimit":"2"}]}]}]}})")
            << false << QStringLiteral("spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit")
            << QStringLiteral("must be nil");
        QTest::newRow("lending without parent (Cohort)")
            << QByteArray(R"({"spec":{"resourceGroups":[{"coveredResources":["nvidia.com/gpu"],
               "flavors":[{"name":"f","resources":[{"name":"nvidia.com/gpu","nominalQuota":"4","lendingLimit":"2"}]}]}]}})")
            << true << QStringLiteral("spec.resourceGroups[0].flavors[0].resources[0].lendingLimit")
            << QStringLiteral("spec.parentName");
        QTest::newRow("lending above nominal")
            << QByteArray(R"({"spec":{"cohort":"o","resourceGroups":[{"coveredResources":["nvidia.com/gpu"],
               "flavors":[{"name":"f","resources":[{"name":"nvidia.com/gpu","nominalQuota":"4","lendingLimit":"6"}]}]}]}})")
            << false << QStringLiteral("spec.resourceGroups[0].flavors[0].resources[0].lendingLimit")
            << QStringLiteral("less than or equal to the nominalQuota (4)");
        QTest::newRow("negative")
            << QByteArray(R"({"spec":{"resourceGroups":[{"coveredResources":["nvidia.com/gpu"],
               "flavors":[{"name":"f","resources":[{"name":"nvidia.com/gpu","nominalQuota":"-1"}]}]}]}})")
            << false << QStringLiteral("spec.resourceGroups[0].flavors[0].resources[0].nominalQuota")
            << QStringLiteral("greater than or equal to 0");
        QTest::newRow("flavor in two groups")
            << QByteArray(R"({"spec":{"resourceGroups":[
               {"coveredResources":["cpu"],"flavors":[{"name":"f","resources":[{"name":"cpu","nominalQuota":"1"}]}]},
               {"coveredResources":["nvidia.com/gpu"],"flavors":[{"name":"f","resources":[{"name":"nvidia.com/gpu","nominalQuota":"1"}]}]}]}})")
            << false << QStringLiteral("spec.resourceGroups[1].flavors[0].name")
            << QStringLiteral("one resource group only");
        QTest::newRow("resource in two groups")
            << QByteArray(R"({"spec":{"resourceGroups":[
               {"coveredResources":["nvidia.com/gpu"],"flavors":[{"name":"f","resources":[{"name":"nvidia.com/gpu","nominalQuota":"1"}]}]},
               {"coveredResources":["nvidia.com/gpu"],"flavors":[{"name":"g","resources":[{"name":"nvidia.com/gpu","nominalQuota":"1"}]}]}]}})")
            << false << QStringLiteral("spec.resourceGroups[1].coveredResources[0]")
            << QStringLiteral("Duplicate value");
    }
    void validation() {
        QFETCH(QByteArray, object);
        QFETCH(bool, cohort);
        QFETCH(QString, field);
        QFETCH(QString, words);
        const QList<Problem> problems = validateQueueSpec(QJsonDocument::fromJson(object).object(), cohort);
        if (field.isEmpty()) {
            QVERIFY2(problems.isEmpty(),
                     qPrintable(problems.value(0).field + QStringLiteral(": ") + problems.value(0).message));
            return;
        }
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].field, field);
        QVERIFY2(problems[0].message.contains(words), qPrintable(problems[0].message));
    }

    void workloadPendingAndAdmitted() {
        const Workload p = parseWorkload(json(R"({"metadata":{"name":"j1","namespace":"ns",
            "creationTimestamp":"2026-01-01T10:00:00Z"},
            "spec":{"queueName":"q","priority":5,"maximumExecutionTimeSeconds":3600,"podSets":[
              {"name":"main","count":2,"template":{"spec":{"containers":[
                {"name":"a","resources":{"requests":{"cpu":"1","nvidia.com/gpu":"4"}}},
                {"name":"b","resources":{"limits":{"nvidia.com/gpu":"1"}}}]}}}]},
            "status":{"conditions":[{"type":"QuotaReserved","status":"False","reason":"Pending",
              "message":"insufficient unused quota for nvidia.com/gpu in flavor h100"}]}})"));
        QCOMPARE(p.gpus, 10); // 2 pods x (4 requested + 1 from limits)
        QVERIFY(p.pending());
        QCOMPARE(p.priority, 5);
        QCOMPARE(p.maximumExecutionTimeSeconds, 3600);
        QCOMPARE(p.reason, QStringLiteral("insufficient unused quota for nvidia.com/gpu in flavor h100"));
        QCOMPARE(p.createdMs, QDateTime(QDate(2026, 1, 1), QTime(10, 0), Qt::UTC).toMSecsSinceEpoch());
        const Workload a = parseWorkload(json(R"({"metadata":{"name":"j2","namespace":"ns"},
            "spec":{"queueName":"q","podSets":[{"name":"main","count":1,"template":{"spec":{"containers":[
                {"name":"a","resources":{"requests":{"nvidia.com/gpu":"2"}}}]}}}]},
            "status":{"admission":{"clusterQueue":"cq","podSetAssignments":[{"name":"main",
                "flavors":{"cpu":"default","nvidia.com/gpu":"h100"}}]},
              "conditions":[{"type":"QuotaReserved","status":"True","lastTransitionTime":"2026-01-01T11:00:00Z"},
                            {"type":"Admitted","status":"False","message":"Denied: need 4.00 GPU-h, only 3.50 left"}]}})"));
        QVERIFY(!a.pending());
        QVERIFY(a.quotaReserved);
        QVERIFY(!a.admitted);
        QCOMPARE(a.clusterQueue, QStringLiteral("cq"));
        QCOMPARE(a.gpuFlavors.size(), std::size_t(1));
        QCOMPARE(a.gpuFlavors.at(QStringLiteral("nvidia.com/gpu")), QStringLiteral("h100"));
        QCOMPARE(a.reason, QStringLiteral("Denied: need 4.00 GPU-h, only 3.50 left"));
    }

    void gpuRowsAndLent() {
        Snapshot s;
        s.clusterQueues.push_back(*parseClusterQueue(json(kTeamA)));
        s.clusterQueues.push_back(*parseClusterQueue(json(kTeamB)));
        s.localQueues.push_back(
            LocalQueue{QStringLiteral("team-a"), QStringLiteral("a"), QStringLiteral("team-a"), 0, 0});
        s.workloads.push_back(pendingWorkload("w1", 0, 1000));
        s.workloads.push_back(pendingWorkload("w2", 0, 2000));
        const std::vector<GpuRow> rows = gpuRows(s);
        QCOMPARE(rows.size(), std::size_t(3)); // cpu gives no row
        const GpuRow &h100 = rows[0];
        QCOMPARE(h100.flavor, QStringLiteral("h100"));
        QCOMPARE(h100.nominal, 8);
        QCOMPARE(h100.reserved, 10);
        QCOMPARE(h100.used, 8);
        QCOMPARE(h100.borrowed, 2);
        QCOMPARE(h100.lent, 0);    // it borrows, it has nothing idle to lend
        QCOMPARE(h100.pending, 2); // counted from the Workloads, not the stale status
        QCOMPARE(rows[1].flavor, QStringLiteral("a100"));
        QCOMPARE(rows[1].reserved, 1);
        QCOMPARE(rows[1].lent, 0); // nobody in the cohort borrows a100
        QCOMPARE(rows[2].clusterQueue, QStringLiteral("team-b"));
        QCOMPARE(rows[2].lent, 2); // team-a's 2 borrowed h100 GPUs come from team-b's 5 idle ones
        QCOMPARE(rows[2].pending, 0);
    }

    void cohortTreeWithImplicit() {
        Snapshot s;
        s.clusterQueues.push_back(*parseClusterQueue(json(kTeamA)));
        s.cohorts.push_back(*parseCohort(json(R"({"metadata":{"name":"root"}})")));
        s.cohorts.push_back(
            *parseCohort(json(R"({"metadata":{"name":"org"},"spec":{"parentName":"root"}})")));
        s.cohorts.push_back(*parseCohort(json(R"({"metadata":{"name":"legacy"},"spec":{"parent":"root"}})")));
        s.clusterQueues.push_back(*parseClusterQueue(
            json(R"({"metadata":{"name":"solo"},"spec":{"cohort":"lonely","resourceGroups":[]}})")));
        const std::vector<CohortNode> tree = cohortTree(s);
        QCOMPARE(tree.size(), std::size_t(4));
        QCOMPARE(tree[0].cohort.name, QStringLiteral("lonely")); // roots first, by name
        QVERIFY(tree[0].cohort.implicit);
        QCOMPARE(tree[1].cohort.name, QStringLiteral("root"));
        QCOMPARE(tree[1].children, (QStringList{QStringLiteral("legacy"), QStringLiteral("org")}));
        QCOMPARE(tree[3].cohort.name, QStringLiteral("org"));
        QCOMPARE(tree[3].clusterQueues, QStringList{QStringLiteral("team-a")});
    }

    void editOneNumber() {
        const QJsonObject b = json(kTeamB); // cohort org, h100 nominal 8, no limits
        auto raised = withQuota(b, QStringLiteral("h100"), QStringLiteral("nvidia.com/gpu"),
                                QuotaField::BorrowingLimit, Quantity::fromInt(4));
        QVERIFY(raised);
        QCOMPARE(
            parseClusterQueue(*raised)->flavor(QStringLiteral("h100"))->resources[0].borrowingLimit->value(),
            4);
        auto patch = quotaPatch(b, *raised, QStringLiteral("h100"), QStringLiteral("nvidia.com/gpu"),
                                QuotaField::BorrowingLimit);
        QVERIFY(patch);
        QCOMPARE(patch->size(), 2); // test the entry's name, add the limit
        QCOMPARE(patch->at(1).toObject().value(QLatin1String("op")).toString(), QStringLiteral("add"));
        QCOMPARE(patch->at(1).toObject().value(QLatin1String("path")).toString(),
                 QStringLiteral("/spec/resourceGroups/0/flavors/0/resources/0/borrowingLimit"));
        // Without a cohort Kueue refuses a limit: the field is named.
        QJsonObject alone = b;
        QJsonObject spec = alone.value(QLatin1String("spec")).toObject();
        spec.remove(QLatin1String("cohortName"));
        alone.insert(QLatin1String("spec"), spec);
        auto refused = withQuota(alone, QStringLiteral("h100"), QStringLiteral("nvidia.com/gpu"),
                                 QuotaField::LendingLimit, Quantity::fromInt(2));
        QVERIFY(!refused);
        QCOMPARE(refused.error().field,
                 QStringLiteral("spec.resourceGroups[0].flavors[0].resources[0].lendingLimit"));
        QVERIFY(!withQuota(b, QStringLiteral("a100"), QStringLiteral("nvidia.com/gpu"),
                           QuotaField::NominalQuota, Quantity::fromInt(1)));
    }

    // A boost adds a delta; its revert subtracts it, keeping an edit made in between.
    void deltaKeepsConcurrentEdit() {
        const QJsonObject b = json(kTeamB);
        const QString f = QStringLiteral("h100"), gpu = QStringLiteral("nvidia.com/gpu");
        auto boosted = withQuotaDelta(b, f, gpu, QuotaField::NominalQuota, 4);
        QVERIFY(boosted);
        auto edited =
            withQuota(*boosted, f, gpu, QuotaField::NominalQuota, Quantity::fromInt(14)); // someone: 12 -> 14
        QVERIFY(edited);
        auto reverted = withQuotaDelta(*edited, f, gpu, QuotaField::NominalQuota, -4);
        QVERIFY(reverted);
        QCOMPARE(parseClusterQueue(*reverted)->flavor(f)->resources[0].nominal.value(), 10);
        auto patch = quotaPatch(*edited, *reverted, f, gpu, QuotaField::NominalQuota);
        QVERIFY(patch);
        QCOMPARE(patch->size(), 3); // test name, test the old 14, replace with 10
        QCOMPARE(patch->at(1).toObject().value(QLatin1String("value")).toString(), QStringLiteral("14"));
        QCOMPARE(patch->at(2).toObject().value(QLatin1String("value")).toString(), QStringLiteral("10"));
        auto unset = withQuotaDelta(b, f, gpu, QuotaField::BorrowingLimit, 2);
        QVERIFY(!unset);
        QVERIFY2(unset.error().message.contains(QLatin1String("not set")), qPrintable(unset.error().message));
        QVERIFY(!withQuotaDelta(b, f, gpu, QuotaField::NominalQuota, -9)); // below zero
    }

    void pendingOrder() {
        Snapshot s;
        s.workloads.push_back(pendingWorkload("old-low", 0, 1000));
        s.workloads.push_back(pendingWorkload("new-high", 10, 5000));
        s.workloads.push_back(pendingWorkload("new-low", 0, 3000));
        Workload done = pendingWorkload("done", 100, 1);
        done.finished = true;
        s.workloads.push_back(done);
        const std::vector<Workload> order = pendingInOrder(s);
        QCOMPARE(order.size(), std::size_t(3));
        QCOMPARE(order[0].name, QStringLiteral("new-high"));
        QCOMPARE(order[1].name, QStringLiteral("old-low"));
        QCOMPARE(order[2].name, QStringLiteral("new-low"));
        QVERIFY(pendingInOrder(s, QStringLiteral("elsewhere")).empty());
    }
};

QTEST_GUILESS_MAIN(TestKueueModel)
#include "tst_kueuemodel.moc"
