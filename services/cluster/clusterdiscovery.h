#pragma once

#include "services/settings/connectionsettings.h"
#include "core/domain/result.h"

#include <QStringList>

#include <memory>

namespace gq {

class KubeClient;

// What the cluster itself says about its connections, for the admin to confirm before
// anything is saved:
// - a ConfigMap `gpuquota-controller` in `gpuquota-system` whose data advertises
//   `usageDatabase`, `metricsSource`, `prometheusUrl`, `controllerUrl` (never secrets:
//   keys that look like one are ignored and reported);
// - the Service `gpuquota-controller` there (the controller's URL, unless the ConfigMap
//   names one; annotation `gpuquota.io/url` gives an address reachable from outside);
// - dcgm-exporter pods and services, by the labels the NVIDIA chart and GPU operator use.
struct DiscoveryReport {
    ContextConnections proposal; // only the fields the cluster advertised are set
    QStringList findings;        // one sentence per thing found or missing
    QStringList ignored;         // secret-like ConfigMap keys that were not taken
    int exporterPods = 0;
    [[nodiscard]] bool foundAnything() const;
};

namespace discovery {
inline constexpr const char *kNamespace = "gpuquota-system";
inline constexpr const char *kName = "gpuquota-controller";
// Label selectors tried for dcgm-exporter, in order.
[[nodiscard]] QStringList exporterSelectors();

// Blocks until the API server has answered every question: run it off the GUI thread
// (JobTracker::run). Fails only when the cluster cannot be asked at all; missing
// objects (404) or lists it may not read (403) become findings.
[[nodiscard]] Result<DiscoveryReport> discover(const std::shared_ptr<KubeClient> &client);
} // namespace discovery

} // namespace gq
