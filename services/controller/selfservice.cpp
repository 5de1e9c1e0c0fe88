#include "selfservice.h"

#include "fitadvisorform.h"

#include "boosts.h"
#include "kubeclient.h"
#include "logthrottle.h"
#include "metricsregistry.h"
#include "selfservicepage.h"
#include "storethread.h"
#include "usagestore.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTranslator>

#include <algorithm>
#include <map>
#include <mutex>
#include <variant>

Q_LOGGING_CATEGORY(lcSelfService, "gq.controller.selfservice")

namespace gq {

namespace {

template <typename V> struct Cached {
    V value;
    QDeadlineTimer until;
};

httpd::Response jsonError(int status, const QString &message) {
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
httpd::Response unavailable(const QString &publicText, const Error &error) {
    static LogThrottle throttle;
    qint64 suppressed = 0;
    if (throttle.allow(suppressed))
        qCWarning(lcSelfService).noquote()
            << "self-service answered 503:" << publicText << "-" << error.toString()
            << (suppressed > 0 ? QStringLiteral("(%1 more since the last line)").arg(suppressed) : QString());
    return jsonError(503, publicText);
}

} // namespace

struct SelfService::Private {
    SelfServiceOptions options;
    StoreThread db;
    std::mutex cacheMutex;
    std::map<QByteArray, Cached<std::optional<ReviewedUser>>> tokens;
    std::map<QString, Cached<bool>> access;
    std::mutex metricsMutex;
    QDeadlineTimer metricsFresh;

    explicit Private(SelfServiceOptions o)
        : options(std::move(o))
        , db(options.openStore) {
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

    // May `who` <verb> resourcequotas in `ns` ("" = all namespaces)?
    Result<bool> mayAccess(const ReviewedUser &who, const QString &verb, const QString &ns) {
        const QString key = who.username + QLatin1Char('\n') + who.groups.join(QLatin1Char(',')) +
                            QLatin1Char('\n') + verb + QLatin1Char('\n') + ns;
        {
            std::lock_guard lock(cacheMutex);
            if (auto it = access.find(key); it != access.end() && !it->second.until.hasExpired())
                return it->second.value;
        }
        QJsonObject attrs{{QStringLiteral("verb"), verb},
                          {QStringLiteral("resource"), QStringLiteral("resourcequotas")}};
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

    struct Target {
        BudgetScope scope = BudgetScope::User;
        QString subject;
        QJsonObject identity; // what the caller's name maps to (identityJson())
    };
    // The subject asked for, once the caller is known and allowed to see it; else the
    // error response (400, 401, 403, 404, 503).
    std::variant<Target, httpd::Response> authorize(const httpd::Request &req) {
        const QString user = req.query.queryItemValue(QStringLiteral("user"), QUrl::FullyDecoded);
        const QString ns = req.query.queryItemValue(QStringLiteral("namespace"), QUrl::FullyDecoded);
        if (req.query.hasQueryItem(QStringLiteral("user")) &&
            req.query.hasQueryItem(QStringLiteral("namespace")))
            return jsonError(400, QStringLiteral("give user or namespace, not both"));
        if ((req.query.hasQueryItem(QStringLiteral("user")) && user.trimmed().isEmpty()) ||
            (req.query.hasQueryItem(QStringLiteral("namespace")) && ns.trimmed().isEmpty()))
            return jsonError(400, QStringLiteral("user or namespace must not be empty"));
        const QByteArray token = req.bearerToken();
        if (token.isEmpty())
            return jsonError(401, QStringLiteral("a bearer token is required (Authorization: Bearer TOKEN)"));
        auto who = reviewToken(token);
        if (!who)
            return unavailable(
                QStringLiteral("cannot verify the token with the cluster now; try again later"), who.error());
        if (!*who)
            return jsonError(401, QStringLiteral("the cluster did not accept the token"));
        const ReviewedUser &caller = **who;
        const Result<IdentityMapping> mine = mapIdentity(caller.username, options.identity);
        Target target;
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
                return unavailable(QStringLiteral("cannot ask the cluster for access now; try again later"),
                                   may.error());
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
                httpd::Response r =
                    jsonError(404, QStringLiteral("no budget of your own: %1").arg(mine.error().message));
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
            return unavailable(QStringLiteral("cannot ask the cluster for access now; try again later"),
                               everyone.error());
        if (*everyone)
            return target;
        return jsonError(
            403,
            target.scope == BudgetScope::User
                ? QStringLiteral("%1 may not see the quota of user %2").arg(caller.username, target.subject)
                : QStringLiteral("%1 may not get resourcequotas in namespace %2")
                      .arg(caller.username, target.subject));
    }
};

SelfService::SelfService(SelfServiceOptions options)
    : d(std::make_unique<Private>(std::move(options))) {}

SelfService::~SelfService() = default;

void SelfService::mount(httpd::HttpServer &server) {
    server.route("GET", QStringLiteral("/quota/status"),
                 [this](const httpd::Request &r) { return statusEndpoint(r); });
    server.route("GET", QStringLiteral("/quota"),
                 [this](const httpd::Request &r) { return pageEndpoint(r); });
    if (d->options.metrics)
        server.route("GET", QStringLiteral("/metrics"),
                     [this](const httpd::Request &r) { return metricsEndpoint(r); });
}

Result<QJsonObject> SelfService::status(BudgetScope scope, const QString &subject, qint64 now) {
    const QuotaStatusOptions options = d->options.status;
    return d->db.run<QJsonObject>(
        [&](UsageStore &store) { return quotaStatus(store, scope, subject, now, options); });
}

httpd::Response SelfService::statusEndpoint(const httpd::Request &request) {
    auto target = d->authorize(request);
    httpd::Response response;
    if (auto *error = std::get_if<httpd::Response>(&target)) {
        response = *error;
    } else {
        const auto &t = std::get<Private::Target>(target);
        auto doc = status(t.scope, t.subject, d->options.clock->nowSecs());
        if (doc)
            doc->insert(QStringLiteral("identity"), t.identity);
        response =
            doc ? httpd::Response::json(200, QJsonDocument(*doc))
                : unavailable(QStringLiteral("the usage database is not available now; try again later"),
                              doc.error());
    }
    response.headers.append(qMakePair(QByteArray("Cache-Control"), QByteArray("no-store")));
    d->count(response.status);
    return response;
}

httpd::Response SelfService::pageEndpoint(const httpd::Request &request) {
    const QString lang = SelfServicePage::languageFor(request.header("accept-language"));
    const SelfServicePage page(d->options.translators.value(lang).get(), lang);
    auto target = d->authorize(request);
    httpd::Response response;
    if (auto *error = std::get_if<httpd::Response>(&target)) {
        // The same status with the message as a plain page a browser shows.
        const QString message =
            QJsonDocument::fromJson(error->body).object().value(QLatin1String("error")).toString();
        response = httpd::Response::html(
            error->status,
            QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1</title></head>"
                           "<body style=\"font-family:sans-serif;margin:40px\"><h1>%1</h1><p>%2</p>"
                           "</body></html>")
                .arg(error->status)
                .arg(message.toHtmlEscaped()));
        response.headers = error->headers;
    } else {
        const auto &t = std::get<Private::Target>(target);
        auto doc = status(t.scope, t.subject, d->options.clock->nowSecs());
        if (doc)
            doc->insert(QStringLiteral("identity"), t.identity);
        if (doc) {
            response = httpd::Response::html(
                200, withFitAdvisor(page.render(*doc), request, t.scope, t.subject, lang));
        } else {
            const httpd::Response error = unavailable(
                QStringLiteral("the usage database is not available now; try again later"), doc.error());
            const QString message =
                QJsonDocument::fromJson(error.body).object().value(QLatin1String("error")).toString();
            response = httpd::Response::html(
                503, QStringLiteral("<!DOCTYPE html><p>%1</p>").arg(message.toHtmlEscaped()));
        }
    }
    response.headers.append(qMakePair(QByteArray("Cache-Control"), QByteArray("no-store")));
    response.headers.append(qMakePair(QByteArray("Content-Security-Policy"),
                                      QByteArray("default-src 'none'; style-src 'unsafe-inline'")));
    response.headers.append(qMakePair(QByteArray("Content-Language"),
                                      QByteArray(lang == QLatin1String("zh_CN") ? "zh-CN" : "en")));
    response.headers.append(qMakePair(QByteArray("Vary"), QByteArray("Accept-Language, Authorization")));
    d->count(response.status);
    return response;
}

Result<void> SelfService::refreshMetrics(qint64 now) {
    const std::shared_ptr<MetricsRegistry> registry = d->options.metrics;
    if (!registry)
        return {};
    const bool perUser = d->options.perUserMetrics;
    return d->db.run<void>([&](UsageStore &store) -> Result<void> {
        auto budgets = store.budgets();
        if (!budgets)
            return budgets.error();
        using Series = QList<QPair<MetricLabels, double>>;
        Series nsUsed, nsLeft, nsLimit, userUsed, userLeft, userLimit;
        QList<QPair<BudgetScope, QString>> subjects;
        for (const Budget &b : std::as_const(*budgets))
            if (!subjects.contains(qMakePair(b.scope, b.subject)) &&
                (perUser || b.scope == BudgetScope::Namespace))
                subjects.append(qMakePair(b.scope, b.subject));
        for (const auto &[scope, subject] : subjects) {
            auto status = store.budgetStatus(scope, subject, now);
            if (!status)
                return status.error();
            const bool ns = scope == BudgetScope::Namespace;
            for (const Decision &dec : std::as_const(*status)) {
                const MetricLabels labels{
                    {ns ? QStringLiteral("namespace") : QStringLiteral("user"), subject},
                    {QStringLiteral("period"), periodName(dec.budget.period)}};
                (ns ? nsUsed : userUsed).append({labels, dec.used * 3600});
                (ns ? nsLeft : userLeft).append({labels, dec.remaining * 3600});
                (ns ? nsLimit : userLimit).append({labels, dec.limit * 3600});
            }
        }
        auto boosts = store.boosts();
        if (!boosts)
            return boosts.error();
        double budgetBoosts = 0, quotaBoosts = 0;
        for (const Boost &b : std::as_const(*boosts)) {
            const bool live =
                !b.isFinal() && b.state != Boost::State::Failed && b.start <= now && now < b.expiry;
            if (live)
                (b.target.kind == BoostTarget::Kind::Budget ? budgetBoosts : quotaBoosts) += 1;
        }
        using namespace metricnames;
        registry->replaceAll(QLatin1String(kNamespaceUsed), nsUsed);
        registry->replaceAll(QLatin1String(kNamespaceRemaining), nsLeft);
        registry->replaceAll(QLatin1String(kNamespaceLimit), nsLimit);
        if (perUser) {
            registry->replaceAll(QLatin1String(kUserUsed), userUsed);
            registry->replaceAll(QLatin1String(kUserRemaining), userLeft);
            registry->replaceAll(QLatin1String(kUserLimit), userLimit);
        }
        registry->replaceAll(QLatin1String(kBoostsActive),
                             {{{{QStringLiteral("kind"), QStringLiteral("budget")}}, budgetBoosts},
                              {{{QStringLiteral("kind"), QStringLiteral("quota")}}, quotaBoosts}});
        return {};
    });
}

httpd::Response SelfService::metricsEndpoint(const httpd::Request &) {
    if (!d->options.metrics)
        return httpd::Response::text(404, QStringLiteral("no metrics"));
    {
        // One scrape at a time recomputes; the others render what is there.
        std::unique_lock lock(d->metricsMutex, std::try_to_lock);
        if (lock.owns_lock() && (d->metricsFresh.isForever() || d->metricsFresh.hasExpired())) {
            if (refreshMetrics(d->options.clock->nowSecs()))
                d->metricsFresh.setRemainingTime(qint64(d->options.metricsRefreshSeconds) * 1000);
        }
    }
    httpd::Response r;
    r.status = 200;
    r.contentType = MetricsRegistry::kContentType;
    r.body = d->options.metrics->render();
    return r;
}

QString SelfService::withFitAdvisor(const QString &page, const httpd::Request &request, BudgetScope scope,
                                    const QString &subject, const QString &lang) {
    FitAdvisorForm::Sources sources;
    const QString ns = scope == BudgetScope::Namespace ? subject : QString();
    if (!ns.isEmpty() && d->options.kube)
        sources.cluster = [kube = d->options.kube, ns] { return readFitClusterFacts(*kube, ns); };
    const qint64 now = d->options.clock->nowSecs();
    sources.budget = [this, scope, subject, now](double gpus, double hours) {
        const AdmissionRequest req{AdmissionRequest::Kind::NewJob, gpus, hours};
        const QString user = scope == BudgetScope::User ? subject : QString();
        const QString ns = scope == BudgetScope::Namespace ? subject : QString();
        return d->db.run<Decision>([&](UsageStore &store) { return store.check(user, ns, req, now); });
    };
    const QString section =
        FitAdvisorForm(d->options.translators.value(lang).get()).render(request.query, sources);
    QString html = page;
    const qsizetype end = html.lastIndexOf(QLatin1String("</main>"));
    html.insert(end >= 0 ? end : html.size(), section);
    return html;
}

} // namespace gq
