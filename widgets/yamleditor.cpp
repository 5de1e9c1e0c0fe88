#include "widgets/yamleditor.h"

#include "core/specformat.h"
#include "core/textdiff.h"
#include "core/validation.h"
#include "core/yamldoc.h"
#include "widgets/findbar.h"
#include "widgets/yamlhighlighter.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QFile>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QPainterPath>
#include <QPromise>
#include <QSaveFile>
#include <QTextBlock>
#include <QThreadPool>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace gq {

namespace {

constexpr int kDefaultValidationDelayMs = 300;
constexpr qint64 kMaxFileBytes = 8 * 1024 * 1024;

// Leftover merge-conflict markers (from a rebase with conflicts) are the first thing to
// fix, and the YAML parser would only report the first of them, and cryptically.
QList<Error> conflictMarkerErrors(const QString &text) {
    QList<Error> errors;
    const QStringList lines = splitLines(text);
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].startsWith(QStringLiteral("<<<<<<<")) && isConflictMarker(lines[i])) {
            Error e =
                Error::make(Error::Kind::Invalid,
                            YamlEditor::tr("unresolved merge conflict: keep your lines or the server's, "
                                           "then delete the <<<<<<<, ======= and >>>>>>> markers"));
            e.line = i + 1;
            e.column = 1;
            errors.append(e);
        }
    }
    return errors;
}

QList<Error> runValidation(const YamlEditor::Validator &validator, const QString &text) {
    QList<Error> errors = conflictMarkerErrors(text);
    if (errors.isEmpty() && validator)
        errors = validator(text);
    std::stable_sort(errors.begin(), errors.end(), [](const Error &a, const Error &b) {
        // Errors without a position go last; the rest in reading order.
        const int la = a.line > 0 ? a.line : INT_MAX;
        const int lb = b.line > 0 ? b.line : INT_MAX;
        return la != lb ? la < lb : a.column < b.column;
    });
    return errors;
}

bool isDark(const QPalette &p) {
    return p.color(QPalette::Base).lightness() < 128;
}

} // namespace

// The line-number gutter: paints through the editor, which owns the layout.
class YamlEditorGutter final : public QWidget {
public:
    explicit YamlEditorGutter(YamlEditor *editor)
        : QWidget(editor)
        , m_editor(editor) {
        setObjectName(QStringLiteral("yamlGutter"));
    }
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintGutter(event); }
    bool event(QEvent *event) override {
        if (event->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(event);
            if (!m_editor->gutterToolTip(help->pos(), help->globalPos()))
                QToolTip::hideText();
            return true;
        }
        return QWidget::event(event);
    }
    void mousePressEvent(QMouseEvent *event) override {
        // A click on a line number selects nothing but puts the cursor on that line.
        QTextCursor c = m_editor->cursorForPosition(QPoint(0, int(event->position().y())));
        c.movePosition(QTextCursor::StartOfBlock);
        m_editor->setTextCursor(c);
        m_editor->setFocus(Qt::MouseFocusReason);
    }

private:
    YamlEditor *m_editor;
};

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

QList<Error> YamlEditor::defaultValidate(const QString &text) {
    // The same checks as `gpuquota validate`, so the editor and the CLI never disagree.
    int objects = 0;
    QList<Error> errors = validateYamlText(text.toUtf8(), {}, &objects);
    if (errors.isEmpty() && objects == 0) {
        Error e = Error::make(Error::Kind::Invalid,
                              tr("no object: expected a ResourceQuota or LimitRange manifest"));
        e.line = 1;
        errors.append(e);
    }
    return errors;
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
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return Error::make(Error::Kind::Io, tr("Cannot write %1: %2").arg(path, f.errorString()));
    QString text = toPlainText();
    if (!text.isEmpty() && !text.endsWith(QLatin1Char('\n')))
        text += QLatin1Char('\n');
    f.write(text.toUtf8());
    if (!f.commit())
        return Error::make(Error::Kind::Io, tr("Cannot write %1: %2").arg(path, f.errorString()));
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

// --- validation ---------------------------------------------------------------

void YamlEditor::onTextChanged() {
    ++m_generation; // any result still on its way is for older text
    setPending(true);
    m_debounce.start();
    saveDraftSoon();
}

void YamlEditor::startValidation() {
    const quint64 generation = ++m_generation;
    setPending(true);
    const QString text = toPlainText();
    auto promise = std::make_shared<QPromise<QList<Error>>>();
    QFuture<QList<Error>> future = promise->future();
    auto *watcher = new QFutureWatcher<QList<Error>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, text] {
        watcher->deleteLater();
        if (generation != m_generation || watcher->future().resultCount() == 0)
            return;
        applyValidation(text, watcher->future().result());
    });
    watcher->setFuture(future);
    promise->start();
    QThreadPool::globalInstance()->start([promise, text, validator = m_validator] {
        promise->addResult(runValidation(validator, text));
        promise->finish();
    });
}

QList<Error> YamlEditor::validateNow() {
    m_debounce.stop();
    ++m_generation;
    const QString text = toPlainText();
    applyValidation(text, runValidation(m_validator, text));
    return m_errors;
}

void YamlEditor::applyValidation(const QString &text, const QList<Error> &errors) {
    Q_UNUSED(text)
    const bool changed = errors != m_errors;
    m_errors = errors;
    m_markers.clear();
    for (const Error &e : std::as_const(m_errors))
        m_markers.append(markerFor(e));
    m_summaryIndex = 0;
    setPending(false);
    updateExtraSelections();
    m_gutter->update();
    if (changed)
        emit errorsChanged(m_errors);
    updateSummary();
    emitValidityIfChanged();
    emit validationFinished(m_errors.isEmpty());
}

void YamlEditor::setPending(bool pending) {
    m_pending = pending;
}

void YamlEditor::emitValidityIfChanged() {
    const bool valid = m_errors.isEmpty();
    if (valid != m_lastValid) {
        m_lastValid = valid;
        emit validityChanged(valid);
    }
}

QList<Error> YamlEditor::errorsOnLine(int line) const {
    // By marker, not Error::line: markers move with the text typed since validation.
    QList<Error> out;
    for (qsizetype i = 0; i < m_errors.size() && i < m_markers.size(); ++i) {
        if (!m_markers[i].isNull() && m_markers[i].block().blockNumber() == line - 1)
            out.append(m_errors[i]);
    }
    return out;
}

QString YamlEditor::errorText(const Error &e) const {
    QString where;
    if (e.line > 0 && e.column > 0)
        where = tr("Line %1, column %2").arg(e.line).arg(e.column);
    else if (e.line > 0)
        where = tr("Line %1").arg(e.line);
    const QString what = e.toString();
    return where.isEmpty() ? what : tr("%1: %2").arg(where, what);
}

void YamlEditor::updateSummary() {
    const bool dark = isDark(palette());
    QPalette pal = m_summary->palette();
    if (m_errors.isEmpty()) {
        m_summary->setText(QStringLiteral("<span style=\"color:%1\">&#10004;</span>&nbsp;")
                               .arg(dark ? QStringLiteral("#7ddc8a") : QStringLiteral("#1a7f37")) +
                           tr("No problems").toHtmlEscaped());
        m_summary->setToolTip(QString());
        pal.setColor(QPalette::Window, palette().color(QPalette::Window));
    } else {
        const Error &e = m_errors[m_summaryIndex % m_errors.size()];
        const int n = int(m_errors.size());
        const QString count = n == 1 ? tr("1 problem") : tr("%1 problems").arg(n);
        // Rich text does not elide by itself: shorten the message to the strip's width.
        const QFontMetrics fm(m_summary->font());
        QFont bold = m_summary->font();
        bold.setBold(true);
        const int used =
            QFontMetrics(bold).horizontalAdvance(count) + fm.horizontalAdvance(QStringLiteral("✖ — ")) + 24;
        const int avail = std::max(80, width() - used);
        const QString message = fm.elidedText(errorText(e), Qt::ElideRight, avail);
        QString html = QStringLiteral("<span style=\"color:%1\">&#10006;</span>&nbsp;<b>")
                           .arg(dark ? QStringLiteral("#ff7b72") : QStringLiteral("#cf222e")) +
                       count.toHtmlEscaped() + QStringLiteral("</b> &mdash; <a href=\"next\">") +
                       message.toHtmlEscaped() + QStringLiteral("</a>");
        m_summary->setText(html);
        QString tip = errorText(e).toHtmlEscaped();
        if (n > 1)
            tip += QStringLiteral("<br><i>") +
                   tr("Click to go there; click again for the next problem.").toHtmlEscaped() +
                   QStringLiteral("</i>");
        m_summary->setToolTip(tip);
        pal.setColor(QPalette::Window, dark ? QColor(0x3a, 0x1f, 0x22) : QColor(0xff, 0xeb, 0xe9));
    }
    m_summary->setPalette(pal);
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

// --- painting -----------------------------------------------------------------

int YamlEditor::gutterWidth() const {
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10)
        ++digits;
    digits = std::max(digits, 2);
    const QFontMetrics fm(font());
    return fm.height() + 4 + fm.horizontalAdvance(QLatin1Char('9')) * digits + 10;
}

void YamlEditor::updateGutterWidth() {
    const int bottom = m_bottom ? m_bottom->sizeHint().height() : 0;
    setViewportMargins(gutterWidth(), 0, 0, bottom);
    layoutChildren();
}

void YamlEditor::layoutChildren() {
    const QRect cr = contentsRect();
    const QRect vp = viewport()->geometry();
    m_gutter->setGeometry(QRect(cr.left(), vp.top(), gutterWidth(), vp.height()));
    if (m_bottom) {
        const int h = m_bottom->sizeHint().height();
        m_bottom->setGeometry(QRect(cr.left(), vp.bottom() + 1, vp.right() - cr.left() + 1, h));
    }
}

void YamlEditor::updateGutter(const QRect &rect, int dy) {
    if (dy)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    if (rect.contains(viewport()->rect()))
        updateGutterWidth();
}

void YamlEditor::resizeEvent(QResizeEvent *event) {
    QPlainTextEdit::resizeEvent(event);
    layoutChildren();
    if (!m_errors.isEmpty())
        updateSummary();
}

void YamlEditor::paintGutter(QPaintEvent *event) {
    QPainter p(m_gutter);
    const QPalette pal = palette();
    const bool dark = isDark(pal);
    const QColor bg = dark ? pal.color(QPalette::Base).lighter(115) : pal.color(QPalette::Base).darker(104);
    p.fillRect(event->rect(), bg);
    p.setPen(dark ? bg.lighter(130) : bg.darker(112));
    p.drawLine(m_gutter->width() - 1, event->rect().top(), m_gutter->width() - 1, event->rect().bottom());

    const QFontMetrics fm(font());
    const int iconSize = fm.height() - 4;
    const int currentBlock = textCursor().blockNumber();
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    p.setFont(font());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        if (block.isVisible() && top + height >= event->rect().top()) {
            const int line = block.blockNumber() + 1;
            const bool current = block.blockNumber() == currentBlock;
            QFont f = font();
            f.setBold(current);
            p.setFont(f);
            p.setPen(current ? pal.color(QPalette::Text) : pal.color(QPalette::PlaceholderText));
            p.drawText(QRect(0, top, m_gutter->width() - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                       QString::number(line));
            if (!errorsOnLine(line).isEmpty()) {
                // A red disc with a white bar: readable at any size, no icon theme needed.
                const QRectF r(3, top + (fm.height() - iconSize) / 2.0, iconSize, iconSize);
                p.setRenderHint(QPainter::Antialiasing);
                p.setPen(Qt::NoPen);
                p.setBrush(dark ? QColor(0xf8, 0x51, 0x49) : QColor(0xcf, 0x22, 0x2e));
                p.drawEllipse(r);
                p.setBrush(Qt::white);
                const qreal w = std::max<qreal>(1.5, iconSize / 7.0);
                p.drawRoundedRect(
                    QRectF(r.center().x() - w / 2, r.top() + iconSize * 0.22, w, iconSize * 0.38), 1, 1);
                p.drawEllipse(QPointF(r.center().x(), r.top() + iconSize * 0.76), w * 0.6, w * 0.6);
                p.setRenderHint(QPainter::Antialiasing, false);
            }
        }
        block = block.next();
        top += height;
    }
}

bool YamlEditor::gutterToolTip(const QPoint &pos, const QPoint &globalPos) {
    const QTextBlock block = cursorForPosition(QPoint(0, pos.y())).block();
    const QList<Error> errors = errorsOnLine(block.blockNumber() + 1);
    if (errors.isEmpty())
        return false;
    QStringList lines;
    for (const Error &e : errors)
        lines << errorText(e).toHtmlEscaped();
    QToolTip::showText(globalPos, lines.join(QStringLiteral("<br>")), m_gutter);
    return true;
}

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

bool YamlEditor::viewportEvent(QEvent *event) {
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QTextBlock block = cursorForPosition(help->pos()).block();
        const QList<Error> errors = errorsOnLine(block.blockNumber() + 1);
        if (errors.isEmpty()) {
            QToolTip::hideText();
        } else {
            QStringList lines;
            for (const Error &e : errors)
                lines << errorText(e).toHtmlEscaped();
            QToolTip::showText(help->globalPos(), lines.join(QStringLiteral("<br>")), viewport());
        }
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

QTextCursor YamlEditor::markerFor(const Error &e) const {
    if (e.line <= 0)
        return {};
    const QTextBlock block = document()->findBlockByNumber(e.line - 1);
    if (!block.isValid())
        return {};
    // The token at the column (a key, a quoted or plain value), or the line's text.
    const QString text = block.text();
    int start = e.column > 0 ? std::min(e.column - 1, int(text.size())) : 0;
    int end = start;
    if (e.column > 0) {
        if (end < text.size() && (text[end] == QLatin1Char('"') || text[end] == QLatin1Char('\''))) {
            const QChar quote = text[end];
            end = int(text.indexOf(quote, end + 1));
            end = end < 0 ? int(text.size()) : end + 1;
        } else {
            while (end < text.size() && !text[end].isSpace() && text[end] != QLatin1Char(',') &&
                   !(text[end] == QLatin1Char(':') && (end + 1 == text.size() || text[end + 1].isSpace())))
                ++end;
        }
    } else {
        while (start < text.size() && text[start].isSpace())
            ++start;
        end = int(text.size());
        while (end > start && text[end - 1].isSpace())
            --end;
    }
    if (end <= start) {
        // Nothing to underline at that spot (end of line, empty line): mark one cell.
        start = std::max(0, std::min(start, int(text.size()) - 1));
        end = std::min(int(text.size()), start + 1);
    }
    QTextCursor c(block);
    c.setPosition(block.position() + start);
    c.setPosition(block.position() + end, QTextCursor::KeepAnchor);
    return c;
}

void YamlEditor::updateExtraSelections() {
    QList<QTextEdit::ExtraSelection> selections;
    const bool dark = isDark(palette());

    QTextEdit::ExtraSelection current;
    current.format.setBackground(dark ? QColor(255, 255, 255, 18) : QColor(0x1d, 0x4f, 0x91, 16));
    current.format.setProperty(QTextFormat::FullWidthSelection, true);
    current.cursor = textCursor();
    current.cursor.clearSelection();
    selections.append(current);

    const QColor errorColor = dark ? QColor(0xf8, 0x51, 0x49) : QColor(0xcf, 0x22, 0x2e);
    QList<QTextEdit::ExtraSelection> underlines;
    QSet<int> tinted;
    for (qsizetype i = 0; i < m_errors.size() && i < m_markers.size(); ++i) {
        const QTextCursor &marker = m_markers[i];
        if (marker.isNull())
            continue;
        const int blockNumber = marker.block().blockNumber();
        if (!tinted.contains(blockNumber)) {
            tinted.insert(blockNumber);
            QTextEdit::ExtraSelection tint;
            tint.format.setBackground(dark ? QColor(0xf8, 0x51, 0x49, 40) : QColor(0xcf, 0x22, 0x2e, 22));
            tint.format.setProperty(QTextFormat::FullWidthSelection, true);
            tint.cursor = QTextCursor(marker.block());
            selections.append(tint);
        }
        QTextEdit::ExtraSelection u;
        u.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        u.format.setUnderlineColor(errorColor);
        u.format.setToolTip(errorText(m_errors[i]));
        u.cursor = marker;
        underlines.append(u);
    }
    selections += m_findBar ? m_findBar->highlights() : QList<QTextEdit::ExtraSelection>();
    selections += underlines;
    setExtraSelections(selections);
}

void YamlEditor::applyPalette() {
    m_highlighter->setDarkTheme(isDark(palette()));
    QPalette bottomPal = m_bottom->palette();
    bottomPal.setColor(QPalette::Window, palette().color(QPalette::Window));
    m_bottom->setPalette(bottomPal);
    m_findBar->setPalette(bottomPal);
}

void YamlEditor::changeEvent(QEvent *event) {
    QPlainTextEdit::changeEvent(event);
    if (!m_gutter || !m_bottom)
        return; // still constructing
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        applyPalette();
        updateSummary();
        updateExtraSelections();
    } else if (event->type() == QEvent::ReadOnlyChange) {
        m_canonicalizeAction->setEnabled(!isReadOnly());
    } else if (event->type() == QEvent::FontChange) {
        setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
        updateGutterWidth();
    }
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
