#include "core/informer.h"

#include "core/kubeclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QRandomGenerator>
#include <QSet>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <map>
#include <mutex>

namespace gq {

namespace {

QString metaString(const QJsonObject &meta, const char *key) {
    return meta.value(QLatin1String(key)).toString();
}

QDateTime parseTime(const QJsonValue &v) {
    const QString s = v.toString();
    if (s.isEmpty())
        return {};
    return QDateTime::fromString(s, Qt::ISODate);
}

// Shares one copy of strings that repeat across objects (namespaces, nodes, users,
// resource names). Used by one store's decoder; guarded because decoding runs on
// the client's worker thread while the pure *FromJson functions may run anywhere.
class StringPool {
public:
    QString intern(const QString &s) {
        if (s.isEmpty())
            return {};
        std::lock_guard lock(m_mutex);
        auto it = m_strings.constFind(s);
        if (it != m_strings.constEnd())
            return *it;
        m_strings.insert(s);
        return s;
    }

private:
    std::mutex m_mutex;
    QSet<QString> m_strings;
};

QString internOr(StringPool *pool, const QString &s) {
    return pool ? pool->intern(s) : s;
}

NamespaceInfo decodeNamespace(const QJsonObject &object, StringPool *pool) {
    NamespaceInfo ns;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    ns.name = internOr(pool, metaString(meta, "name"));
    ns.uid = metaString(meta, "uid");
    ns.resourceVersion = metaString(meta, "resourceVersion");
    ns.creationTime = parseTime(meta.value(QLatin1String("creationTimestamp")));
    const QJsonObject labels = meta.value(QLatin1String("labels")).toObject();
    ns.labels.reserve(labels.size());
    for (auto it = labels.constBegin(); it != labels.constEnd(); ++it) // QJsonObject iterates sorted
        ns.labels.append({internOr(pool, it.key()), internOr(pool, it.value().toString())});
    const QString phase =
        object.value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString();
    ns.phase = phase == QLatin1String("Active")        ? NamespaceInfo::Phase::Active
               : phase == QLatin1String("Terminating") ? NamespaceInfo::Phase::Terminating
                                                       : NamespaceInfo::Phase::Unknown;
    return ns;
}

void addRequests(const QJsonObject &container, QHash<QString, Quantity> &into, bool sum) {
    const QJsonObject resources = container.value(QLatin1String("resources")).toObject();
    QJsonObject requests = resources.value(QLatin1String("requests")).toObject();
    const QJsonObject limits = resources.value(QLatin1String("limits")).toObject();
    // Extended resources may be given as limits only; the request then equals the limit.
    for (auto it = limits.constBegin(); it != limits.constEnd(); ++it) {
        if (!requests.contains(it.key()))
            requests.insert(it.key(), it.value());
    }
    for (auto it = requests.constBegin(); it != requests.constEnd(); ++it) {
        if (!isGpuResourceName(it.key()))
            continue;
        auto q = Quantity::parse(it.value().toString());
        if (!q)
            continue; // the API server validated it; a value we cannot read counts as none
        Quantity &slot = into[it.key()];
        if (sum) {
            if (auto total = slot.plus(*q))
                slot = *total;
        } else if (*q > slot) {
            slot = *q;
        }
    }
}

PodInfo decodePod(const QJsonObject &object, const QString &userLabel, StringPool *pool) {
    PodInfo pod;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    pod.namespaceName = internOr(pool, metaString(meta, "namespace"));
    pod.name = metaString(meta, "name");
    pod.uid = metaString(meta, "uid");
    pod.resourceVersion = metaString(meta, "resourceVersion");
    pod.deletionTime = parseTime(meta.value(QLatin1String("deletionTimestamp")));
    pod.user = internOr(pool, meta.value(QLatin1String("labels")).toObject().value(userLabel).toString());
    const QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    pod.nodeName = internOr(pool, spec.value(QLatin1String("nodeName")).toString());
    const QJsonObject status = object.value(QLatin1String("status")).toObject();
    const QString phase = status.value(QLatin1String("phase")).toString();
    using P = PodInfo::Phase;
    pod.phase = phase == QLatin1String("Pending")     ? P::Pending
                : phase == QLatin1String("Running")   ? P::Running
                : phase == QLatin1String("Succeeded") ? P::Succeeded
                : phase == QLatin1String("Failed")    ? P::Failed
                                                      : P::Unknown;
    pod.startTime = parseTime(status.value(QLatin1String("startTime")));

    // Effective request: max(sum of app containers + sidecars, largest plain init container).
    QHash<QString, Quantity> sum;
    QHash<QString, Quantity> initMax;
    for (const QJsonValue &c : spec.value(QLatin1String("containers")).toArray())
        addRequests(c.toObject(), sum, true);
    for (const QJsonValue &c : spec.value(QLatin1String("initContainers")).toArray()) {
        const QJsonObject ic = c.toObject();
        const bool sidecar = ic.value(QLatin1String("restartPolicy")).toString() == QLatin1String("Always");
        addRequests(ic, sidecar ? sum : initMax, sidecar);
    }
    for (auto it = initMax.constBegin(); it != initMax.constEnd(); ++it) {
        if (it.value() > sum.value(it.key()))
            sum.insert(it.key(), it.value());
    }
    QStringList names = sum.keys();
    names.sort();
    for (const QString &n : names) {
        if (!sum.value(n).isZero())
            pod.gpus.append({internOr(pool, n), sum.value(n)});
    }
    return pod;
}

} // namespace

QString NamespaceInfo::label(const QString &key) const {
    for (const auto &kv : labels) {
        if (kv.first == key)
            return kv.second;
    }
    return {};
}

QString podPhaseName(PodInfo::Phase phase) {
    switch (phase) {
    case PodInfo::Phase::Pending: return QStringLiteral("Pending");
    case PodInfo::Phase::Running: return QStringLiteral("Running");
    case PodInfo::Phase::Succeeded: return QStringLiteral("Succeeded");
    case PodInfo::Phase::Failed: return QStringLiteral("Failed");
    case PodInfo::Phase::Unknown: break;
    }
    return QStringLiteral("Unknown");
}

bool isGpuResourceName(const QString &resource) {
    return resource == QLatin1String("nvidia.com/gpu") ||
           resource.startsWith(QLatin1String("nvidia.com/mig-")) ||
           resource == QLatin1String("amd.com/gpu") || resource.startsWith(QLatin1String("gpu.intel.com/"));
}

NamespaceInfo namespaceInfoFromJson(const QJsonObject &object) {
    return decodeNamespace(object, nullptr);
}

PodInfo podInfoFromJson(const QJsonObject &object, const QString &userLabel) {
    return decodePod(object, userLabel, nullptr);
}

// ---------------------------------------------------------------------------------
// Store: the typed cache behind an informer. decode() runs on the client's worker
// thread and produces an opaque batch; everything else runs on the informer's thread.

struct Delta {
    enum class Change : quint8 { Added, Updated, Deleted };
    QHash<QString, Change> pending;

    void added(const QString &k) {
        auto it = pending.find(k);
        if (it == pending.end())
            pending.insert(k, Change::Added);
        else if (*it == Change::Deleted)
            *it = Change::Updated;
    }
    void updated(const QString &k) {
        auto it = pending.find(k);
        if (it == pending.end())
            pending.insert(k, Change::Updated);
        else if (*it == Change::Deleted)
            *it = Change::Updated;
    }
    void deleted(const QString &k) {
        auto it = pending.find(k);
        if (it != pending.end() && *it == Change::Added)
            pending.erase(it);
        else
            pending.insert(k, Change::Deleted);
    }
};

// What a full list changed against the cache it replaces, each list sorted.
struct Informer::ListChanges {
    QStringList added, updated, deleted;
};

// One list in progress: its pages arrive decoded, in any order, on worker threads.
struct Informer::ListCollector {
    std::mutex mutex;
    std::map<int, std::shared_ptr<void>> batches; // by page index
    int lastIndex = -1;                           // the page without a continue token, once seen
    QString resourceVersion;                      // of that page
    bool finished = false;
    std::shared_ptr<void> snapshot; // the cache when the list began
};

class Informer::Store {
public:
    virtual ~Store() = default;
    // Worker thread.
    virtual std::shared_ptr<void> decode(const QList<WatchEvent> &events) = 0;
    // Informer thread: merges a (watch) batch into the cache.
    virtual void apply(const std::shared_ptr<void> &batch, Delta &delta) = 0;
    // A full list, as decoded batches in page order, becomes a complete replacement
    // cache. snapshot() is taken on the informer's thread; build() runs on a worker
    // (it reads only the snapshot, an implicitly shared copy, and the batches it owns)
    // and adopt() swaps the result in on the informer's thread in O(1). So a list of
    // 20,000 objects costs the informer's thread a pointer swap, not 20,000 inserts
    // and the rehashes between them.
    virtual std::shared_ptr<void> snapshot() const = 0;
    virtual std::shared_ptr<void> build(const std::shared_ptr<void> &snapshot,
                                        const std::vector<std::shared_ptr<void>> &batches,
                                        Informer::ListChanges *changes) const = 0;
    virtual void adopt(const std::shared_ptr<void> &built) = 0;
    virtual qsizetype size() const = 0;
    virtual QStringList keys() const = 0;
};

namespace {

template <typename T> struct Decoded {
    struct Op {
        WatchEvent::Type type;
        QString key;
        T value;
    };
    QList<Op> ops;
};

template <typename T> QString keyOf(const T &v) {
    return v.key();
}
template <> QString keyOf<NamespaceInfo>(const NamespaceInfo &v) {
    return v.name;
}
template <typename T> QString nsOf(const T &v) {
    return v.namespaceName;
}
template <> QString nsOf<NamespaceInfo>(const NamespaceInfo &) {
    return {};
}

template <typename T> class TypedStore : public Informer::Store {
public:
    using DecodeFn = std::function<T(const QJsonObject &, StringPool *)>;
    explicit TypedStore(DecodeFn fn)
        : m_decode(std::move(fn)) {}

    std::shared_ptr<void> decode(const QList<WatchEvent> &events) override {
        auto out = std::make_shared<Decoded<T>>();
        out->ops.reserve(events.size());
        for (const WatchEvent &e : events) {
            if (e.type == WatchEvent::Type::Bookmark)
                continue;
            T value = m_decode(e.object, &m_pool);
            QString key = keyOf(value);
            out->ops.append({e.type, std::move(key), std::move(value)});
        }
        return out;
    }

    void apply(const std::shared_ptr<void> &batch, Delta &delta) override {
        auto *decoded = static_cast<Decoded<T> *>(batch.get());
        for (auto &op : decoded->ops) {
            if (op.type == WatchEvent::Type::Deleted) {
                if (remove(op.key))
                    delta.deleted(op.key);
                continue;
            }
            auto it = items.find(op.key);
            if (it == items.end()) {
                byNamespace[nsOf(op.value)].insert(op.key);
                items.insert(op.key, std::move(op.value));
                delta.added(op.key);
            } else if (it->resourceVersion != op.value.resourceVersion) {
                *it = std::move(op.value);
                delta.updated(op.key);
            }
        }
    }

    struct Data {
        QHash<QString, T> items;
        QHash<QString, QSet<QString>> byNamespace;
    };

    std::shared_ptr<void> snapshot() const override {
        auto out = std::make_shared<Data>();
        out->items = items; // implicitly shared: no copy unless this side changes meanwhile
        return out;
    }

    std::shared_ptr<void> build(const std::shared_ptr<void> &snapshot,
                                const std::vector<std::shared_ptr<void>> &batches,
                                Informer::ListChanges *changes) const override {
        const QHash<QString, T> &old = static_cast<const Data *>(snapshot.get())->items;
        auto out = std::make_shared<Data>();
        qsizetype total = 0;
        for (const auto &b : batches)
            total += static_cast<const Decoded<T> *>(b.get())->ops.size();
        out->items.reserve(total);
        for (const auto &b : batches) {
            for (auto &op : static_cast<Decoded<T> *>(b.get())->ops) {
                if (op.type == WatchEvent::Type::Deleted)
                    continue;
                auto prev = old.constFind(op.key);
                auto existing = out->items.constFind(op.key);
                if (existing == out->items.constEnd()) {
                    if (prev == old.constEnd())
                        changes->added << op.key;
                    else if (prev->resourceVersion != op.value.resourceVersion)
                        changes->updated << op.key;
                    out->byNamespace[nsOf(op.value)].insert(op.key);
                }
                out->items.insert(op.key, std::move(op.value));
            }
        }
        for (auto it = old.constBegin(); it != old.constEnd(); ++it) {
            if (!out->items.contains(it.key()))
                changes->deleted << it.key();
        }
        changes->added.sort();
        changes->updated.sort();
        changes->deleted.sort();
        return out;
    }

    void adopt(const std::shared_ptr<void> &built) override {
        auto *data = static_cast<Data *>(built.get());
        auto old = std::make_shared<Data>();
        old->items.swap(items);
        old->byNamespace.swap(byNamespace);
        items.swap(data->items);
        byNamespace.swap(data->byNamespace);
        // Freeing 20,000 cached objects takes a while too: not on this thread.
        if (!old->items.isEmpty())
            QThreadPool::globalInstance()->start([old]() mutable { old.reset(); });
    }

    qsizetype size() const override { return items.size(); }
    QStringList keys() const override { return items.keys(); }

    QList<T> inNamespace(const QString &ns) const {
        QList<T> out;
        const QSet<QString> keys = byNamespace.value(ns);
        out.reserve(keys.size());
        for (const QString &k : keys)
            out.append(items.value(k));
        std::sort(out.begin(), out.end(), [](const T &a, const T &b) { return keyOf(a) < keyOf(b); });
        return out;
    }
    QList<T> all() const {
        QList<T> out = items.values();
        std::sort(out.begin(), out.end(), [](const T &a, const T &b) { return keyOf(a) < keyOf(b); });
        return out;
    }

    QHash<QString, T> items;
    QHash<QString, QSet<QString>> byNamespace;

private:
    bool remove(const QString &key) {
        auto it = items.find(key);
        if (it == items.end())
            return false;
        auto ns = byNamespace.find(nsOf(*it));
        if (ns != byNamespace.end()) {
            ns->remove(key);
            if (ns->isEmpty())
                byNamespace.erase(ns);
        }
        items.erase(it);
        return true;
    }

    DecodeFn m_decode;
    StringPool m_pool;
};

StoredObject decodeStored(const QJsonObject &object, StringPool *pool) {
    StoredObject s;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    s.namespaceName = internOr(pool, metaString(meta, "namespace"));
    s.name = metaString(meta, "name");
    s.resourceVersion = metaString(meta, "resourceVersion");
    s.object = object;
    return s;
}

} // namespace

// ---------------------------------------------------------------------------------

// Lets the client's worker thread post to an informer that may be destroyed meanwhile:
// the destructor clears q under the lock, and Qt drops events posted to a dead object.
struct InformerAnchor {
    std::recursive_mutex mutex;
    Informer *q = nullptr;
    std::atomic<quint64> generation{0}; // bumps on stop/relist so stale callbacks drop out

    template <typename Fn> static void post(const std::shared_ptr<InformerAnchor> &a, Fn &&fn) {
        std::lock_guard lock(a->mutex);
        if (!a->q)
            return;
        QMetaObject::invokeMethod(
            a->q,
            [a, fn = std::forward<Fn>(fn)]() mutable {
                if (a->q)
                    fn(a->q);
            },
            Qt::QueuedConnection);
    }
};

class Informer::Private {
public:
    std::shared_ptr<InformerAnchor> anchor = std::make_shared<InformerAnchor>();
    std::shared_ptr<KubeClient> client;
    KubeResource resource;
    QString ns;
    std::shared_ptr<Store> store; // shared with decoders still running on the thread pool
    State state = State::Idle;
    bool synced = false;
    bool listedOnce = false;
    QString rv;
    int relists = 0;
    std::optional<Error> lastError;
    int batchIntervalMs = 50;
    std::atomic<int> pageSize{500};
    int watchTimeoutSeconds = 300;
    int failures = 0;
    int backoffBaseMs = 200;
    int backoffMaxMs = 30000;
    QDeadlineTimer nextAttempt{QDeadlineTimer::Forever};
    std::shared_ptr<KubeWatch> watch;
    Delta delta;
    QTimer flushTimer;
    QTimer retryTimer;
};

Informer::Informer(std::shared_ptr<KubeClient> client, const KubeResource &resource, const QString &ns,
                   std::unique_ptr<Store> store, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>()) {
    d->client = std::move(client);
    d->resource = resource;
    d->ns = ns;
    d->store = std::move(store);
    d->anchor->q = this;
    d->flushTimer.setSingleShot(true);
    d->retryTimer.setSingleShot(true);
    connect(&d->flushTimer, &QTimer::timeout, this, [this] { flush(); });
    connect(&d->retryTimer, &QTimer::timeout, this, [this] { relist(); });
}

Informer::~Informer() {
    {
        std::lock_guard lock(d->anchor->mutex);
        d->anchor->q = nullptr;
    }
    if (d->watch)
        d->watch->stop();
}

const Informer::Store &Informer::store() const {
    return *d->store;
}

void Informer::setBatchInterval(int ms) {
    d->batchIntervalMs = std::max(0, ms);
}
void Informer::setPageSize(int limit) {
    d->pageSize = std::max(1, limit);
}
void Informer::setWatchTimeout(int seconds) {
    d->watchTimeoutSeconds = std::max(1, seconds);
}
void Informer::setBackoff(int baseMs, int maxMs) {
    d->backoffBaseMs = std::max(1, baseMs);
    d->backoffMaxMs = std::max(d->backoffBaseMs, maxMs);
}

QDeadlineTimer Informer::nextAttempt() const {
    return d->nextAttempt;
}

void Informer::setNextAttempt(QDeadlineTimer when) {
    if (when.isForever() && d->nextAttempt.isForever())
        return;
    d->nextAttempt = when;
    Q_EMIT nextAttemptChanged();
}

void Informer::retryNow() {
    if (d->retryTimer.isActive()) {
        d->retryTimer.stop();
        relist();
    } else if (d->state == State::Backoff && d->watch) {
        // The watch re-opens from its resourceVersion; the connected handler clears
        // nextAttempt once the request is under way.
        d->watch->retryNow();
    }
}

Informer::State Informer::state() const {
    return d->state;
}
bool Informer::hasSynced() const {
    return d->synced;
}
QString Informer::resourceVersion() const {
    return d->watch ? d->watch->lastResourceVersion() : d->rv;
}
qsizetype Informer::size() const {
    return d->store->size();
}
QStringList Informer::keys() const {
    return d->store->keys();
}
int Informer::relists() const {
    return d->relists;
}
std::optional<Error> Informer::lastError() const {
    return d->lastError;
}
const KubeResource &Informer::resource() const {
    return d->resource;
}

void Informer::setState(State s) {
    if (d->state == s)
        return;
    d->state = s;
    Q_EMIT stateChanged(s);
}

void Informer::start() {
    if (d->state != State::Idle && d->state != State::Stopped)
        return;
    relist();
}

void Informer::stop() {
    ++d->anchor->generation;
    d->retryTimer.stop();
    setNextAttempt(QDeadlineTimer(QDeadlineTimer::Forever));
    if (d->watch) {
        d->watch->stop();
        d->watch.reset();
    }
    flush();
    setState(State::Stopped);
}

void Informer::flush() {
    d->flushTimer.stop();
    if (d->delta.pending.isEmpty())
        return;
    QStringList added, updated, deleted;
    for (auto it = d->delta.pending.constBegin(); it != d->delta.pending.constEnd(); ++it) {
        switch (it.value()) {
        case Delta::Change::Added: added << it.key(); break;
        case Delta::Change::Updated: updated << it.key(); break;
        case Delta::Change::Deleted: deleted << it.key(); break;
        }
    }
    d->delta.pending.clear();
    added.sort();
    updated.sort();
    deleted.sort();
    Q_EMIT changed(added, updated, deleted);
}

void Informer::scheduleFlush() {
    if (d->batchIntervalMs == 0) {
        flush();
        return;
    }
    if (!d->flushTimer.isActive())
        d->flushTimer.start(d->batchIntervalMs);
}

void Informer::relist() {
    if (d->watch) {
        d->watch->stop();
        d->watch.reset();
    }
    if (d->listedOnce)
        ++d->relists;
    const quint64 gen = ++d->anchor->generation;
    setNextAttempt(QDeadlineTimer(QDeadlineTimer::Forever)); // this is the attempt
    setState(State::Listing);
    // Nothing changes the cache until the list is adopted (the watch is stopped and
    // late watch batches carry an old generation): its snapshot is what the list is
    // compared with.
    auto collector = std::make_shared<ListCollector>();
    collector->snapshot = d->store->snapshot();
    fetchPage(gen, QString(), 0, collector);
}

// The continue token of a list page, read from the metadata that precedes "items"
// (as the API server writes it) without parsing the page. False when that layout is
// not there; then the caller parses first.
static bool peekContinueToken(const QByteArray &body, QString *token) {
    const qsizetype items = body.indexOf("\"items\"");
    if (items < 0)
        return false;
    const QByteArray head = QByteArray::fromRawData(body.constData(), items);
    if (!head.contains("\"metadata\""))
        return false;
    const qsizetype key = head.indexOf("\"continue\":\"");
    if (key < 0) {
        token->clear();
        return true;
    }
    const qsizetype start = key + 12;
    const qsizetype end = head.indexOf('"', start);
    if (end < 0 || head.mid(start, end - start).contains('\\'))
        return false;
    *token = QString::fromLatin1(head.mid(start, end - start));
    return true;
}

void Informer::fetchPage(quint64 gen, const QString &continueToken, int index,
                         const std::shared_ptr<ListCollector> &collector) {
    KubeRequest req;
    req.path = d->resource.path(d->ns);
    req.query.append({QStringLiteral("limit"), QString::number(d->pageSize.load())});
    if (!continueToken.isEmpty())
        req.query.append({QStringLiteral("continue"), continueToken});
    std::shared_ptr<Store> store = d->store;
    auto anchor = d->anchor;
    // Pages are decoded on the thread pool, several at once, while the next page is
    // already requested (its token is read from the raw bytes).
    auto requestNext = [anchor, gen, index, collector](const QString &token) {
        std::lock_guard lock(anchor->mutex);
        if (anchor->q && anchor->generation == gen)
            anchor->q->fetchPage(gen, token, index + 1, collector);
    };
    d->client->send(req).then([store, anchor, gen, index, requestNext, collector](Result<KubeResponse> r) {
        if (anchor->generation != gen)
            return;
        QString next;
        const bool peeked = r && peekContinueToken(r->body, &next);
        if (peeked && !next.isEmpty())
            requestNext(next);
        auto work = [store, anchor, gen, index, requestNext, peeked, collector, r = std::move(r)]() mutable {
            if (anchor->generation != gen)
                return;
            std::shared_ptr<void> batch;
            auto parse = [&]() -> Result<ObjectList> {
                if (!r)
                    return r.error();
                QJsonParseError perr;
                const QJsonDocument doc = QJsonDocument::fromJson(r->body, &perr);
                r->body.clear();
                if (!doc.isObject())
                    return Error::make(Error::Kind::Parse,
                                       QStringLiteral("list page is not JSON: %1").arg(perr.errorString()));
                const QJsonObject obj = doc.object();
                const QJsonObject meta = obj.value(QLatin1String("metadata")).toObject();
                ObjectList list;
                list.resourceVersion = meta.value(QLatin1String("resourceVersion")).toString();
                list.continueToken = meta.value(QLatin1String("continue")).toString();
                if (!peeked && !list.continueToken.isEmpty())
                    requestNext(list.continueToken);
                const QJsonArray items = obj.value(QLatin1String("items")).toArray();
                QList<WatchEvent> events;
                events.reserve(items.size());
                for (const QJsonValue &v : items)
                    events.append({WatchEvent::Type::Added, v.toObject(), {}});
                batch = store->decode(events);
                return list;
            };
            const Result<ObjectList> page = parse();
            if (!page) {
                InformerAnchor::post(anchor, [gen, e = page.error()](Informer *q) {
                    if (gen == q->d->anchor->generation)
                        q->fail(e);
                });
                return;
            }
            // The worker that brings the last missing page builds the cache. Nothing
            // is posted to the informer's thread per page: each queued call is memory
            // that thread would free, and freeing another thread's allocations waits
            // for that thread's malloc arena (seen as GUI stalls in free()).
            std::vector<std::shared_ptr<void>> batches;
            {
                std::lock_guard lock(collector->mutex);
                collector->batches.emplace(index, std::move(batch));
                if (page->continueToken.isEmpty()) {
                    collector->lastIndex = index;
                    collector->resourceVersion = page->resourceVersion;
                }
                if (collector->finished || collector->lastIndex < 0 ||
                    qsizetype(collector->batches.size()) != collector->lastIndex + 1)
                    return;
                collector->finished = true;
                batches.reserve(collector->batches.size());
                for (auto &entry : collector->batches) // in page order
                    batches.push_back(std::move(entry.second));
                collector->batches.clear();
            }
            if (anchor->generation != gen)
                return;
            // Whatever the cache held that the list lacks was deleted meanwhile.
            auto changes = std::make_shared<Informer::ListChanges>();
            std::shared_ptr<void> built = store->build(collector->snapshot, batches, changes.get());
            batches.clear();
            collector->snapshot.reset();
            const QString rv = collector->resourceVersion;
            InformerAnchor::post(anchor, [gen, rv, built, changes](Informer *q) {
                if (gen == q->d->anchor->generation)
                    q->onListBuilt(gen, rv, built, *changes);
            });
        };
        QThreadPool::globalInstance()->start(std::move(work));
    });
}

void Informer::onListBuilt(quint64 gen, const QString &rv, const std::shared_ptr<void> &built,
                           const ListChanges &changes) {
    d->store->adopt(built);
    d->rv = rv;
    d->listedOnce = true;
    d->synced = true;
    d->failures = 0;
    flush(); // anything still pending from before the list, then the list's own changes
    if (!changes.added.isEmpty() || !changes.updated.isEmpty() || !changes.deleted.isEmpty())
        Q_EMIT changed(changes.added, changes.updated, changes.deleted);
    Q_EMIT synced();
    startWatch(gen);
}

void Informer::startWatch(quint64 gen) {
    WatchOptions wo;
    wo.resourceVersion = d->rv;
    wo.allowBookmarks = true;
    wo.timeoutSeconds = d->watchTimeoutSeconds;
    wo.resume = true;
    std::shared_ptr<Store> store = d->store;
    auto anchor = d->anchor;
    // A watch whose streams keep ending without a single event or bookmark may be
    // stalled somewhere between us and the server (a proxy, an overloaded apiserver):
    // after two such streams in a row, a fresh list brings the cache up to date.
    struct Health {
        std::atomic<int> opens{0};
        std::atomic<int> itemsSinceOpen{0};
        std::atomic<int> emptyStreams{0};
        std::atomic<bool> lastFailed{false}; // a failed stream is an error, not a stall
        std::atomic<bool> broken{false};     // a stream failed; the next open proves nothing yet
    };
    auto health = std::make_shared<Health>();
    WatchHandlers h;
    h.connected = [anchor, gen, health](const QString &) {
        // A re-open after a failure is only a request in flight; whether the server
        // answers again is what a small list request tells (a quiet watch may send
        // nothing for minutes).
        if (health->broken.exchange(false)) {
            InformerAnchor::post(anchor, [gen](Informer *q) {
                if (gen != q->d->anchor->generation)
                    return;
                q->setNextAttempt(QDeadlineTimer(QDeadlineTimer::Forever)); // the attempt is under way
                q->probe(gen);
            });
        }
        const bool failed = health->lastFailed.exchange(false);
        if (health->opens++ > 0 && !failed) {
            if (health->itemsSinceOpen.exchange(0) == 0)
                ++health->emptyStreams;
            else
                health->emptyStreams = 0;
        }
        if (health->emptyStreams >= 2) {
            health->emptyStreams = 0;
            InformerAnchor::post(anchor, [gen](Informer *q) {
                if (gen == q->d->anchor->generation)
                    q->relist();
            });
        }
    };
    // Runs on the client's worker thread: decode there, merge on the informer's thread.
    h.events = [store, anchor, gen, health](const QList<WatchEvent> &events) {
        health->itemsSinceOpen += int(events.size());
        std::shared_ptr<void> batch;
        {
            std::lock_guard lock(anchor->mutex);
            if (!anchor->q)
                return;
            batch = store->decode(events);
        }
        const QString lastRv = events.isEmpty() ? QString() : events.last().resourceVersion;
        InformerAnchor::post(anchor, [gen, batch, lastRv](Informer *q) {
            if (gen != q->d->anchor->generation)
                return;
            q->d->store->apply(batch, q->d->delta);
            if (!lastRv.isEmpty())
                q->d->rv = lastRv;
            q->d->failures = 0;
            if (q->d->state == State::Backoff) {
                q->setNextAttempt(QDeadlineTimer(QDeadlineTimer::Forever));
                q->setState(State::Watching); // the stream delivers again
            }
            q->scheduleFlush();
        });
    };
    h.failed = [anchor, gen](const Error &e) {
        InformerAnchor::post(anchor, [gen, e](Informer *q) {
            if (gen == q->d->anchor->generation)
                q->fail(e);
        });
    };
    h.retrying = [anchor, gen, health](const Error &e) {
        // A stream cut by our own stall deadline still counts as a silent stream.
        if (e.kind != Error::Kind::Timeout) {
            health->lastFailed = true;
            health->itemsSinceOpen = 0;
        }
        health->broken = true;
        InformerAnchor::post(anchor, [gen, e](Informer *q) {
            if (gen != q->d->anchor->generation)
                return;
            q->d->lastError = e;
            // The watch set its next attempt before this was posted. A re-open already
            // under way (retryNow) reports Forever: then no countdown is shown.
            if (q->d->watch)
                q->setNextAttempt(q->d->watch->nextAttempt());
            // The watch retries by itself, but the cache is no longer current: say so.
            q->setState(State::Backoff);
            Q_EMIT q->errorOccurred(e);
        });
    };
    setState(State::Watching);
    d->watch = d->client->watch(d->resource, d->ns, wo, nullptr, std::move(h));
}

void Informer::probe(quint64 gen) {
    KubeRequest req;
    req.path = d->resource.path(d->ns);
    req.query.append({QStringLiteral("limit"), QStringLiteral("1")});
    req.maxAttempts = 1;
    auto anchor = d->anchor;
    d->client->send(req).then([anchor, gen](const Result<KubeResponse> &r) {
        if (!r)
            return; // still unreachable: the watch's own retries go on
        InformerAnchor::post(anchor, [gen](Informer *q) {
            if (gen != q->d->anchor->generation || q->d->state != State::Backoff)
                return;
            q->d->failures = 0;
            q->setNextAttempt(QDeadlineTimer(QDeadlineTimer::Forever));
            q->setState(State::Watching);
        });
    });
}

void Informer::fail(const Error &e) {
    if (d->watch) {
        d->watch->stop();
        d->watch.reset();
    }
    ++d->anchor->generation;
    flush();
    if (e.kind == Error::Kind::Gone) {
        // 410: our resourceVersion is too old to resume from; a fresh list is the only way.
        relist();
        return;
    }
    d->lastError = e;
    const int cap =
        int(std::min<qint64>(d->backoffMaxMs, qint64(d->backoffBaseMs) << std::min(d->failures, 20)));
    const int delay = cap / 2 + int(QRandomGenerator::global()->bounded(cap / 2 + 1));
    ++d->failures;
    d->retryTimer.start(delay);
    // Before the state: whoever reacts to Backoff can already show when the next try is.
    setNextAttempt(QDeadlineTimer(delay));
    setState(State::Backoff);
    Q_EMIT errorOccurred(e);
}

// ---------------------------------------------------------------------------------

NamespaceInformer::NamespaceInformer(std::shared_ptr<KubeClient> client, QObject *parent)
    : Informer(std::move(client), KubeResource::namespaces(), {},
               std::make_unique<TypedStore<NamespaceInfo>>(&decodeNamespace), parent) {}

std::optional<NamespaceInfo> NamespaceInformer::namespaceInfo(const QString &name) const {
    const auto &s = static_cast<const TypedStore<NamespaceInfo> &>(store());
    auto it = s.items.constFind(name);
    if (it == s.items.constEnd())
        return std::nullopt;
    return *it;
}

QList<NamespaceInfo> NamespaceInformer::namespaces() const {
    return static_cast<const TypedStore<NamespaceInfo> &>(store()).all();
}

QHash<QString, NamespaceInfo> NamespaceInformer::namespaceMap() const {
    return static_cast<const TypedStore<NamespaceInfo> &>(store()).items;
}

PodInformer::PodInformer(std::shared_ptr<KubeClient> client, const QString &ns, const QString &userLabel,
                         QObject *parent)
    : Informer(std::move(client), KubeResource::pods(), ns,
               std::make_unique<TypedStore<PodInfo>>([userLabel](const QJsonObject &o, StringPool *pool) {
                   return decodePod(o, userLabel, pool);
               }),
               parent) {}

std::optional<PodInfo> PodInformer::pod(const QString &ns, const QString &name) const {
    const auto &s = static_cast<const TypedStore<PodInfo> &>(store());
    auto it = s.items.constFind(ns + QLatin1Char('/') + name);
    if (it == s.items.constEnd())
        return std::nullopt;
    return *it;
}

QList<PodInfo> PodInformer::pods() const {
    return static_cast<const TypedStore<PodInfo> &>(store()).all();
}

QList<PodInfo> PodInformer::podsInNamespace(const QString &ns) const {
    return static_cast<const TypedStore<PodInfo> &>(store()).inNamespace(ns);
}

qsizetype PodInformer::memoryEstimate() const {
    const auto &s = static_cast<const TypedStore<PodInfo> &>(store());
    auto str = [](const QString &x) { return x.isEmpty() ? 0 : 32 + x.size() * 2; };
    qsizetype total = 0;
    for (auto it = s.items.constBegin(); it != s.items.constEnd(); ++it) {
        const PodInfo &p = *it;
        // Shared strings (namespace, node, user, resource names) are counted once elsewhere.
        total += qsizetype(sizeof(PodInfo)) + str(it.key()) + str(p.name) + str(p.uid) +
                 str(p.resourceVersion) + p.gpus.size() * qsizetype(sizeof(GpuRequest) + 16) + 32;
    }
    return total;
}

ObjectInformer::ObjectInformer(std::shared_ptr<KubeClient> client, const KubeResource &resource,
                               const QString &ns, QObject *parent)
    : Informer(std::move(client), resource, ns, std::make_unique<TypedStore<StoredObject>>(&decodeStored),
               parent) {}

std::optional<StoredObject> ObjectInformer::object(const QString &ns, const QString &name) const {
    const auto &s = static_cast<const TypedStore<StoredObject> &>(store());
    auto it = s.items.constFind(ns.isEmpty() ? name : ns + QLatin1Char('/') + name);
    if (it == s.items.constEnd())
        return std::nullopt;
    return *it;
}

QList<StoredObject> ObjectInformer::objects() const {
    return static_cast<const TypedStore<StoredObject> &>(store()).all();
}

QList<StoredObject> ObjectInformer::objectsInNamespace(const QString &ns) const {
    return static_cast<const TypedStore<StoredObject> &>(store()).inNamespace(ns);
}

QHash<QString, StoredObject> ObjectInformer::objectMap() const {
    return static_cast<const TypedStore<StoredObject> &>(store()).items;
}

} // namespace gq
