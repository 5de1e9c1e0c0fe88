#pragma once

#include "core/domain/clock.h"
#include "core/domain/result.h"
#include "core/httpd/httpserver.h"
#include "core/usage/identitymapping.h"
#include "core/usage/ledger.h"
#include "core/usage/usagestore.h"
#include "services/controller/denialevents.h"
#include "services/controller/podtrust.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <memory>

namespace gq {

class BlockingLane;

// The validating admission webhook for per-user GPU-hour budgets (a shared namespace
// cannot enforce them with a namespace quota): POST /validate/pods takes an
// AdmissionReview v1 and answers with the same uid, `allowed`, and for a denial
// `status.code` 403 and `status.message` = the admission checker's decision
// (`gpuquota check`'s text: "Denied: need 4.00 GPU-h, only 0.50 left (limit 8.00 per day)").
//
// What is asked of the budget: a new job of the pod's weighted GPUs (requests, else
// limits, of every GPU resource, as the scheduler counts containers and init
// containers) for its expected hours: the annotation `gpuquota.io/expected-hours`,
// else spec.activeDeadlineSeconds (the longest it may run), else Options::defaultHours.
// The user is the pod's `userLabel` label, else its namespace (podUser()). Only the
// user's budgets are checked: namespace budgets are the ResourceQuota clamp's job
// (BudgetEnforcer), so a namespace near its budget does not refuse pods the quota
// would still admit. A denial names the budget user it checked ("... for user dave");
// when the person creating the pod (request.userInfo, not a system: name) is a
// different budget user by the identity rules, it says so too ("; you are
// alice@example.com → alice (e-mail local part)"), so someone whose name is
// transformed sees which label value is theirs. A denied pod that a controller made
// (ownerReferences) is also reported to Options::onOwnedDenial (DenialEvents: an Event
// on the owner). Pods without GPUs, other kinds and operations other than
// CREATE are allowed without a database read.
//
// Answers: a malformed review is HTTP 400 with a message naming what is wrong; a
// database failure is HTTP 500, so the API server applies the webhook's failurePolicy
// (Ignore: admitted unchecked; Fail: refused) instead of a verdict made up here.
//
// The database may be away when the webhook starts, and may restart under it: the
// webhook serves from the start (what needs no database is answered as always, a GPU
// pod to check gets the 500 above), opens the database on first need and opens it
// again after a failure (at most once a second), so it decides again as soon as the
// database answers.
class AdmissionWebhook final {
public:
    struct Options {
        QString userLabel = kDefaultUserLabel;
        double defaultHours = 1.0;
        IdentityRules identity;
        // Who may label pods for whom, and the floor of the expected hours (podtrust.h).
        TrustRules trust;
        const Clock *clock = &Clock::system();
        // A denied pod with an owner (ownerReferences: a ReplicaSet, Job...): its user
        // only sees the owner's FailedCreate, so the denial is handed here too (on the
        // server's thread: must not block; DenialEvents::report()).
        std::function<void(const PodOwner &owner, const QString &message)> onOwnedDenial;
        // The GPUs a new pod asks for through DRA claims (DraWatch::requestedGpus; on the
        // server's thread); unset: claims count nothing.
        std::function<double(const QString &ns, const QJsonObject &pod)> draGpus;
    };

    inline static const QString kPath = QStringLiteral("/validate/pods");
    // Workloads with a pod template (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job,
    // CronJob): the template's user label is checked against the creator as a pod's is
    // (reviewWorkload, workloadreview.cpp); everything else is allowed.
    inline static const QString kWorkloadsPath = QStringLiteral("/validate/workloads");
    inline static const QString kHoursAnnotation = QStringLiteral("gpuquota.io/expected-hours");

    // The handler as a pure function of the request body, the usage store and `now`.
    [[nodiscard]] static httpd::Response review(const QByteArray &body, const UsageStore &store, qint64 now,
                                                const Options &options);

    // A webhook with a UsageStore of its own (cacheChecks on) on a lane of its own
    // (BlockingLane): the server's handler threads hand each check to it, so the store
    // stays on the thread that opened it. Nothing is opened yet.
    AdmissionWebhook(QString dbUrl, UsageStore::Options storeOptions, Options options);
    ~AdmissionWebhook();
    Q_DISABLE_COPY_MOVE(AdmissionWebhook)

    [[nodiscard]] static httpd::Response reviewWorkload(const QByteArray &body, const Options &options);
    // A pod UPDATE (request of a review): a GPU pod's user label may change only by
    // someone who could have set the new value at creation (workloadreview.cpp).
    [[nodiscard]] static httpd::Response reviewPodUpdate(const QJsonObject &request, const Options &options);

    // Registers POST /validate/pods and /validate/workloads (before server.start()). The webhook must outlive
    // the server's running state: stop the server first.
    void registerRoutes(httpd::HttpServer &server);
    // The handler itself (what registerRoutes() registers), for a caller with its own routing.
    [[nodiscard]] httpd::Response handle(const httpd::Request &request);

private:
    Options m_options;
    ResourceWeights m_weights;
    std::unique_ptr<BlockingLane> m_db;
};

} // namespace gq
