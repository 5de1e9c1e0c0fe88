// The console window against the real test cluster: edits in the quota table
// reach the server, concurrent kubectl changes open the conflict view, invalid
// YAML is refused with the marker on its line, a Terminating namespace is marked
// in the list, and a read-only identity gets disabled controls. Widgets are found
// by objectName, as a user would find them.

#include "widgets/editor/applyconfirmdialog.h"
#include "models/audit/auditmodel.h"
#include "widgets/editor/conflictdialog.h"
#include "widgets/common/errorbanner.h"
#include "tests/gui/consolefixture.h"
#include "tests/gui/guitestutil.h"
#include "app/console/mainwindow.h"
#include "models/quotas/namespacelistmodel.h"
#include "widgets/quotas/namespacepanel.h"
#include "widgets/quotas/quotapage.h"
#include "models/quotas/quotatablemodel.h"
#include "widgets/quotas/templatedialog.h"
#include "widgets/editor/yamleditor.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace gq;
using namespace gq::test;

namespace {
const QString kGpu = QStringLiteral("requests.nvidia.com/gpu");
}

class TestConsole : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void listShowsDemoNamespaces();
    void filterNarrowsTheList();
    void editGpuHardLimitInTableAppliesToServer();
    void concurrentKubectlChangeOpensConflictView();
    void invalidYamlMarksLineAndRefusesApply();
    void namespaceWithoutQuotaOffersTemplate();
    void terminatingNamespaceIsMarked();
    void readonlyContextDisablesEditing();

private:
    void selectNamespace(const QString &ns);
    QString serverGpuHard(const QString &ns);
    template <typename T> T *find(const QString &name) { return m_fx.find<T>(name); }

    ConsoleFixture m_fx;
    MainWindow *m_window = nullptr;
};

void TestConsole::initTestCase() {
    ConsoleFixture::WindowOptions options;
    options.usageDb = true;
    const QString err = m_fx.start(options);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    m_window = m_fx.window.get();
}

void TestConsole::cleanupTestCase() {
    m_window = nullptr;
    m_fx.stop();
}

void TestConsole::selectNamespace(const QString &ns) {
    auto *panel = m_window->namespacePanel();
    QVERIFY(panel->selectNamespace(ns));
    QCOMPARE(panel->currentNamespace(), ns);
    QTRY_COMPARE(m_window->quotaPage()->currentObject(), QStringLiteral("gpu-quota"));
}

QString TestConsole::serverGpuHard(const QString &ns) {
    return kubectl(m_fx.kubeconfig(),
                   {QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
                    QStringLiteral("-n"), ns, QStringLiteral("-o"),
                    QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")});
}

void TestConsole::listShowsDemoNamespaces() {
    auto *view = find<QTreeView>(QStringLiteral("namespaceView"));
    QVERIFY(view);
    const QAbstractItemModel *model = view->model();
    QVERIFY(rowWithText(model, NamespaceListModel::NameColumn, QStringLiteral("team-vision")) >= 0);
    QVERIFY(rowWithText(model, NamespaceListModel::NameColumn, QStringLiteral("team-nlp")) >= 0);
    const int vision = rowWithText(model, NamespaceListModel::NameColumn, QStringLiteral("team-vision"));
    // 13 of 16 GPUs held by running pods: near the limit.
    QCOMPARE(model->index(vision, NamespaceListModel::GpuColumn).data().toString(),
             QStringLiteral("13 / 16"));
    QVERIFY(
        model->index(vision, NamespaceListModel::StatusColumn).data(NamespaceListModel::BadgesRole).toInt() &
        NamespaceListModel::NearLimitBadge);
    QVERIFY(m_window->findChild<QLabel *>(QStringLiteral("identityLabel"))
                ->text()
                .contains(m_window->session()->identity()));
}

void TestConsole::filterNarrowsTheList() {
    auto *filter = find<QLineEdit>(QStringLiteral("namespaceFilter"));
    auto *view = find<QTreeView>(QStringLiteral("namespaceView"));
    QTest::keySequence(m_window, QKeySequence::Find);
    QTRY_VERIFY(filter->hasFocus());
    QTest::keyClicks(filter, QStringLiteral("team-"));
    QTRY_VERIFY(view->model()->rowCount() >= 3);
    for (int r = 0; r < view->model()->rowCount(); ++r)
        QVERIFY(view->model()->index(r, 0).data().toString().contains(QStringLiteral("team-")));
    filter->clear();
}

void TestConsole::editGpuHardLimitInTableAppliesToServer() {
    selectNamespace(QStringLiteral("team-speech"));
    QCOMPARE(serverGpuHard(QStringLiteral("team-speech")), QStringLiteral("8"));
    auto *table = find<QTableView>(QStringLiteral("quotaTable"));
    QVERIFY(table && table->isVisible());
    const int row = rowWithText(table->model(), QuotaTableModel::ResourceColumn, kGpu);
    QVERIFY(row >= 0);
    const QModelIndex hard = table->model()->index(row, QuotaTableModel::HardColumn);
    QTRY_VERIFY(hard.flags() & Qt::ItemIsEditable); // permissions arrived

    // Edit in place: the spin box editor, type 12, Enter.
    table->setCurrentIndex(hard);
    table->edit(hard);
    QSpinBox *spin = nullptr;
    QTRY_VERIFY((spin = table->findChild<QSpinBox *>(QStringLiteral("hardLimitSpinBox"))) != nullptr);
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("12"));
    QTest::keyClick(spin, Qt::Key_Return);
    QTRY_VERIFY(m_window->quotaPage()->model()->isDirty());
    QCOMPARE(hard.data().toString(), QStringLiteral("12 (was 8)"));
    QVERIFY(hard.data(QuotaTableModel::PendingRole).toBool());

    auto *apply = find<QPushButton>(QStringLiteral("applyButton"));
    QVERIFY(apply->isEnabled());
    QTest::mouseClick(apply, Qt::LeftButton);
    ApplyConfirmDialog *confirm = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((confirm = visibleDialog<ApplyConfirmDialog>()) != nullptr, 10000);
    // Nothing is written before the confirmation.
    QCOMPARE(serverGpuHard(QStringLiteral("team-speech")), QStringLiteral("8"));
    QTest::keyClicks(confirm->findChild<QLineEdit *>(QStringLiteral("applyNote")),
                     QStringLiteral("new hires"));
    QTest::mouseClick(confirm->findChild<QPushButton *>(QStringLiteral("confirmApplyButton")),
                      Qt::LeftButton);

    QTRY_COMPARE_WITH_TIMEOUT(serverGpuHard(QStringLiteral("team-speech")), QStringLiteral("12"), 10000);
    QTRY_VERIFY(!m_window->quotaPage()->model()->isDirty());
    // The list follows through the watch, and the audit log has the change.
    auto *view = find<QTreeView>(QStringLiteral("namespaceView"));
    const int nsRow =
        rowWithText(view->model(), NamespaceListModel::NameColumn, QStringLiteral("team-speech"));
    QTRY_COMPARE(view->model()->index(nsRow, NamespaceListModel::GpuColumn).data().toString(),
                 QStringLiteral("2 / 12"));
    auto *auditView = find<QTableView>(QStringLiteral("auditView"));
    QTRY_COMPARE_WITH_TIMEOUT(auditView->model()->rowCount(), 1, 10000);
    QCOMPARE(auditView->model()->index(0, AuditModel::NoteColumn).data().toString(),
             QStringLiteral("new hires"));
    QCOMPARE(auditView->model()->index(0, AuditModel::ActorColumn).data().toString(),
             m_window->session()->identity());
    QVERIFY(auditView->model()
                ->index(0, 0)
                .data(AuditModel::DiffRole)
                .toString()
                .contains(QStringLiteral("8 -> 12")));
}

void TestConsole::concurrentKubectlChangeOpensConflictView() {
    selectNamespace(QStringLiteral("team-nlp"));
    auto *page = m_window->quotaPage();
    QTRY_VERIFY(page->model()->flags(page->model()->index(0, QuotaTableModel::HardColumn)) &
                Qt::ItemIsEditable);
    auto *plus = find<QToolButton>(QStringLiteral("gpuPlusButton"));
    QTest::mouseClick(plus, Qt::LeftButton);
    QTest::mouseClick(plus, Qt::LeftButton);
    QTRY_VERIFY(page->model()->isDirty());
    const int row = page->model()->rowOf(kGpu);
    QCOMPARE(page->model()->row(row).hard, Quantity::fromInt(34));

    // Meanwhile someone else lowers it with kubectl.
    const QString out = kubectl(
        m_fx.kubeconfig(),
        {QStringLiteral("patch"), QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
         QStringLiteral("-n"), QStringLiteral("team-nlp"), QStringLiteral("--type=merge"),
         QStringLiteral("-p"), QStringLiteral(R"({"spec":{"hard":{"requests.nvidia.com/gpu":"24"}}})")});
    QVERIFY2(!out.startsWith(QLatin1String("ERROR")), qPrintable(out));

    ConflictDialog *conflict = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (conflict = visibleDialog<ConflictDialog>(QStringLiteral("conflictDialog"))) != nullptr, 10000);
    // Nothing was overwritten: the server keeps kubectl's value, the edit is still pending.
    QCOMPARE(serverGpuHard(QStringLiteral("team-nlp")), QStringLiteral("24"));
    QVERIFY(page->hasPendingEdit());
    conflict->discardMine();
    QTRY_VERIFY(!visibleDialog<ConflictDialog>(QStringLiteral("conflictDialog")));
    QTRY_COMPARE(page->model()->row(page->model()->rowOf(kGpu)).hard, Quantity::fromInt(24));
    QVERIFY(!page->hasPendingEdit());
    QCOMPARE(serverGpuHard(QStringLiteral("team-nlp")), QStringLiteral("24"));
}

void TestConsole::invalidYamlMarksLineAndRefusesApply() {
    selectNamespace(QStringLiteral("research"));
    auto *page = m_window->quotaPage();
    auto *toggle = find<QToolButton>(QStringLiteral("quotaYamlToggle"));
    QTest::mouseClick(toggle, Qt::LeftButton);
    auto *editor = find<YamlEditor>(QStringLiteral("quotaYamlEditor"));
    QTRY_VERIFY(editor->isVisible());
    QTRY_VERIFY(!editor->isReadOnly());
    QStringList lines = editor->yaml().split(QLatin1Char('\n'));
    int gpuLine = -1;
    for (int i = 0; i < lines.size(); ++i)
        if (lines.at(i).contains(kGpu))
            gpuLine = i;
    QVERIFY(gpuLine > 0);
    lines[gpuLine] = lines.at(gpuLine).section(QLatin1Char(':'), 0, 0) + QStringLiteral(": 2Gb");
    editor->setPlainText(lines.join(QLatin1Char('\n')));
    QTRY_VERIFY_WITH_TIMEOUT(editor->hasErrors() && !editor->isValidationPending(), 5000);
    QCOMPARE(editor->errors().first().line, gpuLine + 1);

    auto *apply = find<QPushButton>(QStringLiteral("applyButton"));
    QTRY_VERIFY(!apply->isEnabled());
    // Shortcuts need the window active again after the dialogs of earlier tests.
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window));
    QTest::keySequence(m_window, QKeySequence::Save);
    auto *banner = find<MessageBanner>(QStringLiteral("errorBanner"));
    QTRY_VERIFY(banner->isVisible());
    QVERIFY2(banner->text().contains(QStringLiteral("line %1").arg(gpuLine + 1)), qPrintable(banner->text()));
    QVERIFY(!visibleDialog<ApplyConfirmDialog>());
    QCOMPARE(serverGpuHard(QStringLiteral("research")), QStringLiteral("8"));
    page->revert();
    QTest::mouseClick(toggle, Qt::LeftButton);
}

void TestConsole::namespaceWithoutQuotaOffersTemplate() {
    auto *panel = m_window->namespacePanel();
    QVERIFY(panel->selectNamespace(QStringLiteral("default")));
    auto *create = find<QPushButton>(QStringLiteral("quotaEmptyCreateButton"));
    QVERIFY(create);
    QTRY_VERIFY(create->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(create->isEnabled(), 10000);
    QVERIFY(find<QLabel>(QStringLiteral("quotaEmptyLabel"))->text().contains(QStringLiteral("default")));
    QTest::mouseClick(create, Qt::LeftButton);
    TemplateDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<TemplateDialog *>()) != nullptr && dialog->isVisible());
    dialog->reject();
    // A namespace with a quota shows its table, not the offer.
    selectNamespace(QStringLiteral("team-speech"));
    QTRY_VERIFY(!create->isVisible());
}

// A namespace deleted while a finalizer is pending stays in Terminating: the list says so.
void TestConsole::terminatingNamespaceIsMarked() {
    const QString kc = m_fx.kubeconfig();
    kubectl(kc, {QStringLiteral("create"), QStringLiteral("namespace"), QStringLiteral("leaving")});
    kubectl(kc, {QStringLiteral("patch"), QStringLiteral("namespace"), QStringLiteral("leaving"),
                 QStringLiteral("--type=merge"), QStringLiteral("-p"),
                 QStringLiteral(R"({"metadata":{"finalizers":["example.com/hold"]}})")});
    auto *view = find<QTreeView>(QStringLiteral("namespaceView"));
    const QAbstractItemModel *model = view->model();
    QTRY_VERIFY(rowWithText(model, NamespaceListModel::NameColumn, QStringLiteral("leaving")) >= 0);
    kubectl(kc, {QStringLiteral("delete"), QStringLiteral("namespace"), QStringLiteral("leaving"),
                 QStringLiteral("--wait=false")});
    auto status = [&] {
        const int row = rowWithText(model, NamespaceListModel::NameColumn, QStringLiteral("leaving"));
        return row < 0 ? QModelIndex() : model->index(row, NamespaceListModel::StatusColumn);
    };
    QTRY_VERIFY_WITH_TIMEOUT(
        status().data(NamespaceListModel::BadgesRole).toInt() & NamespaceListModel::TerminatingBadge, 10000);
    QVERIFY(status().data().toString().startsWith(QStringLiteral("Terminating")));
    QVERIFY(status().data(Qt::ToolTipRole).toString().contains(QStringLiteral("being deleted")));
    // Nothing can be created there: the quota page says why instead of offering a template.
    QVERIFY(m_window->namespacePanel()->selectNamespace(QStringLiteral("leaving")));
    auto *create = find<QPushButton>(QStringLiteral("quotaEmptyCreateButton"));
    QTRY_VERIFY(create->isVisible());
    QTRY_VERIFY(!create->isEnabled());
    QVERIFY2(create->toolTip().contains(QStringLiteral("being deleted")), qPrintable(create->toolTip()));
    // The last finalizer gone, the namespace leaves the list.
    kubectl(kc, {QStringLiteral("patch"), QStringLiteral("namespace"), QStringLiteral("leaving"),
                 QStringLiteral("--type=merge"), QStringLiteral("-p"),
                 QStringLiteral(R"({"metadata":{"finalizers":null}})")});
    QTRY_COMPARE_WITH_TIMEOUT(rowWithText(model, NamespaceListModel::NameColumn, QStringLiteral("leaving")),
                              -1, 10000);
}

void TestConsole::readonlyContextDisablesEditing() {
    auto *contexts = find<QComboBox>(QStringLiteral("contextCombo"));
    const int ro = contexts->findText(QStringLiteral("readonly"));
    QVERIFY(ro >= 0);
    QSignalSpy shown(m_window, &MainWindow::dataShown);
    contexts->setCurrentIndex(ro);
    emit contexts->activated(ro);
    QVERIFY(shown.wait(20000));
    QCOMPARE(m_window->session()->contextName(), QStringLiteral("readonly"));
    selectNamespace(QStringLiteral("team-vision"));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->permissions(QStringLiteral("team-vision")).known, 10000);
    auto *page = m_window->quotaPage();
    QVERIFY(
        !(page->model()->flags(page->model()->index(0, QuotaTableModel::HardColumn)) & Qt::ItemIsEditable));
    auto *plus = find<QToolButton>(QStringLiteral("gpuPlusButton"));
    auto *apply = find<QPushButton>(QStringLiteral("applyButton"));
    QTRY_VERIFY(!plus->isEnabled());
    QVERIFY(!apply->isEnabled());
    QVERIFY2(plus->toolTip().contains(QStringLiteral("may not update")), qPrintable(plus->toolTip()));
    QVERIFY(!find<QPushButton>(QStringLiteral("quotaTemplateButton"))->isEnabled());
    QVERIFY(find<YamlEditor>(QStringLiteral("quotaYamlEditor"))->isReadOnly());
}

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
