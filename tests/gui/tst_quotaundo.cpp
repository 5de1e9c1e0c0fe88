// Undo and redo of quota table edits: every hard-value edit, +/- click, added and
// removed row is one step; Ctrl+Z / Ctrl+Shift+Z work in the table; the pending
// highlight follows; a successful apply starts a fresh history. Against the real
// test cluster, through the page a user sees.

#include "tests/gui/guitestutil.h"
#include "tests/gui/pagefixture.h"
#include "models/quotas/quotatablemodel.h"
#include "widgets/editor/applyconfirmdialog.h"
#include "widgets/quotas/quotapage.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

using namespace gq;
using namespace gq::test;

namespace {
const QString kGpu = QStringLiteral("requests.nvidia.com/gpu");
const QString kNs = QStringLiteral("team-speech");

// What a user sees of the table, plus the pending and removed marks.
QString state(const QAbstractItemModel *m) {
    QStringList rows;
    for (int r = 0; r < m->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m->columnCount(); ++c)
            cells << m->index(r, c).data().toString();
        const QModelIndex hard = m->index(r, QuotaTableModel::HardColumn);
        cells << (hard.data(QuotaTableModel::PendingRole).toBool() ? QStringLiteral("pending")
                                                                   : QStringLiteral("-"));
        cells << (hard.data(QuotaTableModel::RemovedRole).toBool() ? QStringLiteral("removed")
                                                                   : QStringLiteral("-"));
        rows << cells.join(QLatin1String(" | "));
    }
    return rows.join(QLatin1Char('\n'));
}
} // namespace

class TestQuotaUndo : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void modelUndoRedoEveryEdit();
    void undoAllInTableRestoresServerState();
    void applyClearsHistory();

private:
    template <typename T> T *find(const QString &name) { return m_page->findChild<T *>(name); }
    QString serverGpuHard() const;

    PageFixture m_fx;
    std::unique_ptr<QuotaPage> m_page;
};

void TestQuotaUndo::initTestCase() {
    const QString error = m_fx.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_page = std::make_unique<QuotaPage>(m_fx.drafts.get());
    m_page->setConnection(m_fx.session.get());
    m_page->resize(900, 600);
    m_page->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
    m_page->setNamespace(kNs);
    QTRY_COMPARE(m_page->currentObject(), QStringLiteral("gpu-quota"));
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->isEditable() && m_page->model()->flags(m_page->model()->index(
                                                                  0, QuotaTableModel::HardColumn)) &
                                                                  Qt::ItemIsEditable,
                             10000);
    QTRY_VERIFY(find<QToolButton>(QStringLiteral("gpuPlusButton"))->isEnabled());
}

void TestQuotaUndo::cleanupTestCase() {
    m_page.reset();
    m_fx.stop();
}

QString TestQuotaUndo::serverGpuHard() const {
    return kubectl(m_fx.cluster->kubeconfigPath(),
                   {QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
                    QStringLiteral("-n"), kNs, QStringLiteral("-o"),
                    QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")});
}

// The model alone, including a revert, which is itself one undoable step.
void TestQuotaUndo::modelUndoRedoEveryEdit() {
    QuotaTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto q = [](const char *t) { return *Quantity::parse(QString::fromLatin1(t)); };
    model.load({{kGpu, q("8")}, {QStringLiteral("requests.cpu"), q("32")}},
               {{kGpu, q("6")}, {QStringLiteral("requests.cpu"), q("4")}});
    const QString server = state(&model);
    QUndoStack *undo = model.undoStack();
    QVERIFY(!undo->canUndo());

    QVERIFY(model.setData(model.index(model.rowOf(kGpu), QuotaTableModel::HardColumn), QStringLiteral("4")));
    QCOMPARE(undo->undoText(), QStringLiteral("Set %1 to 4").arg(kGpu));
    QVERIFY(model.addResource(QStringLiteral("limits.memory"), q("64Gi")));
    model.removeResource(model.rowOf(QStringLiteral("requests.cpu")));
    model.removeResource(model.rowOf(QStringLiteral("limits.memory"))); // added, so dropped
    QCOMPARE(undo->count(), 4);
    const QString edited = state(&model);
    QCOMPARE(model.rowCount(), 2);

    // Revert is one step and can be undone.
    model.revert();
    QCOMPARE(state(&model), server);
    undo->undo();
    QCOMPARE(state(&model), edited);

    // used moves on while history is walked: the server's value wins.
    model.updateUsed({{kGpu, q("7")}, {QStringLiteral("requests.cpu"), q("4")}});
    undo->undo(); // limits.memory back
    QCOMPARE(model.rowOf(QStringLiteral("limits.memory")), 0);
    undo->undo(); // requests.cpu no longer removed
    QVERIFY(!model.row(model.rowOf(QStringLiteral("requests.cpu"))).removed);
    undo->undo(); // limits.memory gone
    QCOMPARE(model.rowOf(QStringLiteral("limits.memory")), -1);
    undo->undo(); // GPU back to 8
    QVERIFY(!model.isDirty());
    QCOMPARE(model.row(model.rowOf(kGpu)).used, std::optional<Quantity>(q("7")));
    QCOMPARE(model.editedHard(), model.originalHard());

    while (undo->canRedo())
        undo->redo();
    QVERIFY(!model.isDirty()); // the revert was redone last
    QCOMPARE(model.rowCount(), 2);
    undo->undo();
    QCOMPARE(model.row(model.rowOf(kGpu)).hard, q("4"));
    QVERIFY(model.row(model.rowOf(QStringLiteral("requests.cpu"))).removed);
    QVERIFY(model.isDirty());

    model.load({{kGpu, q("8")}}, {});
    QVERIFY(!undo->canUndo() && !undo->canRedo());
}

void TestQuotaUndo::undoAllInTableRestoresServerState() {
    auto *table = find<QTableView>(QStringLiteral("quotaTable"));
    QuotaTableModel *model = m_page->model();
    QUndoStack *undo = model->undoStack();
    QVERIFY(table && table->isVisible());
    const QString server = state(model);
    const int serverRows = model->rowCount();
    QVERIFY(!model->isDirty());
    QVERIFY(!undo->canUndo());
    QVERIFY(!find<QToolButton>(QStringLiteral("quotaUndoButton"))->isEnabled());

    // 1. a hard value edited in place through the spin box
    const int gpuRow = model->rowOf(kGpu);
    QVERIFY(gpuRow >= 0);
    const Quantity gpuBefore = model->row(gpuRow).hard;
    const QModelIndex hard = model->index(gpuRow, QuotaTableModel::HardColumn);
    table->setCurrentIndex(hard);
    table->edit(hard);
    QSpinBox *spin = nullptr;
    QTRY_VERIFY((spin = table->findChild<QSpinBox *>(QStringLiteral("hardLimitSpinBox"))) != nullptr);
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("3"));
    QTest::keyClick(spin, Qt::Key_Return);
    QTRY_COMPARE(model->row(gpuRow).hard, Quantity::fromInt(3));
    QCOMPARE(undo->count(), 1);
    // 2. the + button
    QTest::mouseClick(find<QToolButton>(QStringLiteral("gpuPlusButton")), Qt::LeftButton);
    QCOMPARE(model->row(model->rowOf(kGpu)).hard, Quantity::fromInt(4));
    // 3. a row added
    const QString added = QStringLiteral("requests.storage");
    QCOMPARE(model->rowOf(added), -1);
    auto *name = find<QComboBox>(QStringLiteral("newResourceCombo"));
    name->setCurrentText(added);
    QTest::keyClicks(find<QLineEdit>(QStringLiteral("newResourceValue")), QStringLiteral("500Gi"));
    QTest::mouseClick(find<QPushButton>(QStringLiteral("addResourceButton")), Qt::LeftButton);
    QVERIFY(model->rowOf(added) >= 0);
    // 4. a server row removed
    int victim = -1;
    for (int r = 0; r < model->rowCount() && victim < 0; ++r)
        if (model->row(r).original && model->row(r).resource != kGpu)
            victim = r;
    QVERIFY(victim >= 0);
    const QString victimName = model->row(victim).resource;
    table->selectRow(victim);
    QTest::mouseClick(find<QPushButton>(QStringLiteral("removeResourceButton")), Qt::LeftButton);
    QVERIFY(model->row(model->rowOf(victimName)).removed);
    QCOMPARE(undo->count(), 4);
    QVERIFY(model->isDirty());
    const QString edited = state(model);
    auto *undoButton = find<QToolButton>(QStringLiteral("quotaUndoButton"));
    QVERIFY(undoButton->isEnabled());
    QVERIFY2(undoButton->toolTip().contains(QStringLiteral("Remove ") + victimName),
             qPrintable(undoButton->toolTip()));

    // A text field keeps Ctrl+Z for its own text.
    m_page->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_page.get()));
    auto *value = find<QLineEdit>(QStringLiteral("newResourceValue"));
    value->setFocus();
    QTRY_VERIFY(value->hasFocus());
    QTest::keyClicks(value, QStringLiteral("12"));
    QTest::keySequence(value, QKeySequence::Undo);
    QCOMPARE(value->text(), QString());
    QCOMPARE(state(model), edited);
    // With the focus on a button of the page (where clicking Add leaves it), Ctrl+Z
    // undoes table edits.
    auto *addButton = find<QPushButton>(QStringLiteral("addResourceButton"));
    addButton->setFocus();
    QTRY_VERIFY(addButton->hasFocus());
    QTest::keySequence(addButton, QKeySequence::Undo); // the removal
    QVERIFY(!model->row(model->rowOf(victimName)).removed);
    QTest::keySequence(addButton, QKeySequence::Redo);
    QCOMPARE(state(model), edited);

    // Undo everything with Ctrl+Z while the table has focus.
    table->setFocus();
    QTRY_VERIFY(table->hasFocus());
    QTest::keySequence(table, QKeySequence::Undo); // the removal
    QVERIFY(!model->row(model->rowOf(victimName)).removed);
    QVERIFY(!model->index(model->rowOf(victimName), QuotaTableModel::HardColumn)
                 .data(QuotaTableModel::PendingRole)
                 .toBool());                       // the highlight follows
    QTest::keySequence(table, QKeySequence::Undo); // the added row
    QCOMPARE(model->rowOf(added), -1);
    QTest::keySequence(table, QKeySequence::Undo); // +
    QCOMPARE(model->row(model->rowOf(kGpu)).hard, Quantity::fromInt(3));
    QVERIFY(model->index(model->rowOf(kGpu), QuotaTableModel::HardColumn)
                .data(QuotaTableModel::PendingRole)
                .toBool());
    QTest::keySequence(table, QKeySequence::Undo); // the in-place edit
    QCOMPARE(model->row(model->rowOf(kGpu)).hard, gpuBefore);
    QCOMPARE(state(model), server);
    QCOMPARE(model->rowCount(), serverRows);
    QVERIFY(!model->isDirty());
    QVERIFY(!m_page->hasPendingEdit());
    QVERIFY(!find<QPushButton>(QStringLiteral("applyButton"))->isEnabled());
    QVERIFY(!undoButton->isEnabled());
    QTest::keySequence(table, QKeySequence::Undo); // nothing left: harmless
    QCOMPARE(state(model), server);

    // Redo everything: the same as before the undo.
    for (int i = 0; i < 4; ++i)
        QTest::keySequence(table, QKeySequence::Redo);
    QCOMPARE(state(model), edited);
    QVERIFY(m_page->hasPendingEdit());
    QVERIFY(!find<QToolButton>(QStringLiteral("quotaRedoButton"))->isEnabled());

    // The buttons do the same.
    QTest::mouseClick(undoButton, Qt::LeftButton);
    QVERIFY(!model->row(model->rowOf(victimName)).removed);
    QTest::mouseClick(find<QToolButton>(QStringLiteral("quotaRedoButton")), Qt::LeftButton);
    QCOMPARE(state(model), edited);

    // Through the YAML editor and back, the table history survives; the editor's
    // change is one more step.
    m_page->setYamlMode(true);
    QVERIFY(!undoButton->isEnabled());
    m_page->setYamlMode(false);
    QCOMPARE(state(model), edited);
    QCOMPARE(undo->count(), 4);

    m_page->revert();
    QVERIFY(!model->isDirty());
    QCOMPARE(state(model), server);
}

void TestQuotaUndo::applyClearsHistory() {
    QuotaTableModel *model = m_page->model();
    QUndoStack *undo = model->undoStack();
    const QString before = serverGpuHard();
    QVERIFY(!before.startsWith(QLatin1String("ERROR")));
    QTest::mouseClick(find<QToolButton>(QStringLiteral("gpuPlusButton")), Qt::LeftButton);
    QVERIFY(undo->canUndo());
    QTest::mouseClick(find<QPushButton>(QStringLiteral("applyButton")), Qt::LeftButton);
    ApplyConfirmDialog *confirm = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((confirm = visibleDialog<ApplyConfirmDialog>()) != nullptr, 10000);
    QTest::mouseClick(confirm->findChild<QPushButton *>(QStringLiteral("confirmApplyButton")),
                      Qt::LeftButton);
    const QString expected = QString::number(before.toInt() + 1);
    QTRY_COMPARE_WITH_TIMEOUT(serverGpuHard(), expected, 10000);
    QTRY_VERIFY(!model->isDirty());
    QVERIFY(!undo->canUndo());
    QVERIFY(!undo->canRedo());
    QVERIFY(!find<QToolButton>(QStringLiteral("quotaUndoButton"))->isEnabled());
}

QTEST_MAIN(TestQuotaUndo)
#include "tst_quotaundo.moc"
