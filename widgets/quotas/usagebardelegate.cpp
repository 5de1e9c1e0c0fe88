#include "widgets/quotas/usagebardelegate.h"

#include "widgets/common/cellpaint.h"
#include "models/quotas/namespacelistmodel.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDateTime>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>

namespace gq {

UsageBarDelegate::UsageBarDelegate(int ratioRole, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_ratioRole(ratioRole) {}

void UsageBarDelegate::setBadgeColumn(int column, int badgeRole) {
    m_badgeColumn = column;
    m_badgeRole = badgeRole;
}

QColor UsageBarDelegate::barColor(double ratio) {
    if (ratio >= 1.0)
        return QColor(0xd9, 0x4a, 0x3d);
    if (ratio >= 0.8)
        return QColor(0xe8, 0xa3, 0x17);
    return QColor(0x3f, 0x9c, 0x5a);
}

void UsageBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                             const QModelIndex &index) const {
    if (index.column() == m_badgeColumn) {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        drawCellWithoutText(painter, opt);
        paintBadges(painter, option, index.data(m_badgeRole).toInt(),
                    index.data(NamespaceListModel::GraceEndRole).toString());
        return;
    }
    const QVariant ratioValue = index.data(m_ratioRole);
    if (!ratioValue.isValid()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const double ratio = ratioValue.toDouble();

    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = drawCellWithoutText(painter, opt);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRect bar = opt.rect.adjusted(4, 4, -4, -4);
    if (ratio >= 0) {
        QPainterPath track;
        track.addRoundedRect(QRectF(bar), 3, 3);
        painter->fillPath(track, opt.palette.color(QPalette::Midlight));
        const double fill = std::clamp(ratio, 0.0, 1.0);
        if (fill > 0) {
            QPainterPath used;
            used.addRoundedRect(QRectF(bar.x(), bar.y(), bar.width() * fill, bar.height()), 3, 3);
            QColor c = barColor(ratio);
            c.setAlpha(opt.state & QStyle::State_Selected ? 255 : 200);
            painter->fillPath(used, c);
        }
    }
    // Over a bar the text sits on the track: dark on a light track, light on the dark
    // track of a dark theme.
    const bool darkTrack = opt.palette.color(QPalette::Midlight).lightnessF() < 0.5;
    painter->setPen(ratio >= 0
                        ? (darkTrack ? QColor(0xf2, 0xf2, 0xf2) : QColor(0x20, 0x20, 0x20))
                        : opt.palette.color(opt.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                               : QPalette::Text));
    const QRect textRect = bar.adjusted(4, 0, -4, 0);
    painter->drawText(textRect, Qt::AlignCenter,
                      opt.fontMetrics.elidedText(text, Qt::ElideRight, textRect.width()));
    painter->restore();
}

namespace {
struct BadgeSpec {
    int flag;
    QString text;
    QColor color;
    bool outline = false; // informational: drawn as an outline so warnings stand out
};

// In the order they are painted: the most urgent first. `graceEnd` is the local
// time shown in the grace badge.
QList<BadgeSpec> badgeSpecs(const QString &graceEnd) {
    const int flags[] = {NamespaceListModel::TerminatingBadge, NamespaceListModel::OverBudgetBadge,
                         NamespaceListModel::InGraceBadge,     NamespaceListModel::NotEnforcedBadge,
                         NamespaceListModel::NearLimitBadge,   NamespaceListModel::NearBudgetBadge,
                         NamespaceListModel::NoQuotaBadge};
    QList<BadgeSpec> specs;
    for (int flag : flags) {
        BadgeSpec b{flag, {}, UsageBarDelegate::badgeColor(flag)};
        switch (flag) {
        case NamespaceListModel::TerminatingBadge: b.text = NamespaceListModel::tr("Terminating"); break;
        case NamespaceListModel::OverBudgetBadge: b.text = NamespaceListModel::tr("over budget"); break;
        case NamespaceListModel::InGraceBadge: b.text = NamespaceListModel::graceBadgeText(graceEnd); break;
        case NamespaceListModel::NotEnforcedBadge:
            b.text = NamespaceListModel::tr("not yet enforced");
            b.outline = true; // waiting for the controller-manager, not an error
            break;
        case NamespaceListModel::NearLimitBadge: b.text = NamespaceListModel::tr("near limit"); break;
        case NamespaceListModel::NearBudgetBadge:
            b.text = NamespaceListModel::tr("near budget");
            b.outline = true; // quiet: nothing is denied yet
            break;
        default:
            b.text = NamespaceListModel::tr("no quota");
            b.outline = true;
            break;
        }
        specs << b;
    }
    return specs;
}

// Bold only where the script has a bold face in common fonts: CJK fonts usually
// do not, and synthetic bold at this size smudges the glyphs.
QFont badgeFont(const QFont &viewFont, const QString &text = {}) {
    QFont f = viewFont;
    f.setPointSizeF(f.pointSizeF() * 0.85);
    f.setBold(std::all_of(text.cbegin(), text.cend(), [](QChar c) { return c.unicode() < 0x0250; }));
    return f;
}

constexpr int kBadgePadding = 12; // inside a badge, left + right
constexpr int kBadgeGap = 4;
} // namespace

QColor UsageBarDelegate::badgeColor(int flag) {
    switch (flag) {
    case NamespaceListModel::OverBudgetBadge: return barColor(1.0);             // red, like a full bar
    case NamespaceListModel::InGraceBadge: return QColor(0xe0, 0x6c, 0x1b);     // orange
    case NamespaceListModel::TerminatingBadge: return QColor(0x55, 0x55, 0x55); // dark grey: going away
    case NamespaceListModel::NotEnforcedBadge: return QColor(0x2e, 0x6d, 0xb4); // blue: in progress
    case NamespaceListModel::NearLimitBadge:
    case NamespaceListModel::NearBudgetBadge: return barColor(0.8); // amber
    default: return QColor(0x80, 0x80, 0x80);
    }
}

int UsageBarDelegate::statusWidth(const QFont &viewFont) {
    int widest = 0;
    // The widest end a grace badge shows: a late time today, on each weekday of the
    // coming week, or a date further out (see NamespaceListModel::badgeTime; December
    // 28th, so the month and the day both take two digits).
    const QDate first(2026, 12, 1);
    const qint64 noon = QDateTime(first, QTime(12, 0)).toSecsSinceEpoch();
    for (int day : {0, 1, 2, 3, 4, 5, 6, 27}) {
        const qint64 late = QDateTime(first.addDays(day), QTime(23, 59)).toSecsSinceEpoch();
        for (const BadgeSpec &b : badgeSpecs(NamespaceListModel::badgeTime(late, noon)))
            widest = std::max(widest, QFontMetrics(badgeFont(viewFont, b.text)).horizontalAdvance(b.text) +
                                          kBadgePadding);
    }
    return widest + kBadgeGap + QFontMetrics(badgeFont(viewFont)).horizontalAdvance(QStringLiteral("+2"));
}

bool UsageBarDelegate::helpEvent(QHelpEvent *event, QAbstractItemView *view,
                                 const QStyleOptionViewItem &option, const QModelIndex &index) {
    if (event && view && index.isValid() && index.column() != m_badgeColumn &&
        !index.data(m_ratioRole).isValid() && !index.data(Qt::ToolTipRole).isValid()) {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        QStyle *style = view->style();
        const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, view);
        // The style adds its own text margin on each side.
        const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
        if (opt.fontMetrics.horizontalAdvance(opt.text) > textRect.width() - 2 * margin) {
            QToolTip::showText(event->globalPos(), opt.text, view->viewport(), option.rect);
            return true;
        }
    }
    return QStyledItemDelegate::helpEvent(event, view, option, index);
}

void UsageBarDelegate::paintBadges(QPainter *painter, const QStyleOptionViewItem &option, int badges,
                                   const QString &graceEnd) const {
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QFont f = badgeFont(option.font);
    painter->setFont(f);
    const QFontMetrics fm(f);
    int x = option.rect.x() + 4;
    const int h = std::min(option.rect.height() - 4, fm.height() + 4);
    const int y = option.rect.y() + (option.rect.height() - h) / 2;
    const QList<BadgeSpec> all = badgeSpecs(graceEnd);
    QList<const BadgeSpec *> shown;
    for (const BadgeSpec &b : all)
        if (badges & b.flag)
            shown << &b;
    for (int i = 0; i < shown.size(); ++i) {
        const BadgeSpec &b = *shown.at(i);
        const QFont bf = badgeFont(option.font, b.text);
        const int w = QFontMetrics(bf).horizontalAdvance(b.text) + kBadgePadding;
        const int rest = int(shown.size()) - i - 1;
        // Leave room for "+N" when more badges follow; what does not fit is in the tooltip.
        const int reserve = rest > 0 ? kBadgeGap + fm.horizontalAdvance(QStringLiteral("+%1").arg(rest)) : 0;
        if (x + w + reserve > option.rect.right() && i > 0) {
            painter->setPen(option.palette.color(
                option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
            painter->drawText(QRect(x, y, option.rect.right() - x, h), Qt::AlignVCenter | Qt::AlignLeft,
                              QStringLiteral("+%1").arg(shown.size() - i));
            break;
        }
        const QRectF r(x, y, w, h);
        QPainterPath path;
        // A 1 px outline sits on pixel centres.
        path.addRoundedRect(b.outline ? r.adjusted(0.5, 0.5, -0.5, -0.5) : r, h / 2.0, h / 2.0);
        if (b.outline) {
            const QColor c = option.state & QStyle::State_Selected
                                 ? option.palette.color(QPalette::HighlightedText)
                                 : b.color;
            painter->setPen(QPen(c, 1));
            painter->drawPath(path);
            painter->setPen(c);
        } else {
            painter->fillPath(path, b.color);
            painter->setPen(Qt::white);
        }
        painter->setFont(bf);
        painter->drawText(r, Qt::AlignCenter, b.text);
        painter->setFont(f);
        x += w + kBadgeGap;
    }
    painter->restore();
}

QSize UsageBarDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const {
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setHeight(std::max(s.height(), option.fontMetrics.height() + 10));
    s.setWidth(std::max(s.width() + 16, 100));
    return s;
}

} // namespace gq
