#pragma once

#include "models/usage/stackedchart.h"

#include <QWidget>

#include <functional>

class QLabel;
class QProgressBar;
class QTimer;
class QToolButton;

namespace gq {

class UsageChart;
class UsageChartModel;
class DrillDownDialog;

// A usage chart with what every usage view needs around it: a busy bar while a
// query takes longer than a moment, the drill-down on click, and export of the chart
// (PNG, SVG) and of its data (CSV, every subject). `decorate` adds a view's own lines
// (budget, cumulative) to the stack before it is drawn.
class UsageChartPanel final : public QWidget {
    Q_OBJECT
public:
    UsageChartPanel(UsageChartModel *model, QWidget *parent = nullptr);
    using Decorate = std::function<void(StackedChart &)>;
    void setDecorate(Decorate decorate) { m_decorate = std::move(decorate); }
    void setTitle(const QString &title);
    [[nodiscard]] UsageChart *chart() const { return m_chart; }
    [[nodiscard]] UsageChartModel *model() const { return m_model; }
    // Redraws from the model (after a decoration input changed).
    void redraw();
    // Opens the drill-down of a segment (what a click does).
    DrillDownDialog *openDrillDown(int bucket, int band);

signals:
    void statusMessage(const QString &message);

private:
    void onLoading(bool loading);
    void exportTo(const QString &format);

    UsageChartModel *m_model;
    UsageChart *m_chart;
    QProgressBar *m_busy;
    QLabel *m_busyLabel;
    QTimer *m_busyTimer;
    Decorate m_decorate;
};

} // namespace gq
