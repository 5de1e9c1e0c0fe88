#pragma once

#include "core/kueue/queueattribution.h"
#include "core/quotas/namespacesummary.h"
#include "widgets/common/page.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QTableView;

namespace gq {

class UsageChartModel;
struct StackedChart;
class UsageChartPanel;
class UsageChartService;
class UsageRangeBar;

// The cluster dashboard: GPU-hours per bucket stacked by namespace, or by Kueue
// ClusterQueue / LocalQueue (each namespace's hours to its queue), top 10 and others, GPUs allocated per
// bucket against the cluster's GPU quota, the top users, every namespace's total, and the range's totals. The
// first page after connecting.
class ClusterUsagePage final : public QWidget, public Page {
    Q_OBJECT
public:
    explicit ClusterUsagePage(UsageChartService *service, QWidget *parent = nullptr);
    void setConnection(ClusterConnection *connection) override;
    void setNamespace(const QString &ns) override { Q_UNUSED(ns) }
    // The preferred zone for the buckets.
    void setPreferences(const PagePreferences &preferences) override;
    // Reads again with the bar's range at the current time.
    void reload();
    // The cluster's LocalQueues, for the "Group by" ClusterQueue / LocalQueue choices.
    void setQueues(const kueue::QueueAttribution &queues);
    [[nodiscard]] QComboBox *groupBy() const { return m_groupBy; }
    [[nodiscard]] UsageRangeBar *rangeBar() const { return m_range; }
    [[nodiscard]] UsageChartPanel *usagePanel() const { return m_usage; }
    [[nodiscard]] UsageChartPanel *allocationPanel() const { return m_allocation; }
    [[nodiscard]] UsageChartModel *model() const { return m_model; }
    // The sum of the GPU quotas the cluster reports (hard), and of what they count as used.
    [[nodiscard]] double quotaGpus() const;

signals:
    // A user picked in the top list: the window opens their view.
    void userActivated(const QString &user);
    // A namespace picked in the totals: the window shows its usage tab.
    void namespaceActivated(const QString &ns);
    void statusMessage(const QString &message);

private:
    void onLoaded();
    void applyGrouping();
    void decorateAllocation(StackedChart &chart) const;

    UsageChartService *m_service;
    UsageChartModel *m_model;
    UsageRangeBar *m_range;
    QComboBox *m_groupBy;
    kueue::QueueAttribution m_queues;
    UsageChartPanel *m_usage;
    UsageChartPanel *m_allocation;
    QLabel *m_totals;
    QLabel *m_subjectsHeading; // "Namespaces", or the queues they are grouped into
    QTableView *m_users;
    QTableView *m_namespaces;
    QPointer<ClusterConnection> m_connection;
    QHash<QString, UsageBar> m_gpuQuota; // namespace -> GPU used/hard from the cluster
};

} // namespace gq
