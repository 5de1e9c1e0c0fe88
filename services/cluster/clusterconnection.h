#pragma once

#include "core/domain/error.h"
#include "core/kube/informer.h"
#include "core/jobs/jobtracker.h"
#include "core/kube/kubeclient.h"
#include "services/cluster/kubeconfigwatcher.h"
#include "core/quotas/namespacesummary.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <memory>

namespace gq {

// What SelfSubjectAccessReview said about editing quotas and limit ranges in one
// namespace. `known` stays false until the answers arrive; the UI keeps edit
// controls disabled until then.
struct EditPermissions {
    bool known = false;
    bool updateQuota = false;
    bool createQuota = false;
    bool updateLimitRange = false;
    bool createLimitRange = false;
    QString reason; // the server's reason for a denial, when it gave one
};

// One connection to one kubeconfig context: the client, the informers for
// namespaces, ResourceQuotas and LimitRanges, the identity (SelfSubjectReview) and
// per-namespace edit permissions (SelfSubjectAccessReview). It summarises every
// namespace's quotas and emits the list as typed changes (namespacesReset,
// namespaceUpdated, namespaceRemoved) for whatever shows it. All results return to
// this object's thread through one JobTracker; a context switch cancels its jobs.
//
// Its KubeconfigWatcher reads the kubeconfig off the GUI thread and again whenever
// it (or a CA / certificate file it names) changes: new contexts are announced, and
// if the current context's server, CA or credentials changed, the connection is
// remade with them, keeping the namespace list until the new list replaces it.
class ClusterConnection final : public QObject {
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Syncing, Live, Reconnecting, Failed };
    Q_ENUM(State)

    explicit ClusterConnection(QObject *parent = nullptr);
    ~ClusterConnection() override;

    // Loads the kubeconfig off the GUI thread, then lists and watches `context`
    // (empty: current-context).
    void connectTo(const QString &kubeconfigPath, const QString &context);
    // The same, for a first start: `preferred` if the kubeconfig has it, else its
    // current-context (contextResolved says which). A kubeconfig that cannot be read
    // leaves it Disconnected with kubeconfigUnreadable(); it connects by itself once
    // a change makes the file usable.
    void open(const QString &kubeconfigPath, const QString &preferred);
    void disconnectFromCluster();
    // Lists again from scratch (F5): the informers restart.
    void refresh();
    // While reconnecting: start every waiting reconnect attempt now (their backoff
    // keeps growing if they fail again).
    void retryNow();
    // While reconnecting: the soonest moment an informer tries again. Forever when no
    // attempt waits (connected, or an attempt is under way); expired when one is due.
    [[nodiscard]] QDeadlineTimer nextAttempt() const;
    // For the next connection (connectTo or a kubeconfig change). Tests use long backoffs.
    void setClientOptions(const KubeClientOptions &options) { m_clientOptions = options; }
    [[nodiscard]] const KubeconfigWatcher *kubeconfig() const { return m_kubeconfig; }
    // The kubeconfig files and the CA/certificate files being watched (absolute paths).
    [[nodiscard]] QStringList watchedFiles() const { return m_kubeconfig->watchedFiles(); }

    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] std::shared_ptr<KubeClient> client() const { return m_client; }
    [[nodiscard]] QString contextName() const { return m_kubeconfig->context(); }
    [[nodiscard]] QString server() const;
    [[nodiscard]] QString identity() const { return m_identity; }
    [[nodiscard]] QDateTime lastUpdate() const { return m_lastUpdate; }
    [[nodiscard]] bool insecure() const;

    [[nodiscard]] QList<StoredObject> quotasIn(const QString &ns) const;
    [[nodiscard]] QList<StoredObject> limitRangesIn(const QString &ns) const;
    [[nodiscard]] std::optional<StoredObject> quota(const QString &ns, const QString &name) const;
    [[nodiscard]] std::optional<StoredObject> limitRange(const QString &ns, const QString &name) const;
    [[nodiscard]] QStringList namespaceNames() const;
    // Non-empty when the user may not list namespaces cluster-wide (RBAC answered 403):
    // the namespaces shown instead (the kubeconfig context's namespace).
    [[nodiscard]] QStringList narrowedTo() const { return m_scope; }

    // Cached answer, and a request for a fresh one (permissionsChanged follows).
    [[nodiscard]] EditPermissions permissions(const QString &ns) const { return m_permissions.value(ns); }
    // Being deleted (status.phase Terminating): the API server refuses new objects there.
    [[nodiscard]] bool isTerminating(const QString &ns) const;
    void checkPermissions(const QString &ns);

    // Pure: reduce a ResourceQuota JSON object to hard/used maps; bad quantities are skipped.
    static QuotaUsage quotaUsageFromJson(const QJsonObject &object);

signals:
    void stateChanged(gq::ClusterConnection::State state);
    void identityChanged(const QString &identity);
    void errorOccurred(const gq::Error &error);
    // First full list of this context was delivered (namespacesReset came first).
    void synced();
    // The namespace list, as typed changes: a whole list (a sync, a relist; empty on
    // disconnect), one namespace's new summary, a namespace gone.
    void namespacesReset(const gq::NamespaceRows &rows);
    void namespaceUpdated(const gq::NamespaceSummary &row);
    void namespaceRemoved(const QString &name);
    // ResourceQuotas / LimitRanges of a namespace changed (watch); an empty ns
    // means any namespace may have changed (a full list or relist).
    void quotasChanged(const QString &ns);
    void limitRangesChanged(const QString &ns);
    void permissionsChanged(const QString &ns);
    void lastUpdateChanged(const QDateTime &when);
    // nextAttempt() may have changed (a wait began, or an attempt started).
    void nextAttemptChanged();
    // The kubeconfig was (re)loaded: its contexts, in file order.
    void contextsChanged(const QStringList &contexts);
    // The context connected to, once the kubeconfig was read (after open(): the
    // preferred one or current-context).
    void contextResolved(const QString &context);
    // After open(): the kubeconfig could not be read; nothing is connected.
    void kubeconfigUnreadable(const gq::Error &error);
    // The kubeconfig changed and reading it failed, or it no longer has the current
    // context: the connection is kept. Cleared by kubeconfigOk().
    void kubeconfigProblem(const gq::Error &error);
    void kubeconfigOk();
    // RBAC refused the cluster-wide namespace list: only `namespaces` (the context's)
    // are watched from now on; `reason` is the server's refusal.
    void scopeNarrowed(const QStringList &namespaces, const QString &reason);

private:
    static constexpr int kRebuildThreshold = 2000;
    void start(const QString &kubeconfigPath, const QString &context, KubeconfigWatcher::Choice choice);
    void onConnectionChanged(const KubeConnection &connection);
    void onUnusable(const Error &error, bool configRead);
    void askIdentity();
    // The namespace, quota and limit-range informers that exist now.
    [[nodiscard]] QList<Informer *> informers() const;
    void startInformers();
    void stopInformers();
    void setState(State s);
    void updateState();
    void touch();
    void rebuildAll();
    void updateNamespaces(const QStringList &names);
    void onQuotaChanged(const QStringList &added, const QStringList &updated, const QStringList &deleted);
    void onLimitRangeChanged(const QStringList &added, const QStringList &updated,
                             const QStringList &deleted);
    void onNamespaceChanged(const QStringList &added, const QStringList &updated, const QStringList &deleted);
    void onInformerSynced();
    void onInformerError(Informer *informer, const Error &error);
    [[nodiscard]] QHash<QString, NamespaceInfo> namespaceMap() const;
    [[nodiscard]] std::optional<NamespaceInfo> namespaceInfo(const QString &ns) const;
    // The namespace source (the list, or the narrowed scope), quotas and limit ranges exist.
    [[nodiscard]] bool informersRunning() const;

    KubeconfigWatcher *m_kubeconfig;
    std::shared_ptr<KubeClient> m_client;
    QPointer<NamespaceInformer> m_namespaces;
    QPointer<ObjectInformer> m_quotas;
    QPointer<ObjectInformer> m_limitRanges;
    QHash<QString, EditPermissions> m_permissions;
    KubeClientOptions m_clientOptions;
    QString m_identity;
    QString m_contextNamespace; // the kubeconfig context's namespace
    QStringList m_scope;        // empty: cluster-wide; else the only namespaces watched
    QDateTime m_lastUpdate;
    State m_state = State::Disconnected;
    bool m_rebuilding = false;
    QSet<QString> m_pendingNamespaces;
    bool m_syncedOnce = false;
    bool m_resolvePending = false;  // contextResolved() not yet said for this connectTo/open
    bool m_unreadableQuiet = false; // open(): an unreadable first read is not a failure
    JobTracker m_jobs{this};        // identity, permissions, list rebuilds; cancel() on a switch
};

} // namespace gq
