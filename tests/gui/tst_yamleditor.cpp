#include "services/quotas/draftstore.h"
#include "widgets/editor/findbar.h"
#include "widgets/editor/yamleditor.h"
#include "widgets/editor/yamlhighlighter.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QThread>
#include <QVBoxLayout>

using namespace gq;

namespace {

const QString kQuota = QStringLiteral("apiVersion: v1\n"                       // 1
                                      "kind: ResourceQuota\n"                  // 2
                                      "metadata:\n"                            // 3
                                      "  name: gpu-quota\n"                    // 4
                                      "  namespace: team-a\n"                  // 5
                                      "spec:\n"                                // 6
                                      "  hard:\n"                              // 7
                                      "    requests.cpu: \"8\"\n"              // 8
                                      "    requests.memory: 32Gi\n"            // 9
                                      "    requests.nvidia.com/gpu: \"4\"\n"); // 10

// kQuota with one piece of text replaced.
QString quotaWith(const QString &from, const QString &to) {
    QString s = kQuota;
    s.replace(from, to);
    return s;
}

// Puts the text cursor at the end of a 1-based line.
void moveToEndOfLine(YamlEditor &editor, int line) {
    QTextCursor c(editor.document()->findBlockByNumber(line - 1));
    c.movePosition(QTextCursor::EndOfBlock);
    editor.setTextCursor(c);
}

// Lines (1-based) that carry a wavy underline in the editor's extra selections.
QList<int> underlinedLines(const YamlEditor &editor) {
    QList<int> lines;
    for (const QTextEdit::ExtraSelection &s : editor.extraSelections()) {
        if (s.format.underlineStyle() == QTextCharFormat::WaveUnderline)
            lines << s.cursor.block().blockNumber() + 1;
    }
    return lines;
}

QString underlinedText(const YamlEditor &editor) {
    for (const QTextEdit::ExtraSelection &s : editor.extraSelections()) {
        if (s.format.underlineStyle() == QTextCharFormat::WaveUnderline)
            return s.cursor.selectedText();
    }
    return {};
}

} // namespace

class TestYamlEditor : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("tst_yamleditor"));
    }

    void validTextHasNoErrors() {
        YamlEditor editor;
        editor.show();
        QSignalSpy errorsChanged(&editor, &YamlEditor::errorsChanged);
        editor.setYaml(kQuota);
        QTRY_VERIFY(!editor.isValidationPending());
        QVERIFY2(!editor.hasErrors(), qPrintable(editor.errors().value(0).toString()));
        QVERIFY(underlinedLines(editor).isEmpty());
        QVERIFY(editor.validateNow().isEmpty());
        QVERIFY(!editor.isChanged());
        auto *summary = editor.findChild<QLabel *>(QStringLiteral("yamlProblems"));
        QVERIFY(summary);
        QVERIFY(summary->text().contains(QStringLiteral("No problems")));
    }

    void typingAnInvalidQuantityMarksItsLine() {
        YamlEditor editor;
        editor.setValidationDelay(50);
        editor.show();
        editor.setYaml(kQuota);
        QTRY_VERIFY(!editor.isValidationPending());
        QVERIFY(!editor.hasErrors());

        QSignalSpy validity(&editor, &YamlEditor::validityChanged);
        QSignalSpy finished(&editor, &YamlEditor::validationFinished);
        // Turn `"4"` into `"4x"` on line 10, as a user would type it.
        moveToEndOfLine(editor, 10);
        QTest::keyClick(&editor, Qt::Key_Left);
        QTest::keyClicks(&editor, QStringLiteral("x"));
        QCOMPARE(editor.document()->findBlockByNumber(9).text(),
                 QStringLiteral("    requests.nvidia.com/gpu: \"4x\""));

        // Apply is refused: the signal says invalid, and the error sits on line 10.
        QTRY_COMPARE(validity.size(), 1);
        QCOMPARE(validity.first().first().toBool(), false);
        QVERIFY(!finished.isEmpty());
        QCOMPARE(finished.last().first().toBool(), false);
        QVERIFY(!editor.isValidationPending());
        QVERIFY(editor.hasErrors());
        QCOMPARE(editor.errors().size(), 1);
        const Error e = editor.errors().first();
        QCOMPARE(e.line, 10);
        QVERIFY2(e.field.contains(QStringLiteral("nvidia.com/gpu")), qPrintable(e.field));
        QCOMPARE(underlinedLines(editor), QList<int>{10});
        QCOMPARE(underlinedText(editor), QStringLiteral("\"4x\""));
        QVERIFY(!editor.validateNow().isEmpty());
        auto *summary = editor.findChild<QLabel *>(QStringLiteral("yamlProblems"));
        QVERIFY(summary->text().contains(QStringLiteral("Line 10")));

        // Undo brings the valid text back and the marker goes away.
        QTest::keyClick(&editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor.toPlainText(), kQuota);
        QTRY_COMPARE(validity.size(), 2);
        QCOMPARE(validity.last().first().toBool(), true);
        QVERIFY(underlinedLines(editor).isEmpty());
    }

    void markersFollowTheTextUntilRevalidated() {
        YamlEditor editor;
        editor.show();
        QString bad = quotaWith(QStringLiteral("32Gi"), QStringLiteral("32Gb"));
        editor.setYaml(bad);
        QCOMPARE(editor.validateNow().first().line, 9);
        QCOMPARE(underlinedLines(editor), QList<int>{9});
        // Insert a line at the top; before the next validation the marker has moved
        // with its text instead of pointing at whatever is now on line 9.
        editor.setValidationDelay(60000);
        QTextCursor c(editor.document());
        c.insertText(QStringLiteral("# comment\n"));
        QVERIFY(editor.isValidationPending());
        QCOMPARE(underlinedLines(editor), QList<int>{10});
        QCOMPARE(underlinedText(editor), QStringLiteral("32Gb"));
        QCOMPARE(editor.validateNow().first().line, 10);
        QCOMPARE(underlinedLines(editor), QList<int>{10});
    }

    void brokenYamlIsReportedAtItsLine() {
        YamlEditor editor;
        editor.show();
        // An unterminated quote on line 8.
        QString broken =
            quotaWith(QStringLiteral("requests.cpu: \"8\""), QStringLiteral("requests.cpu: \"8"));
        editor.setYaml(broken);
        QTRY_VERIFY(!editor.isValidationPending());
        QVERIFY(editor.hasErrors());
        const Error e = editor.errors().first();
        QCOMPARE(e.kind, Error::Kind::Parse);
        QVERIFY2(e.line >= 8, qPrintable(QString::number(e.line)));
        QVERIFY(underlinedLines(editor).contains(e.line));
    }

    void unknownResourceNameIsAnError() {
        YamlEditor editor;
        QString bad = quotaWith(QStringLiteral("requests.memory"), QStringLiteral("requests.memroy"));
        editor.setYaml(bad);
        const QList<Error> errors = editor.validateNow();
        QVERIFY(!errors.isEmpty());
        QCOMPARE(errors.first().line, 9);
        QCOMPARE(underlinedLines(editor), QList<int>{9});
    }

    void conflictMarkersAreErrors() {
        YamlEditor editor;
        QString merged =
            quotaWith(QStringLiteral("    requests.nvidia.com/gpu: \"4\"\n"),
                      QStringLiteral("<<<<<<< yours\n    requests.nvidia.com/gpu: \"6\"\n=======\n"
                                     "    requests.nvidia.com/gpu: \"2\"\n>>>>>>> server\n"));
        editor.setYaml(merged);
        const QList<Error> errors = editor.validateNow();
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.first().line, 10);
        QVERIFY(errors.first().message.contains(QStringLiteral("conflict")));
    }

    void staleResultsAreDropped() {
        // A slow validator: the result for older text must never overwrite a newer one.
        YamlEditor editor;
        editor.setValidationDelay(0);
        editor.setValidator([](const QString &text) {
            QThread::msleep(text.size() < 3 ? 150 : 10);
            Error e = Error::make(Error::Kind::Invalid, text);
            e.line = 1;
            return QList<Error>{e};
        });
        editor.setYaml(QStringLiteral("a"));
        QTest::qWait(5);
        editor.setPlainText(QStringLiteral("abc"));
        QTRY_VERIFY(!editor.isValidationPending());
        QTest::qWait(300); // let the slow, stale run finish too
        QCOMPARE(editor.errors().size(), 1);
        QCOMPARE(editor.errors().first().message, QStringLiteral("abc"));
    }

    void canonicalizeQuantities() {
        YamlEditor editor;
        editor.show();
        QString text = quotaWith(QStringLiteral("requests.cpu: \"8\""),
                                 QStringLiteral("requests.cpu: 1000m # one core"));
        text.replace(QStringLiteral("32Gi"), QStringLiteral("1.5Gi"));
        editor.setYaml(text);
        moveToEndOfLine(editor, 4);
        QVERIFY(editor.canonicalizeQuantities());
        const QString after = editor.toPlainText();
        QVERIFY2(after.contains(QStringLiteral("requests.cpu: 1 # one core\n")), qPrintable(after));
        QVERIFY2(after.contains(QStringLiteral("requests.memory: 1536Mi\n")), qPrintable(after));
        QVERIFY(after.contains(QStringLiteral("requests.nvidia.com/gpu: \"4\"")));
        QCOMPARE(editor.textCursor().blockNumber(), 3); // the cursor stayed where it was
        QVERIFY(editor.isChanged());

        // One undo step takes the whole rewrite back.
        QTest::keyClick(&editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor.toPlainText(), text);
        QTest::keyClick(&editor, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(editor.toPlainText(), after);

        // Through the action (menu / shortcut) as well; already canonical is a no-op.
        editor.canonicalizeAction()->trigger();
        QCOMPARE(editor.toPlainText(), after);
    }

    void readOnlyMeansReadOnly() {
        YamlEditor editor;
        editor.show();
        QString text = quotaWith(QStringLiteral("\"8\""), QStringLiteral("8000m"));
        editor.setYaml(text);
        editor.setReadOnly(true);
        QVERIFY(!editor.canonicalizeAction()->isEnabled());
        QVERIFY(!editor.canonicalizeQuantities());
        QTest::keyClick(&editor, Qt::Key_Return);
        QTest::keyClick(&editor, Qt::Key_Tab);
        QCOMPARE(editor.toPlainText(), text);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("q.yaml"));
        QVERIFY(editor.saveToFile(path).has_value()); // saving a copy is fine
        QVERIFY(!editor.loadFromFile(path).has_value());
        editor.setReadOnly(false);
        QVERIFY(editor.canonicalizeAction()->isEnabled());
        QVERIFY(editor.canonicalizeQuantities());
        QVERIFY(editor.toPlainText().contains(QStringLiteral("requests.cpu: 8\n")));
    }

    void canonicalizeRefusesBrokenYaml() {
        YamlEditor editor;
        const QString broken = QStringLiteral("spec: [1000m\n");
        editor.setYaml(broken);
        QVERIFY(!editor.canonicalizeQuantities());
        QCOMPARE(editor.toPlainText(), broken);
        QVERIFY(editor.hasErrors());
    }

    void findBar() {
        YamlEditor editor;
        editor.resize(600, 400);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setYaml(kQuota);
        FindBar *bar = editor.findBar();
        QVERIFY(bar->isHidden());
        QTest::keyClick(&editor, Qt::Key_F, Qt::ControlModifier);
        QVERIFY(!bar->isHidden());
        auto *field = bar->findChild<QLineEdit *>(QStringLiteral("findField"));
        QVERIFY(field);
        QTRY_VERIFY(field->hasFocus());
        QTest::keyClicks(field, QStringLiteral("requests"));
        QCOMPARE(bar->matchCount(), 3);
        // Typing jumped to the first match; Enter goes to the next, wrapping around.
        QCOMPARE(editor.textCursor().blockNumber(), 7);
        QCOMPARE(editor.textCursor().selectedText(), QStringLiteral("requests"));
        QCOMPARE(bar->currentMatch(), 1);
        QTest::keyClick(field, Qt::Key_Return);
        QCOMPARE(editor.textCursor().blockNumber(), 8);
        QCOMPARE(bar->currentMatch(), 2);
        QTest::keyClick(field, Qt::Key_Return);
        QTest::keyClick(field, Qt::Key_Return);
        QCOMPARE(editor.textCursor().blockNumber(), 7);
        QTest::keyClick(field, Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(editor.textCursor().blockNumber(), 9);
        // Every match is highlighted.
        int highlighted = 0;
        for (const QTextEdit::ExtraSelection &s : editor.extraSelections())
            highlighted += s.cursor.selectedText() == QStringLiteral("requests") ? 1 : 0;
        QVERIFY(highlighted >= 3);
        // Case sensitivity and no-match.
        field->setText(QStringLiteral("REQUESTS"));
        QCOMPARE(bar->matchCount(), 3);
        bar->setCaseSensitive(true);
        QCOMPARE(bar->matchCount(), 0);
        QVERIFY(!bar->findNext());
        // Escape closes and clears the highlights.
        QTest::keyClick(field, Qt::Key_Escape);
        QVERIFY(bar->isHidden());
        QVERIFY(bar->highlights().isEmpty());
    }

    void editorKeysWinOverWindowShortcuts() {
        // The console has a window-wide Ctrl+F (namespace filter); inside the editor,
        // Ctrl+F must open the editor's find bar, and only that.
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *other = new QLineEdit(&window);
        auto *editor = new YamlEditor(&window);
        layout->addWidget(other);
        layout->addWidget(editor);
        auto *filter = new QAction(&window);
        filter->setShortcut(QKeySequence::Find);
        filter->setShortcutContext(Qt::WindowShortcut);
        window.addAction(filter);
        QSignalSpy filterSpy(filter, &QAction::triggered);
        window.resize(600, 400);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        editor->setYaml(kQuota);

        editor->setFocus();
        QTRY_VERIFY(editor->hasFocus());
        QTest::keyClick(editor, Qt::Key_F, Qt::ControlModifier);
        QVERIFY(!editor->findBar()->isHidden());
        QCOMPARE(filterSpy.size(), 0);
        // Ctrl+F again inside the find field stays there too.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(filterSpy.size(), 0);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QVERIFY(editor->findBar()->isHidden());

        other->setFocus();
        QTRY_VERIFY(other->hasFocus());
        QTest::keyClick(other, Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(filterSpy.size(), 1);
    }

    void undoRedoIntact() {
        YamlEditor editor;
        editor.show();
        editor.setYaml(kQuota);
        QVERIFY(!editor.document()->isUndoAvailable()); // loading is not an edit
        moveToEndOfLine(editor, 10);
        QTest::keyClicks(&editor, QStringLiteral(" # more GPUs soon"));
        QVERIFY(editor.isChanged());
        QTest::keyClick(&editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor.toPlainText(), kQuota);
        QVERIFY(!editor.isChanged());
    }

    void enterKeepsIndentationAndTabInsertsSpaces() {
        YamlEditor editor;
        editor.show();
        editor.setYaml(kQuota);
        moveToEndOfLine(editor, 7); // "  hard:"
        QTest::keyClick(&editor, Qt::Key_Return);
        QTest::keyClicks(&editor, QStringLiteral("count/pods: \"10\""));
        QCOMPARE(editor.document()->findBlockByNumber(7).text(), QStringLiteral("    count/pods: \"10\""));
        QTest::keyClick(&editor, Qt::Key_Return);
        QTest::keyClick(&editor, Qt::Key_Tab);
        QCOMPARE(editor.document()->findBlockByNumber(8).text(), QStringLiteral("      "));
        QVERIFY(!editor.toPlainText().contains(QLatin1Char('\t')));
    }

    void saveAndLoadFiles() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("quota.yaml"));
        YamlEditor editor;
        editor.setYaml(kQuota);
        QVERIFY(editor.saveToFile(path).has_value());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), kQuota);

        YamlEditor other;
        other.setYaml(QStringLiteral("kind: LimitRange\n"));
        QVERIFY(other.loadFromFile(path).has_value());
        QCOMPARE(other.toPlainText(), kQuota);
        QVERIFY(other.document()->isUndoAvailable()); // loading a file is an undoable edit
        other.undo();
        QCOMPARE(other.toPlainText(), QStringLiteral("kind: LimitRange\n"));

        const Result<void> missing = other.loadFromFile(dir.filePath(QStringLiteral("nope.yaml")));
        QVERIFY(!missing.has_value());
        QCOMPARE(missing.error().kind, Error::Kind::Io);
        const Result<void> unwritable = editor.saveToFile(dir.filePath(QStringLiteral("no/such/dir/q.yaml")));
        QVERIFY(!unwritable.has_value());
    }

    void draftsAutosaveAndComeBack() {
        DraftStore store;
        store.setDebounceInterval(20);
        const DraftKey key{QStringLiteral("demo"), QStringLiteral("team-a"), QStringLiteral("ResourceQuota"),
                           QStringLiteral("gpu-quota")};
        Result<void> cleared = store.discard(key);
        QVERIFY(cleared.has_value());
        QString edited;
        {
            YamlEditor editor;
            editor.show();
            editor.bindDraft(&store, key, QStringLiteral("17"));
            editor.setYaml(kQuota);
            QVERIFY(!store.hasDraft(key)); // loading the server's text is not a draft
            moveToEndOfLine(editor, 10);
            QTest::keyClicks(&editor, QStringLiteral(" # wip"));
            edited = editor.toPlainText();
            QSignalSpy saved(&store, &DraftStore::saved);
            QVERIFY(saved.wait(2000));
            QVERIFY(store.hasDraft(key));
            QTest::keyClicks(&editor, QStringLiteral("!"));
            edited = editor.toPlainText();
            // The editor goes away (window closed) before the debounce fires.
        }
        // Next start: the draft is offered back with what it was based on.
        DraftStore next;
        QVERIFY(next.hasDraft(key));
        const std::optional<Draft> d = next.takeDraft(key);
        QVERIFY(d.has_value());
        QCOMPARE(d->text, edited);
        QCOMPARE(d->baseText, kQuota);
        QCOMPARE(d->resourceVersion, QStringLiteral("17"));

        // Restoring it is an edit on top of the server's text; undoing back to the
        // baseline discards the draft.
        YamlEditor editor;
        editor.bindDraft(&next, key);
        editor.setYaml(kQuota);
        editor.replaceAll(d->text);
        QVERIFY(editor.isChanged());
        QVERIFY(next.hasDraft(key));
        editor.undo();
        QVERIFY(!editor.isChanged());
        QVERIFY(!next.hasDraft(key));
    }

    void highlighting_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("token");
        QTest::addColumn<int>("role");
        using R = YamlHighlighter::Role;
        QTest::newRow("key") << QStringLiteral("    requests.memory: 32Gi # note")
                             << QStringLiteral("requests.memory") << int(R::Key);
        QTest::newRow("quantity") << QStringLiteral("    requests.memory: 32Gi # note")
                                  << QStringLiteral("32Gi") << int(R::Quantity);
        QTest::newRow("comment") << QStringLiteral("    requests.memory: 32Gi # note")
                                 << QStringLiteral("# note") << int(R::Comment);
        QTest::newRow("quoted quantity")
            << QStringLiteral("  requests.cpu: \"500m\"") << QStringLiteral("500m") << int(R::Quantity);
        QTest::newRow("string") << QStringLiteral("  name: gpu-quota") << QStringLiteral("gpu-quota")
                                << int(R::String);
        QTest::newRow("number") << QStringLiteral("  replicas: 3") << QStringLiteral("3") << int(R::Number);
        QTest::newRow("keyword") << QStringLiteral("  enabled: true") << QStringLiteral("true")
                                 << int(R::Keyword);
        QTest::newRow("document marker")
            << QStringLiteral("---") << QStringLiteral("---") << int(R::DocumentMarker);
        QTest::newRow("anchor") << QStringLiteral("  hard: &limits") << QStringLiteral("&limits")
                                << int(R::Anchor);
        QTest::newRow("alias") << QStringLiteral("  hard: *limits") << QStringLiteral("*limits")
                               << int(R::Anchor);
        QTest::newRow("sequence key")
            << QStringLiteral("  - type: Container") << QStringLiteral("type") << int(R::Key);
        QTest::newRow("hash in string")
            << QStringLiteral("  note: \"a # b\"") << QStringLiteral("a # b") << int(R::String);
        QTest::newRow("conflict marker")
            << QStringLiteral("<<<<<<< yours") << QStringLiteral("<<<<<<< yours") << int(R::Conflict);
    }
    void highlighting() {
        QFETCH(QString, line);
        QFETCH(QString, token);
        QFETCH(int, role);
        YamlEditor editor;
        editor.setYaml(QStringLiteral("spec:\n") + line + QStringLiteral("\n"));
        const QTextBlock block = editor.document()->findBlockByNumber(1);
        const int start = int(line.indexOf(token));
        QVERIFY(start >= 0);
        auto *highlighter = editor.document()->findChild<YamlHighlighter *>();
        QVERIFY(highlighter);
        const QColor expected = highlighter->format(YamlHighlighter::Role(role)).foreground().color();
        // Every character of the token carries the role's colour.
        for (int i = start; i < start + token.size(); ++i) {
            bool found = false;
            for (const QTextLayout::FormatRange &r : block.layout()->formats()) {
                if (i >= r.start && i < r.start + r.length) {
                    QCOMPARE(r.format.foreground().color(), expected);
                    found = true;
                }
            }
            QVERIFY2(found, qPrintable(QStringLiteral("no format at %1").arg(i)));
        }
    }

    void blockScalarsAreStrings() {
        YamlEditor editor;
        editor.setYaml(QStringLiteral(
            "metadata:\n  annotations:\n    note: |\n      key: 5Gi\n      more\n  name: x\n"));
        auto *highlighter = editor.document()->findChild<YamlHighlighter *>();
        const QColor string = highlighter->format(YamlHighlighter::Role::String).foreground().color();
        const QColor key = highlighter->format(YamlHighlighter::Role::Key).foreground().color();
        // "key: 5Gi" inside the block scalar is text, not a key and a quantity.
        const QTextBlock inside = editor.document()->findBlockByNumber(3);
        QCOMPARE(inside.layout()->formats().size(), 1);
        QCOMPARE(inside.layout()->formats().first().format.foreground().color(), string);
        // The scalar ends where the indentation does.
        const QTextBlock after = editor.document()->findBlockByNumber(5);
        QCOMPARE(after.layout()->formats().first().format.foreground().color(), key);
    }

    void typingInABigDocumentStaysResponsive() {
        // 2,000 resources: validation runs on a worker, the GUI thread only handles keys.
        QString big =
            QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: big\nspec:\n  hard:\n");
        for (int i = 0; i < 2000; ++i)
            big += QStringLiteral("    requests.example.com/r%1: \"%2\"\n").arg(i).arg(i % 9);
        QElapsedTimer t;
        t.start();
        const QList<Error> direct = YamlEditor::defaultValidate(big);
        const qint64 validateMs = t.elapsed();
        QVERIFY2(direct.isEmpty(), qPrintable(direct.value(0).toString()));

        YamlEditor editor;
        editor.resize(700, 500);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setValidationDelay(50);
        editor.setYaml(big);
        QTRY_VERIFY_WITH_TIMEOUT(!editor.isValidationPending(), 10000);
        editor.findBar()->activate();
        editor.findBar()->setSearchText(QStringLiteral("r42"));
        moveToEndOfLine(editor, 1000);
        QSignalSpy finished(&editor, &YamlEditor::validationFinished);
        qint64 worstKeyMs = 0;
        for (const QChar c : QStringLiteral(" # raised for the Q3 training run")) {
            t.restart();
            QTest::keyClick(&editor, c.toLatin1());
            QCoreApplication::processEvents();
            worstKeyMs = std::max(worstKeyMs, t.elapsed());
        }
        t.restart();
        QVERIFY(finished.wait(10000));
        const qint64 settleMs = t.elapsed();
        qInfo("2000-line quota: validate %lld ms (worker), worst keystroke on the GUI thread %lld ms, "
              "result %lld ms after the last key",
              validateMs, worstKeyMs, settleMs);
        QVERIFY(!editor.hasErrors());
        QVERIFY2(worstKeyMs < 100, qPrintable(QString::number(worstKeyMs)));
    }

    void errorTooltipOnGutterAndText() {
        YamlEditor editor;
        editor.resize(600, 400);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QString bad = quotaWith(QStringLiteral("32Gi"), QStringLiteral("32Gb"));
        editor.setYaml(bad);
        QVERIFY(!editor.validateNow().isEmpty());
        QCOMPARE(editor.errors().first().line, 9);
        // The underline carries the message as its tooltip.
        bool found = false;
        for (const QTextEdit::ExtraSelection &s : editor.extraSelections()) {
            if (s.format.underlineStyle() == QTextCharFormat::WaveUnderline) {
                QVERIFY(s.format.toolTip().contains(QStringLiteral("Line 9")));
                QVERIFY(s.format.toolTip().contains(QStringLiteral("Gb")));
                found = true;
            }
        }
        QVERIFY(found);
        QVERIFY(editor.gutterWidth() > 0);
    }
};

QTEST_MAIN(TestYamlEditor)
#include "tst_yamleditor.moc"
