#pragma once

#include "testcluster/store.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>

namespace gq::tc {

// Server-side printing: the meta.k8s.io/v1 Table that `kubectl get` asks for,
// with the same columns as the API server's printers for these kinds.
enum class IncludeObject { None, Metadata, Object };

QJsonArray tableColumns(Resource r);
QJsonObject tableRow(Resource r, const QJsonObject &object, IncludeObject include, const QDateTime &now);

// Go's duration.HumanDuration ("5m", "3h20m", "12d").
QString humanDuration(qint64 seconds);

} // namespace gq::tc
