// Listing: a paged list, decoded on the thread pool while the next page is already
// requested, built into a replacement cache on a worker and swapped in.
#include "core/kube/informer_p.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QThreadPool>

namespace gq {

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

} // namespace gq
