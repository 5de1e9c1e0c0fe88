#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>

namespace gq::clampplan {

// A quota with `scopes` (BestEffort, NotBestEffort, Terminating, NotTerminating,
// PriorityClass, CrossNamespacePodAffinity) or a `scopeSelector` counts only the pods its
// scope matches: its own status.used, which kube-controller-manager keeps, not the
// namespace's total.
[[nodiscard]] bool isScoped(const QJsonObject &quota);

// What a clamp of `quota` holds its GPU keys to: the namespace's pods (`namespaceInUse`,
// gpusInUse()) for an unscoped quota; the quota's status.used for a scoped one (a key
// with no status.used yet counts as 0 there: the quota has not been counted yet, and
// admission refuses nothing more than what the scope already holds).
[[nodiscard]] QHash<QString, qint64> inUseFor(const QJsonObject &quota,
                                              const QHash<QString, qint64> &namespaceInUse);

// "effective" when the quota's status.hard shows every value of `after` (what quota
// admission enforces), else "pending enforcement": kube-controller-manager copies
// spec.hard to status.hard asynchronously (never, while it is down).
[[nodiscard]] bool shows(const QJsonObject &quota, const QJsonObject &after);
[[nodiscard]] QString enforcementWord(bool effective);

} // namespace gq::clampplan
