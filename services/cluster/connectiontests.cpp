#include "services/cluster/connectiontests.h"

#include "core/metrics/exposition.h"
#include "core/metrics/gpusample.h"
#include "core/net/httptransport.h"
#include "core/metrics/idle.h"
#include "core/metrics/scrape.h"
#include "core/usage/usagestore.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QSet>
#include <QSqlQuery>
#include <QUrl>
#include <QUrlQuery>

namespace gq::connectiontests {

namespace {
Error failure(Error::Kind kind, const QString &message) {
    return Error::make(kind, message);
}

// A request as a Test button sends it: short timeouts, one attempt (the admin is waiting
// and clicks again if they want another try).
HttpRequest testRequest(const QString &url, const QString &token = {}, const QByteArray &caPem = {}) {
    HttpRequest r;
    r.url = url;
    r.connectTimeoutMs = 5000;
    r.timeoutMs = 10000;
    r.tls.caPem = caPem;
    r.description = QStringLiteral("GET ") + QUrl(url).path();
    if (!token.isEmpty())
        r.headers.append({QByteArrayLiteral("Authorization"), "Bearer " + token.toUtf8()});
    return r;
}

// The failure of an HTTP answer, in words; `what` names the source ("Prometheus").
Error httpFailure(const HttpResponse &r, const QString &url) {
    if (r.transportError) {
        const Error &t = *r.transportError;
        if (t.kind == Error::Kind::Tls)
            return failure(
                Error::Kind::Tls,
                QCoreApplication::translate("gq::ConnectionTests",
                                            "TLS: the certificate of %1 is not trusted (%2); set the CA file")
                    .arg(url, t.message));
        if (t.kind == Error::Kind::Timeout)
            return failure(
                Error::Kind::Timeout,
                QCoreApplication::translate("gq::ConnectionTests", "no answer from %1 within 10 s").arg(url));
        // libcurl's own words for the two most common cases are long and English-only.
        QString reason = t.message;
        if (t.message.contains(QLatin1String("Couldn't connect")) ||
            t.message.contains(QLatin1String("Connection refused")))
            reason = QCoreApplication::translate("gq::ConnectionTests",
                                                 "nothing listens there (connection refused)");
        else if (t.message.contains(QLatin1String("resolve host")))
            reason = QCoreApplication::translate("gq::ConnectionTests", "the host name is not known");
        return failure(
            t.kind,
            QCoreApplication::translate("gq::ConnectionTests", "cannot reach %1: %2").arg(url, reason));
    }
    Error e;
    switch (r.httpStatus) {
    case 401:
        e = failure(Error::Kind::Unauthorized,
                    QCoreApplication::translate("gq::ConnectionTests", "401: token rejected"));
        break;
    case 403:
        e = failure(Error::Kind::Forbidden,
                    QCoreApplication::translate("gq::ConnectionTests", "403: the token may not read this"));
        break;
    case 404:
        e = failure(Error::Kind::NotFound,
                    QCoreApplication::translate("gq::ConnectionTests",
                                                "404: nothing at %1 (check the URL and its path)")
                        .arg(url));
        break;
    default:
        e = failure(
            r.httpStatus >= 500 ? Error::Kind::Server : Error::Kind::Invalid,
            QCoreApplication::translate("gq::ConnectionTests", "HTTP %1 from %2").arg(r.httpStatus).arg(url));
        break;
    }
    e.httpStatus = r.httpStatus;
    return e;
}

// "2 GPUs" or "3 GPUs and 2 MIG instances": what the source reports, counted as the
// live view counts it.
QString gpuCount(int gpus, int migInstances) {
    return migInstances > 0
               ? QCoreApplication::translate("gq::ConnectionTests", "%1 GPUs and %2 MIG instances")
                     .arg(gpus)
                     .arg(migInstances)
               : QCoreApplication::translate("gq::ConnectionTests", "%1 GPUs").arg(gpus);
}

QString joined(const QString &base, const QString &path) {
    QString b = base.trimmed();
    while (b.endsWith(QLatin1Char('/')))
        b.chop(1);
    return b + path;
}

Result<QUrl> httpUrl(const QString &text, const QString &field) {
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (text.trimmed().isEmpty())
        return failure(Error::Kind::Invalid,
                       QCoreApplication::translate("gq::ConnectionTests", "no URL given"));
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) ||
        url.host().isEmpty()) {
        Error e =
            failure(Error::Kind::Invalid,
                    QCoreApplication::translate("gq::ConnectionTests", "not an http:// or https:// URL: %1")
                        .arg(text));
        e.field = field;
        return e;
    }
    return url;
}
} // namespace

QString shortCount(qint64 n) {
    const QLocale l;
    if (n < 10000)
        return l.toString(n);
    if (n < 1000000)
        return l.toString(double(n) / 1000.0, 'f', n < 100000 ? 1 : 0) + QStringLiteral(" k");
    if (n < 1000000000)
        return l.toString(double(n) / 1e6, 'f', n < 100000000 ? 1 : 0) + QStringLiteral(" M");
    return l.toString(double(n) / 1e9, 'f', 1) + QStringLiteral(" G");
}

QString agoText(qint64 s) {
    if (s < 60)
        return QCoreApplication::translate("gq::ConnectionTests", "just now");
    if (s < 3600)
        return QCoreApplication::translate("gq::ConnectionTests", "%1 min ago").arg(s / 60);
    if (s < 2 * 86400)
        return QCoreApplication::translate("gq::ConnectionTests", "%1 h ago").arg(s / 3600);
    return QCoreApplication::translate("gq::ConnectionTests", "%1 days ago").arg(s / 86400);
}

Result<QString> usageDatabase(const QString &url, const QString &password, qint64 now) {
    if (url.trimmed().isEmpty())
        return failure(Error::Kind::Invalid,
                       QCoreApplication::translate("gq::ConnectionTests", "no database URL given"));
    // The words for a console user: the file is made when the console opens the context.
    if (auto parsed = DbUrl::parse(url.trimmed()); parsed && parsed->driver == DbUrl::Driver::Sqlite &&
                                                   parsed->path != QLatin1String(":memory:") &&
                                                   !QFileInfo::exists(parsed->path))
        return failure(
            Error::Kind::NotFound,
            QCoreApplication::translate("gq::ConnectionTests",
                                        "no database file at %1 yet (the console creates it when it "
                                        "opens this context)")
                .arg(parsed->path));
    UsageStore::Options options;
    options.readOnly = true;
    options.password = password;
    auto store = UsageStore::open(url.trimmed(), options);
    if (!store) {
        const Error &e = store.error();
        QString text = e.message;
        if (e.message.contains(QLatin1String("password authentication failed")))
            text = QCoreApplication::translate("gq::ConnectionTests", "password rejected: %1").arg(e.message);
        return failure(e.kind, text);
    }
    auto version = (*store)->schemaVersion();
    if (!version)
        return version.error();
    auto count = (*store)->intervalCount();
    if (!count)
        return count.error();
    QString newest = QCoreApplication::translate("gq::ConnectionTests", "no intervals yet");
    QSqlQuery q((*store)->database());
    if (q.exec(QStringLiteral("SELECT MAX(start_s) FROM usage_intervals")) && q.next() &&
        !q.value(0).isNull())
        newest = QCoreApplication::translate("gq::ConnectionTests", "newest %1")
                     .arg(agoText(qMax<qint64>(0, now - q.value(0).toLongLong())));
    q.finish();
    return QCoreApplication::translate("gq::ConnectionTests", "connected, schema v%1, %2 intervals, %3")
        .arg(*version)
        .arg(shortCount(*count),
             *count ? newest : QCoreApplication::translate("gq::ConnectionTests", "none recorded yet"));
}

Result<QString> prometheus(HttpTransport &http, const PrometheusTarget &target) {
    auto base = httpUrl(target.url, QStringLiteral("prometheusUrl"));
    if (!base)
        return base.error();
    const QString info = joined(target.url, QStringLiteral("/api/v1/status/buildinfo"));
    const HttpResponse r = http.send(testRequest(info, target.token, target.caPem)).result();
    if (!r.ok())
        return httpFailure(r, target.url);
    const QJsonObject data = QJsonDocument::fromJson(r.body).object().value(QLatin1String("data")).toObject();
    const QString version = data.value(QLatin1String("version")).toString();
    if (version.isEmpty())
        return failure(Error::Kind::Parse,
                       QCoreApplication::translate(
                           "gq::ConnectionTests",
                           "%1 answered, but not like Prometheus (no version in /api/v1/status/buildinfo)")
                           .arg(target.url));

    // Distinct GPUs and MIG instances, not series: a shared GPU has one series per pod,
    // a MIG instance reports DCGM_FI_PROF_GR_ENGINE_ACTIVE only, and old exporters and
    // setups use lower-case names and labels (hostname, uuid). Missing labels group as "".
    const QString series = gq::metrics::gpuUtilizationQuery();
    const QString ids = QStringLiteral("Hostname, hostname, gpu, UUID, uuid");
    const auto count = [&](const QString &promql) -> Result<int> {
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("query"), promql);
        const QString url =
            joined(target.url, QStringLiteral("/api/v1/query?")) + query.toString(QUrl::FullyEncoded);
        const HttpResponse c = http.send(testRequest(url, target.token, target.caPem)).result();
        if (!c.ok())
            return failure(Error::Kind::Server,
                           QCoreApplication::translate(
                               "gq::ConnectionTests", "Prometheus %1 reachable, but the GPU query failed: %2")
                               .arg(version, httpFailure(c, target.url).message));
        const QJsonArray result = QJsonDocument::fromJson(c.body)
                                      .object()
                                      .value(QLatin1String("data"))
                                      .toObject()
                                      .value(QLatin1String("result"))
                                      .toArray();
        // count() over nothing is an empty vector, not 0.
        return result.isEmpty() ? 0
                                : result.first()
                                      .toObject()
                                      .value(QLatin1String("value"))
                                      .toArray()
                                      .at(1)
                                      .toString()
                                      .toInt();
    };
    const auto gpus = count(QStringLiteral("count(count by (%1) (%2))").arg(ids, series));
    if (!gpus)
        return gpus.error();
    const auto mig = count(
        QStringLiteral("count(count by (%1, GPU_I_ID) (%2))")
            .arg(ids, QString(series).replace(QStringLiteral("\"}"), QStringLiteral("\", GPU_I_ID!=\"\"}"))));
    if (!mig)
        return mig.error();
    if (*gpus == 0)
        return QCoreApplication::translate("gq::ConnectionTests",
                                           "Prometheus %1 reachable, but no GPU reports DCGM_FI_DEV_GPU_UTIL "
                                           "(is dcgm-exporter scraped?)")
            .arg(version);
    return QCoreApplication::translate("gq::ConnectionTests", "Prometheus %1 reachable, %2 reporting")
        .arg(version, gpuCount(*gpus, *mig));
}

Result<QString> exporters(HttpTransport &http, const QStringList &endpoints) {
    if (endpoints.isEmpty())
        return failure(Error::Kind::Invalid,
                       QCoreApplication::translate("gq::ConnectionTests", "no exporter endpoints given"));
    int answering = 0;
    QStringList problems;
    QList<gq::metrics::ScrapedText> pages;
    for (const QString &endpoint : endpoints) {
        if (auto u = httpUrl(endpoint, QStringLiteral("exporterEndpoints")); !u) {
            problems << u.error().message;
            continue;
        }
        const HttpResponse r = http.send(testRequest(endpoint)).result();
        if (!r.ok()) {
            problems << httpFailure(r, endpoint).message;
            continue;
        }
        ++answering;
        pages.append({endpoint, gq::metrics::parseExposition(r.body)});
    }
    // The live view's mapping: one row per GPU and per MIG instance, a shared GPU once.
    const gq::metrics::GpuSnapshot snapshot = gq::metrics::snapshotFromScrapes(pages);
    QSet<QString> gpus;
    int mig = 0;
    for (const gq::metrics::GpuSample &g : snapshot.gpus) {
        gpus.insert(g.physicalKey());
        if (g.isMigInstance())
            ++mig;
    }
    const QString summary =
        QCoreApplication::translate("gq::ConnectionTests", "%1 of %2 endpoints answer, %3 reporting")
            .arg(answering)
            .arg(endpoints.size())
            .arg(gpuCount(int(gpus.size()), mig));
    if (answering == 0)
        return failure(Error::Kind::Network,
                       summary + QStringLiteral(": ") + problems.join(QStringLiteral("; ")));
    if (!problems.isEmpty())
        return QString(summary + QStringLiteral(" (") + problems.join(QStringLiteral("; ")) +
                       QLatin1Char(')'));
    return summary;
}

Result<QString> controller(HttpTransport &http, const QString &url) {
    if (auto u = httpUrl(url, QStringLiteral("controllerUrl")); !u)
        return u.error();
    const HttpResponse r = http.send(testRequest(joined(url, QStringLiteral("/healthz")))).result();
    if (!r.ok())
        return httpFailure(r, url);
    const QString body = QString::fromUtf8(r.body.left(80)).simplified();
    return body.isEmpty()
               ? QCoreApplication::translate("gq::ConnectionTests", "controller reachable")
               : QCoreApplication::translate("gq::ConnectionTests", "controller reachable: %1").arg(body);
}

Result<QString> controllerReady(HttpTransport &http, const QString &url) {
    if (auto u = httpUrl(url, QStringLiteral("controllerUrl")); !u)
        return u.error();
    const HttpResponse r = http.send(testRequest(joined(url, QStringLiteral("/readyz")))).result();
    if (r.ok())
        return QCoreApplication::translate("gq::ConnectionTests", "controller ready");
    if (!r.transportError && r.httpStatus == 503) {
        // The body lists what was checked; say the ones that failed.
        QStringList problems;
        for (const QString &line : QString::fromUtf8(r.body.left(2000)).split(QLatin1Char('\n')))
            if (line.contains(QLatin1String("unavailable")) || line.contains(QLatin1String("NOT")) ||
                line.contains(QLatin1String(": no")))
                problems << line.trimmed();
        Error e = failure(
            Error::Kind::Server,
            QCoreApplication::translate("gq::ConnectionTests", "controller not ready: %1")
                .arg(problems.isEmpty() ? QStringLiteral("503") : problems.join(QStringLiteral("; "))));
        e.httpStatus = 503;
        return e;
    }
    Error e = httpFailure(r, url);
    e.message =
        QCoreApplication::translate("gq::ConnectionTests", "controller unreachable: %1").arg(e.message);
    return e;
}

} // namespace gq::connectiontests
