#pragma once

#include "core/usage/auditanchor.h"
#include "core/domain/result.h"

#include <QFuture>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

class KubeClient;

// Where the audit log's head is kept outside the database (README "What the audit chain
// proves"): the gpuquota.io/audit-head annotation of every ResourceQuota and LimitRange we
// write, and the controller's ConfigMap `gpuquota-audit-head` (data.head: COUNT:HASH),
// which its leader republishes every minute, so entries that wrote no quota are
// anchored too. `gpuquota audit verify --head cluster` takes the newest of them: a
// restored old checkpoint with the entries after it deleted is then found.
namespace auditheads {

inline const QString kConfigMapName = QStringLiteral("gpuquota-audit-head");

// One published head and where it was found ("ResourceQuota team-a/gpu").
struct Published {
    AuditHead head;
    QString where;
};

// The newest head (largest count) in `objects` (ResourceQuotas, LimitRanges or the
// ConfigMap, as JSON); nullopt when none carries a valid one.
[[nodiscard]] std::optional<Published> newestIn(const QList<QJsonObject> &objects);

// Reads the cluster (blocking: for the CLI): quotas and limit ranges in every namespace
// and the ConfigMap in `controllerNamespace`. A kind the user may not list is skipped
// and named in `skipped`; an unreachable cluster is an error.
[[nodiscard]] Result<std::optional<Published>>
newestFromCluster(KubeClient &client, const QString &controllerNamespace, QStringList *skipped);

// The ConfigMap holding `head`, for a create; and its data as a merge patch.
[[nodiscard]] QJsonObject configMap(const QString &ns, const AuditHead &head);
[[nodiscard]] QJsonObject dataPatch(const AuditHead &head);

} // namespace auditheads
} // namespace gq
