#pragma once

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

// "empty": the system namespaces only. "demo": GPU teams with quotas, limit ranges
// and running pods. Returns false with `error` for an unknown name.
bool loadScenario(ApiServer &server, Store &store, const QString &name, QString *error);
// Adds `namespaces` team namespaces (each with a quota and a limit range) and
// `pods` running pods spread over them, for benchmarks.
void loadScale(ApiServer &server, Store &store, const ScaleOptions &options);

} // namespace gq::tc
