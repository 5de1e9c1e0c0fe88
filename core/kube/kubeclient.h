#pragma once

#include "core/domain/result.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/kuberequest.h"
#include "core/kube/plainhttp.h"

#include <QDeadlineTimer>
#include <QFuture>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <atomic>
#include <functional>
#include <memory>

namespace gq {

struct KubeClientOptions {
    int connectTimeoutMs = 10000;
    int requestTimeoutMs = 30000; // total per attempt, unless the request sets its own
    // All attempts of one request and the waits between them, unless the request sets
    // its own timeout (watches do): a hanging server costs a minute, not 5 x 30 s.
    // 0: no bound beyond the attempts'.
    int totalTimeoutMs = 60000;
    // Response bodies past this are an error, not memory used (see HttpRequest).
    qint64 maxResponseBytes = defaultMaxBodyBytes();
    // A watch stream is not one body: each event in it is bounded by this instead
    // (etcd keeps objects under 1.5 MiB by default).
    qint64 maxWatchEventBytes = 16 * 1024 * 1024;
    // Credentials over plain http:// to a host that is not loopback (see plainhttp.h).
    bool allowPlainHttpCredentials = plainHttpCredentialsAllowedByEnvironment();
    int maxAttempts = 5;     // for retryable failures (see KubeClient)
    int backoffBaseMs = 100; // first retry waits ~base, then doubles, with jitter
    int backoffMaxMs = 8000;
    int maxRetryAfterMs = 30000; // a server's Retry-After is honoured up to this
    int watchGraceMs = 10000;    // a watch silent this long past its timeoutSeconds is re-opened
    bool http2 = true;           // HTTP/2 over TLS when the server offers it
    QString userAgent;           // default "gpuquota/<version>"
};

// Handle of a running watch. stop() (or dropping the last reference) ends it; no
// handler runs after stop() returns on the handlers' thread.
class KubeWatch {
public:
    virtual ~KubeWatch() = default;
    virtual void stop() = 0;
    [[nodiscard]] virtual bool isActive() const = 0;
    // The last resourceVersion seen (event or bookmark): where a resume starts.
    [[nodiscard]] virtual QString lastResourceVersion() const = 0;
    // While a resuming watch waits out its backoff after a failure: when it re-opens.
    // Forever when it is not waiting (streaming, or a re-open under way). Set before
    // handlers.retrying is called, so that handler may read it.
    [[nodiscard]] virtual QDeadlineTimer nextAttempt() const = 0;
    // Cuts a backoff wait short: re-opens at once. Nothing happens when the watch is
    // not waiting. The failure count is kept, so a failing re-open waits longer next.
    virtual void retryNow() = 0;
};

struct WatchHandlers {
    // Events in arrival order, batched per received chunk of the stream.
    std::function<void(const QList<WatchEvent> &events)> events;
    // The watch ended for good: Gone (410, relist needed), auth errors, or retries
    // exhausted. Not called after stop().
    std::function<void(const Error &error)> failed;
    // Optional: a stream was (re)opened, from this resourceVersion.
    std::function<void(const QString &fromResourceVersion)> connected;
    // Optional: a transient failure; the watch retries after a backoff.
    std::function<void(const Error &error)> retrying;
    // Optional: a watch without options.resume ended normally (server closed it).
    std::function<void()> closed;
};

// The Kubernetes REST client, on an HttpTransport (gqnet: one libcurl multi loop on a
// worker thread owned by the client). Credentials come from a CredentialProvider on a
// thread of its own, so a slow exec plugin delays only the requests that wait for its
// token, never a running watch. Nothing here blocks the caller; results arrive as
// QFutures. Receive them with gq::JobTracker::watch (core/jobs/jobtracker.h); not with
// `.then(contextObject, ...)`, which on Qt 6.4 can miss a future that finishes on the
// worker thread meanwhile. A CLI may waitForFinished(). Safe to call from any thread.
//
// TLS is verified against the kubeconfig CA (handed to libcurl in memory), client
// certificates likewise; insecure-skip-tls-verify is honoured but reported by
// insecureSkipTlsVerify() so a UI can warn. Bearer tokens are never logged.
//
// Retries (one place, HttpTransport): GET/HEAD on connection errors, timeouts, 429
// and 5xx, with exponential backoff and jitter, honouring Retry-After. Writes are
// retried only when the server provably did not apply them: the connection could
// not be established, or 429 (rejected before processing). A 401 with a token from a
// file or an exec plugin resolves the token afresh and tries once more.
//
// Failures are gq::Error: the API Status decoded into the kind (Unauthorized,
// Forbidden, NotFound, AlreadyExists, Conflict, Invalid with causes, Gone,
// TooManyRequests, Server, Timeout), with message, httpStatus and reason; transport
// failures are Network / Timeout / Tls.
class KubeClient final {
public:
    explicit KubeClient(KubeConnection connection, KubeClientOptions options = {});
    ~KubeClient(); // pending requests finish with Error kind Cancelled
    Q_DISABLE_COPY_MOVE(KubeClient)

    // kubeconfig (explicit path or default rules) + context (empty: current).
    static Result<std::shared_ptr<KubeClient>> fromKubeconfig(const QString &kubeconfigPath = {},
                                                              const QString &context = {},
                                                              KubeClientOptions options = {});

    [[nodiscard]] QString server() const;
    [[nodiscard]] QString contextName() const;
    [[nodiscard]] QString defaultNamespace() const;
    [[nodiscard]] bool insecureSkipTlsVerify() const;
    // A warning for stderr when credentials go to the server unencrypted (http:// to
    // loopback, or allowed explicitly); empty otherwise. A non-loopback http:// server
    // with credentials is refused instead: every request fails with kind Config.
    [[nodiscard]] QString clearTextWarning() const;
    [[nodiscard]] const KubeClientOptions &options() const;

    // Raw request; non-2xx answers become Errors.
    QFuture<Result<KubeResponse>> send(KubeRequest request);

    QFuture<Result<QJsonObject>> get(const KubeResource &resource, const QString &ns, const QString &name,
                                     const QString &subresource = {});
    // All pages (limit/continue) collected into one list.
    QFuture<Result<ObjectList>> list(const KubeResource &resource, const QString &ns,
                                     ListOptions options = {});
    // One page: options.continueToken in, result.continueToken out.
    QFuture<Result<ObjectList>> listPage(const KubeResource &resource, const QString &ns,
                                         const ListOptions &options);
    QFuture<Result<QJsonObject>> create(const KubeResource &resource, const QString &ns,
                                        const QJsonObject &object, const WriteOptions &options = {});
    // PUT of the whole object; its metadata.resourceVersion makes it conditional
    // (409 Conflict when stale). subresource "status" for ResourceQuota status.
    QFuture<Result<QJsonObject>> replace(const KubeResource &resource, const QString &ns,
                                         const QJsonObject &object, const WriteOptions &options = {},
                                         const QString &subresource = {});
    // application/merge-patch+json
    QFuture<Result<QJsonObject>> mergePatch(const KubeResource &resource, const QString &ns,
                                            const QString &name, const QJsonObject &patch,
                                            const WriteOptions &options = {},
                                            const QString &subresource = {});
    // preconditionResourceVersion: delete only that version (409 otherwise).
    QFuture<Result<QJsonObject>> remove(const KubeResource &resource, const QString &ns, const QString &name,
                                        const WriteOptions &options = {},
                                        const QString &preconditionResourceVersion = {});

    // SelfSubjectAccessReview: may I <verb> <resource> (in namespace ns)?
    QFuture<Result<AccessReview>> canI(const QString &verb, const QString &resource, const QString &ns,
                                       const QString &group = {}, const QString &subresource = {},
                                       const QString &name = {});
    // SelfSubjectReview (authentication.k8s.io/v1): who the server thinks we are.
    QFuture<Result<UserIdentity>> whoAmI();

    // Streams watch events. Handlers run on `context`'s thread (delivered through a
    // JobTracker on a child of context, which must live on the calling thread) and are
    // dropped once context is destroyed or the watch stopped; with context == nullptr
    // they run on the client's worker thread (must be quick and thread-safe). With options.resume the
    // watch re-opens from the last seen resourceVersion after the server closes the
    // stream or the connection drops (backoff between attempts); a 410 Gone is
    // reported through handlers.failed so the caller relists.
    std::shared_ptr<KubeWatch> watch(const KubeResource &resource, const QString &ns,
                                     const WatchOptions &options, QObject *context, WatchHandlers handlers);

    // Counters for tests and the status bar.
    [[nodiscard]] int requestsSent() const; // attempts, retries included
    [[nodiscard]] int retries() const;
    [[nodiscard]] long lastHttpVersion() const; // 2 when the last response came over HTTP/2

    class Private;

private:
    std::shared_ptr<Private> d;
};

// Decodes a failed HTTP exchange into an Error: the Status object's reason, message,
// code and details.causes when present, else the HTTP status alone.
[[nodiscard]] Error errorFromResponse(int httpStatus, const QByteArray &body, const QString &what = {});

} // namespace gq
