#pragma once

#include "core/kueue/queueattribution.h"
#include "widgets/common/page.h"

#include <QUrl>
#include <QWidget>

#include <functional>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QTimer;

namespace gq {

class BudgetDialog;
class BudgetListModel;
class BudgetSortProxy;
class BudgetService;
class CanRunPanel;
struct BudgetOverview;
struct BudgetRow;

// The Budgets tab: every user and namespace GPU-hour budget with a battery of what is
// left, the forecast at the current rate, create/edit/delete (each with a note that
// goes into the audit log) and the "Can this run?" panel. Reads and writes through a
// BudgetService (its own database thread); refreshes while shown.
class BudgetsPage final : public QWidget, public Page {
    Q_OBJECT
public:
    BudgetsPage(BudgetService *service, QWidget *parent = nullptr);
    void setConnection(ClusterConnection *connection) override { Q_UNUSED(connection) }
    void setNamespace(const QString &ns) override;
    // New budgets start in the preferred zone.
    void setPreferences(const PagePreferences &preferences) override { m_zone = preferences.zone(); }
    // Who the audit log names for a change made here.
    void setActorSource(std::function<QString()> actor) { m_actor = std::move(actor); }
    // A link to the controller's self-service page for `user` (<controllerUrl>/quota?user=U),
    // opened in the browser; hidden without a controller URL or a user.
    void setSelfService(const QString &controllerUrl, const QString &user);
    // The link shown (empty: none).
    [[nodiscard]] QUrl selfServiceUrl() const { return m_selfService; }

    // The cluster's LocalQueues, for "Group by" ClusterQueue / LocalQueue.
    void setQueues(const kueue::QueueAttribution &queues);
    [[nodiscard]] QComboBox *groupBy() const { return m_groupBy; }

    [[nodiscard]] QTableView *view() const { return m_view; }
    [[nodiscard]] BudgetListModel *model() const { return m_model; }
    // Opens the dialog for a new budget, or for the selected one (edit, delete).
    void createBudget();
    void editSelected();
    void deleteSelected();

signals:
    void statusMessage(const QString &message);
    // "Plan a fine-tune…" from the "Can this run?" panel.
    void planRequested(const QString &user, const QString &ns);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    [[nodiscard]] const BudgetRow *selected() const;
    void openDialog(BudgetDialog *dialog);
    void setUpTable();
    QLabel *setUpGroupBy();
    void layOutPage(QLabel *groupLabel);
    void connectActions();
    void showOverview(const BudgetOverview &o);
    void updateButtons();
    void updateEmpty();
    void fitSubjectColumn();
    // What "Group by" says, and grouping the rows so (they must carry their namespaces).
    [[nodiscard]] std::optional<kueue::QueueLevel> chosenGrouping() const;
    void applyGrouping();

    BudgetService *m_service;
    BudgetListModel *m_model;
    BudgetSortProxy *m_proxy;
    QComboBox *m_groupBy;
    QTableView *m_view;
    QLabel *m_empty;
    QLabel *m_error;
    QLabel *m_selfServiceLink;
    QUrl m_selfService;
    QPushButton *m_new;
    QPushButton *m_edit;
    QPushButton *m_delete;
    CanRunPanel *m_canRun;
    QTimer *m_refresh;
    std::function<QString()> m_actor;
    bool m_loaded = false;
    QString m_zone = QStringLiteral("UTC");
};

} // namespace gq
