#include "core/metrics/prometheusclient.h"

#include "core/net/httptransport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPromise>
#include <QUrl>
#include <QUrlQuery>

#include <cmath>
#include <limits>

namespace gq::metrics {

QList<Sample> PromResult::samples() const {
    QList<Sample> out;
    out.reserve(series.size());
    for (const PromSeries &s : series) {
        if (s.points.isEmpty())
            continue;
        Sample smp;
        smp.name = labelValue(s.metric, u"__name__");
        for (const Label &l : s.metric)
            if (l.name != QLatin1String("__name__"))
                smp.labels.append(l);
        smp.value = s.points.last().v;
        smp.timestampMs = qint64(std::llround(s.points.last().t * 1000.0));
        out.append(std::move(smp));
    }
    return out;
}

QStringList PromResult::notes() const {
    QStringList out = warnings;
    for (const QString &i : infos)
        out << QStringLiteral("info: ") + i;
    return out;
}

QString promTime(double unixSeconds) {
    return QString::number(unixSeconds, 'f', 3);
}

namespace {

Error err(Error::Kind kind, QString message, int httpStatus = 0) {
    Error e = Error::make(kind, std::move(message));
    e.httpStatus = httpStatus;
    return e;
}

double sampleValue(const QJsonValue &v) {
    // Values are strings: "1.5", "NaN", "+Inf", "-Inf".
    const QString s = v.toString();
    if (s == QLatin1String("NaN"))
        return std::numeric_limits<double>::quiet_NaN();
    if (s == QLatin1String("+Inf") || s == QLatin1String("Inf"))
        return std::numeric_limits<double>::infinity();
    if (s == QLatin1String("-Inf"))
        return -std::numeric_limits<double>::infinity();
    bool ok = false;
    const double d = s.toDouble(&ok);
    return ok ? d : std::numeric_limits<double>::quiet_NaN();
}

bool readPoint(const QJsonValue &v, PromPoint *p) {
    const QJsonArray a = v.toArray();
    if (a.size() != 2 || !a.at(0).isDouble() || !a.at(1).isString())
        return false;
    p->t = a.at(0).toDouble();
    p->v = sampleValue(a.at(1));
    return true;
}

QStringList strings(const QJsonValue &v) {
    QStringList out;
    for (const QJsonValue &x : v.toArray())
        out << x.toString();
    return out;
}

Error::Kind kindForStatus(int status, const QString &errorType) {
    if (errorType == QLatin1String("bad_data") || errorType == QLatin1String("execution") || status == 400 ||
        status == 422)
        return Error::Kind::Invalid;
    if (errorType == QLatin1String("timeout"))
        return Error::Kind::Timeout;
    if (errorType == QLatin1String("canceled"))
        return Error::Kind::Cancelled;
    if (status == 401)
        return Error::Kind::Unauthorized;
    if (status == 403)
        return Error::Kind::Forbidden;
    if (status == 404 || errorType == QLatin1String("not_found"))
        return Error::Kind::NotFound;
    if (status == 429)
        return Error::Kind::TooManyRequests;
    return Error::Kind::Server;
}

} // namespace

Result<PromResult> decodePromResponse(int httpStatus, const QByteArray &body) {
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        if (httpStatus == 401 || httpStatus == 403)
            return err(kindForStatus(httpStatus, {}),
                       QStringLiteral("Prometheus refused the request (HTTP %1): check the bearer token")
                           .arg(httpStatus),
                       httpStatus);
        if (httpStatus == 404)
            return err(Error::Kind::NotFound,
                       QStringLiteral("no Prometheus API at this URL (HTTP 404); give the server's base URL"),
                       404);
        const QString start = QString::fromUtf8(body.left(80)).simplified();
        return err(httpStatus >= 500 ? Error::Kind::Server : Error::Kind::Parse,
                   QStringLiteral("not a Prometheus API answer (HTTP %1, %2 bytes%3): %4")
                       .arg(httpStatus)
                       .arg(body.size())
                       .arg(pe.error != QJsonParseError::NoError && !body.isEmpty()
                                ? QStringLiteral(", ") + pe.errorString()
                                : QString())
                       .arg(start.isEmpty() ? QStringLiteral("empty body") : start),
                   httpStatus);
    }
    const QJsonObject o = doc.object();
    const QString status = o.value(QLatin1String("status")).toString();
    if (status == QLatin1String("error") || httpStatus < 200 || httpStatus >= 300) {
        const QString type = o.value(QLatin1String("errorType")).toString();
        QString msg = o.value(QLatin1String("error")).toString();
        if (msg.isEmpty())
            msg = QStringLiteral("HTTP %1").arg(httpStatus);
        return err(kindForStatus(httpStatus, type),
                   type.isEmpty() ? QStringLiteral("Prometheus: %1").arg(msg)
                                  : QStringLiteral("Prometheus (%1): %2").arg(type, msg),
                   httpStatus);
    }
    if (status != QLatin1String("success"))
        return err(Error::Kind::Parse,
                   QStringLiteral("Prometheus answer has no status \"success\" or \"error\""), httpStatus);
    PromResult r;
    r.warnings = strings(o.value(QLatin1String("warnings")));
    r.infos = strings(o.value(QLatin1String("infos")));
    const QJsonObject data = o.value(QLatin1String("data")).toObject();
    r.resultType = data.value(QLatin1String("resultType")).toString();
    const QJsonValue result = data.value(QLatin1String("result"));
    if (r.resultType == QLatin1String("scalar") || r.resultType == QLatin1String("string")) {
        PromPoint p;
        if (!readPoint(result, &p))
            return err(Error::Kind::Parse,
                       QStringLiteral("Prometheus %1 result is not [time, \"value\"]").arg(r.resultType));
        r.scalar = p;
        return r;
    }
    if (r.resultType.isEmpty())
        return r; // buildinfo and friends: no result
    if (r.resultType != QLatin1String("vector") && r.resultType != QLatin1String("matrix")) {
        return err(Error::Kind::Parse,
                   QStringLiteral("unknown Prometheus resultType '%1'").arg(r.resultType));
    }
    const bool matrix = r.resultType == QLatin1String("matrix");
    const QJsonArray arr = result.toArray();
    r.series.reserve(arr.size());
    for (const QJsonValue &item : arr) {
        const QJsonObject so = item.toObject();
        PromSeries s;
        const QJsonObject m = so.value(QLatin1String("metric")).toObject();
        for (auto it = m.constBegin(); it != m.constEnd(); ++it)
            s.metric.append(Label{it.key(), it.value().toString()});
        if (matrix) {
            for (const QJsonValue &pv : so.value(QLatin1String("values")).toArray()) {
                PromPoint p;
                if (!readPoint(pv, &p))
                    return err(Error::Kind::Parse,
                               QStringLiteral("Prometheus matrix point is not [time, \"value\"]"));
                s.points.append(p);
            }
        } else {
            PromPoint p;
            if (so.contains(QLatin1String("value"))) {
                if (!readPoint(so.value(QLatin1String("value")), &p))
                    return err(Error::Kind::Parse,
                               QStringLiteral("Prometheus vector sample is not [time, \"value\"]"));
                s.points.append(p);
            } // native histograms ("histogram") carry no plain value: not ours to read
        }
        r.series.append(std::move(s));
    }
    return r;
}

Result<void> PrometheusClient::check(const PrometheusConfig &config) {
    const QUrl url(config.url);
    if (config.url.isEmpty() || !url.isValid() ||
        (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) ||
        url.host().isEmpty())
        return Error::make(
            Error::Kind::Usage,
            QStringLiteral("'%1' is not a Prometheus URL (http(s)://host:port)").arg(config.url),
            QStringLiteral("--prometheus"));
    if (!config.tokenFile.isEmpty()) {
        QFile f(config.tokenFile);
        if (!f.open(QIODevice::ReadOnly))
            return Error::make(
                Error::Kind::Usage,
                QStringLiteral("cannot read the token file %1: %2").arg(config.tokenFile, f.errorString()),
                QStringLiteral("--token-file"));
    }
    return {};
}

PrometheusClient::PrometheusClient(PrometheusConfig config, std::shared_ptr<HttpTransport> transport)
    : m_config(std::move(config))
    , m_transport(transport ? std::move(transport) : std::make_shared<HttpTransport>()) {
    while (m_config.url.endsWith(u'/'))
        m_config.url.chop(1);
}

PrometheusClient::~PrometheusClient() = default;

QFuture<Result<QByteArray>> PrometheusClient::get(const QString &path,
                                                  const QList<QPair<QString, QString>> &params) {
    HttpRequest req;
    QUrlQuery q;
    for (const auto &p : params)
        q.addQueryItem(QString::fromUtf8(QUrl::toPercentEncoding(p.first)),
                       QString::fromUtf8(QUrl::toPercentEncoding(p.second)));
    const QString encoded = q.toString(QUrl::FullyEncoded);
    req.description = QStringLiteral("GET ") + path;
    // Long queries go as a form POST (Prometheus accepts both); a query changes nothing,
    // so it is retried like a GET.
    if (encoded.size() > 4000) {
        req.method = HttpMethod::Post;
        req.url = m_config.url + path;
        req.body = encoded.toUtf8();
        req.contentType = "application/x-www-form-urlencoded";
        req.description = QStringLiteral("POST ") + path;
    } else {
        req.url = m_config.url + path + (encoded.isEmpty() ? QString() : QStringLiteral("?") + encoded);
    }
    req.headers.append(qMakePair(QByteArray("Accept"), QByteArray("application/json")));
    QByteArray token = m_config.bearerToken;
    if (token.isEmpty() && !m_config.tokenFile.isEmpty()) {
        QFile f(m_config.tokenFile);
        if (!f.open(QIODevice::ReadOnly)) {
            QPromise<Result<QByteArray>> p;
            p.start();
            p.addResult(Error::make(
                Error::Kind::Config,
                QStringLiteral("cannot read the token file %1: %2").arg(m_config.tokenFile, f.errorString()),
                QStringLiteral("token-file")));
            p.finish();
            return p.future();
        }
        token = f.readAll().trimmed();
    }
    if (!token.isEmpty())
        req.headers.append(qMakePair(QByteArray("Authorization"), QByteArray("Bearer " + token)));
    req.tls.caPem = m_config.caPem;
    req.tls.insecureSkipVerify = m_config.insecureSkipVerify;
    req.timeoutMs = m_config.timeoutMs;
    req.retry.maxAttempts = std::max(1, m_config.maxAttempts);
    req.retry.retrySafe = true;
    req.userAgent = "gpuquota";
    const QString base = m_config.url;
    return m_transport->send(std::move(req)).then([base](HttpResponse r) -> Result<QByteArray> {
        if (r.transportError) {
            Error e = *r.transportError;
            if (e.kind == Error::Kind::Timeout)
                e.message =
                    QStringLiteral("Prometheus at %1 did not answer in time: %2").arg(base, e.message);
            else if (e.kind == Error::Kind::Tls)
                e.message = QStringLiteral("TLS with Prometheus at %1 failed: %2").arg(base, e.message);
            else if (e.kind != Error::Kind::Cancelled)
                e.message = QStringLiteral("cannot reach Prometheus at %1: %2").arg(base, e.message);
            return e;
        }
        if (r.httpStatus < 200 || r.httpStatus >= 300) {
            auto decoded = decodePromResponse(r.httpStatus, r.body);
            Error e =
                decoded ? err(Error::Kind::Server, QStringLiteral("HTTP %1").arg(r.httpStatus), r.httpStatus)
                        : decoded.error();
            if (r.attempts > 1)
                e.message += QStringLiteral(" (after %1 attempts)").arg(r.attempts);
            return e;
        }
        return r.body;
    });
}

QFuture<Result<PromResult>> PrometheusClient::query(const QString &promql, std::optional<double> time) {
    QList<QPair<QString, QString>> params{{QStringLiteral("query"), promql}};
    if (time)
        params.append({QStringLiteral("time"), promTime(*time)});
    return get(QStringLiteral("/api/v1/query"), params)
        .then([](Result<QByteArray> body) -> Result<PromResult> {
            if (!body)
                return body.error();
            return decodePromResponse(200, *body);
        });
}

QFuture<Result<PromResult>> PrometheusClient::queryRange(const QString &promql, double start, double end,
                                                         double stepSeconds) {
    const QList<QPair<QString, QString>> params{
        {QStringLiteral("query"), promql},
        {QStringLiteral("start"), promTime(start)},
        {QStringLiteral("end"), promTime(end)},
        {QStringLiteral("step"), QString::number(stepSeconds, 'g', 10)}};
    return get(QStringLiteral("/api/v1/query_range"), params)
        .then([](Result<QByteArray> body) -> Result<PromResult> {
            if (!body)
                return body.error();
            return decodePromResponse(200, *body);
        });
}

QFuture<Result<PromBuildInfo>> PrometheusClient::buildInfo() {
    return get(QStringLiteral("/api/v1/status/buildinfo"), {})
        .then([](Result<QByteArray> body) -> Result<PromBuildInfo> {
            if (!body)
                return body.error();
            auto env = decodePromResponse(200, *body);
            if (!env)
                return env.error();
            const QJsonObject data =
                QJsonDocument::fromJson(*body).object().value(QLatin1String("data")).toObject();
            PromBuildInfo b{data.value(QLatin1String("version")).toString(),
                            data.value(QLatin1String("revision")).toString(),
                            data.value(QLatin1String("goVersion")).toString()};
            if (b.version.isEmpty())
                return err(Error::Kind::Parse, QStringLiteral("Prometheus buildinfo has no version"));
            return b;
        });
}

} // namespace gq::metrics
