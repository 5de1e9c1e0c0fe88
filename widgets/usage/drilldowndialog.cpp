#include "widgets/usage/drilldowndialog.h"

#include "core/domain/atomicfile.h"
#include "models/usage/drilldownmodel.h"
#include "models/usage/stackedchart.h"
#include "services/usage/usagechartservice.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace gq {

DrillDownDialog::DrillDownDialog(UsageChartService *service, const DrillQuery &query, const QString &title,
                                 double barValue, QWidget *parent)
    : QDialog(parent)
    , m_model(new DrillDownModel(this))
    , m_table(new QTableView(this))
    , m_sum(new QLabel(this))
    , m_barValue(barValue)
    , m_service(service)
    , m_channel(QStringLiteral("drill-%1").arg(quintptr(this), 0, 16)) {
    setObjectName(QStringLiteral("drillDownDialog"));
    setWindowTitle(tr("Intervals behind the bar"));
    resize(980, 520);
    auto *heading = new QLabel(title, this);
    heading->setWordWrap(true);
    heading->setObjectName(QStringLiteral("drillTitle"));
    QFont f = heading->font();
    f.setBold(true);
    heading->setFont(f);
    m_table->setObjectName(QStringLiteral("drillTable"));
    m_table->setModel(m_model);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(DrillDownModel::GpuHoursColumn, Qt::DescendingOrder);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(DrillDownModel::PodColumn, QHeaderView::Stretch);
    m_sum->setObjectName(QStringLiteral("drillSum"));
    m_sum->setText(tr("Loading..."));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *csv = buttons->addButton(tr("Export CSV..."), QDialogButtonBox::ActionRole);
    csv->setObjectName(QStringLiteral("drillCsv"));
    connect(csv, &QPushButton::clicked, this, &DrillDownDialog::exportCsv);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(heading);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_sum);
    layout->addWidget(buttons);

    service->drillDown(m_channel, query, [this](const Result<DrillData> &r) {
        m_loaded = true;
        if (!r) {
            m_sum->setText(tr("Could not read the intervals: %1").arg(r.error().message));
            return;
        }
        m_model->setDrill(*r);
        m_model->sort(DrillDownModel::GpuHoursColumn, Qt::DescendingOrder);
        const QLocale locale;
        m_sum->setText(tr("%n interval(s), sum %1 GPU-h (the bar: %2 GPU-h)", nullptr, int(r->rows.size()))
                           .arg(locale.toString(r->total(), 'f', 3), locale.toString(m_barValue, 'f', 3)));
    });
}

DrillDownDialog::~DrillDownDialog() {
    if (m_service)
        m_service->cancel(m_channel); // nothing still out reaches this dialog
}

void DrillDownDialog::exportCsv() {
    auto *dialog = new QFileDialog(this, tr("Export intervals as CSV"), QString(), tr("CSV files (*.csv)"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        if (auto w = writeFileAtomically(path, drillCsv(m_model->drill())); !w)
            m_sum->setText(tr("Could not write %1: %2").arg(path, w.error().message));
    });
    dialog->open();
}

} // namespace gq
