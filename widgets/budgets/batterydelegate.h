#pragma once

#include "core/usage/forecast.h"

#include <QStyledItemDelegate>

namespace gq {

// Paints a budget's Remaining cell as a battery: the body fills with the fraction
// of the limit left (BudgetListModel::FractionLeftRole), green while at least 20 % is
// left, amber below, orange in grace, red when spent; the text ("2.3 GPU-h left of 8
// today") sits beside it.
class BatteryDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit BatteryDelegate(QObject *parent = nullptr);
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    [[nodiscard]] static QColor stateColor(BudgetState state);
};

// A cell of two lines: the display text, and under it, smaller in the placeholder
// colour, BudgetListModel::SecondLineRole (a subject's scope, a budget's grace and zone).
class TwoLineDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit TwoLineDelegate(QObject *parent = nullptr);
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace gq
