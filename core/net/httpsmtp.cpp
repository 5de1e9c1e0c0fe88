#include "core/net/httptransport_p.h"

#include <algorithm>
#include <cstring>

namespace gq::detail {

namespace {

// Hands libcurl the next part of the message (the request's body).
size_t onRead(char *buffer, size_t size, size_t n, void *ud) {
    auto *t = static_cast<Transfer *>(ud);
    const QByteArray &body = t->req.body;
    const size_t len = std::min(size * n, size_t(body.size() - t->uploaded));
    memcpy(buffer, body.constData() + t->uploaded, len);
    t->uploaded += qsizetype(len);
    return len;
}

} // namespace

// The SMTP kind (see SmtpEnvelope): libcurl speaks the dialogue, the message is
// uploaded from the request's body. Only smtp/smtps are allowed, so a mistyped URL can
// never turn a mail into an HTTP request.
void setupSmtp(Transfer &t) {
    CURL *e = t.easy;
    const SmtpEnvelope &smtp = *t.req.smtp;
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    const QByteArray from = QByteArray("<" + smtp.mailFrom.toUtf8() + ">");
    curl_easy_setopt(e, CURLOPT_MAIL_FROM, from.constData());
    for (const QString &to : smtp.rcptTo)
        t.rcpt = curl_slist_append(t.rcpt, QByteArray("<" + to.toUtf8() + ">").constData());
    curl_easy_setopt(e, CURLOPT_MAIL_RCPT, t.rcpt);
    if (smtp.requireTls)
        curl_easy_setopt(e, CURLOPT_USE_SSL, long(CURLUSESSL_ALL));
    if (!smtp.user.isEmpty()) {
        curl_easy_setopt(e, CURLOPT_USERNAME, smtp.user.toUtf8().constData());
        curl_easy_setopt(e, CURLOPT_PASSWORD, smtp.password.toUtf8().constData());
    }
    t.uploaded = 0;
    curl_easy_setopt(e, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(e, CURLOPT_READFUNCTION, &onRead);
    curl_easy_setopt(e, CURLOPT_READDATA, &t);
    curl_easy_setopt(e, CURLOPT_INFILESIZE_LARGE, curl_off_t(t.req.body.size()));
}

} // namespace gq::detail
