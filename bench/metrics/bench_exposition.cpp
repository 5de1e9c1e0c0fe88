// Exposition parser throughput (MB/s) and the dcgm-exporter mapping's time, on the
// issue's fleet: 125 nodes x 8 GPUs, every tenth GPU split into MIG instances, the
// exporter's default counters (one scrape of all of them ~ 8 MB), parsed again and
// again. Prints the median of the runs.
//   <build>/bin/bench_exposition [--nodes 125] [--runs 15]
#include "core/metrics/exposition.h"
#include "core/metrics/gpusample.h"
#include "app/demo/syntheticfleet.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace gq::metrics;

namespace {

// CPU time of this thread: on a shared, loaded machine wall time mostly measures the
// other processes.
double cpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    auto flag = [&](const char *name, int fallback) {
        const qsizetype i = args.indexOf(QString::fromLatin1(name));
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1).toInt() : fallback;
    };
    FleetSpec spec;
    spec.nodes = flag("--nodes", 125);
    const int runs = std::max(1, flag("--runs", 15));
    const QByteArray text = fleetExposition(spec, 1700000000);
    const double mb = double(text.size()) / 1e6;

    std::vector<double> parseMs, mapMs, parseCpu, mapCpu;
    qsizetype samples = 0, gpus = 0;
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer t;
        t.start();
        double c0 = cpuMs();
        const Exposition e = parseExposition(text);
        parseCpu.push_back(cpuMs() - c0);
        parseMs.push_back(double(t.nsecsElapsed()) / 1e6);
        if (e.issueCount != 0) {
            std::fprintf(stderr, "unexpected parse issue: %s\n", qPrintable(e.issues.value(0).toString()));
            return 1;
        }
        t.restart();
        c0 = cpuMs();
        const GpuSnapshot s = gpusFromSamples(e.samples, e.help);
        mapCpu.push_back(cpuMs() - c0);
        mapMs.push_back(double(t.nsecsElapsed()) / 1e6);
        samples = e.samples.size();
        gpus = s.gpus.size();
    }
    for (auto *v : {&parseMs, &mapMs, &parseCpu, &mapCpu})
        std::sort(v->begin(), v->end());
    const double p = parseMs[parseMs.size() / 2], m = mapMs[mapMs.size() / 2];
    const double pc = parseCpu[parseCpu.size() / 2], mc = mapCpu[mapCpu.size() / 2];
    std::printf("exposition text: %.2f MB, %lld samples, %lld GPU/MIG rows (%d nodes x %d GPUs)\n", mb,
                static_cast<long long>(samples), static_cast<long long>(gpus), spec.nodes, spec.gpusPerNode);
    std::printf(
        "parse: median %.1f ms CPU = %.1f MB/s (wall %.1f ms = %.1f MB/s; min %.1f, max %.1f ms; %d runs)\n",
        pc, mb / (pc / 1000.0), p, mb / (p / 1000.0), parseMs.front(), parseMs.back(), runs);
    std::printf("map to GPU rows: median %.1f ms CPU (wall %.1f ms)\n", mc, m);
    std::printf("parse + map per 5 s refresh: %.2f %% of one core\n", (pc + mc) / 5000.0 * 100.0);
    return 0;
}
