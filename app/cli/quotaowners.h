#pragma once

// What `gpuquota get quotas` and `gpuquota apply` say about other owners of a quota.

#include <QJsonObject>
#include <QList>
#include <QString>

namespace gq::cli {

// Keys of a quota that a re-applying owner (Argo CD, Flux, Helm: metadata.managedFields)
// holds: an edit of them (a clamp, a boost, an apply) is undone on its next sync. One line
// per key on stderr, "LEVEL: NS/NAME: KEY is managed by MANAGER (OPERATION): ...".
void warnOtherOwners(const QList<QJsonObject> &quotas, const QString &level);

} // namespace gq::cli
