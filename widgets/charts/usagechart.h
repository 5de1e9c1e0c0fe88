#pragma once

#include "models/usage/stackedchart.h"

#include <QWidget>

#include <memory>

namespace gq {

// The one place that knows the chart library (Qt Charts today; Qt Graphs replaces it
// from Qt 6.10): a stacked bar chart with optional lines over the same buckets,
// drawn from a StackedChart. Pages talk to this interface only.
//
// Hovering a segment shows its exact value as a tooltip and emits segmentHovered;
// clicking one emits segmentClicked (drill-down). Bucket labels thin out to what
// fits the width.
class UsageChart final : public QWidget {
    Q_OBJECT
public:
    explicit UsageChart(QWidget *parent = nullptr);
    ~UsageChart() override;

    void setChart(const StackedChart &chart);
    [[nodiscard]] const StackedChart &chart() const { return m_chart; }
    void setTitle(const QString &title);
    // Shown over the plot while there is nothing to draw (or while loading).
    void setPlaceholder(const QString &text);

    // The centre of a segment in this widget's coordinates (for tests and tours);
    // a null point when the segment is empty or out of range.
    [[nodiscard]] QPoint segmentCenter(int bucket, int band) const;
    // The segment's rectangle in this widget's coordinates; empty like segmentCenter.
    [[nodiscard]] QRect segmentRect(int bucket, int band) const;
    // The tooltip text of a segment: "<bucket>\n<band>: 3.25 GPU-h".
    [[nodiscard]] QString segmentText(int bucket, int band) const;

    [[nodiscard]] QImage renderImage(const QSize &size) const;
    // Errors as text for the status line; empty on success.
    [[nodiscard]] QString exportPng(const QString &path) const;
    [[nodiscard]] QString exportSvg(const QString &path) const;

signals:
    void segmentHovered(int bucket, int band, double value);
    void segmentClicked(int bucket, int band);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    class Impl;
    void relabel();
    std::unique_ptr<Impl> d;
    StackedChart m_chart;
};

} // namespace gq
