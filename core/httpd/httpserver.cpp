#include "core/httpd/httpserver.h"
#include "core/httpd/eventserver.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>

#include <QFile>
#include <QHash>
#include <QSet>
#include <QUrl>

namespace gq::httpd {

QByteArray Request::header(const QByteArray &lowerCaseName) const {
    for (const auto &[name, value] : headers)
        if (name == lowerCaseName)
            return value;
    return {};
}

QByteArray Request::bearerToken() const {
    const QByteArray value = header("authorization").trimmed();
    if (value.size() < 7 || qstrnicmp(value.constData(), "bearer ", 7) != 0)
        return {};
    return value.mid(7).trimmed();
}

Response Response::text(int status, const QString &text) {
    Response r;
    r.status = status;
    r.body = text.toUtf8();
    return r;
}

Response Response::json(int status, const QJsonDocument &doc) {
    Response r;
    r.status = status;
    r.contentType = "application/json";
    r.body = doc.toJson(QJsonDocument::Compact);
    return r;
}

Response Response::html(int status, const QString &html) {
    Response r;
    r.status = status;
    r.contentType = "text/html; charset=utf-8";
    r.body = html.toUtf8();
    return r;
}

Result<TlsConfig> TlsConfig::fromFiles(const QString &certFile, const QString &keyFile) {
    TlsConfig config;
    for (auto [file, out] : {std::pair{certFile, &config.certPem}, std::pair{keyFile, &config.keyPem}}) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return Error::make(Error::Kind::Io,
                               QStringLiteral("cannot read %1: %2").arg(file, f.errorString()));
        *out = f.readAll();
    }
    return config;
}

Result<ListenAddress> parseListenAddress(const QString &text, const QString &field) {
    const QString t = text.trimmed();
    const qsizetype colon = t.lastIndexOf(QLatin1Char(':'));
    auto bad = [&](const QString &why) {
        return Error::make(Error::Kind::Invalid, QStringLiteral("%1: \"%2\" %3").arg(field, text, why));
    };
    if (colon < 0)
        return bad(QStringLiteral("needs a port, as in 127.0.0.1:9464"));
    ListenAddress a;
    a.host = t.left(colon);
    if (a.host.startsWith(QLatin1Char('[')) && a.host.endsWith(QLatin1Char(']')))
        a.host = a.host.mid(1, a.host.size() - 2);
    if (a.host.isEmpty())
        a.host = QStringLiteral("0.0.0.0");
    bool ok = false;
    a.port = t.mid(colon + 1).toInt(&ok);
    if (!ok || a.port < 0 || a.port > 65535)
        return bad(QStringLiteral("has no valid port (0-65535)"));
    return a;
}

struct HttpServer::Private {
    ServerOptions options;
    QHash<QString, QHash<QByteArray, Handler>> routes; // path -> method -> handler
    QSet<QString> probePaths;
    std::unique_ptr<EventServer> server;
    bool tls = false;
    int port = 0;

    [[nodiscard]] Response dispatch(const Request &request) const;
};

Response HttpServer::Private::dispatch(const Request &r) const {
    const auto byPath = routes.constFind(r.path);
    if (byPath == routes.constEnd())
        return Response::text(404, QStringLiteral("404 page not found\n"));
    auto handler = byPath->constFind(r.method);
    if (handler == byPath->constEnd() && r.method == "HEAD")
        handler = byPath->constFind("GET");
    if (handler == byPath->constEnd()) {
        Response out = Response::text(405, QStringLiteral("method not allowed\n"));
        QByteArray allow;
        for (auto it = byPath->constBegin(); it != byPath->constEnd(); ++it)
            allow += (allow.isEmpty() ? "" : ", ") + it.key();
        out.headers.append({"Allow", allow});
        return out;
    }
    return (*handler)(r);
}

HttpServer::HttpServer(ServerOptions options)
    : d(std::make_unique<Private>()) {
    d->options = options;
}

HttpServer::~HttpServer() {
    stop();
}

void HttpServer::route(const QByteArray &method, const QString &path, Handler handler) {
    d->routes[path][method] = std::move(handler);
}

void HttpServer::routeProbe(const QByteArray &method, const QString &path, Handler handler) {
    d->probePaths.insert(path);
    route(method, path, std::move(handler));
}

namespace {

// Loads the certificate chain and key from memory into the server's context.
bool useTls(SSL_CTX &ctx, const TlsConfig &tls) {
    std::unique_ptr<BIO, decltype(&BIO_free)> certs(
        BIO_new_mem_buf(tls.certPem.constData(), int(tls.certPem.size())), &BIO_free);
    X509 *leaf = PEM_read_bio_X509(certs.get(), nullptr, nullptr, nullptr);
    if (!leaf)
        return false;
    const bool leafOk = SSL_CTX_use_certificate(&ctx, leaf) == 1;
    X509_free(leaf);
    if (!leafOk)
        return false;
    while (X509 *extra = PEM_read_bio_X509(certs.get(), nullptr, nullptr, nullptr))
        if (SSL_CTX_add_extra_chain_cert(&ctx, extra) != 1) { // takes ownership on success
            X509_free(extra);
            return false;
        }
    ERR_clear_error(); // the end of the chain leaves a "no start line" error behind
    std::unique_ptr<BIO, decltype(&BIO_free)> keyBio(
        BIO_new_mem_buf(tls.keyPem.constData(), int(tls.keyPem.size())), &BIO_free);
    EVP_PKEY *key = PEM_read_bio_PrivateKey(keyBio.get(), nullptr, nullptr, nullptr);
    if (!key)
        return false;
    const bool keyOk = SSL_CTX_use_PrivateKey(&ctx, key) == 1 && SSL_CTX_check_private_key(&ctx) == 1;
    EVP_PKEY_free(key);
    SSL_CTX_set_min_proto_version(&ctx, TLS1_2_VERSION);
    return keyOk;
}

Error invalidTls() {
    return Error::make(Error::Kind::Tls,
                       QStringLiteral("the TLS certificate or key is not valid PEM, or they do not match"));
}

} // namespace

Result<void> TlsConfig::validate() const {
    std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx(SSL_CTX_new(TLS_server_method()), &SSL_CTX_free);
    const bool ok = ctx && useTls(*ctx, *this);
    ERR_clear_error();
    if (!ok)
        return invalidTls();
    return {};
}

Result<int> HttpServer::start(const ListenAddress &address, const std::optional<TlsConfig> &tls) {
    if (d->server)
        return Error::make(Error::Kind::Invalid, QStringLiteral("the server is already running"));
    SSL_CTX *ctx = nullptr;
    if (tls) {
        ctx = SSL_CTX_new(TLS_server_method());
        const bool ok = ctx && useTls(*ctx, *tls);
        ERR_clear_error();
        if (!ok) {
            SSL_CTX_free(ctx);
            return invalidTls();
        }
        SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION);
    }
    auto server = std::make_unique<EventServer>(
        d->options, [p = d.get()](const Request &r) { return p->dispatch(r); },
        [p = d.get()](const Request &r) { return p->probePaths.contains(r.path); });
    auto port = server->start(address, ctx);
    if (!port)
        return port.error();
    d->server = std::move(server);
    d->tls = tls.has_value();
    d->port = *port;
    return *port;
}

void HttpServer::stop() {
    if (!d->server)
        return;
    d->server->stop();
    d->server.reset();
    d->port = 0;
}

bool HttpServer::isRunning() const {
    return d->server && d->server->isRunning();
}

ServerStats HttpServer::stats() const {
    return d->server ? d->server->stats() : ServerStats{};
}

int HttpServer::port() const {
    return d->port;
}

bool HttpServer::isTls() const {
    return d->tls;
}

} // namespace gq::httpd
