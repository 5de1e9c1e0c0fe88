#pragma once

// What the live GPU verbs (cmd_gpus.cpp: `gpus`, cmd_idle.cpp: `idle`) share: their
// flags, the console-settings defaults, the Prometheus configuration from flags, and
// the JSON and table pieces both print.

#include "core/metrics/gpusample.h"
#include "core/metrics/prometheusclient.h"
#include "core/domain/result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <optional>

namespace gq::cli::gpuverbs {

enum class VerbKind { Gpus, Idle };

// --scrape takes one or more URLs (until the next flag) and may be repeated.
struct GpuArgs {
    QString prometheus, tokenFile, ca, db, output = QStringLiteral("table");
    QStringList scrape;
    bool discover = false;
    QString threshold, forDuration;
    QString kubeconfig, context; // global options: the cluster (--discover) and the settings' context
    QString error;
};

[[nodiscard]] GpuArgs parseGpuArgs(const QStringList &args, VerbKind verb);

// Neither --prometheus, --scrape, --discover nor --db: the metrics source the console's
// Preferences > Connections set for the context in use (a Prometheus URL and its CA; for
// `gpus` also the exporter endpoints or discovery through the cluster; for `idle` the
// usage database when there is no Prometheus). Returns, for the message when nothing
// is set there either, which context and settings file were read.
QString applySettingsDefaults(GpuArgs &a, VerbKind verb);

[[nodiscard]] Result<QByteArray> readCa(const QString &path);
[[nodiscard]] Result<metrics::PrometheusConfig> prometheusConfig(const GpuArgs &a);

// "warning: <prefix><text>" lines on stderr.
void printWarnings(const QStringList &warnings, const QString &prefix);

[[nodiscard]] QJsonValue num(const std::optional<double> &v);
[[nodiscard]] QJsonValue str(const QString &v);
[[nodiscard]] QString cell(const std::optional<double> &v, int decimals = 0);
[[nodiscard]] QString orDash(const QString &v);
[[nodiscard]] QJsonArray holdersJson(const QList<metrics::GpuHolder> &holders);
// "ns/pod, ns/pod2", "-" when free.
[[nodiscard]] QString holdersText(const QList<metrics::GpuHolder> &holders);
// hostname, gpu, uuid, model, mig_profile, gpu_instance.
[[nodiscard]] QJsonObject gpuIdentityJson(const metrics::GpuSample &g);
// "3g.40gb #1" for a MIG instance, `none` otherwise.
[[nodiscard]] QString migCell(const metrics::GpuSample &g, const QString &none = QStringLiteral("-"));

} // namespace gq::cli::gpuverbs
