#include "widgets/advisor/fitmemorybar.h"

#include <QPainter>

#include <algorithm>
#include <array>

namespace gq {

namespace {
const std::array<QColor, 5> kColors{QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                                    QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2),
                                    QColor(0xba, 0xb0, 0xac)};
}

FitMemoryBar::FitMemoryBar(QWidget *parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("fitMemoryBar"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QStringList FitMemoryBar::partNames() {
    return {tr("weights"), tr("gradients"), tr("optimizer"), tr("activations"), tr("overhead")};
}

void FitMemoryBar::setEstimate(const advisor::MemoryBreakdown &memory, double capacityBytes) {
    m_memory = memory;
    m_capacity = capacityBytes;
    const QStringList names = partNames();
    const std::array<double, 5> parts{memory.weights, memory.gradients, memory.optimizer, memory.activations,
                                      memory.overhead};
    QString tip;
    for (std::size_t i = 0; i < parts.size(); ++i)
        tip += QStringLiteral("%1: %2\n").arg(names[qsizetype(i)], advisor::formatGB(parts[i]));
    setToolTip(tip.trimmed());
    update();
}

QSize FitMemoryBar::sizeHint() const {
    const int h = fontMetrics().height();
    return {fontMetrics().averageCharWidth() * 60, h * 3 + 8};
}

QSize FitMemoryBar::minimumSizeHint() const {
    return {fontMetrics().averageCharWidth() * 30, fontMetrics().height() * 3 + 8};
}

void FitMemoryBar::paintEvent(QPaintEvent *) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int lineH = fontMetrics().height();
    const QRectF bar(1, 1, width() - 2, lineH * 1.5);
    const double total = m_memory.total();
    const double scale = std::max({total, m_capacity, 1.0});
    p.setPen(Qt::NoPen);
    p.setBrush(palette().color(QPalette::AlternateBase));
    p.drawRect(bar);
    const std::array<double, 5> parts{m_memory.weights, m_memory.gradients, m_memory.optimizer,
                                      m_memory.activations, m_memory.overhead};
    double x = bar.left();
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const double w = parts[i] / scale * bar.width();
        p.setBrush(kColors[i]);
        p.drawRect(QRectF(x, bar.top(), w, bar.height()));
        x += w;
    }
    if (m_capacity > 0) {
        const double cx = bar.left() + m_capacity / scale * bar.width();
        p.setPen(
            QPen(total > m_capacity ? QColor(0xc0, 0x00, 0x00) : palette().color(QPalette::WindowText), 2));
        p.drawLine(QPointF(cx, bar.top() - 1), QPointF(cx, bar.bottom() + 1));
    }
    // The legend under the bar.
    const QStringList names = partNames();
    double lx = bar.left();
    const double ly = bar.bottom() + 4;
    p.setPen(palette().color(QPalette::WindowText));
    for (std::size_t i = 0; i < parts.size(); ++i) {
        p.fillRect(QRectF(lx, ly + 3, lineH - 6, lineH - 6), kColors[i]);
        const QString text = names[qsizetype(i)];
        p.drawText(QPointF(lx + lineH - 2, ly + fontMetrics().ascent()), text);
        lx += lineH + fontMetrics().horizontalAdvance(text) + 10;
    }
}

} // namespace gq
