#pragma once

#include "core/domain/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace gq {

class HttpTransport;

// What the Test buttons of the Connections tab ask, one source each. Every function
// blocks until it has its answer, so callers run it off the GUI thread (JobTracker::run)
// and show the words: the value on success ("connected, schema v7, 1.2 M intervals,
// newest 3 min ago"), Error::message on failure ("401: token rejected"). The usage
// database is opened read-only: a test never creates or migrates anything.
//
// Deliberately small: only what a Test button needs. The Prometheus client proper lives
// in core/metrics.
namespace connectiontests {

[[nodiscard]] Result<QString> usageDatabase(const QString &url, const QString &password, qint64 nowSecs);

struct PrometheusTarget {
    QString url;      // base URL, e.g. http://prometheus.monitoring:9090
    QString token;    // bearer token; empty: none
    QByteArray caPem; // empty: the system trust store
};
// GET /api/v1/status/buildinfo for the version, then a count query of the GPUs that
// report DCGM_FI_DEV_GPU_UTIL.
[[nodiscard]] Result<QString> prometheus(HttpTransport &http, const PrometheusTarget &target);

// GET of each dcgm-exporter /metrics endpoint: how many answer, and how many GPUs they report.
[[nodiscard]] Result<QString> exporters(HttpTransport &http, const QStringList &endpoints);

// GET <url>/healthz of the gpuquota controller.
[[nodiscard]] Result<QString> controller(HttpTransport &http, const QString &url);
// GET <url>/readyz: "controller ready", or an error saying what is not ("controller
// not ready: database: unavailable", "controller unreachable: ...").
[[nodiscard]] Result<QString> controllerReady(HttpTransport &http, const QString &url);

// "950", "12 k", "1.2 M": counts as people read them in a sentence.
[[nodiscard]] QString shortCount(qint64 n);
// "just now", "3 min ago", "5 h ago", "2 days ago".
[[nodiscard]] QString agoText(qint64 seconds);

} // namespace connectiontests
} // namespace gq
