#pragma once

#include "core/usage/boosts.h"
#include "core/usage/budget.h"
#include "widgets/common/page.h"

#include <QPointer>
#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QTimer;

namespace gq {

class BoostChangeDialog;
class BoostFilterModel;
class BoostGrantDialog;
class BoostListModel;
class BoostRequestsPanel;
class BoostService;
class ClusterConnection;

// The Boosts tab: every boost (active, scheduled, ended, failed) with who granted it,
// why, from and until, filtered by state and by the selected namespace (or all), and
// the grant, revoke and extend actions, each with its mandatory note. Reads and writes
// through a BoostService (its own database thread); the cluster follows through the
// same reconciler the CLI runs. Refreshes while shown.
class BoostsPage final : public QWidget, public Page {
    Q_OBJECT
public:
    explicit BoostsPage(BoostService *service, QWidget *parent = nullptr);
    void setConnection(ClusterConnection *connection) override { m_session = connection; }
    void setNamespace(const QString &ns) override;
    // Who the audit log names for a change made here.
    void setActorSource(std::function<QString()> actor) { m_actor = std::move(actor); }
    // How often, while shown, the list is reloaded and due boosts reconciled (30 s).
    void setRefreshInterval(int ms);

    [[nodiscard]] QTableView *view() const { return m_view; }
    [[nodiscard]] BoostListModel *model() const { return m_model; }
    [[nodiscard]] BoostFilterModel *filter() const { return m_filter; }
    // The users' requests, pending first, above the boosts (hidden while there are none).
    [[nodiscard]] BoostRequestsPanel *requests() const { return m_requests; }
    // The grant dialog, on a quota entry (the quota table's and the namespace list's
    // "Boost…") or empty. Returns it (opened, deleted on close) for tests.
    BoostGrantDialog *openGrantDialog(const QString &ns = {}, const QString &quota = {},
                                      const QString &resource = {});
    BoostChangeDialog *revokeSelected();
    BoostChangeDialog *extendSelected();
    void selectBoost(qint64 id);

signals:
    void statusMessage(const QString &message);
    // A boost was granted, revoked or extended (its audit entries are written).
    void boostsChanged();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    // The constructor's parts, in the order it runs them.
    void setUpControls();
    void layOutPage();
    void connectControls();
    void connectService();
    void setUpRefreshTimer();
    [[nodiscard]] const Boost *selected() const;
    [[nodiscard]] QString actor() const;
    BoostChangeDialog *openChange(bool revoke);
    void applyFilter();
    void fitColumns();
    void updateButtons();
    void updateEmpty();

    BoostService *m_service;
    QPointer<ClusterConnection> m_session;
    BoostListModel *m_model;
    BoostFilterModel *m_filter;
    QTableView *m_view;
    QLabel *m_empty;
    QLabel *m_error;
    QPushButton *m_grant;
    QPushButton *m_revoke;
    QPushButton *m_extend;
    QComboBox *m_states;
    QCheckBox *m_allNamespaces;
    QTimer *m_refresh;
    BoostRequestsPanel *m_requests;
    std::function<QString()> m_actor;
    QString m_ns;
    bool m_loaded = false;
};

} // namespace gq
