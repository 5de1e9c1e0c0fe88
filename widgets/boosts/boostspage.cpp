#include "widgets/boosts/boostspage.h"

#include "widgets/boosts/boostchangedialog.h"
#include "widgets/boosts/boostgrantdialog.h"
#include "models/boosts/boostlistmodel.h"
#include "widgets/boosts/boostrequestspanel.h"
#include "services/boosts/boostservice.h"
#include "core/domain/clock.h"
#include "services/cluster/clusterconnection.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace gq {

BoostsPage::BoostsPage(BoostService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_model(new BoostListModel(this))
    , m_filter(new BoostFilterModel(this))
    , m_view(new QTableView(this))
    , m_empty(new QLabel(this))
    , m_error(new QLabel(this))
    , m_grant(new QPushButton(tr("Grant boost…"), this))
    , m_revoke(new QPushButton(tr("Revoke…"), this))
    , m_extend(new QPushButton(tr("Extend…"), this))
    , m_states(new QComboBox(this))
    , m_allNamespaces(new QCheckBox(tr("All namespaces"), this))
    , m_refresh(new QTimer(this))
    , m_requests(new BoostRequestsPanel(service, this)) {
    setUpControls();
    layOutPage();
    connectControls();
    connectService();
    setUpRefreshTimer();
    applyFilter();
    updateEmpty();
}

void BoostsPage::setUpControls() {
    setObjectName(QStringLiteral("boostsPage"));
    m_view->setObjectName(QStringLiteral("boostsTable"));
    m_grant->setObjectName(QStringLiteral("grantBoostButton"));
    m_revoke->setObjectName(QStringLiteral("revokeBoostButton"));
    m_extend->setObjectName(QStringLiteral("extendBoostButton"));
    m_states->setObjectName(QStringLiteral("boostStateFilter"));
    m_allNamespaces->setObjectName(QStringLiteral("boostAllNamespaces"));
    m_empty->setObjectName(QStringLiteral("boostsEmptyLabel"));
    m_error->setObjectName(QStringLiteral("boostsErrorLabel"));

    using S = BoostFilterModel::States;
    m_states->addItem(tr("Every state"), int(S::All));
    m_states->addItem(tr("Active"), int(S::Active));
    m_states->addItem(tr("Scheduled"), int(S::Scheduled));
    m_states->addItem(tr("Expired or revoked"), int(S::Ended));
    m_states->addItem(tr("Failed"), int(S::Failed));
    m_allNamespaces->setToolTip(
        tr("Show the boosts of every namespace and user, not only the selected namespace's"));

    m_filter->setSourceModel(m_model);
    m_view->setModel(m_filter);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(BoostListModel::IdColumn, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->setTextElideMode(Qt::ElideRight);
    QHeaderView *h = m_view->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setStretchLastSection(true);

    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();
}

void BoostsPage::layOutPage() {
    auto *top = new QHBoxLayout;
    top->addWidget(m_grant);
    top->addWidget(m_revoke);
    top->addWidget(m_extend);
    top->addStretch(1);
    top->addWidget(new QLabel(tr("Show:"), this));
    top->addWidget(m_states);
    top->addWidget(m_allNamespaces);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_requests);
    layout->addLayout(top);
    layout->addWidget(m_error);
    layout->addWidget(m_empty);
    layout->addWidget(m_view, 1);
}

void BoostsPage::connectControls() {
    m_requests->setActorSource([this] { return actor(); });
    m_requests->setClientSource([this] { return m_session ? m_session->client() : nullptr; });
    connect(m_requests, &BoostRequestsPanel::statusMessage, this, &BoostsPage::statusMessage);
    connect(m_service, &BoostService::requestDecided, this, &BoostsPage::boostsChanged);
    connect(m_grant, &QPushButton::clicked, this, [this] { openGrantDialog(m_ns); });
    connect(m_revoke, &QPushButton::clicked, this, &BoostsPage::revokeSelected);
    connect(m_extend, &QPushButton::clicked, this, &BoostsPage::extendSelected);
    connect(m_states, &QComboBox::currentIndexChanged, this, &BoostsPage::applyFilter);
    connect(m_allNamespaces, &QCheckBox::toggled, this, &BoostsPage::applyFilter);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &BoostsPage::updateButtons);
}

// The service's answers: the list, errors, and a status line for each change.
void BoostsPage::connectService() {
    connect(m_service, &BoostService::opened, this, &BoostsPage::updateEmpty);
    connect(m_service, &BoostService::listed, this, [this](const QList<Boost> &boosts) {
        const Boost *sel = selected();
        const qint64 keep = sel ? sel->id : 0;
        m_model->setBoosts(boosts);
        m_loaded = true;
        if (keep)
            selectBoost(keep);
        updateEmpty();
        fitColumns();
    });
    connect(m_service, &BoostService::failed, this, [this](const Error &e) {
        m_error->setText(
            tr("Boosts: %1").arg(e.field.isEmpty() ? e.message : e.field + QStringLiteral(": ") + e.message));
        m_error->show();
    });
    connect(m_service, &BoostService::changed, this, [this](const Boost &b, const QString &action) {
        m_error->hide();
        if (action == QLatin1String("grant"))
            emit statusMessage(b.state == Boost::State::Scheduled && b.start > m_service->clock().nowSecs()
                                   ? tr("Boost %1 recorded; it starts at its scheduled time.").arg(b.id)
                                   : tr("Boost %1 recorded; applying it to the cluster…").arg(b.id));
        else if (action == QLatin1String("revoke"))
            emit statusMessage(tr("Boost %1 revoked.").arg(b.id));
        else
            emit statusMessage(tr("Boost %1 now ends %2.")
                                   .arg(b.id)
                                   .arg(QDateTime::fromSecsSinceEpoch(b.expiry).toString(
                                       QStringLiteral("yyyy-MM-dd HH:mm"))));
        emit boostsChanged();
    });
    connect(m_service, &BoostService::reconciled, this, [this](const ReconcileReport &r) {
        if (r.failed > 0)
            emit statusMessage(tr("The cluster step failed; it is retried (see the Failure column)."));
        else if (!r.transitions.isEmpty())
            emit statusMessage(tr("Boost %1 is now %2.")
                                   .arg(r.transitions.last().boostId)
                                   .arg(BoostListModel::stateText(r.transitions.last().to)));
        emit boostsChanged();
    });
}

void BoostsPage::setUpRefreshTimer() {
    m_refresh->setInterval(30000);
    // While shown, the console also does what `gpuquota reconcile` would: a boost whose
    // start, end or retry time has come is applied or taken back (claims in the database
    // keep this exactly once with a controller or CronJob running too). Budget boosts
    // need no cluster; quota boosts wait for a connection.
    connect(m_refresh, &QTimer::timeout, this, [this] {
        if (!m_service->isOpen())
            return;
        const qint64 now = m_service->clock().nowSecs();
        const std::shared_ptr<KubeClient> client = m_session ? m_session->client() : nullptr;
        bool due = false;
        for (int r = 0; r < m_model->rowCount(); ++r) {
            const Boost &b = m_model->at(r);
            if (b.target.onCluster() && !client)
                continue;
            due |= (b.state == Boost::State::Scheduled && b.start <= now) ||
                   (b.state == Boost::State::Active && b.expiry <= now) ||
                   (b.state == Boost::State::Failed && b.nextRetry <= now);
        }
        if (due)
            m_service->reconcile(actor(), client);
        else
            m_service->load();
    });
}

void BoostsPage::setRefreshInterval(int ms) {
    m_refresh->setInterval(ms);
}

void BoostsPage::setNamespace(const QString &ns) {
    m_ns = ns;
    applyFilter();
}

void BoostsPage::applyFilter() {
    m_filter->setStates(BoostFilterModel::States(m_states->currentData().toInt()));
    m_filter->setNamespace(m_allNamespaces->isChecked() ? QString() : m_ns);
    updateEmpty();
    fitColumns();
}

// Sized to the rows shown, after each load and filter change (the table may have been
// hidden while empty); a long note is read in its tooltip.
void BoostsPage::fitColumns() {
    if (m_filter->rowCount() == 0)
        return;
    m_view->resizeColumnsToContents();
    const int ch = m_view->fontMetrics().averageCharWidth();
    for (auto [column, chars] : {std::pair{BoostListModel::TargetColumn, 34},
                                 {BoostListModel::DeltaColumn, 22},
                                 {BoostListModel::NoteColumn, 30}})
        m_view->setColumnWidth(column, std::min(m_view->columnWidth(column), chars * ch));
}

void BoostsPage::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (m_service->isOpen())
        m_service->load();
    m_refresh->start();
}

void BoostsPage::hideEvent(QHideEvent *event) {
    QWidget::hideEvent(event);
    m_refresh->stop();
}

const Boost *BoostsPage::selected() const {
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return nullptr;
    const int r = m_filter->mapToSource(rows.first()).row();
    return r >= 0 && r < m_model->rowCount() ? &m_model->at(r) : nullptr;
}

void BoostsPage::selectBoost(qint64 id) {
    const int r = m_model->rowOf(id);
    if (r < 0)
        return;
    const QModelIndex i = m_filter->mapFromSource(m_model->index(r, 0));
    if (i.isValid())
        m_view->selectRow(i.row());
}

QString BoostsPage::actor() const {
    const QString who = m_actor ? m_actor() : QString();
    return who.isEmpty() ? qEnvironmentVariable("USER", tr("unknown")) : who;
}

void BoostsPage::updateButtons() {
    const bool open = m_service->isOpen();
    const Boost *b = selected();
    m_grant->setEnabled(open);
    m_revoke->setEnabled(open && b && !b->isFinal());
    m_extend->setEnabled(open && b && !b->isFinal() && !b->recurrence.recurs());
}

void BoostsPage::updateEmpty() {
    const bool none = m_filter->rowCount() == 0;
    m_empty->setVisible(none);
    m_view->setVisible(!none);
    if (!m_service->isOpen())
        m_empty->setText(tr("No usage database is open. Boosts are recorded there before they touch the "
                            "cluster; start the console with --usage-db URL or set one in Connections."));
    else if (!m_loaded)
        m_empty->setText(tr("Reading boosts…"));
    else if (m_model->rowCount() > 0)
        m_empty->setText(tr("No boost matches this filter. Tick \"All namespaces\" or show every state."));
    else
        m_empty->setText(tr("No boosts yet. \"Grant boost…\" raises a quota or budget for a while, with a "
                            "note saying why, and takes it back on time."));
    updateButtons();
}

BoostGrantDialog *BoostsPage::openGrantDialog(const QString &ns, const QString &quota,
                                              const QString &resource) {
    auto *dialog = new BoostGrantDialog(m_session, m_service->clock(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setActor(actor());
    if (!ns.isEmpty())
        dialog->setQuotaTarget(ns, quota, resource);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (const auto &b = dialog->plannedBoost())
            m_service->grant(*b, m_session ? m_session->client() : nullptr);
    });
    dialog->open();
    return dialog;
}

BoostChangeDialog *BoostsPage::revokeSelected() {
    return openChange(true);
}

BoostChangeDialog *BoostsPage::extendSelected() {
    return openChange(false);
}

BoostChangeDialog *BoostsPage::openChange(bool revoke) {
    const Boost *b = selected();
    if (!b)
        return nullptr;
    auto *dialog =
        new BoostChangeDialog(revoke ? BoostChangeDialog::Mode::Revoke : BoostChangeDialog::Mode::Extend, *b,
                              m_service->clock().nowSecs(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        auto client = m_session ? m_session->client() : nullptr;
        if (dialog->mode() == BoostChangeDialog::Mode::Revoke)
            m_service->revoke(dialog->boost().id, dialog->note(), actor(), client);
        else
            m_service->extend(dialog->boost().id, dialog->newExpiry(), dialog->note(), actor(), client);
    });
    dialog->open();
    return dialog;
}

} // namespace gq
