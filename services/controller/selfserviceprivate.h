#pragma once

// The self-service endpoints' shared inside (selfservice.cpp, selfservicerequests.cpp):
// token and access reviews with their caches, and who the caller may see.
#include "services/controller/selfservice.h"

#include "core/kube/kubeclient.h"
#include "services/controller/logthrottle.h"
#include "services/controller/metricsregistry.h"
#include "services/usage/blockinglane.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTranslator>

#include <map>
#include <mutex>
#include <variant>

Q_DECLARE_LOGGING_CATEGORY(lcSelfService)

namespace gq {

namespace selfservice {

template <typename V> struct Cached {
    V value;
    QDeadlineTimer until;
};

inline httpd::Response jsonError(int status, const QString &message) {
    httpd::Response r = httpd::Response::json(
        status,
        QJsonDocument(QJsonObject{{QStringLiteral("code"), status}, {QStringLiteral("error"), message}}));
    if (status == 401)
        r.headers.append(qMakePair(QByteArray("WWW-Authenticate"), QByteArray("Bearer realm=\"gpuquota\"")));
    return r;
}

// What failed inside (the API server's address, the database's host, name and user)
// is for the log, not for callers, who may not even be authenticated yet: they get
// `publicText` only. The log line is rate-limited; the error messages carry no secrets.
inline httpd::Response unavailable(const QString &publicText, const Error &error) {
    static LogThrottle throttle;
    qint64 suppressed = 0;
    if (throttle.allow(suppressed))
        qCWarning(lcSelfService).noquote()
            << "self-service answered 503:" << publicText << "-" << error.toString()
            << (suppressed > 0 ? QStringLiteral("(%1 more since the last line)").arg(suppressed) : QString());
    return jsonError(503, publicText);
}

} // namespace selfservice

struct SelfService::Private {
    SelfServiceOptions options;
    BlockingLane db;
    BlockingLane requestsDb; // boost requests: a writable store
    std::mutex cacheMutex;
    std::map<QByteArray, selfservice::Cached<std::optional<ReviewedUser>>> tokens;
    std::map<QString, selfservice::Cached<bool>> access;
    std::mutex metricsMutex;
    QDeadlineTimer metricsFresh;

    explicit Private(SelfServiceOptions o)
        : options(std::move(o))
        , db(options.openStore, QStringLiteral("gq-selfservice-db"))
        , requestsDb(options.openRequestStore ? options.openRequestStore : options.openStore,
                     QStringLiteral("gq-requests-db")) {
        if (options.translators.isEmpty()) {
            auto zh = std::make_shared<QTranslator>();
            if (zh->load(QStringLiteral(":/i18n/gpuquota_zh_CN.qm")))
                options.translators.insert(QStringLiteral("zh_CN"), zh);
        }
    }

    void count(int status) {
        if (options.metrics)
            options.metrics->add(QLatin1String(metricnames::kSelfServiceRequests),
                                 {{QStringLiteral("code"), QString::number(status)}});
    }

    // Creates a review object (TokenReview, SubjectAccessReview) of `group` with `spec`
    // and returns the status the API server filled in. Called on an HTTP worker thread.
    Result<QJsonObject> review(const QString &group, const QString &kind, const QString &plural,
                               const QJsonObject &spec) {
        const QJsonObject object{{QStringLiteral("apiVersion"), group},
                                 {QStringLiteral("kind"), kind},
                                 {QStringLiteral("spec"), spec}};
        KubeRequest req;
        req.method = HttpMethod::Post;
        req.path = QStringLiteral("/apis/%1/%2").arg(group, plural);
        req.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
        req.retrySafe = true;
        req.timeoutMs = std::max(1, options.reviewTimeoutMs);
        req.maxAttempts = 1;
        QFuture<Result<KubeResponse>> f = options.kube->send(req);
        f.waitForFinished();
        const Result<KubeResponse> r = f.result();
        if (!r)
            return r.error();
        return r->json().value(QLatin1String("status")).toObject();
    }

    // nullopt: the cluster says the token is not valid.
    Result<std::optional<ReviewedUser>> reviewToken(const QByteArray &token) {
        const QByteArray key = QCryptographicHash::hash(token, QCryptographicHash::Sha256);
        {
            std::lock_guard lock(cacheMutex);
            if (auto it = tokens.find(key); it != tokens.end() && !it->second.until.hasExpired())
                return it->second.value;
        }
        if (!options.kube)
            return Error::make(Error::Kind::Config, QStringLiteral("no cluster to verify tokens with"));
        const auto reviewed = review(QStringLiteral("authentication.k8s.io/v1"),
                                     QStringLiteral("TokenReview"), QStringLiteral("tokenreviews"),
                                     QJsonObject{{QStringLiteral("token"), QString::fromUtf8(token)}});
        if (!reviewed)
            return reviewed.error();
        const QJsonObject &status = *reviewed;
        std::optional<ReviewedUser> user;
        if (status.value(QLatin1String("authenticated")).toBool()) {
            const QJsonObject u = status.value(QLatin1String("user")).toObject();
            ReviewedUser who{
                u.value(QLatin1String("username")).toString(), u.value(QLatin1String("uid")).toString(), {}};
            for (const QJsonValue &g : u.value(QLatin1String("groups")).toArray())
                who.groups.append(g.toString());
            if (!who.username.isEmpty())
                user = who;
        }
        std::lock_guard lock(cacheMutex);
        if (tokens.size() > 10000)
            tokens.clear(); // a flood of random tokens must not grow memory without bound
        tokens[key] = {user, QDeadlineTimer(qint64(options.authCacheSeconds) * 1000)};
        return user;
    }

    // May `who` <verb> `resource` (of API group `group`) in `ns` ("" = all namespaces)?
    Result<bool> mayAccess(const ReviewedUser &who, const QString &verb, const QString &ns,
                           const QString &resource = QStringLiteral("resourcequotas"),
                           const QString &group = QString()) {
        const QString key = who.username + QLatin1Char('\n') + who.groups.join(QLatin1Char(',')) +
                            QLatin1Char('\n') + verb + QLatin1Char('\n') + ns + QLatin1Char('\n') + resource +
                            QLatin1Char('\n') + group;
        {
            std::lock_guard lock(cacheMutex);
            if (auto it = access.find(key); it != access.end() && !it->second.until.hasExpired())
                return it->second.value;
        }
        QJsonObject attrs{{QStringLiteral("verb"), verb}, {QStringLiteral("resource"), resource}};
        if (!group.isEmpty())
            attrs.insert(QStringLiteral("group"), group);
        if (!ns.isEmpty())
            attrs.insert(QStringLiteral("namespace"), ns);
        QJsonObject spec{{QStringLiteral("user"), who.username},
                         {QStringLiteral("groups"), QJsonArray::fromStringList(who.groups)},
                         {QStringLiteral("resourceAttributes"), attrs}};
        if (!who.uid.isEmpty())
            spec.insert(QStringLiteral("uid"), who.uid);
        const auto reviewed =
            review(QStringLiteral("authorization.k8s.io/v1"), QStringLiteral("SubjectAccessReview"),
                   QStringLiteral("subjectaccessreviews"), spec);
        if (!reviewed)
            return reviewed.error();
        const bool allowed = reviewed->value(QLatin1String("allowed")).toBool();
        std::lock_guard lock(cacheMutex);
        if (access.size() > 10000)
            access.clear();
        access[key] = {allowed, QDeadlineTimer(qint64(options.authCacheSeconds) * 1000)};
        return allowed;
    }

    // The caller by their bearer token; else the error response (401, 503).
    std::variant<ReviewedUser, httpd::Response> authenticate(const httpd::Request &req) {
        const QByteArray token = req.bearerToken();
        if (token.isEmpty())
            return selfservice::jsonError(
                401, QStringLiteral("a bearer token is required (Authorization: Bearer TOKEN)"));
        auto who = reviewToken(token);
        if (!who)
            return selfservice::unavailable(
                QStringLiteral("cannot verify the token with the cluster now; try again later"), who.error());
        if (!*who)
            return selfservice::jsonError(401, QStringLiteral("the cluster did not accept the token"));
        return **who;
    }

    struct Target {
        BudgetScope scope = BudgetScope::User;
        QString subject;
        QJsonObject identity; // what the caller's name maps to (identityJson())
        ReviewedUser caller;
    };
    // The subject asked for, once the caller is known and allowed to see it; else the
    // error response (400, 401, 403, 404, 503).
    std::variant<Target, httpd::Response> authorize(const httpd::Request &req) {
        const QString user = req.query.queryItemValue(QStringLiteral("user"), QUrl::FullyDecoded);
        const QString ns = req.query.queryItemValue(QStringLiteral("namespace"), QUrl::FullyDecoded);
        if (req.query.hasQueryItem(QStringLiteral("user")) &&
            req.query.hasQueryItem(QStringLiteral("namespace")))
            return selfservice::jsonError(400, QStringLiteral("give user or namespace, not both"));
        if ((req.query.hasQueryItem(QStringLiteral("user")) && user.trimmed().isEmpty()) ||
            (req.query.hasQueryItem(QStringLiteral("namespace")) && ns.trimmed().isEmpty()))
            return selfservice::jsonError(400, QStringLiteral("user or namespace must not be empty"));
        auto who = authenticate(req);
        if (auto *error = std::get_if<httpd::Response>(&who))
            return *error;
        const ReviewedUser &caller = std::get<ReviewedUser>(who);
        const Result<IdentityMapping> mine = mapIdentity(caller.username, options.identity);
        Target target;
        target.caller = caller;
        target.identity = identityJson(caller.username, mine);
        const auto own = [&mine](const Target &t) {
            return mine && mine->scope == t.scope && mine->subject == t.subject;
        };
        if (!ns.isEmpty()) {
            target.scope = BudgetScope::Namespace;
            target.subject = ns;
            if (own(target))
                return target;
            auto may = mayAccess(caller, QStringLiteral("get"), ns);
            if (!may)
                return selfservice::unavailable(
                    QStringLiteral("cannot ask the cluster for access now; try again later"), may.error());
            if (*may)
                return target;
        } else if (!user.isEmpty() && user != caller.username) {
            target.scope = BudgetScope::User;
            target.subject = user;
            if (own(target))
                return target;
        } else {
            // No subject, or the caller's own username (what clients that predate the
            // mapping send, e.g. the console's link): the caller's own status.
            if (!mine) {
                httpd::Response r = selfservice::jsonError(
                    404, QStringLiteral("no budget of your own: %1").arg(mine.error().message));
                QJsonObject body = QJsonDocument::fromJson(r.body).object();
                body.insert(QStringLiteral("identity"), target.identity);
                r.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
                return r;
            }
            target.scope = mine->scope;
            target.subject = mine->subject;
            return target;
        }
        auto everyone = mayAccess(caller, QStringLiteral("list"), QString());
        if (!everyone)
            return selfservice::unavailable(
                QStringLiteral("cannot ask the cluster for access now; try again later"), everyone.error());
        if (*everyone)
            return target;
        return selfservice::jsonError(
            403,
            target.scope == BudgetScope::User
                ? QStringLiteral("%1 may not see the quota of user %2").arg(caller.username, target.subject)
                : QStringLiteral("%1 may not get resourcequotas in namespace %2")
                      .arg(caller.username, target.subject));
    }
};

} // namespace gq
