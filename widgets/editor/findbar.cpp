#include "widgets/editor/findbar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStyle>
#include <QTextBlock>
#include <QTextDocument>
#include <QToolButton>

namespace gq {

namespace {
// Highlighting is for the eye; past this many matches it only costs time.
constexpr int kMaxHighlights = 2000;
} // namespace

FindBar::FindBar(QPlainTextEdit *target, QWidget *parent)
    : QWidget(parent)
    , m_target(target) {
    setObjectName(QStringLiteral("findBar"));
    setAutoFillBackground(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 6, 3);
    layout->setSpacing(4);

    m_field = new QLineEdit(this);
    m_field->setObjectName(QStringLiteral("findField"));
    m_field->setPlaceholderText(tr("Find"));
    m_field->setClearButtonEnabled(true);
    m_field->installEventFilter(this);
    m_field->setMinimumWidth(180);

    auto button = [this](const QString &name, QStyle::StandardPixmap icon, const QString &tip) {
        auto *b = new QToolButton(this);
        b->setObjectName(name);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    m_prev = button(QStringLiteral("findPrevious"), QStyle::SP_ArrowUp, tr("Previous match (Shift+F3)"));
    m_next = button(QStringLiteral("findNext"), QStyle::SP_ArrowDown, tr("Next match (F3)"));
    m_case = new QToolButton(this);
    m_case->setObjectName(QStringLiteral("findCaseSensitive"));
    m_case->setText(tr("Aa"));
    m_case->setToolTip(tr("Match case"));
    m_case->setCheckable(true);
    m_case->setAutoRaise(true);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("findStatus"));
    m_label->setMinimumWidth(m_label->fontMetrics().horizontalAdvance(tr("No matches")) + 8);
    QToolButton *close =
        button(QStringLiteral("findClose"), QStyle::SP_TitleBarCloseButton, tr("Close (Esc)"));

    layout->addWidget(m_field, 1);
    layout->addWidget(m_prev);
    layout->addWidget(m_next);
    layout->addWidget(m_case);
    layout->addWidget(m_label);
    layout->addStretch(0);
    layout->addWidget(close);

    connect(m_field, &QLineEdit::textChanged, this, [this] {
        // Search as you type from where the current match starts, so the view jumps
        // to the first hit without skipping one under the cursor.
        if (m_target) {
            QTextCursor c = m_target->textCursor();
            c.setPosition(c.selectionStart());
            m_target->setTextCursor(c);
        }
        if (!m_field->text().isEmpty())
            find(false);
        refresh();
    });
    connect(m_prev, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(m_next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(m_case, &QToolButton::toggled, this, &FindBar::refresh);
    connect(close, &QToolButton::clicked, this, &FindBar::dismiss);
    if (m_target) {
        // Re-counting every match on each keystroke costs a full scan of the document:
        // wait for a pause in typing.
        m_refreshTimer.setSingleShot(true);
        m_refreshTimer.setInterval(150);
        connect(&m_refreshTimer, &QTimer::timeout, this, [this] {
            if (!isHidden())
                refresh();
        });
        connect(m_target->document(), &QTextDocument::contentsChanged, this, [this] {
            if (!isHidden())
                m_refreshTimer.start();
        });
        connect(m_target, &QPlainTextEdit::cursorPositionChanged, this, [this] {
            if (!isHidden())
                updateLabel();
        });
    }
    hide();
}

QString FindBar::searchText() const {
    return m_field->text();
}

void FindBar::setSearchText(const QString &text) {
    m_field->setText(text);
}

void FindBar::setCaseSensitive(bool on) {
    m_case->setChecked(on);
}

void FindBar::activate() {
    if (m_target) {
        const QString selected = m_target->textCursor().selectedText();
        if (!selected.isEmpty() && !selected.contains(QChar::ParagraphSeparator))
            m_field->setText(selected);
    }
    show();
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
    refresh();
}

bool FindBar::findNext() {
    return find(false);
}

bool FindBar::findPrevious() {
    return find(true);
}

void FindBar::dismiss() {
    const bool wasVisible = !isHidden();
    hide();
    m_highlights.clear();
    m_matchCount = 0;
    m_current = 0;
    emit highlightsChanged();
    if (m_target && wasVisible)
        m_target->setFocus(Qt::OtherFocusReason);
    emit closed();
}

bool FindBar::find(bool backward) {
    if (!m_target || m_field->text().isEmpty())
        return false;
    QTextDocument::FindFlags flags;
    if (backward)
        flags |= QTextDocument::FindBackward;
    if (m_case->isChecked())
        flags |= QTextDocument::FindCaseSensitively;
    QTextDocument *doc = m_target->document();
    QTextCursor found = doc->find(m_field->text(), m_target->textCursor(), flags);
    if (found.isNull()) {
        // Wrap around.
        QTextCursor from(doc);
        if (backward)
            from.movePosition(QTextCursor::End);
        found = doc->find(m_field->text(), from, flags);
    }
    if (found.isNull()) {
        updateLabel();
        return false;
    }
    m_target->setTextCursor(found);
    m_target->centerCursor();
    updateLabel();
    return true;
}

void FindBar::refresh() {
    m_highlights.clear();
    m_matchCount = 0;
    if (m_target && !m_field->text().isEmpty() && !isHidden()) {
        QTextDocument::FindFlags flags;
        if (m_case->isChecked())
            flags |= QTextDocument::FindCaseSensitively;
        QTextCharFormat fmt;
        fmt.setBackground(QColor(255, 214, 92, 170));
        QTextDocument *doc = m_target->document();
        QTextCursor c(doc);
        while (true) {
            c = doc->find(m_field->text(), c, flags);
            if (c.isNull())
                break;
            ++m_matchCount;
            if (m_matchCount <= kMaxHighlights)
                m_highlights.append({c, fmt});
        }
    }
    updateLabel();
    emit highlightsChanged();
}

void FindBar::updateLabel() {
    m_current = 0;
    if (m_target) {
        const QTextCursor cur = m_target->textCursor();
        for (int i = 0; i < m_highlights.size(); ++i) {
            if (m_highlights[i].cursor.selectionStart() == cur.selectionStart() &&
                m_highlights[i].cursor.selectionEnd() == cur.selectionEnd()) {
                m_current = i + 1;
                break;
            }
        }
    }
    const bool empty = m_field->text().isEmpty();
    m_prev->setEnabled(m_matchCount > 0);
    m_next->setEnabled(m_matchCount > 0);
    if (empty)
        m_label->clear();
    else if (m_matchCount == 0)
        m_label->setText(tr("No matches"));
    else if (m_current > 0)
        m_label->setText(tr("%1 of %2").arg(m_current).arg(m_matchCount));
    else
        m_label->setText(m_matchCount == 1 ? tr("1 match") : tr("%1 matches").arg(m_matchCount));
    // Tint the field when nothing matches, like browsers do.
    QPalette pal = m_field->palette();
    pal.setColor(QPalette::Base,
                 !empty && m_matchCount == 0 ? QColor(255, 220, 220) : palette().color(QPalette::Base));
    if (!empty && m_matchCount == 0)
        pal.setColor(QPalette::Text, QColor(20, 20, 20));
    else
        pal.setColor(QPalette::Text, palette().color(QPalette::Text));
    m_field->setPalette(pal);
}

bool FindBar::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_field && event->type() == QEvent::ShortcutOverride) {
        // Our keys, not the window's shortcuts, while typing a search.
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->matches(QKeySequence::Find) || key->matches(QKeySequence::FindNext) ||
            key->matches(QKeySequence::FindPrevious) || key->key() == Qt::Key_Escape) {
            event->accept();
            return true;
        }
    }
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->matches(QKeySequence::Find)) {
            m_field->selectAll();
            return true;
        }
        switch (key->key()) {
        case Qt::Key_Return:
        case Qt::Key_Enter: find(key->modifiers() & Qt::ShiftModifier); return true;
        case Qt::Key_Escape: dismiss(); return true;
        case Qt::Key_F3: find(key->modifiers() & Qt::ShiftModifier); return true;
        default: break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace gq
