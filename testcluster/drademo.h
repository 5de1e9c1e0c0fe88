#pragma once

// The demo's DRA team (demo::Team::usesDra): a DeviceClass and a ResourceSlice of
// demo::kDraNode's GPUs for NVIDIA's DRA driver, and for each running pod a ResourceClaim
// allocated to the next devices and reserved for the pod, as the scheduler would leave it.

#include <QJsonObject>
#include <QString>

namespace gq::tc {

class ApiServer;

// The DeviceClass and the ResourceSlice (once per scenario).
void draDemoDevices(ApiServer &server);
// Creates "<pod>-gpus" allocated to devices gpu-<firstDevice>.. and returns the pod with
// spec.resourceClaims naming it and spec.nodeName demo::kDraNode.
[[nodiscard]] QJsonObject draDemoPod(ApiServer &server, const QString &ns, QJsonObject pod, int firstDevice,
                                     int gpus);

} // namespace gq::tc
