#include "widgets/chargeback/chargebackpage.h"

#include "core/domain/atomicfile.h"
#include "core/report/chargebackformat.h"
#include "models/chargeback/chargebackmodel.h"
#include "core/reportpdf/chargebackpdf.h"
#include "services/chargeback/chargebackservice.h"
#include "core/domain/clock.h"
#include "core/report/money.h"

#include <QComboBox>
#include <QCompleter>
#include <QDateEdit>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimeZone>
#include <QVBoxLayout>

#include <cmath>

namespace gq {

ChargebackPage::ChargebackPage(ChargebackService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service ? service : new ChargebackService(this))
    , m_model(new ChargebackModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_month(new QDateEdit(this))
    , m_zone(new QComboBox(this))
    , m_by(new QComboBox(this))
    , m_rate(new QDoubleSpinBox(this))
    , m_ratesFile(new QLineEdit(this))
    , m_browse(new QPushButton(tr("Rates file…"), this))
    , m_csv(new QPushButton(tr("Export CSV…"), this))
    , m_pdf(new QPushButton(tr("Export PDF…"), this))
    , m_header(new QLabel(this))
    , m_view(new QTableView(this))
    , m_total(new QLabel(this))
    , m_status(new QLabel(this)) {
    setUpPeriodControls();
    setUpRateControls();
    setUpTable();
    connectControls(layOut());
    m_csv->setEnabled(false);
    m_pdf->setEnabled(false);
    m_status->setText(tr("No usage database is open."));
}

void ChargebackPage::setUpPeriodControls() {
    const PagePreferences defaults;
    const QTimeZone local(defaults.zone().toUtf8());
    const ChargebackMonth last = previousMonth(Clock::system().nowSecs(), local);

    m_month->setObjectName(QStringLiteral("chargebackMonth"));
    m_month->setDisplayFormat(QStringLiteral("yyyy-MM"));
    m_month->setDate(QDate(last.year, last.month, 1));
    m_month->setMinimumDate(QDate(2000, 1, 1));
    m_month->setToolTip(tr("The calendar month to charge, in the zone beside it"));

    m_zone->setObjectName(QStringLiteral("chargebackZone"));
    m_zone->setEditable(true);
    m_zone->setInsertPolicy(QComboBox::NoInsert);
    for (const QByteArray &id : QTimeZone::availableTimeZoneIds())
        m_zone->addItem(QString::fromUtf8(id));
    const QString localId = QString::fromUtf8(local.id());
    m_zone->setCurrentText(m_zone->findText(localId) >= 0 ? localId : QStringLiteral("UTC"));
    m_zone->completer()->setFilterMode(Qt::MatchContains);
    m_zone->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    m_zone->setMinimumContentsLength(16);
    m_zone->setToolTip(tr("Time zone of the month's first and last day (IANA name)"));

    m_by->setObjectName(QStringLiteral("chargebackBy"));
    m_by->addItem(tr("Namespace"), QStringLiteral("namespace"));
    m_by->addItem(tr("User"), QStringLiteral("user"));
    m_by->addItem(tr("ClusterQueue"), QStringLiteral("clusterqueue"));
    m_by->addItem(tr("LocalQueue"), QStringLiteral("localqueue"));
    m_by->setToolTip(tr("Kueue queues: each namespace's GPU-hours go to its LocalQueue and that queue's "
                        "ClusterQueue"));
}

void ChargebackPage::setUpRateControls() {
    const PagePreferences defaults;
    m_rate->setObjectName(QStringLiteral("chargebackRate"));
    m_rate->setRange(0, 1000000);
    m_rate->setDecimals(2);
    m_rate->setValue(double(defaults.chargebackRateMicros) / 1e6);
    m_rate->setSuffix(tr(" per GPU-hour"));
    m_rate->setKeyboardTracking(false);
    m_rate->setToolTip(tr("One rate for every resource; a rates file replaces it"));

    m_ratesFile->setObjectName(QStringLiteral("chargebackRatesFile"));
    m_ratesFile->setPlaceholderText(tr("none: one rate for all"));
    m_ratesFile->setClearButtonEnabled(true);
    m_ratesFile->setToolTip(tr("A YAML rates file (default, resources, currency), as for gpuquota report "
                               "chargeback --rates"));
    m_browse->setObjectName(QStringLiteral("chargebackBrowse"));
    m_csv->setObjectName(QStringLiteral("chargebackExportCsv"));
    m_pdf->setObjectName(QStringLiteral("chargebackExportPdf"));
}

void ChargebackPage::setUpTable() {
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ChargebackModel::SortRole);
    m_view->setObjectName(QStringLiteral("chargebackView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ChargebackModel::CostColumn, Qt::DescendingOrder);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(ChargebackModel::SubjectColumn, QHeaderView::Stretch);
    m_view->setTextElideMode(Qt::ElideMiddle);

    m_header->setObjectName(QStringLiteral("chargebackHeader"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_total->setObjectName(QStringLiteral("chargebackTotal"));
    QFont bold = m_total->font();
    bold.setBold(true);
    m_total->setFont(bold);
    m_total->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_status->setObjectName(QStringLiteral("chargebackStatus"));
    m_status->setWordWrap(true);
}

QLabel *ChargebackPage::layOut() {
    auto *controls = new QHBoxLayout;
    const auto field = [&](const QString &label, QWidget *w) {
        auto *l = new QLabel(label, this);
        l->setBuddy(w);
        controls->addWidget(l);
        controls->addWidget(w);
        controls->addSpacing(8);
    };
    field(tr("&Month"), m_month);
    field(tr("&Zone"), m_zone);
    field(tr("&Per"), m_by);
    controls->addStretch(1);

    // The rate sits with the rates file it is the alternative to; on the first row it
    // made this page the widest tab and a 1200 px window too narrow (tst_overbudget).
    auto *rates = new QHBoxLayout;
    auto *rateLabel = new QLabel(tr("&Rate"), this);
    rateLabel->setBuddy(m_rate);
    rates->addWidget(rateLabel);
    rates->addWidget(m_rate);
    rates->addSpacing(8);
    auto *ratesLabel = new QLabel(tr("Rates &file"), this);
    ratesLabel->setBuddy(m_ratesFile);
    rates->addWidget(ratesLabel);
    rates->addWidget(m_ratesFile, 1);
    rates->addWidget(m_browse);

    // The export buttons sit under the table, beside the total they export: on the
    // rates row they made this page the widest of the window's tabs (a 1200 px
    // window must still fit, see tst_overbudget).
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    bottom->addWidget(m_total);
    bottom->addSpacing(16);
    bottom->addWidget(m_csv);
    bottom->addWidget(m_pdf);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(rates);
    layout->addWidget(m_header);
    layout->addWidget(m_view, 1);
    layout->addLayout(bottom);
    return rateLabel;
}

void ChargebackPage::connectControls(QLabel *rateLabel) {
    connect(m_month, &QDateEdit::dateChanged, this, &ChargebackPage::refresh);
    connect(m_zone, &QComboBox::currentTextChanged, this, [this](const QString &text) {
        // Only whole zone names: typing "Europe/Ber" must not query (or complain).
        if (QTimeZone::isTimeZoneIdAvailable(text.toUtf8()))
            refresh();
    });
    connect(m_by, &QComboBox::currentIndexChanged, this, &ChargebackPage::refresh);
    connect(m_rate, &QDoubleSpinBox::valueChanged, this, &ChargebackPage::refresh);
    connect(m_ratesFile, &QLineEdit::editingFinished, this, &ChargebackPage::refresh);
    connect(m_ratesFile, &QLineEdit::textChanged, this, [this, rateLabel](const QString &t) {
        // A rates file replaces the one rate (and its currency): showing the unused rate
        // next to the file's, in another currency, only confused.
        const bool oneRate = t.trimmed().isEmpty();
        m_rate->setEnabled(oneRate);
        m_rate->setVisible(oneRate);
        rateLabel->setVisible(oneRate);
        if (t.isEmpty())
            refresh(); // the clear button
    });
    connect(m_browse, &QPushButton::clicked, this, &ChargebackPage::chooseRatesFile);
    connect(m_csv, &QPushButton::clicked, this, [this] { chooseExport(false); });
    connect(m_pdf, &QPushButton::clicked, this, [this] { chooseExport(true); });

    connect(m_service, &ChargebackService::reportReady, this, [this](const ChargebackReport &report) {
        m_loading = false;
        showReport(report);
    });
    connect(m_service, &ChargebackService::failed, this, [this](const Error &error) {
        m_loading = false;
        showError(error.toString());
    });
}

void ChargebackPage::setDatabaseUrl(const QString &url, const QString &password) {
    m_service->setDatabase(url, password);
    refresh();
}

void ChargebackPage::setQueues(const kueue::QueueAttribution &queues) {
    m_queues = queues;
    if (kueue::parseQueueLevel(m_by->currentData().toString()))
        refresh();
}

void ChargebackPage::setPreferences(const PagePreferences &preferences) {
    {
        // One query for the three changes, not one each.
        const QSignalBlocker zone(m_zone), rate(m_rate);
        m_zone->setCurrentText(preferences.zone());
        m_rate->setValue(double(preferences.chargebackRateMicros) / 1e6);
    }
    m_currency = preferences.currency.trimmed();
    m_rate->setSuffix(m_currency.isEmpty() ? tr(" per GPU-hour") : tr(" %1 per GPU-hour").arg(m_currency));
    refresh();
}

void ChargebackPage::setNamespace(const QString &ns) {
    m_ns = ns;
    selectNamespaceRow();
}

void ChargebackPage::selectNamespaceRow() {
    if (!m_model->hasReport() || subjectKind(m_model->report()) != QLatin1String("namespace") ||
        m_ns.isEmpty())
        return;
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex idx = m_proxy->index(row, ChargebackModel::SubjectColumn);
        if (idx.data().toString() == m_ns) {
            m_view->selectRow(row);
            m_view->scrollTo(idx);
            return;
        }
    }
    m_view->clearSelection();
}

void ChargebackPage::refresh() {
    if (!m_service->hasDatabase()) {
        m_service->cancel();
        return;
    }
    ChargebackRequest r;
    r.year = m_month->date().year();
    r.month = m_month->date().month();
    r.zone = m_zone->currentText().trimmed();
    const QString by = m_by->currentData().toString();
    r.by = by == QLatin1String("user") ? GroupBy::User : GroupBy::Namespace;
    if (const auto level = kueue::parseQueueLevel(by)) {
        r.regroup.name = kueue::queueLevelName(*level);
        r.regroup.subjectOf = [queues = m_queues, l = *level](const QString &ns) {
            return queues.subjectOf(ns, l);
        };
    }
    r.rateMicros = std::llround(m_rate->value() * 1e6);
    r.ratesFile = m_ratesFile->text().trimmed();
    r.currency = m_currency;
    m_loading = true;
    m_status->setText(tr("Loading…"));
    m_service->load(r); // replaces the request still out
}

QString ChargebackPage::headerText(const ChargebackReport &report) const {
    const QTimeZone &tz = report.month.tz;
    const auto local = [&](qint64 t) {
        return QDateTime::fromSecsSinceEpoch(t, tz).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    };
    const QString cur =
        report.rates.currency.isEmpty() ? QString() : QLatin1Char(' ') + report.rates.currency;
    const QString rate =
        report.rates.isFlat()
            ? tr("%1 per GPU-hour").arg(formatRate(report.rates.defaultMicros) + cur)
            : tr("%1 per GPU-hour")
                  .arg((QStringList{tr("default %1").arg(formatRate(report.rates.defaultMicros))} +
                        report.rates.exceptions())
                           .join(QStringLiteral("; ")) +
                       cur);
    const QString used =
        report.utilizationRecorded
            ? tr("Used = held - idle, from the idle spans the controller recorded; \"not recorded\" where "
                 "a subject has none.")
            : tr("Used and idle share: not recorded, no idle spans were recorded in this month (the "
                 "controller records them when it has a metrics source).");
    return tr("<b>%1</b>: %2 to %3 (%4) · Rate: %5<br>Charged: GPU-hours held (allocated). %6")
        .arg(report.month.label(), local(report.month.range.start), local(report.month.range.end),
             QString::fromUtf8(tz.id()).toHtmlEscaped(), rate.toHtmlEscaped(), used.toHtmlEscaped());
}

void ChargebackPage::showReport(const ChargebackReport &report) {
    m_model->setReport(report);
    m_header->setText(headerText(report));
    const QString cur =
        report.rates.currency.isEmpty() ? QString() : QLatin1Char(' ') + report.rates.currency;
    m_total->setText(tr("Total: %1 GPU-h, %2")
                         .arg(formatHoursE4(report.totalHoursE4), formatCents(report.totalCents) + cur));
    m_status->setText(report.lines.isEmpty()
                          ? tr("No GPU-hours were recorded in %1.").arg(report.month.label())
                          : tr("%n subject(s).", nullptr, int(report.lines.size())));
    m_csv->setEnabled(true);
    m_pdf->setEnabled(true);
    selectNamespaceRow();
    emit reportShown(QString());
}

void ChargebackPage::showError(const QString &message) {
    m_model->clear();
    m_header->clear();
    m_total->clear();
    m_status->setText(tr("Cannot make the report: %1").arg(message));
    m_csv->setEnabled(false);
    m_pdf->setEnabled(false);
    emit reportShown(message);
}

void ChargebackPage::chooseRatesFile() {
    auto *dialog = new QFileDialog(window(), tr("Rates file"), QString(),
                                   tr("YAML files (*.yaml *.yml);;All files (*)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        m_ratesFile->setText(path);
        refresh();
    });
    dialog->open();
}

void ChargebackPage::chooseExport(bool pdf) {
    if (!m_model->hasReport())
        return;
    const ChargebackReport &r = m_model->report();
    const QString name =
        QStringLiteral("chargeback-%1-%2.%3")
            .arg(r.month.label(), subjectKind(r), pdf ? QStringLiteral("pdf") : QStringLiteral("csv"));
    auto *dialog = new QFileDialog(
        window(), pdf ? tr("Export the chargeback as PDF") : tr("Export the chargeback as CSV"), name,
        pdf ? tr("PDF files (*.pdf)") : tr("CSV files (*.csv)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, pdf](const QString &path) { pdf ? exportPdf(path) : exportCsv(path); });
    dialog->open();
}

void ChargebackPage::exportCsv(const QString &path) {
    const QByteArray bytes = chargebackCsv(m_model->report());
    m_exports.run([path, bytes] { return writeFileAtomically(path, bytes); },
                  [this, path](const Result<void> &r) {
                      const QString error = r ? QString() : r.error().message;
                      emit statusMessage(r ? tr("Saved %1").arg(path)
                                           : tr("Cannot write %1: %2").arg(path, error));
                      emit exportFinished(path, error);
                  });
}

void ChargebackPage::exportPdf(const QString &path) {
    const ChargebackReport report = m_model->report();
    m_exports.run([path, report] { return writeChargebackPdf(report, path); },
                  [this, path](const Result<int> &r) {
                      const QString error = r ? QString() : r.error().message;
                      emit statusMessage(r ? tr("Saved %1 (%n page(s))", nullptr, *r).arg(path)
                                           : tr("Cannot write %1: %2").arg(path, error));
                      emit exportFinished(path, error);
                  });
}

} // namespace gq
