#pragma once

#include "core/domain/quantity.h"
#include "testcluster/quotascopes.h"
#include "core/domain/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace gq::tc {

// ConfigMap and Service: what a controller advertises its settings and endpoints with
// (the console's connection discovery reads them). Nodes carry the GPU capacity the
// scheduler places pods by. ValidatingWebhookConfigurations are called on admission
// (webhooks.cpp). The kinds after them are what the controller's manifests deploy
// (packaging/kubernetes/): stored, listed and dry-run, with no controller behind them.
enum class Resource {
    Namespace,
    ResourceQuota,
    LimitRange,
    Pod,
    Event,
    ConfigMap,
    Service,
    Node,
    ValidatingWebhookConfiguration,
    ServiceAccount,
    Secret,
    Deployment,
    CronJob,
    ClusterRole,
    ClusterRoleBinding,
    Lease, // coordination.k8s.io: the controller's leader election (leases.cpp)
    Role,
    RoleBinding,
    // Kueue's custom resources (kueue.x-k8s.io/v1beta2): stored and watched like the
    // built-in kinds, with no Kueue behind them; the demo scenario seeds them.
    ResourceFlavor,
    ClusterQueue,
    LocalQueue,
    Cohort,
    Workload,
    // resource.k8s.io/v1 (DRA): stored and watched, no allocator (the demo and tests
    // write status.allocation themselves).
    ResourceClaim,
    ResourceClaimTemplate,
    ResourceSlice,
    DeviceClass,
};
inline constexpr int kResourceCount = 27;

struct ResourceInfo {
    Resource resource;
    QString plural;
    QString singular;
    QString kind;
    QStringList shortNames;
    bool namespaced;
    bool hasStatus;
    QString group = QString();              // "" for the core group
    QString version = QStringLiteral("v1"); // every built-in kind served here is at v1

    // "v1" for the core group, else "group/version".
    [[nodiscard]] QString apiVersion() const {
        return group.isEmpty() ? version : group + QLatin1Char('/') + version;
    }
    // "deployments.apps" / "Deployment.apps": how the API server names the resource in messages.
    [[nodiscard]] QString qualifiedPlural() const {
        return group.isEmpty() ? plural : plural + QLatin1Char('.') + group;
    }
    [[nodiscard]] QString qualifiedKind() const {
        return group.isEmpty() ? kind : kind + QLatin1Char('.') + group;
    }
};

const ResourceInfo &resourceInfo(Resource r);
// Core-group resources only (the /api/v1 paths).
std::optional<Resource> resourceFromPlural(QStringView plural);
// Any group: "" for the core group.
std::optional<Resource> resourceFromPlural(QStringView group, QStringView version, QStringView plural);

using Labels = std::vector<std::pair<QString, QString>>;
// A pod's charge against quota, keyed like ResourceQuota spec.hard ("requests.cpu", "pods", ...).
using Usage = std::vector<std::pair<QString, Quantity>>;

// The value under `key` in a Labels or Usage list, or nullptr.
template <typename V> const V *valueOf(const std::vector<std::pair<QString, V>> &pairs, const QString &key) {
    for (const auto &[k, v] : pairs) {
        if (k == key)
            return &v;
    }
    return nullptr;
}

// One stored object. The JSON is kept pre-serialized (compact, without kind and
// apiVersion, exactly as list items are sent) so a list of 20,000 items is a
// concatenation; the few fields lists filter on are kept beside it.
struct Entry {
    QByteArray json;
    quint64 rv = 0;
    QString ns;
    QString name;
    Labels labels;
    QString phase;            // pods: status.phase; namespaces: status.phase
    QString nodeName;         // pods
    Usage usage;              // pods: what the pod charges to quota while not finished
    PodScopeFacts scopeFacts; // pods: which quota scopes the pod falls under
};

struct WatchEvent {
    quint64 rv = 0;
    Resource resource = Resource::Namespace;
    QByteArray type; // ADDED, MODIFIED, DELETED
    Entry entry;     // state after the change (last state for DELETED)
};

QString storeKey(const QString &ns, const QString &name);

// The object store, one resourceVersion counter across all kinds, and the watch
// event log. One mutex guards everything: requests are short and the store is
// in memory, so finer locking would buy nothing measurable here.
class Store {
public:
    using Map = std::map<QString, Entry>;

    std::mutex mutex;
    std::condition_variable changed; // notified after every commit, and on shutdown

    // --- everything below requires `mutex` held ---
    const Entry *find(Resource r, const QString &ns, const QString &name) const;
    const Map &map(Resource r) const { return m_maps[static_cast<int>(r)]; }
    // [first, last) of the objects in one namespace (or all, when ns is empty).
    std::pair<Map::const_iterator, Map::const_iterator> range(Resource r, const QString &ns) const;

    // Stores `object` with a fresh resourceVersion and records the watch event.
    // With `recordEvent` false nothing is logged for watchers (bulk seeding).
    const Entry &commit(Resource r, QJsonObject object, const QByteArray &eventType, bool recordEvent = true);
    // Removes the object; the DELETED event carries `lastState` with a fresh resourceVersion.
    QJsonObject remove(Resource r, const QString &ns, const QString &name);
    // Inserts without an event or new resourceVersion (scenario and state loading).
    void load(Resource r, const QJsonObject &object);

    quint64 currentRv() const { return m_rv; }
    quint64 peekNextRv() const { return m_rv + 1; }
    quint64 compactedRv() const { return m_compactedRv; }
    // Forget the event log: watches from any earlier resourceVersion get 410 Gone.
    void compact();
    void setRv(quint64 rv) {
        m_rv = rv;
        m_compactedRv = rv;
    }
    void setLogLimit(std::size_t limit) { m_logLimit = limit; }

    // Events with rv > after, in order.
    std::deque<WatchEvent>::const_iterator eventsAfter(quint64 after) const;
    std::deque<WatchEvent>::const_iterator eventsEnd() const { return m_log.cend(); }

    std::size_t objectCount() const;
    QJsonObject saveState() const;
    Result<void> loadState(const QJsonObject &state);

private:
    Entry makeEntry(Resource r, const QJsonObject &object) const;
    void record(Resource r, const QByteArray &type, const Entry &entry);

    Map m_maps[kResourceCount];
    std::deque<WatchEvent> m_log;
    std::size_t m_logLimit = 20000;
    quint64 m_rv = 1;
    quint64 m_compactedRv = 1;
};

// `{"apiVersion":..,"kind":..,` + the stored JSON: the single-object form.
QByteArray withKind(Resource r, const QByteArray &json);
QByteArray toCompactJson(const QJsonObject &object);

// Sets `key` only when the value is not empty, as Go's `omitempty` leaves it out.
template <typename T> void insertNonEmpty(QJsonObject &object, QLatin1String key, const T &value) {
    if (!value.isEmpty())
        object.insert(key, value);
}

} // namespace gq::tc
