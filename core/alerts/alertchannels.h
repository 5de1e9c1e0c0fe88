#pragma once

#include "core/usage/alert.h"
#include "core/net/httprequest.h"
#include "core/domain/result.h"

#include <QByteArray>
#include <QString>

namespace gq {

// Where email goes. Auth is optional; the password comes from a file (first line) or
// an environment variable, is handed to libcurl only, and never logged.
struct SmtpSettings {
    QString url;            // smtp://mail.example.org:587 (STARTTLS) or smtps://…:465 (TLS)
    QString from;           // the sender: "gpuquota@example.org"
    bool requireTls = true; // smtp://: STARTTLS must succeed or nothing is sent
    QString user;           // empty: no AUTH
    QString passwordFile;   // file holding the password (first line), or
    QString passwordEnv;    // the name of an environment variable holding it
    QByteArray caPem;       // extra trust for the server's certificate (tests, private CAs)
    int timeoutMs = 30000;
    [[nodiscard]] bool enabled() const { return !url.isEmpty(); }
};

// Where webhooks go: a JSON POST with a Slack-compatible `text` field (so a Slack or
// Mattermost incoming webhook shows it as is) and the structured alert beside it.
// With a secret, the header X-GpuQuota-Signature: sha256=<hex of HMAC-SHA256(secret,
// raw body)> lets the receiver check the sender. Every POST carries Idempotency-Key:
// <the alert's key>: delivery is at least once (a receiver slower than the timeout
// gets the retry too), and the key is what a receiver de-duplicates on.
struct WebhookSettings {
    QString url;
    QString secretFile;    // file holding the HMAC secret (first line); empty: no signature
    QString secretEnv;     // or an environment variable holding it
    int timeoutMs = 30000; // alerts.webhook.timeout
    [[nodiscard]] bool enabled() const { return !url.isEmpty(); }
};

inline constexpr char kSignatureHeader[] = "X-GpuQuota-Signature";
inline constexpr char kIdempotencyHeader[] = "Idempotency-Key";

// The first line of `file`, else the value of the environment variable `env`; empty
// when neither is given. An unreadable file or an unset variable is an error naming
// `field` (never the value).
[[nodiscard]] Result<QString> readSecret(const QString &file, const QString &env, const QString &field);

// A complete RFC 5322 message: multipart/alternative with a text/plain and a simple
// text/html part (both UTF-8, base64), the subject RFC 2047-encoded. `date` is the
// Date header's instant.
[[nodiscard]] QByteArray buildAlertEmail(const Alert &alert, const QString &from, const QString &to,
                                         qint64 date);
// The HTML part alone (what the email shows).
[[nodiscard]] QString alertHtml(const Alert &alert);

// {"text": "*title*\nlines…", "title", "lines": [...], "alert": {alertToJson}}.
[[nodiscard]] QByteArray buildWebhookBody(const Alert &alert);
// "sha256=<64 lower-case hex digits>".
[[nodiscard]] QByteArray webhookSignature(const QByteArray &secret, const QByteArray &body);

// The transport requests (one attempt each: the ledger retries with its own backoff).
[[nodiscard]] HttpRequest smtpRequest(const SmtpSettings &smtp, const QString &password, const QString &to,
                                      QByteArray message);
[[nodiscard]] HttpRequest webhookRequest(const WebhookSettings &hook, const QByteArray &secret,
                                         QByteArray body, const QString &alertKey = {});

} // namespace gq
