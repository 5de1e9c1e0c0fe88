#include "core/alerts/alertchannels.h"

#include "core/alerts/alerttext.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>

namespace gq {

Result<QString> readSecret(const QString &file, const QString &env, const QString &field) {
    if (!file.isEmpty()) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return Error::make(Error::Kind::Io,
                               QStringLiteral("cannot read %1 (%2)").arg(file, f.errorString()), field);
        const QByteArray all = f.read(64 * 1024);
        return QString::fromUtf8(all.left(all.indexOf('\n') < 0 ? all.size() : all.indexOf('\n'))).trimmed();
    }
    if (!env.isEmpty()) {
        if (!qEnvironmentVariableIsSet(env.toUtf8().constData()))
            return Error::make(Error::Kind::Config,
                               QStringLiteral("the environment variable %1 is not set").arg(env), field);
        return qEnvironmentVariable(env.toUtf8().constData());
    }
    return QString();
}

namespace {

// Base64 in lines of 76 characters, as MIME requires.
QByteArray base64Lines(const QByteArray &data) {
    const QByteArray b = data.toBase64();
    QByteArray out;
    for (qsizetype i = 0; i < b.size(); i += 76)
        out += b.mid(i, 76) + "\r\n";
    return out;
}

QByteArray encodedWord(const QString &text) {
    return "=?UTF-8?B?" + text.toUtf8().toBase64() + "?=";
}

// An address as a header may show it: no line breaks (no header injection).
QByteArray headerSafe(const QString &s) {
    QString t = s;
    t.remove(QLatin1Char('\r'));
    t.remove(QLatin1Char('\n'));
    return t.toUtf8();
}

QString plainText(const Alert &a) {
    return AlertText::lines(a).join(QLatin1Char('\n')) + QStringLiteral("\n\n") + AlertText::footer(a) +
           QLatin1Char('\n');
}

const char *accent(const Alert &a) {
    switch (a.kind) {
    case Alert::Kind::BudgetThreshold: return a.threshold >= 100 ? "#c62828" : "#ef6c00";
    case Alert::Kind::ClampApplied:
    case Alert::Kind::WebhookNotCalled:
    case Alert::Kind::DatabaseUnwritable: return "#c62828";
    case Alert::Kind::ClampLifted: return "#2e7d32";
    case Alert::Kind::BoostRequestDecided:
        return a.detail == QLatin1String("approved") ? "#2e7d32" : "#c62828";
    default: return "#1565c0";
    }
}

} // namespace

QString alertHtml(const Alert &a) {
    QString body;
    for (const QString &line : AlertText::lines(a))
        body += QStringLiteral("<p style=\"margin:0 0 10px\">%1</p>").arg(line.toHtmlEscaped());
    QString bar;
    if (a.kind == Alert::Kind::BudgetThreshold && a.limitGpuHours > 0) {
        const int pct = int(qBound(0.0, a.usedGpuHours / a.limitGpuHours * 100.0, 100.0));
        bar = QStringLiteral(
                  "<div style=\"background:#e0e0e0;border-radius:4px;height:14px;margin:6px 0 14px\">"
                  "<div style=\"background:%1;width:%2%;height:14px;border-radius:4px\"></div></div>")
                  .arg(QLatin1String(accent(a)))
                  .arg(pct);
    }
    return QStringLiteral(
               "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1</title></head>"
               "<body style=\"margin:0;padding:24px;background:#f4f4f4;font-family:'Noto Sans',"
               "'DejaVu Sans',Arial,sans-serif;color:#212121\">"
               "<div style=\"max-width:560px;margin:0 auto;background:#fff;border-radius:6px;"
               "border-top:6px solid %2;padding:20px 24px\">"
               "<h2 style=\"margin:0 0 14px;font-size:20px\">%1</h2>%3%4"
               "<p style=\"margin:18px 0 0;font-size:12px;color:#757575\">%5</p></div></body></html>")
        .arg(AlertText::title(a).toHtmlEscaped(), QLatin1String(accent(a)), bar, body,
             AlertText::footer(a).toHtmlEscaped());
}

QByteArray buildAlertEmail(const Alert &a, const QString &from, const QString &to, qint64 date) {
    const QByteArray id =
        QCryptographicHash::hash(QByteArray(a.key.toUtf8() + to.toUtf8()), QCryptographicHash::Sha256)
            .toHex()
            .left(32);
    const QByteArray boundary = "gq-" + id;
    const QString domain = from.section(QLatin1Char('@'), 1).isEmpty() ? QStringLiteral("gpuquota.local")
                                                                       : from.section(QLatin1Char('@'), 1);
    QByteArray m;
    m += "From: " + headerSafe(from) + "\r\n";
    m += "To: " + headerSafe(to) + "\r\n";
    m += "Subject: " + encodedWord(AlertText::title(a)) + "\r\n";
    m +=
        "Date: " + QDateTime::fromSecsSinceEpoch(date, Qt::UTC).toString(Qt::RFC2822Date).toLatin1() + "\r\n";
    // The same alert to the same person has the same Message-ID: a resend after a crash
    // between sending and recording is recognisable as a duplicate by mail clients.
    m += "Message-ID: <" + id + "@" + headerSafe(domain) + ">\r\n";
    m += "X-GpuQuota-Alert: " + headerSafe(a.key) + "\r\n";
    m += "MIME-Version: 1.0\r\n";
    m += "Content-Type: multipart/alternative; boundary=\"" + boundary + "\"\r\n\r\n";
    m += "--" + boundary +
         "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n";
    m += base64Lines(plainText(a).toUtf8());
    m += "--" + boundary +
         "\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n";
    m += base64Lines(alertHtml(a).toUtf8());
    m += "--" + boundary + "--\r\n";
    return m;
}

QByteArray buildWebhookBody(const Alert &a) {
    const QString title = AlertText::title(a);
    const QStringList lines = AlertText::lines(a);
    QJsonObject o{
        {QStringLiteral("text"), QStringLiteral("*%1*\n%2").arg(title, lines.join(QLatin1Char('\n')))},
        {QStringLiteral("title"), title},
        {QStringLiteral("lines"), QJsonArray::fromStringList(lines)},
        {QStringLiteral("alert"), alertToJson(a)},
    };
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray webhookSignature(const QByteArray &secret, const QByteArray &body) {
    return "sha256=" + QMessageAuthenticationCode::hash(body, secret, QCryptographicHash::Sha256).toHex();
}

HttpRequest smtpRequest(const SmtpSettings &smtp, const QString &password, const QString &to,
                        QByteArray message) {
    HttpRequest r;
    r.url = smtp.url;
    r.body = std::move(message);
    r.timeoutMs = smtp.timeoutMs;
    r.tls.caPem = smtp.caPem;
    r.description = QStringLiteral("SMTP to %1").arg(to);
    SmtpEnvelope env;
    env.mailFrom = smtp.from;
    env.rcptTo = {to};
    env.requireTls = smtp.requireTls && smtp.url.startsWith(QLatin1String("smtp://"));
    env.user = smtp.user;
    env.password = password;
    r.smtp = env;
    return r;
}

HttpRequest webhookRequest(const WebhookSettings &hook, const QByteArray &secret, QByteArray body,
                           const QString &alertKey) {
    HttpRequest r;
    r.method = HttpMethod::Post;
    r.url = hook.url;
    r.timeoutMs = hook.timeoutMs;
    if (!secret.isEmpty())
        r.headers.append({QByteArray(kSignatureHeader), webhookSignature(secret, body)});
    if (!alertKey.isEmpty())
        r.headers.append({QByteArray(kIdempotencyHeader), alertKey.toUtf8()});
    r.body = std::move(body);
    r.contentType = "application/json";
    r.description = QStringLiteral("POST alert webhook");
    return r;
}

} // namespace gq
