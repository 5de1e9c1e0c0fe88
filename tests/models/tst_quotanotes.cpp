// The quota editor's notes (issue #26): keys the API server accepts but quota never counts
// (nvidia.com/gpu without `requests.`, limits.nvidia.com/gpu) show "not counted" instead
// of a use of 0 that looks like room; keys another manager re-applies (Argo CD) warn that
// a change will be reverted on its next sync.
#include "models/quotas/quotatablemodel.h"

#include <QtTest>

using namespace gq;

namespace {
Quantity q(int n) {
    return Quantity::fromInt(n);
}
} // namespace

class TestQuotaNotes : public QObject {
    Q_OBJECT

private slots:
    void ignoredKeys_data() {
        QTest::addColumn<QString>("resource");
        QTest::addColumn<bool>("ignored");
        QTest::newRow("requests GPU") << QStringLiteral("requests.nvidia.com/gpu") << false;
        QTest::newRow("bare GPU") << QStringLiteral("nvidia.com/gpu") << true;
        QTest::newRow("limits GPU") << QStringLiteral("limits.nvidia.com/gpu") << true;
        QTest::newRow("bare MIG") << QStringLiteral("nvidia.com/mig-1g.10gb") << true;
        QTest::newRow("DRA device class")
            << QStringLiteral("gpu.deviceclass.resource.k8s.io/devices") << false;
        QTest::newRow("object count") << QStringLiteral("count/pods") << false;
        QTest::newRow("cpu") << QStringLiteral("cpu") << false;
        QTest::newRow("limits cpu") << QStringLiteral("limits.cpu") << false;
        QTest::newRow("pods") << QStringLiteral("pods") << false;
    }
    void ignoredKeys() {
        QFETCH(QString, resource);
        QFETCH(bool, ignored);
        QCOMPARE(QuotaTableModel::isIgnoredByQuota(resource), ignored);
    }

    void ignoredRowSaysNotCounted() {
        QuotaTableModel m;
        m.load({{QStringLiteral("nvidia.com/gpu"), q(8)},
                {QStringLiteral("limits.nvidia.com/gpu"), q(8)},
                {QStringLiteral("requests.nvidia.com/gpu"), q(8)}},
               {{QStringLiteral("requests.nvidia.com/gpu"), q(2)}});
        const int bare = m.rowOf(QStringLiteral("nvidia.com/gpu"));
        const int limits = m.rowOf(QStringLiteral("limits.nvidia.com/gpu"));
        const int counted = m.rowOf(QStringLiteral("requests.nvidia.com/gpu"));
        for (int row : {bare, limits}) {
            QCOMPARE(m.data(m.index(row, QuotaTableModel::UsedColumn)).toString(),
                     QStringLiteral("not counted"));
            QCOMPARE(m.data(m.index(row, QuotaTableModel::UsageColumn)).toString(),
                     QStringLiteral("ignored"));
            QCOMPARE(
                m.data(m.index(row, QuotaTableModel::UsageColumn), QuotaTableModel::RatioRole).toDouble(),
                -1.0);
            QVERIFY(m.data(m.index(row, 0), QuotaTableModel::IgnoredRole).toBool());
            QVERIFY(m.data(m.index(row, 0), Qt::ToolTipRole)
                        .toString()
                        .contains(QLatin1String("requests.nvidia.com/gpu")));
        }
        QCOMPARE(m.data(m.index(counted, QuotaTableModel::UsageColumn)).toString(), QStringLiteral("25%"));
        QVERIFY(!m.data(m.index(counted, 0), QuotaTableModel::IgnoredRole).toBool());
        QCOMPARE(m.ignoredResources(),
                 (QStringList{QStringLiteral("limits.nvidia.com/gpu"), QStringLiteral("nvidia.com/gpu")}));
    }

    void otherOwnerWarns() {
        QuotaTableModel m;
        m.setOtherOwners({{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("argocd-controller")}});
        m.load({{QStringLiteral("requests.nvidia.com/gpu"), q(8)}, {QStringLiteral("pods"), q(10)}}, {});
        const int gpu = m.rowOf(QStringLiteral("requests.nvidia.com/gpu"));
        QCOMPARE(m.data(m.index(gpu, 0), QuotaTableModel::OwnerRole).toString(),
                 QStringLiteral("argocd-controller"));
        QVERIFY(m.data(m.index(gpu, QuotaTableModel::HardColumn), Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("reverted on its next sync")));
        QVERIFY(m.ownerWarnings(true).isEmpty()); // nothing pending yet
        QCOMPARE(m.ownerWarnings(false).size(), 1);
        QVERIFY(m.setHard(gpu, q(12)));
        QCOMPARE(m.ownerWarnings(true),
                 QStringList{QStringLiteral("requests.nvidia.com/gpu is managed by argocd-controller: your "
                                            "change will be reverted on its next sync")});
        QVERIFY(m.setHard(m.rowOf(QStringLiteral("pods")), q(11))); // not owned: no warning
        QCOMPARE(m.ownerWarnings(true).size(), 1);
    }
};

QTEST_MAIN(TestQuotaNotes)
#include "tst_quotanotes.moc"
