#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace gq {

struct Decision;

// The pure half of budget enforcement (BudgetEnforcer does the I/O): when a
// namespace's budget calls for a clamp, what each ResourceQuota becomes, and what it
// becomes again when the clamp is lifted.
//
// The clamp is recorded on the quota itself, in the annotation `gpuquota.io/clamp`:
//   {"at": "2026-12-01T10:00:00Z", "reason": "Denied: ...", "created": false,
//    "original": {"requests.nvidia.com/gpu": "8"}, "clamped": {"requests.nvidia.com/gpu": "2"}}
// `original` is the admin's value (null: the quota had no such entry), `clamped` what
// the controller wrote. That record is how an admin edit during the clamp is told
// apart from the controller's own value: a hard value that differs from `clamped` was
// written by someone else, so it is the admin's current value and wins. While the
// clamp holds, such a value becomes the new `original` and is clamped again; at the
// lift a value still equal to `clamped` is restored to `original`, any other value is
// left as it is. No database state is needed, so any replica reaches the same result.
namespace clampplan {

inline const QString kAnnotation = QStringLiteral("gpuquota.io/clamp");
// The quota created in a namespace that had none limiting GPUs.
inline const QString kCreatedName = QStringLiteral("gpuquota-budget");
inline const QString kManagedByLabel = QStringLiteral("app.kubernetes.io/managed-by");
inline const QString kManagedByValue = QStringLiteral("gpuquota-controller");

// requests.<GPU resource>: the quota entries the enforcer clamps (nvidia.com/gpu, MIG
// profiles, nvidia.com/gpu.shared and other vendors' GPUs), and DRA's
// <class>.deviceclass.resource.k8s.io/devices of a GPU class (dra::isGpuQuotaKey), clamped to
// the quota's own status.used (the devices its claims hold).
[[nodiscard]] bool isGpuQuotaKey(const QString &key);

// What the namespace's pods hold now, by quota key ("requests.nvidia.com/gpu" -> 3),
// as the quota admission counts it: pods not Succeeded/Failed, per pod the larger of
// the containers' sum and the largest init container, requests (else limits).
[[nodiscard]] QHash<QString, qint64> gpusInUse(const QList<QJsonObject> &pods);

// True when the namespace's budget decisions (Kind::Running, see budget.h) say the
// GPU-hours are spent: a decision is Denied (used beyond limit + grace for running
// work), or the limit is reached with nothing running (no grace to run out).
// `reason` gets that decision's message.
[[nodiscard]] bool clampDue(const QList<Decision> &decisions, QString *reason = nullptr);

struct Plan {
    enum class Action { None, Replace, Create, Delete };
    enum class Event { None, Applied, Adjusted, Lifted };
    Action action = Action::None;
    Event event = Event::None;
    QJsonObject quota;  // Replace/Create: the object to write; Delete: the object removed
    QJsonObject server; // Replace: the object as read (the base of the conditional write)
    QJsonObject before; // the GPU entries of spec.hard before and after
    QJsonObject after;
    bool adminEdit = false; // a value differing from the recorded clamp was kept
    QStringList editedKeys; // planClamp: the GPU keys whose value differs from the recorded clamp
};

// The quota while the clamp is due: clamps every GPU entry to min(value, in use);
// when already clamped, keeps the clamp, tightens it when less is in use now and adopts
// an admin's edit as the new original. None when nothing would change.
[[nodiscard]] Plan planClamp(const QJsonObject &quota, const QHash<QString, qint64> &inUse, qint64 now,
                             const QString &reason);
// The quota once the clamp is no longer due: restores the originals where the value
// is still the clamped one, drops the annotation; a quota the enforcer created and no
// one changed is deleted. None for a quota without the annotation.
[[nodiscard]] Plan planLift(const QJsonObject &quota);
// A namespace with no GPU quota: the quota to create (named kCreatedName, labelled),
// limiting nvidia.com/gpu and every GPU resource in use to what is in use.
[[nodiscard]] Plan planCreate(const QString &ns, const QHash<QString, qint64> &inUse, qint64 now,
                              const QString &reason);

// A Namespace object being deleted (status.phase Terminating, or a deletionTimestamp):
// the API server refuses new objects in it with 403 "because it is being terminated",
// and whatever the enforcer would write there goes away with it, so it is skipped.
[[nodiscard]] bool isTerminating(const QJsonObject &namespaceObject);

[[nodiscard]] bool hasClamp(const QJsonObject &quota);
[[nodiscard]] bool limitsGpus(const QJsonObject &quota);
// True when the quota's status.hard shows every limit of its spec.hard: what quota
// admission enforces (kube-controller-manager copies spec to status asynchronously).
[[nodiscard]] bool enforced(const QJsonObject &quota);

} // namespace clampplan
} // namespace gq
