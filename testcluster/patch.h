#pragma once

#include "testcluster/apierror.h"

#include <QByteArray>
#include <QJsonObject>

#include <optional>

namespace gq::tc {

enum class PatchType { Merge, StrategicMerge, Json, Apply };

std::optional<PatchType> patchTypeFromContentType(const QByteArray &contentType);

// Applies a patch document to `target`. JSON merge patch follows RFC 7386.
// Strategic merge patch merges the lists that upstream gives a patchMergeKey
// (containers, env, volumes, ports, webhooks, conditions, ... by their key, with
// `$patch: delete` and `$setElementOrder/...`) and replaces every other list;
// `$retainKeys` and `$deleteFromPrimitiveList/...` are dropped.
// Apply (server-side apply) is approximated by a merge.
// JSON patch (RFC 6902) supports add, remove, replace, test, move and copy.
std::optional<ApiError> applyPatch(PatchType type, const QByteArray &patch, QJsonObject &target);

} // namespace gq::tc
