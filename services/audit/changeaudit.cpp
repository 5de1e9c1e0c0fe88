#include "changeaudit.h"

#include "yamldoc.h"

namespace gq::changeaudit {

QString objectText(const QJsonObject &object) {
    if (object.isEmpty())
        return {};
    QJsonObject shown;
    if (object.contains(QLatin1String("spec"))) {
        shown.insert(QStringLiteral("spec"), object.value(QLatin1String("spec")));
    } else {
        const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
        QJsonObject annotations = meta.value(QLatin1String("annotations")).toObject();
        annotations.remove(QStringLiteral("kubectl.kubernetes.io/last-applied-configuration"));
        QJsonObject m;
        if (meta.contains(QLatin1String("labels")))
            m.insert(QStringLiteral("labels"), meta.value(QLatin1String("labels")));
        if (!annotations.isEmpty())
            m.insert(QStringLiteral("annotations"), annotations);
        shown.insert(QStringLiteral("metadata"), m);
    }
    return QString::fromUtf8(emitYaml(YamlNode::fromJson(shown)));
}

ChangeAuditEntry entryFor(const QString &kind, const QString &ns, const QString &name,
                          const QJsonObject &before, const QJsonObject &after, const QString &note) {
    ChangeAuditEntry e;
    e.action = kind == QLatin1String("ResourceQuota") ? QStringLiteral("quota.apply")
               : kind == QLatin1String("LimitRange")  ? QStringLiteral("limitrange.apply")
                                                      : kind.toLower() + QStringLiteral(".apply");
    const QString object = kind + QLatin1Char('/') + name;
    e.target = ns.isEmpty() ? object : ns + QLatin1Char('/') + object;
    e.before = objectText(before);
    e.after = objectText(after);
    e.note = note;
    return e;
}

} // namespace gq::changeaudit
