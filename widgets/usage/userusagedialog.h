#pragma once

#include <QDialog>

class QLabel;
class QTableView;

namespace gq {

class UsageChartModel;
class UsageChartPanel;
class UsageChartService;
class UsageRangeBar;

// One user's GPU-hours across namespaces, stacked by namespace, with the cumulative
// line against their budget for its current period, and each namespace's share.
class UserUsageDialog final : public QDialog {
    Q_OBJECT
public:
    UserUsageDialog(UsageChartService *service, const QString &user, QWidget *parent = nullptr);
    [[nodiscard]] UsageChartPanel *panel() const { return m_panel; }
    [[nodiscard]] UsageChartModel *model() const { return m_model; }
    [[nodiscard]] UsageRangeBar *rangeBar() const { return m_range; }
    void reload();

private:
    UsageChartModel *m_model;
    UsageRangeBar *m_range;
    UsageChartPanel *m_panel;
    QLabel *m_budget;
    QTableView *m_table;
    QString m_user;
};

} // namespace gq
