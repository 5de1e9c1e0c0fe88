#include "services/livegpus/exporterdiscovery.h"

#include "core/domain/clock.h"
#include "services/cluster/clusterdiscovery.h"
#include "core/kube/kubeclient.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace gq::exporters {

using namespace gq::metrics;

namespace {

constexpr int kDefaultPort = 9400; // dcgm-exporter's

int metricsPort(const QJsonObject &spec) {
    int first = 0;
    for (const QJsonValue &c : spec.value(QLatin1String("containers")).toArray()) {
        for (const QJsonValue &p : c.toObject().value(QLatin1String("ports")).toArray()) {
            const QJsonObject port = p.toObject();
            const int number = port.value(QLatin1String("containerPort")).toInt();
            if (number <= 0)
                continue;
            if (port.value(QLatin1String("name")).toString().contains(QLatin1String("metrics")))
                return number;
            if (!first)
                first = number;
        }
    }
    return first ? first : kDefaultPort;
}

ExporterPod podFromJson(const QJsonObject &pod) {
    const QJsonObject meta = pod.value(QLatin1String("metadata")).toObject();
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    const QJsonObject status = pod.value(QLatin1String("status")).toObject();
    ExporterPod p;
    p.ns = meta.value(QLatin1String("namespace")).toString();
    p.name = meta.value(QLatin1String("name")).toString();
    p.node = spec.value(QLatin1String("nodeName")).toString();
    p.port = metricsPort(spec);
    p.phase = status.value(QLatin1String("phase")).toString();
    p.running = p.phase == QLatin1String("Running") &&
                !status.value(QLatin1String("podIP")).toString().isEmpty() &&
                meta.value(QLatin1String("deletionTimestamp")).toString().isEmpty();
    return p;
}

} // namespace

QString ExporterPod::proxyPath() const {
    return QStringLiteral("/api/v1/namespaces/%1/pods/%2:%3/proxy/metrics").arg(ns, name).arg(port);
}

int ExporterPods::runningCount() const {
    return int(std::count_if(pods.cbegin(), pods.cend(), [](const ExporterPod &p) { return p.running; }));
}

Result<ExporterPods> findExporterPods(KubeClient &client) {
    ExporterPods out;
    QSet<QString> seen;
    for (const QString &selector : discovery::exporterSelectors()) {
        ListOptions options;
        options.labelSelector = selector;
        auto pods = client.list(KubeResource::pods(), QString(), options).result();
        if (!pods) {
            Error e = pods.error();
            if (e.kind == Error::Kind::Forbidden)
                e.message = QCoreApplication::translate(
                                "gq::ExporterDiscovery",
                                "not allowed to list pods in all namespaces, which finding dcgm-exporter "
                                "needs: %1")
                                .arg(e.message);
            return e;
        }
        for (const QJsonObject &pod : pods->items) {
            const QJsonObject meta = pod.value(QLatin1String("metadata")).toObject();
            const QString uid = meta.value(QLatin1String("uid")).toString();
            if (seen.contains(uid))
                continue;
            seen.insert(uid);
            out.pods.append(podFromJson(pod));
        }
    }
    std::sort(out.pods.begin(), out.pods.end(), [](const ExporterPod &a, const ExporterPod &b) {
        if (a.running != b.running)
            return a.running;
        return a.ns != b.ns ? a.ns < b.ns : a.name < b.name;
    });
    for (const ExporterPod &p : std::as_const(out.pods))
        if (!p.running)
            out.notes << QCoreApplication::translate("gq::ExporterDiscovery",
                                                     "dcgm-exporter pod %1/%2 is %3: not read")
                             .arg(p.ns, p.name,
                                  p.phase.isEmpty()
                                      ? QCoreApplication::translate("gq::ExporterDiscovery", "not running")
                                      : p.phase);
    return out;
}

QFuture<Result<ScrapedText>> scrapeThroughProxy(KubeClient &client, const ExporterPod &pod, int timeoutMs) {
    KubeRequest req;
    req.path = pod.proxyPath();
    req.timeoutMs = timeoutMs;
    req.maxAttempts = 2; // the next refresh tries again
    req.maxBodyBytes = kMaxScrapeBytes;
    const QString url = client.server() + req.path;
    const QString who = pod.ns + QLatin1Char('/') + pod.name;
    const QString instance = pod.node.isEmpty() ? pod.name : pod.node;
    return client.send(std::move(req))
        .then([url, who, instance](Result<KubeResponse> r) -> Result<ScrapedText> {
            if (!r) {
                Error e = r.error();
                e.message =
                    QCoreApplication::translate("gq::ExporterDiscovery",
                                                "cannot read dcgm-exporter pod %1 through the API server: %2")
                        .arg(who, e.message);
                return e;
            }
            return ScrapedText{url, parseExposition(r->body), instance};
        });
}

Result<ProxyScrape> scrapeAll(KubeClient &client, const ExporterPods &pods) {
    ProxyScrape out;
    QList<QFuture<Result<ScrapedText>>> pending;
    for (const ExporterPod &p : pods.pods) {
        if (!p.running)
            continue;
        pending.append(scrapeThroughProxy(client, p));
        ++out.asked;
    }
    if (pending.isEmpty()) {
        Error e = Error::make(Error::Kind::NotFound,
                              pods.pods.isEmpty()
                                  ? QCoreApplication::translate("gq::ExporterDiscovery",
                                                                "no dcgm-exporter pods found (labels %1)")
                                        .arg(discovery::exporterSelectors().join(QStringLiteral(", ")))
                                  : QCoreApplication::translate("gq::ExporterDiscovery",
                                                                "%n dcgm-exporter pod(s) found, none running",
                                                                nullptr, int(pods.pods.size())));
        return e;
    }
    const ScrapeRound round = collectScrapes(std::move(pending));
    out.answered = int(round.pages.size());
    for (const Error &e : round.failures)
        out.gone += e.kind == Error::Kind::NotFound ? 1 : 0;
    auto snap = snapshotFromRound(round);
    if (!snap)
        return snap.error();
    out.snapshot = std::move(*snap);
    out.snapshot.warnings += pods.notes;
    out.snapshot.takenAtMs = Clock::system().nowMSecs();
    return out;
}

Result<ProxyScrape> discoverAndScrape(KubeClient &client) {
    auto pods = findExporterPods(client);
    if (!pods)
        return pods.error();
    return scrapeAll(client, *pods);
}

Result<QString> testDiscovered(KubeClient &client) {
    auto r = discoverAndScrape(client);
    if (!r)
        return r.error();
    const QList<bool> parents = migParentRows(r->snapshot.gpus);
    const auto gpus = std::count(parents.cbegin(), parents.cend(), false); // a MIG GPU: its instances
    QString text = QCoreApplication::translate(
                       "gq::ExporterDiscovery",
                       "%1 of %2 dcgm-exporter pods answer through the API server, %3 GPUs reporting")
                       .arg(r->answered)
                       .arg(r->asked)
                       .arg(gpus);
    if (!r->snapshot.warnings.isEmpty())
        text += QStringLiteral(" (") + r->snapshot.warnings.join(QStringLiteral("; ")) + QLatin1Char(')');
    return text;
}

DiscoveredExporters::DiscoveredExporters(qint64 relistMs)
    : m_relistMs(relistMs) {}

int DiscoveredExporters::listings() const {
    std::lock_guard lock(m_mutex);
    return m_listings;
}

Result<GpuSnapshot> DiscoveredExporters::snapshot(const std::shared_ptr<KubeClient> &client) {
    if (!client)
        return Error::make(Error::Kind::Config,
                           QCoreApplication::translate(
                               "gq::ExporterDiscovery",
                               "not connected to a cluster: dcgm-exporter is found through its API server"));
    ExporterPods pods;
    {
        std::lock_guard lock(m_mutex);
        const qint64 now = Clock::system().nowMSecs();
        if (m_stale || m_listedWith.lock() != client || now - m_listedAtMs > m_relistMs) {
            auto found = findExporterPods(*client);
            if (!found)
                return found.error();
            m_pods = *found;
            m_listedWith = client;
            m_listedAtMs = now;
            m_stale = false;
            ++m_listings;
        }
        pods = m_pods;
    }
    // Outside the lock: the scrapes take a while, and only one refresh runs at a time.
    auto r = scrapeAll(*client, pods);
    if (!r) {
        std::lock_guard lock(m_mutex);
        m_stale = true; // every pod failed: maybe all were replaced
        return r.error();
    }
    if (r->gone > 0) {
        std::lock_guard lock(m_mutex);
        m_stale = true; // a pod gone (rolled, evicted): its successor is found on the next refresh
    }
    return r->snapshot;
}

} // namespace gq::exporters
