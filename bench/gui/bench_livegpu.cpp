// The Live GPU page's refresh work at the scale: 1,000 GPUs (125 nodes x 8,
// every tenth split into MIG instances, from core/metrics' synthetic fleet) refreshed
// every 5 s, for both sources:
//   scrape      what the console does with exporter pages: parse the exposition text,
//               map it to GPUs, update the page's model (the sorted, filtered table proxy
//               included), the namespace list's live figures, and repaint the table's
//               visible rows offscreen. Generating the text (the exporter's work) is not
//               counted.
//   prometheus  what it does with Prometheus: the HTTP GET of the snapshot query (the
//               console's PromQL, libcurl on the shared transport), the JSON decode of
//               the answer, the mapping, and the same model update and repaint. The
//               answer is recorded once from the same fleet as Prometheus returns it
//               (every series the query asks for, with instance and job labels) and
//               served by a separate process (python3 -m http.server), so the server's
//               work is not counted.
// CPU time of this process (all threads) per refresh, median; the share of one core at
// the 5 s interval; the parser's MB/s on the same pages.
//   QT_QPA_PLATFORM=offscreen <build>/bin/bench_livegpu [--nodes 125] [--refreshes 24]
#include "core/metrics/exposition.h"
#include "services/livegpus/gpumonitor.h"
#include "core/metrics/gpusample.h"
#include "core/metrics/idle.h"
#include "models/livegpus/livegpumodel.h"
#include "widgets/livegpus/livegpupage.h"
#include "models/quotas/namespacelistmodel.h"
#include "core/metrics/prometheusclient.h"
#include "app/demo/syntheticfleet.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <vector>

using namespace gq;
using namespace gq::metrics;

namespace {
double processCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}
int intArg(const QStringList &args, const char *name, int fallback) {
    const qsizetype i = args.indexOf(QLatin1String(name));
    return i >= 0 && i + 1 < args.size() ? args.at(i + 1).toInt() : fallback;
}

// The fleet as Prometheus answers gpuSnapshotQuery(): the six fields' series with the
// target labels Prometheus adds, and one presence series per GPU and holder.
QByteArray recordedAnswer(const FleetSpec &spec, qint64 t) {
    const Exposition e = parseExposition(fleetExposition(spec, t));
    QSet<QString> wanted;
    for (const QString &n : dcgmMetricNames())
        wanted.insert(n);
    QJsonArray result;
    QSet<QByteArray> presence;
    for (const Sample &s : e.samples) {
        QJsonObject metric;
        for (const Label &l : s.labels)
            metric.insert(l.name, l.value);
        metric.insert(QStringLiteral("instance"),
                      QString(labelValue(s.labels, u"Hostname") + QStringLiteral(":9400")));
        metric.insert(QStringLiteral("job"), QStringLiteral("dcgm"));
        QJsonObject group = metric;
        for (const char *drop : {"device", "pci_bus_id", "DCGM_FI_DRIVER_VERSION"})
            group.remove(QLatin1String(drop));
        group.insert(QStringLiteral("gq_presence"), QStringLiteral("1"));
        const QByteArray key = QJsonDocument(group).toJson(QJsonDocument::Compact);
        if (!presence.contains(key)) {
            presence.insert(key);
            result.append(QJsonObject{{QStringLiteral("metric"), group},
                                      {QStringLiteral("value"), QJsonArray{double(t), QStringLiteral("1")}}});
        }
        if (!wanted.contains(s.name))
            continue;
        metric.insert(QStringLiteral("__name__"), s.name);
        result.append(
            QJsonObject{{QStringLiteral("metric"), metric},
                        {QStringLiteral("value"), QJsonArray{double(t), QString::number(s.value, 'g', 17)}}});
    }
    const QJsonObject envelope{
        {QStringLiteral("status"), QStringLiteral("success")},
        {QStringLiteral("data"), QJsonObject{{QStringLiteral("resultType"), QStringLiteral("vector")},
                                             {QStringLiteral("result"), result}}}};
    return QJsonDocument(envelope).toJson(QJsonDocument::Compact);
}

// Time a fetch spent on work that is not the console's (making the exporter's page).
double excludedMs = 0;

struct Figures {
    double refreshMs = 0;
    double parseMs = 0;
    qint64 bytes = 0;
    int rows = 0;
};

// Runs `refreshes` + 1 refreshes (the first builds the rows and is not counted); `fetch`
// returns the snapshot and the part of its time spent parsing or decoding.
Figures measure(int refreshes, QTableView *table, GpuMonitor &monitor, NamespaceListModel &namespaces,
                const std::function<GpuSnapshot(int i, double *parseMs, qint64 *bytes)> &fetch) {
    std::vector<double> refreshMs, parseMs;
    Figures f;
    for (int i = 0; i < refreshes + 1; ++i) {
        double parse = 0;
        qint64 bytes = 0;
        excludedMs = 0;
        const double t0 = processCpuMs();
        const GpuSnapshot snap = fetch(i, &parse, &bytes);
        emit monitor.snapshotAvailable(snap);
        namespaces.setLiveGpus(namespaceGpuLive(snap));
        table->viewport()->repaint();
        QCoreApplication::processEvents();
        const double t1 = processCpuMs();
        if (i == 0)
            continue;
        refreshMs.push_back(t1 - t0 - excludedMs);
        parseMs.push_back(parse);
        f.bytes = bytes;
        f.rows = int(snap.gpus.size());
    }
    f.refreshMs = median(refreshMs);
    f.parseMs = median(parseMs);
    return f;
}

int freePort() {
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    FleetSpec spec;
    spec.nodes = intArg(args, "--nodes", 125);
    const int refreshes = std::max(3, intArg(args, "--refreshes", 24));

    GpuMonitor monitor; // no source: the benchmark hands the page its snapshots
    LiveGpuPage page(&monitor);
    NamespaceListModel namespaces;
    page.resize(1400, 900);
    page.show();
    auto *table = page.findChild<QTableView *>(QStringLiteral("liveGpuTable"));
    QCoreApplication::processEvents();

    QByteArray text;
    const Figures scrape =
        measure(refreshes, table, monitor, namespaces, [&](int i, double *parseMs, qint64 *bytes) {
            // The exporter's work, not the console's: measure() takes its time off.
            const double g0 = processCpuMs();
            text = fleetExposition(spec, 1'700'000'000 + qint64(i) * 5);
            excludedMs = processCpuMs() - g0;
            const double t0 = processCpuMs();
            const Exposition e = parseExposition(text);
            *parseMs = processCpuMs() - t0;
            *bytes = text.size();
            return gpusFromSamples(e.samples, e.help);
        });
    std::printf(
        "fleet: %d nodes x %d GPUs, %d rows (GPUs, MIG instances and their GPUs), %.1f MB per scrape\n",
        spec.nodes, spec.gpusPerNode, scrape.rows, double(scrape.bytes) / 1e6);
    std::printf(
        "scrape: refresh work (parse + map + model + namespace join + repaint), median of %d: %.1f ms "
        "CPU = %.2f %% of one core at one refresh every 5 s\n",
        refreshes, scrape.refreshMs, scrape.refreshMs / 5000.0 * 100.0);
    std::printf("parser: %.1f ms per scrape = %.1f MB/s\n", scrape.parseMs,
                double(scrape.bytes) / 1e6 / (scrape.parseMs / 1000.0));

    // The Prometheus path, against a recorded answer served by another process.
    QTemporaryDir dir;
    QDir().mkpath(dir.filePath(QStringLiteral("api/v1")));
    QFile answer(dir.filePath(QStringLiteral("api/v1/query")));
    if (!answer.open(QIODevice::WriteOnly)) {
        std::fprintf(stderr, "cannot write the recorded answer\n");
        return 1;
    }
    const QByteArray recorded = recordedAnswer(spec, 1'700'000'000);
    answer.write(recorded);
    answer.close();
    const int port = freePort();
    QProcess server;
    server.start(QStringLiteral("python3"),
                 {QStringLiteral("-m"), QStringLiteral("http.server"), QString::number(port),
                  QStringLiteral("--bind"), QStringLiteral("127.0.0.1"), QStringLiteral("--directory"),
                  dir.path()});
    PrometheusConfig config;
    config.url = QStringLiteral("http://127.0.0.1:%1").arg(port);
    PrometheusClient client(config);
    bool up = false;
    for (int i = 0; i < 100 && !up; ++i) {
        auto probe = client.query(gpuSnapshotQuery());
        probe.waitForFinished();
        up = probe.result().has_value();
        if (!up)
            QThread::msleep(100);
    }
    if (!up) {
        std::fprintf(stderr, "the recorded answer's server (python3 -m http.server) did not answer\n");
        return 1;
    }
    const Figures prom =
        measure(refreshes, table, monitor, namespaces, [&](int, double *decodeMs, qint64 *bytes) {
            const double t0 = processCpuMs();
            auto f = client.query(gpuSnapshotQuery());
            f.waitForFinished();
            const Result<PromResult> r = f.result();
            *decodeMs = processCpuMs() - t0; // HTTP + JSON decode
            *bytes = recorded.size();
            return r ? gpusFromVector(*r) : GpuSnapshot{};
        });
    server.terminate();
    server.waitForFinished(5000);
    std::printf(
        "prometheus: answer %.1f MB, %d rows; HTTP + JSON decode %.1f ms CPU; refresh work (HTTP + decode + "
        "map + model + namespace join + repaint), median of %d: %.1f ms CPU = %.2f %% of one core at one "
        "refresh every 5 s\n",
        double(recorded.size()) / 1e6, prom.rows, prom.parseMs, refreshes, prom.refreshMs,
        prom.refreshMs / 5000.0 * 100.0);
    return prom.rows == scrape.rows ? 0 : 1;
}
