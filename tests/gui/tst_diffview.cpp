#include "widgets/editor/diffview.h"

#include <QApplication>
#include <QLabel>
#include <QScrollBar>
#include <QTest>
#include <QTextBlock>
#include <QToolButton>

using namespace gq;

namespace {

const QString kServer = QStringLiteral("apiVersion: v1\n"
                                       "kind: ResourceQuota\n"
                                       "metadata:\n"
                                       "  name: gpu-quota\n"
                                       "spec:\n"
                                       "  hard:\n"
                                       "    requests.cpu: \"8\"\n"
                                       "    requests.memory: 32Gi\n"
                                       "    requests.nvidia.com/gpu: \"4\"\n"
                                       "    limits.cpu: \"16\"\n");

QString mine() {
    QString s = kServer;
    s.replace(QStringLiteral("gpu: \"4\""), QStringLiteral("gpu: \"8\""));
    s.replace(QStringLiteral("    limits.cpu: \"16\"\n"), QString());
    s += QStringLiteral("    count/pods: \"20\"\n");
    return s;
}

QColor blockBackground(const DiffPane *pane, int row) {
    return pane->document()->findBlockByNumber(row).blockFormat().background().color();
}

// Text ranges of a block whose character background differs from the block's.
QStringList markedRuns(const DiffPane *pane, int row) {
    QStringList runs;
    const QTextBlock block = pane->document()->findBlockByNumber(row);
    for (auto it = block.begin(); !it.atEnd(); ++it) {
        const QTextFragment f = it.fragment();
        if (f.charFormat().background().style() != Qt::NoBrush)
            runs << f.text();
    }
    return runs;
}

} // namespace

class TestDiffView : public QObject {
    Q_OBJECT
private slots:
    void identical() {
        DiffView view;
        view.setTexts(kServer, kServer);
        QVERIFY(view.isIdentical());
        QCOMPARE(view.summary(), QStringLiteral("No differences"));
        QCOMPARE(view.leftPane()->rows().size(), 10);
        QCOMPARE(view.rightPane()->rows().size(), 10);
        for (const DiffPane::Row &r : view.rightPane()->rows())
            QCOMPARE(r.tint, DiffPane::Tint::None);
        QVERIFY(!view.findChild<QToolButton *>(QStringLiteral("diffNext"))->isEnabled());
    }

    void rowsAreAlignedAndColoured() {
        DiffView view;
        view.setTitles(QStringLiteral("Server"), QStringLiteral("Yours"));
        view.setTexts(kServer, mine());
        QVERIFY(!view.isIdentical());
        const LineDiff &d = view.diff();
        QCOMPARE(d.changed, 2);
        QCOMPARE(d.added, 0);
        QCOMPARE(d.removed, 0);
        QCOMPARE(view.summary(), QStringLiteral("2 lines changed"));

        const QList<DiffPane::Row> &left = view.leftPane()->rows();
        const QList<DiffPane::Row> &right = view.rightPane()->rows();
        QCOMPARE(left.size(), right.size());
        QCOMPARE(view.leftPane()->document()->blockCount(), view.rightPane()->document()->blockCount());
        // Row 8 is the GPU line: changed on both sides with the number marked.
        QCOMPARE(left[8].text, QStringLiteral("    requests.nvidia.com/gpu: \"4\""));
        QCOMPARE(right[8].text, QStringLiteral("    requests.nvidia.com/gpu: \"8\""));
        QCOMPARE(left[8].number, 9);
        QCOMPARE(right[8].number, 9);
        QCOMPARE(left[8].tint, DiffPane::Tint::Removed);
        QCOMPARE(right[8].tint, DiffPane::Tint::Added);
        QCOMPARE(markedRuns(view.leftPane(), 8), QStringList{QStringLiteral("4")});
        QCOMPARE(markedRuns(view.rightPane(), 8), QStringList{QStringLiteral("8")});
        QCOMPARE(blockBackground(view.rightPane(), 8),
                 DiffPane::tintColor(DiffPane::Tint::Added, false, false));
        QCOMPARE(blockBackground(view.leftPane(), 8),
                 DiffPane::tintColor(DiffPane::Tint::Removed, false, false));
        // Unchanged rows are not tinted.
        QCOMPARE(view.rightPane()->document()->findBlockByNumber(0).blockFormat().background().style(),
                 Qt::NoBrush);
    }

    void additionsAndDeletionsGetFillers() {
        DiffView view;
        view.setTexts(QStringLiteral("a\nb\nc\n"), QStringLiteral("a\nc\nd\ne\n"));
        const LineDiff &d = view.diff();
        // b removed, then d and e added at the end (after c).
        QCOMPARE(d.removed, 1);
        QCOMPARE(d.added, 2);
        const QList<DiffPane::Row> &left = view.leftPane()->rows();
        const QList<DiffPane::Row> &right = view.rightPane()->rows();
        QCOMPARE(left.size(), 5);
        QCOMPARE(right[1].tint, DiffPane::Tint::Filler);
        QCOMPARE(right[1].number, 0);
        QCOMPARE(left[1].tint, DiffPane::Tint::Removed);
        QCOMPARE(left[3].tint, DiffPane::Tint::Filler);
        QCOMPARE(right[3].tint, DiffPane::Tint::Added);
        QCOMPARE(right[3].text, QStringLiteral("d"));
        QCOMPARE(right[3].number, 3);
    }

    void emptySides() {
        DiffView view;
        view.setTexts(QString(), QStringLiteral("x\ny\n"));
        QCOMPARE(view.diff().added, 2);
        QCOMPARE(view.leftPane()->rows().size(), 2);
        QCOMPARE(view.leftPane()->rows().first().tint, DiffPane::Tint::Filler);
        view.setTexts(QStringLiteral("x\ny\n"), QString());
        QCOMPARE(view.diff().removed, 2);
        view.setTexts(QString(), QString());
        QVERIFY(view.isIdentical());
    }

    void scrollingIsSynchronized() {
        QString left;
        QString right;
        for (int i = 0; i < 400; ++i) {
            left += QStringLiteral("    key%1: value%1\n").arg(i);
            right += i % 50 == 0 ? QStringLiteral("    key%1: changed\n").arg(i)
                                 : QStringLiteral("    key%1: value%1\n").arg(i);
        }
        DiffView view;
        view.resize(800, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setTexts(left, right);
        QScrollBar *lv = view.leftPane()->verticalScrollBar();
        QScrollBar *rv = view.rightPane()->verticalScrollBar();
        QVERIFY(rv->maximum() > 100);
        rv->setValue(150);
        QCOMPARE(lv->value(), 150);
        lv->setValue(42);
        QCOMPARE(rv->value(), 42);

        // Change navigation moves both sides to the next hunk.
        QCOMPARE(view.diff().hunkStarts().size(), 8);
        view.nextChange(); // setTexts showed hunk 0; this is hunk 1 (row 50)
        QCOMPARE(view.currentHunk(), 1);
        QCOMPARE(view.rightPane()->textCursor().blockNumber(), 50);
        QCOMPARE(lv->value(), rv->value());
        view.previousChange();
        view.previousChange(); // wraps to the last
        QCOMPARE(view.currentHunk(), 7);
        QCOMPARE(view.rightPane()->textCursor().blockNumber(), 350);
    }

    void replacingTextsResets() {
        DiffView view;
        view.setTexts(QStringLiteral("a\n"), QStringLiteral("b\n"));
        QCOMPARE(view.diff().changed, 1);
        view.setTexts(QStringLiteral("a\n"), QStringLiteral("a\n"));
        QVERIFY(view.isIdentical());
        QCOMPARE(view.rightPane()->rows().first().tint, DiffPane::Tint::None);
        QCOMPARE(view.findChild<QLabel *>(QStringLiteral("diffSummary"))->text(),
                 QStringLiteral("No differences"));
    }
};

QTEST_MAIN(TestDiffView)
#include "tst_diffview.moc"
