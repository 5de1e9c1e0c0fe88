// The Queues page (widgets/queues/queuespage.cpp) against the real test cluster's demo scenario,
// which serves Kueue's kinds at kueue.x-k8s.io/v1beta2 (testcluster/kueuedemo.cpp): the
// cohort tree with its ClusterQueues, the GPU numbers per flavor and the LocalQueues; the
// pending Workloads in order with Kueue's reason, then the admitted ones; the version
// found from discovery in the status line; and what it says without a connection.
#include "models/queues/queuemodels.h"
#include "tests/gui/guitestutil.h"
#include "tests/gui/pagefixture.h"
#include "widgets/queues/queuespage.h"

#include <QApplication>
#include <QDir>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

using namespace gq;
using namespace gq::test;

namespace {

QStandardItem *childNamed(QStandardItem *parent, const QString &name) {
    for (int r = 0; r < parent->rowCount(); ++r)
        if (parent->child(r)->data(QueueTreeModel::ObjectNameRole).toString() == name)
            return parent->child(r);
    return nullptr;
}

QString cell(QStandardItem *row, int column) {
    QStandardItem *parent = row->parent();
    return parent->child(row->row(), column)->text();
}

} // namespace

class TestQueuesPage : public QObject {
    Q_OBJECT

    PageFixture m_fixture;

private slots:
    void initTestCase() {
        const QString translator = installScreenshotTranslator();
        QVERIFY2(translator.isEmpty(), qPrintable(translator));
        const QString error = m_fixture.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    void cleanupTestCase() { m_fixture.stop(); }

    void notConnected() {
        QueuesPage page;
        page.setConnection(nullptr);
        QCOMPARE(page.statusText(), QueuesPage::tr("Not connected."));
    }

    void showsCohortsQueuesAndWorkloads() {
        QueuesPage page;
        QSignalSpy done(&page, &QueuesPage::done);
        QSignalSpy known(&page, &QueuesPage::permissionsKnown);
        page.setConnection(m_fixture.session.get());
        page.resize(1100, 700);
        page.show(); // showing reads
        QVERIFY(done.wait(20000));
        QVERIFY(!known.isEmpty() || known.wait(20000));
        // The admin may edit (SelfSubjectAccessReview), so the page is not read-only.
        QCOMPARE(page.statusText(),
                 QueuesPage::tr("Kueue API kueue.x-k8s.io/%1 · ClusterQueues: %n", nullptr, 5)
                     .arg(QStringLiteral("v1beta2")));

        QueueTreeModel *tree = page.treeModel();
        QCOMPARE(tree->rowCount(), 1); // every queue sits under the root cohort ai-org
        QStandardItem *root = tree->item(0);
        QCOMPARE(root->data(QueueTreeModel::ObjectNameRole).toString(), QStringLiteral("ai-org"));
        QCOMPARE(root->rowCount(), 2);
        QStandardItem *training = childNamed(root, QStringLiteral("training"));
        QVERIFY(training);
        QCOMPARE(training->rowCount(), 3);
        QStandardItem *nlp = childNamed(training, QStringLiteral("cq-nlp"));
        QVERIFY(nlp);
        QCOMPARE(cell(nlp, QueueTreeModel::PendingColumn), QStringLiteral("1"));
        QStandardItem *h100 = childNamed(nlp, QStringLiteral("h100"));
        QVERIFY(h100);
        QCOMPARE(cell(h100, QueueTreeModel::NominalColumn), QStringLiteral("16"));
        QCOMPARE(cell(h100, QueueTreeModel::BorrowingLimitColumn), QStringLiteral("8"));
        QCOMPARE(cell(h100, QueueTreeModel::LendingLimitColumn), QStringLiteral("–"));
        QCOMPARE(cell(h100, QueueTreeModel::ReservedColumn), QStringLiteral("20"));
        QCOMPARE(cell(h100, QueueTreeModel::BorrowedColumn), QStringLiteral("4"));
        QStandardItem *lq = childNamed(nlp, QStringLiteral("team-nlp/nlp"));
        QVERIFY(lq);
        QVERIFY(lq->text().contains(QLatin1String("team-nlp")));
        QStandardItem *vision = childNamed(training, QStringLiteral("cq-vision"));
        QCOMPARE(cell(childNamed(vision, QStringLiteral("h100")), QueueTreeModel::LentColumn),
                 QStringLiteral("4"));

        WorkloadListModel *w = page.workloadModel();
        QCOMPARE(w->rowCount(), 15);
        QCOMPARE(w->item(0, WorkloadListModel::NameColumn)->text(), QStringLiteral("job-vision-sweep-3"));
        QCOMPARE(w->item(0, WorkloadListModel::StateColumn)->text(), WorkloadListModel::tr("pending"));
        QVERIFY(
            w->item(0, WorkloadListModel::ReasonColumn)->text().contains(QLatin1String("maximum capacity")));
        QCOMPARE(w->item(5, WorkloadListModel::StateColumn)->text(), WorkloadListModel::tr("admitted"));
        QVERIFY(!w->item(5, WorkloadListModel::FlavorColumn)->text().isEmpty());

        // The README's screenshot (GQ_SCREENSHOT_DIR; GQ_SCREENSHOT_SUFFIX names the language).
        if (const QString dir = qEnvironmentVariable("GQ_SCREENSHOT_DIR"); !dir.isEmpty()) {
            page.resize(1280, 820);
            QTest::qWait(200);
            const QString file = QDir(dir).filePath(
                QStringLiteral("queues%1.png").arg(qEnvironmentVariable("GQ_SCREENSHOT_SUFFIX")));
            QVERIFY(page.grab().save(file));
        }
    }
};

QTEST_MAIN(TestQueuesPage)
#include "tst_queuespage.moc"
