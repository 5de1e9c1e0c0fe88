#pragma once

#include <QJsonObject>
#include <QString>

namespace gq::tc {

// A pod's status in `phase` as the kubelet reports it: conditions, IPs, QoS class
// and one container status per container. Keeps startTime from `previous`.
QJsonObject podStatusFor(const QJsonObject &pod, const QString &phase, const QJsonObject &previous);

} // namespace gq::tc
