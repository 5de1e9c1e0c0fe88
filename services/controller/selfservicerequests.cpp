// The self-service boost requests (see selfservice.h): a user asks for extra GPU-hours on a
// budget they may see, with the identity their token has; an admin decides with
// `gpuquota boost approve|deny` or the console's Boosts tab (BoostRequestLedger).
#include "services/controller/selfserviceprivate.h"

#include "services/selfservice/boostrequestform.h"
#include "core/usage/boostrequests.h"
#include "core/usage/timewindow.h"
#include "core/usage/usagestore.h"

#include <QUrl>
#include <QUrlQuery>

namespace gq {

using namespace selfservice;

namespace {

httpd::Response fromError(const Error &e) {
    switch (e.kind) {
    case Error::Kind::Invalid:
    case Error::Kind::Parse:
    case Error::Kind::Usage:
        // The JSON names the hours "hours" where the CLI says --add-hours.
        return jsonError(
            400, e.field.isEmpty()
                     ? e.message
                     : QString((e.field == QLatin1String("add-hours") ? QStringLiteral("hours") : e.field) +
                               QStringLiteral(": ") + e.message));
    case Error::Kind::NotFound: return jsonError(404, e.message);
    case Error::Kind::Forbidden: return jsonError(403, e.message);
    case Error::Kind::Conflict: return jsonError(409, e.message);
    default:
        return unavailable(QStringLiteral("the usage database is not available now; try again later"), e);
    }
}

httpd::Response noStore(httpd::Response r) {
    r.headers.append(qMakePair(QByteArray("Cache-Control"), QByteArray("no-store")));
    return r;
}

// {"hours": H, "until": "RFC 3339" | "for": "4h", "note": "..."} into a request (no id yet).
Result<BoostRequest> parseRequestBody(const QByteArray &body, qint64 now) {
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return Error::make(Error::Kind::Parse, QStringLiteral("the body must be a JSON object"));
    const QJsonObject o = doc.object();
    BoostRequest r;
    const QJsonValue hours = o.value(QLatin1String("hours"));
    if (!hours.isDouble())
        return Error::make(Error::Kind::Invalid, QStringLiteral("a number of extra GPU-hours is required"),
                           QStringLiteral("hours"));
    r.hours = hours.toDouble();
    const bool hasUntil = o.contains(QLatin1String("until")), hasFor = o.contains(QLatin1String("for"));
    if (hasUntil == hasFor)
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("give until (RFC 3339) or for (e.g. 4h), one"),
                           QStringLiteral("until"));
    if (hasUntil) {
        auto t = parseInstant(o.value(QLatin1String("until")).toString(), QStringLiteral("until"));
        if (!t)
            return t.error();
        r.until = *t;
    } else {
        auto d = parseDuration(o.value(QLatin1String("for")).toString(), QStringLiteral("for"));
        if (!d || *d <= 0)
            return Error::make(Error::Kind::Invalid, QStringLiteral("not a positive duration (e.g. 4h, 2d)"),
                               QStringLiteral("for"));
        r.until = now + *d;
    }
    r.note = o.value(QLatin1String("note")).toString();
    return r;
}

} // namespace

httpd::Response SelfService::listRequestsEndpoint(const httpd::Request &request) {
    auto who = d->authenticate(request);
    httpd::Response response;
    if (auto *error = std::get_if<httpd::Response>(&who)) {
        response = *error;
    } else {
        const QString name = std::get<ReviewedUser>(who).username;
        const Clock *clock = d->options.clock;
        auto mine = d->requestsDb.run<QList<BoostRequest>>([&](UsageStore &store) {
            BoostRequestLedger::Filter f;
            f.requester = name;
            return BoostRequestLedger(store, *clock).list(f);
        });
        if (!mine) {
            response = fromError(mine.error());
        } else {
            QJsonArray arr;
            for (const BoostRequest &r : std::as_const(*mine))
                arr.append(boostRequestJson(r));
            response =
                httpd::Response::json(200, QJsonDocument(QJsonObject{{QStringLiteral("requester"), name},
                                                                     {QStringLiteral("requests"), arr}}));
        }
    }
    d->count(response.status);
    return noStore(response);
}

httpd::Response SelfService::submitRequestEndpoint(const httpd::Request &request) {
    auto target = d->authorize(request);
    httpd::Response response;
    if (auto *error = std::get_if<httpd::Response>(&target)) {
        d->count(error->status);
        return noStore(*error);
    }
    const auto &t = std::get<Private::Target>(target);
    // RBAC: a configured group, else `create boostrequests.gpuquota.io` (in the namespace
    // of a namespace budget, cluster-wide for a user's).
    bool allowed = false;
    for (const QString &g : std::as_const(d->options.boostRequestGroups))
        allowed = allowed || t.caller.groups.contains(g);
    if (!allowed) {
        auto may = d->mayAccess(t.caller, QStringLiteral("create"),
                                t.scope == BudgetScope::Namespace ? t.subject : QString(),
                                QStringLiteral("boostrequests"), QStringLiteral("gpuquota.io"));
        if (!may) {
            response = unavailable(QStringLiteral("cannot ask the cluster for access now; try again later"),
                                   may.error());
            d->count(response.status);
            return noStore(response);
        }
        allowed = *may;
    }
    if (!allowed) {
        response =
            jsonError(403, QStringLiteral("%1 may not request boosts (create boostrequests.gpuquota.io)")
                               .arg(t.caller.username));
        d->count(response.status);
        return noStore(response);
    }
    const Clock *clock = d->options.clock;
    auto parsed = parseRequestBody(request.body, clock->nowSecs());
    if (!parsed) {
        response = fromError(parsed.error());
    } else {
        BoostRequest r = *parsed;
        r.requester = t.caller.username;
        r.scope = t.scope;
        r.subject = t.subject;
        auto stored = d->requestsDb.run<BoostRequest>(
            [&](UsageStore &store) { return BoostRequestLedger(store, *clock).submit(r); });
        response =
            stored
                ? httpd::Response::json(
                      201, QJsonDocument(QJsonObject{{QStringLiteral("request"), boostRequestJson(*stored)},
                                                     {QStringLiteral("identity"), t.identity}}))
                : fromError(stored.error());
    }
    d->count(response.status);
    return noStore(response);
}

httpd::Response SelfService::withdrawRequestEndpoint(const httpd::Request &request) {
    auto who = d->authenticate(request);
    httpd::Response response;
    if (auto *error = std::get_if<httpd::Response>(&who)) {
        response = *error;
    } else {
        const QString name = std::get<ReviewedUser>(who).username;
        const QJsonObject o = QJsonDocument::fromJson(request.body).object();
        const qint64 id = o.value(QLatin1String("id")).toInteger();
        const QString note = o.value(QLatin1String("note")).toString();
        const Clock *clock = d->options.clock;
        auto done = d->requestsDb.run<BoostRequest>(
            [&](UsageStore &store) { return BoostRequestLedger(store, *clock).withdraw(id, note, name); });
        response =
            done ? httpd::Response::json(
                       200, QJsonDocument(QJsonObject{{QStringLiteral("request"), boostRequestJson(*done)}}))
                 : fromError(done.error());
    }
    d->count(response.status);
    return noStore(response);
}

QString SelfService::requestSection(const httpd::Request &request, const QString &caller,
                                    const QString &lang) {
    const Clock *clock = d->options.clock;
    auto mine = d->requestsDb.run<QList<BoostRequest>>([&](UsageStore &store) {
        BoostRequestLedger::Filter f;
        f.requester = caller;
        return BoostRequestLedger(store, *clock).list(f);
    });
    QJsonArray arr;
    if (mine) // the database gone: the form still shows, the list does not
        for (const BoostRequest &r : std::as_const(*mine))
            arr.append(boostRequestJson(r));
    return BoostRequestForm(d->options.translators.value(lang).get()).render(arr, request.query);
}

httpd::Response SelfService::formRequestEndpoint(const httpd::Request &request) {
    // A form post from another site would carry the user's credentials too (an auth
    // proxy in front): only the page's own origin may send it.
    const QByteArray site = request.header("sec-fetch-site");
    const QUrl origin(QString::fromUtf8(request.header("origin")));
    const bool sameOrigin =
        site.isEmpty()
            ? origin.isValid() && !origin.host().isEmpty() &&
                  QString(origin.host() + (origin.port() > 0
                                               ? QString(QLatin1Char(':') + QString::number(origin.port()))
                                               : QString())) == QString::fromUtf8(request.header("host"))
            : site == "same-origin";
    if (!sameOrigin) {
        const httpd::Response r =
            jsonError(403, QStringLiteral("the form is accepted from its own page only"));
        d->count(r.status);
        return noStore(r);
    }
    QByteArray text = request.body;
    text.replace('+', ' ');
    const QUrlQuery form(QString::fromUtf8(text));
    bool number = false;
    const double hours = form.queryItemValue(QStringLiteral("hours"), QUrl::FullyDecoded).toDouble(&number);
    httpd::Request asJson = request;
    asJson.body =
        QJsonDocument(
            QJsonObject{
                {QStringLiteral("hours"), number ? QJsonValue(hours) : QJsonValue()},
                {QStringLiteral("for"), form.queryItemValue(QStringLiteral("for"), QUrl::FullyDecoded)},
                {QStringLiteral("note"), form.queryItemValue(QStringLiteral("note"), QUrl::FullyDecoded)}})
            .toJson(QJsonDocument::Compact);
    const httpd::Response answer = submitRequestEndpoint(asJson);
    const QJsonObject body = QJsonDocument::fromJson(answer.body).object();
    // Every value percent-encoded but the unreserved characters: a reason has spaces,
    // parentheses and question marks.
    QList<QPair<QString, QString>> back;
    for (const char *k : {"user", "namespace"})
        if (request.query.hasQueryItem(QLatin1String(k)))
            back.append(
                {QLatin1String(k), request.query.queryItemValue(QLatin1String(k), QUrl::FullyDecoded)});
    if (answer.status == 201)
        back.append(
            {QStringLiteral("requested"),
             QString::number(
                 body.value(QLatin1String("request")).toObject().value(QLatin1String("id")).toInteger())});
    else
        back.append({QStringLiteral("request_error"), body.value(QLatin1String("error")).toString()});
    QByteArray location("/quota");
    for (const auto &[key, value] : std::as_const(back))
        location +=
            (location.contains('?') ? "&" : "?") + key.toUtf8() + '=' + QUrl::toPercentEncoding(value);
    httpd::Response r = httpd::Response::text(303, QString());
    r.headers.append(qMakePair(QByteArray("Location"), location));
    return noStore(r);
}

} // namespace gq
