#include "services/controller/selfserviceprivate.h"

#include "services/advisor/fitadvisorform.h"

#include "core/usage/boosts.h"
#include "core/kube/kubeclient.h"
#include "services/controller/logthrottle.h"
#include "services/controller/metricsregistry.h"
#include "services/selfservice/selfservicepage.h"
#include "core/usage/usagestore.h"

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

using namespace selfservice;

SelfService::SelfService(SelfServiceOptions options)
    : d(std::make_unique<Private>(std::move(options))) {}

SelfService::~SelfService() = default;

void SelfService::mount(httpd::HttpServer &server) {
    server.route("GET", QStringLiteral("/quota/status"),
                 [this](const httpd::Request &r) { return statusEndpoint(r); });
    server.route("GET", QStringLiteral("/quota"),
                 [this](const httpd::Request &r) { return pageEndpoint(r); });
    server.route("GET", QStringLiteral("/quota/boost-requests"),
                 [this](const httpd::Request &r) { return listRequestsEndpoint(r); });
    server.route("POST", QStringLiteral("/quota/boost-requests"),
                 [this](const httpd::Request &r) { return submitRequestEndpoint(r); });
    server.route("POST", QStringLiteral("/quota/boost-requests/form"),
                 [this](const httpd::Request &r) { return formRequestEndpoint(r); });
    server.route("POST", QStringLiteral("/quota/boost-requests/withdraw"),
                 [this](const httpd::Request &r) { return withdrawRequestEndpoint(r); });
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
            QString html = withFitAdvisor(page.render(*doc), request, t.scope, t.subject, lang);
            const qsizetype end = html.lastIndexOf(QLatin1String("</main>"));
            html.insert(end >= 0 ? end : html.size(), requestSection(request, t.caller.username, lang));
            response = httpd::Response::html(200, html);
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
