#pragma once

#include "core/metrics/idle.h"

#include <QString>

namespace gq::idlespans {

// What one row of the usage database's idle_spans table says about an idle GPU, as pure
// functions (the rows are written by the controller's idle recorder and read back by
// services/livegpus/idlespans.h): node, gpu_uuid, ns, pod_name.

// The gpu_uuid column: the UUID, with "/<GPU_I_ID>" for a MIG instance, "#<index>" when
// the exporter gives no UUID; and back (node and the key's identity only).
[[nodiscard]] QString gpuKey(const metrics::GpuSample &gpu);
[[nodiscard]] metrics::GpuSample gpuFromKey(const QString &node, const QString &key);

// The holder a row names: the first holder by namespace and pod name.
[[nodiscard]] metrics::GpuHolder rowHolder(const metrics::IdleGpu &gpu);

} // namespace gq::idlespans
