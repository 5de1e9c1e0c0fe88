#include "widgets/boosts/boostrequestspanel.h"

#include "widgets/boosts/boostdecisiondialog.h"
#include "models/boosts/boostrequestmodel.h"
#include "services/boosts/boostservice.h"
#include "core/domain/clock.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace gq {

BoostRequestsPanel::BoostRequestsPanel(BoostService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_model(new BoostRequestModel(this))
    , m_view(new QTableView(this))
    , m_title(new QLabel(this))
    , m_error(new QLabel(this))
    , m_approve(new QPushButton(tr("Approve…"), this))
    , m_deny(new QPushButton(tr("Deny…"), this)) {
    setObjectName(QStringLiteral("boostRequestsPanel"));
    m_view->setObjectName(QStringLiteral("boostRequestsTable"));
    m_approve->setObjectName(QStringLiteral("approveRequestButton"));
    m_deny->setObjectName(QStringLiteral("denyRequestButton"));
    m_error->setObjectName(QStringLiteral("boostRequestsErrorLabel"));
    m_title->setObjectName(QStringLiteral("boostRequestsTitle"));

    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setMaximumHeight(m_view->fontMetrics().lineSpacing() * 9);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_approve);
    top->addWidget(m_deny);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_error);
    layout->addWidget(m_view);

    connect(m_approve, &QPushButton::clicked, this, &BoostRequestsPanel::approveSelected);
    connect(m_deny, &QPushButton::clicked, this, &BoostRequestsPanel::denySelected);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &BoostRequestsPanel::updateButtons);
    connect(m_service, &BoostService::requestsListed, this, [this](const QList<BoostRequestRow> &rows) {
        const BoostRequest *sel = selected();
        const qint64 keep = sel ? sel->id : 0;
        m_model->setRequests(rows);
        if (keep)
            selectRequest(keep);
        else if (m_model->pendingCount() > 0)
            m_view->selectRow(0);
        m_title->setText(tr("Boost requests: %1 pending").arg(m_model->pendingCount()));
        m_view->resizeColumnsToContents();
        const int ch = m_view->fontMetrics().averageCharWidth();
        for (auto column : {BoostRequestModel::NoteColumn, BoostRequestModel::UsageColumn})
            m_view->setColumnWidth(column, std::min(m_view->columnWidth(column), 36 * ch));
        setVisible(m_model->rowCount() > 0);
        updateButtons();
    });
    connect(m_service, &BoostService::requestDecided, this, [this](const BoostRequest &r) {
        m_error->hide();
        emit statusMessage(r.state == BoostRequest::State::Approved
                               ? tr("Request %1 approved: boost %2 granted to %3.")
                                     .arg(r.id)
                                     .arg(r.boostId)
                                     .arg(BoostRequestModel::budgetText(r))
                               : tr("Request %1 denied.").arg(r.id));
    });
    hide(); // until there is a request
    updateButtons();
}

void BoostRequestsPanel::selectRequest(qint64 id) {
    const int r = m_model->rowOf(id);
    if (r >= 0)
        m_view->selectRow(r);
}

const BoostRequest *BoostRequestsPanel::selected() const {
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.isEmpty() || rows.first().row() >= m_model->rowCount())
        return nullptr;
    return &m_model->at(rows.first().row()).request;
}

QString BoostRequestsPanel::actor() const {
    const QString who = m_actor ? m_actor() : QString();
    return who.isEmpty() ? qEnvironmentVariable("USER", tr("unknown")) : who;
}

void BoostRequestsPanel::showError(const QString &message) {
    m_error->setText(message);
    m_error->show();
}

void BoostRequestsPanel::updateButtons() {
    const BoostRequest *r = selected();
    const bool pending = m_service->isOpen() && r && r->state == BoostRequest::State::Pending;
    m_approve->setEnabled(pending);
    m_deny->setEnabled(pending);
}

BoostDecisionDialog *BoostRequestsPanel::approveSelected() {
    return open(true);
}

BoostDecisionDialog *BoostRequestsPanel::denySelected() {
    return open(false);
}

BoostDecisionDialog *BoostRequestsPanel::open(bool approve) {
    const BoostRequest *r = selected();
    if (!r || r->state != BoostRequest::State::Pending) {
        showError(tr("Select a pending request first."));
        return nullptr;
    }
    // The ledger refuses it too (Forbidden); said here before any dialog.
    const QString who = actor();
    if (who == r->requester || (r->scope == BudgetScope::User && who == r->subject)) {
        showError(
            tr("Request %1 is your own (%2): another admin must approve or deny it.").arg(r->id).arg(who));
        return nullptr;
    }
    m_error->hide();
    auto *dialog = new BoostDecisionDialog(approve ? BoostDecisionDialog::Mode::Approve
                                                   : BoostDecisionDialog::Mode::Deny,
                                           *r, m_service->clock().nowSecs(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (dialog->mode() == BoostDecisionDialog::Mode::Approve)
            m_service->approveRequest(dialog->request().id, dialog->decision(actor()),
                                      m_client ? m_client() : nullptr);
        else
            m_service->denyRequest(dialog->request().id, dialog->note(), actor());
    });
    dialog->open();
    return dialog;
}

} // namespace gq
