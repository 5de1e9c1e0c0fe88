// Editing Kueue's queues in the console window against the real test cluster (demo
// scenario, kueue.x-k8s.io/v1beta2): the one-click GPU edit of a ClusterQueue flavor with
// a note reaches the server and the audit log; Kueue's rules refuse a bad value naming the
// field; a change on the server between the dry run and the write opens the three-way view;
// the YAML editor marks Kueue's errors at their line and applies; a read-only user gets the
// edits disabled with the reason; the namespace list shows each namespace's LocalQueue.
#include "core/kube/kubeclient.h"
#include "core/kueue/kueueedit.h"
#include "core/kueue/kueuereader.h"
#include "models/audit/auditmodel.h"
#include "models/queues/queuemodels.h"
#include "models/quotas/namespacelistmodel.h"
#include "tests/gui/consolefixture.h"
#include "tests/gui/guitestutil.h"
#include "widgets/editor/applyconfirmdialog.h"
#include "widgets/editor/conflictdialog.h"
#include "widgets/editor/yamleditor.h"
#include "widgets/queues/queuequotadialog.h"
#include "widgets/queues/queuespage.h"
#include "widgets/queues/queueyamldialog.h"
#include "widgets/editor/yamleditor.h"
#include "tests/gui/queuesuite.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeView>

using namespace gq;
using namespace gq::test;

namespace {

QStandardItem *findItem(QStandardItem *parent, const QString &kind, const QString &name) {
    for (int r = 0; r < parent->rowCount(); ++r) {
        QStandardItem *c = parent->child(r);
        if (c->data(QueueTreeModel::KindRole).toString() == kind &&
            c->data(QueueTreeModel::ObjectNameRole).toString() == name)
            return c;
        if (QStandardItem *deeper = findItem(c, kind, name))
            return deeper;
    }
    return nullptr;
}

KubeResource clusterQueues() {
    return kueue::resource(QStringLiteral("clusterqueues"), QStringLiteral("v1beta2"));
}

} // namespace

class TestQueueEdit : public QObject {
    Q_OBJECT

    ConsoleFixture m_fx;
    QueuesPage *m_page = nullptr;

    QJsonObject serverQueue(const QString &name) {
        auto f = m_fx.window->session()->client()->get(clusterQueues(), {}, name);
        f.waitForFinished();
        const Result<QJsonObject> r = f.result();
        return r ? *r : QJsonObject{};
    }
    QString serverNumber(const QString &queue, const char *field) {
        const QJsonObject res = serverQueue(queue)
                                    .value(QLatin1String("spec"))
                                    .toObject()
                                    .value(QLatin1String("resourceGroups"))
                                    .toArray()
                                    .at(0)
                                    .toObject()
                                    .value(QLatin1String("flavors"))
                                    .toArray()
                                    .at(0)
                                    .toObject()
                                    .value(QLatin1String("resources"))
                                    .toArray()
                                    .at(0)
                                    .toObject();
        const QJsonValue v = res.value(QLatin1String(field));
        return v.isDouble() ? QString::number(v.toInt()) : v.toString();
    }
    // The flavor row of `queue` (its only GPU flavor in the demo) at `column`.
    QModelIndex flavorIndex(const QString &queue, const QString &flavor, int column) {
        QStandardItem *cq =
            findItem(m_page->treeModel()->invisibleRootItem(), QStringLiteral("clusterqueue"), queue);
        if (!cq)
            return {};
        QStandardItem *f = findItem(cq, QStringLiteral("flavor"), flavor);
        return f ? f->index().siblingAtColumn(column) : QModelIndex();
    }
    const QAbstractItemModel *auditLog() const {
        auto *view = m_fx.find<QTableView>(QStringLiteral("auditView"));
        auto *proxy = view ? qobject_cast<QSortFilterProxyModel *>(view->model()) : nullptr;
        return proxy ? proxy->sourceModel() : nullptr;
    }
    void refreshPage() {
        QSignalSpy done(m_page, &QueuesPage::done);
        m_page->refresh();
        QVERIFY(done.wait(20000));
    }
    QueueQuotaDialog *openQuotaDialog(const QString &queue, const QString &flavor, int column) {
        const QModelIndex index = flavorIndex(queue, flavor, column);
        if (!index.isValid())
            return nullptr;
        auto *dialog = qobject_cast<QueueQuotaDialog *>(m_page->editQuota(index));
        if (!dialog)
            return nullptr;
        QSignalSpy loaded(dialog, &QueueQuotaDialog::loaded);
        if (!loaded.wait(10000))
            return nullptr;
        return dialog;
    }

private slots:
    void initTestCase() {
        const QString translator = installScreenshotTranslator();
        QVERIFY2(translator.isEmpty(), qPrintable(translator));
        ConsoleFixture::WindowOptions options;
        options.usageDb = true;
        const QString err = m_fx.start(options);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        m_page = m_fx.window->queuesPage();
        auto *tabs = m_fx.find<QTabWidget>(QStringLiteral("detailsTabs"));
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->widget(i) == m_page || tabs->widget(i)->isAncestorOf(m_page))
                tabs->setCurrentIndex(i);
        QTRY_VERIFY_WITH_TIMEOUT(m_page->canEdit().has_value(), 20000);
        QVERIFY(*m_page->canEdit());
        QTRY_VERIFY_WITH_TIMEOUT(flavorIndex(QStringLiteral("cq-nlp"), QStringLiteral("h100"), 0).isValid(),
                                 20000);
    }
    void cleanupTestCase() { m_fx.stop(); }

    void nominalQuotaEditWithNoteReachesServerAndAudit() {
        QCOMPARE(serverNumber(QStringLiteral("cq-nlp"), "nominalQuota"), QStringLiteral("16"));
        QueueQuotaDialog *dialog =
            openQuotaDialog(QStringLiteral("cq-nlp"), QStringLiteral("h100"), QueueTreeModel::NominalColumn);
        QVERIFY(dialog);
        QCOMPARE(dialog->currentText(), QStringLiteral("16"));
        auto *spin = dialog->findChild<QSpinBox *>(QStringLiteral("queueQuotaValue"));
        spin->setValue(20);
        QVERIFY(dialog->errorText().isEmpty());
        auto *review = dialog->findChild<QPushButton *>(QStringLiteral("queueQuotaReview"));
        QVERIFY(review->isEnabled());

        // The README's screenshot of the dialog (GQ_SCREENSHOT_DIR, GQ_SCREENSHOT_SUFFIX).
        if (const QString dir = qEnvironmentVariable("GQ_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(200);
            QVERIFY(dialog->grab().save(QDir(dir).filePath(
                QStringLiteral("queue-edit%1.png").arg(qEnvironmentVariable("GQ_SCREENSHOT_SUFFIX")))));
        }

        QTest::mouseClick(review, Qt::LeftButton);
        ApplyConfirmDialog *confirm = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (confirm = dialog->findChild<ApplyConfirmDialog *>()) && confirm->isVisible(), 10000);
        QVERIFY(confirm->findChild<QTextBrowser *>(QStringLiteral("applyChanges"))
                    ->toPlainText()
                    .contains(QStringLiteral("nominalQuota: 16 -> 20")));
        QCOMPARE(serverNumber(QStringLiteral("cq-nlp"), "nominalQuota"),
                 QStringLiteral("16")); // dry run only
        QTest::keyClicks(confirm->findChild<QLineEdit *>(QStringLiteral("applyNote")),
                         QStringLiteral("NLP deadline"));
        QTest::mouseClick(confirm->findChild<QPushButton *>(QStringLiteral("confirmApplyButton")),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(serverNumber(QStringLiteral("cq-nlp"), "nominalQuota"),
                                  QStringLiteral("20"), 10000);

        // The log itself: the audit page's "this namespace only" view leaves out cluster-scoped objects.
        const QAbstractItemModel *audit = auditLog();
        QVERIFY(audit);
        QTRY_VERIFY_WITH_TIMEOUT(audit->rowCount() >= 1, 10000);
        QCOMPARE(audit->index(0, AuditModel::NoteColumn).data().toString(), QStringLiteral("NLP deadline"));
        QCOMPARE(audit->index(0, AuditModel::ActionColumn).data().toString(),
                 QStringLiteral("clusterqueue.apply"));
        QVERIFY(
            audit->index(0, AuditModel::ObjectColumn).data().toString().contains(QStringLiteral("cq-nlp")));
        QVERIFY(audit->index(0, 0).data(AuditModel::DiffRole).toString().contains(QStringLiteral("20")));
        // The page reads the queue again after the write.
        QTRY_COMPARE_WITH_TIMEOUT(
            flavorIndex(QStringLiteral("cq-nlp"), QStringLiteral("h100"), QueueTreeModel::NominalColumn)
                .data()
                .toString(),
            QStringLiteral("20"), 20000);
    }

    void kueueRulesNameTheField() {
        QueueQuotaDialog *dialog = openQuotaDialog(QStringLiteral("cq-nlp"), QStringLiteral("h100"),
                                                   QueueTreeModel::LendingLimitColumn);
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QComboBox *>(QStringLiteral("queueQuotaField"))->currentIndex(),
                 int(kueue::QuotaField::LendingLimit));
        dialog->findChild<QCheckBox *>(QStringLiteral("queueQuotaUnset"))->setChecked(false);
        dialog->findChild<QSpinBox *>(QStringLiteral("queueQuotaValue"))->setValue(500);
        QVERIFY2(dialog->errorText().contains(QStringLiteral("lendingLimit")),
                 qPrintable(dialog->errorText()));
        QVERIFY(dialog->errorText().contains(QStringLiteral("nominalQuota")));
        QVERIFY(!dialog->findChild<QPushButton *>(QStringLiteral("queueQuotaReview"))->isEnabled());
        dialog->reject();
    }

    void changeOnServerOpensThreeWayView() {
        refreshPage();
        QueueQuotaDialog *dialog = openQuotaDialog(QStringLiteral("cq-nlp"), QStringLiteral("h100"),
                                                   QueueTreeModel::BorrowingLimitColumn);
        QVERIFY(dialog);
        dialog->findChild<QSpinBox *>(QStringLiteral("queueQuotaValue"))->setValue(10);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("queueQuotaReview")),
                          Qt::LeftButton);
        ApplyConfirmDialog *confirm = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (confirm = dialog->findChild<ApplyConfirmDialog *>()) && confirm->isVisible(), 10000);
        // Someone else sets the borrowing limit meanwhile.
        const QJsonObject now = serverQueue(QStringLiteral("cq-nlp"));
        auto theirs = kueue::withQuota(now, QStringLiteral("h100"), QStringLiteral("nvidia.com/gpu"),
                                       kueue::QuotaField::BorrowingLimit, Quantity::fromInt(4));
        QVERIFY(theirs);
        auto written = m_fx.window->session()->client()->replace(clusterQueues(), {}, *theirs);
        written.waitForFinished();
        QVERIFY(written.result().has_value());

        QTest::mouseClick(confirm->findChild<QPushButton *>(QStringLiteral("confirmApplyButton")),
                          Qt::LeftButton);
        ConflictDialog *conflict = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (conflict = dialog->findChild<ConflictDialog *>(QStringLiteral("conflictDialog"))) &&
                conflict->isVisible(),
            10000);
        QCOMPARE(serverNumber(QStringLiteral("cq-nlp"), "borrowingLimit"),
                 QStringLiteral("4")); // not overwritten
        conflict->discardMine();
        QTRY_COMPARE(dialog->currentText(), QStringLiteral("4"));
        dialog->reject();
    }

    void yamlEditorMarksKueueErrorsAndApplies() {
        refreshPage();
        QStandardItem *cq = findItem(m_page->treeModel()->invisibleRootItem(), QStringLiteral("clusterqueue"),
                                     QStringLiteral("cq-genai"));
        QVERIFY(cq);
        auto *dialog = qobject_cast<QueueYamlDialog *>(m_page->editYaml(cq->index()));
        QVERIFY(dialog);
        QSignalSpy loaded(dialog, &QueueYamlDialog::loaded);
        QVERIFY(loaded.wait(10000));
        YamlEditor *editor = dialog->editor();
        const QString text = editor->yaml();
        static const QRegularExpression nominal(QStringLiteral("^( *)nominalQuota: \"?8\"?$"),
                                                QRegularExpression::MultilineOption);
        QVERIFY2(text.contains(nominal), qPrintable(text));
        // A lending limit above the nominal quota: Kueue's webhook refuses it.
        QString bad = text;
        bad.replace(nominal, QStringLiteral("\\1nominalQuota: \"8\"\n\\1lendingLimit: \"9\""));
        editor->replaceAll(bad);
        const QList<Error> errors = editor->validateNow();
        QVERIFY2(!errors.isEmpty(), qPrintable(bad));
        QVERIFY(errors.first().field.endsWith(QStringLiteral("lendingLimit")));
        const int line = int(bad.left(bad.indexOf(QStringLiteral("lendingLimit:"))).count(u'\n')) + 1;
        QCOMPARE(errors.first().line, line);

        QString good = text;
        good.replace(nominal, QStringLiteral("\\1nominalQuota: \"12\""));
        editor->replaceAll(good);
        QVERIFY(editor->validateNow().isEmpty());
        dialog->apply();
        QVERIFY(confirmApply(dialog, QStringLiteral("genai launch")));
        QTRY_COMPARE_WITH_TIMEOUT(serverNumber(QStringLiteral("cq-genai"), "nominalQuota"),
                                  QStringLiteral("12"), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(auditLog()->index(0, AuditModel::NoteColumn).data().toString(),
                                  QStringLiteral("genai launch"), 10000);
        dialog->reject();
    }

    void namespaceListShowsLocalQueue() {
        auto *view = m_fx.find<QTreeView>(QStringLiteral("namespaceView"));
        QVERIFY(view);
        // The column shows where there is room beside the others (1200 px has none).
        m_fx.window->resize(1900, 900);
        QTRY_VERIFY_WITH_TIMEOUT(!view->isColumnHidden(NamespaceListModel::QueueColumn), 40000);
        QVERIFY(!view->horizontalScrollBar()->isVisible());
        // Never at the cost of the names: each one fits its column whole, and so does
        // each queue text.
        for (int r = 0; r < view->model()->rowCount(); ++r)
            for (int c : {int(NamespaceListModel::NameColumn), int(NamespaceListModel::QueueColumn)}) {
                const QString text = view->model()->index(r, c).data().toString();
                QVERIFY2(view->fontMetrics().horizontalAdvance(text) < view->columnWidth(c),
                         qPrintable(
                             QStringLiteral("clipped: %1 (%2 px wide)").arg(text).arg(view->columnWidth(c))));
            }
        const int row =
            rowWithText(view->model(), NamespaceListModel::NameColumn, QStringLiteral("team-nlp"));
        QVERIFY(row >= 0);
        // cq-nlp reserves 20 GPUs; its nominal quota is 20 since the first case.
        QTRY_COMPARE_WITH_TIMEOUT(
            view->model()->index(row, NamespaceListModel::QueueColumn).data().toString(),
            QStringLiteral("nlp → cq-nlp 20/20"), 40000);
        const int plain =
            rowWithText(view->model(), NamespaceListModel::NameColumn, QStringLiteral("default"));
        if (plain >= 0)
            QCOMPARE(view->model()->index(plain, NamespaceListModel::QueueColumn).data().toString(),
                     QString());
        // Without room it gives way rather than add a horizontal scroll bar.
        m_fx.window->resize(1200, 800);
        QTRY_VERIFY(view->isColumnHidden(NamespaceListModel::QueueColumn));
    }

    void readOnlyUserCannotEdit() {
        ClusterConnection viewer;
        QSignalSpy synced(&viewer, &ClusterConnection::synced);
        viewer.connectTo(m_fx.kubeconfig(), QStringLiteral("readonly"));
        QVERIFY(synced.wait(20000));
        QueuesPage page;
        QSignalSpy known(&page, &QueuesPage::permissionsKnown);
        QSignalSpy done(&page, &QueuesPage::done);
        page.setConnection(&viewer);
        page.show();
        QVERIFY(known.wait(20000) || !known.isEmpty());
        QVERIFY(done.count() > 0 || done.wait(20000));
        QCOMPARE(page.canEdit(), std::optional<bool>(false));
        auto *editQuota = page.findChild<QPushButton *>(QStringLiteral("queuesEditQuota"));
        auto *editYaml = page.findChild<QPushButton *>(QStringLiteral("queuesEditYaml"));
        QVERIFY(!editQuota->isEnabled());
        QVERIFY(!editYaml->isEnabled());
        QVERIFY2(editQuota->toolTip().contains(QStringLiteral("SelfSubjectAccessReview")),
                 qPrintable(editQuota->toolTip()));
        QVERIFY(page.statusText().contains(QStringLiteral("read-only")));
        QStandardItem *cq = findItem(page.treeModel()->invisibleRootItem(), QStringLiteral("clusterqueue"),
                                     QStringLiteral("cq-nlp"));
        QVERIFY(cq);
        QStandardItem *flavor = findItem(cq, QStringLiteral("flavor"), QStringLiteral("h100"));
        QVERIFY(flavor);
        QCOMPARE(page.editQuota(flavor->index()), nullptr);
        QCOMPARE(page.editYaml(cq->index()), nullptr);
    }
};

QTEST_MAIN(TestQueueEdit)
#include "tst_queueedit.moc"
