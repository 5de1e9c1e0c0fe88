#pragma once

#include <QStyledItemDelegate>

namespace gq {

// Paints a used/hard cell as a horizontal bar (green, amber from 80 %, red when
// full or over) with the "used / hard" text on top; status cells as small badges
// (over budget red, in grace orange with its end time, near a limit or budget amber).
// Reads the model's ratio role (double, -1 without a limit) and badge role (int flags).
class UsageBarDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit UsageBarDelegate(int ratioRole, QObject *parent = nullptr);
    // Cells of this column are painted as badges from badgeRole instead of a bar.
    void setBadgeColumn(int column, int badgeRole);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    static QColor barColor(double ratio);
    // The colour of a status badge (NamespaceListModel::Badge): red over budget,
    // orange in grace, amber near a limit or budget (near budget is an outline).
    static QColor badgeColor(int flag);
    // Width a status cell needs for its widest single badge plus a "+1" for more:
    // the column's natural width (all badges are also in the tooltip).
    static int statusWidth(const QFont &viewFont);

    // Cells whose text is elided show the whole text as their tooltip.
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                   const QModelIndex &index) override;

private:
    void paintBadges(QPainter *painter, const QStyleOptionViewItem &option, int badges,
                     const QString &graceEnd) const;

    int m_ratioRole;
    int m_badgeColumn = -1;
    int m_badgeRole = -1;
};

} // namespace gq
