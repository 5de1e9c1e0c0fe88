#include "core/kubeclient.h"

#include "gq_version.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPromise>
#include <QRandomGenerator>
#include <QUrl>
#include <QUrlQuery>

#include <curl/curl.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace gq {

namespace {

using Clock = std::chrono::steady_clock;

Error makeError(Error::Kind kind, QString message) {
    return Error::make(kind, std::move(message));
}

Error cancelledError(const QString &what) {
    return makeError(Error::Kind::Cancelled, QStringLiteral("%1: cancelled (client shut down)").arg(what));
}

// curl failures that prove the request never reached the server.
bool neverSent(CURLcode code) {
    return code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
           code == CURLE_COULDNT_RESOLVE_PROXY;
}

bool transientTransport(CURLcode code) {
    switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR: // handshake cut short by a dropped connection
        return true;
    default: return false;
    }
}

Error curlError(CURLcode code, const char *errbuf, const KubeRequest &req, const QString &server) {
    const QString detail =
        (errbuf && *errbuf) ? QString::fromUtf8(errbuf) : QString::fromUtf8(curl_easy_strerror(code));
    Error::Kind kind = Error::Kind::Network;
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT: kind = Error::Kind::Timeout; break;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE: kind = Error::Kind::Tls; break;
    default: break;
    }
    return makeError(kind, QStringLiteral("%1 on %2: %3").arg(req.describe(), server, detail));
}

// Retry-After is either delta-seconds or an HTTP date.
int parseRetryAfterMs(const QByteArray &value) {
    const QByteArray v = value.trimmed();
    if (v.isEmpty())
        return -1;
    bool ok = false;
    const int secs = v.toInt(&ok);
    if (ok)
        return secs < 0 ? 0 : secs * 1000;
    const QDateTime when = QDateTime::fromString(QString::fromLatin1(v), Qt::RFC2822Date);
    if (!when.isValid())
        return -1;
    return int(std::max<qint64>(0, QDateTime::currentDateTimeUtc().msecsTo(when)));
}

struct Transfer {
    quint64 id = 0;
    KubeRequest req;
    int attempts = 0;
    int maxAttempts = 1;
    int timeoutMs = 0;
    bool streaming = false;
    bool authRetried = false;

    CURL *easy = nullptr;
    curl_slist *headers = nullptr;
    curl_slist *connectTo = nullptr;
    QByteArray body;
    QByteArray contentType;
    QByteArray retryAfter;
    long status = 0;
    char errbuf[CURL_ERROR_SIZE] = {};

    std::function<bool(const QByteArray &chunk)> onChunk; // streaming, worker thread; false aborts
    std::function<void(Result<KubeResponse>)> done;       // worker thread

    void resetAttempt() {
        body.clear();
        contentType.clear();
        retryAfter.clear();
        status = 0;
        errbuf[0] = 0;
    }
    ~Transfer() {
        if (headers)
            curl_slist_free_all(headers);
        if (connectTo)
            curl_slist_free_all(connectTo);
        if (easy)
            curl_easy_cleanup(easy);
    }
};

struct CurlGlobal {
    CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
};

} // namespace

class KubeClient::Private : public std::enable_shared_from_this<KubeClient::Private> {
public:
    Private(KubeConnection c, KubeClientOptions o)
        : conn(std::move(c))
        , opts(std::move(o))
        , creds(conn) {
        static CurlGlobal global;
        if (opts.userAgent.isEmpty())
            opts.userAgent = QStringLiteral("gpuquota/" GQ_VERSION_STRING);
        // tls-server-name: verify (and send SNI for) that name while connecting to the
        // server's real address, which CONNECT_TO maps.
        QUrl url(conn.server);
        if (!conn.tlsServerName.isEmpty() && url.isValid()) {
            const int port = url.port(url.scheme() == QLatin1String("http") ? 80 : 443);
            connectTo = QStringLiteral("%1:%2:%3:%2").arg(conn.tlsServerName).arg(port).arg(url.host());
            url.setHost(conn.tlsServerName);
        }
        baseUrl = url.toString(QUrl::StripTrailingSlash);
        multi = curl_multi_init();
        curl_multi_setopt(multi, CURLMOPT_PIPELINING, long(CURLPIPE_MULTIPLEX));
        worker = std::thread([this] { run(); });
    }

    ~Private() { shutdown(); }

    void shutdown() {
        {
            std::lock_guard lock(mutex);
            if (stopping)
                return;
            stopping = true;
        }
        curl_multi_wakeup(multi);
        if (worker.joinable())
            worker.join();
        curl_multi_cleanup(multi);
        multi = nullptr;
    }

    quint64 submit(KubeRequest req, std::function<void(Result<KubeResponse>)> done,
                   std::function<bool(const QByteArray &)> onChunk = {}) {
        auto t = std::make_unique<Transfer>();
        t->id = nextId.fetch_add(1);
        t->timeoutMs = req.timeoutMs >= 0 ? req.timeoutMs : opts.requestTimeoutMs;
        t->maxAttempts = req.maxAttempts > 0 ? req.maxAttempts : std::max(1, opts.maxAttempts);
        t->streaming = bool(onChunk);
        t->onChunk = std::move(onChunk);
        t->done = std::move(done);
        t->req = std::move(req);
        const quint64 id = t->id;
        {
            std::unique_lock lock(mutex);
            if (stopping) {
                lock.unlock();
                t->done(cancelledError(t->req.describe()));
                return id;
            }
            incoming.push_back(std::move(t));
        }
        curl_multi_wakeup(multi);
        return id;
    }

    void cancel(quint64 id) {
        {
            std::lock_guard lock(mutex);
            if (stopping)
                return;
            cancels.push_back(id);
        }
        curl_multi_wakeup(multi);
    }

    // Runs fn on the worker thread after delayMs (never if the client shuts down first).
    void schedule(int delayMs, std::function<void()> fn) {
        {
            std::lock_guard lock(mutex);
            if (stopping)
                return;
            newTimers.emplace_back(Clock::now() + std::chrono::milliseconds(delayMs), std::move(fn));
        }
        curl_multi_wakeup(multi);
    }

    int backoffMs(int attempt) const {
        // Exponential with "equal jitter": half fixed, half random, so synchronized
        // clients spread out but a retry never comes immediately.
        const qint64 cap =
            std::min<qint64>(opts.backoffMaxMs, qint64(opts.backoffBaseMs) << std::min(attempt, 20));
        const qint64 half = std::max<qint64>(1, cap / 2);
        return int(half + QRandomGenerator::global()->bounded(half + 1));
    }

    KubeConnection conn;
    KubeClientOptions opts;
    KubeCredentials creds;
    QString baseUrl;
    QString connectTo;

    std::atomic<int> requestCount{0};
    std::atomic<int> retryCount{0};
    std::atomic<long> lastVersion{0};

private:
    void run();
    void startAttempt(std::unique_ptr<Transfer> t);
    void finished(CURL *easy, CURLcode code);
    void complete(std::unique_ptr<Transfer> t, Result<KubeResponse> result) {
        auto done = std::move(t->done);
        t.reset(); // release curl resources before user code runs
        if (done)
            done(std::move(result));
    }
    void doCancel(quint64 id);

    static size_t onWrite(char *ptr, size_t size, size_t n, void *ud);
    static size_t onHeader(char *ptr, size_t size, size_t n, void *ud);

    CURLM *multi = nullptr;
    std::thread worker;
    std::atomic<quint64> nextId{1};

    std::mutex mutex; // guards the fields below
    bool stopping = false;
    std::deque<std::unique_ptr<Transfer>> incoming;
    std::vector<quint64> cancels;
    std::vector<std::pair<Clock::time_point, std::function<void()>>> newTimers;

    // worker thread only
    std::map<CURL *, std::unique_ptr<Transfer>> active;
    std::multimap<Clock::time_point, std::unique_ptr<Transfer>> delayed;
    std::multimap<Clock::time_point, std::function<void()>> timers;
};

size_t KubeClient::Private::onWrite(char *ptr, size_t size, size_t n, void *ud) {
    auto *t = static_cast<Transfer *>(ud);
    const size_t len = size * n;
    if (t->status == 0)
        curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->status);
    if (t->streaming && t->status >= 200 && t->status < 300) {
        if (!t->onChunk(QByteArray(ptr, qsizetype(len))))
            return 0; // aborts the transfer (CURLE_WRITE_ERROR)
        return len;
    }
    t->body.append(ptr, qsizetype(len));
    return len;
}

size_t KubeClient::Private::onHeader(char *ptr, size_t size, size_t n, void *ud) {
    auto *t = static_cast<Transfer *>(ud);
    const size_t len = size * n;
    const QByteArray line = QByteArray(ptr, qsizetype(len)).trimmed();
    if (line.startsWith("HTTP/")) { // a new response (after 100-continue or a redirect)
        t->contentType.clear();
        t->retryAfter.clear();
    } else if (const qsizetype colon = line.indexOf(':'); colon > 0) {
        const QByteArray name = line.left(colon).trimmed().toLower();
        if (name == "content-type")
            t->contentType = line.mid(colon + 1).trimmed();
        else if (name == "retry-after")
            t->retryAfter = line.mid(colon + 1).trimmed();
    }
    return len;
}

void KubeClient::Private::startAttempt(std::unique_ptr<Transfer> t) {
    auto material = creds.current();
    if (!material) {
        complete(std::move(t), material.error());
        return;
    }
    ++t->attempts;
    ++requestCount;
    t->resetAttempt();
    if (t->headers) {
        curl_slist_free_all(t->headers);
        t->headers = nullptr;
    }
    if (t->connectTo) {
        curl_slist_free_all(t->connectTo);
        t->connectTo = nullptr;
    }
    if (t->easy)
        curl_easy_cleanup(t->easy);
    CURL *e = t->easy = curl_easy_init();

    QString url = baseUrl + t->req.path;
    if (!t->req.query.isEmpty()) {
        QStringList parts;
        for (const auto &kv : t->req.query)
            parts << QString::fromLatin1(QUrl::toPercentEncoding(kv.first) + '=' +
                                         QUrl::toPercentEncoding(kv.second));
        url += QLatin1Char('?') + parts.join(QLatin1Char('&'));
    }
    const QByteArray urlBytes = url.toUtf8();
    curl_easy_setopt(e, CURLOPT_URL, urlBytes.constData());
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->errbuf);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Private::onWrite);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t.get());
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &Private::onHeader);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, t.get());
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, long(opts.connectTimeoutMs));
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, long(t->timeoutMs));
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION,
                     long(opts.http2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1));
    const QByteArray ua = opts.userAgent.toUtf8();
    curl_easy_setopt(e, CURLOPT_USERAGENT, ua.constData());

    // TLS material is handed over in memory; CURL_BLOB_COPY lets libcurl own a copy.
    if (!conn.caPem.isEmpty()) {
        curl_blob blob{const_cast<char *>(conn.caPem.constData()), size_t(conn.caPem.size()), CURL_BLOB_COPY};
        curl_easy_setopt(e, CURLOPT_CAINFO_BLOB, &blob);
    }
    if (!material->clientCertPem.isEmpty()) {
        curl_blob cert{const_cast<char *>(material->clientCertPem.constData()),
                       size_t(material->clientCertPem.size()), CURL_BLOB_COPY};
        curl_blob key{const_cast<char *>(material->clientKeyPem.constData()),
                      size_t(material->clientKeyPem.size()), CURL_BLOB_COPY};
        curl_easy_setopt(e, CURLOPT_SSLCERT_BLOB, &cert);
        curl_easy_setopt(e, CURLOPT_SSLCERTTYPE, "PEM");
        curl_easy_setopt(e, CURLOPT_SSLKEY_BLOB, &key);
        curl_easy_setopt(e, CURLOPT_SSLKEYTYPE, "PEM");
    }
    if (conn.insecureSkipTlsVerify) {
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (!connectTo.isEmpty()) {
        t->connectTo = curl_slist_append(nullptr, connectTo.toUtf8().constData());
        curl_easy_setopt(e, CURLOPT_CONNECT_TO, t->connectTo);
    }
    if (!conn.proxyUrl.isEmpty()) {
        const QByteArray proxy = conn.proxyUrl.toUtf8();
        curl_easy_setopt(e, CURLOPT_PROXY, proxy.constData());
    }

    curl_slist *h = nullptr;
    h = curl_slist_append(h, "Accept: application/json");
    h = curl_slist_append(h, "Expect:"); // no 100-continue round trip
    if (!material->bearerToken.isEmpty())
        h = curl_slist_append(
            h, QByteArray("Authorization: Bearer " + material->bearerToken.toUtf8()).constData());
    switch (t->req.method) {
    case HttpMethod::Get: curl_easy_setopt(e, CURLOPT_HTTPGET, 1L); break;
    case HttpMethod::Head: curl_easy_setopt(e, CURLOPT_NOBODY, 1L); break;
    case HttpMethod::Post: curl_easy_setopt(e, CURLOPT_POST, 1L); break;
    case HttpMethod::Put: curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, "PUT"); break;
    case HttpMethod::Patch: curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, "PATCH"); break;
    case HttpMethod::Delete: curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, "DELETE"); break;
    }
    if (!t->req.body.isEmpty() || t->req.method == HttpMethod::Post || t->req.method == HttpMethod::Put ||
        t->req.method == HttpMethod::Patch) {
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(t->req.body.size()));
        curl_easy_setopt(e, CURLOPT_COPYPOSTFIELDS, t->req.body.constData());
        const QByteArray ct =
            t->req.contentType.isEmpty() ? QByteArray("application/json") : t->req.contentType;
        h = curl_slist_append(h, QByteArray("Content-Type: " + ct).constData());
    }
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
    t->headers = h;
    curl_multi_add_handle(multi, e);
    active.emplace(e, std::move(t));
}

void KubeClient::Private::finished(CURL *easy, CURLcode code) {
    auto it = active.find(easy);
    if (it == active.end())
        return;
    std::unique_ptr<Transfer> t = std::move(it->second);
    active.erase(it);
    curl_multi_remove_handle(multi, easy);

    long status = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    long version = 0;
    curl_easy_getinfo(easy, CURLINFO_HTTP_VERSION, &version);
    const long httpVersion = version == CURL_HTTP_VERSION_2_0 ? 2 : (version == 0 ? 0 : 1);
    if (httpVersion)
        lastVersion = httpVersion;
    t->status = status;

    if (code == CURLE_OK && status >= 200 && status < 300) {
        KubeResponse r;
        r.httpStatus = int(status);
        r.body = std::move(t->body);
        r.contentType = t->contentType;
        r.httpVersion = httpVersion;
        r.attempts = t->attempts;
        complete(std::move(t), std::move(r));
        return;
    }

    // A streaming transfer aborted by its own consumer is not a failure to retry.
    if (code == CURLE_WRITE_ERROR && t->streaming) {
        complete(std::move(t),
                 makeError(Error::Kind::Cancelled, t->req.describe() + QStringLiteral(": stream closed")));
        return;
    }

    Error err = code != CURLE_OK ? curlError(code, t->errbuf, t->req, conn.server)
                                 : errorFromResponse(int(status), t->body, t->req.describe());

    // An exec-plugin token may have been revoked early: fetch a fresh one once.
    if (code == CURLE_OK && status == 401 && conn.exec && !t->authRetried) {
        creds.invalidate();
        t->authRetried = true;
        --t->attempts;
        startAttempt(std::move(t));
        return;
    }

    bool retry = false;
    int delay = -1;
    if (t->attempts < t->maxAttempts) {
        if (code != CURLE_OK) {
            retry = neverSent(code) || (t->req.isIdempotent() && transientTransport(code));
        } else if (status == 429) {
            retry = true; // rejected by priority-and-fairness before any processing
            delay = parseRetryAfterMs(t->retryAfter);
        } else if (status >= 500 && status != 501 && t->req.isIdempotent()) {
            retry = true;
            delay = parseRetryAfterMs(t->retryAfter);
        }
    }
    if (!retry) {
        // Giving up on a transient failure: say how hard we tried. A definite answer
        // (404, 409, ...) keeps the server's message as it is.
        const bool gaveUp = code != CURLE_OK || status == 429 || status >= 500;
        if (t->attempts > 1 && gaveUp)
            err.message += QStringLiteral(" (after %1 attempts)").arg(t->attempts);
        complete(std::move(t), std::move(err));
        return;
    }
    if (delay < 0)
        delay = backoffMs(t->attempts - 1);
    delay = std::min(delay, opts.maxRetryAfterMs);
    ++retryCount;
    curl_easy_cleanup(t->easy);
    t->easy = nullptr;
    delayed.emplace(Clock::now() + std::chrono::milliseconds(delay), std::move(t));
}

void KubeClient::Private::doCancel(quint64 id) {
    for (auto it = active.begin(); it != active.end(); ++it) {
        if (it->second->id == id) {
            std::unique_ptr<Transfer> t = std::move(it->second);
            curl_multi_remove_handle(multi, it->first);
            active.erase(it);
            complete(std::move(t), makeError(Error::Kind::Cancelled, QStringLiteral("cancelled")));
            return;
        }
    }
    for (auto it = delayed.begin(); it != delayed.end(); ++it) {
        if (it->second->id == id) {
            std::unique_ptr<Transfer> t = std::move(it->second);
            delayed.erase(it);
            complete(std::move(t), makeError(Error::Kind::Cancelled, QStringLiteral("cancelled")));
            return;
        }
    }
}

void KubeClient::Private::run() {
    for (;;) {
        std::deque<std::unique_ptr<Transfer>> starting;
        std::vector<quint64> cancelling;
        std::vector<std::pair<Clock::time_point, std::function<void()>>> adding;
        bool stop = false;
        {
            std::lock_guard lock(mutex);
            starting.swap(incoming);
            cancelling.swap(cancels);
            adding.swap(newTimers);
            stop = stopping;
        }
        if (stop) {
            for (auto &t : starting)
                complete(std::move(t), cancelledError(t ? t->req.describe() : QString()));
            break;
        }
        for (auto &timer : adding)
            timers.emplace(timer.first, std::move(timer.second));
        for (auto &t : starting)
            startAttempt(std::move(t));
        for (quint64 id : cancelling)
            doCancel(id);

        const auto now = Clock::now();
        while (!timers.empty() && timers.begin()->first <= now) {
            auto fn = std::move(timers.begin()->second);
            timers.erase(timers.begin());
            fn();
        }
        while (!delayed.empty() && delayed.begin()->first <= now) {
            std::unique_ptr<Transfer> t = std::move(delayed.begin()->second);
            delayed.erase(delayed.begin());
            startAttempt(std::move(t));
        }

        int running = 0;
        curl_multi_perform(multi, &running);
        int queued = 0;
        while (CURLMsg *msg = curl_multi_info_read(multi, &queued)) {
            if (msg->msg == CURLMSG_DONE)
                finished(msg->easy_handle, msg->data.result);
        }

        int waitMs = 1000;
        const auto next = [&](Clock::time_point when) {
            const auto ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(when - Clock::now()).count();
            waitMs = int(std::clamp<qint64>(ms, 0, waitMs));
        };
        if (!timers.empty())
            next(timers.begin()->first);
        if (!delayed.empty())
            next(delayed.begin()->first);
        curl_multi_poll(multi, nullptr, 0, waitMs, nullptr);
    }

    // Shutting down: every pending request learns it was cancelled.
    for (auto &[easy, t] : active) {
        curl_multi_remove_handle(multi, easy);
        const QString what = t->req.describe();
        complete(std::move(t), cancelledError(what));
    }
    active.clear();
    for (auto &[when, t] : delayed) {
        const QString what = t->req.describe();
        complete(std::move(t), cancelledError(what));
    }
    delayed.clear();
    timers.clear();
}

// ---------------------------------------------------------------------------------

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

namespace {

template <typename T> QFuture<Result<T>> readyFuture(Result<T> value) {
    QPromise<Result<T>> p;
    auto f = p.future();
    p.start();
    p.addResult(std::move(value));
    p.finish();
    return f;
}

Result<QJsonObject> toObject(Result<KubeResponse> r) {
    if (!r)
        return r.error();
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(r->body, &perr);
    if (!doc.isObject())
        return makeError(Error::Kind::Parse,
                         QStringLiteral("the server answered with something that is not a JSON object (%1)")
                             .arg(perr.errorString()));
    return doc.object();
}

Result<ObjectList> toList(const Result<KubeResponse> &r) {
    if (!r)
        return r.error();
    const QJsonDocument doc = QJsonDocument::fromJson(r->body);
    if (!doc.isObject())
        return makeError(Error::Kind::Parse,
                         QStringLiteral("the server answered a list with something that is not JSON"));
    const QJsonObject obj = doc.object();
    ObjectList list;
    list.pages = 1;
    list.kind = obj.value(QLatin1String("kind")).toString();
    list.apiVersion = obj.value(QLatin1String("apiVersion")).toString();
    const QJsonObject meta = obj.value(QLatin1String("metadata")).toObject();
    list.resourceVersion = meta.value(QLatin1String("resourceVersion")).toString();
    list.continueToken = meta.value(QLatin1String("continue")).toString();
    const QJsonArray items = obj.value(QLatin1String("items")).toArray();
    list.items.reserve(items.size());
    for (const QJsonValue &v : items)
        list.items.append(v.toObject());
    return list;
}

void addWriteOptions(KubeRequest &req, const WriteOptions &o) {
    if (o.dryRun)
        req.query.append({QStringLiteral("dryRun"), QStringLiteral("All")});
    if (!o.fieldManager.isEmpty() && req.method != HttpMethod::Delete)
        req.query.append({QStringLiteral("fieldManager"), o.fieldManager});
}

KubeRequest pageRequest(const KubeResource &resource, const QString &ns, const ListOptions &o,
                        const QString &continueToken) {
    KubeRequest req;
    req.path = resource.path(ns);
    if (!o.labelSelector.isEmpty())
        req.query.append({QStringLiteral("labelSelector"), o.labelSelector});
    if (!o.fieldSelector.isEmpty())
        req.query.append({QStringLiteral("fieldSelector"), o.fieldSelector});
    if (o.limit > 0)
        req.query.append({QStringLiteral("limit"), QString::number(o.limit)});
    if (!continueToken.isEmpty())
        req.query.append({QStringLiteral("continue"), continueToken});
    else if (!o.resourceVersion.isEmpty())
        req.query.append({QStringLiteral("resourceVersion"), o.resourceVersion});
    return req;
}

QString objectNamespace(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("namespace")).toString();
}
QString objectName(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
}

// Splits a watch stream into top-level JSON objects, across chunk boundaries and
// whether or not the server puts newlines between them.
class JsonStreamSplitter {
public:
    template <typename Fn> void feed(const QByteArray &chunk, Fn &&onObject) {
        m_buf.append(chunk);
        qsizetype i = m_scan;
        const qsizetype n = m_buf.size();
        const char *p = m_buf.constData();
        for (; i < n; ++i) {
            const char c = p[i];
            if (m_inString) {
                if (m_escape)
                    m_escape = false;
                else if (c == '\\')
                    m_escape = true;
                else if (c == '"')
                    m_inString = false;
                continue;
            }
            if (c == '"') {
                m_inString = true;
            } else if (c == '{') {
                if (m_depth++ == 0)
                    m_start = i;
            } else if (c == '}') {
                if (m_depth > 0 && --m_depth == 0) {
                    onObject(QByteArray(p + m_start, i - m_start + 1));
                    p = m_buf.constData();
                }
            }
        }
        if (m_depth == 0) {
            m_buf.clear();
            m_scan = 0;
        } else {
            // Keep only the unfinished object.
            m_buf.remove(0, m_start);
            m_scan = m_buf.size();
            m_start = 0;
        }
    }

private:
    QByteArray m_buf;
    qsizetype m_scan = 0;
    qsizetype m_start = 0;
    int m_depth = 0;
    bool m_inString = false;
    bool m_escape = false;
};

} // namespace

// ---------------------------------------------------------------------------------

class WatchImpl final : public KubeWatch, public std::enable_shared_from_this<WatchImpl> {
public:
    WatchImpl(std::weak_ptr<KubeClient::Private> client, KubeResource resource, QString ns,
              WatchOptions options, QObject *context, WatchHandlers handlers)
        : m_client(std::move(client))
        , m_resource(std::move(resource))
        , m_ns(std::move(ns))
        , m_options(std::move(options))
        , m_context(context)
        , m_hasContext(context != nullptr)
        , m_handlers(std::move(handlers))
        , m_lastRv(m_options.resourceVersion) {}

    ~WatchImpl() override { stop(); }

    void stop() override {
        if (m_stopped.exchange(true))
            return;
        if (auto d = m_client.lock()) {
            if (m_transferId)
                d->cancel(m_transferId);
        }
    }
    bool isActive() const override { return !m_stopped; }
    QString lastResourceVersion() const override {
        std::lock_guard lock(m_mutex);
        return m_lastRv;
    }
    QDeadlineTimer nextAttempt() const override {
        std::lock_guard lock(m_mutex);
        return m_nextAttempt;
    }
    void retryNow() override {
        auto d = m_client.lock();
        if (!d || m_stopped)
            return;
        // On the worker, like every open: whether it still waits is decided there.
        std::weak_ptr<WatchImpl> weak = weak_from_this();
        d->schedule(0, [weak] {
            if (auto self = weak.lock())
                self->reopen(0);
        });
    }

    void open() {
        auto d = m_client.lock();
        if (!d || m_stopped)
            return;
        KubeRequest req;
        req.path = m_resource.path(m_ns);
        req.query.append({QStringLiteral("watch"), QStringLiteral("true")});
        const QString rv = lastResourceVersion();
        if (!rv.isEmpty())
            req.query.append({QStringLiteral("resourceVersion"), rv});
        if (m_options.allowBookmarks)
            req.query.append({QStringLiteral("allowWatchBookmarks"), QStringLiteral("true")});
        if (!m_options.labelSelector.isEmpty())
            req.query.append({QStringLiteral("labelSelector"), m_options.labelSelector});
        if (!m_options.fieldSelector.isEmpty())
            req.query.append({QStringLiteral("fieldSelector"), m_options.fieldSelector});
        if (m_options.timeoutSeconds > 0) {
            req.query.append({QStringLiteral("timeoutSeconds"), QString::number(m_options.timeoutSeconds)});
            req.timeoutMs = m_options.timeoutSeconds * 1000 + d->opts.watchGraceMs;
        } else {
            req.timeoutMs = 0;
        }
        req.maxAttempts = 1; // this class retries, from the last resourceVersion
        m_splitter = JsonStreamSplitter();
        m_streamError.reset();
        m_receivedSinceOpen = false;
        std::weak_ptr<WatchImpl> weak = weak_from_this();
        if (m_handlers.connected)
            post([h = m_handlers.connected, rv] { h(rv); });
        const quint64 id = d->submit(
            std::move(req),
            [weak](Result<KubeResponse> r) {
                if (auto self = weak.lock())
                    self->onDone(std::move(r));
            },
            [weak](const QByteArray &chunk) {
                auto self = weak.lock();
                return self && self->onChunk(chunk);
            });
        m_transferId = id;
        if (m_stopped) // stop() raced with this (re)open
            d->cancel(id);
    }

private:
    template <typename Fn> void post(Fn &&fn) {
        if (m_stopped)
            return;
        if (!m_hasContext) {
            fn();
            return;
        }
        QObject *ctx = m_context.data();
        if (!ctx) {
            stop();
            return;
        }
        std::weak_ptr<WatchImpl> weak = weak_from_this();
        QMetaObject::invokeMethod(
            ctx,
            [weak, fn = std::forward<Fn>(fn)]() mutable {
                auto self = weak.lock();
                if (self && !self->m_stopped)
                    fn();
            },
            Qt::QueuedConnection);
    }

    bool onChunk(const QByteArray &chunk) {
        if (m_stopped)
            return false;
        QList<WatchEvent> events;
        bool keepGoing = true;
        m_splitter.feed(chunk, [&](const QByteArray &objText) {
            if (!keepGoing)
                return;
            const QJsonObject ev = QJsonDocument::fromJson(objText).object();
            const QString type = ev.value(QLatin1String("type")).toString();
            QJsonObject obj = ev.value(QLatin1String("object")).toObject();
            if (type == QLatin1String("ERROR")) {
                m_streamError = errorFromResponse(obj.value(QLatin1String("code")).toInt(),
                                                  QJsonDocument(obj).toJson(QJsonDocument::Compact),
                                                  QStringLiteral("watch %1").arg(m_resource.plural));
                keepGoing = false;
                return;
            }
            WatchEvent we;
            if (type == QLatin1String("ADDED"))
                we.type = WatchEvent::Type::Added;
            else if (type == QLatin1String("MODIFIED"))
                we.type = WatchEvent::Type::Modified;
            else if (type == QLatin1String("DELETED"))
                we.type = WatchEvent::Type::Deleted;
            else if (type == QLatin1String("BOOKMARK"))
                we.type = WatchEvent::Type::Bookmark;
            else
                return; // unknown event types are skipped, as client-go does
            we.resourceVersion = obj.value(QLatin1String("metadata"))
                                     .toObject()
                                     .value(QLatin1String("resourceVersion"))
                                     .toString();
            we.object = std::move(obj);
            if (!we.resourceVersion.isEmpty()) {
                std::lock_guard lock(m_mutex);
                m_lastRv = we.resourceVersion;
            }
            events.append(std::move(we));
        });
        m_receivedSinceOpen = true;
        if (!events.isEmpty() && m_handlers.events)
            post([h = m_handlers.events, events = std::move(events)] { h(events); });
        return keepGoing;
    }

    void onDone(Result<KubeResponse> r) {
        if (m_stopped)
            return;
        std::optional<Error> err = m_streamError;
        if (!err && !r && r.error().kind != Error::Kind::Cancelled)
            err = r.error();
        if (m_receivedSinceOpen)
            m_failures = 0;
        if (!err) {
            if (!m_options.resume) {
                post([this, h = m_handlers.closed] {
                    m_stopped = true;
                    if (h)
                        h();
                });
                return;
            }
            open(); // the server ended the stream (timeoutSeconds): continue from the last RV
            return;
        }
        using K = Error::Kind;
        const bool terminal = err->kind == K::Gone || err->kind == K::Unauthorized ||
                              err->kind == K::Forbidden || err->kind == K::NotFound ||
                              err->kind == K::Invalid || err->kind == K::Tls || err->kind == K::Config ||
                              !m_options.resume;
        if (terminal) {
            post([this, h = m_handlers.failed, e = *err] {
                m_stopped = true;
                if (h)
                    h(e);
            });
            return;
        }
        auto d = m_client.lock();
        if (!d)
            return;
        const int delay = d->backoffMs(m_failures++);
        const quint64 ticket = ++m_waits;
        m_waitTicket = ticket;
        {
            std::lock_guard lock(m_mutex);
            m_nextAttempt = QDeadlineTimer(delay);
        }
        if (m_handlers.retrying)
            post([h = m_handlers.retrying, e = *err] { h(e); });
        std::weak_ptr<WatchImpl> weak = weak_from_this();
        d->schedule(delay, [weak, ticket] {
            if (auto self = weak.lock())
                self->reopen(ticket);
        });
    }

    // Worker thread. ticket 0: retryNow (any wait); else only the wait it was scheduled for.
    void reopen(quint64 ticket) {
        if (m_waitTicket == 0 || (ticket != 0 && ticket != m_waitTicket))
            return; // not waiting, or that wait was already cut short
        m_waitTicket = 0;
        {
            std::lock_guard lock(m_mutex);
            m_nextAttempt = QDeadlineTimer(QDeadlineTimer::Forever);
        }
        open();
    }

    std::weak_ptr<KubeClient::Private> m_client;
    KubeResource m_resource;
    QString m_ns;
    WatchOptions m_options;
    QPointer<QObject> m_context;
    bool m_hasContext;
    WatchHandlers m_handlers;

    mutable std::mutex m_mutex;
    QString m_lastRv;
    QDeadlineTimer m_nextAttempt{QDeadlineTimer::Forever};
    std::atomic<bool> m_stopped{false};
    std::atomic<quint64> m_transferId{0};

    // worker thread only
    JsonStreamSplitter m_splitter;
    std::optional<Error> m_streamError;
    bool m_receivedSinceOpen = false;
    int m_failures = 0;
    quint64 m_waitTicket = 0; // non-zero while waiting to re-open; identifies that wait
    quint64 m_waits = 0;      // waits so far: tickets are never reused
};

// ---------------------------------------------------------------------------------

KubeClient::KubeClient(KubeConnection connection, KubeClientOptions options)
    : d(std::make_shared<Private>(std::move(connection), std::move(options))) {}

KubeClient::~KubeClient() {
    d->shutdown();
}

Result<std::shared_ptr<KubeClient>>
KubeClient::fromKubeconfig(const QString &kubeconfigPath, const QString &context, KubeClientOptions options) {
    auto cfg = KubeConfig::load(kubeconfigPath);
    if (!cfg)
        return cfg.error();
    auto conn = cfg->connection(context);
    if (!conn)
        return conn.error();
    return std::make_shared<KubeClient>(std::move(*conn), std::move(options));
}

QString KubeClient::server() const {
    return d->conn.server;
}
QString KubeClient::contextName() const {
    return d->conn.contextName;
}
QString KubeClient::defaultNamespace() const {
    return d->conn.namespaceName;
}
bool KubeClient::insecureSkipTlsVerify() const {
    return d->conn.insecureSkipTlsVerify;
}
const KubeClientOptions &KubeClient::options() const {
    return d->opts;
}
int KubeClient::requestsSent() const {
    return d->requestCount;
}
int KubeClient::retries() const {
    return d->retryCount;
}
long KubeClient::lastHttpVersion() const {
    return d->lastVersion;
}

QFuture<Result<KubeResponse>> KubeClient::send(KubeRequest request) {
    auto promise = std::make_shared<QPromise<Result<KubeResponse>>>();
    auto future = promise->future();
    promise->start();
    d->submit(std::move(request), [promise](Result<KubeResponse> r) {
        promise->addResult(std::move(r));
        promise->finish();
    });
    return future;
}

QFuture<Result<QJsonObject>> KubeClient::get(const KubeResource &resource, const QString &ns,
                                             const QString &name, const QString &subresource) {
    KubeRequest req;
    req.path = resource.path(ns, name, subresource);
    return send(std::move(req)).then(&toObject);
}

QFuture<Result<ObjectList>> KubeClient::listPage(const KubeResource &resource, const QString &ns,
                                                 const ListOptions &options) {
    return send(pageRequest(resource, ns, options, options.continueToken)).then([](Result<KubeResponse> r) {
        return toList(r);
    });
}

QFuture<Result<ObjectList>> KubeClient::list(const KubeResource &resource, const QString &ns,
                                             ListOptions options) {
    struct State {
        QPromise<Result<ObjectList>> promise;
        ObjectList acc;
        int restarts = 0;
        std::function<void(const QString &)> step;
    };
    auto st = std::make_shared<State>();
    auto future = st->promise.future();
    st->promise.start();
    std::weak_ptr<Private> weak = d;
    auto finish = [](const std::shared_ptr<State> &s, Result<ObjectList> r) {
        s->promise.addResult(std::move(r));
        s->promise.finish();
        s->step = nullptr; // breaks the State -> step -> State cycle
    };
    st->step = [st_w = std::weak_ptr<State>(st), weak, resource, ns, options, finish](const QString &cont) {
        auto s = st_w.lock();
        auto dd = weak.lock();
        if (!s)
            return;
        if (!dd) {
            finish(s, cancelledError(QStringLiteral("list ") + resource.plural));
            return;
        }
        dd->submit(pageRequest(resource, ns, options, cont), [s, cont, finish](Result<KubeResponse> r) {
            auto page = toList(r);
            if (!page) {
                // An expired continue token: the snapshot is gone, start over.
                if (page.error().kind == Error::Kind::Gone && !cont.isEmpty() && s->restarts < 2) {
                    ++s->restarts;
                    s->acc = ObjectList();
                    s->step(QString());
                    return;
                }
                finish(s, page.error());
                return;
            }
            s->acc.items.append(std::move(page->items));
            s->acc.pages += 1;
            s->acc.resourceVersion = page->resourceVersion;
            s->acc.kind = page->kind;
            s->acc.apiVersion = page->apiVersion;
            if (!page->continueToken.isEmpty()) {
                s->step(page->continueToken);
                return;
            }
            finish(s, std::move(s->acc));
        });
    };
    st->step(QString());
    return future;
}

QFuture<Result<QJsonObject>> KubeClient::create(const KubeResource &resource, const QString &ns,
                                                const QJsonObject &object, const WriteOptions &options) {
    KubeRequest req;
    req.method = HttpMethod::Post;
    const QString effectiveNs = ns.isEmpty() ? objectNamespace(object) : ns;
    if (resource.namespaced && effectiveNs.isEmpty())
        return readyFuture<QJsonObject>(
            Error::make(Error::Kind::Invalid, QStringLiteral("%1 need a namespace").arg(resource.plural),
                        QStringLiteral("metadata.namespace")));
    req.path = resource.path(effectiveNs);
    req.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
    addWriteOptions(req, options);
    return send(std::move(req)).then(&toObject);
}

QFuture<Result<QJsonObject>> KubeClient::replace(const KubeResource &resource, const QString &ns,
                                                 const QJsonObject &object, const WriteOptions &options,
                                                 const QString &subresource) {
    const QString name = objectName(object);
    if (name.isEmpty())
        return readyFuture<QJsonObject>(Error::make(
            Error::Kind::Invalid, QStringLiteral("the object has no name"), QStringLiteral("metadata.name")));
    const QString effectiveNs = ns.isEmpty() ? objectNamespace(object) : ns;
    KubeRequest req;
    req.method = HttpMethod::Put;
    req.path = resource.path(effectiveNs, name, subresource);
    req.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
    addWriteOptions(req, options);
    return send(std::move(req)).then(&toObject);
}

QFuture<Result<QJsonObject>> KubeClient::mergePatch(const KubeResource &resource, const QString &ns,
                                                    const QString &name, const QJsonObject &patch,
                                                    const WriteOptions &options, const QString &subresource) {
    KubeRequest req;
    req.method = HttpMethod::Patch;
    req.path = resource.path(ns, name, subresource);
    req.body = QJsonDocument(patch).toJson(QJsonDocument::Compact);
    req.contentType = "application/merge-patch+json";
    addWriteOptions(req, options);
    return send(std::move(req)).then(&toObject);
}

QFuture<Result<QJsonObject>> KubeClient::remove(const KubeResource &resource, const QString &ns,
                                                const QString &name, const WriteOptions &options,
                                                const QString &preconditionResourceVersion) {
    KubeRequest req;
    req.method = HttpMethod::Delete;
    req.path = resource.path(ns, name);
    addWriteOptions(req, options);
    if (!preconditionResourceVersion.isEmpty()) {
        const QJsonObject body{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("DeleteOptions")},
            {QStringLiteral("preconditions"),
             QJsonObject{{QStringLiteral("resourceVersion"), preconditionResourceVersion}}}};
        req.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    }
    return send(std::move(req)).then(&toObject);
}

QFuture<Result<AccessReview>> KubeClient::canI(const QString &verb, const QString &resource,
                                               const QString &ns, const QString &group,
                                               const QString &subresource, const QString &name) {
    QJsonObject attrs{{QStringLiteral("verb"), verb}, {QStringLiteral("resource"), resource}};
    if (!ns.isEmpty())
        attrs.insert(QStringLiteral("namespace"), ns);
    if (!group.isEmpty())
        attrs.insert(QStringLiteral("group"), group);
    if (!subresource.isEmpty())
        attrs.insert(QStringLiteral("subresource"), subresource);
    if (!name.isEmpty())
        attrs.insert(QStringLiteral("name"), name);
    const QJsonObject body{
        {QStringLiteral("apiVersion"), QStringLiteral("authorization.k8s.io/v1")},
        {QStringLiteral("kind"), QStringLiteral("SelfSubjectAccessReview")},
        {QStringLiteral("spec"), QJsonObject{{QStringLiteral("resourceAttributes"), attrs}}}};
    KubeRequest req;
    req.method = HttpMethod::Post;
    req.path = QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews");
    req.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    req.retrySafe = true;
    return send(std::move(req)).then([](Result<KubeResponse> r) -> Result<AccessReview> {
        auto obj = toObject(std::move(r));
        if (!obj)
            return obj.error();
        const QJsonObject status = obj->value(QLatin1String("status")).toObject();
        AccessReview review;
        review.allowed = status.value(QLatin1String("allowed")).toBool();
        review.denied = status.value(QLatin1String("denied")).toBool();
        review.reason = status.value(QLatin1String("reason")).toString();
        review.evaluationError = status.value(QLatin1String("evaluationError")).toString();
        return review;
    });
}

QFuture<Result<UserIdentity>> KubeClient::whoAmI() {
    // authentication.k8s.io/v1 since Kubernetes 1.28; older servers have v1beta1.
    struct State {
        QPromise<Result<UserIdentity>> promise;
    };
    auto st = std::make_shared<State>();
    auto future = st->promise.future();
    st->promise.start();
    auto attempt = std::make_shared<std::function<void(int)>>();
    static const QStringList versions = {QStringLiteral("v1"), QStringLiteral("v1beta1")};
    std::weak_ptr<Private> weak = d;
    *attempt = [st, attempt_w = std::weak_ptr<std::function<void(int)>>(attempt), weak](int i) {
        auto dd = weak.lock();
        if (!dd) {
            st->promise.addResult(cancelledError(QStringLiteral("whoami")));
            st->promise.finish();
            return;
        }
        const QString apiVersion = QStringLiteral("authentication.k8s.io/") + versions[i];
        KubeRequest req;
        req.method = HttpMethod::Post;
        req.path = QStringLiteral("/apis/") + apiVersion + QStringLiteral("/selfsubjectreviews");
        req.body = QJsonDocument(QJsonObject{{QStringLiteral("apiVersion"), apiVersion},
                                             {QStringLiteral("kind"), QStringLiteral("SelfSubjectReview")}})
                       .toJson(QJsonDocument::Compact);
        req.retrySafe = true;
        auto again = attempt_w.lock();
        dd->submit(std::move(req), [st, again, i](Result<KubeResponse> r) {
            if (!r && r.error().kind == Error::Kind::NotFound && i + 1 < versions.size() && again) {
                (*again)(i + 1);
                return;
            }
            auto obj = toObject(std::move(r));
            if (!obj) {
                st->promise.addResult(obj.error());
            } else {
                const QJsonObject info = obj->value(QLatin1String("status"))
                                             .toObject()
                                             .value(QLatin1String("userInfo"))
                                             .toObject();
                UserIdentity id;
                id.username = info.value(QLatin1String("username")).toString();
                id.uid = info.value(QLatin1String("uid")).toString();
                for (const QJsonValue &g : info.value(QLatin1String("groups")).toArray())
                    id.groups << g.toString();
                st->promise.addResult(id);
            }
            st->promise.finish();
        });
    };
    (*attempt)(0);
    // The attempt function lives as long as a request holds it.
    return future;
}

std::shared_ptr<KubeWatch> KubeClient::watch(const KubeResource &resource, const QString &ns,
                                             const WatchOptions &options, QObject *context,
                                             WatchHandlers handlers) {
    auto w = std::make_shared<WatchImpl>(d, resource, ns, options, context, std::move(handlers));
    w->open();
    return w;
}

} // namespace gq
