#pragma once

#include "widgets/common/page.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace gq {

class UsageChartModel;
class UsageChartPanel;
class UsageChartService;
class UsageRangeBar;

// One namespace's GPU-hours stacked by user, with the cumulative line against the
// namespace's budget for its current period, and every user's GPU-hours, share and
// own budget state beside it. Follows the namespace selected on the left.
class NamespaceUsagePage final : public QWidget, public Page {
    Q_OBJECT
public:
    explicit NamespaceUsagePage(UsageChartService *service, QWidget *parent = nullptr);
    void setConnection(ClusterConnection *connection) override { Q_UNUSED(connection) }
    void setNamespace(const QString &ns) override;
    // The preferred zone for the buckets.
    void setPreferences(const PagePreferences &preferences) override;
    void reload();
    [[nodiscard]] UsageRangeBar *rangeBar() const { return m_range; }
    [[nodiscard]] UsageChartPanel *panel() const { return m_panel; }
    [[nodiscard]] UsageChartModel *model() const { return m_model; }
    // Sets the range to the namespace budget's current period (what the button does).
    void showBudgetPeriod();

signals:
    void userActivated(const QString &user);
    void statusMessage(const QString &message);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void onLoaded();

    UsageChartModel *m_model;
    UsageRangeBar *m_range;
    UsageChartPanel *m_panel;
    QLabel *m_budget;
    QPushButton *m_budgetPeriod;
    QTableView *m_users;
    QString m_ns;
    bool m_stale = false; // the namespace changed while hidden
};

} // namespace gq
