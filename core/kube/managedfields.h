#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

// Who owns a field of an object, as the API server records it in metadata.managedFields
// (server-side apply's field ownership, kept for every write: `Apply` for a server-side
// apply, `Update` for a PUT/PATCH/kubectl edit). A GitOps tool (Argo CD, Flux, Helm) that
// owns spec.hard of a ResourceQuota writes its value back on its next sync, whatever the
// console or the controller wrote meanwhile.
namespace managedfields {

// The field manager every write of this product names (WriteOptions::fieldManager).
inline const QString kOurManager = QStringLiteral("gpuquota");

struct FieldOwner {
    QString manager;   // "argocd-controller"
    QString operation; // "Apply" or "Update"
    QString time;      // RFC 3339, as recorded (may be empty)
    [[nodiscard]] bool isApply() const { return operation == QLatin1String("Apply"); }
};

// The managers whose fieldsV1 contain f:spec / f:hard / f:<key>, in the order recorded.
[[nodiscard]] QList<FieldOwner> ownersOfHardKey(const QJsonObject &object, const QString &key);

// The owner of spec.hard[key] other than `ours` (an Apply owner first: that is the one
// that writes its value back), or nullopt when only we, or no one recorded, own it.
[[nodiscard]] std::optional<FieldOwner> foreignOwnerOfHardKey(const QJsonObject &object, const QString &key,
                                                              const QString &ours = kOurManager);

// Known GitOps / deployment managers: argocd-controller, argocd-application-controller,
// kustomize-controller and helm-controller (Flux), helm, Helm. Any other foreign Apply
// owner is treated the same way (it re-applies); this only names them better.
[[nodiscard]] bool isKnownGitOpsManager(const QString &manager);

// True when the owner puts its value back on its own (an Apply owner or a known GitOps
// manager): a change of ours to that key does not last.
[[nodiscard]] bool revertsChanges(const FieldOwner &owner);

// The re-applying owner (revertsChanges) of spec.hard[key] when `ours` no longer owns it:
// the value there is that owner's declared value, written after ours, so whatever we had
// added to it (a boost's delta) is gone. nullopt while we (co-)own the key.
[[nodiscard]] std::optional<FieldOwner> overriddenBy(const QJsonObject &object, const QString &key,
                                                     const QString &ours = kOurManager);

// "managed by argocd-controller (Apply): a change of this value is reverted on its next
// sync" for a key a re-applying owner holds; empty otherwise. English (logs, audit).
[[nodiscard]] QString revertWarning(const QJsonObject &object, const QString &key,
                                    const QString &ours = kOurManager);
// revertWarning() for every key of spec.hard that has one (sorted by key).
[[nodiscard]] QStringList revertWarnings(const QJsonObject &object, const QString &ours = kOurManager);

} // namespace managedfields
} // namespace gq
