#pragma once

// A minimal blocking HTTP/1.1 client on a raw socket, optionally TLS (OpenSSL, no
// certificate verification: loopback tests and benchmarks only). Every call gives up
// after the connect timeout, so a starved server fails a test instead of hanging it.
// Used by tst_httpconnections and bench_webhook_load. Header-only.
#include <QByteArray>
#include <QList>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <memory>
#include <utility>

namespace gq::test {

// One client connection; every call gives up after `timeoutMs`.
class RawClient {
public:
    RawClient() = default;
    RawClient(const RawClient &) = delete;
    RawClient &operator=(const RawClient &) = delete;
    ~RawClient() {
        if (m_ssl)
            SSL_free(m_ssl);
        if (m_fd >= 0)
            ::close(m_fd);
    }

    // TCP connect, then the TLS handshake when `ctx` is given.
    bool connectTo(int port, SSL_CTX *ctx, int timeoutMs = 3000) {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        timeval tv{timeoutMs / 1000, (timeoutMs % 1000) * 1000};
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        ::setsockopt(m_fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        int one = 1;
        ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); // as Go's net/http does
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(quint16(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(m_fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0)
            return false;
        if (!ctx)
            return true;
        m_ssl = SSL_new(ctx);
        SSL_set_fd(m_ssl, m_fd);
        const bool ok = SSL_connect(m_ssl) == 1;
        ERR_clear_error();
        return ok;
    }

    // Sends one GET and reads its answer: the status, 0 when none arrived.
    int get(const QByteArray &path, QByteArray *head = nullptr) {
        return exchange("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", head);
    }

    int post(const QByteArray &path, const QByteArray &body, QByteArray *head = nullptr,
             QByteArray *answer = nullptr) {
        return exchange("POST " + path +
                            " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
                            "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body,
                        head, answer);
    }

    // Writes a whole request and reads one answer: its status, 0 when none arrived.
    int exchange(const QByteArray &request, QByteArray *head = nullptr, QByteArray *body = nullptr) {
        if (!write(request))
            return 0;
        QByteArray in = std::exchange(m_pending, {});
        qsizetype headEnd = -1;
        while ((headEnd = in.indexOf("\r\n\r\n")) < 0)
            if (!read(in))
                return 0;
        const QByteArray h = in.left(headEnd).toLower();
        qsizetype length = 0;
        for (const QByteArray &line : h.split('\n'))
            if (line.startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        while (in.size() < headEnd + 4 + length)
            if (!read(in))
                return 0;
        if (head)
            *head = h;
        if (body)
            *body = in.mid(headEnd + 4, length);
        m_pending = in.mid(headEnd + 4 + length); // the start of a pipelined answer
        return h.mid(9, 3).toInt();
    }

    // Whatever arrives next (empty: the server closed the connection, or the timeout).
    QByteArray readSome() {
        QByteArray in = std::exchange(m_pending, {});
        if (in.isEmpty())
            read(in);
        return in;
    }

    bool write(const QByteArray &data) {
        if (m_ssl) {
            const bool ok = SSL_write(m_ssl, data.constData(), int(data.size())) == int(data.size());
            ERR_clear_error();
            return ok;
        }
        return ::send(m_fd, data.constData(), size_t(data.size()), MSG_NOSIGNAL) == ssize_t(data.size());
    }

private:
    bool read(QByteArray &in) {
        char buffer[4096];
        const int n =
            m_ssl ? SSL_read(m_ssl, buffer, sizeof buffer) : int(::recv(m_fd, buffer, sizeof buffer, 0));
        ERR_clear_error();
        if (n <= 0)
            return false;
        in.append(buffer, n);
        return true;
    }

    int m_fd = -1;
    SSL *m_ssl = nullptr;
    QByteArray m_pending;
};

using ClientCtx = std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)>;

inline ClientCtx clientContext() {
    return ClientCtx(SSL_CTX_new(TLS_client_method()), &SSL_CTX_free); // no verification: loopback test
}

// A self-signed P-256 certificate for 127.0.0.1 and its key, as PEM (the client above
// does not verify it): for servers in tests that need TLS without the test cluster.
struct LoopbackTls {
    QByteArray certPem;
    QByteArray keyPem;
};

inline LoopbackTls loopbackTls() {
    LoopbackTls out;
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *cert = X509_new();
    ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert), -60);
    X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
    X509_set_pubkey(cert, key);
    X509_NAME *name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char *>("127.0.0.1"),
                               -1, -1, 0);
    X509_set_issuer_name(cert, name);
    X509_sign(cert, key, EVP_sha256());
    auto pem = [](auto write) {
        BIO *bio = BIO_new(BIO_s_mem());
        write(bio);
        char *data = nullptr;
        const long size = BIO_get_mem_data(bio, &data);
        QByteArray text(data, qsizetype(size));
        BIO_free(bio);
        return text;
    };
    out.certPem = pem([&](BIO *bio) { PEM_write_bio_X509(bio, cert); });
    out.keyPem =
        pem([&](BIO *bio) { PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr); });
    X509_free(cert);
    EVP_PKEY_free(key);
    return out;
}

} // namespace gq::test
