#include "widgets/charts/usagechart.h"

#include <QtCharts/QBarSet>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>

#include <QFileInfo>
#include <QGraphicsLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>

namespace gq {

class UsageChart::Impl {
public:
    QChart *chart = new QChart;
    QChartView *view = nullptr;
    QStackedBarSeries *bars = nullptr;
    QCategoryAxis *axisX = nullptr;
    QValueAxis *axisY = nullptr;
    QLabel *placeholder = nullptr;
    qsizetype stride = 0; // the labels' stride and count as last drawn
    qsizetype labelled = -1;
};

UsageChart::UsageChart(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<Impl>()) {
    d->chart->setAnimationOptions(QChart::NoAnimation); // data changes must show at once
    d->chart->legend()->setAlignment(Qt::AlignBottom);
    d->chart->layout()->setContentsMargins(0, 0, 0, 0);
    d->chart->setBackgroundRoundness(0);
    d->view = new QChartView(d->chart, this);
    d->view->setRenderHint(QPainter::Antialiasing);
    d->view->setObjectName(QStringLiteral("chartView"));
    d->view->setMinimumHeight(180);
    d->placeholder = new QLabel(d->view);
    d->placeholder->setAlignment(Qt::AlignCenter);
    d->placeholder->setObjectName(QStringLiteral("chartPlaceholder"));
    d->placeholder->hide();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d->view);
    // Labels thin out to the plot's real width, known only after the chart's layout.
    connect(d->chart, &QChart::plotAreaChanged, this, [this] { relabel(); });
}

UsageChart::~UsageChart() = default;

void UsageChart::setTitle(const QString &title) {
    d->chart->setTitle(title);
}

void UsageChart::setPlaceholder(const QString &text) {
    d->placeholder->setText(text);
    d->placeholder->setVisible(!text.isEmpty());
    d->placeholder->setGeometry(d->view->rect());
}

void UsageChart::setChart(const StackedChart &chart) {
    m_chart = chart;
    d->chart->removeAllSeries();
    for (QAbstractAxis *a : d->chart->axes())
        d->chart->removeAxis(a), delete a;
    d->bars = new QStackedBarSeries;
    d->bars->setBarWidth(0.8);
    for (int b = 0; b < chart.bands.size(); ++b) {
        const StackedChart::Band &band = chart.bands.at(b);
        auto *set = new QBarSet(band.label);
        set->setColor(band.color);
        set->setBorderColor(band.color.darker(115));
        for (double v : band.values)
            set->append(v);
        connect(set, &QBarSet::hovered, this, [this, b](bool on, int bucket) {
            if (!on) {
                QToolTip::hideText();
                return;
            }
            QToolTip::showText(QCursor::pos(), segmentText(bucket, b), this);
            emit segmentHovered(bucket, b, m_chart.bands.at(b).values.value(bucket));
        });
        connect(set, &QBarSet::clicked, this, [this, b](int bucket) { emit segmentClicked(bucket, b); });
        d->bars->append(set);
    }
    d->chart->addSeries(d->bars);
    d->axisX = new QCategoryAxis;
    d->axisX->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    d->axisX->setGridLineVisible(false);
    d->axisY = new QValueAxis;
    d->axisY->setTitleText(chart.valueTitle);
    d->axisY->setLabelFormat(QStringLiteral("%.0f"));
    d->chart->addAxis(d->axisX, Qt::AlignBottom);
    d->chart->addAxis(d->axisY, Qt::AlignLeft);
    d->bars->attachAxis(d->axisX);
    d->bars->attachAxis(d->axisY);
    double top = 0;
    for (qsizetype i = 0; i < chart.categories.size(); ++i) {
        double s = 0;
        for (const auto &band : chart.bands)
            s += band.values.value(i);
        top = std::max(top, s);
    }
    for (const StackedChart::Line &line : chart.lines) {
        auto *series = new QLineSeries;
        series->setName(line.label);
        QPen pen(line.color, 2.2);
        if (line.dashed)
            pen.setStyle(Qt::DashLine);
        series->setPen(pen);
        for (qsizetype i = 0; i < line.values.size(); ++i) {
            if (std::isnan(line.values.at(i)))
                continue;
            series->append(double(i), line.values.at(i));
            top = std::max(top, line.values.at(i));
        }
        d->chart->addSeries(series);
        series->attachAxis(d->axisX);
        series->attachAxis(d->axisY);
    }
    d->axisY->setRange(0, top > 0 ? top * 1.08 : 1);
    // A short chart gets fewer ticks: crowded labels are elided to "...".
    d->axisY->setTickCount(std::clamp(height() / 60, 3, 6));
    d->axisY->applyNiceNumbers();
    d->axisX->setRange(-0.5, std::max<double>(0.5, chart.categories.size() - 0.5));
    d->chart->legend()->setVisible(!chart.bands.isEmpty() || !chart.lines.isEmpty());
    d->labelled = -1;
    relabel();
}

void UsageChart::relabel() {
    if (!d->axisX)
        return;
    const qsizetype n = m_chart.categories.size();
    // As many labels as fit side by side, at a stride that keeps them evenly spread.
    const QFontMetrics fm(d->axisX->labelsFont());
    int widest = 1;
    for (const QString &c : std::as_const(m_chart.categories))
        widest = std::max(widest, fm.horizontalAdvance(c));
    const double plot = d->chart->plotArea().width() > 0 ? d->chart->plotArea().width() : width() * 0.8;
    const qsizetype fit = std::max<qsizetype>(1, qsizetype(plot / (widest + 16)));
    const qsizetype stride = std::max<qsizetype>(1, (n + fit - 1) / fit);
    if (stride == d->stride && d->labelled == n)
        return; // unchanged: relabelling would move the plot area and come back here
    d->stride = stride;
    d->labelled = n;
    for (const QString &l : d->axisX->categoriesLabels())
        d->axisX->remove(l);
    d->axisX->setStartValue(-0.5);
    for (qsizetype i = 0; i < n; i += stride)
        d->axisX->append(m_chart.categories.at(i), double(i));
    d->axisX->setRange(-0.5, std::max<double>(0.5, n - 0.5));
}

void UsageChart::resizeEvent(QResizeEvent *event) {
    QWidget::resizeEvent(event);
    d->placeholder->setGeometry(d->view->rect());
    relabel();
}

QPoint UsageChart::segmentCenter(int bucket, int band) const {
    const QRect r = segmentRect(bucket, band);
    return r.isEmpty() ? QPoint() : r.center();
}

QRect UsageChart::segmentRect(int bucket, int band) const {
    if (band < 0 || band >= m_chart.bands.size() || bucket < 0 || bucket >= m_chart.categories.size())
        return {};
    const double v = m_chart.bands.at(band).values.value(bucket);
    if (v <= 0)
        return {};
    double below = 0;
    for (int b = 0; b < band; ++b)
        below += m_chart.bands.at(b).values.value(bucket);
    const double half = d->bars->barWidth() / 2;
    const auto toWidget = [this](QPointF value) {
        const QPointF inChart = d->chart->mapToPosition(value, d->bars);
        return d->view->mapTo(this, d->view->mapFromScene(d->chart->mapToScene(inChart)));
    };
    return QRect(toWidget(QPointF(bucket - half, below + v)), toWidget(QPointF(bucket + half, below)))
        .normalized();
}

QString UsageChart::segmentText(int bucket, int band) const {
    if (band < 0 || band >= m_chart.bands.size())
        return {};
    const StackedChart::Band &b = m_chart.bands.at(band);
    QString name = b.label;
    if (b.others)
        name = tr("%1 (%n subjects)", nullptr, int(b.members.size())).arg(b.label);
    return tr("%1\n%2: %3 %4")
        .arg(m_chart.categoryTitles.value(bucket), name, QLocale().toString(b.values.value(bucket), 'f', 3),
             m_chart.unit);
}

QImage UsageChart::renderImage(const QSize &size) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    d->view->render(&p, QRectF(QPointF(0, 0), size), d->view->viewport()->rect());
    return image;
}

QString UsageChart::exportPng(const QString &path) const {
    const QPixmap pixmap = d->view->grab();
    if (!pixmap.save(path, "PNG"))
        return tr("Could not write %1").arg(QFileInfo(path).fileName());
    return {};
}

QString UsageChart::exportSvg(const QString &path) const {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(d->view->size());
    svg.setViewBox(QRect(QPoint(0, 0), d->view->size()));
    svg.setTitle(d->chart->title());
    QPainter p;
    if (!p.begin(&svg))
        return tr("Could not write %1").arg(QFileInfo(path).fileName());
    d->view->render(&p);
    p.end();
    if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0)
        return tr("Could not write %1").arg(QFileInfo(path).fileName());
    return {};
}

} // namespace gq
