#pragma once

// KubeClient's internals, shared by its translation units (kubeclient.cpp: the verbs;
// kubeclient_private.cpp: requests on the transport; kubeclient_watch.cpp: watches).

#include "core/kube/credentials.h"
#include "core/net/httptransport.h"
#include "core/kube/kubeclient.h"

#include <QPromise>

#include <memory>
#include <mutex>
#include <optional>

namespace gq {

// One KubeRequest on its way: waiting for credentials, then on the transport. Lets
// a caller cancel it in either phase.
class KubeCall {
public:
    void cancel(HttpTransport &transport);

private:
    friend class KubeClient::Private;
    std::mutex m_mutex;
    HttpTransport::RequestId m_transportId = 0;
    bool m_cancelled = false;
};

class KubeClient::Private : public std::enable_shared_from_this<KubeClient::Private> {
public:
    using Done = std::function<void(Result<KubeResponse>)>;

    Private(KubeConnection connection, KubeClientOptions options);
    ~Private() { shutdown(); }
    void shutdown();

    // done runs on the transport's (or the credential provider's) thread; onChunk, when
    // set, makes it a stream (see HttpTransport).
    std::shared_ptr<KubeCall> submit(KubeRequest request, Done done,
                                     HttpTransport::ChunkHandler onChunk = {});
    void cancel(const std::shared_ptr<KubeCall> &call) { call->cancel(transport); }
    // Runs fn on the transport thread after delayMs (never once shut down).
    void schedule(int delayMs, std::function<void()> fn) { transport.schedule(delayMs, std::move(fn)); }
    [[nodiscard]] int backoffMs(int attempt) const;

    const KubeConnection conn;
    KubeClientOptions opts;
    HttpTransport transport;
    CredentialProvider creds;

private:
    struct Pending;
    void dispatch(std::shared_ptr<Pending> p);
    void onCredentials(std::shared_ptr<Pending> p, Result<Credentials> credentials);
    void onResponse(std::shared_ptr<Pending> p, quint64 generation, HttpResponse response);
    [[nodiscard]] HttpRequest toHttp(const KubeRequest &request, const Credentials &credentials) const;
    [[nodiscard]] Error toError(const KubeRequest &request, const HttpResponse &response) const;

    QString m_baseUrl;
    QString m_connectTo;
    std::optional<Error> m_plainHttpRefusal; // every request fails with it
};

Error cancelledError(const QString &what);

template <typename T> QFuture<Result<T>> readyFuture(Result<T> value) {
    QPromise<Result<T>> p;
    auto f = p.future();
    p.start();
    p.addResult(std::move(value));
    p.finish();
    return f;
}

} // namespace gq
