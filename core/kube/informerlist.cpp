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
    d->jobs.cancel(); // whatever the last list or watch still sends is dropped
    setNextAttempt(QDeadlineTimer(QDeadlineTimer::Forever)); // this is the attempt
    setState(State::Listing);
    // Nothing changes the cache until the list is adopted (the watch is stopped and
    // late watch batches belong to a cancelled generation): its snapshot is what the
    // list is compared with.
    auto job = std::make_shared<ListJob>();
    job->client = d->client;
    job->path = d->resource.path(d->ns);
    job->pageSize = d->pageSize;
    job->store = d->store;
    job->token = d->jobs.token();
    job->failed = d->jobs.deliverer<Error>([this](const Error &e) { fail(e); });
    job->built = d->jobs.deliverer<ListBuilt>([this](const ListBuilt &list) { onListBuilt(list); });
    job->snapshot = d->store->snapshot();
    job->fetch(QString(), 0);
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

void Informer::ListJob::fetch(const QString &continueToken, int index) {
    if (token.isCancelled())
        return;
    KubeRequest req;
    req.path = path;
    req.query.append({QStringLiteral("limit"), QString::number(pageSize)});
    if (!continueToken.isEmpty())
        req.query.append({QStringLiteral("continue"), continueToken});
    // Pages are decoded on the thread pool, several at once, while the next page is
    // already requested (its token is read from the raw bytes).
    client->send(req).then([self = shared_from_this(), index](Result<KubeResponse> r) mutable {
        // On the client's thread: ask for the next page before this one is decoded.
        QString next;
        const bool peeked = !self->token.isCancelled() && r && peekContinueToken(r->body, &next);
        if (peeked && !next.isEmpty())
            self->fetch(next, index + 1);
        // The job leaves this thread with the page: its last reference, and with it
        // maybe the client's, must not be dropped on the client's own thread.
        QThreadPool::globalInstance()->start(
            [self = std::move(self), index, peeked, r = std::move(r)]() mutable {
                self->read(std::move(r), index, peeked);
            });
    });
}

Result<ObjectList> Informer::ListJob::parse(Result<KubeResponse> &r, int index, bool peeked,
                                            std::shared_ptr<void> *batch) {
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
        fetch(list.continueToken, index + 1);
    const QJsonArray items = obj.value(QLatin1String("items")).toArray();
    QList<WatchEvent> events;
    events.reserve(items.size());
    for (const QJsonValue &v : items)
        events.append({WatchEvent::Type::Added, v.toObject(), {}});
    *batch = store->decode(events);
    return list;
}

std::vector<std::shared_ptr<void>> Informer::ListJob::take(std::shared_ptr<void> batch, int index,
                                                           const ObjectList &page) {
    std::vector<std::shared_ptr<void>> out;
    std::lock_guard lock(mutex);
    batches.emplace(index, std::move(batch));
    if (page.continueToken.isEmpty()) {
        lastIndex = index;
        resourceVersion = page.resourceVersion;
    }
    if (finished || lastIndex < 0 || qsizetype(batches.size()) != lastIndex + 1)
        return out;
    finished = true;
    out.reserve(batches.size());
    for (auto &entry : batches) // in page order
        out.push_back(std::move(entry.second));
    batches.clear();
    return out;
}

void Informer::ListJob::read(Result<KubeResponse> r, int index, bool peeked) {
    if (token.isCancelled())
        return;
    std::shared_ptr<void> batch;
    const Result<ObjectList> page = parse(r, index, peeked, &batch);
    if (!page) {
        failed(page.error());
        return;
    }
    // The worker that brings the last missing page builds the cache. Nothing is
    // delivered to the informer's thread per page: each queued call is memory that
    // thread would free, and freeing another thread's allocations waits for that
    // thread's malloc arena (seen as GUI stalls in free()).
    std::vector<std::shared_ptr<void>> pages = take(std::move(batch), index, *page);
    if (pages.empty() || token.isCancelled())
        return;
    // Whatever the cache held that the list lacks was deleted meanwhile.
    ListBuilt list;
    list.changes = std::make_shared<ListChanges>();
    list.cache = store->build(snapshot, pages, list.changes.get());
    pages.clear();
    snapshot.reset();
    list.resourceVersion = resourceVersion;
    built(std::move(list));
}

void Informer::onListBuilt(const ListBuilt &list) {
    d->store->adopt(list.cache);
    d->rv = list.resourceVersion;
    d->listedOnce = true;
    d->synced = true;
    d->failures = 0;
    flush(); // anything still pending from before the list, then the list's own changes
    const ListChanges &changes = *list.changes;
    if (!changes.added.isEmpty() || !changes.updated.isEmpty() || !changes.deleted.isEmpty())
        Q_EMIT changed(changes.added, changes.updated, changes.deleted);
    Q_EMIT synced();
    startWatch();
}

} // namespace gq
