#pragma once

#include "testcluster/apierror.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace gq::tc {

// ResourceQuota scopes, as the API server applies them (quota evaluator for pods,
// pkg/quota/v1/evaluator/core/pods.go, and quota validation in
// pkg/apis/core/validation): a quota with `spec.scopes` or `spec.scopeSelector`
// counts, and constrains, only the pods that match every one of its scopes.

// What the scopes look at in a pod, worked out once when the pod is stored.
struct PodScopeFacts {
    bool terminating = false;            // spec.activeDeadlineSeconds >= 0
    bool bestEffort = false;             // QoS class BestEffort: no cpu/memory requests or limits
    bool crossNamespaceAffinity = false; // a pod (anti-)affinity term names other namespaces
    QString priorityClass;               // spec.priorityClassName
};

PodScopeFacts podScopeFacts(const QJsonObject &pod);

// One requirement: `spec.scopes` entries become {scope, "Exists"}, then every
// `spec.scopeSelector.matchExpressions` entry follows as written.
struct ScopeRequirement {
    QString scopeName;
    QString op;
    QStringList values;
};

std::vector<ScopeRequirement> quotaScopes(const QJsonObject &quota);

// True when the pod matches every requirement (no requirement: every pod).
bool podMatchesScopes(const std::vector<ScopeRequirement> &scopes, const PodScopeFacts &pod);

// Resource names the quota system itself knows (upstream's standard quota resource
// names, hugepages included). Extended resources (requests.nvidia.com/gpu) and
// count/* are not among them: quota validation lets any name with a '/' through,
// and scopes are checked only against these.
bool isStandardQuotaResource(const QString &name);

// Validation of `spec.scopes` and `spec.scopeSelector` against each other and
// against `spec.hard`; `old` (on update) adds the rule that scopes are immutable.
QList<FieldError> validateQuotaScopes(const QJsonObject &quota, const QJsonObject *old);

} // namespace gq::tc
