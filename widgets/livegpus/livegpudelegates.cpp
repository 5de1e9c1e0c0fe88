#include "widgets/livegpus/livegpudelegates.h"

#include "models/livegpus/livegpumodel.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace gq {

void SparklineDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const {
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    opt.text.clear();
    QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    const QList<double> values = index.data(LiveGpuModel::HistoryRole).value<QList<double>>();
    const QRectF r = QRectF(option.rect).adjusted(4, 4, -4, -4);
    if (values.size() < 2 || r.width() < 8)
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const double dx = r.width() / double(values.size() - 1);
    QPainterPath line, fill;
    bool open = false;
    QPointF segmentStart;
    auto closeFill = [&](const QPointF &last) {
        fill.lineTo(last.x(), r.bottom());
        fill.lineTo(segmentStart.x(), r.bottom());
        fill.closeSubpath();
    };
    QPointF last;
    for (int i = 0; i < values.size(); ++i) {
        const double v = values.at(i);
        if (std::isnan(v)) {
            if (open)
                closeFill(last);
            open = false;
            continue;
        }
        const QPointF p(r.left() + i * dx, r.bottom() - std::clamp(v, 0.0, 100.0) / 100.0 * r.height());
        if (!open) {
            line.moveTo(p);
            fill.moveTo(p);
            segmentStart = p;
            open = true;
        } else {
            line.lineTo(p);
            fill.lineTo(p);
        }
        last = p;
    }
    if (open)
        closeFill(last);
    const bool selected = option.state & QStyle::State_Selected;
    const QColor stroke = selected ? option.palette.highlightedText().color() : QColor(0x00, 0x79, 0x6b);
    QColor area = stroke;
    area.setAlpha(50);
    painter->fillPath(fill, area);
    painter->setPen(QPen(stroke, 1.3));
    painter->drawPath(line);
    painter->restore();
}

QSize SparklineDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const {
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(std::max(s.width(), 120));
    return s;
}

QColor GpuTileDelegate::utilColor(double pct) {
    // From a pale teal (idle) to a deep one (saturated): lightness carries the number,
    // so it reads in grey print too.
    const double t = std::clamp(pct, 0.0, 100.0) / 100.0;
    return QColor::fromHslF(0.47, 0.45 + 0.25 * t, 0.90 - 0.58 * t);
}

QSize GpuTileDelegate::tileSize(const QFont &font) {
    const QFontMetrics fm(font);
    return {fm.horizontalAdvance(QStringLiteral("platform-ml/train-00000")) + 20,
            fm.height() * kTileLines + 14};
}

QStringList GpuTileDelegate::tileText(const QModelIndex &index) {
    const QModelIndex row = index.siblingAtColumn(0);
    const auto state = LiveGpuModel::State(index.data(LiveGpuModel::StateRole).toInt());
    auto text = [&](int column) { return row.siblingAtColumn(column).data().toString(); };
    QString title = text(LiveGpuModel::NodeColumn) + QStringLiteral(" · ") + text(LiveGpuModel::IndexColumn);
    // A MIG instance: its short profile and id ("3g#1"), so the node name still fits.
    const QString mig = text(LiveGpuModel::MigColumn);
    if (!mig.isEmpty() && state != LiveGpuModel::MigParent)
        title += QStringLiteral(" · ") + mig.section(QLatin1Char('.'), 0, 0) + QLatin1Char('#') +
                 mig.section(QLatin1Char('#'), 1);
    const bool reading = index.data(LiveGpuModel::UtilRole).isValid();
    const QString value = state == LiveGpuModel::Free && !reading
                              ? LiveGpuModel::tr("free")
                              : text(LiveGpuModel::UtilColumn) +
                                    (state == LiveGpuModel::Free ? LiveGpuModel::tr(" · free") : QString());
    const QString holder = text(LiveGpuModel::HolderColumn), user = text(LiveGpuModel::UserColumn);
    return {title, value, text(LiveGpuModel::ModelColumn),
            LiveGpuModel::tr("%1 · %2 · %3")
                .arg(text(LiveGpuModel::MemoryColumn), text(LiveGpuModel::PowerColumn),
                     text(LiveGpuModel::TempColumn)),
            user.isEmpty() ? holder : LiveGpuModel::tr("%1 · %2").arg(holder, user)};
}

QSize GpuTileDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const {
    return tileSize(option.font);
}

void GpuTileDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                            const QModelIndex &index) const {
    const auto state = LiveGpuModel::State(index.data(LiveGpuModel::StateRole).toInt());
    const QVariant util = index.data(LiveGpuModel::UtilRole);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRectF r = QRectF(option.rect).adjusted(3, 3, -3, -3);
    QColor fill = QColor(0xee, 0xee, 0xee);
    QColor ink = QColor(0x42, 0x42, 0x42);
    if (state != LiveGpuModel::Free && util.isValid()) {
        fill = utilColor(util.toDouble());
        ink = fill.lightnessF() < 0.42 ? Qt::white : QColor(0x10, 0x20, 0x1e);
    }
    painter->setPen(Qt::NoPen);
    painter->setBrush(fill);
    painter->drawRoundedRect(r, 5, 5);
    if (state == LiveGpuModel::NoReading) {
        painter->setBrush(QBrush(QColor(0x9e, 0x9e, 0x9e), Qt::BDiagPattern));
        painter->drawRoundedRect(r, 5, 5);
    }
    if (state == LiveGpuModel::AllocatedIdle) {
        painter->setPen(QPen(QColor(0xe6, 0x51, 0x00), 2.5));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(r.adjusted(1, 1, -1, -1), 4, 4);
    }
    if (option.state & QStyle::State_Selected) {
        painter->setPen(QPen(option.palette.highlight().color(), 3));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(r.adjusted(1.5, 1.5, -1.5, -1.5), 4, 4);
    }

    const QFontMetrics fm(option.font);
    const QRectF inner = r.adjusted(6, 4, -6, -4);
    const qreal lh = fm.height();
    painter->setPen(ink);
    const QStringList lines = tileText(index);
    for (int n = 0; n < lines.size(); ++n) {
        QFont font = option.font;
        font.setBold(n == 1); // the utilization
        painter->setFont(font);
        painter->drawText(QRectF(inner.left(), inner.top() + n * lh, inner.width(), lh),
                          Qt::AlignLeft | Qt::AlignVCenter,
                          QFontMetrics(font).elidedText(
                              lines.at(n), n == 1 ? Qt::ElideRight : Qt::ElideMiddle, int(inner.width())));
    }
    painter->restore();
}

} // namespace gq
