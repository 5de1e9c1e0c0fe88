#include "testcluster/apiserver.h"

#include "testcluster/apicall.h"
#include "core/httpd/httpcompression.h"

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

// setsockopt, IPPROTO_TCP, TCP_NODELAY: Winsock (already included by httplib.h) on Windows.
#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#endif

#include <chrono>
#include <cstdio>

// Listening, TLS and authentication; everything after that is in the router.

namespace gq::tc {

namespace {

using Clock = std::chrono::steady_clock;

// Who is asking: a bearer token or a verified client certificate; nobody (not
// authenticated) without either; nullopt for a wrong token or certificate.
std::optional<ApiUser> authenticate(const httplib::Request &req, const ServerConfig &config,
                                    const TestUsers &users) {
    ApiUser user;
    const std::string auth = req.get_header_value("Authorization");
    if (auth.rfind("Bearer ", 0) == 0) {
        const QString token = QString::fromStdString(auth.substr(7)).trimmed();
        if (!token.isEmpty() && token == config.adminToken) {
            user = {QStringLiteral("gq-admin"),
                    {QStringLiteral("system:masters"), QStringLiteral("system:authenticated")},
                    true,
                    true};
        } else if (!token.isEmpty() && token == config.readonlyToken) {
            user = {QStringLiteral("gq-viewer"),
                    {QStringLiteral("gq:viewers"), QStringLiteral("system:authenticated")},
                    false,
                    true};
        } else if (const std::optional<TestUser> added = users.byToken(token); added && !token.isEmpty()) {
            user = {added->name, added->groups, false, true};
        } else {
            return std::nullopt;
        }
    } else if (req.ssl) {
        X509 *peer = SSL_get1_peer_certificate(req.ssl);
        if (peer) {
            const bool verified = SSL_get_verify_result(req.ssl) == X509_V_OK;
            const PeerIdentity id = peerIdentity(peer);
            X509_free(peer);
            if (!verified)
                return std::nullopt;
            user.name = id.commonName;
            user.groups = id.organizations;
            user.groups.append(QStringLiteral("system:authenticated"));
            user.admin = id.organizations.contains(QLatin1String("system:masters"));
            user.authenticated = true;
        }
    }
    return user;
}

} // namespace

ApiServer::ApiServer(Store &store, ServerConfig config)
    : m_store(store)
    , m_config(std::move(config)) {
    m_schema.addDocument(m_config.openapiCoreV1);
    m_schema.addDocument(m_config.openapiAuthorizationV1);
}

ApiServer::~ApiServer() = default;

Result<int> ApiServer::bind(const QString &host, int port, const TlsMaterial &tls) {
    X509 *cert = tls.serverCert.get();
    EVP_PKEY *key = tls.serverKey.get();
    X509 *ca = tls.caCert.get();
    m_server = std::make_unique<httplib::SSLServer>([cert, key, ca](SSL_CTX &ctx) {
        if (SSL_CTX_use_certificate(&ctx, cert) != 1 || SSL_CTX_use_PrivateKey(&ctx, key) != 1 ||
            SSL_CTX_check_private_key(&ctx) != 1)
            return false;
        SSL_CTX_set_min_proto_version(&ctx, TLS1_2_VERSION);
        X509_STORE_add_cert(SSL_CTX_get_cert_store(&ctx), ca);
        SSL_CTX_add_client_CA(&ctx, ca);
        // Ask for a client certificate but let token users in without one; the
        // verification result is checked per request.
        SSL_CTX_set_verify(&ctx, SSL_VERIFY_PEER, [](int, X509_STORE_CTX *) { return 1; });
        return true;
    });
    if (!m_server->is_valid())
        return Error::make(Error::Kind::Tls, QStringLiteral("could not set up the TLS context"));
    const int threads = m_config.threads;
    m_server->new_task_queue = [threads] {
        return new httplib::ThreadPool(static_cast<std::size_t>(threads));
    };
    // cpp-httplib leaves Nagle on; with delayed ACKs every small keep-alive response
    // then waits ~40 ms. Accepted sockets inherit TCP_NODELAY from the listener.
    m_server->set_socket_options([](socket_t sock) {
        httplib::default_socket_options(sock);
        int one = 1; // Winsock's setsockopt takes a const char *
        ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char *>(&one), sizeof one);
    });
    m_server->set_keep_alive_max_count(1000);
    // Idle keep-alive connections delay stop() by up to this long.
    m_server->set_keep_alive_timeout(3);
    m_server->set_read_timeout(10);
    m_server->set_write_timeout(30);
    gq::httpd::serveNoBrotli(*m_server);
    auto handler = [this](const httplib::Request &req, httplib::Response &res) { dispatch(req, res); };
    m_server->Get(".*", handler);
    m_server->Post(".*", handler);
    m_server->Put(".*", handler);
    m_server->Patch(".*", handler);
    m_server->Delete(".*", handler);
    int bound = -1;
    if (port == 0) {
        bound = m_server->bind_to_any_port(host.toStdString());
    } else if (m_server->bind_to_port(host.toStdString(), port)) {
        bound = port;
    }
    if (bound <= 0)
        return Error::make(Error::Kind::Network,
                           QStringLiteral("could not listen on %1:%2").arg(host).arg(port));
    m_serverAddress = host + QLatin1Char(':') + QString::number(bound);
    return bound;
}

bool ApiServer::run() {
    return m_server->listen_after_bind();
}

bool ApiServer::isListening() const {
    return m_server && m_server->is_running();
}

void ApiServer::stop() {
    m_stopping = true;
    {
        std::lock_guard lock(m_store.mutex);
        m_store.changed.notify_all();
    }
    if (m_server)
        m_server->stop();
}

void ApiServer::dispatch(const httplib::Request &req, httplib::Response &res) {
    const auto started = Clock::now();
    {
        // cpp-httplib answers "br" with Brotli at its slowest setting (20 s for a 6 MB
        // list); offer it only gzip, as the API server itself does.
        auto &headers = const_cast<httplib::Headers &>(req.headers);
        auto it = headers.find("Accept-Encoding");
        if (it != headers.end())
            it->second = it->second.find("gzip") != std::string::npos ? "gzip" : "identity";
    }
    const QString path = QString::fromStdString(req.path);
    if (!path.startsWith(QLatin1String("/_gq")) && applyFaults(req, res)) {
        if (m_config.verbose)
            std::fprintf(stderr, "%s %s -> %d (fault)\n", req.method.c_str(), req.path.c_str(), res.status);
        return;
    }

    const std::optional<ApiUser> user = authenticate(req, m_config, m_users);
    const bool open = path == QLatin1String("/version") || path == QLatin1String("/healthz") ||
                      path == QLatin1String("/livez") || path == QLatin1String("/readyz");
    if (!user || (!user->authenticated && !open)) {
        sendError(res, ApiError::unauthorized());
        return;
    }

    if (path.startsWith(QLatin1String("/_gq/"))) {
        if (!user->admin) {
            sendError(res, ApiError::forbidden(QStringLiteral("_gq"), {},
                                               QStringLiteral("test hooks need the admin user")));
            return;
        }
        const HookReply r =
            hook(QByteArray::fromStdString(req.method), path, QByteArray::fromStdString(req.body));
        sendJson(res, r.status, r.body);
        return;
    }

    ApiCall call{req, res, *user, Resource::Namespace, {}, {}, {}, {}, false, {}};
    handleApi(call);
    if (m_config.verbose) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
        std::fprintf(stderr, "%s %s %s -> %d (%lld ms)\n", qPrintable(user->name), req.method.c_str(),
                     req.target.c_str(), res.status, static_cast<long long>(ms));
    }
}

} // namespace gq::tc
