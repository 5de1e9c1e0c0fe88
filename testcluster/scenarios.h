#pragma once

#include "core/domain/result.h"

#include <QString>

namespace gq::tc {

class ApiServer;
class Store;

// Seed contents. Every object goes through the normal create path (defaulting,
// LimitRanger, quota admission), so the seeded state is one the API server could
// have produced.
struct ScaleOptions {
    int namespaces = 0;
    int pods = 0;
};

// "empty": the system namespaces only (no Nodes: pods run without capacity checks).
// "gpu-nodes": the system namespaces and 13 Nodes (H100, A100, L40S, MIG, time-sliced
// L4, CPU) that pods are scheduled onto by capacity. "demo": gpu-nodes plus GPU teams
// with quotas, limit ranges and running pods. Fails for an unknown name.
Result<void> loadScenario(ApiServer &server, Store &store, const QString &name);
// Adds `namespaces` team namespaces (each with a quota and a limit range) and
// `pods` running pods spread over them, for benchmarks.
void loadScale(ApiServer &server, Store &store, const ScaleOptions &options);

} // namespace gq::tc
