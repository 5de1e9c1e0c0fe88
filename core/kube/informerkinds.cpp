// The typed caches behind the informer kinds, and the kinds themselves
// (NamespaceInformer, PodInformer, ObjectInformer).
#include "core/kube/informer_p.h"

#include <QThreadPool>

#include <algorithm>
#include <functional>

namespace gq {

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
    using DecodeFn = std::function<T(const QJsonObject &, detail::StringPool *)>;
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

    std::optional<T> find(const QString &key) const {
        auto it = items.constFind(key);
        if (it == items.constEnd())
            return std::nullopt;
        return *it;
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
    detail::StringPool m_pool;
};

template <typename T> const TypedStore<T> &typed(const Informer::Store &store) {
    return static_cast<const TypedStore<T> &>(store);
}

} // namespace

NamespaceInformer::NamespaceInformer(std::shared_ptr<KubeClient> client, QObject *parent)
    : Informer(std::move(client), KubeResource::namespaces(), {},
               std::make_unique<TypedStore<NamespaceInfo>>(&detail::decodeNamespace), parent) {}

std::optional<NamespaceInfo> NamespaceInformer::namespaceInfo(const QString &name) const {
    return typed<NamespaceInfo>(store()).find(name);
}

QList<NamespaceInfo> NamespaceInformer::namespaces() const {
    return typed<NamespaceInfo>(store()).all();
}

QHash<QString, NamespaceInfo> NamespaceInformer::namespaceMap() const {
    return typed<NamespaceInfo>(store()).items;
}

PodInformer::PodInformer(std::shared_ptr<KubeClient> client, const QString &ns, const QString &userLabel,
                         QObject *parent)
    : PodInformer(std::move(client), ns, userLabel, QString(), parent) {}

PodInformer::PodInformer(std::shared_ptr<KubeClient> client, const QString &ns, const QString &userLabel,
                         const QString &userEmailKey, QObject *parent)
    : Informer(std::move(client), KubeResource::pods(), ns,
               std::make_unique<TypedStore<PodInfo>>(
                   [userLabel, userEmailKey](const QJsonObject &o, detail::StringPool *pool) {
                       return detail::decodePod(o, userLabel, pool, userEmailKey);
                   }),
               parent) {}

std::optional<PodInfo> PodInformer::pod(const QString &ns, const QString &name) const {
    return typed<PodInfo>(store()).find(ns + QLatin1Char('/') + name);
}

QList<PodInfo> PodInformer::pods() const {
    return typed<PodInfo>(store()).all();
}

QList<PodInfo> PodInformer::podsInNamespace(const QString &ns) const {
    return typed<PodInfo>(store()).inNamespace(ns);
}

qsizetype PodInformer::memoryEstimate() const {
    const auto &s = typed<PodInfo>(store());
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
    : Informer(std::move(client), resource, ns,
               std::make_unique<TypedStore<StoredObject>>(&detail::decodeStored), parent) {}

std::optional<StoredObject> ObjectInformer::object(const QString &ns, const QString &name) const {
    return typed<StoredObject>(store()).find(ns.isEmpty() ? name : ns + QLatin1Char('/') + name);
}

QList<StoredObject> ObjectInformer::objects() const {
    return typed<StoredObject>(store()).all();
}

QList<StoredObject> ObjectInformer::objectsInNamespace(const QString &ns) const {
    return typed<StoredObject>(store()).inNamespace(ns);
}

QHash<QString, StoredObject> ObjectInformer::objectMap() const {
    return typed<StoredObject>(store()).items;
}

} // namespace gq
