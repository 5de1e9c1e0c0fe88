#pragma once

#include "core/advisor/fitestimate.h"

#include <QWidget>

namespace gq {

// One GPU's memory as a bar: weights, gradients, optimizer states, activations and
// overhead side by side, against the GPU's capacity (the line); red past it.
class FitMemoryBar final : public QWidget {
    Q_OBJECT
public:
    explicit FitMemoryBar(QWidget *parent = nullptr);
    void setEstimate(const advisor::MemoryBreakdown &memory, double capacityBytes);
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;
    // The parts' names, as the legend shows them.
    [[nodiscard]] static QStringList partNames();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    advisor::MemoryBreakdown m_memory;
    double m_capacity = 0;
};

} // namespace gq
