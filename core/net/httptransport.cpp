#include "core/net/httptransport.h"
#include "core/net/httptransport_p.h"

#include <QPromise>

#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace gq {

namespace {

using Clock = std::chrono::steady_clock;

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

Error curlError(CURLcode code, const char *errbuf) {
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
    return Error::make(kind, detail);
}

QString describeMs(qint64 ms) {
    return ms % 1000 == 0 ? QStringLiteral("%1 s").arg(ms / 1000) : QStringLiteral("%1 ms").arg(ms);
}

HttpResponse cancelled(QString why, int attempts = 0) {
    HttpResponse r;
    r.attempts = attempts;
    r.transportError = Error::make(Error::Kind::Cancelled, std::move(why));
    return r;
}

using detail::Transfer;

struct CurlGlobal {
    CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
};

} // namespace

class HttpTransport::Loop {
public:
    Loop() {
        static CurlGlobal global;
        multi = curl_multi_init();
        curl_multi_setopt(multi, CURLMOPT_PIPELINING, long(CURLPIPE_MULTIPLEX));
        worker = std::thread([this] { run(); });
    }
    ~Loop() { shutdown(); }

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

    RequestId start(HttpRequest req, Done done, ChunkHandler onChunk) {
        auto t = std::make_unique<Transfer>();
        t->id = nextId.fetch_add(1);
        t->streaming = bool(onChunk);
        t->onChunk = std::move(onChunk);
        t->done = std::move(done);
        t->req = std::move(req);
        if (t->req.retry.totalTimeoutMs > 0)
            t->deadline = Clock::now() + std::chrono::milliseconds(t->req.retry.totalTimeoutMs);
        const RequestId id = t->id;
        {
            std::unique_lock lock(mutex);
            if (stopping) {
                lock.unlock();
                complete(std::move(t), cancelled(QStringLiteral("cancelled (client shut down)")));
                return id;
            }
            incoming.push_back(std::move(t));
        }
        curl_multi_wakeup(multi);
        return id;
    }

    void cancel(RequestId id) {
        {
            std::lock_guard lock(mutex);
            if (stopping)
                return;
            cancels.push_back(id);
        }
        curl_multi_wakeup(multi);
    }

    void schedule(int delayMs, std::function<void()> fn) {
        {
            std::lock_guard lock(mutex);
            if (stopping)
                return;
            newTimers.emplace_back(Clock::now() + std::chrono::milliseconds(delayMs), std::move(fn));
        }
        curl_multi_wakeup(multi);
    }

    std::atomic<int> attemptCount{0};
    std::atomic<int> retryCount{0};
    std::atomic<long> lastVersion{0};

private:
    void run();
    void startAttempt(std::unique_ptr<Transfer> t);
    void finished(CURL *easy, CURLcode code);
    void doCancel(RequestId id);
    static void complete(std::unique_ptr<Transfer> t, HttpResponse response) {
        auto done = std::move(t->done);
        t.reset(); // release curl resources before user code runs
        if (done)
            done(std::move(response));
    }

    static size_t onWrite(char *ptr, size_t size, size_t n, void *ud);
    static size_t onHeader(char *ptr, size_t size, size_t n, void *ud);

    CURLM *multi = nullptr;
    std::thread worker;
    std::atomic<RequestId> nextId{1};

    std::mutex mutex; // guards the fields below
    bool stopping = false;
    std::deque<std::unique_ptr<Transfer>> incoming;
    std::vector<RequestId> cancels;
    std::vector<std::pair<Clock::time_point, std::function<void()>>> newTimers;

    // worker thread only
    std::map<CURL *, std::unique_ptr<Transfer>> active;
    std::multimap<Clock::time_point, std::unique_ptr<Transfer>> delayed;
    std::multimap<Clock::time_point, std::function<void()>> timers;
};

size_t HttpTransport::Loop::onWrite(char *ptr, size_t size, size_t n, void *ud) {
    auto *t = static_cast<Transfer *>(ud);
    const size_t len = size * n;
    if (t->response.httpStatus == 0) {
        long status = 0;
        curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
        t->response.httpStatus = int(status);
    }
    const int status = t->response.httpStatus;
    if (t->streaming && status >= 200 && status < 300) {
        if (!t->onChunk(QByteArray(ptr, qsizetype(len))))
            return 0; // aborts the transfer (CURLE_WRITE_ERROR)
        return len;
    }
    const qint64 limit = t->req.maxBodyBytes;
    if (limit > 0 && qint64(t->response.body.size()) + qint64(len) > limit) {
        t->tooLarge = true;
        return 0; // aborts the transfer; finished() says why
    }
    t->response.body.append(ptr, qsizetype(len));
    return len;
}

size_t HttpTransport::Loop::onHeader(char *ptr, size_t size, size_t n, void *ud) {
    auto *t = static_cast<Transfer *>(ud);
    const size_t len = size * n;
    const QByteArray line = QByteArray(ptr, qsizetype(len)).trimmed();
    if (line.startsWith("HTTP/")) { // a new response (after 100-continue or a redirect)
        t->response.headers.clear();
    } else if (const qsizetype colon = line.indexOf(':'); colon > 0) {
        t->response.headers.append({line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
    }
    return len;
}

void HttpTransport::Loop::startAttempt(std::unique_ptr<Transfer> t) {
    ++t->attempts;
    ++attemptCount;
    t->releaseCurl();
    t->response = HttpResponse();
    t->tooLarge = false;
    t->errbuf[0] = 0;
    CURL *e = t->easy = curl_easy_init();
    const HttpRequest &req = t->req;

    const QByteArray url = req.url.toUtf8();
    curl_easy_setopt(e, CURLOPT_URL, url.constData());
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->errbuf);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Loop::onWrite);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t.get());
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &Loop::onHeader);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, t.get());
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, long(req.connectTimeoutMs));
    qint64 timeoutMs = std::max(0, req.timeoutMs);
    if (t->deadline) { // the attempt ends no later than the request's total bound
        const qint64 left = std::max<qint64>(
            1, std::chrono::duration_cast<std::chrono::milliseconds>(*t->deadline - Clock::now()).count());
        timeoutMs = timeoutMs == 0 ? left : std::min(timeoutMs, left);
    }
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, long(timeoutMs));
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION,
                     long(req.http2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1));
    if (!req.userAgent.isEmpty())
        curl_easy_setopt(e, CURLOPT_USERAGENT, req.userAgent.constData());

    // TLS material is handed over in memory; CURL_BLOB_COPY lets libcurl own a copy.
    const TlsOptions &tls = req.tls;
    if (!tls.caPem.isEmpty()) {
        curl_blob blob{const_cast<char *>(tls.caPem.constData()), size_t(tls.caPem.size()), CURL_BLOB_COPY};
        curl_easy_setopt(e, CURLOPT_CAINFO_BLOB, &blob);
    }
    if (!tls.clientCertPem.isEmpty()) {
        curl_blob cert{const_cast<char *>(tls.clientCertPem.constData()), size_t(tls.clientCertPem.size()),
                       CURL_BLOB_COPY};
        curl_blob key{const_cast<char *>(tls.clientKeyPem.constData()), size_t(tls.clientKeyPem.size()),
                      CURL_BLOB_COPY};
        curl_easy_setopt(e, CURLOPT_SSLCERT_BLOB, &cert);
        curl_easy_setopt(e, CURLOPT_SSLCERTTYPE, "PEM");
        curl_easy_setopt(e, CURLOPT_SSLKEY_BLOB, &key);
        curl_easy_setopt(e, CURLOPT_SSLKEYTYPE, "PEM");
    }
    if (tls.insecureSkipVerify) {
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (!req.connectTo.isEmpty()) {
        t->connectTo = curl_slist_append(nullptr, req.connectTo.toUtf8().constData());
        curl_easy_setopt(e, CURLOPT_CONNECT_TO, t->connectTo);
    }
    if (!req.proxyUrl.isEmpty()) {
        const QByteArray proxy = req.proxyUrl.toUtf8();
        curl_easy_setopt(e, CURLOPT_PROXY, proxy.constData());
    }

    if (req.smtp) {
        detail::setupSmtp(*t);
        curl_multi_add_handle(multi, e);
        active.emplace(e, std::move(t));
        return;
    }

    curl_slist *h = curl_slist_append(nullptr, "Expect:"); // no 100-continue round trip
    for (const auto &[name, value] : req.headers)
        h = curl_slist_append(h, QByteArray(name + ": " + value).constData());
    switch (req.method) {
    case HttpMethod::Get: curl_easy_setopt(e, CURLOPT_HTTPGET, 1L); break;
    case HttpMethod::Head: curl_easy_setopt(e, CURLOPT_NOBODY, 1L); break;
    case HttpMethod::Post: curl_easy_setopt(e, CURLOPT_POST, 1L); break;
    case HttpMethod::Put: curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, "PUT"); break;
    case HttpMethod::Patch: curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, "PATCH"); break;
    case HttpMethod::Delete: curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, "DELETE"); break;
    }
    if (!req.body.isEmpty() || req.method == HttpMethod::Post || req.method == HttpMethod::Put ||
        req.method == HttpMethod::Patch) {
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(req.body.size()));
        curl_easy_setopt(e, CURLOPT_COPYPOSTFIELDS, req.body.constData());
        const QByteArray ct = req.contentType.isEmpty() ? QByteArray("application/json") : req.contentType;
        h = curl_slist_append(h, QByteArray("Content-Type: " + ct).constData());
    }
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
    t->headers = h;
    curl_multi_add_handle(multi, e);
    active.emplace(e, std::move(t));
}

void HttpTransport::Loop::finished(CURL *easy, CURLcode code) {
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
    HttpResponse &r = t->response;
    r.httpStatus = int(status);
    r.httpVersion = httpVersion;
    r.attempts = t->attempts;

    if (code == CURLE_OK && status >= 200 && status < 300) {
        complete(std::move(t), std::move(r));
        return;
    }
    // Not retried: the same server would send the same body again.
    if (t->tooLarge) {
        r.body.clear();
        r.transportError = Error::make(
            Error::Kind::Invalid,
            QStringLiteral("the response from %1 is larger than the %2 limit; it was not read to the end "
                           "(set GQ_MAX_RESPONSE_BYTES to raise the limit)")
                .arg(urlForMessages(t->req.url), describeByteLimit(t->req.maxBodyBytes)));
        complete(std::move(t), std::move(r));
        return;
    }
    // A stream ended by its own consumer is not a failure to retry.
    if (code == CURLE_WRITE_ERROR && t->streaming) {
        r.transportError = Error::make(Error::Kind::Cancelled, QStringLiteral("stream closed"));
        complete(std::move(t), std::move(r));
        return;
    }
    if (code != CURLE_OK)
        r.transportError = curlError(code, t->errbuf);

    const RetryPolicy &policy = t->req.retry;
    bool retry = false;
    int delay = -1;
    if (t->attempts < policy.maxAttempts) {
        if (code != CURLE_OK) {
            retry = neverSent(code) || (t->req.isIdempotent() && transientTransport(code));
        } else if (status == 429) {
            retry = true; // rejected before any processing (rate limits, priority and fairness)
            delay = parseRetryAfterMs(r.header("retry-after"));
        } else if (status >= 500 && status != 501 && t->req.isIdempotent()) {
            retry = true;
            delay = parseRetryAfterMs(r.header("retry-after"));
        }
    }
    if (!retry) {
        complete(std::move(t), std::move(r));
        return;
    }
    if (delay < 0)
        delay = backoffDelayMs(policy, t->attempts - 1);
    delay = std::min(delay, policy.maxRetryAfterMs);
    if (t->deadline && Clock::now() + std::chrono::milliseconds(delay) >= *t->deadline) {
        // The next attempt would start after the request's total bound: give up now.
        if (r.transportError)
            r.transportError->message +=
                QStringLiteral(" (gave up: the total time limit of %1 for this request is used up)")
                    .arg(describeMs(policy.totalTimeoutMs));
        complete(std::move(t), std::move(r));
        return;
    }
    ++retryCount;
    t->releaseCurl();
    delayed.emplace(Clock::now() + std::chrono::milliseconds(delay), std::move(t));
}

void HttpTransport::Loop::doCancel(RequestId id) {
    for (auto it = active.begin(); it != active.end(); ++it) {
        if (it->second->id == id) {
            std::unique_ptr<Transfer> t = std::move(it->second);
            curl_multi_remove_handle(multi, it->first);
            active.erase(it);
            const int attempts = t->attempts;
            complete(std::move(t), cancelled(QStringLiteral("cancelled"), attempts));
            return;
        }
    }
    for (auto it = delayed.begin(); it != delayed.end(); ++it) {
        if (it->second->id == id) {
            std::unique_ptr<Transfer> t = std::move(it->second);
            delayed.erase(it);
            const int attempts = t->attempts;
            complete(std::move(t), cancelled(QStringLiteral("cancelled"), attempts));
            return;
        }
    }
}

void HttpTransport::Loop::run() {
    for (;;) {
        std::deque<std::unique_ptr<Transfer>> starting;
        std::vector<RequestId> cancelling;
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
                complete(std::move(t), cancelled(QStringLiteral("cancelled (client shut down)")));
            break;
        }
        for (auto &timer : adding)
            timers.emplace(timer.first, std::move(timer.second));
        for (auto &t : starting)
            startAttempt(std::move(t));
        for (RequestId id : cancelling)
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
        const int attempts = t->attempts;
        complete(std::move(t), cancelled(QStringLiteral("cancelled (client shut down)"), attempts));
    }
    active.clear();
    for (auto &[when, t] : delayed) {
        const int attempts = t->attempts;
        complete(std::move(t), cancelled(QStringLiteral("cancelled (client shut down)"), attempts));
    }
    delayed.clear();
    timers.clear();
}

// ---------------------------------------------------------------------------------

HttpTransport::HttpTransport()
    : d(std::make_unique<Loop>()) {}

HttpTransport::~HttpTransport() {
    d->shutdown();
}

HttpTransport::RequestId HttpTransport::start(HttpRequest request, Done done, ChunkHandler onChunk) {
    return d->start(std::move(request), std::move(done), std::move(onChunk));
}

QFuture<HttpResponse> HttpTransport::send(HttpRequest request) {
    auto promise = std::make_shared<QPromise<HttpResponse>>();
    auto future = promise->future();
    promise->start();
    d->start(std::move(request),
             [promise](HttpResponse r) {
                 promise->addResult(std::move(r));
                 promise->finish();
             },
             {});
    return future;
}

void HttpTransport::cancel(RequestId id) {
    d->cancel(id);
}

void HttpTransport::schedule(int delayMs, std::function<void()> fn) {
    d->schedule(delayMs, std::move(fn));
}

void HttpTransport::shutdown() {
    d->shutdown();
}

int HttpTransport::attemptsStarted() const {
    return d->attemptCount;
}

int HttpTransport::retries() const {
    return d->retryCount;
}

long HttpTransport::lastHttpVersion() const {
    return d->lastVersion;
}

} // namespace gq
