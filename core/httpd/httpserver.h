#pragma once

#include "core/domain/result.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrlQuery>

#include <functional>
#include <memory>
#include <optional>

namespace gq::httpd {

// One request as a handler sees it. Header names are lower-case.
struct Request {
    QByteArray method; // "GET", "POST", ...
    QString path;      // decoded, without the query
    QUrlQuery query;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    QString remoteAddress;

    [[nodiscard]] QByteArray header(const QByteArray &lowerCaseName) const;
    // The token of an `Authorization: Bearer …` header; empty when there is none.
    [[nodiscard]] QByteArray bearerToken() const;
};

struct Response {
    int status = 200;
    QByteArray contentType = "text/plain; charset=utf-8";
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;

    static Response text(int status, const QString &text);
    static Response json(int status, const QJsonDocument &doc);
    static Response html(int status, const QString &html);
};

// Called on one of the server's worker threads, possibly several at once: a handler
// must be thread-safe and must not touch QObjects living on other threads.
using Handler = std::function<Response(const Request &)>;

// PEM text of the server certificate (chain) and its private key.
struct TlsConfig {
    QByteArray certPem;
    QByteArray keyPem;

    static Result<TlsConfig> fromFiles(const QString &certFile, const QString &keyFile);
    // What HttpServer::start() will find: PEM that reads as a certificate (chain) and a
    // private key that belongs to it. Error Tls otherwise.
    [[nodiscard]] Result<void> validate() const;
};

// Connections are served by one event thread (accept, TLS, reading, writing) and
// `threads` workers that run handlers: an idle or slow connection holds no worker.
struct ServerOptions {
    int threads = 8;                       // handler threads
    qint64 maxBodyBytes = 4 * 1024 * 1024; // larger bodies get 413
    int readTimeoutSeconds = 10;           // a request (and a TLS handshake) must arrive within this
    int writeTimeoutSeconds = 10;          // an answer that makes no progress this long is dropped
    // Keep-alive connections idle longer close (above the 90 s a Go client keeps one,
    // so the client closes first and never sends on a connection being closed).
    int idleTimeoutSeconds = 120;
    // Open connections at most; at the cap, a new connection closes the longest-idle one.
    int maxConnections = 1000;
};

// What the server has done so far (for tests, metrics and benchmarks).
struct ServerStats {
    qint64 accepted = 0;
    qint64 requests = 0;
    qint64 open = 0;
    qint64 evictedIdle = 0; // idle connections closed to make room for a new one
    qint64 refused = 0;     // new connections closed: at the cap and none idle
};

// "127.0.0.1:9464", "0.0.0.0:9443", "[::1]:80", ":9464" (all interfaces). Port 0
// asks for any free port. Errors name `field`.
struct ListenAddress {
    QString host;
    int port = 0;
};
[[nodiscard]] Result<ListenAddress> parseListenAddress(const QString &text, const QString &field);

// A small HTTP/1.1 or HTTPS server on its own threads. Routes are exact paths; an
// unknown path gets 404, a known path with another method 405; HEAD answers as GET
// without the body. Stopping (or destroying) the server waits for running handlers
// to return.
class HttpServer {
public:
    explicit HttpServer(ServerOptions options = {});
    ~HttpServer();
    HttpServer(const HttpServer &) = delete;
    HttpServer &operator=(const HttpServer &) = delete;

    // Before start() only.
    void route(const QByteArray &method, const QString &path, Handler handler);
    // A cheap handler (health, readiness) served by a worker of its own: it answers
    // while slow handlers (self-service waiting for the API server) hold every worker.
    void routeProbe(const QByteArray &method, const QString &path, Handler handler);

    // Binds and starts serving; returns the bound port.
    Result<int> start(const ListenAddress &address, const std::optional<TlsConfig> &tls = std::nullopt);
    void stop();

    [[nodiscard]] bool isRunning() const;
    [[nodiscard]] int port() const;
    [[nodiscard]] bool isTls() const;
    [[nodiscard]] ServerStats stats() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace gq::httpd
