#pragma once

#include <QStyledItemDelegate>

namespace gq {

// The Live GPU page's painters. Both read LiveGpuModel's roles only, so they paint any
// proxy of it.

// A sparkline of the history role (utilization 0..100, NaN gaps) across the cell.
class SparklineDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

// One tile per GPU or MIG instance, filled by utilization (pale to deep teal), grey when
// free, an orange frame when allocated but idle, hatched when the source says nothing.
// Its lines: node · index (· MIG), utilization, model, memory · power · temperature,
// holder · user.
class GpuTileDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    static constexpr int kTileLines = 5;
    static QSize tileSize(const QFont &font);
    // The tile's lines for a row of LiveGpuModel (or a proxy of it).
    [[nodiscard]] static QStringList tileText(const QModelIndex &index);
    // The fill of a tile at `pct` utilization (also the legend's).
    static QColor utilColor(double pct);
};

} // namespace gq
