#include "app/cli/gpuverbs.h"

#include "app/cli/cliargs.h"
#include "app/cli/clioutput.h"
#include "app/cli/settingsdefaults.h"

#include <QFile>

namespace gq::cli::gpuverbs {

using namespace gq::metrics;

GpuArgs parseGpuArgs(const QStringList &args, VerbKind verb) {
    QList<Flag> flags{valueFlag(QStringLiteral("prometheus")), valueFlag(QStringLiteral("token-file")),
                      valueFlag(QStringLiteral("ca")), valueFlag(QStringLiteral("output"), u'o')};
    if (verb == VerbKind::Idle)
        flags << valueFlag(QStringLiteral("db")) << valueFlag(QStringLiteral("threshold"))
              << valueFlag(QStringLiteral("for"));
    else
        flags << valuesFlag(QStringLiteral("scrape")) << switchFlag(QStringLiteral("discover"));
    const Args p = parseFlags(args, flags);
    GpuArgs a;
    a.error = p.error;
    if (a.error.isEmpty() && !p.positional.isEmpty())
        a.error = QStringLiteral("unexpected argument '%1'").arg(p.positional.first());
    a.prometheus = p.value(QStringLiteral("prometheus"));
    a.tokenFile = p.value(QStringLiteral("token-file"));
    a.ca = p.value(QStringLiteral("ca"));
    a.db = p.value(QStringLiteral("db"));
    a.output = p.value(QStringLiteral("output"), a.output);
    a.threshold = p.value(QStringLiteral("threshold"));
    a.forDuration = p.value(QStringLiteral("for"));
    a.scrape = p.all(QStringLiteral("scrape"));
    a.discover = p.has(QStringLiteral("discover"));
    // Global options: the cluster to discover through, and whose console settings give
    // the defaults.
    a.kubeconfig = p.value(QStringLiteral("kubeconfig"));
    a.context = p.value(QStringLiteral("context"));
    if (a.error.isEmpty() && a.output != QLatin1String("table") && a.output != QLatin1String("json"))
        a.error = QStringLiteral("-o must be table or json");
    return a;
}

QString applySettingsDefaults(GpuArgs &a, VerbKind verb) {
    if (!a.prometheus.isEmpty() || !a.scrape.isEmpty() || a.discover || !a.db.isEmpty())
        return {};
    const SettingsDefaults d = settingsDefaults(a.kubeconfig, a.context);
    if (!d.prometheusUrl.isEmpty()) {
        a.prometheus = d.prometheusUrl;
        if (a.ca.isEmpty())
            a.ca = d.prometheusCaFile;
    } else if (verb == VerbKind::Gpus) {
        a.scrape = d.exporterEndpoints;
        a.discover = d.discoverExporters;
    } else {
        a.db = d.usageDatabase; // the recorded idle spans
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

QString cell(const std::optional<double> &v, int decimals) {
    return v ? QString::number(*v, 'f', decimals) : QStringLiteral("-");
}

QString orDash(const QString &v) {
    return v.isEmpty() ? QStringLiteral("-") : v;
}

QJsonArray holdersJson(const QList<GpuHolder> &holders) {
    QJsonArray out;
    for (const GpuHolder &h : holders)
        out.append(QJsonObject{{QStringLiteral("namespace"), str(h.ns)},
                               {QStringLiteral("pod"), str(h.pod)},
                               {QStringLiteral("container"), str(h.container)},
                               {QStringLiteral("claim"), str(h.claim)}});
    return out;
}

QString holdersText(const QList<GpuHolder> &holders) {
    QStringList out;
    for (const GpuHolder &h : holders) {
        // A DRA holder: its claim after it ("ns/pod (claim c)"); its pods unknown: the claim.
        QString text = h.ns + u'/' + (h.pod.isEmpty() ? QStringLiteral("?") : h.pod);
        if (!h.claim.isEmpty())
            text += QStringLiteral(" (claim %1)").arg(h.claim.section(u'/', 1));
        out << text;
    }
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

QString migCell(const GpuSample &g, const QString &none) {
    if (!g.isMigInstance())
        return none;
    return g.migProfile.isEmpty() ? QStringLiteral("#%1").arg(g.gpuInstance)
                                  : QStringLiteral("%1 #%2").arg(g.migProfile, g.gpuInstance);
}

} // namespace gq::cli::gpuverbs
