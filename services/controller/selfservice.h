#pragma once

#include "core/usage/budget.h"
#include "core/domain/clock.h"
#include "core/httpd/httpserver.h"
#include "core/usage/identitymapping.h"
#include "services/quotas/quotastatus.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QTranslator;

namespace gq {

class KubeClient;
class MetricsRegistry;
class UsageStore;

// Who a bearer token belongs to, as the cluster's TokenReview says.
struct ReviewedUser {
    QString username;
    QString uid;
    QStringList groups;
};

// The controller's self-service endpoints, for the people who run the jobs:
//
//   GET /quota/status?user=U | ?namespace=N   JSON (quotaStatus(), see quotastatus.h)
//   GET /quota?user=U | ?namespace=N          the same as a small HTML page, English or
//                                             Chinese by Accept-Language
//   GET /metrics                              Prometheus text format (MetricsRegistry)
//   GET|POST /quota/boost-requests            the caller's boost requests / a new one (JSON)
//   POST /quota/boost-requests/withdraw       {"id": N, "note": "..."} by the requester
//   POST /quota/boost-requests/form           the page's form, 303 back to /quota
//
// Without user or namespace the caller's own status is meant. Every /quota request needs
// `Authorization: Bearer TOKEN`; the token is verified with a TokenReview against the
// cluster (cached for authCacheSeconds, by its SHA-256). The TokenReview username becomes
// a budget subject by mapIdentity() with the `identity:` rules (identitymapping.h):
// "alice@example.com" is user alice, a ServiceAccount its namespace. A caller may see
// their own status (U, or namespace N, is what their name maps to; U equal to their
// username also means their own status) and a namespace's
// where a SubjectAccessReview allows `get resourcequotas` in it; `list resourcequotas`
// in all namespaces sees every user and namespace. No token or a rejected one: 401;
// someone else: 403; no subject asked for and a name that maps to none: 404 with the
// reason. Every answer for a known caller carries what the mapping produced (JSON key
// `identity`, a line on the page). /metrics is unauthenticated and shows per-user
// series only with perUserMetrics.
//
// Handlers run on the server's worker threads; database work goes to one thread of the
// service's own, which owns the UsageStore (a QSqlDatabase connection belongs to the
// thread that opened it), so requests queue there instead of racing.
struct SelfServiceOptions {
    // Opens the store; called on the database thread, again after a database error.
    std::function<Result<std::unique_ptr<UsageStore>>()> openStore;
    // Opens the store boost requests are written to (read-write; the status is read from
    // openStore's, which may be read-only); null: openStore's. On a thread of its own.
    std::function<Result<std::unique_ptr<UsageStore>>()> openRequestStore;
    // Credentials that may create tokenreviews and subjectaccessreviews (the
    // controller's ServiceAccount with system:auth-delegator).
    std::shared_ptr<KubeClient> kube;
    const Clock *clock = &Clock::system();
    int authCacheSeconds = 30;
    // The whole time a TokenReview or SubjectAccessReview may take (one attempt, no
    // retries): a hanging API server costs each request this much, not minutes, and
    // cannot hold every worker of the port that also serves /readyz and /metrics.
    int reviewTimeoutMs = 3000;
    QuotaStatusOptions status;
    IdentityRules identity;
    std::shared_ptr<MetricsRegistry> metrics; // null: no /metrics route
    bool perUserMetrics = false;
    int metricsRefreshSeconds = 15; // the self-service gauges are recomputed at most this often
    // Page translators by language ("zh_CN"); when empty, ":/i18n/gpuquota_zh_CN.qm" is
    // loaded if the binary embeds it.
    QMap<QString, std::shared_ptr<QTranslator>> translators;
    // Members of these groups may request boosts without the RBAC grant (`create` on
    // boostrequests.gpuquota.io, checked by a SubjectAccessReview).
    QStringList boostRequestGroups;
};

class SelfService {
public:
    explicit SelfService(SelfServiceOptions options);
    ~SelfService();
    SelfService(const SelfService &) = delete;
    SelfService &operator=(const SelfService &) = delete;

    // Routes GET /quota/status, GET /quota and (with a registry) GET /metrics. Before
    // server.start(); the service must outlive the server's running handlers.
    void mount(httpd::HttpServer &server);

    [[nodiscard]] httpd::Response statusEndpoint(const httpd::Request &request);
    [[nodiscard]] httpd::Response pageEndpoint(const httpd::Request &request);
    [[nodiscard]] httpd::Response metricsEndpoint(const httpd::Request &request);
    // Boost requests (selfservicerequests.cpp): GET the caller's own, POST a new one for
    // a budget they may see (?user=U | ?namespace=N, neither: their own), POST .../withdraw.
    [[nodiscard]] httpd::Response listRequestsEndpoint(const httpd::Request &request);
    [[nodiscard]] httpd::Response submitRequestEndpoint(const httpd::Request &request);
    [[nodiscard]] httpd::Response withdrawRequestEndpoint(const httpd::Request &request);
    // The page's form (urlencoded hours, for, note; same origin only): 303 back to the page.
    [[nodiscard]] httpd::Response formRequestEndpoint(const httpd::Request &request);

    // The status document, on the database thread (blocks the caller).
    [[nodiscard]] Result<QJsonObject> status(BudgetScope scope, const QString &subject, qint64 now);
    // Recomputes the self-service gauges (used/remaining/limit, boosts active) now.
    Result<void> refreshMetrics(qint64 now);

private:
    // The page's HTML with the fit advisor's form (services/advisor/fitadvisorform.h) put in
    // before its end: the subject's namespace quota and nodes, and its budget.
    [[nodiscard]] QString withFitAdvisor(const QString &page, const httpd::Request &request,
                                         BudgetScope scope, const QString &subject, const QString &lang);
    // The page's boost request section (boostrequestform.h) with `caller`'s requests.
    [[nodiscard]] QString requestSection(const httpd::Request &request, const QString &caller,
                                         const QString &lang);
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace gq
