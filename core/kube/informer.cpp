// The informer's facade: construction, settings, the state it reports, and the
// batching of changes into signals. Listing is in informerlist.cpp, the watch and
// the backoff in informerwatch.cpp, the typed caches in informerkinds.cpp.
#include "core/kube/informer_p.h"

#include <algorithm>

namespace gq {

Informer::Informer(std::shared_ptr<KubeClient> client, const KubeResource &resource, const QString &ns,
                   std::unique_ptr<Store> store, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this)) {
    d->client = std::move(client);
    d->resource = resource;
    d->ns = ns;
    d->store = std::move(store);
    d->flushTimer.setSingleShot(true);
    d->retryTimer.setSingleShot(true);
    connect(&d->flushTimer, &QTimer::timeout, this, [this] { flush(); });
    connect(&d->retryTimer, &QTimer::timeout, this, [this] { relist(); });
}

Informer::~Informer() {
    d->jobs.cancel(); // nothing still out reaches this object
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
    d->jobs.cancel();
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

} // namespace gq
