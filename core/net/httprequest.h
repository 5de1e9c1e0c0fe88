#pragma once

#include "core/domain/error.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

// Value types exchanged with HttpTransport. The HTTP status, the transport outcome
// and the body are separate fields: what they mean (an API Status, a PromQL error)
// is for the protocol client on top to decode.

enum class HttpMethod { Get, Head, Post, Put, Patch, Delete };

[[nodiscard]] QString methodName(HttpMethod method);

// TLS material, handed to libcurl in memory (never written to a file).
struct TlsOptions {
    QByteArray caPem; // empty: the system trust store
    QByteArray clientCertPem;
    QByteArray clientKeyPem;
    bool insecureSkipVerify = false;
};

// When and how often a failed attempt is repeated. GET/HEAD (and retrySafe requests)
// are retried on transient transport errors, 429 and 5xx (but 501); other methods
// only when the server provably did not act: no connection, or 429.
struct RetryPolicy {
    int maxAttempts = 1;
    int backoffBaseMs = 100; // first retry waits ~base, then doubles, with jitter
    int backoffMaxMs = 8000;
    int maxRetryAfterMs = 30000; // a server's Retry-After is honoured up to this
    bool retrySafe = false;      // a POST that changes nothing: retried like a GET
    // All attempts and the waits between them together: no attempt runs past it and
    // no retry starts after it. 0: no such bound (each attempt keeps its timeoutMs).
    int totalTimeoutMs = 0;
};

// The largest response body collected in memory before the request is ended with an
// error, so a server that sends an endless or huge body cannot exhaust memory (a
// stream's 2xx body is not collected: its consumer bounds each event instead).
// 64 MiB holds a 5000-item page of large objects several times over.
inline constexpr qint64 kDefaultMaxBodyBytes = 64 * 1024 * 1024;

// GQ_MAX_RESPONSE_BYTES when it is a positive number, else kDefaultMaxBodyBytes.
[[nodiscard]] qint64 defaultMaxBodyBytes();

// "64 MiB", or "1000 bytes" when not a whole number of MiB: limits in messages.
[[nodiscard]] QString describeByteLimit(qint64 bytes);

// The URL as messages may show it: no user name or password, no query (it may carry
// tokens), no fragment.
[[nodiscard]] QString urlForMessages(const QString &url);

// The SMTP request kind: with `smtp` set, the request's url is smtp://host:port or
// smtps://host:port, its body the whole RFC 5322 message (headers and MIME parts, CRLF
// line ends), and the answer's httpStatus the server's last SMTP reply code (250 when
// the message was accepted, so ok() holds). Method, headers and contentType are unused.
// The password is handed to libcurl only; it is never part of a message or a log.
struct SmtpEnvelope {
    QString mailFrom;        // the envelope sender (MAIL FROM)
    QStringList rcptTo;      // envelope recipients (RCPT TO), at least one
    bool requireTls = false; // smtp://: STARTTLS must succeed or nothing is sent
    QString user;            // empty: no AUTH
    QString password;
};

struct HttpRequest {
    HttpMethod method = HttpMethod::Get;
    QString url;                                  // already percent-encoded
    QList<QPair<QByteArray, QByteArray>> headers; // e.g. {"Authorization", "Bearer …"}
    QByteArray body;
    QByteArray contentType; // default "application/json" when a body is sent
    TlsOptions tls;
    QString proxyUrl;
    QString connectTo; // libcurl CONNECT_TO "host:port:connect-host:connect-port"
    int connectTimeoutMs = 10000;
    int timeoutMs = 30000; // total per attempt; 0: none (streams)
    // Bytes of (decoded) body kept in memory at most; more ends the request with an
    // error of kind Invalid naming the limit and the URL. 0: no limit.
    qint64 maxBodyBytes = defaultMaxBodyBytes();
    RetryPolicy retry;
    bool http2 = true; // HTTP/2 over TLS when the server offers it
    QByteArray userAgent;
    // Names the request in messages ("GET /api/v1/pods"); never the query, which may
    // carry continue tokens. Default: the method alone.
    QString description;
    std::optional<SmtpEnvelope> smtp; // see SmtpEnvelope: an SMTP submission instead of HTTP

    [[nodiscard]] bool isIdempotent() const {
        return retry.retrySafe || method == HttpMethod::Get || method == HttpMethod::Head;
    }
};

struct HttpResponse {
    int httpStatus = 0;                           // of the last attempt; 0 when no answer came
    QList<QPair<QByteArray, QByteArray>> headers; // of the last answer, names lower-case
    QByteArray body;      // empty for a stream's 2xx body (delivered in chunks instead)
    long httpVersion = 0; // 2 for HTTP/2, 1 for HTTP/1.x
    int attempts = 0;     // retries included
    // No complete answer: kind Network, Timeout, Tls or Cancelled; message from curl.
    std::optional<Error> transportError;

    [[nodiscard]] QByteArray header(const QByteArray &lowerCaseName) const;
    [[nodiscard]] bool ok() const { return !transportError && httpStatus >= 200 && httpStatus < 300; }
};

// Retry-After: delta-seconds or an HTTP date; -1 when absent or unreadable.
[[nodiscard]] int parseRetryAfterMs(const QByteArray &value);

// Exponential backoff with "equal jitter" (half fixed, half random), so synchronized
// clients spread out but a retry never comes immediately. attempt 0 is the first retry.
[[nodiscard]] int backoffDelayMs(const RetryPolicy &policy, int attempt);

} // namespace gq
