// The watch that follows a list: its stream's events, stalls and failures; the
// backoff between reconnect attempts, and retryNow().
#include "core/kube/informer_p.h"

#include <QRandomGenerator>

#include <algorithm>
#include <atomic>
#include <variant>

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

namespace {
// A watch whose streams keep ending without a single event or bookmark may be stalled
// somewhere between us and the server (a proxy, an overloaded apiserver): after two
// such streams in a row, a fresh list brings the cache up to date. Touched by the
// client's worker thread only.
struct WatchHealth {
    std::atomic<int> opens{0};
    std::atomic<int> itemsSinceOpen{0};
    std::atomic<int> emptyStreams{0};
    std::atomic<bool> lastFailed{false}; // a failed stream is an error, not a stall
    std::atomic<bool> broken{false};     // a stream failed; the next open proves nothing yet

    // A stream (re)opened. True when the streams look stalled: relist.
    bool opened() {
        const bool failed = lastFailed.exchange(false);
        if (opens++ > 0 && !failed) {
            if (itemsSinceOpen.exchange(0) == 0)
                ++emptyStreams;
            else
                emptyStreams = 0;
        }
        if (emptyStreams < 2)
            return false;
        emptyStreams = 0;
        return true;
    }
    void retrying(const Error &e) {
        // A stream cut by our own stall deadline still counts as a silent stream.
        if (e.kind != Error::Kind::Timeout) {
            lastFailed = true;
            itemsSinceOpen = 0;
        }
        broken = true;
    }
};
} // namespace

void Informer::startWatch() {
    WatchOptions wo;
    wo.resourceVersion = d->rv;
    wo.allowBookmarks = true;
    wo.timeoutSeconds = d->watchTimeoutSeconds;
    wo.resume = true;
    setState(State::Watching);
    d->watch = d->client->watch(d->resource, d->ns, wo, nullptr, watchHandlers());
}

// The handlers run on the client's worker thread; what they find reaches this thread
// through deliverers of the tracker's current generation (the list's), so a watch
// replaced by a relist, a failure or stop() delivers nothing more.
WatchHandlers Informer::watchHandlers() {
    using Now = std::monostate;
    auto health = std::make_shared<WatchHealth>();
    // A re-open after a failure is only a request in flight; whether the server answers
    // again is what a small list request tells (a quiet watch may send nothing for minutes).
    auto probeNow = d->jobs.deliverer<Now>([this](Now) {
        setNextAttempt(QDeadlineTimer(QDeadlineTimer::Forever)); // the attempt is under way
        probe();
    });
    auto relistNow = d->jobs.deliverer<Now>([this](Now) { relist(); });
    auto merge = d->jobs.deliverer<WatchBatch>([this](const WatchBatch &b) { onWatchBatch(b); });
    auto retrying = d->jobs.deliverer<Error>([this](const Error &e) { onWatchRetrying(e); });
    WatchHandlers h;
    h.connected = [health, probeNow, relistNow](const QString &) {
        if (health->broken.exchange(false))
            probeNow(Now());
        if (health->opened())
            relistNow(Now());
    };
    // Decode on the worker, merge on this thread.
    h.events = [store = d->store, token = d->jobs.token(), health, merge](const QList<WatchEvent> &events) {
        health->itemsSinceOpen += int(events.size());
        if (token.isCancelled())
            return;
        merge(
            WatchBatch{store->decode(events), events.isEmpty() ? QString() : events.last().resourceVersion});
    };
    h.failed = d->jobs.deliverer<Error>([this](const Error &e) { fail(e); });
    h.retrying = [health, retrying](const Error &e) {
        health->retrying(e);
        retrying(e);
    };
    return h;
}

void Informer::onWatchBatch(const WatchBatch &b) {
    d->store->apply(b.batch, d->delta);
    if (!b.lastResourceVersion.isEmpty())
        d->rv = b.lastResourceVersion;
    d->failures = 0;
    if (d->state == State::Backoff) {
        setNextAttempt(QDeadlineTimer(QDeadlineTimer::Forever));
        setState(State::Watching); // the stream delivers again
    }
    scheduleFlush();
}

void Informer::onWatchRetrying(const Error &e) {
    d->lastError = e;
    // The watch set its next attempt before this was posted. A re-open already under
    // way (retryNow) reports Forever: then no countdown is shown.
    if (d->watch)
        setNextAttempt(d->watch->nextAttempt());
    // The watch retries by itself, but the cache is no longer current: say so.
    setState(State::Backoff);
    Q_EMIT errorOccurred(e);
}

void Informer::probe() {
    KubeRequest req;
    req.path = d->resource.path(d->ns);
    req.query.append({QStringLiteral("limit"), QStringLiteral("1")});
    req.maxAttempts = 1;
    d->jobs.watch(d->client->send(req), [this](const Result<KubeResponse> &r) {
        // Still unreachable: the watch's own retries go on.
        if (!r || d->state != State::Backoff)
            return;
        d->failures = 0;
        setNextAttempt(QDeadlineTimer(QDeadlineTimer::Forever));
        setState(State::Watching);
    });
}

void Informer::fail(const Error &e) {
    if (d->watch) {
        d->watch->stop();
        d->watch.reset();
    }
    d->jobs.cancel();
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
