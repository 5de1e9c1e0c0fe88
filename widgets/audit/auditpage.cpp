#include "widgets/audit/auditpage.h"

#include "core/domain/atomicfile.h"
#include "core/usage/auditcsv.h"
#include "models/audit/auditfiltermodel.h"
#include "models/audit/auditmodel.h"
#include "core/domain/clock.h"
#include "services/usage/usageservice.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace gq {

namespace {
QComboBox *filterCombo(const QString &name, const QString &placeholder, QWidget *parent) {
    auto *c = new QComboBox(parent);
    c->setObjectName(name);
    c->setEditable(true);
    c->setInsertPolicy(QComboBox::NoInsert);
    c->lineEdit()->setPlaceholderText(placeholder);
    c->lineEdit()->setClearButtonEnabled(true);
    c->setMinimumContentsLength(10);
    return c;
}
} // namespace

AuditPage::AuditPage(AuditModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new AuditFilterModel(this))
    , m_view(new QTableView(this))
    , m_details(new QPlainTextEdit(this))
    , m_onlyThis(new QCheckBox(tr("Only the selected namespace"), this))
    , m_nsFilter(filterCombo(QStringLiteral("auditNamespaceFilter"), tr("any namespace"), this))
    , m_actorFilter(filterCombo(QStringLiteral("auditActorFilter"), tr("anyone"), this))
    , m_actionFilter(filterCombo(QStringLiteral("auditActionFilter"), tr("any action"), this))
    , m_fromOn(new QCheckBox(tr("From"), this))
    , m_from(new QDateTimeEdit(this))
    , m_toOn(new QCheckBox(tr("to"), this))
    , m_to(new QDateTimeEdit(this))
    , m_export(new QPushButton(tr("Export CSV…"), this))
    , m_verify(new QPushButton(tr("Verify"), this))
    , m_verdict(new QLabel(this))
    , m_empty(new QLabel(m_view->viewport())) {
    setUpControls();
    layOutPage();
    connectFilters();
    setUpEmptyLabelAndColumns();
    applyFilter();
}

void AuditPage::setUpControls() {
    m_proxy->setSourceModel(m_model);
    m_view->setObjectName(QStringLiteral("auditView"));
    m_view->setModel(m_proxy);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->resizeSection(AuditModel::WhenColumn, 170);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_details->setObjectName(QStringLiteral("auditDetails"));
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Select an entry to see what changed."));
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_onlyThis->setObjectName(QStringLiteral("auditOnlyNamespace"));
    m_onlyThis->setChecked(true);
    m_fromOn->setObjectName(QStringLiteral("auditFromEnabled"));
    m_toOn->setObjectName(QStringLiteral("auditToEnabled"));
    m_from->setObjectName(QStringLiteral("auditFrom"));
    m_to->setObjectName(QStringLiteral("auditTo"));
    m_export->setObjectName(QStringLiteral("auditExportButton"));
    m_verify->setObjectName(QStringLiteral("auditVerifyButton"));
    m_verdict->setObjectName(QStringLiteral("auditVerdict"));
    m_verify->setToolTip(tr("Recompute the hash chain of the whole audit log and report the first entry that "
                            "does not match"));
    m_export->setToolTip(tr("Save the entries shown (with these filters) as CSV"));
    const QDateTime now = Clock::system().nowUtc().toLocalTime();
    for (QDateTimeEdit *e : {m_from, m_to}) {
        e->setCalendarPopup(true);
        e->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
        e->setEnabled(false);
    }
    m_from->setDateTime(now.addDays(-7));
    m_to->setDateTime(now.addSecs(3600));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->hide();
    m_verify->setEnabled(false);
}

void AuditPage::layOutPage() {
    // The filters say what they are in their placeholders and tooltips rather than in
    // labels: the page must fit beside the namespace list in a 1200-pixel window.
    m_nsFilter->setToolTip(tr("Namespace"));
    m_actorFilter->setToolTip(tr("Actor"));
    m_actionFilter->setToolTip(tr("Action"));
    auto *filters = new QHBoxLayout;
    filters->addWidget(m_onlyThis);
    filters->addSpacing(8);
    filters->addWidget(m_nsFilter, 1);
    filters->addWidget(m_actorFilter, 1);
    filters->addWidget(m_actionFilter, 1);
    auto *range = new QHBoxLayout;
    range->addWidget(m_fromOn);
    range->addWidget(m_from);
    range->addWidget(m_toOn);
    range->addWidget(m_to);
    range->addStretch(1);
    range->addWidget(m_export);
    range->addWidget(m_verify);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_details);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addLayout(range);
    layout->addWidget(m_verdict);
    layout->addWidget(split, 1);
}

void AuditPage::connectFilters() {
    connect(m_onlyThis, &QCheckBox::toggled, this, &AuditPage::applyFilter);
    for (QComboBox *c : {m_nsFilter, m_actorFilter, m_actionFilter})
        connect(c, &QComboBox::currentTextChanged, this, &AuditPage::applyFilter);
    for (QCheckBox *c : {m_fromOn, m_toOn})
        connect(c, &QCheckBox::toggled, this, &AuditPage::applyFilter);
    for (QDateTimeEdit *e : {m_from, m_to})
        connect(e, &QDateTimeEdit::dateTimeChanged, this, &AuditPage::applyFilter);
    connect(m_export, &QPushButton::clicked, this, &AuditPage::chooseExportFile);
    connect(m_verify, &QPushButton::clicked, this, &AuditPage::verify);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &AuditPage::showSelected);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &AuditPage::showSelected);
}

void AuditPage::setUpEmptyLabelAndColumns() {
    // An empty table says why, over its viewport so the headers stay.
    m_empty->setObjectName(QStringLiteral("auditEmptyLabel"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_view->viewport()->installEventFilter(this);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &AuditPage::updateEmpty);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &AuditPage::updateEmpty);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &AuditPage::updateEmpty);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &AuditPage::updateEmpty);
    connect(m_model, &QAbstractItemModel::modelReset, this, &AuditPage::updateChoices);
    // Columns fit what a load brought (an object path is long, a note is read below).
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] {
        m_view->resizeColumnsToContents();
        const int cap = 44 * m_view->fontMetrics().averageCharWidth();
        for (int c = 0; c < AuditModel::NoteColumn; ++c)
            m_view->setColumnWidth(c, std::min(m_view->columnWidth(c), cap));
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &AuditPage::updateChoices);
}

void AuditPage::setUsageService(UsageService *service) {
    m_service = service;
    m_verify->setEnabled(service != nullptr);
    if (service)
        connect(service, &UsageService::auditVerified, this, &AuditPage::showVerified);
}

void AuditPage::updateEmpty() {
    const bool empty = m_proxy->rowCount() == 0;
    if (empty) {
        const bool narrowed = m_onlyThis->isChecked() && !m_ns.isEmpty();
        if (m_model->rowCount() > 0)
            m_empty->setText(tr("No entry matches these filters."));
        else
            m_empty->setText(
                narrowed ? tr("No changes to %1 recorded yet.\nEvery change applied from this console "
                              "is listed here with who made it and why.")
                               .arg(m_ns)
                         : tr("No changes recorded yet.\nEvery change applied from this console is "
                              "listed here with who made it and why."));
        m_empty->setGeometry(m_view->viewport()->rect().adjusted(12, 12, -12, -12));
    }
    m_empty->setVisible(empty);
    m_export->setEnabled(!empty);
}

bool AuditPage::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        m_empty->setGeometry(m_view->viewport()->rect().adjusted(12, 12, -12, -12));
    return QWidget::eventFilter(watched, event);
}

void AuditPage::setNamespace(const QString &ns) {
    m_ns = ns;
    applyFilter();
}

// The drop-downs offer what the log holds; typing another value still filters.
void AuditPage::updateChoices() {
    QSet<QString> ns, actors, actions;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const AuditRow &row = m_model->at(r);
        if (!row.namespaceName.isEmpty())
            ns << row.namespaceName;
        actors << row.actor;
        actions << row.action;
    }
    const auto refill = [](QComboBox *c, const QSet<QString> &values) {
        const QString keep = c->currentText();
        QStringList sorted(values.begin(), values.end());
        sorted.sort();
        sorted.prepend(QString());
        QSignalBlocker block(c);
        c->clear();
        c->addItems(sorted);
        c->setCurrentText(keep);
    };
    refill(m_nsFilter, ns);
    refill(m_actorFilter, actors);
    refill(m_actionFilter, actions);
}

void AuditPage::applyFilter() {
    const bool follow = m_onlyThis->isChecked() && !m_ns.isEmpty();
    m_nsFilter->setEnabled(!follow);
    m_proxy->setNamespace(follow ? m_ns : m_nsFilter->currentText());
    m_proxy->setActor(m_actorFilter->currentText());
    m_proxy->setAction(m_actionFilter->currentText());
    m_from->setEnabled(m_fromOn->isChecked());
    m_to->setEnabled(m_toOn->isChecked());
    m_proxy->setRange(m_fromOn->isChecked() ? m_from->dateTime().toSecsSinceEpoch() : 0,
                      m_toOn->isChecked() ? m_to->dateTime().toSecsSinceEpoch() : 0);
    showSelected();
    updateEmpty();
}

void AuditPage::showSelected() {
    const QModelIndex idx = m_view->selectionModel()->currentIndex();
    if (!idx.isValid()) {
        m_details->clear();
        return;
    }
    const AuditRow &row = m_model->at(m_proxy->mapToSource(idx).row());
    QString text = row.diff;
    if (!row.note.isEmpty())
        text = tr("Note: %1").arg(row.note) + QLatin1String("\n\n") + text;
    if (row.entry.seq > 0)
        text = tr("Entry %1: %2").arg(row.entry.seq).arg(row.entry.target) + QLatin1Char('\n') + text;
    m_details->setPlainText(text);
}

void AuditPage::chooseExportFile() {
    auto *dialog =
        new QFileDialog(this, tr("Export the audit entries shown"), QString(), tr("CSV files (*.csv)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    dialog->selectFile(QStringLiteral("audit.csv"));
    connect(dialog, &QFileDialog::fileSelected, this, &AuditPage::exportCsv);
    dialog->open();
}

void AuditPage::exportCsv(const QString &path) {
    const QByteArray csv = auditCsv(m_proxy->shownEntries());
    const qsizetype rows = m_proxy->rowCount();
    m_jobs.run(
        [path, csv] {
            auto r = writeFileAtomically(path, csv);
            return r ? QString() : r.error().message;
        },
        [this, path, rows](const QString &error) {
            emit statusMessage(error.isEmpty()
                                   ? tr("%n audit entries written to %1", nullptr, int(rows)).arg(path)
                                   : tr("Could not write %1: %2").arg(path, error));
            emit exported(path, error);
        });
}

void AuditPage::verify() {
    if (!m_service)
        return;
    m_verify->setEnabled(false);
    m_verdict->setText(tr("Verifying the audit chain…"));
    m_verdict->setStyleSheet(QString());
    m_verdict->show();
    m_service->verifyAudit();
}

void AuditPage::showVerified(const AuditChainReport &r) {
    m_verify->setEnabled(true);
    m_verdict->show();
    if (r.ok) {
        m_verdict->setStyleSheet(QStringLiteral("QLabel { color: #1e6b34; }"));
        m_verdict->setText(tr("Intact: %n entries checked, every hash matches.", nullptr, int(r.checked)));
        return;
    }
    m_verdict->setStyleSheet(QStringLiteral("QLabel { color: #b03a2e; font-weight: bold; }"));
    const qint64 first = r.firstBadSeq > 0 ? r.firstBadSeq : r.firstMissingSeq;
    m_verdict->setText(tr("Broken at entry %1: %2").arg(first).arg(r.problem));
    // Show it, whatever the filters hid.
    if (!m_proxy->indexOfSeq(first).isValid()) {
        m_onlyThis->setChecked(false);
        for (QComboBox *c : {m_nsFilter, m_actorFilter, m_actionFilter})
            c->setCurrentText(QString());
        m_fromOn->setChecked(false);
        m_toOn->setChecked(false);
    }
    if (const QModelIndex i = m_proxy->indexOfSeq(first); i.isValid())
        m_view->setCurrentIndex(i);
}

} // namespace gq
