#include "widgets/editor/yamleditor.h"
#include "widgets/editor/yamleditor_p.h"

#include "core/domain/atomicfile.h"
#include "widgets/editor/findbar.h"
#include "core/domain/specformat.h"
#include "core/domain/textdiff.h"
#include "widgets/editor/yamlhighlighter.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QFile>
#include <QFontDatabase>
#include <QLabel>
#include <QMenu>
#include <QTextBlock>
#include <QVBoxLayout>

#include <algorithm>

// The editor's text, files, drafts and keys. Validation and the problem list are in
// yamleditorvalidation.cpp, the gutter and the painting in yamleditorpainting.cpp.

namespace gq {

namespace {

constexpr int kDefaultValidationDelayMs = 300;
constexpr qint64 kMaxFileBytes = 8 * 1024 * 1024;

} // namespace

YamlEditor::YamlEditor(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_validator(&YamlEditor::defaultValidate)
    , m_canonicalizer(&YamlEditor::defaultCanonicalize) {
    setObjectName(QStringLiteral("yamlEditor"));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setStyleHint(QFont::Monospace);
    setFont(mono);
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);

    m_highlighter = new YamlHighlighter(document());
    m_gutter = new YamlEditorGutter(this);

    m_bottom = new QWidget(this);
    m_bottom->setObjectName(QStringLiteral("yamlEditorBottom"));
    auto *bottomLayout = new QVBoxLayout(m_bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->setSpacing(0);
    m_findBar = new FindBar(this, m_bottom);
    bottomLayout->addWidget(m_findBar);
    m_summary = new QLabel(m_bottom);
    m_summary->setObjectName(QStringLiteral("yamlProblems"));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setContentsMargins(8, 3, 8, 3);
    m_summary->setAutoFillBackground(true);
    bottomLayout->addWidget(m_summary);
    connect(m_summary, &QLabel::linkActivated, this, [this] {
        if (m_errors.isEmpty())
            return;
        const Error &e = m_errors[m_summaryIndex % m_errors.size()];
        goToPosition(e.line, e.column);
        // The next click moves on to the next problem.
        m_summaryIndex = (m_summaryIndex + 1) % int(m_errors.size());
        updateSummary();
    });

    m_findAction = new QAction(tr("&Find…"), this);
    m_findAction->setObjectName(QStringLiteral("actionFind"));
    m_findAction->setShortcut(QKeySequence::Find);
    m_findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_findAction, &QAction::triggered, this, [this] {
        m_findBar->activate();
        updateGutterWidth();
    });
    addAction(m_findAction);

    m_canonicalizeAction = new QAction(tr("&Canonicalize Quantities"), this);
    m_canonicalizeAction->setObjectName(QStringLiteral("actionCanonicalize"));
    m_canonicalizeAction->setToolTip(tr("Rewrite every quantity the way the API server prints it "
                                        "(1000m → 1, 1.5Gi → 1536Mi)"));
    m_canonicalizeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    m_canonicalizeAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_canonicalizeAction, &QAction::triggered, this, [this] { canonicalizeQuantities(); });
    addAction(m_canonicalizeAction);

    connect(m_findBar, &FindBar::highlightsChanged, this, &YamlEditor::updateExtraSelections);
    connect(m_findBar, &FindBar::closed, this, &YamlEditor::updateGutterWidth);
    connect(this, &QPlainTextEdit::blockCountChanged, this, &YamlEditor::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &YamlEditor::updateGutter);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] {
        updateExtraSelections();
        m_gutter->update();
    });
    connect(this, &QPlainTextEdit::textChanged, this, &YamlEditor::onTextChanged);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDefaultValidationDelayMs);
    connect(&m_debounce, &QTimer::timeout, this, &YamlEditor::startValidation);

    applyPalette();
    updateGutterWidth();
    updateSummary();
    updateExtraSelections();
}

YamlEditor::~YamlEditor() {
    if (m_draftBound && m_draftStore)
        m_draftStore->flush();
}

// --- text ---------------------------------------------------------------------

void YamlEditor::setYaml(const QString &text) {
    m_baseline = text;
    m_markers.clear(); // they pointed into the old text
    const bool bound = m_draftBound;
    m_draftBound = false; // loading the server's text is not an edit worth a draft
    setPlainText(text);
    m_draftBound = bound;
    document()->setModified(false);
    m_debounce.stop();
    startValidation();
}

void YamlEditor::replaceAll(const QString &text) {
    QTextCursor c(document());
    c.beginEditBlock();
    c.select(QTextCursor::Document);
    c.insertText(text);
    c.endEditBlock();
}

void YamlEditor::setValidator(Validator validator) {
    m_validator = std::move(validator);
    startValidation();
}

void YamlEditor::setCanonicalizer(Canonicalizer canonicalizer) {
    m_canonicalizer = std::move(canonicalizer);
}

Result<QString> YamlEditor::defaultCanonicalize(const QString &text) {
    Result<FormatResult> r = formatQuantities(text.toUtf8());
    if (!r)
        return r.error();
    return QString::fromUtf8(r->text);
}

bool YamlEditor::canonicalizeQuantities() {
    // Cursor edits bypass read-only, so the check has to be here.
    if (!m_canonicalizer || isReadOnly())
        return false;
    const QString before = toPlainText();
    Result<QString> r = m_canonicalizer(before);
    if (!r) {
        // Nothing to rewrite in text that does not parse; the problem list says why.
        validateNow();
        return false;
    }
    const QString &after = *r;
    if (after == before)
        return true;
    const QStringList oldLines = splitLines(before);
    const QStringList newLines = splitLines(after);
    const LineDiff diff = diffLines(oldLines, newLines);
    const bool onlyChanges = diff.added == 0 && diff.removed == 0;
    QTextCursor c(document());
    c.beginEditBlock();
    if (onlyChanges) {
        // Line by line, so the cursor, the scroll position and folding stay put.
        for (const DiffRow &row : diff.rows) {
            if (row.kind != DiffRow::Kind::Changed)
                continue;
            const QTextBlock block = document()->findBlockByNumber(row.left);
            QTextCursor line(block);
            line.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            line.insertText(newLines[row.right]);
        }
    } else {
        c.select(QTextCursor::Document);
        c.insertText(after);
    }
    c.endEditBlock();
    return true;
}

Result<void> YamlEditor::loadFromFile(const QString &path) {
    if (isReadOnly())
        return Error::make(Error::Kind::Forbidden, tr("The editor is read-only."));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Io, tr("Cannot open %1: %2").arg(path, f.errorString()));
    if (f.size() > kMaxFileBytes)
        return Error::make(Error::Kind::Io,
                           tr("%1 is too large for a manifest (%2 bytes)").arg(path).arg(f.size()));
    const QByteArray data = f.readAll();
    QString text = QString::fromUtf8(data);
    if (text.toUtf8() != data)
        return Error::make(Error::Kind::Parse, tr("%1 is not UTF-8 text").arg(path));
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    replaceAll(text);
    return {};
}

Result<void> YamlEditor::saveToFile(const QString &path) const {
    QString text = toPlainText();
    if (!text.isEmpty() && !text.endsWith(QLatin1Char('\n')))
        text += QLatin1Char('\n');
    // All or nothing: a full disk leaves the file as it was, and the editor keeps the text.
    if (auto w = writeFileAtomically(path, text.toUtf8()); !w)
        return Error::make(Error::Kind::Io, tr("Cannot write %1: %2").arg(path, w.error().message));
    return {};
}

// --- drafts -------------------------------------------------------------------

void YamlEditor::bindDraft(DraftStore *store, const DraftKey &key, const QString &resourceVersion) {
    if (m_draftBound && m_draftStore)
        m_draftStore->flush();
    m_draftStore = store;
    m_draftKey = key;
    m_draftResourceVersion = resourceVersion;
    m_draftBound = store != nullptr;
}

void YamlEditor::unbindDraft() {
    if (m_draftBound && m_draftStore)
        m_draftStore->flush();
    m_draftBound = false;
    m_draftStore.clear();
}

void YamlEditor::saveDraftSoon() {
    if (!m_draftBound || !m_draftStore)
        return;
    if (!isChanged()) {
        Result<void> r = m_draftStore->discard(m_draftKey);
        Q_UNUSED(r)
        return;
    }
    Draft d;
    d.key = m_draftKey;
    d.text = toPlainText();
    d.baseText = m_baseline;
    d.resourceVersion = m_draftResourceVersion;
    m_draftStore->scheduleSave(d);
}

// --- navigation ---------------------------------------------------------------

void YamlEditor::goToPosition(int line, int column) {
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid())
        return;
    QTextCursor c(block);
    if (column > 1)
        c.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, std::min(column - 1, block.length() - 1));
    setTextCursor(c);
    centerCursor();
    setFocus(Qt::OtherFocusReason);
}

// --- keys -------------------------------------------------------------------

bool YamlEditor::event(QEvent *event) {
    // The editor's keys win over window shortcuts on the same keys (the console's
    // Ctrl+F filters namespaces): accepting the override turns them into key presses
    // here instead of an ambiguous shortcut that fires nowhere.
    if (event->type() == QEvent::ShortcutOverride) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->matches(QKeySequence::Find) || key->matches(QKeySequence::FindNext) ||
            key->matches(QKeySequence::FindPrevious) ||
            (key->key() == Qt::Key_Escape && !m_findBar->isHidden()) ||
            QKeySequence(key->keyCombination()) == m_canonicalizeAction->shortcut()) {
            event->accept();
            return true;
        }
    }
    return QPlainTextEdit::event(event);
}

// --- typing -------------------------------------------------------------------

void YamlEditor::keyPressEvent(QKeyEvent *event) {
    if (event->matches(QKeySequence::Find)) {
        m_findAction->trigger();
        return;
    }
    if (event->matches(QKeySequence::FindNext)) {
        m_findBar->findNext();
        return;
    }
    if (event->matches(QKeySequence::FindPrevious)) {
        m_findBar->findPrevious();
        return;
    }
    if (event->key() == Qt::Key_Escape && !m_findBar->isHidden()) {
        m_findBar->dismiss();
        return;
    }
    if (QKeySequence(event->keyCombination()) == m_canonicalizeAction->shortcut()) {
        if (m_canonicalizeAction->isEnabled())
            m_canonicalizeAction->trigger();
        return;
    }
    if (isReadOnly()) {
        QPlainTextEdit::keyPressEvent(event);
        return;
    }
    // YAML forbids tabs for indentation: Tab inserts spaces to the next 2-column stop.
    if (event->key() == Qt::Key_Tab && event->modifiers() == Qt::NoModifier) {
        QTextCursor c = textCursor();
        const int col = c.positionInBlock();
        c.insertText(QString(2 - col % 2, QLatin1Char(' ')));
        return;
    }
    // Enter keeps the indentation, one level deeper after "key:" or "- key:".
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
        !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
        QTextCursor c = textCursor();
        const QString before = c.block().text().left(c.positionInBlock());
        int indent = 0;
        while (indent < before.size() && before[indent] == QLatin1Char(' '))
            ++indent;
        QString trimmed = before.trimmed();
        const int hash = int(trimmed.indexOf(QStringLiteral(" #")));
        if (hash >= 0)
            trimmed = trimmed.left(hash).trimmed();
        if (trimmed.startsWith(QStringLiteral("- ")))
            indent += 2;
        if (trimmed.endsWith(QLatin1Char(':')))
            indent += 2;
        c.beginEditBlock();
        c.insertText(QLatin1Char('\n') + QString(indent, QLatin1Char(' ')));
        c.endEditBlock();
        ensureCursorVisible();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void YamlEditor::contextMenuEvent(QContextMenuEvent *event) {
    QMenu *menu = createStandardContextMenu(event->pos());
    menu->addSeparator();
    menu->addAction(m_findAction);
    menu->addAction(m_canonicalizeAction);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
}

} // namespace gq
