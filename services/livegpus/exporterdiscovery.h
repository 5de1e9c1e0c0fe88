#pragma once

#include "core/metrics/gpusample.h"
#include "core/domain/result.h"
#include "core/metrics/scrape.h"

#include <QFuture>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <mutex>

namespace gq {

class KubeClient;

// "Discover dcgm-exporter through the cluster" as a metrics source. The exporter runs as
// a DaemonSet, one pod per GPU node, on the pod network: a desktop cannot reach the pods,
// and the exporter's Service sends each scrape to one random pod. So the pods are found
// by their labels (discovery::exporterSelectors) and each is read through the API
// server's pod proxy, GET /api/v1/namespaces/NS/pods/NAME:PORT/proxy/metrics, with the
// kubeconfig's credentials on the client's transport: every node's exporter, from
// anywhere the API server is reachable. (RBAC: `get` on pods/proxy, plus `list` pods.)
namespace exporters {

struct ExporterPod {
    QString ns;
    QString name;
    QString node;    // spec.nodeName: the hostname of GPUs whose series name none
    int port = 9400; // the container port named *metrics*, else the first one, else 9400
    bool running = false;
    QString phase;

    // /api/v1/namespaces/NS/pods/NAME:PORT/proxy/metrics
    [[nodiscard]] QString proxyPath() const;
};

struct ExporterPods {
    QList<ExporterPod> pods; // running ones first, then by namespace and name
    QStringList notes;       // pods found but not read (not Running), in words
    [[nodiscard]] int runningCount() const;
};

// The exporter pods of every namespace, by each selector in turn, each pod once. Blocks:
// run it off the GUI thread. A 403 on the list is an error saying what is missing.
[[nodiscard]] Result<ExporterPods> findExporterPods(KubeClient &client);

// One pod's page through the pod proxy; the page's GPUs without a hostname label are
// named after the pod's node. A refusal comes back as the API server words it ("error
// trying to reach service: ...").
QFuture<Result<metrics::ScrapedText>> scrapeThroughProxy(KubeClient &client, const ExporterPod &pod,
                                                         int timeoutMs = 10000);

struct ProxyScrape {
    metrics::GpuSnapshot snapshot; // warnings: pods that did not answer, notes, malformed lines
    int answered = 0;              // pods read
    int asked = 0;                 // running pods asked
    int gone = 0;                  // of those, answered 404: the pod no longer exists
};

// Every running pod read through the proxy at once, as one snapshot. Fails only when
// no pod is running or none answered (the first refusal is the error). Blocks.
[[nodiscard]] Result<ProxyScrape> scrapeAll(KubeClient &client, const ExporterPods &pods);

// Find, then read: what the CLI's `gpus --discover` and the Test button do.
[[nodiscard]] Result<ProxyScrape> discoverAndScrape(KubeClient &client);

// The Test button's sentence: "3 of 4 dcgm-exporter pods answer through the API server,
// 24 GPUs reporting" (GPUs and MIG instances counted by the live view's mapping).
[[nodiscard]] Result<QString> testDiscovered(KubeClient &client);

// For a monitor refreshing every few seconds: the pod list is kept and listed again
// after `relistMs`, when the client changes (a new context or credentials), or when a
// pod is gone (404). Thread-safe: refreshes run on the thread pool.
class DiscoveredExporters final {
public:
    explicit DiscoveredExporters(qint64 relistMs = 60000);
    Q_DISABLE_COPY_MOVE(DiscoveredExporters)

    [[nodiscard]] Result<metrics::GpuSnapshot> snapshot(const std::shared_ptr<KubeClient> &client);
    [[nodiscard]] int listings() const; // how often the pods were listed (tests)

private:
    const qint64 m_relistMs;
    mutable std::mutex m_mutex;
    std::weak_ptr<KubeClient> m_listedWith;
    qint64 m_listedAtMs = 0;
    bool m_stale = true;
    ExporterPods m_pods;
    int m_listings = 0;
};

} // namespace exporters
} // namespace gq
