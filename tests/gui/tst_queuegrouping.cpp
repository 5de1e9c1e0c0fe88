// Usage grouped by Kueue queue in the console: the cluster dashboard's "Group by" and the
// Chargeback tab's "Per" choices ClusterQueue and LocalQueue, against a real SQLite ledger.
// team-vision and research share cq-shared, team-nlp has cq-nlp, scratch has no LocalQueue:
// each queue's band and line is the sum of its namespaces' GPU-hours as the database answers,
// and a drill-down into a queue's band lists its namespaces' intervals.
// GQ_SCREENSHOT_DIR (+ GQ_SCREENSHOT_SUFFIX, GQ_SCREENSHOT_QM) saves the README's screenshot.
#include "core/usage/usagestore.h"
#include "models/chargeback/chargebackmodel.h"
#include "models/usage/drilldownmodel.h"
#include "models/usage/rankingmodel.h"
#include "models/usage/usagechartmodel.h"
#include "services/usage/usagechartservice.h"
#include "tests/gui/guitestutil.h"
#include "tests/gui/queueledger.h"
#include "widgets/chargeback/chargebackpage.h"
#include "widgets/charts/usagechart.h"
#include "widgets/usage/clusterusagepage.h"
#include "widgets/usage/drilldowndialog.h"
#include "widgets/usage/usagechartpanel.h"
#include "widgets/usage/usagerangebar.h"
#include "core/usage/usagestore.h"

#include <QComboBox>
#include <QDateEdit>
#include <QDir>
#include <QGraphicsView>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;
using namespace gq::test;

namespace {
const QString kZone = QStringLiteral("UTC");

kueue::QueueAttribution queues() {
    return kueue::QueueAttribution(std::vector<kueue::LocalQueue>{
        {QStringLiteral("team-nlp"), QStringLiteral("nlp"), QStringLiteral("cq-nlp"), 0, 0},
        {QStringLiteral("team-vision"), QStringLiteral("vision"), QStringLiteral("cq-shared"), 0, 0},
        {QStringLiteral("research"), QStringLiteral("research"), QStringLiteral("cq-shared"), 0, 0}});
}

bool selectData(QComboBox *combo, const QString &data) {
    const int i = combo ? combo->findData(data) : -1;
    if (i < 0)
        return false;
    combo->setCurrentIndex(i);
    return true;
}
} // namespace

class TestQueueGrouping : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_url;
    std::unique_ptr<UsageStore> m_store;
    std::unique_ptr<UsageChartService> m_service;
    qint64 m_now = 0;

    double nsHours(const QString &ns, const TimeRange &range, qint64 now) {
        return *m_store->usedGpuHours(BudgetScope::Namespace, ns, range, now);
    }

private slots:
    void initTestCase() {
        const QString translator = installScreenshotTranslator();
        QVERIFY2(translator.isEmpty(), qPrintable(translator));
        QVERIFY(m_dir.isValid());
        m_url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
        auto opened = UsageStore::open(m_url);
        QVERIFY(opened);
        m_store = std::move(*opened);
        m_now = QDateTime::currentSecsSinceEpoch() / 3600 * 3600;
        // Six days of jobs in each namespace, ending an hour before now; and November for
        // the chargeback.
        const std::vector<UsageInterval> ivs = queueLedgerIntervals(m_now);
        QVERIFY(m_store->insertBulk(ivs));
        m_service = std::make_unique<UsageChartService>();
        QSignalSpy open(m_service.get(), &UsageChartService::opened);
        m_service->open(m_url);
        QVERIFY(open.wait(10000));
    }

    void dashboardGroupsByClusterQueue() {
        ClusterUsagePage page(m_service.get());
        page.setQueues(queues());
        page.rangeBar()->setZone(kZone);
        page.rangeBar()->setPreset(RangePreset::Last7Days);
        page.resize(1400, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy loaded(page.model(), &UsageChartModel::loaded);
        page.reload();
        QVERIFY(loaded.wait(10000));

        auto *groupBy = page.findChild<QComboBox *>(QStringLiteral("clusterUsageGroupBy"));
        QVERIFY(selectData(groupBy, QStringLiteral("clusterqueue")));
        const ChartData &d = page.model()->data();
        QCOMPARE(d.totals.size(), 3);
        UsageChart *chart = page.usagePanel()->chart();
        QSet<QString> labels;
        for (const auto &b : chart->chart().bands)
            labels.insert(b.label);
        QCOMPARE(labels, (QSet<QString>{QStringLiteral("cq-nlp"), QStringLiteral("cq-shared"),
                                        QStringLiteral("(no queue)")}));
        // Each band's segment is the sum of its namespaces' GPU-hours in the database.
        const QHash<QString, QStringList> members{
            {QStringLiteral("cq-nlp"), {QStringLiteral("team-nlp")}},
            {QStringLiteral("cq-shared"), {QStringLiteral("team-vision"), QStringLiteral("research")}},
            {QStringLiteral("(no queue)"), {QStringLiteral("scratch")}}};
        int shared = -1;
        double checked = 0;
        for (int band = 0; band < chart->chart().bands.size(); ++band) {
            const auto &b = chart->chart().bands.at(band);
            if (b.label == QLatin1String("cq-shared"))
                shared = band;
            for (int bucket = 0; bucket < chart->chart().categories.size(); ++bucket) {
                double sql = 0;
                for (const QString &ns : members.value(b.label))
                    sql += nsHours(ns, d.buckets[size_t(bucket)], d.query.now);
                QVERIFY2(std::abs(b.values.value(bucket) - sql) < 1e-6,
                         qPrintable(QStringLiteral("%1 bucket %2: chart %3, SQL %4")
                                        .arg(b.label)
                                        .arg(bucket)
                                        .arg(b.values.value(bucket))
                                        .arg(sql)));
                checked += sql;
            }
        }
        QVERIFY(checked > 10);
        auto *totals = page.findChild<QTableView *>(QStringLiteral("namespaceTotalsTable"));
        QCOMPARE(totals->model()->headerData(0, Qt::Horizontal).toString(),
                 QCoreApplication::translate("gq::ClusterUsagePage", "ClusterQueue"));
        QCOMPARE(totals->model()->rowCount(), 3);
        // The table's heading names what it lists: ClusterQueues, not namespaces.
        // (the label above the table, found beside it so the check reads older builds too)
        auto *heading = totals->parentWidget()->findChild<QLabel *>(QString(), Qt::FindDirectChildrenOnly);
        QVERIFY(heading);
        QCOMPARE(heading->text(), QCoreApplication::translate("gq::ClusterUsagePage", "ClusterQueues"));
        QVERIFY2(!totals->toolTip().contains(QLatin1String("Double-click")), qPrintable(totals->toolTip()));

        if (const QString dir = qEnvironmentVariable("GQ_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(300);
            QVERIFY(page.grab().save(QDir(dir).filePath(
                QStringLiteral("usage-by-queue%1.png").arg(qEnvironmentVariable("GQ_SCREENSHOT_SUFFIX")))));
        }

        // A drill-down into cq-shared lists the intervals of team-vision and research.
        QVERIFY(shared >= 0);
        int bucket = -1;
        for (int b = 0; b < chart->chart().categories.size(); ++b)
            if (chart->chart().bands.at(shared).values.value(b) > 0)
                bucket = b;
        QVERIFY(bucket >= 0);
        DrillDownDialog *dialog = page.usagePanel()->openDrillDown(bucket, shared);
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isLoaded());
        QVERIFY(std::abs(dialog->model()->total() - chart->chart().bands.at(shared).values.at(bucket)) <
                1e-6);
        dialog->close();

        // LocalQueue: "namespace/queue" bands; back to namespaces restores them.
        QVERIFY(selectData(groupBy, QStringLiteral("localqueue")));
        labels.clear();
        for (const auto &b : chart->chart().bands)
            labels.insert(b.label);
        QCOMPARE(labels, (QSet<QString>{QStringLiteral("team-nlp/nlp"), QStringLiteral("team-vision/vision"),
                                        QStringLiteral("research/research"), QStringLiteral("(no queue)")}));
        QCOMPARE(heading->text(), QCoreApplication::translate("gq::ClusterUsagePage", "LocalQueues"));
        QVERIFY(selectData(groupBy, QStringLiteral("namespace")));
        QCOMPARE(page.model()->data().totals.size(), 4);
        QCOMPARE(heading->text(), QCoreApplication::translate("gq::ClusterUsagePage", "Namespaces"));
    }

    void chargebackPerClusterQueue() {
        ChargebackPage page;
        page.setQueues(queues());
        page.findChild<QDateEdit *>(QStringLiteral("chargebackMonth"))->setDate(QDate(2026, 11, 1));
        QSignalSpy shown(&page, &ChargebackPage::reportShown);
        page.setDatabaseUrl(m_url);
        QVERIFY(shown.wait(10000));
        QTRY_VERIFY(!page.isLoading());
        const ChargebackReport perNs = page.model()->report();
        QCOMPARE(perNs.lines.size(), 4);
        QHash<QString, qint64> nsE4;
        for (const ChargebackLine &l : perNs.lines)
            nsE4.insert(l.subject, l.hoursE4);

        shown.clear();
        QVERIFY(selectData(page.findChild<QComboBox *>(QStringLiteral("chargebackBy")),
                           QStringLiteral("clusterqueue")));
        QTRY_VERIFY(!shown.isEmpty() && !page.isLoading());
        const ChargebackReport perCq = page.model()->report();
        QCOMPARE(perCq.regroupedBy, QStringLiteral("clusterqueue"));
        QCOMPARE(page.model()->headerData(ChargebackModel::SubjectColumn, Qt::Horizontal).toString(),
                 QCoreApplication::translate("gq::ChargebackModel", "ClusterQueue"));
        QHash<QString, qint64> cqE4;
        for (const ChargebackLine &l : perCq.lines)
            cqE4.insert(l.subject, l.hoursE4);
        QCOMPARE(cqE4.size(), 3);
        QVERIFY(std::abs(cqE4.value(QStringLiteral("cq-shared")) -
                         (nsE4.value(QStringLiteral("team-vision")) +
                          nsE4.value(QStringLiteral("research")))) <= 1);
        QCOMPARE(cqE4.value(QStringLiteral("cq-nlp")), nsE4.value(QStringLiteral("team-nlp")));
        QCOMPARE(cqE4.value(QStringLiteral("(no queue)")), nsE4.value(QStringLiteral("scratch")));
        QVERIFY(std::abs(perCq.totalHoursE4 - perNs.totalHoursE4) <= 1);
    }
};

QTEST_MAIN(TestQueueGrouping)
#include "tst_queuegrouping.moc"
