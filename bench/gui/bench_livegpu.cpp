// The Live GPU page's refresh work at the scale: 1,000 GPUs (125 nodes x 8,
// every tenth split into MIG instances, from core/metrics' synthetic fleet) refreshed
// every 5 s. Per refresh it measures the CPU time (this process, all threads) of what
// the console does with a scrape: parse the exposition text, map it to GPUs, update the
// page's model (the sorted, filtered table proxy included), the namespace list's live
// figures, and repaint the table's visible rows offscreen. Generating the text (the
// exporter's work) is not counted. Prints the median per refresh, the share of one core
// at the 5 s interval, and the parser's MB/s on the same pages.
//   QT_QPA_PLATFORM=offscreen <build>/bin/bench_livegpu [--nodes 125] [--refreshes 24]
#include "exposition.h"
#include "gpumonitor.h"
#include "gpusample.h"
#include "livegpumodel.h"
#include "livegpupage.h"
#include "namespacelistmodel.h"
#include "syntheticfleet.h"

#include <QApplication>
#include <QTableView>

#include <algorithm>
#include <cstdio>
#include <ctime>
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

    std::vector<double> refreshMs, parseMs;
    qint64 bytes = 0;
    int gpus = 0;
    for (int i = 0; i < refreshes + 1; ++i) {
        const QByteArray text = fleetExposition(spec, 1'700'000'000 + qint64(i) * 5);
        const double t0 = processCpuMs();
        const Exposition e = parseExposition(text);
        const double t1 = processCpuMs();
        GpuSnapshot snap = gpusFromSamples(e.samples, e.help);
        emit monitor.snapshotAvailable(snap);
        namespaces.setLiveGpus(namespaceGpuLive(snap));
        table->viewport()->repaint();
        QCoreApplication::processEvents();
        const double t2 = processCpuMs();
        if (i == 0)
            continue; // the first one builds the rows (a reset), later ones update them
        refreshMs.push_back(t2 - t0);
        parseMs.push_back(t1 - t0);
        bytes = text.size();
        gpus = int(snap.gpus.size());
    }
    const double perRefresh = median(refreshMs);
    const double parse = median(parseMs);
    std::printf(
        "fleet: %d nodes x %d GPUs, %d rows (GPUs, MIG instances and their GPUs), %.1f MB per scrape\n",
        spec.nodes, spec.gpusPerNode, gpus, double(bytes) / 1e6);
    std::printf("refresh work (parse + map + model + namespace join + repaint), median of %d: %.1f ms CPU\n",
                refreshes, perRefresh);
    std::printf("at one refresh every 5 s: %.2f %% of one core\n", perRefresh / 5000.0 * 100.0);
    std::printf("parser: %.1f ms per scrape = %.1f MB/s\n", parse, double(bytes) / 1e6 / (parse / 1000.0));
    return 0;
}
