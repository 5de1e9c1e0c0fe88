#pragma once

#include "jobtracker.h"
#include "kueueoverview.h"
#include "page.h"
#include "result.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;
class QTimer;
class QTreeView;

namespace gq {

class QueueTreeModel;
class WorkloadListModel;

// The Queues page: Kueue as the cluster runs it. Above, the cohort tree with its
// ClusterQueues and, per flavor, the GPU nominal quota, borrowing and lending limits,
// reserved, borrowed and lent GPUs and the pending count, with the LocalQueues (and their
// namespaces) that point at each queue; below, the Workloads: pending ones in the order
// Kueue tries them with the reason it gives, then the admitted ones with their GPUs and
// age. The kueue.x-k8s.io version in use is found from discovery and said in the status
// line, as is a cluster without Kueue. Read-only: nothing here changes the cluster.
// Reads run on the thread pool; the page refreshes while shown.
class QueuesPage final : public QWidget, public Page {
    Q_OBJECT
public:
    explicit QueuesPage(QWidget *parent = nullptr);
    ~QueuesPage() override;

    void setConnection(ClusterConnection *connection) override;
    void setNamespace(const QString &ns) override;
    // Reads Kueue's objects now (done() follows).
    void refresh();

    [[nodiscard]] QueueTreeModel *treeModel() const { return m_tree; }
    [[nodiscard]] WorkloadListModel *workloadModel() const { return m_workloads; }
    [[nodiscard]] QString statusText() const;

signals:
    // A read finished (shown, or its error is).
    void done();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void showResult(const Result<kueue::Snapshot> &result);
    void retranslate();

    QPointer<ClusterConnection> m_connection;
    QueueTreeModel *m_tree;
    WorkloadListModel *m_workloads;
    QTreeView *m_treeView;
    QTableView *m_workloadView;
    QLabel *m_status;
    QLabel *m_workloadsTitle;
    QPushButton *m_refreshButton;
    QTimer *m_timer;
    JobTracker m_jobs{this};
    std::optional<kueue::Snapshot> m_snapshot;
    std::optional<Error> m_error;
    bool m_loading = false;
};

} // namespace gq
