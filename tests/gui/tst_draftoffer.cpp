// A draft left by a crash or a closed window is offered back, never put back
// unasked: a bar above the editor with Restore, Show diff and Discard; until the
// user answers, the editor shows the server's object and the draft file is left
// alone. Against the real test cluster, through the Quotas page.

#include "tests/gui/guitestutil.h"
#include "tests/gui/pagefixture.h"
#include "models/quotas/objectyaml.h"
#include "models/quotas/quotatablemodel.h"
#include "widgets/editor/conflictdialog.h"
#include "widgets/editor/diffview.h"
#include "widgets/quotas/limitrangepage.h"
#include "widgets/quotas/quotapage.h"
#include "widgets/editor/yamleditor.h"

#include <QAction>
#include <QDialog>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>

using namespace gq;
using namespace gq::test;

namespace {
const QString kNs = QStringLiteral("research");
const QString kOther = QStringLiteral("team-nlp");
const QString kQuota = QStringLiteral("gpu-quota");

// The YAML with the value of one `key: value` line replaced.
QString withValue(const QString &yaml, const QString &key, const QString &value) {
    QStringList lines = yaml.split(QLatin1Char('\n'));
    for (QString &l : lines)
        if (l.trimmed().startsWith(key + QLatin1Char(':')))
            l = l.left(l.indexOf(QLatin1Char(':')) + 1) + QLatin1Char(' ') + value;
    return lines.join(QLatin1Char('\n'));
}
} // namespace

class TestDraftOffer : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void offeredNotRestored();
    void showDiffComparesWithServer();
    void restorePutsDraftBackPending();
    void discardDeletesDraft();
    void editingWaitsForTheAnswer();
    void staleDraftGoesThroughThreeWayView();
    void tableEditsAutosaveAndComeBack();
    void limitRangePageOffersToo();

private:
    template <typename T> T *find(const QString &name) { return m_page->findChild<T *>(name); }
    DraftKey key() const { return {QStringLiteral("admin"), kNs, QStringLiteral("ResourceQuota"), kQuota}; }
    QString serverYaml() const;
    // Writes a draft as a console that crashed would have left it, then reopens the page.
    void leaveDraftAndReopen(const QString &text, const QString &baseText);
    QString serverGpuHard() const;

    PageFixture m_fx;
    DraftStore *m_drafts = nullptr;
    std::unique_ptr<QuotaPage> m_page;
};

void TestDraftOffer::initTestCase() {
    const QString error = m_fx.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_drafts = m_fx.drafts.get();
    QCOMPARE(m_fx.session->contextName(), QStringLiteral("admin"));
    m_page = std::make_unique<QuotaPage>(m_drafts);
    m_page->setConnection(m_fx.session.get());
    m_page->resize(1000, 640);
    m_page->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
}

void TestDraftOffer::cleanupTestCase() {
    m_page.reset();
    m_fx.stop();
}

QString TestDraftOffer::serverYaml() const {
    const auto obj = m_fx.session->quota(kNs, kQuota);
    return obj ? editableYaml(obj->object, QStringLiteral("ResourceQuota")) : QString();
}

QString TestDraftOffer::serverGpuHard() const {
    return kubectl(m_fx.cluster->kubeconfigPath(),
                   {QStringLiteral("get"), QStringLiteral("resourcequota"), kQuota, QStringLiteral("-n"), kNs,
                    QStringLiteral("-o"),
                    QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")});
}

void TestDraftOffer::leaveDraftAndReopen(const QString &text, const QString &baseText) {
    m_page->setNamespace(kOther);
    QTRY_COMPARE(m_page->namespaceName(), kOther);
    {
        // A store of its own, as the crashed process had.
        DraftStore crashed(nullptr, m_drafts->directory());
        Draft d;
        d.key = key();
        d.text = text;
        d.baseText = baseText;
        d.resourceVersion = QStringLiteral("1");
        QVERIFY(crashed.save(d));
    }
    QVERIFY(m_drafts->hasDraft(key()));
    m_page->setNamespace(kNs);
    QTRY_COMPARE(m_page->currentObject(), kQuota);
}

void TestDraftOffer::offeredNotRestored() {
    const QString server = serverYaml();
    QVERIFY(server.contains(QStringLiteral("requests.nvidia.com/gpu")));
    const QString draft =
        withValue(server, QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("\"40\""));
    QVERIFY(draft != server);
    leaveDraftAndReopen(draft, server);

    auto *bar = m_page->draftOffer();
    QTRY_VERIFY(bar->isVisible());
    QVERIFY(m_page->isDraftOffered());
    QVERIFY2(bar->text().contains(kNs + QLatin1Char('/') + kQuota), qPrintable(bar->text()));
    QVERIFY2(bar->text().contains(QStringLiteral("unsaved draft")), qPrintable(bar->text()));
    QVERIFY(bar->findChild<QPushButton *>(QStringLiteral("draftRestoreButton"))->isVisible());
    QVERIFY(bar->findChild<QPushButton *>(QStringLiteral("draftDiffButton"))->isVisible());
    QVERIFY(bar->findChild<QPushButton *>(QStringLiteral("draftDiscardButton"))->isVisible());
    // Nothing changed: the table shows the server's object, the editor holds it too.
    QVERIFY(find<QTableView>(QStringLiteral("quotaTable"))->isVisible());
    QCOMPARE(m_page->editor()->yaml(), server);
    QVERIFY(!m_page->hasPendingEdit());
    QVERIFY(!m_page->model()->isDirty());
    QCOMPARE(m_drafts->draft(key())->text, draft);
    // Waiting does not change that either (no timer restores it behind the user's back).
    QTest::qWait(300);
    QCOMPARE(m_page->editor()->yaml(), server);
    QVERIFY(bar->isVisible());
}

void TestDraftOffer::showDiffComparesWithServer() {
    QVERIFY(m_page->isDraftOffered());
    QTest::mouseClick(m_page->draftOffer()->findChild<QPushButton *>(QStringLiteral("draftDiffButton")),
                      Qt::LeftButton);
    QDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = visibleDialog<QDialog>(QStringLiteral("draftDiffDialog"))) != nullptr);
    auto *view = dialog->findChild<DiffView *>(QStringLiteral("draftDiffView"));
    QVERIFY(view);
    QVERIFY(!view->isIdentical());
    QCOMPARE(view->diff().hunkStarts().size(), 1);
    // Looking is not deciding: the offer stays, the editor is untouched.
    QVERIFY(m_page->isDraftOffered());
    QCOMPARE(m_page->editor()->yaml(), serverYaml());
    dialog->close();
    QTRY_VERIFY(!visibleDialog<QDialog>(QStringLiteral("draftDiffDialog")));
}

void TestDraftOffer::restorePutsDraftBackPending() {
    const QString server = serverYaml();
    const QString draft = m_drafts->draft(key())->text;
    QSignalSpy status(m_page.get(), &ObjectPage::statusMessage);
    QTest::mouseClick(m_page->draftOffer()->findChild<QPushButton *>(QStringLiteral("draftRestoreButton")),
                      Qt::LeftButton);
    QVERIFY(!m_page->draftOffer()->isVisible());
    QVERIFY(!m_page->isDraftOffered());
    QCOMPARE(m_page->editor()->yaml(), draft);
    QVERIFY(m_page->editor()->isVisible()); // the draft is YAML: the editor comes to the front
    QVERIFY(find<QToolButton>(QStringLiteral("quotaYamlToggle"))->isChecked());
    QVERIFY(m_page->hasPendingEdit());
    QVERIFY(find<QPushButton>(QStringLiteral("applyButton"))->isEnabled() ||
            m_page->editor()->isValidationPending());
    QVERIFY(!status.isEmpty());
    // Pending, not applied; and still a draft, in case of another crash.
    QCOMPARE(serverGpuHard(), QStringLiteral("8"));
    QVERIFY(m_drafts->hasDraft(key()));
    // Undo in the editor goes back to the server's text (restoring is one edit).
    m_page->editor()->undo();
    QCOMPARE(m_page->editor()->yaml(), server);
    m_page->editor()->redo();
    QCOMPARE(m_page->editor()->yaml(), draft);

    m_page->revert();
    QVERIFY(!m_page->hasPendingEdit());
    QVERIFY(!m_drafts->hasDraft(key()));
    m_page->setYamlMode(false);
}

void TestDraftOffer::discardDeletesDraft() {
    const QString server = serverYaml();
    leaveDraftAndReopen(withValue(server, QStringLiteral("count/pods"), QStringLiteral("\"99\"")), server);
    QTRY_VERIFY(m_page->draftOffer()->isVisible());
    QTest::mouseClick(m_page->draftOffer()->findChild<QPushButton *>(QStringLiteral("draftDiscardButton")),
                      Qt::LeftButton);
    QVERIFY(!m_page->draftOffer()->isVisible());
    QVERIFY(!m_drafts->hasDraft(key()));
    QVERIFY(!DraftStore(nullptr, m_drafts->directory()).hasDraft(key())); // the file is gone
    QCOMPARE(m_page->editor()->yaml(), server);
    QVERIFY(!m_page->hasPendingEdit());

    // Reopening offers nothing now.
    m_page->setNamespace(kOther);
    m_page->setNamespace(kNs);
    QTRY_COMPARE(m_page->currentObject(), kQuota);
    QVERIFY(!m_page->draftOffer()->isVisible());
    QVERIFY(!m_page->isDraftOffered());

    // After Discard, edits autosave again.
    m_page->setYamlMode(true);
    QVERIFY(m_page->editor()->isVisible());
    m_page->editor()->appendPlainText(QStringLiteral("# note"));
    m_drafts->flush();
    QVERIFY(m_drafts->hasDraft(key()));
    m_page->revert();
    QVERIFY(!m_drafts->hasDraft(key()));
    m_page->setYamlMode(false);
}

void TestDraftOffer::editingWaitsForTheAnswer() {
    const QString server = serverYaml();
    const QString draft =
        withValue(server, QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("\"12\""));
    leaveDraftAndReopen(draft, server);
    QTRY_VERIFY(m_page->isDraftOffered());
    QTRY_VERIFY(m_fx.session->permissions(kNs).known);
    // Until the user answers, edits could only overwrite the draft or go unsaved: the
    // edit controls wait, and say why.
    auto *plus = find<QToolButton>(QStringLiteral("gpuPlusButton"));
    QVERIFY(!plus->isEnabled());
    QVERIFY2(plus->toolTip().contains(QStringLiteral("draft")), qPrintable(plus->toolTip()));
    QVERIFY(!m_page->model()->isEditable());
    QVERIFY(!find<QPushButton>(QStringLiteral("applyButton"))->isEnabled());
    m_page->setYamlMode(true); // looking at the YAML is fine
    QVERIFY(m_page->editor()->isVisible());
    QVERIFY(m_page->editor()->isReadOnly());
    QVERIFY2(m_page->editor()->toolTip().contains(QStringLiteral("draft")),
             qPrintable(m_page->editor()->toolTip()));
    m_page->setYamlMode(false);
    m_drafts->flush();
    QCOMPARE(m_drafts->draft(key())->text, draft); // untouched

    // Discarding frees the controls.
    m_page->discardDraft();
    QVERIFY(plus->isEnabled());
    QVERIFY(m_page->model()->isEditable());
    QVERIFY(!m_page->editor()->isReadOnly());
    // So does restoring.
    leaveDraftAndReopen(draft, server);
    QTRY_VERIFY(m_page->isDraftOffered());
    QVERIFY(m_page->editor()->isReadOnly());
    m_page->restoreDraft();
    QVERIFY(!m_page->editor()->isReadOnly());
    QCOMPARE(m_page->editor()->yaml(), draft);
    m_page->revert();
    QVERIFY(!m_drafts->hasDraft(key()));
    m_page->setYamlMode(false);
}

void TestDraftOffer::staleDraftGoesThroughThreeWayView() {
    // The draft was written when count/pods was 25; the server has 30 now. The draft's
    // own change is the GPU limit.
    const QString server = serverYaml();
    QVERIFY(server.contains(QStringLiteral("count/pods: \"30\"")));
    const QString oldBase = withValue(server, QStringLiteral("count/pods"), QStringLiteral("\"25\""));
    const QString draft =
        withValue(oldBase, QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("\"10\""));
    leaveDraftAndReopen(draft, oldBase);
    QTRY_VERIFY(m_page->draftOffer()->isVisible());
    QVERIFY2(m_page->draftOffer()->text().contains(QStringLiteral("changed on the server")),
             qPrintable(m_page->draftOffer()->text()));

    m_page->restoreDraft();
    ConflictDialog *conflict = nullptr;
    QTRY_VERIFY((conflict = visibleDialog<ConflictDialog>(QStringLiteral("conflictDialog"))) != nullptr);
    // Cancelling leaves the question open.
    conflict->reject();
    QTRY_VERIFY(m_page->draftOffer()->isVisible());
    QCOMPARE(m_page->editor()->yaml(), server);
    QCOMPARE(m_drafts->draft(key())->text, draft);

    m_page->restoreDraft();
    QTRY_VERIFY((conflict = visibleDialog<ConflictDialog>(QStringLiteral("conflictDialog"))) != nullptr);
    conflict->rebase(); // the two changes touch different lines: a clean merge
    QTRY_VERIFY(!visibleDialog<ConflictDialog>(QStringLiteral("conflictDialog")));
    const QString merged = m_page->editor()->yaml();
    QVERIFY2(merged.contains(QStringLiteral("count/pods: \"30\"")), qPrintable(merged));
    QVERIFY2(merged.contains(QStringLiteral("requests.nvidia.com/gpu: \"10\"")), qPrintable(merged));
    QVERIFY(m_page->hasPendingEdit());
    QVERIFY(!m_page->draftOffer()->isVisible());
    QCOMPARE(serverGpuHard(), QStringLiteral("8"));
    m_page->revert();
    QVERIFY(!m_drafts->hasDraft(key()));
}

// Edits in the quota table are drafts too, so a crash does not lose them either.
void TestDraftOffer::tableEditsAutosaveAndComeBack() {
    QVERIFY(!m_page->isDraftOffered());
    QVERIFY(!m_drafts->hasDraft(key()));
    m_page->setYamlMode(false);
    QVERIFY(find<QTableView>(QStringLiteral("quotaTable"))->isVisible());
    const QRegularExpression nine(QStringLiteral("requests\\.nvidia\\.com/gpu: \"?9\"?\n"));
    QTest::mouseClick(find<QToolButton>(QStringLiteral("gpuPlusButton")), Qt::LeftButton);
    m_drafts->flush();
    QVERIFY(m_drafts->hasDraft(key()));
    QVERIFY2(nine.match(m_drafts->draft(key())->text).hasMatch(), qPrintable(m_drafts->draft(key())->text));
    QCOMPARE(m_drafts->draft(key())->baseText, serverYaml());
    // Undone: nothing left to keep.
    m_page->undoAction()->trigger();
    m_drafts->flush();
    QVERIFY(!m_drafts->hasDraft(key()));
    m_page->redoAction()->trigger();
    m_drafts->flush();
    QVERIFY(m_drafts->hasDraft(key()));

    // The window goes away with the edit pending; next time it is offered back.
    m_page->setNamespace(kOther);
    QVERIFY(m_drafts->hasDraft(key()));
    m_page->setNamespace(kNs);
    QTRY_COMPARE(m_page->currentObject(), kQuota);
    QTRY_VERIFY(m_page->draftOffer()->isVisible());
    QVERIFY(!m_page->model()->isDirty());
    m_page->restoreDraft();
    QVERIFY2(nine.match(m_page->editor()->yaml()).hasMatch(), qPrintable(m_page->editor()->yaml()));
    QVERIFY(m_page->hasPendingEdit());
    m_page->setYamlMode(false);
    QCOMPARE(m_page->model()->row(m_page->model()->rowOf(QStringLiteral("requests.nvidia.com/gpu"))).hard,
             Quantity::fromInt(9));
    m_page->revert();
    QVERIFY(!m_drafts->hasDraft(key()));
}

// The Limit ranges tab shares the page logic: the same offer, the same answers.
void TestDraftOffer::limitRangePageOffersToo() {
    const DraftKey lrKey{QStringLiteral("admin"), kNs, QStringLiteral("LimitRange"),
                         QStringLiteral("container-defaults")};
    const auto obj = m_fx.session->limitRange(kNs, lrKey.name);
    QVERIFY(obj);
    const QString server = editableYaml(obj->object, QStringLiteral("LimitRange"));
    Draft d;
    d.key = lrKey;
    d.text = server + QStringLiteral("# keep defaults small\n");
    d.baseText = server;
    QVERIFY(m_drafts->save(d));

    LimitRangePage page(m_drafts);
    page.setConnection(m_fx.session.get());
    page.resize(900, 600);
    page.show();
    page.setNamespace(kNs);
    QTRY_COMPARE(page.currentObject(), lrKey.name);
    QTRY_VERIFY(page.draftOffer()->isVisible());
    QCOMPARE(page.draftOffer()->objectName(), QStringLiteral("limitRangeDraftOfferBar"));
    QCOMPARE(page.editor()->yaml(), server);
    QVERIFY(!page.hasPendingEdit());
    QTest::mouseClick(page.draftOffer()->findChild<QPushButton *>(QStringLiteral("draftRestoreButton")),
                      Qt::LeftButton);
    QCOMPARE(page.editor()->yaml(), d.text);
    QVERIFY(page.hasPendingEdit());
    page.revert();
    QVERIFY(!m_drafts->hasDraft(lrKey));

    QVERIFY(m_drafts->save(d));
    page.setNamespace(kOther);
    page.setNamespace(kNs);
    QTRY_VERIFY(page.draftOffer()->isVisible());
    QTest::mouseClick(page.draftOffer()->findChild<QPushButton *>(QStringLiteral("draftDiscardButton")),
                      Qt::LeftButton);
    QVERIFY(!m_drafts->hasDraft(lrKey));
    QCOMPARE(page.editor()->yaml(), server);
}

QTEST_MAIN(TestDraftOffer)
#include "tst_draftoffer.moc"
