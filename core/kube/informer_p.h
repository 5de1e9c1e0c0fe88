#pragma once

// Internal to the informer: the pieces its files share (the decoders' string pool,
// the pending-change set, the typed-cache interface, a list in progress, and the
// private state). Not part of gqkube's public API.

#include "core/jobs/jobtracker.h"
#include "core/kube/informer.h"
#include "core/kube/kubeclient.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QSet>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace gq {

namespace detail {

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

// JSON to the compact cached views (informerdecode.cpp). pool may be null: then
// nothing is shared.
NamespaceInfo decodeNamespace(const QJsonObject &object, StringPool *pool);
// userEmailKey: the label, else annotation, naming the user's email (empty: not read).
PodInfo decodePod(const QJsonObject &object, const QString &userLabel, StringPool *pool,
                  const QString &userEmailKey = {});
StoredObject decodeStored(const QJsonObject &object, StringPool *pool);

} // namespace detail

// Changes not emitted yet, by key: an add then a delete cancel out, so a key ends
// up in at most one of changed()'s lists.
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

// Store: the typed cache behind an informer. decode() runs on the client's worker
// thread and produces an opaque batch; everything else runs on the informer's thread.
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

// A finished list, built into a replacement cache on a worker.
struct Informer::ListBuilt {
    QString resourceVersion;
    std::shared_ptr<void> cache;
    std::shared_ptr<ListChanges> changes;
};

// One list in progress. It holds what its pages need (never the informer), so the
// thread that reads a page's continue token requests the next page itself; pages are
// decoded on the thread pool, in any order, and the worker that brings the last
// missing one builds the cache. What it finds reaches the informer's thread through
// the informer's JobTracker: `failed` and `built` are its deliverers, `token` tells
// the workers that the list was replaced (relist, stop, failure) or the informer is
// gone, and then nothing more is requested, decoded or delivered.
struct Informer::ListJob : std::enable_shared_from_this<ListJob> {
    std::shared_ptr<KubeClient> client;
    QString path;
    int pageSize = 500;
    std::shared_ptr<Store> store;
    JobToken token;
    std::function<void(Error)> failed;
    std::function<void(ListBuilt)> built;

    std::mutex mutex;
    std::map<int, std::shared_ptr<void>> batches; // by page index
    int lastIndex = -1;                           // the page without a continue token, once seen
    QString resourceVersion;                      // of that page
    bool finished = false;
    std::shared_ptr<void> snapshot; // the cache when the list began

    // Any thread: requests page `index` (continueToken empty: the first).
    void fetch(const QString &continueToken, int index);

private:
    // Thread pool: parses and decodes one page, and builds the cache after the last.
    void read(Result<KubeResponse> response, int index, bool peeked);
    Result<ObjectList> parse(Result<KubeResponse> &response, int index, bool peeked,
                             std::shared_ptr<void> *batch);
    // The batches in page order once every page is in; empty until then.
    std::vector<std::shared_ptr<void>> take(std::shared_ptr<void> batch, int index, const ObjectList &page);
};

// What a watch hands over per chunk of its stream: a batch decoded on the client's
// worker thread, and the resourceVersion the stream reached.
struct Informer::WatchBatch {
    std::shared_ptr<void> batch;
    QString lastResourceVersion;
};

class Informer::Private {
public:
    explicit Private(Informer *q)
        : jobs(q) {}
    // Each list and the watch that follows it is one generation of the tracker:
    // relist(), stop() and fail() cancel it, so late pages, watch batches and probe
    // answers of a replaced list or watch are dropped, and nothing is delivered after
    // the informer is destroyed.
    JobTracker jobs;
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
    int pageSize = 500;
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

} // namespace gq
