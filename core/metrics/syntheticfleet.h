#pragma once

#include <QByteArray>

namespace gq::metrics {

// dcgm-exporter pages for a made-up fleet, as the real exporter prints them (HELP/TYPE
// per family, the default counters, Kubernetes pod labels on allocated GPUs, MIG
// instances on some GPUs). For the parser benchmark, the test exporter's fleet mode and
// demos. Readings vary with `tSeconds` (deterministically), so a series of pages looks
// like a live cluster.
struct FleetSpec {
    int nodes = 125;
    int gpusPerNode = 8;
    int migEvery = 10; // every Nth GPU is split into MIG instances (0: none)
    int families =
        0; // extra default-counter families per GPU beyond the six read (0: as dcgm-exporter's defaults)
    int firstNode = 0; // node names start at gpu-node-<firstNode>
};

[[nodiscard]] QByteArray fleetExposition(const FleetSpec &spec, qint64 tSeconds);

} // namespace gq::metrics
