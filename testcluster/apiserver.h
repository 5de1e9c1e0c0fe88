#pragma once

#include "testcluster/apierror.h"
#include "testcluster/openapischema.h"
#include "core/domain/result.h"
#include "testcluster/store.h"
#include "testcluster/testusers.h"
#include "testcluster/tls.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>

namespace httplib {
class SSLServer;
struct Request;
struct Response;
} // namespace httplib

namespace gq::tc {

struct ApiCall;
struct ApiUser;

// Knobs that make the server misbehave on purpose, for client robustness tests.
// Counts apply to the next N matching requests; rates are probabilities in [0,1].
struct Faults {
    int latencyMs = 0;
    double errorRate = 0; // 500 InternalError
    int errorCount = 0;
    double throttleRate = 0; // 429 TooManyRequests with Retry-After
    int throttleCount = 0;
    int retryAfterSeconds = 1;
    double dropRate = 0; // connection closed half-way through the response body
    int dropCount = 0;
    bool stallWatches = false; // watch streams send nothing until they time out
    QString pathPrefix;        // only requests whose path starts with this (default: all API paths)

    [[nodiscard]] QJsonObject toJson() const;
    static Faults fromJson(const QJsonObject &o);
};

struct ServerConfig {
    QString adminToken;
    QString readonlyToken;
    int bookmarkIntervalMs = 2000;
    bool podsStayPending = false;
    bool verbose = false;
    int threads = 64;
    QByteArray openapiCoreV1;
    QByteArray openapiAuthorizationV1;
};

// The HTTPS front: authentication (bearer token or client certificate),
// RBAC-lite authorization, discovery, CRUD/watch on the store, admission, and the
// `/_gq/...` test hooks. One instance serves one listening socket.
class ApiServer {
public:
    ApiServer(Store &store, ServerConfig config);
    ~ApiServer();
    ApiServer(const ApiServer &) = delete;
    ApiServer &operator=(const ApiServer &) = delete;

    // Binds (port 0 picks a free one) and returns the port.
    Result<int> bind(const QString &host, int port, const TlsMaterial &tls);
    // Serves until stop(); returns false if the loop failed.
    bool run();
    // Ends run(). Only effective once the listen loop is running (see isListening()).
    void stop();
    [[nodiscard]] bool stopping() const { return m_stopping.load(); }
    [[nodiscard]] bool isListening() const;

    void setFaults(const Faults &faults);

    struct HookReply {
        int status = 200;
        QByteArray body;
    };
    // The `/_gq/...` hooks, also reachable over stdin (see main.cpp).
    HookReply hook(const QByteArray &method, const QString &path, const QByteArray &body);

    // Used by scenarios: create through the normal admission path (no auth).
    HookReply createObject(Resource r, const QString &ns, const QJsonObject &object);
    // Bulk seeding for benchmarks: system fields and defaults only, no admission,
    // no watch events; pods start Running. Call finishBulkLoad() afterwards to
    // compute every quota's status.
    void bulkLoad(Resource r, const QString &ns, QJsonObject object);
    void finishBulkLoad();

private:
    // The handlers live in one file per concern: apiserver.cpp (listening,
    // authentication), router.cpp, discovery.cpp, crudread.cpp, crudwrite.cpp,
    // cruddelete.cpp, watch.cpp, reviews.cpp, kubelet.cpp, faults.cpp, hooks.cpp,
    // podproxy.cpp.
    void dispatch(const httplib::Request &req, httplib::Response &res);
    bool applyFaults(const httplib::Request &req, httplib::Response &res);
    void handleApi(ApiCall &call);
    // Answers health, version, discovery and OpenAPI paths; false for any other path.
    bool serveDiscovery(ApiCall &call);
    // pods/NAME[:PORT]/proxy/... (podproxy.cpp); false for any other path.
    bool servePodProxy(ApiCall &call, const QStringList &segs);
    void handleList(ApiCall &call);
    void handleWatch(ApiCall &call);
    void handleGet(ApiCall &call);
    void handleCreate(ApiCall &call);
    void handleUpdate(ApiCall &call, const QJsonObject &body, bool fromPatch);
    void handlePatch(ApiCall &call);
    void handleDelete(ApiCall &call);
    void handleDeleteCollection(ApiCall &call);
    void handleReview(ApiCall &call);
    // TokenReview and SubjectAccessReview (reviews.cpp): asked by a server about others.
    void handleDelegatedReview(ApiCall &call, const QString &resource, QJsonObject review);
    HookReply usersHook(const QByteArray &method, const QStringList &segs, const QJsonObject &in);
    // Creates through handleCreate with `body` as the request body (create-on-update, apply).
    void createFrom(ApiCall &call, std::string body);
    // The quota controller: keeps status.used of every quota in `ns` current.
    void refreshQuotas(const QString &ns);
    // Drops unknown fields (with a Warning header each); the error when
    // fieldValidation=Strict rejects them.
    Result<void> decodeStrictly(ApiCall &call, QJsonObject &object);
    // Calls the matching validating webhooks with `lock` (on the store mutex) let go
    // meanwhile; the rejection to answer, if any.
    std::optional<ApiError> runValidatingWebhooks(ApiCall &call, std::unique_lock<std::mutex> &lock,
                                                  const QString &operation, const QJsonObject &object,
                                                  const QJsonObject &oldObject);
    void schedulePod(const QString &ns, const QString &name);
    void retryPendingPods();
    void recordEvent(const QJsonObject &pod, const QString &type, const QString &reason,
                     const QString &message, const QString &component);
    // startedAt / finishedAt (RFC 3339, optional) replace "now" as the containers'
    // start and end, so tests can script when a pod ran.
    HookReply setPodPhase(const QString &ns, const QString &name, const QString &phase,
                          const QString &startedAt = {}, const QString &finishedAt = {});
    // The kubelet restarting every container of a Running pod at `at` (RFC 3339; empty:
    // now): the run before becomes lastState.terminated, restartCount goes up, the pod's
    // startTime stays.
    HookReply restartContainers(const QString &ns, const QString &name, const QString &at);

    Store &m_store;
    ServerConfig m_config;
    OpenApiSchema m_schema;
    std::unique_ptr<httplib::SSLServer> m_server;
    std::atomic<bool> m_stopping{false};
    std::atomic<bool> m_quotaControllerPaused{false};
    std::mutex m_faultMutex;
    Faults m_faults;
    std::mt19937 m_rng{20260701};
    QString m_serverAddress;
    std::once_flag m_openapiV2Once;
    QByteArray m_openapiV2;
    TestUsers m_users; // added by tests through /_gq/users
};

} // namespace gq::tc
