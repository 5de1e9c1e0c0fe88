#pragma once

#include "core/usage/ledger.h"

#include <QtGlobal>

#include <functional>
#include <vector>

namespace gq {

// Synthetic but plausible GPU usage for demos, screenshots and benchmarks: a
// working-hours diurnal curve with quieter weekends, a few heavy users who launch
// many long multi-GPU jobs, notebooks on MIG slices, and the newest jobs still
// running at `end`. Deterministic for a given spec (same seed, same rows).
struct DemoSpec {
    int users = 50;
    int namespaces = 8;
    int days = 30;
    quint64 seed = 1;
    qint64 end = 0;            // epoch seconds; usage covers [end - days, end)
    double jobsPerUserDay = 3; // the average; heavy users get far more
    QString cluster = QStringLiteral("demo");
};

// Calls `sink` with consecutive chunks of about `chunk` intervals (so ten million
// rows never sit in memory at once); stop early by returning false. Returns the
// number of intervals produced.
qint64 generateDemoUsage(const DemoSpec &spec, const std::function<bool(std::vector<UsageInterval> &&)> &sink,
                         int chunk = 50000);

// The names the generator uses, so callers (benchmarks, tests) can query them.
[[nodiscard]] QString demoUserName(int i);
[[nodiscard]] QString demoNamespaceName(int i);

} // namespace gq
