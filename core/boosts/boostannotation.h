#pragma once

#include "core/usage/boosts.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace gq {

// What a ResourceQuota carries about the boosts applied to it, so anyone using kubectl
// sees why a value is what it is, and a reconcile that takes over a crashed one knows
// what is on the server: the `gpuquota.io/boosts` annotation, a JSON array with one
// {"id", "resource", "delta", "expires"} per active boost, `expires` always the boost's
// current end (RFC 3339 UTC).
inline const QString kBoostsAnnotation = QStringLiteral("gpuquota.io/boosts");

// The annotation's entries (empty when there is none or it is not an array).
[[nodiscard]] QList<QJsonObject> boostAnnotationEntries(const QJsonObject &quota);
// `quota` with the annotation set to `entries` (removed when there are none).
[[nodiscard]] QJsonObject withBoostAnnotation(QJsonObject quota, const QList<QJsonObject> &entries);
// The entry for `boost` as applied now.
[[nodiscard]] QJsonObject boostAnnotationEntry(const Boost &boost);
// Whether `entry` is `boost`'s and says what boostAnnotationEntry() would (its current end).
[[nodiscard]] bool annotationEntryIsCurrent(const QJsonObject &entry, const Boost &boost);
// `quota` with spec.hard[resource] = value.
[[nodiscard]] QJsonObject withHardValue(QJsonObject quota, const QString &resource, const QString &value);

// Whether `quota`'s status.hard[resource] already shows `value` (what quota admission
// enforces; kube-controller-manager copies spec.hard there later): the audit entry of a
// boost's write says "effective" only then, else "pending enforcement".
[[nodiscard]] bool statusShows(const QJsonObject &quota, const QString &resource, const QString &value);

} // namespace gq
