#include "widgets/usage/usagechartpanel.h"

#include "core/domain/atomicfile.h"
#include "widgets/usage/drilldowndialog.h"
#include "widgets/charts/usagechart.h"
#include "models/usage/usagechartmodel.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QProgressBar>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace gq {

namespace {
// A query answered within this is not worth a busy bar (it would only flicker).
constexpr int kBusyAfterMs = 250;
} // namespace

UsageChartPanel::UsageChartPanel(UsageChartModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_chart(new UsageChart(this))
    , m_busy(new QProgressBar(this))
    , m_busyLabel(new QLabel(this))
    , m_busyTimer(new QTimer(this)) {
    m_busy->setObjectName(QStringLiteral("chartBusy"));
    m_busy->setRange(0, 0); // the database says nothing about how far it is
    m_busy->setMaximumHeight(6);
    m_busy->setTextVisible(false);
    m_busy->hide();
    m_busyLabel->hide();
    m_busyTimer->setInterval(kBusyAfterMs);
    connect(m_busyTimer, &QTimer::timeout, this, [this] {
        if (!m_model->isLoading())
            return;
        m_busy->show();
        m_busyLabel->show();
        m_busyLabel->setText(
            tr("Reading usage... %1 s").arg(QLocale().toString(m_model->loadingMs() / 1000.0, 'f', 1)));
    });

    auto *exportButton = new QToolButton(this);
    exportButton->setObjectName(QStringLiteral("chartExport"));
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(exportButton);
    menu->addAction(tr("Chart as PNG..."), this, [this] { exportTo(QStringLiteral("png")); });
    menu->addAction(tr("Chart as SVG..."), this, [this] { exportTo(QStringLiteral("svg")); });
    menu->addAction(tr("Data as CSV (every subject)..."), this, [this] { exportTo(QStringLiteral("csv")); });
    exportButton->setMenu(menu);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_busyLabel);
    top->addWidget(m_busy, 1);
    top->addStretch();
    top->addWidget(exportButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_chart, 1);

    connect(m_model, &UsageChartModel::loadingChanged, this, &UsageChartPanel::onLoading);
    connect(m_model, &UsageChartModel::loaded, this, &UsageChartPanel::redraw);
    connect(m_model, &UsageChartModel::failed, this, [this](const Error &e) {
        m_chart->setPlaceholder(tr("Could not read usage: %1").arg(e.message));
    });
    connect(m_chart, &UsageChart::segmentClicked, this,
            [this](int bucket, int band) { openDrillDown(bucket, band); });
    m_chart->setPlaceholder(tr("No usage database is open."));
}

void UsageChartPanel::setTitle(const QString &title) {
    m_chart->setTitle(title);
}

void UsageChartPanel::onLoading(bool loading) {
    if (loading) {
        m_busyTimer->start();
    } else {
        m_busyTimer->stop();
        m_busy->hide();
        m_busyLabel->hide();
    }
}

void UsageChartPanel::redraw() {
    StackedChart c = m_model->stacked();
    if (m_decorate)
        m_decorate(c);
    m_chart->setChart(c);
    m_chart->setPlaceholder(m_model->data().totals.isEmpty() && c.lines.isEmpty()
                                ? tr("No GPU usage recorded in this range.")
                                : QString());
}

DrillDownDialog *UsageChartPanel::openDrillDown(int bucket, int band) {
    const StackedChart &c = m_chart->chart();
    const ChartData &data = m_model->data();
    if (band < 0 || band >= c.bands.size() || bucket < 0 || size_t(bucket) >= data.buckets.size() ||
        !m_model->service())
        return nullptr;
    const StackedChart::Band &b = c.bands.at(band);
    DrillQuery q{data.query, data.buckets[size_t(bucket)], m_model->namespacesOf(b.members)};
    const QString title = b.others ? tr("%1, %2 (%n subjects)", nullptr, int(b.members.size()))
                                         .arg(c.categoryTitles.value(bucket), b.label)
                                   : tr("%1, %2").arg(c.categoryTitles.value(bucket), b.label);
    auto *dialog = new DrillDownDialog(m_model->service(), q, title, b.values.value(bucket), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void UsageChartPanel::exportTo(const QString &format) {
    const QString filter = format == QLatin1String("png")   ? tr("PNG images (*.png)")
                           : format == QLatin1String("svg") ? tr("SVG images (*.svg)")
                                                            : tr("CSV files (*.csv)");
    auto *dialog = new QFileDialog(this, tr("Export"), QString(), filter);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(format);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this, format](const QString &path) {
        QString error;
        if (format == QLatin1String("png"))
            error = m_chart->exportPng(path);
        else if (format == QLatin1String("svg"))
            error = m_chart->exportSvg(path);
        else if (auto w = writeFileAtomically(path, chartCsv(m_model->data())); !w)
            error = w.error().message;
        emit statusMessage(error.isEmpty() ? tr("Wrote %1").arg(path) : error);
    });
    dialog->open();
}

} // namespace gq
