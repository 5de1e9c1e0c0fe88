#pragma once

#include "core/domain/error.h"
#include "core/domain/quantity.h"
#include "core/domain/result.h"
#include "core/kube/kuberequest.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace gq {

class KubeClient;
struct WatchHandlers;

// Compact cached views: only the fields the console uses, so memory grows with what we
// keep, not with the raw JSON. Strings repeated across objects (namespace, node,
// user, resource names) are shared, not copied.

struct NamespaceInfo {
    enum class Phase : quint8 { Active, Terminating, Unknown };
    QString name;
    QString uid;
    QList<QPair<QString, QString>> labels; // sorted by key
    Phase phase = Phase::Unknown;
    QString resourceVersion;
    QDateTime creationTime;
    // The annotation gpuquota.io/alert-recipients (who hears the namespace's alerts), "" when absent.
    QString alertRecipients;

    [[nodiscard]] QString label(const QString &key) const;
};

struct GpuRequest {
    QString resource; // "nvidia.com/gpu", "nvidia.com/mig-1g.10gb"
    Quantity amount;  // the pod's effective request (max(sum of containers, largest init))
    friend bool operator==(const GpuRequest &, const GpuRequest &) = default;
};

// One entry of a pod's spec.resourceClaims (DRA), with the ResourceClaim it names: its own
// resourceClaimName, or for a claim made from a ResourceClaimTemplate the name
// status.resourceClaimStatuses gives once the claim exists (empty until then).
struct PodClaim {
    QString name;         // the entry's name in the pod
    QString claimName;    // the ResourceClaim in the pod's namespace; "" while not created
    QString templateName; // resourceClaimTemplateName, "" for a claim named directly
    friend bool operator==(const PodClaim &, const PodClaim &) = default;
};

struct PodInfo {
    enum class Phase : quint8 { Pending, Running, Succeeded, Failed, Unknown };
    QString namespaceName;
    QString name;
    QString uid;
    Phase phase = Phase::Unknown;
    QString nodeName;
    QString user;           // value of the user label; empty when the pod has none
    QString userEmail;      // the user's email when the informer reads one (see PodInformer)
    QList<GpuRequest> gpus; // only extended resources we count as GPUs; empty for CPU pods
    QList<PodClaim> claims; // spec.resourceClaims (DRA); empty for most pods
    QDateTime startTime;    // status.startTime, invalid until scheduled and started
    // When the containers ran: the earliest container startedAt (running or
    // terminated, and the run before a restart, lastState.terminated), and once every
    // container has terminated the latest finishedAt. Invalid when unknown. The usage
    // recorder counts GPU time from these.
    QDateTime containersStarted;
    QDateTime containersFinished;
    QDateTime deletionTime; // metadata.deletionTimestamp (terminating)
    QDateTime creationTime; // metadata.creationTimestamp (the API server's clock)
    // metadata.deletionGracePeriodSeconds; -1 when not terminating. A pod stuck in
    // Terminating (its node lost) stops counting in quota after deletionTime + this.
    qint64 deletionGraceSeconds = -1;
    QString resourceVersion;

    [[nodiscard]] QString key() const { return namespaceName + QLatin1Char('/') + name; }
};

// Quotas and limit ranges are few per namespace: kept whole (typed views come from
// QuotaSpec / LimitRangeSpec ::fromJson).
struct StoredObject {
    QString namespaceName;
    QString name;
    QString resourceVersion;
    QJsonObject object;

    [[nodiscard]] QString key() const { return namespaceName + QLatin1Char('/') + name; }
};

[[nodiscard]] QString podPhaseName(PodInfo::Phase phase);

// True for extended resources we count as GPUs: nvidia.com/gpu, nvidia.com/mig-*,
// nvidia.com/gpu.shared (time-slicing with renamed resources), amd.com/gpu, gpu.intel.com/*.
[[nodiscard]] bool isGpuResourceName(const QString &resource);

// Pure conversions (exposed for tests and for code that already holds the JSON).
[[nodiscard]] NamespaceInfo namespaceInfoFromJson(const QJsonObject &object);
[[nodiscard]] PodInfo podInfoFromJson(const QJsonObject &object,
                                      const QString &userLabel = QStringLiteral("gpuquota.io/user"));

// An informer: lists a resource in pages, then watches from the list's
// resourceVersion; re-watches after the stream ends, relists on 410 Gone, and
// reconnects with backoff after errors. Keeps a compact cache and reports changes
// by signals on the thread it lives on, batched (batchIntervalMs) so a GUI is not
// flooded. Decoding JSON into the compact form happens on worker threads, and so does
// turning a full list into a cache: this object's thread only merges watch batches
// and swaps a finished list in, so a list of 20,000 objects never stalls it.
//
// Keys are "namespace/name" (cluster-scoped kinds: "name").
class Informer : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Listing, Watching, Backoff, Stopped };
    Q_ENUM(State)

    ~Informer() override;

    void start();
    void stop();

    [[nodiscard]] State state() const;
    [[nodiscard]] bool hasSynced() const;          // the first full list is in the cache
    [[nodiscard]] QString resourceVersion() const; // last seen
    [[nodiscard]] qsizetype size() const;
    [[nodiscard]] QStringList keys() const;
    [[nodiscard]] int relists() const; // lists done after the first (410, errors)
    [[nodiscard]] std::optional<Error> lastError() const;
    [[nodiscard]] const KubeResource &resource() const;

    // While state() is Backoff: when the next reconnect attempt starts (a relist after a
    // failed list, or the watch re-opening after its stream failed). Forever when no
    // attempt is waiting: connected, or an attempt is under way right now.
    [[nodiscard]] QDeadlineTimer nextAttempt() const;
    // Starts the waiting reconnect attempt now. The failure count is kept, so if this
    // attempt fails too the next wait is longer. Nothing happens when nothing waits.
    void retryNow();

    void setBatchInterval(int ms); // default 50; 0: emit after every batch from the server
    void setPageSize(int limit);   // default 500
    // Server-side lifetime of each watch stream (default 300 s); a stream silent
    // longer than this plus the client's watchGraceMs is treated as stalled.
    void setWatchTimeout(int seconds);
    // Waits between relists after failures: the first in [base/2, base], doubling up to
    // max (default 200 ms, 30 s). A watch that re-opens by itself uses the client's backoff.
    void setBackoff(int baseMs, int maxMs);

Q_SIGNALS:
    // Changes since the last emission, by key. A key is in at most one list.
    void changed(const QStringList &added, const QStringList &updated, const QStringList &deleted);
    // A full list has been merged (first sync and each relist); hasSynced() is true.
    void synced();
    void stateChanged(gq::Informer::State state);
    // A transient failure; the informer keeps retrying with backoff (state() is
    // Backoff until the server answers again, then Watching).
    void errorOccurred(const gq::Error &error);
    // nextAttempt() changed: a wait for a reconnect attempt began, or the attempt started.
    void nextAttemptChanged();

public:
    class Store;        // typed cache behind each kind (opaque)
    struct ListChanges; // what a full list changed (opaque)
    struct ListBuilt;   // a finished list (opaque)
    struct ListJob;     // a list in progress (opaque)
    struct WatchBatch;  // a decoded chunk of the watch (opaque)

protected:
    Informer(std::shared_ptr<KubeClient> client, const KubeResource &resource, const QString &ns,
             std::unique_ptr<Store> store, QObject *parent);
    [[nodiscard]] const Store &store() const;

private:
    void setState(State s);
    void setNextAttempt(QDeadlineTimer when);
    void relist();
    void onListBuilt(const ListBuilt &list);
    void startWatch();
    [[nodiscard]] WatchHandlers watchHandlers();
    void onWatchBatch(const WatchBatch &batch);
    void onWatchRetrying(const Error &error);
    void probe();
    void fail(const Error &error);
    void flush();
    void scheduleFlush();

    class Private;
    std::unique_ptr<Private> d;
};

class NamespaceInformer final : public Informer {
    Q_OBJECT
public:
    explicit NamespaceInformer(std::shared_ptr<KubeClient> client, QObject *parent = nullptr);
    [[nodiscard]] std::optional<NamespaceInfo> namespaceInfo(const QString &name) const;
    [[nodiscard]] QList<NamespaceInfo> namespaces() const; // sorted by name
    // The cache by name: an implicitly shared copy, O(1) to take, safe to hand to a
    // worker thread (it detaches only if this informer changes while it is read).
    [[nodiscard]] QHash<QString, NamespaceInfo> namespaceMap() const;
};

class PodInformer final : public Informer {
    Q_OBJECT
public:
    // ns empty: all namespaces. userLabel: the pod label naming its user.
    explicit PodInformer(std::shared_ptr<KubeClient> client, const QString &ns = {},
                         const QString &userLabel = QStringLiteral("gpuquota.io/user"),
                         QObject *parent = nullptr);
    // userEmailKey: the pod label, else annotation, whose value becomes PodInfo::userEmail.
    PodInformer(std::shared_ptr<KubeClient> client, const QString &ns, const QString &userLabel,
                const QString &userEmailKey, QObject *parent = nullptr);
    [[nodiscard]] std::optional<PodInfo> pod(const QString &ns, const QString &name) const;
    [[nodiscard]] QList<PodInfo> pods() const;
    [[nodiscard]] QList<PodInfo> podsInNamespace(const QString &ns) const;
    [[nodiscard]] qsizetype memoryEstimate() const; // bytes held by the cache, roughly
};

// ResourceQuotas or LimitRanges (or any namespaced kind kept whole).
class ObjectInformer final : public Informer {
    Q_OBJECT
public:
    ObjectInformer(std::shared_ptr<KubeClient> client, const KubeResource &resource, const QString &ns = {},
                   QObject *parent = nullptr);
    [[nodiscard]] std::optional<StoredObject> object(const QString &ns, const QString &name) const;
    [[nodiscard]] QList<StoredObject> objects() const;
    [[nodiscard]] QList<StoredObject> objectsInNamespace(const QString &ns) const;
    // The cache by key ("namespace/name"): an implicitly shared copy, O(1) to take,
    // safe to hand to a worker thread.
    [[nodiscard]] QHash<QString, StoredObject> objectMap() const;
};

} // namespace gq
