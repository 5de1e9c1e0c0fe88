#pragma once

#include "core/kueue/kueueoverview.h"

#include <QStandardItemModel>

namespace gq {

// The Queues page's tree: cohorts (hierarchical where Kueue has Cohort objects) holding
// their child cohorts and ClusterQueues; under each ClusterQueue its GPU flavors with
// nominal quota, borrowing and lending limits, reserved, borrowed and lent, and the
// LocalQueues that point at it with their namespaces. ClusterQueues without a cohort
// are top-level rows.
class QueueTreeModel final : public QStandardItemModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        NominalColumn,
        BorrowingLimitColumn,
        LendingLimitColumn,
        ReservedColumn,
        BorrowedColumn,
        LentColumn,
        PendingColumn,
        ColumnCount
    };
    enum Role {
        KindRole = Qt::UserRole + 1, // QString: "cohort", "clusterqueue", "flavor", "localqueue"
        ObjectNameRole,              // QString: the cohort / ClusterQueue / flavor / "ns/name"
        ResourceRole,                // QString: a flavor row's GPU resource ("nvidia.com/gpu")
    };

    explicit QueueTreeModel(QObject *parent = nullptr);
    void setSnapshot(const kueue::Snapshot &snapshot);
    void retranslate();

private:
    QList<QStandardItem *> clusterQueueRow(const kueue::ClusterQueue &cq, const kueue::Snapshot &s,
                                           const std::vector<kueue::GpuRow> &rows);
    kueue::Snapshot m_snapshot;
};

// The Workloads under the tree: pending ones first in the order Kueue tries them within
// their ClusterQueue, with its reason; then the ones holding quota with GPUs, flavor and
// age (against `nowMs`).
class WorkloadListModel final : public QStandardItemModel {
    Q_OBJECT
public:
    enum Column {
        NamespaceColumn,
        NameColumn,
        ClusterQueueColumn,
        StateColumn,
        PositionColumn,
        GpusColumn,
        FlavorColumn,
        AgeColumn,
        ReasonColumn,
        ColumnCount
    };
    explicit WorkloadListModel(QObject *parent = nullptr);
    void setSnapshot(const kueue::Snapshot &snapshot, const QString &ns, qint64 nowMs);
    void retranslate();
    // "3h", "2d": how long ago `ms` was, at `nowMs`.
    static QString ageText(qint64 ms, qint64 nowMs);
};

} // namespace gq
