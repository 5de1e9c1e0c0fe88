#include "core/kube/managedfields.h"

#include <QJsonArray>

namespace gq::managedfields {

QList<FieldOwner> ownersOfHardKey(const QJsonObject &object, const QString &key) {
    QList<FieldOwner> out;
    const QJsonArray entries =
        object.value(QLatin1String("metadata")).toObject().value(QLatin1String("managedFields")).toArray();
    const QString field = QStringLiteral("f:") + key;
    for (const QJsonValue &v : entries) {
        const QJsonObject e = v.toObject();
        if (e.value(QLatin1String("fieldsType")).toString(QStringLiteral("FieldsV1")) !=
            QLatin1String("FieldsV1"))
            continue;
        if (!e.value(QLatin1String("subresource")).toString().isEmpty())
            continue; // status writes (kube-controller-manager) own status, not spec
        const QJsonObject hard = e.value(QLatin1String("fieldsV1"))
                                     .toObject()
                                     .value(QLatin1String("f:spec"))
                                     .toObject()
                                     .value(QLatin1String("f:hard"))
                                     .toObject();
        if (!hard.contains(field))
            continue;
        out << FieldOwner{e.value(QLatin1String("manager")).toString(),
                          e.value(QLatin1String("operation")).toString(),
                          e.value(QLatin1String("time")).toString()};
    }
    return out;
}

std::optional<FieldOwner> foreignOwnerOfHardKey(const QJsonObject &object, const QString &key,
                                                const QString &ours) {
    std::optional<FieldOwner> found;
    for (const FieldOwner &o : ownersOfHardKey(object, key)) {
        if (o.manager == ours || o.manager.isEmpty())
            continue;
        if (!found || (o.isApply() && !found->isApply()))
            found = o;
    }
    return found;
}

bool isKnownGitOpsManager(const QString &manager) {
    static const QStringList known = {QStringLiteral("argocd-controller"),
                                      QStringLiteral("argocd-application-controller"),
                                      QStringLiteral("kustomize-controller"),
                                      QStringLiteral("helm-controller"),
                                      QStringLiteral("helm"),
                                      QStringLiteral("Helm")};
    return known.contains(manager);
}

bool revertsChanges(const FieldOwner &owner) {
    return owner.isApply() || isKnownGitOpsManager(owner.manager);
}

std::optional<FieldOwner> overriddenBy(const QJsonObject &object, const QString &key, const QString &ours) {
    const QList<FieldOwner> owners = ownersOfHardKey(object, key);
    for (const FieldOwner &o : owners)
        if (o.manager == ours)
            return std::nullopt;
    auto o = foreignOwnerOfHardKey(object, key, ours);
    if (o && revertsChanges(*o))
        return o;
    return std::nullopt;
}

QString revertWarning(const QJsonObject &object, const QString &key, const QString &ours) {
    const auto o = foreignOwnerOfHardKey(object, key, ours);
    if (!o || !revertsChanges(*o))
        return {};
    return QStringLiteral("%1 is managed by %2 (%3): a change of it is reverted on its next sync")
        .arg(key, o->manager, o->operation);
}

QStringList revertWarnings(const QJsonObject &object, const QString &ours) {
    QStringList out;
    const QJsonObject hard =
        object.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject();
    for (auto it = hard.begin(); it != hard.end(); ++it) // sorted keys
        if (QString w = revertWarning(object, it.key(), ours); !w.isEmpty())
            out << w;
    return out;
}

} // namespace gq::managedfields
