#pragma once

#include "core/error.h"
#include "core/informer.h"
#include "core/kubeclient.h"

#include <QByteArray>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <memory>

class QFileSystemWatcher;
class QTimer;

namespace gq {

class NamespaceListModel;
struct QuotaUsage;

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
// per-namespace edit permissions (SelfSubjectAccessReview). It keeps the namespace
// list model current. All results return to the GUI thread by queued calls tied to
// this object; a context switch bumps a generation so late answers are dropped.
//
// It watches the kubeconfig file(s) it loaded, and the CA / client certificate files
// they name: when one changes (an edit, or an editor replacing the file), the
// kubeconfig is read again off the GUI thread; new contexts are announced, and if the
// current context's server, CA or credentials changed, the session reconnects with
// them, keeping the namespace list until the new list replaces it.
class ClusterSession final : public QObject {
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Syncing, Live, Reconnecting, Failed };
    Q_ENUM(State)

    explicit ClusterSession(NamespaceListModel *model, QObject *parent = nullptr);
    ~ClusterSession() override;

    // Loads the kubeconfig off the GUI thread, then lists and watches.
    void connectTo(const QString &kubeconfigPath, const QString &context);
    // Without connecting: watches the kubeconfig that could not be read (missing, or
    // broken) and connects once a change makes it usable.
    void watchKubeconfig(const QString &kubeconfigPath, const QString &context);
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
    // The kubeconfig files and the CA/certificate files being watched (absolute paths).
    [[nodiscard]] QStringList watchedFiles() const { return m_watchedFiles; }

    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] std::shared_ptr<KubeClient> client() const { return m_client; }
    [[nodiscard]] QString contextName() const { return m_context; }
    [[nodiscard]] QString server() const;
    [[nodiscard]] QString identity() const { return m_identity; }
    [[nodiscard]] QDateTime lastUpdate() const { return m_lastUpdate; }
    [[nodiscard]] bool insecure() const;

    [[nodiscard]] QList<StoredObject> quotasIn(const QString &ns) const;
    [[nodiscard]] QList<StoredObject> limitRangesIn(const QString &ns) const;
    [[nodiscard]] std::optional<StoredObject> quota(const QString &ns, const QString &name) const;
    [[nodiscard]] std::optional<StoredObject> limitRange(const QString &ns, const QString &name) const;
    [[nodiscard]] QStringList namespaceNames() const;

    // Cached answer, and a request for a fresh one (permissionsChanged follows).
    [[nodiscard]] EditPermissions permissions(const QString &ns) const { return m_permissions.value(ns); }
    void checkPermissions(const QString &ns);

    // Pure: reduce a ResourceQuota JSON object to hard/used maps; bad quantities are skipped.
    static QuotaUsage quotaUsageFromJson(const QJsonObject &object);

signals:
    void stateChanged(gq::ClusterSession::State state);
    void identityChanged(const QString &identity);
    void errorOccurred(const gq::Error &error);
    // First full list of this context is in the model.
    void synced();
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
    // The kubeconfig changed and reading it failed, or it no longer has the current
    // context: the session keeps the connection it has. Cleared by kubeconfigOk().
    void kubeconfigProblem(const gq::Error &error);
    void kubeconfigOk();

private:
    static constexpr int kRebuildThreshold = 2000;
    struct Loaded;
    static Loaded loadKubeconfig(const QString &path, const QString &context);
    void adopt(Loaded loaded, quint64 loadGen);
    void reconnectWith(std::shared_ptr<KubeClient> client);
    void askIdentity();
    void watchFiles(const QStringList &files);
    void onWatchedPathChanged(const QString &path);
    void reloadKubeconfig();
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

    NamespaceListModel *m_model;
    std::shared_ptr<KubeClient> m_client;
    QPointer<NamespaceInformer> m_namespaces;
    QPointer<ObjectInformer> m_quotas;
    QPointer<ObjectInformer> m_limitRanges;
    QHash<QString, EditPermissions> m_permissions;
    QString m_context;
    QString m_kubeconfigPath;
    KubeClientOptions m_clientOptions;
    QByteArray m_fingerprint; // hash of the current connection's settings and secrets
    quint64 m_loadGeneration = 0;
    QFileSystemWatcher *m_watcher;
    QTimer *m_reloadTimer;
    QStringList m_watchedFiles;
    QHash<QString, QString> m_fileStamps; // path -> size/mtime seen, to ignore unrelated dir changes
    QString m_identity;
    QDateTime m_lastUpdate;
    State m_state = State::Disconnected;
    quint64 m_generation = 0;
    bool m_rebuilding = false;
    QSet<QString> m_pendingNamespaces;
    bool m_syncedOnce = false;
};

} // namespace gq
