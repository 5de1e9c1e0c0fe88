#pragma once

#include "core/domain/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace gq::tc {

// The two places where kubectl insists on protobuf:
//
// * Typed clients in kubectl >= 1.32 (`create namespace`, `create quota`,
//   `auth can-i`, `auth whoami`) send `application/vnd.kubernetes.protobuf`
//   request bodies. decodeKubernetesProtobuf() turns the envelope ("k8s\0" +
//   runtime.Unknown) into the JSON object the API would have received, for the
//   kinds served here. Unknown fields are skipped.
// * kubectl <= 1.28 fetches /openapi/v2 only as the gnostic OpenAPIv2 protobuf
//   (for client-side validation and strategic-merge metadata).
//   encodeOpenApiV2() builds it from the OpenAPI v3 components.
Result<QJsonObject> decodeKubernetesProtobuf(const QByteArray &body);

QByteArray encodeOpenApiV2(const QJsonObject &openApiV3CoreDocument,
                           const QJsonObject &openApiV3Authorization);

} // namespace gq::tc
