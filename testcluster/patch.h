#pragma once

#include "testcluster/apierror.h"

#include <QByteArray>
#include <QJsonObject>

#include <optional>

namespace gq::tc {

enum class PatchType { Merge, StrategicMerge, Json, Apply };

std::optional<PatchType> patchTypeFromContentType(const QByteArray &contentType);

// Applies a patch document to `target`. JSON merge patch follows RFC 7386.
// Strategic merge patch is applied as a merge patch after its directives
// (`$patch`, `$setElementOrder/...`, `$retainKeys`, `$deleteFromPrimitiveList/...`)
// are honoured or dropped: the kinds served here have no merge-keyed lists that
// matter for quota work. Apply (server-side apply) is approximated by a merge.
// JSON patch (RFC 6902) supports add, remove, replace, test, move and copy.
std::optional<ApiError> applyPatch(PatchType type, const QByteArray &patch, QJsonObject &target);

} // namespace gq::tc
