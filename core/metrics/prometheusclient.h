#pragma once

#include "core/metrics/exposition.h"
#include "core/domain/result.h"

#include <QByteArray>
#include <QFuture>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace gq {
class HttpTransport;
}

namespace gq::metrics {

// Where Prometheus is and how to talk to it. The token is read from tokenFile on every
// request (projected service-account tokens rotate); a token given directly (from the
// keychain) wins. Neither is ever logged.
struct PrometheusConfig {
    QString url; // http(s)://host:port[/prefix]
    QByteArray bearerToken;
    QString tokenFile;
    QByteArray caPem; // empty: the system trust store
    bool insecureSkipVerify = false;
    int timeoutMs = 30000;
    int maxAttempts = 3; // 5xx, 429 and connection failures are retried (HttpTransport)
};

// One series of a result: a vector has one point, a matrix many. NaN and ±Inf come
// through as such.
struct PromPoint {
    double t = 0; // Unix seconds
    double v = 0;
};
struct PromSeries {
    Labels metric; // __name__ is a label here, as Prometheus sends it
    QList<PromPoint> points;
};

struct PromResult {
    QString resultType; // vector, matrix, scalar, string
    QList<PromSeries> series;
    std::optional<PromPoint> scalar;
    // Surfaced, never swallowed: Prometheus' warnings and infos (a partial answer from
    // a federated or remote-read source says so here).
    QStringList warnings;
    QStringList infos;

    // The vector as exposition-style samples (for gpusFromSamples).
    [[nodiscard]] QList<Sample> samples() const;
    // The warnings, then the infos as "info: ...": what to show beside the answer.
    [[nodiscard]] QStringList notes() const;
};

struct PromBuildInfo {
    QString version;
    QString revision;
    QString goVersion;
};

// The Prometheus HTTP API client on the shared transport: /api/v1/query,
// /api/v1/query_range, /api/v1/status/buildinfo. Results arrive as QFutures (receive
// them with JobTracker::watch; a CLI may waitForFinished()). Errors say what happened
// in words a user can act on:
//   * bad PromQL (400 bad_data), execution errors (422): Kind::Invalid with
//     Prometheus' own message;
//   * unreachable: Kind::Network naming the URL and curl's reason;
//   * 5xx: retried by the transport, then Kind::Server with the status and message;
//   * 401/403: Kind::Unauthorized / Forbidden; 404: not a Prometheus API at that URL;
//   * a body that is not the API's JSON envelope (a proxy's HTML page, a cut-off
//     answer): Kind::Parse saying so.
class PrometheusClient final {
public:
    explicit PrometheusClient(PrometheusConfig config, std::shared_ptr<HttpTransport> transport = {});
    ~PrometheusClient();
    Q_DISABLE_COPY_MOVE(PrometheusClient)

    // Validates the configuration (URL scheme, token file readable, CA parseable as
    // text) without any request; the CLI calls it to report bad flags with exit 2.
    [[nodiscard]] static Result<void> check(const PrometheusConfig &config);

    QFuture<Result<PromResult>> query(const QString &promql, std::optional<double> time = {});
    QFuture<Result<PromResult>> queryRange(const QString &promql, double start, double end,
                                           double stepSeconds);
    QFuture<Result<PromBuildInfo>> buildInfo();

    [[nodiscard]] const PrometheusConfig &config() const { return m_config; }

private:
    QFuture<Result<QByteArray>> get(const QString &path, const QList<QPair<QString, QString>> &params);

    PrometheusConfig m_config;
    std::shared_ptr<HttpTransport> m_transport;
};

// Decodes an API response body (exposed for tests and the fuzzers): the envelope's
// status, errorType/error, warnings, infos and data.
[[nodiscard]] Result<PromResult> decodePromResponse(int httpStatus, const QByteArray &body);

// Prometheus' float formatting of a time for query parameters.
[[nodiscard]] QString promTime(double unixSeconds);

} // namespace gq::metrics
