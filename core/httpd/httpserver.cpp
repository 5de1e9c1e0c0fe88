#include "httpserver.h"
#include "httpcompression.h"

#include <httplib.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>

#include <QFile>
#include <QHash>
#include <QUrl>

#include <atomic>
#include <chrono>
#include <thread>

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
    std::unique_ptr<httplib::Server> server;
    std::thread thread;
    std::atomic<int> port{0};
    bool tls = false;

    void dispatch(const httplib::Request &req, httplib::Response &res) const;
};

void HttpServer::Private::dispatch(const httplib::Request &req, httplib::Response &res) const {
    Request r;
    r.method = QByteArray::fromStdString(req.method);
    r.path = QString::fromStdString(req.path);
    const std::string &target = req.target;
    if (const auto q = target.find('?'); q != std::string::npos)
        r.query = QUrlQuery(QString::fromStdString(target.substr(q + 1)));
    for (const auto &[name, value] : req.headers)
        r.headers.append({QByteArray::fromStdString(name).toLower(), QByteArray::fromStdString(value)});
    r.body = QByteArray::fromStdString(req.body);
    r.remoteAddress = QString::fromStdString(req.remote_addr);
    Response out;
    const auto byPath = routes.constFind(r.path);
    if (byPath == routes.constEnd()) {
        out = Response::text(404, QStringLiteral("404 page not found\n"));
    } else if (const auto handler = byPath->constFind(r.method); handler == byPath->constEnd()) {
        out = Response::text(405, QStringLiteral("method not allowed\n"));
        QByteArray allow;
        for (auto it = byPath->constBegin(); it != byPath->constEnd(); ++it)
            allow += (allow.isEmpty() ? "" : ", ") + it.key();
        out.headers.append({"Allow", allow});
    } else {
        out = (*handler)(r);
    }
    res.status = out.status;
    for (const auto &[name, value] : out.headers)
        res.set_header(name.toStdString(), value.toStdString());
    res.set_content(out.body.toStdString(), out.contentType.toStdString());
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
    if (tls) {
        const TlsConfig config = *tls;
        auto server =
            std::make_unique<httplib::SSLServer>([config](SSL_CTX &ctx) { return useTls(ctx, config); });
        if (!server->is_valid())
            return invalidTls();
        d->server = std::move(server);
    } else {
        d->server = std::make_unique<httplib::Server>();
    }
    d->tls = tls.has_value();
    const int threads = d->options.threads;
    d->server->new_task_queue = [threads] {
        return new httplib::ThreadPool(static_cast<std::size_t>(threads));
    };
    d->server->set_payload_max_length(static_cast<size_t>(d->options.maxBodyBytes));
    d->server->set_read_timeout(d->options.readTimeoutSeconds);
    d->server->set_write_timeout(d->options.writeTimeoutSeconds);
    d->server->set_keep_alive_timeout(2);
    // cpp-httplib's default also sets SO_REUSEPORT, which would let a second
    // controller bind the same port and steal half the connections: address reuse
    // only (for restarts), and no Nagle delay on small responses.
    d->server->set_socket_options([](socket_t sock) {
        int one = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }); // idle keep-alive connections delay stop() this long
    serveNoBrotli(*d->server);
    auto handler = [this](const httplib::Request &req, httplib::Response &res) { d->dispatch(req, res); };
    d->server->Get(".*", handler);
    d->server->Post(".*", handler);
    d->server->Put(".*", handler);
    d->server->Patch(".*", handler);
    d->server->Delete(".*", handler);
    const std::string host = address.host.toStdString();
    int bound = -1;
    if (address.port == 0)
        bound = d->server->bind_to_any_port(host);
    else if (d->server->bind_to_port(host, address.port))
        bound = address.port;
    if (bound <= 0) {
        d->server.reset();
        return Error::make(
            Error::Kind::Network,
            QStringLiteral("could not listen on %1:%2 (in use, or not an address of this machine)")
                .arg(address.host)
                .arg(address.port));
    }
    d->port = bound;
    auto ended = std::make_shared<std::atomic<bool>>(false);
    d->thread = std::thread([server = d->server.get(), ended] {
        server->listen_after_bind();
        *ended = true;
    });
    // stop() only reaches a server whose accept loop has begun, so wait for that here:
    // a stop() right after start() would otherwise leave the loop running forever.
    while (!d->server->is_running() && !*ended)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return bound;
}

void HttpServer::stop() {
    if (!d->server)
        return;
    d->server->stop();
    if (d->thread.joinable())
        d->thread.join();
    d->server.reset();
    d->port = 0;
}

bool HttpServer::isRunning() const {
    return d->server && d->server->is_running();
}

int HttpServer::port() const {
    return d->port;
}

bool HttpServer::isTls() const {
    return d->tls;
}

} // namespace gq::httpd
