#pragma once

#include <QByteArray>

namespace gq::tc {

// dcgm-exporter's page for the demo cluster's GPU nodes at `tSeconds`: every GPU of
// the "demo" scenario's nodes (H100, A100, L40S, the A100 split into MIG 3g.40gb
// instances, the time-sliced L4s), with the Kubernetes labels (namespace, pod,
// container) of the demo's running pods (demoteams.h) on the GPUs they hold. Busy GPUs
// swing slowly over minutes; one held GPU (demo::kIdleTeam's demo::kIdlePod) stays near
// 0 % so idle detection has something to find; the rest are free.
[[nodiscard]] QByteArray demoExposition(qint64 tSeconds);

} // namespace gq::tc
