#include "widgets/editor/yamleditor.h"
#include "widgets/editor/yamleditor_p.h"

#include "widgets/editor/findbar.h"
#include "widgets/editor/yamlhighlighter.h"

#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>

#include <algorithm>

// The line-number gutter with its problem marks, where the bottom strip sits, the
// current-line, find and error highlights, tooltips, and following the palette.

namespace gq {

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
    const bool dark = isDarkPalette(pal);
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

void YamlEditor::updateExtraSelections() {
    QList<QTextEdit::ExtraSelection> selections;
    const bool dark = isDarkPalette(palette());

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
    m_highlighter->setDarkTheme(isDarkPalette(palette()));
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

} // namespace gq
