// Live GPU verbs: `gpuquota gpus` (what every GPU and MIG instance is doing now, from
// Prometheus or straight from dcgm-exporter endpoints) and `gpuquota idle` (allocated
// GPUs under a utilization threshold for a duration, with the GPU-hours wasted).
#include "clioutput.h"
#include "httptransport.h"
#include "idle.h"
#include "prometheusclient.h"
#include "scrape.h"
#include "settingsdefaults.h"
#include "timewindow.h"
#include "verbs.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace gq::cli {
namespace {

using namespace gq::metrics;

// Flags of both verbs. --scrape takes one or more URLs (until the next flag) and may
// be repeated.
struct GpuArgs {
    QString prometheus, tokenFile, ca, db, output = QStringLiteral("table");
    QStringList scrape;
    QString threshold, forDuration;
    QString kubeconfig, context; // global options: whose console settings give the defaults
    QString error;
};

GpuArgs parseGpuArgs(const QStringList &args, bool idleVerb) {
    GpuArgs a;
    QStringList known{QStringLiteral("prometheus"), QStringLiteral("token-file"), QStringLiteral("ca"),
                      QStringLiteral("output")};
    if (idleVerb)
        known << QStringLiteral("db") << QStringLiteral("threshold") << QStringLiteral("for");
    else
        known << QStringLiteral("scrape");
    for (qsizetype i = 0; i < args.size() && a.error.isEmpty(); ++i) {
        QString arg = args.at(i), value;
        bool hasValue = false;
        if (arg == QLatin1String("-o")) {
            arg = QStringLiteral("--output");
        } else if (arg.startsWith(QLatin1String("-o")) && !arg.startsWith(QLatin1String("--"))) {
            value = arg.mid(2);
            arg = QStringLiteral("--output");
            hasValue = true;
        }
        if (!arg.startsWith(QLatin1String("--"))) {
            a.error = QStringLiteral("unexpected argument '%1'").arg(arg);
            break;
        }
        QString name = arg.mid(2);
        if (const qsizetype eq = name.indexOf(u'='); eq >= 0) {
            value = name.mid(eq + 1);
            name = name.left(eq);
            hasValue = true;
        }
        if (name == QLatin1String("kubeconfig") || name == QLatin1String("context")) {
            // Global options: they pick the context whose console settings give the defaults.
            if (!hasValue && i + 1 < args.size())
                value = args.at(++i);
            (name == QLatin1String("kubeconfig") ? a.kubeconfig : a.context) = value;
            continue;
        }
        if (!known.contains(name)) {
            a.error = QStringLiteral("unknown flag --%1").arg(name);
            break;
        }
        if (!hasValue) {
            if (i + 1 >= args.size() || args.at(i + 1).startsWith(QLatin1String("-"))) {
                a.error = QStringLiteral("flag --%1 needs a value").arg(name);
                break;
            }
            value = args.at(++i);
        }
        if (name == QLatin1String("scrape")) {
            a.scrape << value;
            while (i + 1 < args.size() && !args.at(i + 1).startsWith(QLatin1String("-")))
                a.scrape << args.at(++i);
        } else if (name == QLatin1String("prometheus")) {
            a.prometheus = value;
        } else if (name == QLatin1String("token-file")) {
            a.tokenFile = value;
        } else if (name == QLatin1String("ca")) {
            a.ca = value;
        } else if (name == QLatin1String("db")) {
            a.db = value;
        } else if (name == QLatin1String("output")) {
            a.output = value;
        } else if (name == QLatin1String("threshold")) {
            a.threshold = value;
        } else if (name == QLatin1String("for")) {
            a.forDuration = value;
        }
    }
    if (a.error.isEmpty() && a.output != QLatin1String("table") && a.output != QLatin1String("json"))
        a.error = QStringLiteral("-o must be table or json");
    return a;
}

// Neither --prometheus nor --scrape (nor --db): the metrics source the console's
// Preferences > Connections set for the context in use (a Prometheus URL and its CA; for
// `gpus` also the exporter endpoints). Returns the settings file read, for the message
// when it has none either. Tokens stay in the keychain: give --token-file for those.
QString applySettingsDefaults(GpuArgs &a, bool idleVerb) {
    if (!a.prometheus.isEmpty() || !a.scrape.isEmpty() || !a.db.isEmpty())
        return {};
    const SettingsDefaults d = settingsDefaults(a.kubeconfig, a.context);
    if (!d.prometheusUrl.isEmpty()) {
        a.prometheus = d.prometheusUrl;
        if (a.ca.isEmpty())
            a.ca = d.prometheusCaFile;
    } else if (!idleVerb) {
        a.scrape = d.exporterEndpoints;
    }
    const QString who = d.context.isEmpty() ? QStringLiteral("the current context")
                                            : QStringLiteral("context \"%1\"").arg(d.context);
    return QStringLiteral(
               "%1 has no metrics source in the console's Preferences > Connections (settings file %2)")
        .arg(who, d.file);
}

Result<QByteArray> readCa(const QString &path) {
    if (path.isEmpty())
        return QByteArray();
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Usage,
                           QStringLiteral("cannot read the CA file %1: %2").arg(path, f.errorString()),
                           QStringLiteral("--ca"));
    const QByteArray pem = f.readAll();
    if (!pem.contains("-----BEGIN CERTIFICATE-----"))
        return Error::make(Error::Kind::Usage, QStringLiteral("%1 holds no PEM certificate").arg(path),
                           QStringLiteral("--ca"));
    return pem;
}

Result<PrometheusConfig> prometheusConfig(const GpuArgs &a) {
    PrometheusConfig c;
    c.url = a.prometheus;
    c.tokenFile = a.tokenFile;
    auto ca = readCa(a.ca);
    if (!ca)
        return ca.error();
    c.caPem = *ca;
    if (auto ok = PrometheusClient::check(c); !ok)
        return ok.error();
    return c;
}

void printWarnings(const QStringList &warnings, const QString &prefix) {
    for (const QString &w : warnings)
        err() << "warning: " << prefix << w << '\n';
}

QJsonValue num(const std::optional<double> &v) {
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}
QJsonValue str(const QString &v) {
    return v.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(v);
}
QString cell(const std::optional<double> &v, int decimals = 0) {
    return v ? QString::number(*v, 'f', decimals) : QStringLiteral("-");
}

QJsonArray holdersJson(const QList<GpuHolder> &holders) {
    QJsonArray out;
    for (const GpuHolder &h : holders)
        out.append(QJsonObject{{QStringLiteral("namespace"), str(h.ns)},
                               {QStringLiteral("pod"), str(h.pod)},
                               {QStringLiteral("container"), str(h.container)}});
    return out;
}

QString holdersText(const QList<GpuHolder> &holders) {
    QStringList out;
    for (const GpuHolder &h : holders)
        out << h.ns + u'/' + h.pod;
    out.removeDuplicates();
    return out.isEmpty() ? QStringLiteral("-") : out.join(QStringLiteral(", "));
}

QJsonObject gpuIdentityJson(const GpuSample &g) {
    return QJsonObject{{QStringLiteral("hostname"), str(g.hostname)},
                       {QStringLiteral("gpu"), g.gpu ? QJsonValue(*g.gpu) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("uuid"), str(g.uuid)},
                       {QStringLiteral("model"), str(g.model)},
                       {QStringLiteral("mig_profile"), str(g.migProfile)},
                       {QStringLiteral("gpu_instance"), str(g.gpuInstance)}};
}

void printGpus(const GpuSnapshot &snap, const QString &format) {
    if (format == QLatin1String("json")) {
        QJsonArray rows;
        for (const GpuSample &g : snap.gpus) {
            QJsonObject o = gpuIdentityJson(g);
            o.insert(QStringLiteral("util_pct"), num(g.utilPct));
            o.insert(QStringLiteral("fb_used_mib"), num(g.fbUsedMib));
            o.insert(QStringLiteral("fb_free_mib"), num(g.fbFreeMib));
            o.insert(QStringLiteral("power_w"), num(g.powerW));
            o.insert(QStringLiteral("temp_c"), num(g.tempC));
            o.insert(QStringLiteral("shared"), g.shared);
            o.insert(QStringLiteral("holders"), holdersJson(g.holders));
            rows.append(o);
        }
        out() << QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Indented));
        return;
    }
    QList<QStringList> rows{{QStringLiteral("HOST"), QStringLiteral("GPU"), QStringLiteral("MODEL"),
                             QStringLiteral("MIG"), QStringLiteral("UTIL%"),
                             QStringLiteral("MEM USED/TOTAL MiB"), QStringLiteral("POWER W"),
                             QStringLiteral("TEMP C"), QStringLiteral("HOLDERS")}};
    for (const GpuSample &g : snap.gpus) {
        QString mem = QStringLiteral("-");
        if (g.fbUsedMib && g.fbFreeMib)
            mem = cell(g.fbUsedMib) + u'/' + QString::number(*g.fbUsedMib + *g.fbFreeMib, 'f', 0);
        else if (g.fbUsedMib)
            mem = cell(g.fbUsedMib) + QStringLiteral("/?");
        QString holders = holdersText(g.holders);
        if (g.shared)
            holders = QStringLiteral("shared: ") + holders;
        rows << QStringList{g.hostname.isEmpty() ? QStringLiteral("-") : g.hostname,
                            g.gpu ? QString::number(*g.gpu) : QStringLiteral("-"),
                            g.model.isEmpty() ? QStringLiteral("-") : g.model,
                            g.isMigInstance() ? QStringLiteral("  %1 #%2").arg(g.migProfile, g.gpuInstance)
                                              : QStringLiteral("-"),
                            cell(g.utilPct),
                            mem,
                            cell(g.powerW, 1),
                            cell(g.tempC),
                            holders};
    }
    QList<int> width(rows.first().size(), 0);
    for (const QStringList &r : rows)
        for (int c = 0; c < r.size(); ++c)
            width[c] = std::max(width[c], int(r[c].size()));
    for (const QStringList &r : rows) {
        QString line;
        for (int c = 0; c < r.size(); ++c)
            line += c + 1 == r.size() ? r[c] : r[c].leftJustified(width[c] + 2);
        out() << line << '\n';
    }
    if (!snap.variants.describe().isEmpty())
        out() << "read as: " << snap.variants.describe().join(QStringLiteral("; ")) << '\n';
}

int runGpus(const QStringList &argv) {
    GpuArgs a = parseGpuArgs(argv, false);
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    const QString unset = applySettingsDefaults(a, false);
    if (a.prometheus.isEmpty() && a.scrape.isEmpty())
        return fail(QStringLiteral("give either --prometheus URL or --scrape URL..., or configure one: %1")
                        .arg(unset),
                    UsageError);
    if (!a.prometheus.isEmpty() && !a.scrape.isEmpty())
        return fail(QStringLiteral("give either --prometheus URL or --scrape URL..."), UsageError);
    if (!a.scrape.isEmpty() && !a.tokenFile.isEmpty())
        return fail(QStringLiteral("--token-file goes with --prometheus"), UsageError);

    if (!a.prometheus.isEmpty()) {
        auto config = prometheusConfig(a);
        if (!config)
            return failWith(config.error(), UsageError);
        PrometheusClient client(*config);
        auto f = client.query(gpuSnapshotQuery());
        f.waitForFinished();
        const Result<PromResult> r = f.result();
        if (!r)
            return failWith(r.error());
        printWarnings(r->warnings, QStringLiteral("Prometheus: "));
        printWarnings(r->infos, QStringLiteral("Prometheus (info): "));
        GpuSnapshot snap = gpusFromSamples(r->samples());
        printGpus(snap, a.output);
        return Ok;
    }

    QByteArray caPem;
    if (!a.ca.isEmpty()) {
        auto ca = readCa(a.ca);
        if (!ca)
            return failWith(ca.error(), UsageError);
        caPem = *ca;
    }
    for (const QString &url : a.scrape)
        if (auto ok = checkScrapeUrl(url); !ok)
            return failWith(ok.error(), UsageError);
    HttpTransport transport;
    QList<QFuture<Result<ScrapedText>>> pending;
    for (const QString &url : a.scrape)
        pending.append(scrape(transport, ScrapeTarget{url, caPem, false, 10000}));
    QList<ScrapedText> pages;
    int failed = 0;
    for (auto &f : pending) {
        f.waitForFinished();
        Result<ScrapedText> r = f.result();
        if (!r) {
            err() << "error: " << r.error().toString() << '\n';
            ++failed;
            continue;
        }
        pages.append(std::move(*r));
    }
    if (pages.isEmpty())
        return Failed;
    const GpuSnapshot snap = snapshotFromScrapes(pages);
    printWarnings(snap.warnings, QString());
    printGpus(snap, a.output);
    return failed ? Failed : Ok;
}

QString formatUtc(qint64 ms) {
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()).toString(Qt::ISODate);
}

int runIdle(const QStringList &argv) {
    GpuArgs a = parseGpuArgs(argv, true);
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    const QString unset = applySettingsDefaults(a, true);
    if (a.prometheus.isEmpty() && a.db.isEmpty())
        return fail(QStringLiteral("give either --prometheus URL or --db URL, or configure Prometheus: %1")
                        .arg(unset),
                    UsageError);
    if (!a.prometheus.isEmpty() && !a.db.isEmpty())
        return fail(QStringLiteral("give either --prometheus URL or --db URL"), UsageError);
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
    if (!a.db.isEmpty())
        return fail(
            QStringLiteral("--db: the usage database records who held which GPU, not how busy it was; "
                           "idle detection needs utilization history: use --prometheus URL"),
            UsageError);

    auto config = prometheusConfig(a);
    if (!config)
        return failWith(config.error(), UsageError);
    // A step fine enough to see the span start (30 per --for), at most a minute, within
    // Prometheus' 11,000 points per series; twice the duration looked back.
    const double step = std::clamp(std::ceil(double(forSeconds) / 30.0), 1.0, 60.0);
    const double lookback = std::max(2.0 * double(forSeconds), double(forSeconds) + 10 * step);
    const double adjustedStep = std::max(step, std::ceil(lookback / 10000.0));
    const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    PrometheusClient client(*config);
    auto f = client.queryRange(gpuUtilizationQuery(), now - lookback, now, adjustedStep);
    f.waitForFinished();
    const Result<PromResult> r = f.result();
    if (!r)
        return failWith(r.error());
    printWarnings(r->warnings, QStringLiteral("Prometheus: "));
    o.nowMs = qint64(now * 1000);
    // Two missed steps in a row break a span; one is a late scrape.
    o.maxGapMs = qint64(adjustedStep * 2000) + 1;
    const QList<IdleGpu> idle = findIdleGpus(timelinesFromRange(*r), o);

    if (a.output == QLatin1String("json")) {
        QJsonArray rows;
        for (const IdleGpu &g : idle) {
            QJsonObject obj = gpuIdentityJson(g.gpu);
            obj.insert(QStringLiteral("holders"), holdersJson(g.holders));
            obj.insert(QStringLiteral("since"), formatUtc(g.sinceMs));
            obj.insert(QStringLiteral("idle_seconds"), double(g.idleMs) / 1000.0);
            obj.insert(QStringLiteral("gpu_hours_wasted"), g.gpuHoursWasted);
            obj.insert(QStringLiteral("mean_util_pct"), g.meanUtilPct);
            obj.insert(QStringLiteral("max_util_pct"), g.maxUtilPct);
            rows.append(obj);
        }
        out() << QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Indented));
        return Ok;
    }
    if (idle.isEmpty()) {
        out() << "no allocated GPU under " << QString::number(o.thresholdPct) << "% for "
              << formatDuration(forSeconds) << '\n';
        return Ok;
    }
    QList<QStringList> rows{{QStringLiteral("HOST"), QStringLiteral("GPU"), QStringLiteral("MIG"),
                             QStringLiteral("HOLDERS"), QStringLiteral("IDLE SINCE"), QStringLiteral("FOR"),
                             QStringLiteral("MEAN UTIL%"), QStringLiteral("GPU-H WASTED")}};
    double total = 0;
    for (const IdleGpu &g : idle) {
        rows << QStringList{g.gpu.hostname.isEmpty() ? QStringLiteral("-") : g.gpu.hostname,
                            g.gpu.gpu ? QString::number(*g.gpu.gpu) : QStringLiteral("-"),
                            g.gpu.isMigInstance()
                                ? QStringLiteral("%1 #%2").arg(g.gpu.migProfile, g.gpu.gpuInstance)
                                : QStringLiteral("-"),
                            holdersText(g.holders),
                            formatUtc(g.sinceMs),
                            formatDuration(g.idleMs / 1000),
                            QString::number(g.meanUtilPct, 'f', 1),
                            QString::number(g.gpuHoursWasted, 'f', 2)};
        total += g.gpuHoursWasted;
    }
    QList<int> width(rows.first().size(), 0);
    for (const QStringList &row : rows)
        for (int c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], int(row[c].size()));
    for (const QStringList &row : rows) {
        QString line;
        for (int c = 0; c < row.size(); ++c)
            line += c + 1 == row.size() ? row[c] : row[c].leftJustified(width[c] + 2);
        out() << line << '\n';
    }
    out() << "total: " << QString::number(total, 'f', 2) << " GPU-h wasted\n";
    return Ok;
}

} // namespace

GQ_REGISTER_VERB(
    QStringLiteral("gpus"),
    QStringLiteral("gpus (--prometheus URL [--token-file F] [--ca FILE] | --scrape URL...) [-o table|json]"),
    QStringLiteral("live GPU and MIG readings from Prometheus or dcgm-exporter endpoints"), 70, runGpus);
GQ_REGISTER_VERB(
    QStringLiteral("idle"),
    QStringLiteral("idle (--prometheus URL | --db URL) [--threshold 5] [--for 30m] [-o table|json]"),
    QStringLiteral("allocated GPUs idle under the threshold, with GPU-hours wasted"), 71, runIdle);

} // namespace gq::cli
