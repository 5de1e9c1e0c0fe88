#pragma once

#include "core/usage/boostrequests.h"

#include <QWidget>

#include <functional>
#include <memory>

class QLabel;
class QPushButton;
class QTableView;

namespace gq {

class BoostDecisionDialog;
class BoostRequestModel;
class BoostService;
class KubeClient;

// The Boosts tab's requests: what users asked for (the self-service page, the Jupyter
// panel, `gpuquota boost request`), pending first, with the requester's usage and
// budget now, and Approve… / Deny… (each with the admin's own note). An approval
// grants the boost through BoostService (BoostRequestLedger::approve, the path of a
// grant); nobody decides their own request: the panel says so before any dialog.
class BoostRequestsPanel final : public QWidget {
    Q_OBJECT
public:
    explicit BoostRequestsPanel(BoostService *service, QWidget *parent = nullptr);
    void setActorSource(std::function<QString()> actor) { m_actor = std::move(actor); }
    void setClientSource(std::function<std::shared_ptr<KubeClient>()> client) {
        m_client = std::move(client);
    }

    [[nodiscard]] QTableView *view() const { return m_view; }
    [[nodiscard]] BoostRequestModel *model() const { return m_model; }
    [[nodiscard]] QLabel *errorLabel() const { return m_error; }
    void selectRequest(qint64 id);
    // The dialogs for the selected request (deleted on close); nullptr and the reason
    // in errorLabel() when there is none or it is the actor's own.
    BoostDecisionDialog *approveSelected();
    BoostDecisionDialog *denySelected();

signals:
    void statusMessage(const QString &message);

private:
    [[nodiscard]] const BoostRequest *selected() const;
    [[nodiscard]] QString actor() const;
    BoostDecisionDialog *open(bool approve);
    void showError(const QString &message);
    void updateButtons();

    BoostService *m_service;
    BoostRequestModel *m_model;
    QTableView *m_view;
    QLabel *m_title;
    QLabel *m_error;
    QPushButton *m_approve;
    QPushButton *m_deny;
    std::function<QString()> m_actor;
    std::function<std::shared_ptr<KubeClient>()> m_client;
};

} // namespace gq
