#include "core/net/httprequest.h"

#include "core/domain/clock.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QUrl>

#include <algorithm>

namespace gq {

QString methodName(HttpMethod method) {
    switch (method) {
    case HttpMethod::Get: return QStringLiteral("GET");
    case HttpMethod::Head: return QStringLiteral("HEAD");
    case HttpMethod::Post: return QStringLiteral("POST");
    case HttpMethod::Put: return QStringLiteral("PUT");
    case HttpMethod::Patch: return QStringLiteral("PATCH");
    case HttpMethod::Delete: return QStringLiteral("DELETE");
    }
    return QStringLiteral("GET");
}

qint64 defaultMaxBodyBytes() {
    bool ok = false;
    const qint64 v = qEnvironmentVariable("GQ_MAX_RESPONSE_BYTES").toLongLong(&ok);
    return ok && v > 0 ? v : kDefaultMaxBodyBytes;
}

QString describeByteLimit(qint64 bytes) {
    constexpr qint64 kMiB = 1024 * 1024;
    if (bytes >= kMiB && bytes % kMiB == 0)
        return QStringLiteral("%1 MiB").arg(bytes / kMiB);
    return QStringLiteral("%1 bytes").arg(bytes);
}

QString urlForMessages(const QString &url) {
    const QUrl u(url);
    if (!u.isValid())
        return QStringLiteral("<invalid URL>");
    return u.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment);
}

QByteArray HttpResponse::header(const QByteArray &lowerCaseName) const {
    for (const auto &h : headers) {
        if (h.first == lowerCaseName)
            return h.second;
    }
    return {};
}

int parseRetryAfterMs(const QByteArray &value) {
    const QByteArray v = value.trimmed();
    if (v.isEmpty())
        return -1;
    bool ok = false;
    const int secs = v.toInt(&ok);
    if (ok)
        return secs < 0 ? 0 : secs * 1000;
    // HTTP dates end in "GMT" (RFC 9110 IMF-fixdate), which Qt's RFC 2822 parser
    // does not take; it takes the numeric zone.
    QString text = QString::fromLatin1(v);
    if (text.endsWith(QLatin1String(" GMT")))
        text = text.left(text.size() - 4) + QLatin1String(" +0000");
    const QDateTime when = QDateTime::fromString(text, Qt::RFC2822Date);
    if (!when.isValid())
        return -1;
    return int(std::max<qint64>(0, Clock::system().nowUtc().msecsTo(when)));
}

int backoffDelayMs(const RetryPolicy &policy, int attempt) {
    const qint64 cap = std::min<qint64>(policy.backoffMaxMs, qint64(std::max(1, policy.backoffBaseMs))
                                                                 << std::clamp(attempt, 0, 20));
    const qint64 half = std::max<qint64>(1, cap / 2);
    return int(half + QRandomGenerator::global()->bounded(half + 1));
}

} // namespace gq
