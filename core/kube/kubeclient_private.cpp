// KubeClient requests on the shared transport: credentials first (off the loop), then
// the HTTP exchange, then the answer decoded into a KubeResponse or an Error.
#include "core/kube/kubeclient_p.h"

#include "gq_version.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>
#include <QUrlQuery>

namespace gq {

Error cancelledError(const QString &what) {
    return Error::make(Error::Kind::Cancelled, QStringLiteral("%1: cancelled (client shut down)").arg(what));
}

void KubeCall::cancel(HttpTransport &transport) {
    HttpTransport::RequestId id = 0;
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
        id = m_transportId;
    }
    if (id)
        transport.cancel(id);
}

struct KubeClient::Private::Pending {
    std::shared_ptr<KubeCall> call;
    KubeRequest request;
    Done done;
    HttpTransport::ChunkHandler onChunk;
    bool authRetried = false;
};

KubeClient::Private::Private(KubeConnection c, KubeClientOptions o)
    : conn(std::move(c))
    , opts(std::move(o))
    , creds(conn) {
    if (opts.userAgent.isEmpty())
        opts.userAgent = QStringLiteral("gpuquota/" GQ_VERSION_STRING);
    // tls-server-name: verify (and send SNI for) that name while connecting to the
    // server's real address, which CONNECT_TO maps.
    QUrl url(conn.server);
    if (!conn.tlsServerName.isEmpty() && url.isValid()) {
        const int port = url.port(url.scheme() == QLatin1String("http") ? 80 : 443);
        m_connectTo = QStringLiteral("%1:%2:%3:%2").arg(conn.tlsServerName).arg(port).arg(url.host());
        url.setHost(conn.tlsServerName);
    }
    m_baseUrl = url.toString(QUrl::StripTrailingSlash);
    m_plainHttpRefusal = plainHttpRefusal(conn, opts.allowPlainHttpCredentials);
}

void KubeClient::Private::shutdown() {
    transport.shutdown();
    creds.shutdown();
}

int KubeClient::Private::backoffMs(int attempt) const {
    RetryPolicy policy;
    policy.backoffBaseMs = opts.backoffBaseMs;
    policy.backoffMaxMs = opts.backoffMaxMs;
    return backoffDelayMs(policy, attempt);
}

std::shared_ptr<KubeCall> KubeClient::Private::submit(KubeRequest request, Done done,
                                                      HttpTransport::ChunkHandler onChunk) {
    auto p = std::make_shared<Pending>();
    p->call = std::make_shared<KubeCall>();
    p->request = std::move(request);
    p->done = std::move(done);
    p->onChunk = std::move(onChunk);
    auto call = p->call;
    dispatch(std::move(p));
    return call;
}

void KubeClient::Private::dispatch(std::shared_ptr<Pending> p) {
    // Before the credentials are even resolved: an exec plugin need not run for nothing.
    if (m_plainHttpRefusal) {
        Error e = *m_plainHttpRefusal;
        e.message = QStringLiteral("%1: %2").arg(p->request.describe(), e.message);
        p->done(std::move(e));
        return;
    }
    std::weak_ptr<Private> weak = weak_from_this();
    creds.acquire([weak, p](Result<Credentials> c) {
        if (auto self = weak.lock())
            self->onCredentials(p, std::move(c));
        else
            p->done(cancelledError(p->request.describe()));
    });
}

void KubeClient::Private::onCredentials(std::shared_ptr<Pending> p, Result<Credentials> c) {
    if (!c) {
        Error e = c.error();
        if (e.kind == Error::Kind::Cancelled)
            e = cancelledError(p->request.describe());
        p->done(std::move(e));
        return;
    }
    std::unique_lock lock(p->call->m_mutex);
    if (p->call->m_cancelled) {
        lock.unlock();
        p->done(Error::make(Error::Kind::Cancelled, p->request.describe() + QStringLiteral(": cancelled")));
        return;
    }
    // Under the call's lock, so a cancel() racing with this start finds the id.
    std::weak_ptr<Private> weak = weak_from_this();
    const quint64 generation = c->generation;
    p->call->m_transportId = transport.start(
        toHttp(p->request, *c),
        [weak, p, generation](HttpResponse r) {
            if (auto self = weak.lock())
                self->onResponse(p, generation, std::move(r));
            else
                p->done(cancelledError(p->request.describe()));
        },
        p->onChunk);
}

void KubeClient::Private::onResponse(std::shared_ptr<Pending> p, quint64 generation, HttpResponse r) {
    if (r.ok()) {
        KubeResponse k;
        k.httpStatus = r.httpStatus;
        k.body = std::move(r.body);
        k.contentType = r.header("content-type");
        k.httpVersion = r.httpVersion;
        k.attempts = r.attempts;
        p->done(std::move(k));
        return;
    }
    // A token from a file or a plugin may have been rotated or revoked early: resolve
    // it afresh and try once more, without counting that as a retry.
    if (!r.transportError && r.httpStatus == 401 && creds.refreshable() && !p->authRetried) {
        creds.invalidate(generation);
        p->authRetried = true;
        {
            std::lock_guard lock(p->call->m_mutex);
            p->call->m_transportId = 0;
        }
        dispatch(std::move(p));
        return;
    }
    p->done(toError(p->request, r));
}

HttpRequest KubeClient::Private::toHttp(const KubeRequest &req, const Credentials &c) const {
    HttpRequest h;
    h.method = req.method;
    h.url = m_baseUrl + req.path;
    if (!req.query.isEmpty()) {
        QStringList parts;
        for (const auto &kv : req.query)
            parts << QString::fromLatin1(QUrl::toPercentEncoding(kv.first) + '=' +
                                         QUrl::toPercentEncoding(kv.second));
        h.url += QLatin1Char('?') + parts.join(QLatin1Char('&'));
    }
    h.headers.append(qMakePair(QByteArray("Accept"), QByteArray("application/json")));
    if (!c.bearerToken.isEmpty())
        h.headers.append(
            qMakePair(QByteArray("Authorization"), QByteArray("Bearer " + c.bearerToken.toUtf8())));
    h.body = req.body;
    h.contentType = req.contentType;
    h.tls.caPem = conn.caPem;
    h.tls.clientCertPem = c.clientCertPem;
    h.tls.clientKeyPem = c.clientKeyPem;
    h.tls.insecureSkipVerify = conn.insecureSkipTlsVerify;
    h.proxyUrl = conn.proxyUrl;
    h.connectTo = m_connectTo;
    h.connectTimeoutMs = opts.connectTimeoutMs;
    h.timeoutMs = req.timeoutMs >= 0 ? req.timeoutMs : opts.requestTimeoutMs;
    h.maxBodyBytes = req.maxBodyBytes >= 0 ? req.maxBodyBytes : opts.maxResponseBytes;
    h.retry.maxAttempts = req.maxAttempts > 0 ? req.maxAttempts : std::max(1, opts.maxAttempts);
    h.retry.backoffBaseMs = opts.backoffBaseMs;
    h.retry.backoffMaxMs = opts.backoffMaxMs;
    h.retry.maxRetryAfterMs = opts.maxRetryAfterMs;
    h.retry.retrySafe = req.retrySafe;
    // A request with a timeout of its own (a watch) is bounded by it alone.
    h.retry.totalTimeoutMs = req.timeoutMs >= 0 ? 0 : std::max(0, opts.totalTimeoutMs);
    h.http2 = opts.http2;
    h.userAgent = opts.userAgent.toUtf8();
    h.description = req.describe();
    return h;
}

Error KubeClient::Private::toError(const KubeRequest &req, const HttpResponse &r) const {
    Error err;
    if (r.transportError) {
        err = *r.transportError;
        if (err.kind == Error::Kind::Cancelled)
            err.message = QStringLiteral("%1: %2").arg(req.describe(), err.message);
        else
            err.message = QStringLiteral("%1 on %2: %3").arg(req.describe(), conn.server, err.message);
    } else {
        err = errorFromResponse(r.httpStatus, r.body, req.describe());
    }
    // Giving up on a transient failure: say how hard we tried. A definite answer
    // (404, 409, ...) keeps the server's message as it is.
    const bool gaveUp = (r.transportError && r.transportError->kind != Error::Kind::Cancelled) ||
                        r.httpStatus == 429 || r.httpStatus >= 500;
    if (r.attempts > 1 && gaveUp)
        err.message += QStringLiteral(" (after %1 attempts)").arg(r.attempts);
    return err;
}

Error errorFromResponse(int httpStatus, const QByteArray &body, const QString &what) {
    Error e;
    e.httpStatus = httpStatus;
    const QJsonObject st = QJsonDocument::fromJson(body).object();
    e.reason = st.value(QLatin1String("reason")).toString();
    e.message = st.value(QLatin1String("message")).toString();
    if (e.message.isEmpty()) {
        e.message = what.isEmpty() ? QStringLiteral("HTTP %1").arg(httpStatus)
                                   : QStringLiteral("%1: HTTP %2").arg(what).arg(httpStatus);
        const QByteArray text = body.trimmed();
        if (!text.isEmpty() && text.size() < 300 && !text.startsWith('{'))
            e.message += QStringLiteral(": ") + QString::fromUtf8(text);
    }
    const QJsonArray causes =
        st.value(QLatin1String("details")).toObject().value(QLatin1String("causes")).toArray();
    for (const QJsonValue &v : causes) {
        const QJsonObject c = v.toObject();
        e.causes.append({c.value(QLatin1String("field")).toString(),
                         c.value(QLatin1String("message")).toString(),
                         c.value(QLatin1String("reason")).toString()});
    }
    if (!e.causes.isEmpty())
        e.field = e.causes.first().field;
    using K = Error::Kind;
    switch (httpStatus) {
    case 400: e.kind = K::Invalid; break;
    case 401: e.kind = K::Unauthorized; break;
    case 403: e.kind = K::Forbidden; break;
    case 404: e.kind = K::NotFound; break;
    case 409: e.kind = e.reason == QLatin1String("AlreadyExists") ? K::AlreadyExists : K::Conflict; break;
    case 410: e.kind = K::Gone; break;
    case 422: e.kind = K::Invalid; break;
    case 429: e.kind = K::TooManyRequests; break;
    case 504: e.kind = K::Timeout; break;
    default:
        if (httpStatus >= 500)
            e.kind = e.reason == QLatin1String("Timeout") ? K::Timeout : K::Server;
        else
            e.kind = K::Invalid;
    }
    if (e.reason == QLatin1String("Expired"))
        e.kind = K::Gone;
    return e;
}

} // namespace gq
