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

// The Table document around `rows`. Watch events after the first leave
// columnDefinitions null (`withColumns` false), as the API server does.
QJsonObject tableDocument(Resource r, const QString &version, const QJsonObject &metadata,
                          const QJsonArray &rows, bool withColumns = true);
// The response media type for a Table of `version` ("v1" or "v1beta1").
const char *tableContentType(const QString &version);
// The includeObject query parameter; Metadata unless None or Object.
IncludeObject includeObjectFrom(const QString &value);

// Go's duration.HumanDuration ("5m", "3h20m", "12d").
QString humanDuration(qint64 seconds);

} // namespace gq::tc
