#pragma once

#include "core/usage/budget.h"
#include "core/usage/ledger.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

// The pure half of the Kueue AdmissionCheck `gpuquota.io/budget` (KueueBudgetCheck does
// the I/O): what a Workload asks of the GPU-hour budgets, the check state it gets, and
// the server-side apply bodies that write it.
//
// A Workload's need: its GPUs (every pod set: count × the pod template's GPUs, weighted
// as the pod webhook weighs a pod: resource weights, and the model weight when the
// template pins nvidia.com/gpu.product) × spec.maximumExecutionTimeSeconds when it has
// one (a new job: used + need ≤ limit). Without one its run length is not known: it is
// admitted while the budget has anything left, and in grace as running work is
// (AdmissionRequest::Kind::Running). The user is the pod template's user label (the
// first pod set that has it; the label was checked against its creator by the
// workloads webhook), else the namespace, as for pods (podUser()).
//
// States: allowed → Ready ("Allowed: 4.00 GPU-h ≤ 4.50 available for user alice");
// denied → Pending ("Denied: need 4.00 GPU-h, only 3.50 left (limit 8.00 per day) for
// user alice"). Pending, not Retry: the Workload keeps its place and its quota
// reservation, and the message stays where `kubectl get workload` shows it (Kueue's
// Retry evicts and replaces the message with "Reset to Pending after eviction"); the
// check decides it again every pass, so it is admitted as soon as the period rolls
// over, a boost is granted or the budget is raised. Never Rejected.
namespace kueuecheck {

inline const QString kControllerName = QStringLiteral("gpuquota.io/budget");
inline const QString kGroup = QStringLiteral("kueue.x-k8s.io");
inline const QString kFieldManager = QStringLiteral("gpuquota-budget-check");
inline const QString kReady = QStringLiteral("Ready");
inline const QString kPending = QStringLiteral("Pending");

struct CheckState {
    QString state;
    QString message;
    QString lastTransitionTime;
};

// One Workload as the check reads it.
struct WorkloadAsk {
    QString ns;
    QString name;
    QString user;
    bool labelled = false; // user is the template's label, not the namespace
    double gpus = 0;       // weighted, all pod sets
    std::optional<qint64> maxSeconds;
    bool quotaReserved = false;        // condition QuotaReserved True
    bool finished = false;             // condition Finished True
    QHash<QString, CheckState> checks; // status.admissionChecks by name

    [[nodiscard]] AdmissionRequest request() const;
};

[[nodiscard]] WorkloadAsk readWorkload(const QJsonObject &workload, const QString &userLabel,
                                       const ResourceWeights &weights);

// Whether `check` of this Workload is ours to decide now: it lists the check, holds a
// quota reservation, is not finished, and the check is not Ready yet (a Ready check is
// left alone: running work is the clamp's and the grace's business).
[[nodiscard]] bool needsDecision(const WorkloadAsk &ask, const QString &check);

struct Verdict {
    QString state; // kReady or kPending
    QString message;
};
[[nodiscard]] Verdict verdict(const WorkloadAsk &ask, const Decision &decision, const QString &userLabel);
// A Workload without GPUs: Ready without a database read.
[[nodiscard]] Verdict noGpus();

// The names of the AdmissionChecks (kueue.x-k8s.io AdmissionCheck objects) whose
// spec.controllerName is kControllerName.
[[nodiscard]] QStringList ourChecks(const QList<QJsonObject> &admissionChecks);
// Whether an AdmissionCheck already carries the Active condition this controller sets.
[[nodiscard]] bool isActive(const QJsonObject &admissionCheck);

// Server-side apply bodies (application/apply-patch+yaml, JSON is YAML) for the status
// subresource, apiVersion "kueue.x-k8s.io/VERSION". `now` in epoch seconds.
[[nodiscard]] QJsonObject checkStatePatch(const QString &apiVersion, const WorkloadAsk &ask,
                                          const QString &check, const Verdict &verdict, qint64 now);
[[nodiscard]] QJsonObject activePatch(const QString &apiVersion, const QString &check, qint64 now);

// The served version to use from the API group document (GET /apis/kueue.x-k8s.io):
// v1beta2 when served, else v1beta1; empty when neither is.
[[nodiscard]] QString pickVersion(const QJsonObject &apiGroup);

} // namespace kueuecheck
} // namespace gq
