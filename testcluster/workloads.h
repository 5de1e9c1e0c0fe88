#pragma once

#include "testcluster/apierror.h"

#include <QJsonObject>
#include <QList>

// Validation of the kinds the controller's manifests deploy, with upstream's field paths
// and messages, so a server-side dry run rejects what a real API server rejects:
// Deployment (selector, template labels, restartPolicy, the pod template), CronJob
// (schedule, restartPolicy, the pod template), Service ports, ClusterRole rules and
// ClusterRoleBinding roleRef/subjects.

namespace gq::tc {

QList<FieldError> validateDeployment(const QJsonObject &deployment);
QList<FieldError> validateCronJob(const QJsonObject &cronJob);
QList<FieldError> validateService(const QJsonObject &service);
QList<FieldError> validateClusterRole(const QJsonObject &role);
// A RoleBinding (roleBinding) may also refer to a Role of its namespace.
QList<FieldError> validateClusterRoleBinding(const QJsonObject &binding, const QJsonObject *old,
                                             bool roleBinding = false);

// The pod checks of validation.cpp on a template's pod spec, with `prefix`
// ("spec.template.") in front of every field path.
QList<FieldError> validatePodTemplate(const QJsonObject &templ, const QString &prefix);

} // namespace gq::tc
