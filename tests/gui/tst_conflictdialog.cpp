#include "widgets/editor/conflictdialog.h"
#include "widgets/editor/diffview.h"
#include "widgets/editor/yamleditor.h"

#include <QApplication>
#include <QFrame>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTextDocument>

using namespace gq;

namespace {

const QString kBase = QStringLiteral("apiVersion: v1\n"
                                     "kind: ResourceQuota\n"
                                     "metadata:\n"
                                     "  name: gpu-quota\n"
                                     "  namespace: team-a\n"
                                     "  resourceVersion: \"100\"\n"
                                     "spec:\n"
                                     "  hard:\n"
                                     "    requests.cpu: \"8\"\n"
                                     "    requests.memory: 32Gi\n"
                                     "    requests.nvidia.com/gpu: \"4\"\n");

QString with(QString s, const QString &from, const QString &to) {
    s.replace(from, to);
    return s;
}

// Someone raised the CPU limit on the server (and the version moved on).
const QString kServer = with(with(kBase, QStringLiteral("\"100\""), QStringLiteral("\"117\"")),
                             QStringLiteral("requests.cpu: \"8\""), QStringLiteral("requests.cpu: \"16\""));

// Mine raised the same line the server did: the two changes overlap.
const QString kMineCpu =
    with(kBase, QStringLiteral("requests.cpu: \"8\""), QStringLiteral("requests.cpu: \"12\""));

// Shows the dialog with those three versions and waits until it is on screen.
bool showVersions(ConflictDialog &dialog, const QString &mine) {
    dialog.setVersions(kBase, mine, kServer);
    dialog.show();
    return QTest::qWaitForWindowExposed(&dialog);
}

QPushButton *button(QWidget &w, const char *name) {
    auto *b = w.findChild<QPushButton *>(QLatin1StringView(name));
    if (!b)
        qFatal("no button %s", name);
    return b;
}

} // namespace

class TestConflictDialog : public QObject {
    Q_OBJECT
private slots:
    void nonOverlappingChangesRebaseCleanly() {
        ConflictDialog dialog;
        const QString mine = with(kBase, QStringLiteral("gpu: \"4\""), QStringLiteral("gpu: \"6\""));
        dialog.setVersions(kBase, mine, kServer);
        dialog.setObjectDescription(QStringLiteral("ResourceQuota team-a/gpu-quota"),
                                    QStringLiteral("The server answered 409 Conflict."));
        dialog.open();
        QSignalSpy resolved(&dialog, &ConflictDialog::resolved);
        QVERIFY(dialog.merge().clean());
        QTest::mouseClick(button(dialog, "rebaseButton"), Qt::LeftButton);
        QCOMPARE(resolved.size(), 1);
        QCOMPARE(dialog.resolution(), ConflictDialog::Resolution::Rebased);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        // Both changes, and the server's resourceVersion.
        const QString expected = with(kServer, QStringLiteral("gpu: \"4\""), QStringLiteral("gpu: \"6\""));
        QCOMPARE(dialog.resultText(), expected);
        QCOMPARE(resolved.first().at(1).toString(), expected);
    }

    void overlappingChangesReportAConflict() {
        ConflictDialog dialog;
        const QString mine = kMineCpu;
        QVERIFY(showVersions(dialog, mine));
        QSignalSpy resolved(&dialog, &ConflictDialog::resolved);
        QVERIFY(!dialog.merge().clean());
        QCOMPARE(dialog.merge().conflicts.size(), 1);

        QTest::mouseClick(button(dialog, "rebaseButton"), Qt::LeftButton);
        // Not resolved: the dialog stays and lists the conflict clearly.
        QCOMPARE(resolved.size(), 0);
        QVERIFY(dialog.isVisible());
        auto *panel = dialog.findChild<QFrame *>(QStringLiteral("conflictPanel"));
        QVERIFY(panel && panel->isVisible());
        QTextDocument rendered;
        rendered.setHtml(dialog.findChild<QLabel *>(QStringLiteral("conflictList"))->text());
        const QString list = rendered.toPlainText();
        QVERIFY2(list.contains(QStringLiteral("requests.cpu: \"12\"")), qPrintable(list));
        QVERIFY(list.contains(QStringLiteral("requests.cpu: \"16\"")));
        QVERIFY(list.contains(QStringLiteral("requests.cpu: \"8\"")));
        QVERIFY2(list.contains(QStringLiteral("spec.hard[requests.cpu]")), qPrintable(list));

        // Taking it to the editor gives the text with markers — which the editor refuses.
        QTest::mouseClick(button(dialog, "takeConflictsButton"), Qt::LeftButton);
        QCOMPARE(resolved.size(), 1);
        QCOMPARE(dialog.resolution(), ConflictDialog::Resolution::RebasedWithConflicts);
        QVERIFY(dialog.resultText().contains(QStringLiteral("<<<<<<< yours")));
        QVERIFY(dialog.resultText().contains(QStringLiteral(">>>>>>> server")));
        YamlEditor editor;
        editor.setYaml(dialog.resultText());
        QVERIFY(!editor.validateNow().isEmpty());
    }

    void overwriteNeedsExplicitConfirmation() {
        ConflictDialog dialog;
        const QString mine = kMineCpu;
        QVERIFY(showVersions(dialog, mine));
        QSignalSpy resolved(&dialog, &ConflictDialog::resolved);

        // Confirming without having asked does nothing.
        dialog.confirmOverwrite();
        QCOMPARE(resolved.size(), 0);

        QTest::mouseClick(button(dialog, "overwriteButton"), Qt::LeftButton);
        QCOMPARE(resolved.size(), 0); // one click is not enough
        auto *confirm = dialog.findChild<QFrame *>(QStringLiteral("confirmOverwritePanel"));
        QVERIFY(confirm->isVisible());
        // It says what would be lost: the server changed two lines.
        const QString warning = confirm->findChild<QLabel *>(QStringLiteral("confirmOverwriteText"))->text();
        QVERIFY2(warning.contains(QStringLiteral("2 lines")), qPrintable(warning));
        QTest::mouseClick(button(dialog, "cancelOverwriteButton"), Qt::LeftButton);
        QVERIFY(!confirm->isVisible());
        QCOMPARE(resolved.size(), 0);

        QTest::mouseClick(button(dialog, "overwriteButton"), Qt::LeftButton);
        QTest::mouseClick(button(dialog, "confirmOverwriteButton"), Qt::LeftButton);
        QCOMPARE(resolved.size(), 1);
        QCOMPARE(dialog.resolution(), ConflictDialog::Resolution::Overwrite);
        QCOMPARE(dialog.resultText(), mine);
    }

    void discardMineTakesTheServers() {
        ConflictDialog dialog;
        dialog.setVersions(kBase, with(kBase, QStringLiteral("32Gi"), QStringLiteral("64Gi")), kServer);
        dialog.show();
        QTest::mouseClick(button(dialog, "discardButton"), Qt::LeftButton);
        QCOMPARE(dialog.resolution(), ConflictDialog::Resolution::DiscardMine);
        QCOMPARE(dialog.resultText(), kServer);
    }

    void cancelChangesNothing() {
        ConflictDialog dialog;
        dialog.setVersions(kBase, with(kBase, QStringLiteral("32Gi"), QStringLiteral("64Gi")), kServer);
        dialog.show();
        QSignalSpy resolved(&dialog, &ConflictDialog::resolved);
        QTest::mouseClick(button(dialog, "cancelButton"), Qt::LeftButton);
        QCOMPARE(resolved.size(), 1);
        QCOMPARE(dialog.resolution(), ConflictDialog::Resolution::Cancelled);
        QVERIFY(dialog.resultText().isEmpty());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));

        // Escape is a cancel too.
        ConflictDialog again;
        QVERIFY(showVersions(again, kBase));
        QTest::keyClick(&again, Qt::Key_Escape);
        QCOMPARE(again.resolution(), ConflictDialog::Resolution::Cancelled);
    }

    void threeColumnsAreAligned() {
        ConflictDialog dialog;
        QString mine = kMineCpu;
        mine += QStringLiteral("    count/pods: \"20\"\n");
        dialog.setVersions(kBase, mine, kServer);
        auto *base = dialog.findChild<DiffPane *>(QStringLiteral("conflictBase"));
        auto *yours = dialog.findChild<DiffPane *>(QStringLiteral("conflictMine"));
        auto *server = dialog.findChild<DiffPane *>(QStringLiteral("conflictServer"));
        QVERIFY(base && yours && server);
        QCOMPARE(yours->rows().size(), base->rows().size());
        QCOMPARE(server->rows().size(), base->rows().size());
        // The cpu line (row 8) is a conflict in all three; the resourceVersion line (row
        // 5) is the server's change; the appended pods line is mine, with fillers opposite.
        QCOMPARE(base->rows()[8].tint, DiffPane::Tint::Conflict);
        QCOMPARE(yours->rows()[8].tint, DiffPane::Tint::Conflict);
        QCOMPARE(server->rows()[8].tint, DiffPane::Tint::Conflict);
        QCOMPARE(server->rows()[5].tint, DiffPane::Tint::Changed);
        QCOMPARE(yours->rows()[5].tint, DiffPane::Tint::None);
        const int last = int(yours->rows().size()) - 1;
        QCOMPARE(yours->rows()[last].text, QStringLiteral("    count/pods: \"20\""));
        QCOMPARE(yours->rows()[last].tint, DiffPane::Tint::Added);
        QCOMPARE(server->rows()[last].number, 0);
        // "Yours vs the server's" tab is a plain two-way diff.
        auto *diff = dialog.findChild<DiffView *>(QStringLiteral("conflictMineVsServer"));
        QVERIFY(diff && !diff->isIdentical());
    }
};

QTEST_MAIN(TestConflictDialog)
#include "tst_conflictdialog.moc"
