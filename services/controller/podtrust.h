#pragma once

#include "core/httpd/httpserver.h"
#include "core/usage/identitymapping.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace gq {

class YamlNode;

// Who may say whose GPU-hours a pod spends, and how short it may say it runs: the
// trust model behind the admission webhook (README "Budget enforcement": "What a pod
// may say about itself").
//
// The user label (`gpuquota.io/user` by default) decides whose budget a GPU pod is
// checked against and charged to. Pods and pod templates are checked where they are
// created, against the creator (AdmissionReview userInfo) through the identity mapping:
//  - a person may label a GPU pod (or a workload's GPU pod template) only with their
//    own budget user, and must label it (without a label it would be charged to the
//    namespace, past their own budget);
//  - a ServiceAccount that is not trusted may create GPU pods without a label (charged
//    to its namespace, as the identity mapping maps it), not for a named user;
//  - trusted creators may set any label: Kubernetes' own controllers (they create
//    pods from templates that were checked when they were written), members of
//    system:masters, and whoever `trust.labelSetters` names (a JupyterHub spawner, a CI
//    system, an operator); other `system:` components are allowed.
// `trust.mode`: enforce (deny), warn (admit with an AdmissionReview warning), off.
//
// The expected duration (annotation `gpuquota.io/expected-hours`) can only make the
// admission estimate smaller than `trust.minExpectedHours` when the pod's
// spec.activeDeadlineSeconds makes that true: a pod that may run for hours cannot say
// it needs a second.
struct TrustRules {
    enum class Mode { Enforce, Warn, Off };
    Mode mode = Mode::Enforce;
    // Username patterns ('*' matches any run of characters) that may label for others.
    QStringList labelSetters = {QStringLiteral("system:serviceaccount:kube-system:*"),
                                QStringLiteral("system:kube-controller-manager"),
                                QStringLiteral("system:serviceaccount:kueue-system:*")};
    QStringList labelSetterGroups = {QStringLiteral("system:masters")};
    double minExpectedHours = 1.0;
};

// The `trust:` section of the controller's configuration (null: the defaults); each
// problem is appended to `errors` with its key and line.
[[nodiscard]] TrustRules parseTrustRules(const YamlNode &node, QList<Error> *errors);

// The hours a GPU pod asks of the budget: its annotation, else activeDeadlineSeconds,
// else `defaultHours`; never below the floor unless activeDeadlineSeconds bounds the
// run below it. An Invalid error naming the annotation when it is not a positive number.
[[nodiscard]] Result<double> expectedHours(const QJsonObject &pod, double defaultHours,
                                           const TrustRules &trust);

// Whether the creator may give a GPU pod (or template) with these labels.
struct LabelVerdict {
    bool allowed = true;
    QString warning; // set: admitted, but say this (mode warn), or the denial's reason
};
struct Creator {
    QString username;
    QStringList groups;
    [[nodiscard]] static Creator fromReview(const QJsonObject &request);
};
[[nodiscard]] LabelVerdict checkUserLabel(const Creator &creator, const QString &labelValue,
                                          const QString &userLabel, const TrustRules &trust,
                                          const IdentityRules &identity);

// The GPU pod template of a workload object (Deployment, ReplicaSet, StatefulSet,
// DaemonSet, Job: spec.template; CronJob: spec.jobTemplate.spec.template), as a pod
// object {metadata, spec}; empty when it has none.
[[nodiscard]] QJsonObject podTemplateOf(const QJsonObject &object);

// An AdmissionReview v1 response: allowed or not, a status for a denial, a warning the
// API server passes on to the client (kubectl prints it).
[[nodiscard]] httpd::Response admissionAnswer(const QString &uid, bool allowed, int code = 0,
                                              const QString &message = {}, const QString &warning = {});

} // namespace gq
