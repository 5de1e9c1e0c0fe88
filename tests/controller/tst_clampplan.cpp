// clampplan, the pure half of budget enforcement: which namespaces the enforcer leaves
// alone (being deleted), whether a quota's clamp is enforced yet, a DRA key's clamp. The
// clamp and lift plans are exercised end to end in tst_budgetenforcer.
#include "services/controller/clampplan.h"

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
    // A DRA key is clamped like requests.nvidia.com/gpu, to the devices quota counts for the
    // namespace's claims (status.used): pods do not name them.
    void draKeyClampedToClaimedDevices() {
        const QJsonObject quota =
            QJsonDocument::fromJson(QByteArray(R"({"metadata":{"name":"q","namespace":"ml"},
            "spec":{"hard":{"gpu.nvidia.com.deviceclass.resource.k8s.io/devices":"8",
                            "nic.example.com.deviceclass.resource.k8s.io/devices":"4","requests.cpu":"16"}},
            "status":{"used":{"gpu.nvidia.com.deviceclass.resource.k8s.io/devices":"3"}}})"))
                .object();
        QVERIFY(
            clampplan::isGpuQuotaKey(QStringLiteral("gpu.nvidia.com.deviceclass.resource.k8s.io/devices")));
        QVERIFY(
            !clampplan::isGpuQuotaKey(QStringLiteral("nic.example.com.deviceclass.resource.k8s.io/devices")));
        const clampplan::Plan plan =
            clampplan::planClamp(quota, {}, 1796126400, QStringLiteral("Denied: spent"));
        QCOMPARE(plan.action, clampplan::Plan::Action::Replace);
        QCOMPARE(plan.after,
                 (QJsonObject{{QStringLiteral("gpu.nvidia.com.deviceclass.resource.k8s.io/devices"),
                               QStringLiteral("3")}}));
        const QJsonObject hard =
            plan.quota.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject();
        QCOMPARE(hard.value(QLatin1String("nic.example.com.deviceclass.resource.k8s.io/devices")).toString(),
                 QStringLiteral("4"));
        QCOMPARE(clampplan::planLift(plan.quota).after,
                 (QJsonObject{{QStringLiteral("gpu.nvidia.com.deviceclass.resource.k8s.io/devices"),
                               QStringLiteral("8")}}));
    }
    // The implicit extended resource of a DRA class (requests.deviceclass.resource.kubernetes.io/
    // <class>) is a GPU key when its class is a GPU class, clamped to what quota counted.
    void implicitDraKeyClamped() {
        const QJsonObject quota =
            QJsonDocument::fromJson(QByteArray(R"({"metadata":{"name":"q","namespace":"ml"},
            "spec":{"hard":{"requests.deviceclass.resource.kubernetes.io/gpu.nvidia.com":"6",
                            "requests.deviceclass.resource.kubernetes.io/nic.example.com":"2"}},
            "status":{"used":{"requests.deviceclass.resource.kubernetes.io/gpu.nvidia.com":"2"}}})"))
                .object();
        const clampplan::Plan plan =
            clampplan::planClamp(quota, {}, 1796126400, QStringLiteral("Denied: spent"));
        QCOMPARE(plan.action, clampplan::Plan::Action::Replace);
        QCOMPARE(plan.after,
                 (QJsonObject{{QStringLiteral("requests.deviceclass.resource.kubernetes.io/gpu.nvidia.com"),
                               QStringLiteral("2")}}));
    }
    void enforced() {
        QFETCH(QByteArray, json);
        QFETCH(bool, enforced);
        QCOMPARE(clampplan::enforced(QJsonDocument::fromJson(json).object()), enforced);
    }
};

QTEST_GUILESS_MAIN(TestClampPlan)
#include "tst_clampplan.moc"
