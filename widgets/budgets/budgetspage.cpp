#include "widgets/budgets/budgetspage.h"

#include "models/budgets/budgetlistmodel.h"
#include "services/budgets/budgetservice.h"
#include "widgets/advisor/canrunpanel.h"
#include "widgets/budgets/batterydelegate.h"
#include "widgets/budgets/budgetdialog.h"

#include <QComboBox>
#include <QDesktopServices>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QUrlQuery>
#include <QVBoxLayout>

namespace gq {

BudgetsPage::BudgetsPage(BudgetService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_model(new BudgetListModel(this))
    , m_proxy(new BudgetSortProxy(this))
    , m_groupBy(new QComboBox(this))
    , m_view(new QTableView(this))
    , m_empty(new QLabel(this))
    , m_error(new QLabel(this))
    , m_selfServiceLink(new QLabel(this))
    , m_new(new QPushButton(tr("New budget…"), this))
    , m_edit(new QPushButton(tr("Edit…"), this))
    , m_delete(new QPushButton(tr("Delete…"), this))
    , m_canRun(new CanRunPanel(service, this))
    , m_refresh(new QTimer(this)) {
    setObjectName(QStringLiteral("budgetsPage"));
    m_view->setObjectName(QStringLiteral("budgetsTable"));
    m_new->setObjectName(QStringLiteral("newBudgetButton"));
    m_edit->setObjectName(QStringLiteral("editBudgetButton"));
    m_delete->setObjectName(QStringLiteral("deleteBudgetButton"));
    m_empty->setObjectName(QStringLiteral("budgetsEmptyLabel"));
    m_error->setObjectName(QStringLiteral("budgetsErrorLabel"));
    m_selfServiceLink->setObjectName(QStringLiteral("selfServiceLink"));
    m_selfServiceLink->setTextFormat(Qt::RichText);
    m_selfServiceLink->setToolTip(tr("The controller's page where a user sees their own quota and budgets"));
    m_selfServiceLink->hide();
    connect(m_selfServiceLink, &QLabel::linkActivated, this,
            [](const QString &link) { QDesktopServices::openUrl(QUrl(link)); });

    setUpTable();
    QLabel *groupLabel = setUpGroupBy();
    layOutPage(groupLabel);
    connectActions();
    updateEmpty();
    updateButtons();
}

// The budgets table: sorted by what is left, batteries and two-line cells.
void BudgetsPage::setUpTable() {
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(BudgetListModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(BudgetListModel::RemainingColumn, Qt::AscendingOrder);
    m_view->setItemDelegateForColumn(BudgetListModel::RemainingColumn, new BatteryDelegate(m_view));
    m_view->setItemDelegateForColumn(BudgetListModel::SubjectColumn, new TwoLineDelegate(m_view));
    m_view->setItemDelegateForColumn(BudgetListModel::LimitColumn, new TwoLineDelegate(m_view));
    m_view->setItemDelegateForColumn(BudgetListModel::AlertsColumn, new TwoLineDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(2 * m_view->fontMetrics().height() + 10);
    m_view->setAlternatingRowColors(true);
    QHeaderView *h = m_view->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(BudgetListModel::SubjectColumn, QHeaderView::Interactive);
    h->setStretchLastSection(true);
    m_view->setColumnWidth(BudgetListModel::SubjectColumn, 130);
    m_view->setTextElideMode(Qt::ElideRight);

    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();
}

// Group by None / ClusterQueue / LocalQueue; returns its label (the layout places both).
QLabel *BudgetsPage::setUpGroupBy() {
    m_groupBy->setObjectName(QStringLiteral("budgetsGroupBy"));
    m_groupBy->addItem(tr("None"), QString());
    m_groupBy->addItem(tr("ClusterQueue"), QStringLiteral("clusterqueue"));
    m_groupBy->addItem(tr("LocalQueue"), QStringLiteral("localqueue"));
    m_groupBy->setToolTip(tr("Budgets under the Kueue queue they are charged to, with subtotals: a namespace "
                             "budget under its namespace's LocalQueue and that queue's ClusterQueue, a user "
                             "budget under the queues of the namespaces the user ran in this period (several "
                             "jointly; none: \"(no queue)\")"));
    connect(m_groupBy, &QComboBox::currentIndexChanged, this, [this] {
        // Where each budget's usage went is read only for grouping (for a user budget
        // it reads the user's intervals of the period): turned on, the rows are read
        // again with it before they are grouped.
        const bool grouping = chosenGrouping().has_value();
        const bool reread = grouping && !m_service->readsNamespaces();
        m_service->setReadNamespaces(grouping);
        if (reread && m_service->isOpen())
            m_service->load();
        if (!reread)
            applyGrouping();
    });
    auto *groupLabel = new QLabel(tr("&Group by"), this);
    groupLabel->setBuddy(m_groupBy);
    return groupLabel;
}

void BudgetsPage::layOutPage(QLabel *groupLabel) {
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_new);
    buttons->addWidget(m_edit);
    buttons->addWidget(m_delete);
    buttons->addSpacing(12);
    buttons->addWidget(groupLabel);
    buttons->addWidget(m_groupBy);
    buttons->addStretch(1);
    buttons->addWidget(m_selfServiceLink);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(buttons);
    leftLayout->addWidget(m_error);
    leftLayout->addWidget(m_empty);
    leftLayout->addWidget(m_view, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("budgetsSplitter"));
    split->addWidget(left);
    split->addWidget(m_canRun);
    connect(m_canRun, &CanRunPanel::planRequested, this, &BudgetsPage::planRequested);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split);
}

void BudgetsPage::connectActions() {
    connect(m_new, &QPushButton::clicked, this, &BudgetsPage::createBudget);
    connect(m_edit, &QPushButton::clicked, this, &BudgetsPage::editSelected);
    connect(m_delete, &QPushButton::clicked, this, &BudgetsPage::deleteSelected);
    connect(m_view, &QTableView::doubleClicked, this, &BudgetsPage::editSelected);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &BudgetsPage::updateButtons);
    connect(m_service, &BudgetService::opened, this, [this] {
        m_service->load();
        updateEmpty();
    });
    connect(m_service, &BudgetService::overviewLoaded, this, &BudgetsPage::showOverview);
    connect(m_service, &BudgetService::failed, this, [this](const Error &e) {
        m_error->setText(
            tr("Budgets: %1")
                .arg(e.field.isEmpty() ? e.message : e.field + QStringLiteral(": ") + e.message));
        m_error->show();
    });
    connect(m_service, &BudgetService::changed, this, [this](const AuditEntry &entry) {
        emit statusMessage(tr("Budget change recorded (audit entry %1)").arg(entry.seq));
    });
    // Usage grows while pods run: the batteries and forecasts move on their own.
    m_refresh->setInterval(30000);
    connect(m_refresh, &QTimer::timeout, this, [this] {
        if (m_service->isOpen())
            m_service->load();
    });
}

std::optional<kueue::QueueLevel> BudgetsPage::chosenGrouping() const {
    return kueue::parseQueueLevel(m_groupBy->currentData().toString());
}

void BudgetsPage::applyGrouping() {
    m_model->setGrouping(chosenGrouping());
    fitSubjectColumn();
    updateEmpty();
}

void BudgetsPage::showOverview(const BudgetOverview &o) {
    // Keep the selection across a refresh by its key, not its row.
    const BudgetRow *sel = selected();
    const std::optional<Budget> keep = sel ? std::optional<Budget>(sel->budget) : std::nullopt;
    m_model->setOverview(o);
    m_loaded = true;
    m_error->hide();
    // A grouping chosen while the rows lacked their namespaces is applied now.
    if (o.namespacesRead && m_model->grouping() != chosenGrouping())
        applyGrouping();
    if (keep)
        for (int r = 0; r < m_model->rowCount(); ++r) {
            const BudgetRow *row = m_model->budgetAt(r);
            if (row && row->budget.scope == keep->scope && row->budget.subject == keep->subject &&
                row->budget.period == keep->period)
                m_view->selectRow(m_proxy->mapFromSource(m_model->index(r, 0)).row());
        }
    if (m_model->grouping())
        fitSubjectColumn();
    updateEmpty();
    updateButtons();
}

void BudgetsPage::setSelfService(const QString &controllerUrl, const QString &user) {
    QString base = controllerUrl.trimmed();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    QUrl url(base + QStringLiteral("/quota"));
    if (base.isEmpty() || user.isEmpty() || !url.isValid()) {
        m_selfService.clear();
        m_selfServiceLink->hide();
        return;
    }
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("user"), user);
    url.setQuery(query);
    m_selfService = url;
    m_selfServiceLink->setText(QStringLiteral("<a href=\"%1\">%2</a>")
                                   .arg(url.toString(QUrl::FullyEncoded).toHtmlEscaped(),
                                        tr("Self-service page for %1").arg(user).toHtmlEscaped()));
    m_selfServiceLink->show();
}

void BudgetsPage::setNamespace(const QString &ns) {
    m_canRun->setNamespace(ns);
}

void BudgetsPage::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (m_service->isOpen())
        m_service->load();
    m_refresh->start();
}

void BudgetsPage::hideEvent(QHideEvent *event) {
    QWidget::hideEvent(event);
    m_refresh->stop();
}

const BudgetRow *BudgetsPage::selected() const {
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return nullptr;
    return m_model->budgetAt(m_proxy->mapToSource(rows.first()).row());
}

void BudgetsPage::setQueues(const kueue::QueueAttribution &queues) {
    m_model->setQueues(queues);
    if (m_model->grouping())
        fitSubjectColumn();
}

void BudgetsPage::fitSubjectColumn() {
    // Queue names ("cq-nlp+cq-serving") and their second line want more than a subject.
    if (m_model->grouping())
        m_view->resizeColumnToContents(BudgetListModel::SubjectColumn);
    else
        m_view->setColumnWidth(BudgetListModel::SubjectColumn, 130);
}

void BudgetsPage::updateButtons() {
    const bool open = m_service->isOpen();
    m_new->setEnabled(open);
    m_edit->setEnabled(open && selected());
    m_delete->setEnabled(open && selected());
}

void BudgetsPage::updateEmpty() {
    const bool none = m_model->rowCount() == 0;
    m_groupBy->setEnabled(!none);
    m_empty->setVisible(none);
    m_view->setVisible(!none);
    if (!m_service->isOpen())
        m_empty->setText(tr("No usage database is open yet: budgets are kept there (set it for this "
                            "context under Connections)."));
    else if (!m_loaded)
        m_empty->setText(tr("Reading budgets…"));
    else
        m_empty->setText(tr("No GPU-hour budgets yet. Create one with \"New budget…\"."));
    updateButtons();
}

void BudgetsPage::createBudget() {
    auto *dialog = new BudgetDialog(BudgetDialog::Mode::Create, std::nullopt, this);
    dialog->setZone(m_zone);
    openDialog(dialog);
}

void BudgetsPage::editSelected() {
    if (const BudgetRow *r = selected())
        openDialog(new BudgetDialog(BudgetDialog::Mode::Edit, r->budget, this));
}

void BudgetsPage::deleteSelected() {
    if (const BudgetRow *r = selected())
        openDialog(new BudgetDialog(BudgetDialog::Mode::Delete, r->budget, this));
}

void BudgetsPage::openDialog(BudgetDialog *dialog) {
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const QString actor = m_actor ? m_actor() : QString();
        const QString who = actor.isEmpty() ? tr("unknown") : actor;
        if (dialog->mode() == BudgetDialog::Mode::Delete)
            m_service->remove(*dialog->original(), who, dialog->note());
        else
            m_service->save(dialog->budget(), dialog->original(), who, dialog->note());
    });
    dialog->open();
}

} // namespace gq
