// clampplan, the pure half of budget enforcement: which namespaces the enforcer leaves
// alone (being deleted), and whether a quota's clamp is enforced yet. The clamp and lift plans are exercised
// end to end in tst_budgetenforcer.
#include "clampplan.h"

#include <QJsonDocument>
#include <QtTest>

using namespace gq;

class TestClampPlan : public QObject {
    Q_OBJECT

private slots:
    void isTerminating_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("terminating");
        QTest::newRow("active") << QByteArray(R"({"metadata":{"name":"a"},"status":{"phase":"Active"}})")
                                << false;
        QTest::newRow("no status") << QByteArray(R"({"metadata":{"name":"a"}})") << false;
        QTest::newRow("terminating")
            << QByteArray(R"({"metadata":{"name":"a","deletionTimestamp":"2026-12-01T10:00:00Z"},)"
                          R"("status":{"phase":"Terminating"}})")
            << true;
        QTest::newRow("phase only") << QByteArray(
                                           R"({"metadata":{"name":"a"},"status":{"phase":"Terminating"}})")
                                    << true;
        // Seen from a watch before the namespace controller set the phase.
        QTest::newRow("deletion timestamp only")
            << QByteArray(R"({"metadata":{"name":"a","deletionTimestamp":"2026-12-01T10:00:00Z"},)"
                          R"("status":{"phase":"Active"}})")
            << true;
    }
    void isTerminating() {
        QFETCH(QByteArray, json);
        QFETCH(bool, terminating);
        QCOMPARE(clampplan::isTerminating(QJsonDocument::fromJson(json).object()), terminating);
    }

    // A clamp is enforced once status.hard shows it (kube-controller-manager's copy);
    // quantities are compared as quantities ("1000m" is "1").
    void enforced_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("enforced");
        QTest::newRow("synced") << QByteArray(R"({"spec":{"hard":{"requests.nvidia.com/gpu":"0"}},)"
                                              R"("status":{"hard":{"requests.nvidia.com/gpu":"0"}}})")
                                << true;
        QTest::newRow("same quantity") << QByteArray(R"({"spec":{"hard":{"requests.cpu":"1"}},)"
                                                     R"("status":{"hard":{"requests.cpu":"1000m"}}})")
                                       << true;
        QTest::newRow("not yet") << QByteArray(R"({"spec":{"hard":{"requests.nvidia.com/gpu":"0"}},)"
                                               R"("status":{"hard":{"requests.nvidia.com/gpu":"8"}}})")
                                 << false;
        QTest::newRow("no status") << QByteArray(R"({"spec":{"hard":{"requests.nvidia.com/gpu":"0"}}})")
                                   << false;
    }
    void enforced() {
        QFETCH(QByteArray, json);
        QFETCH(bool, enforced);
        QCOMPARE(clampplan::enforced(QJsonDocument::fromJson(json).object()), enforced);
    }
};

QTEST_GUILESS_MAIN(TestClampPlan)
#include "tst_clampplan.moc"
