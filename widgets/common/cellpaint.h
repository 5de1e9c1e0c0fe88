#pragma once

#include <QApplication>
#include <QStyle>
#include <QStyleOptionViewItem>

namespace gq {

// Draws an item view cell as the style does (background, selection, focus) but without
// its text, which the delegate then lays out itself, and returns that text. `opt` is
// the delegate's option after initStyleOption(); its text is cleared.
inline QString drawCellWithoutText(QPainter *painter, QStyleOptionViewItem &opt) {
    const QString text = opt.text;
    opt.text.clear();
    QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    return text;
}

} // namespace gq
