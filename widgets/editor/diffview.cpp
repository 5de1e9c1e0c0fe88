#include "widgets/editor/diffview.h"

#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTextBlock>
#include <QToolButton>
#include <QVBoxLayout>

namespace gq {

namespace {
bool isDark(const QPalette &p) {
    return p.color(QPalette::Base).lightness() < 128;
}
} // namespace

class DiffPaneGutter final : public QWidget {
public:
    explicit DiffPaneGutter(DiffPane *pane)
        : QWidget(pane)
        , m_pane(pane) {}

protected:
    void paintEvent(QPaintEvent *event) override { m_pane->paintGutter(event); }

private:
    DiffPane *m_pane;
};

// --- DiffPane -----------------------------------------------------------------

DiffPane::DiffPane(QWidget *parent)
    : QPlainTextEdit(parent) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setStyleHint(QFont::Monospace);
    setFont(mono);
    m_gutter = new DiffPaneGutter(this);
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (dy)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int DiffPane::gutterWidth() const {
    int maxNumber = 1;
    for (const Row &r : m_rows)
        maxNumber = std::max(maxNumber, r.number);
    int digits = 2;
    for (int n = maxNumber; n >= 100; n /= 10)
        ++digits;
    return fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits + 14;
}

QColor DiffPane::tintColor(Tint tint, bool strong, bool dark) {
    switch (tint) {
    case Tint::None: return {};
    case Tint::Added:
        return dark ? (strong ? QColor(0x2e, 0x7d, 0x46) : QColor(0x1d, 0x3b, 0x2a))
                    : (strong ? QColor(0xa6, 0xf0, 0xb8) : QColor(0xe6, 0xff, 0xec));
    case Tint::Removed:
        return dark ? (strong ? QColor(0x8e, 0x2f, 0x33) : QColor(0x44, 0x1f, 0x22))
                    : (strong ? QColor(0xff, 0xb8, 0xbf) : QColor(0xff, 0xeb, 0xe9));
    case Tint::Changed:
        return dark ? (strong ? QColor(0x7a, 0x62, 0x10) : QColor(0x3b, 0x33, 0x14))
                    : (strong ? QColor(0xf5, 0xd8, 0x6a) : QColor(0xff, 0xf8, 0xd5));
    case Tint::Conflict:
        return dark ? (strong ? QColor(0xa3, 0x3a, 0x2a) : QColor(0x55, 0x22, 0x1b))
                    : (strong ? QColor(0xff, 0x9e, 0x8a) : QColor(0xff, 0xdc, 0xd2));
    case Tint::Filler: return dark ? QColor(0x2b, 0x2b, 0x2f) : QColor(0xf3, 0xf4, 0xf6);
    }
    return {};
}

void DiffPane::setRows(const QList<Row> &rows) {
    m_rows = rows;
    QStringList lines;
    lines.reserve(rows.size());
    for (const Row &r : rows)
        lines << r.text;
    setPlainText(lines.join(QLatin1Char('\n')));

    const bool dark = isDark(palette());
    QTextCursor c(document());
    c.beginEditBlock();
    QTextBlock block = document()->firstBlock();
    for (const Row &r : rows) {
        if (!block.isValid())
            break;
        if (r.tint != Tint::None) {
            QTextCursor bc(block);
            QTextBlockFormat bf = block.blockFormat();
            if (r.tint == Tint::Filler) {
                QBrush brush(tintColor(Tint::Filler, false, dark).darker(dark ? 70 : 106), Qt::BDiagPattern);
                bf.setBackground(brush);
            } else {
                bf.setBackground(tintColor(r.tint, false, dark));
            }
            bc.setBlockFormat(bf);
            const Tint markTint = r.tint == Tint::Changed ? Tint::Changed : r.tint;
            for (const CharSpan &m : r.marks) {
                QTextCursor mc(block);
                mc.setPosition(block.position() + m.start);
                mc.setPosition(block.position() + std::min(m.start + m.length, block.length() - 1),
                               QTextCursor::KeepAnchor);
                QTextCharFormat cf;
                cf.setBackground(tintColor(markTint, true, dark));
                mc.mergeCharFormat(cf);
            }
        }
        block = block.next();
    }
    c.endEditBlock();
    setViewportMargins(gutterWidth(), 0, 0, 0);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
    m_gutter->update();
}

void DiffPane::resizeEvent(QResizeEvent *event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void DiffPane::paintGutter(QPaintEvent *event) {
    QPainter p(m_gutter);
    const QPalette pal = palette();
    const bool dark = isDark(pal);
    const QColor bg = dark ? pal.color(QPalette::Base).lighter(115) : pal.color(QPalette::Base).darker(104);
    p.fillRect(event->rect(), bg);
    const QFontMetrics fm(font());
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        const int i = block.blockNumber();
        if (i < m_rows.size()) {
            const Row &r = m_rows[i];
            const QColor tint = tintColor(r.tint, true, dark);
            if (r.tint != Tint::None && r.tint != Tint::Filler)
                p.fillRect(QRect(0, top, 3, height), tint); // a bar, like the change bars of IDEs
            if (r.number > 0) {
                p.setPen(pal.color(QPalette::PlaceholderText));
                p.drawText(QRect(0, top, m_gutter->width() - 6, fm.height()),
                           Qt::AlignRight | Qt::AlignVCenter, QString::number(r.number));
            }
        }
        block = block.next();
        top += height;
    }
}

// --- DiffView -----------------------------------------------------------------

DiffPane *addTitledPane(QSplitter *splitter, const QString &objectName, QLabel *&title) {
    auto *box = new QWidget(splitter);
    auto *v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    title = new QLabel(box);
    QFont f = title->font();
    f.setBold(true);
    title->setFont(f);
    auto *pane = new DiffPane(box);
    pane->setObjectName(objectName);
    v->addWidget(title);
    v->addWidget(pane);
    splitter->addWidget(box);
    return pane;
}

void syncScrolling(const QList<QPlainTextEdit *> &panes) {
    for (QPlainTextEdit *a : panes) {
        for (QPlainTextEdit *b : panes) {
            if (a == b)
                continue;
            // setValue() of an equal value emits nothing, which ends the ping-pong.
            QObject::connect(a->verticalScrollBar(), &QScrollBar::valueChanged, b->verticalScrollBar(),
                             &QScrollBar::setValue);
            QObject::connect(a->horizontalScrollBar(), &QScrollBar::valueChanged, b->horizontalScrollBar(),
                             &QScrollBar::setValue);
        }
    }
}

DiffView::DiffView(QWidget *parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("diffView"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);

    auto *header = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("diffSummary"));
    auto *prev = new QToolButton(this);
    prev->setObjectName(QStringLiteral("diffPrevious"));
    prev->setIcon(style()->standardIcon(QStyle::SP_ArrowUp));
    prev->setToolTip(tr("Previous change"));
    prev->setAutoRaise(true);
    auto *next = new QToolButton(this);
    next->setObjectName(QStringLiteral("diffNext"));
    next->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
    next->setToolTip(tr("Next change"));
    next->setAutoRaise(true);
    header->addWidget(m_summary, 1);
    header->addWidget(prev);
    header->addWidget(next);
    layout->addLayout(header);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    m_left = addTitledPane(splitter, QStringLiteral("diffLeft"), m_leftTitle);
    m_right = addTitledPane(splitter, QStringLiteral("diffRight"), m_rightTitle);
    // One vertical scroll bar is enough when both sides move together.
    m_left->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(splitter, 1);
    syncScrolling({m_left, m_right});
    setTitles(tr("Server"), tr("Yours"));

    connect(prev, &QToolButton::clicked, this, &DiffView::previousChange);
    connect(next, &QToolButton::clicked, this, &DiffView::nextChange);
    connect(this, &DiffView::diffChanged, this, [prev, next, this] {
        prev->setEnabled(!m_diff.identical());
        next->setEnabled(!m_diff.identical());
    });
}

void DiffView::setTitles(const QString &left, const QString &right) {
    m_leftTitle->setText(left);
    m_rightTitle->setText(right);
}

void DiffView::setTexts(const QString &left, const QString &right) {
    const QStringList l = splitLines(left);
    const QStringList r = splitLines(right);
    m_diff = diffLines(l, r);
    QList<DiffPane::Row> leftRows;
    QList<DiffPane::Row> rightRows;
    leftRows.reserve(m_diff.rows.size());
    rightRows.reserve(m_diff.rows.size());
    for (const DiffRow &row : std::as_const(m_diff.rows)) {
        DiffPane::Row a;
        DiffPane::Row b;
        if (row.left >= 0) {
            a.text = l[row.left];
            a.number = row.left + 1;
        }
        if (row.right >= 0) {
            b.text = r[row.right];
            b.number = row.right + 1;
        }
        switch (row.kind) {
        case DiffRow::Kind::Same: break;
        case DiffRow::Kind::Added:
            a.tint = DiffPane::Tint::Filler;
            b.tint = DiffPane::Tint::Added;
            break;
        case DiffRow::Kind::Removed:
            a.tint = DiffPane::Tint::Removed;
            b.tint = DiffPane::Tint::Filler;
            break;
        case DiffRow::Kind::Changed: {
            a.tint = DiffPane::Tint::Removed;
            b.tint = DiffPane::Tint::Added;
            const InlineDiff inl = diffInline(a.text, b.text);
            a.marks = inl.left;
            b.marks = inl.right;
            break;
        }
        }
        leftRows.append(a);
        rightRows.append(b);
    }
    m_left->setRows(leftRows);
    m_right->setRows(rightRows);
    m_hunk = -1;
    m_summary->setText(summary());
    emit diffChanged();
    if (!m_diff.identical())
        showHunk(0);
}

QString DiffView::summary() const {
    if (m_diff.identical())
        return tr("No differences");
    QStringList parts;
    if (m_diff.changed)
        parts << (m_diff.changed == 1 ? tr("1 line changed") : tr("%1 lines changed").arg(m_diff.changed));
    if (m_diff.added)
        parts << (m_diff.added == 1 ? tr("1 line added") : tr("%1 lines added").arg(m_diff.added));
    if (m_diff.removed)
        parts << (m_diff.removed == 1 ? tr("1 line removed") : tr("%1 lines removed").arg(m_diff.removed));
    return parts.join(tr(", "));
}

void DiffView::nextChange() {
    const QList<int> hunks = m_diff.hunkStarts();
    if (hunks.isEmpty())
        return;
    showHunk((m_hunk + 1) % int(hunks.size()));
}

void DiffView::previousChange() {
    const QList<int> hunks = m_diff.hunkStarts();
    if (hunks.isEmpty())
        return;
    showHunk(m_hunk <= 0 ? int(hunks.size()) - 1 : m_hunk - 1);
}

void DiffView::showHunk(int index) {
    const QList<int> hunks = m_diff.hunkStarts();
    if (index < 0 || index >= hunks.size())
        return;
    m_hunk = index;
    const int row = hunks[index];
    for (DiffPane *pane : {m_right, m_left}) {
        QTextCursor c(pane->document()->findBlockByNumber(row));
        pane->setTextCursor(c);
    }
    m_right->centerCursor();
}

} // namespace gq
