// The watch that follows a list: its stream's events, stalls and failures; the
// backoff between reconnect attempts, and retryNow().
#include "core/kube/informer_p.h"

#include <QRandomGenerator>

#include <algorithm>

namespace gq {

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

} // namespace gq
