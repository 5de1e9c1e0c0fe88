#pragma once

// Kueue's objects (ClusterQueue, Cohort, LocalQueue, ResourceFlavor) through QuotaWriter's
// protocol: the edited text decoded so an error points at its line, Kueue's own rules
// (kueue::validateQueueSpec) checked before the server is asked, and the list of changed
// fields the confirmation shows.

#include "core/kube/kuberequest.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace gq {

// kueue.x-k8s.io: written through kueuePrepare().
[[nodiscard]] bool isKueueResource(const KubeResource &resource);

// What to send for `mine` (or, when set, the text `mineYaml`), checked by Kueue's rules
// for ClusterQueues and Cohorts: an Invalid error naming the field (with its line when
// there is text). *diffText lists the changed fields against `base`, one per line
// ("spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: 8 -> 10").
Result<QJsonObject> kueuePrepare(const KubeResource &resource, const QJsonObject &mine,
                                 const QString &mineYaml, const QJsonObject &base, QString *diffText);

// Every problem of the text as an editor marks it: a parse error, a wrong kind, Kueue's
// rules for ClusterQueues and Cohorts; each with its field and 1-based line.
[[nodiscard]] QList<Error> kueueTextProblems(const KubeResource &resource, const QString &text);

// The changed leaves of spec, labels and annotations between two objects, as above.
[[nodiscard]] QString kueueDiffText(const QJsonObject &before, const QJsonObject &after);

} // namespace gq
