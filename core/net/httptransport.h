#pragma once

#include "core/net/httprequest.h"

#include <QFuture>
#include <QtGlobal>

#include <functional>
#include <memory>

namespace gq {

// The one HTTP client stack: a libcurl multi loop on a worker thread owned by the
// transport, multiplexing every request (HTTP/2 where offered). Nothing blocks the
// caller: start() queues the request and returns its id; the result is delivered to
// a callback on the worker thread (keep it short; hand it on with a queued call or a
// QPromise), or as a QFuture through send().
//
// Retries, backoff and Retry-After live here and only here (see RetryPolicy). A
// request can be cancelled alone; destroying the transport cancels all of them.
// Every outcome ends in exactly one `done` call.
//
// Streams: with an onChunk callback a 2xx body is handed over chunk by chunk as it
// arrives (worker thread); returning false from it ends the stream, which then
// completes with transportError kind Cancelled. Non-2xx bodies are collected as usual.
class HttpTransport final {
public:
    using RequestId = quint64;
    using Done = std::function<void(HttpResponse)>;
    using ChunkHandler = std::function<bool(const QByteArray &chunk)>;

    HttpTransport();
    ~HttpTransport(); // pending requests complete with transportError kind Cancelled
    Q_DISABLE_COPY_MOVE(HttpTransport)

    // Thread-safe. After shutdown() `done` runs at once, on the calling thread.
    RequestId start(HttpRequest request, Done done, ChunkHandler onChunk = {});
    QFuture<HttpResponse> send(HttpRequest request);
    // The request completes with transportError kind Cancelled (unless it already
    // completed). Unknown ids are ignored. Thread-safe.
    void cancel(RequestId id);
    // Runs fn on the worker thread after delayMs; dropped if the transport shuts down.
    void schedule(int delayMs, std::function<void()> fn);
    // Cancels everything and joins the worker; idempotent. No callback runs after it.
    void shutdown();

    [[nodiscard]] int attemptsStarted() const; // retries included
    [[nodiscard]] int retries() const;
    [[nodiscard]] long lastHttpVersion() const; // of the last answer: 2 for HTTP/2

private:
    class Loop;
    std::unique_ptr<Loop> d;
};

} // namespace gq
