// `gpuquota idle`: GPUs allocated to a pod whose utilization stayed under a threshold for
// a duration, with since when and the GPU-hours wasted: found in Prometheus' history
// (looking back up to a week, idlequery.h), or read from the spans the controller's idle
// recorder wrote to the usage database.
#include "app/cli/clioutput.h"
#include "core/domain/clock.h"
#include "app/cli/gpuverbs.h"
#include "core/metrics/idlequery.h"
#include "services/livegpus/idlespans.h"
#include "core/usage/timewindow.h"
#include "app/cli/usageverbs.h"
#include "app/cli/verbs.h"

#include <QDateTime>
#include <QJsonDocument>

#include <cmath>

namespace gq::cli {
namespace {

using namespace gq::metrics;
using namespace gq::cli::gpuverbs;

const char kIdleHelp[] =
    "Lists GPUs allocated to a pod whose utilization stayed under --threshold for --for,\n"
    "with since when and the GPU-hours wasted, largest waste first. One source:\n"
    "  --prometheus URL      Prometheus' history of dcgm-exporter (with --token-file F,\n"
    "                        --ca FILE as for gpus). It looks back as far as the span goes,\n"
    "                        up to 7 days: recent minutes at every step, older hours and days\n"
    "                        at coarser steps (each step's highest reading), so `since` is\n"
    "                        exact for recent spans and within ~12 min for week-old ones;\n"
    "                        at_least: true marks a span that was idle a whole week\n"
    "  --db URL              the spans the controller's idle recorder wrote (idle_spans:\n"
    "                        its metrics: and idle: sections) that are still going on (last\n"
    "                        written within 10 min); the recorder's threshold applies\n"
    "Without one: the console's Prometheus for the context in use, else its usage database.\n"
    "  --threshold PCT       idle while under this utilization (default 5)\n"
    "  --for DURATION        idle at least this long (default 30m; 90s, 1h30m, 2d)\n"
    "  -o, --output F        table (default) or json: per GPU the keys of gpus' identity,\n"
    "                        holders, since, idle_seconds, gpu_hours_wasted, mean_util_pct,\n"
    "                        max_util_pct (null from --db), at_least\n"
    "Exit codes: 0 listed (also when none is idle), 1 the source could not be read, 2 usage.\n";

QString formatUtc(qint64 ms) {
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()).toString(Qt::ISODate);
}

QJsonValue finite(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

void printIdle(const QList<IdleGpu> &idle, const IdleOptions &o, const QString &format) {
    if (format == QLatin1String("json")) {
        QJsonArray rows;
        for (const IdleGpu &g : idle) {
            QJsonObject obj = gpuIdentityJson(g.gpu);
            obj.insert(QStringLiteral("holders"), holdersJson(g.holders));
            obj.insert(QStringLiteral("since"), formatUtc(g.sinceMs));
            obj.insert(QStringLiteral("idle_seconds"), double(g.idleMs) / 1000.0);
            obj.insert(QStringLiteral("gpu_hours_wasted"), g.gpuHoursWasted);
            obj.insert(QStringLiteral("mean_util_pct"), finite(g.meanUtilPct));
            obj.insert(QStringLiteral("max_util_pct"), finite(g.maxUtilPct));
            obj.insert(QStringLiteral("at_least"), g.openAtStart);
            rows.append(obj);
        }
        out() << QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Indented));
        return;
    }
    if (idle.isEmpty()) {
        out() << "no allocated GPU under " << QString::number(o.thresholdPct) << "% for "
              << formatDuration(o.minIdleMs / 1000) << '\n';
        return;
    }
    QList<QStringList> rows{{QStringLiteral("HOST"), QStringLiteral("GPU"), QStringLiteral("MIG"),
                             QStringLiteral("HOLDERS"), QStringLiteral("IDLE SINCE"), QStringLiteral("FOR"),
                             QStringLiteral("MEAN UTIL%"), QStringLiteral("GPU-H WASTED")}};
    double total = 0;
    for (const IdleGpu &g : idle) {
        const QString at = g.openAtStart ? QStringLiteral("<= ") : QString();
        rows << QStringList{
            orDash(g.gpu.hostname),
            g.gpu.gpu ? QString::number(*g.gpu.gpu) : QStringLiteral("-"),
            migCell(g.gpu),
            holdersText(g.holders),
            at + formatUtc(g.sinceMs),
            (g.openAtStart ? QStringLiteral(">= ") : QString()) + formatDuration(g.idleMs / 1000),
            std::isfinite(g.meanUtilPct) ? QString::number(g.meanUtilPct, 'f', 1) : QStringLiteral("-"),
            QString::number(g.gpuHoursWasted, 'f', 2)};
        total += g.gpuHoursWasted;
    }
    usageverbs::printTable(rows);
    out() << "total: " << QString::number(total, 'f', 2) << " GPU-h wasted\n";
}

int fromDatabase(const GpuArgs &a, const IdleOptions &o) {
    if (!a.threshold.isEmpty())
        err() << "warning: --threshold does not apply to --db: the spans were recorded with the controller's "
                 "idle.threshold\n";
    usageverbs::Args dbArgs;
    dbArgs.values.insert(QStringLiteral("db"), a.db);
    auto store = usageverbs::openDb(dbArgs, usageverbs::DbAccess::ReadOnly);
    if (!store)
        return failWith(store.error());
    const qint64 now = Clock::system().nowSecs();
    auto idle = idlespans::current(**store, now, o.minIdleMs / 1000, idlespans::kFreshSeconds);
    if (!idle)
        return failWith(idle.error());
    printIdle(*idle, o, a.output);
    return Ok;
}

int runIdle(const QStringList &argv) {
    GpuArgs a = parseGpuArgs(argv, VerbKind::Idle);
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (!a.prometheus.isEmpty() && !a.db.isEmpty())
        return fail(QStringLiteral("give either --prometheus URL or --db URL"), UsageError);
    const QString unset = applySettingsDefaults(a, VerbKind::Idle);
    if (a.prometheus.isEmpty() && a.db.isEmpty())
        return fail(
            QStringLiteral("give either --prometheus URL or --db URL, or configure Prometheus or a usage "
                           "database: %1")
                .arg(unset),
            UsageError);
    IdleOptions o;
    if (!a.threshold.isEmpty()) {
        bool ok = false;
        o.thresholdPct = a.threshold.toDouble(&ok);
        if (!ok || !std::isfinite(o.thresholdPct) || o.thresholdPct <= 0 || o.thresholdPct > 100)
            return fail(QStringLiteral("--threshold must be a percentage above 0 and at most 100, not '%1'")
                            .arg(a.threshold),
                        UsageError);
    }
    qint64 forSeconds = 30 * 60;
    if (!a.forDuration.isEmpty()) {
        auto d = parseDuration(a.forDuration, QStringLiteral("--for"));
        if (!d || *d <= 0)
            return fail(d ? QStringLiteral("--for must be longer than 0s") : d.error().toString(),
                        UsageError);
        forSeconds = *d;
    }
    o.minIdleMs = forSeconds * 1000;
    if (!a.db.isEmpty()) {
        if (!a.tokenFile.isEmpty() || !a.ca.isEmpty())
            return fail(QStringLiteral("--token-file and --ca go with --prometheus"), UsageError);
        return fromDatabase(a, o);
    }

    auto config = prometheusConfig(a);
    if (!config)
        return failWith(config.error(), UsageError);
    PrometheusClient client(*config);
    auto report = findIdleThroughPrometheus(client, o, double(Clock::system().nowMSecs()) / 1000.0);
    if (!report)
        return failWith(report.error());
    printWarnings(report->warnings, QStringLiteral("Prometheus: "));
    printIdle(report->idle, o, a.output);
    return Ok;
}

} // namespace

GQ_REGISTER_VERB(
    QStringLiteral("idle"),
    QStringLiteral("idle (--prometheus URL | --db URL) [--threshold 5] [--for 30m] [-o table|json]"),
    QStringLiteral("allocated GPUs idle under the threshold, with GPU-hours wasted"), 71, runIdle, {},
    QString::fromLatin1(kIdleHelp));

} // namespace gq::cli
