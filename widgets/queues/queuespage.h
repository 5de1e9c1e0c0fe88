#pragma once

#include "core/usage/auditanchor.h"
#include "core/jobs/jobtracker.h"
#include "core/kueue/kueueoverview.h"
#include "widgets/common/page.h"
#include "core/domain/result.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

#include <functional>
#include <memory>

class QDialog;
class QLabel;
class QModelIndex;
class QPushButton;
class QTableView;
class QTimer;
class QTreeView;

namespace gq {

class ChangeAuditSink;

class KubeClient;
class QueueTreeModel;
class WorkloadListModel;

// The Queues page: Kueue as the cluster runs it. Above, the cohort tree with its
// ClusterQueues and, per flavor, the GPU nominal quota, borrowing and lending limits,
// reserved, borrowed and lent GPUs and the pending count, with the LocalQueues (and their
// namespaces) that point at each queue; below, the Workloads: pending ones in the order
// Kueue tries them with the reason it gives, then the admitted ones with their GPUs and
// age. The kueue.x-k8s.io version in use is found from discovery and said in the status
// line, as is a cluster without Kueue. Edits: a flavor's GPU numbers in one click
// (QueueQuotaDialog; double-click a number, or "Edit GPU quota…") and the YAML of the
// selected Cohort, ClusterQueue, ResourceFlavor or LocalQueue (QueueYamlDialog), both with
// the quotas' write protocol. Whether they are offered is SelfSubjectAccessReview's
// `update clusterqueues.kueue.x-k8s.io`, and for a LocalQueue `update localqueues` in its
// namespace (a team may edit its own LocalQueue only): users who may not get them disabled
// with the reason.
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
    void setAuditHeadSource(std::function<AuditHead()> source) { m_auditHead = std::move(source); }
    // Where applied changes' audit entries go (changeaudit.h); none: no entry.
    void setAuditSink(std::shared_ptr<ChangeAuditSink> sink) { m_auditSink = std::move(sink); }
    // Whether the access review allowed editing (nullopt until it answered).
    [[nodiscard]] std::optional<bool> canEdit() const { return m_canEdit; }
    // Whether you may update the LocalQueues of `ns`: a SelfSubjectAccessReview in that
    // namespace, asked when one of its LocalQueues is selected (nullopt until it answered).
    [[nodiscard]] std::optional<bool> canEditLocalQueues(const QString &ns) const;
    [[nodiscard]] QTreeView *treeView() const { return m_treeView; }
    // The editors for the selected row; the dialog is returned open (nullptr when the
    // row has nothing to edit or editing is not allowed).
    QDialog *editQuota(const QModelIndex &index);
    QDialog *editYaml(const QModelIndex &index);

signals:
    // A read finished (shown, or its error is).
    void done();
    // The access review answered (canEdit() says what).
    void permissionsKnown();
    // As ObjectPage::applied.
    void applied(const QString &ns, const QString &object);
    void statusMessage(const QString &message);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void showResult(const Result<kueue::Snapshot> &result);
    void retranslate();
    void checkPermissions(const std::shared_ptr<KubeClient> &client);
    void checkLocalQueueAccess(const QString &ns);
    void updateActions();
    [[nodiscard]] QString readOnlyReason() const;
    [[nodiscard]] QString localQueueReason(const QString &ns) const;
    // Whether the row may be edited as YAML: a LocalQueue by its namespace's review, the
    // other kinds by the cluster-wide one.
    [[nodiscard]] bool mayEditYaml(const QModelIndex &nameIndex) const;

    QPointer<ClusterConnection> m_connection;
    QueueTreeModel *m_tree;
    WorkloadListModel *m_workloads;
    QTreeView *m_treeView;
    QTableView *m_workloadView;
    QLabel *m_status;
    QLabel *m_workloadsTitle;
    QPushButton *m_refreshButton;
    QPushButton *m_editQuotaButton;
    QPushButton *m_editYamlButton;
    QTimer *m_timer;
    JobTracker m_jobs{this};
    std::optional<kueue::Snapshot> m_snapshot;
    std::optional<Error> m_error;
    bool m_loading = false;
    std::optional<bool> m_canEdit;
    QString m_denyReason;
    struct LocalQueueAccess {
        std::optional<bool> allowed;
        QString reason;
    };
    QHash<QString, LocalQueueAccess> m_localQueueAccess; // namespace -> its review's answer
    std::function<AuditHead()> m_auditHead;
    std::shared_ptr<ChangeAuditSink> m_auditSink;
    JobTracker m_reviewJobs{this};
};

} // namespace gq
