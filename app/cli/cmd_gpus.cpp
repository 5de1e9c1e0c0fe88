// `gpuquota gpus`: what every GPU and MIG instance is doing now, from Prometheus, straight
// from dcgm-exporter endpoints, or from the exporter pods found through the cluster and
// read through its API server's pod proxy.
#include "services/livegpus/claimpods.h"
#include "app/cli/clioutput.h"
#include "services/livegpus/exporterdiscovery.h"
#include "app/cli/gpuverbs.h"
#include "core/net/httptransport.h"
#include "core/metrics/idle.h"
#include "core/kube/kubeclient.h"
#include "core/metrics/scrape.h"
#include "app/cli/usageverbs.h"
#include "app/cli/verbs.h"

#include <QJsonDocument>

namespace gq::cli {
namespace {

using namespace gq::metrics;
using namespace gq::cli::gpuverbs;

const char kGpusHelp[] =
    "Shows what every GPU and MIG instance is doing now: utilization, memory, power,\n"
    "temperature and the pods holding it. Give one source:\n"
    "  --prometheus URL      a Prometheus that scrapes dcgm-exporter (its base URL)\n"
    "    --token-file F      bearer token, read on every request\n"
    "    --ca FILE           PEM CA bundle (default: the system trust store)\n"
    "  --scrape URL...       dcgm-exporter /metrics pages: http://, https:// or file://\n"
    "  --discover            the exporter pods of the cluster (--kubeconfig F --context C),\n"
    "                        each read through the API server's pod proxy\n"
    "                        (needs list pods and get pods/proxy)\n"
    "Without one: the metrics source the console's Preferences > Connections set for the\n"
    "context in use (--settings-file FILE for another settings file).\n"
    "  -o, --output F        table (default) or json: one object per GPU or MIG instance\n"
    "                        with hostname, gpu, uuid, model, mig_profile, gpu_instance,\n"
    "                        util_pct, fb_used_mib, fb_free_mib, power_w, temp_c, shared,\n"
    "                        holders (namespace, pod, container, claim: the DRA\n"
    "                        ResourceClaim held through, else null); null where the\n"
    "                        source reports nothing\n"
    "A GPU dcgm-exporter names only by its DRA ResourceClaim (dra_claim_* labels, no pod\n"
    "label) is shown held by the claim's pods (status.reservedFor), read from the cluster\n"
    "(--kubeconfig F --context C; needs list resourceclaims.resource.k8s.io); without it\n"
    "the holder stays ns/? with its claim, and a warning says why.\n"
    "Warnings (Prometheus' own, malformed lines, exporters that did not answer, claims that\n"
    "could not be read) go to standard error.\n"
    "Exit codes: 0 read, 1 a source (or one of several pages) could not be read, 2 usage.\n";

// DRA: holders known only by their claim get the claim's pods, through `client` or the
// kubeconfig's cluster. The readings stand without them: a failure is a warning.
void nameClaimPods(GpuSnapshot &snap, const GpuArgs &a, std::shared_ptr<KubeClient> client = {}) {
    const QStringList claims = claimsWithoutPods(snap.gpus);
    if (claims.isEmpty())
        return;
    if (!client) {
        auto made = KubeClient::fromKubeconfig(a.kubeconfig, a.context);
        if (!made) {
            err() << "warning: the pods of DRA claims " << claims.join(QStringLiteral(", "))
                  << " are not known (no cluster to read them from: " << made.error().toString() << ")\n";
            return;
        }
        client = *made;
    }
    auto pods = readClaimPods(*client, claims);
    if (!pods) {
        err() << "warning: the pods of DRA claims " << claims.join(QStringLiteral(", "))
              << " are not known (reading ResourceClaims failed: " << pods.error().toString() << ")\n";
        return;
    }
    resolveClaimHolders(snap.gpus, *pods);
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
        rows << QStringList{orDash(g.hostname),
                            g.gpu ? QString::number(*g.gpu) : QStringLiteral("-"),
                            orDash(g.model),
                            g.isMigInstance() ? QStringLiteral("  ") + migCell(g) : QStringLiteral("-"),
                            cell(g.utilPct),
                            mem,
                            cell(g.powerW, 1),
                            cell(g.tempC),
                            holders};
    }
    usageverbs::printTable(rows);
    if (!snap.variants.describe().isEmpty())
        out() << "read as: " << snap.variants.describe().join(QStringLiteral("; ")) << '\n';
}

int fromPrometheus(const GpuArgs &a) {
    auto config = prometheusConfig(a);
    if (!config)
        return failWith(config.error(), UsageError);
    PrometheusClient client(*config);
    auto f = client.query(gpuSnapshotQuery());
    f.waitForFinished();
    const Result<PromResult> r = f.result();
    if (!r)
        return failWith(r.error());
    GpuSnapshot snap = gpusFromVector(*r);
    printWarnings(snap.warnings, QStringLiteral("Prometheus: "));
    nameClaimPods(snap, a);
    printGpus(snap, a.output);
    return Ok;
}

int fromPages(const GpuArgs &a) {
    auto ca = readCa(a.ca);
    if (!ca)
        return failWith(ca.error(), UsageError);
    for (const QString &url : a.scrape)
        if (auto ok = checkScrapeUrl(url); !ok)
            return failWith(ok.error(), UsageError);
    HttpTransport transport;
    QList<QFuture<Result<ScrapedText>>> pending;
    for (const QString &url : a.scrape)
        pending.append(scrape(transport, ScrapeTarget{url, *ca, false, 10000}));
    const ScrapeRound round = collectScrapes(std::move(pending));
    for (const Error &e : round.failures)
        err() << "error: " << e.toString() << '\n';
    if (round.pages.isEmpty())
        return Failed;
    GpuSnapshot snap = snapshotFromScrapes(round.pages);
    printWarnings(snap.warnings, QString());
    nameClaimPods(snap, a);
    printGpus(snap, a.output);
    return round.failures.isEmpty() ? Ok : Failed;
}

int fromDiscovery(const GpuArgs &a) {
    auto client = KubeClient::fromKubeconfig(a.kubeconfig, a.context);
    if (!client)
        return failWith(client.error());
    if ((*client)->insecureSkipTlsVerify())
        err() << "warning: TLS certificate verification is disabled for this cluster "
                 "(insecure-skip-tls-verify)\n";
    if (const QString clear = (*client)->clearTextWarning(); !clear.isEmpty())
        err() << clear << '\n';
    auto pods = exporters::findExporterPods(**client);
    if (!pods)
        return failWith(pods.error());
    auto r = exporters::scrapeAll(**client, *pods);
    if (!r)
        return failWith(r.error());
    // Pods that did not answer are warnings and exit 1, as unreadable --scrape pages are.
    printWarnings(r->snapshot.warnings, QString());
    nameClaimPods(r->snapshot, a, *client);
    printGpus(r->snapshot, a.output);
    return r->answered == r->asked ? Ok : Failed;
}

int runGpus(const QStringList &argv) {
    GpuArgs a = parseGpuArgs(argv, VerbKind::Gpus);
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    const QString unset = applySettingsDefaults(a, VerbKind::Gpus);
    const int sources = int(!a.prometheus.isEmpty()) + int(!a.scrape.isEmpty()) + int(a.discover);
    if (sources == 0)
        return fail(QStringLiteral("give either --prometheus URL or --scrape URL... (or --discover), or "
                                   "configure one: %1")
                        .arg(unset),
                    UsageError);
    if (sources > 1)
        return fail(QStringLiteral("give either --prometheus URL or --scrape URL... (or --discover)"),
                    UsageError);
    if (a.prometheus.isEmpty() && !a.tokenFile.isEmpty())
        return fail(QStringLiteral("--token-file goes with --prometheus"), UsageError);
    if (a.discover && !a.ca.isEmpty())
        return fail(QStringLiteral("--ca goes with --prometheus or --scrape (--discover trusts the "
                                   "kubeconfig's CA)"),
                    UsageError);
    if (!a.prometheus.isEmpty())
        return fromPrometheus(a);
    if (a.discover)
        return fromDiscovery(a);
    return fromPages(a);
}

} // namespace

GQ_REGISTER_VERB(QStringLiteral("gpus"),
                 QStringLiteral("gpus (--prometheus URL [--token-file F] [--ca FILE] | --scrape URL... | "
                                "--discover) [-o table|json]"),
                 QStringLiteral("live GPU and MIG readings from Prometheus or dcgm-exporter"), 70, runGpus,
                 {}, QString::fromLatin1(kGpusHelp));

} // namespace gq::cli
