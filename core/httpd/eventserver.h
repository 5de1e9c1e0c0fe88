#pragma once

// The event-driven core of HttpServer (internal to gqhttpd). One thread waits on
// every connection with epoll: it accepts, does the TLS handshakes, reads until a
// request is complete and writes the answers; only complete requests go to the
// worker threads that run handlers. An idle keep-alive connection therefore costs
// a file descriptor and a few bytes, never a worker: any number of them cannot keep
// another client from being served. When `maxConnections` are open, a new one
// closes the connection that has been idle longest; idle connections close after
// `idleTimeoutSeconds`, a request must arrive whole within `readTimeoutSeconds` of
// its first byte, and a connection serves any number of requests.
#include "core/httpd/httpserver.h"

#include <openssl/ssl.h>

#include <atomic>
#include <functional>
#include <memory>

namespace gq::httpd {

class EventServer {
public:
    using Dispatch = std::function<Response(const Request &)>;
    // Whether a request goes to the probe worker (HttpServer::routeProbe) instead of
    // the `threads` workers.
    using IsProbe = std::function<bool(const Request &)>;

    EventServer(ServerOptions options, Dispatch dispatch, IsProbe isProbe);
    ~EventServer();
    EventServer(const EventServer &) = delete;
    EventServer &operator=(const EventServer &) = delete;

    // Binds; `ctx` (owned from here on, may be null for plain HTTP) does the TLS.
    // Returns the bound port.
    Result<int> start(const ListenAddress &address, SSL_CTX *ctx);
    // Closes the listener and every connection; waits for running handlers.
    void stop();
    [[nodiscard]] bool isRunning() const;
    [[nodiscard]] ServerStats stats() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace gq::httpd
