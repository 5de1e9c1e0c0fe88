#include "widgets/budgets/batterydelegate.h"

#include "models/budgets/budgetlistmodel.h"
#include "widgets/common/cellpaint.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace gq {

namespace {
constexpr int kBodyWidth = 44;
constexpr int kTipWidth = 3;
constexpr int kGap = 8;
} // namespace

BatteryDelegate::BatteryDelegate(QObject *parent)
    : QStyledItemDelegate(parent) {}

QColor BatteryDelegate::stateColor(BudgetState state) {
    switch (state) {
    case BudgetState::Ok: return QColor(0x3f, 0x9c, 0x5a);    // green
    case BudgetState::Near: return QColor(0xe8, 0xa3, 0x17);  // amber
    case BudgetState::Grace: return QColor(0xe0, 0x6c, 0x1b); // orange
    case BudgetState::Over: return QColor(0xd9, 0x4a, 0x3d);  // red
    }
    return Qt::gray;
}

void BatteryDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                            const QModelIndex &index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = drawCellWithoutText(painter, opt);

    const double left = std::clamp(index.data(BudgetListModel::FractionLeftRole).toDouble(), 0.0, 1.0);
    const auto state = BudgetState(index.data(BudgetListModel::StateRole).toInt());
    const QColor color = stateColor(state);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const int h = std::min(opt.rect.height() - 8, 16);
    const QRectF body(opt.rect.x() + 6, opt.rect.center().y() - h / 2.0 + 0.5, kBodyWidth, h);
    const QColor frame = opt.palette.color(QPalette::Text);
    painter->setPen(QPen(frame, 1.2));
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(body, 3, 3);
    painter->setPen(Qt::NoPen);
    painter->setBrush(frame);
    painter->drawRoundedRect(QRectF(body.right() + 1, body.center().y() - h / 5.0, kTipWidth, 2 * h / 5.0), 1,
                             1);
    // A spent battery shows an empty body with a red frame inside, so "red" reads even
    // when nothing is left to fill.
    const QRectF inner = body.adjusted(2.5, 2.5, -2.5, -2.5);
    if (state == BudgetState::Over || state == BudgetState::Grace) {
        painter->setBrush(color);
        painter->drawRoundedRect(
            QRectF(inner.x(), inner.y(), std::max(inner.width() * 0.12, 3.0), inner.height()), 1.5, 1.5);
    } else if (left > 0) {
        painter->setBrush(color);
        painter->drawRoundedRect(
            QRectF(inner.x(), inner.y(), std::max(inner.width() * left, 2.0), inner.height()), 1.5, 1.5);
    }
    // Two lines: what is left, in the state's colour, and the forecast under it.
    const QString forecast = index.data(BudgetListModel::SecondLineRole).toString();
    const QRect textRect = opt.rect.adjusted(6 + kBodyWidth + kTipWidth + kGap, 2, -4, -2);
    const bool selected = opt.state & QStyle::State_Selected;
    QColor pen = opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
    if (state != BudgetState::Ok && !selected)
        pen = color.darker(state == BudgetState::Near ? 135 : 115);
    const int line = opt.fontMetrics.height();
    const QRect first = forecast.isEmpty()
                            ? textRect
                            : QRect(textRect.x(), textRect.center().y() - line, textRect.width(), line);
    QFont bold = opt.font;
    bold.setBold(state != BudgetState::Ok);
    painter->setFont(bold);
    painter->setPen(pen);
    painter->drawText(first, Qt::AlignVCenter | Qt::AlignLeft,
                      QFontMetrics(bold).elidedText(text, Qt::ElideRight, first.width()));
    if (!forecast.isEmpty()) {
        painter->setFont(opt.font);
        painter->setPen(opt.palette.color(selected ? QPalette::HighlightedText : QPalette::PlaceholderText));
        const QRect second(textRect.x(), textRect.center().y(), textRect.width(), line);
        painter->drawText(second, Qt::AlignVCenter | Qt::AlignLeft,
                          opt.fontMetrics.elidedText(forecast, Qt::ElideRight, second.width()));
    }
    painter->restore();
}

QSize BatteryDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const {
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    const QString forecast = index.data(BudgetListModel::SecondLineRole).toString();
    QFont bold = option.font;
    bold.setBold(true);
    const int text = std::max(QFontMetrics(bold).horizontalAdvance(index.data().toString()),
                              option.fontMetrics.horizontalAdvance(forecast));
    s.setWidth(text + 6 + kBodyWidth + kTipWidth + kGap + 12);
    s.setHeight(std::max(s.height(), 2 * option.fontMetrics.height() + 8));
    return s;
}

TwoLineDelegate::TwoLineDelegate(QObject *parent)
    : QStyledItemDelegate(parent) {}

void TwoLineDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                            const QModelIndex &index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = drawCellWithoutText(painter, opt);
    const QString second = index.data(BudgetListModel::SecondLineRole).toString();
    const bool selected = opt.state & QStyle::State_Selected;
    const QRect r = opt.rect.adjusted(6, 2, -6, -2);
    const int line = opt.fontMetrics.height();
    painter->save();
    painter->setPen(opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(QRect(r.x(), r.center().y() - line, r.width(), line), Qt::AlignVCenter | Qt::AlignLeft,
                      opt.fontMetrics.elidedText(text, Qt::ElideRight, r.width()));
    painter->setPen(opt.palette.color(selected ? QPalette::HighlightedText : QPalette::PlaceholderText));
    painter->drawText(QRect(r.x(), r.center().y(), r.width(), line), Qt::AlignVCenter | Qt::AlignLeft,
                      opt.fontMetrics.elidedText(second, Qt::ElideRight, r.width()));
    painter->restore();
}

QSize TwoLineDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const {
    // Measured in the cell's own font (a queue's subtotal row is bold), as paint() draws.
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const int w =
        std::max(opt.fontMetrics.horizontalAdvance(index.data().toString()),
                 opt.fontMetrics.horizontalAdvance(index.data(BudgetListModel::SecondLineRole).toString()));
    return QSize(w + 16, 2 * opt.fontMetrics.height() + 8);
}

} // namespace gq
