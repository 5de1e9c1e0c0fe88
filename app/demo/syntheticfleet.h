#pragma once

#include <QByteArray>

#include <span>

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

// A metric family of dcgm-exporter's page: its name, TYPE and HELP text.
struct ExporterFamily {
    const char *name;
    const char *type;
    const char *help;
};
// The families the mapping reads (utilization, framebuffer used/free, power,
// temperature, graphics engine activity), first of dcgmFamilies().
inline constexpr int kReadFamilies = 6;
// dcgm-exporter's default families: the kReadFamilies read ones, then the rest.
[[nodiscard]] std::span<const ExporterFamily> dcgmFamilies();

// A deterministic pseudo-random number in [0, 1) per (a, b, c), e.g. (gpu, family,
// time): readings that look live yet are the same in every run.
[[nodiscard]] double syntheticNoise(quint64 a, quint64 b, quint64 c);

[[nodiscard]] QByteArray fleetExposition(const FleetSpec &spec, qint64 tSeconds);

} // namespace gq::metrics
