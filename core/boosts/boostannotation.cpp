#include "core/boosts/boostannotation.h"

#include "core/domain/quantity.h"
#include "core/usage/timewindow.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gq {

QList<QJsonObject> boostAnnotationEntries(const QJsonObject &quota) {
    const QString text = quota.value(QLatin1String("metadata"))
                             .toObject()
                             .value(QLatin1String("annotations"))
                             .toObject()
                             .value(kBoostsAnnotation)
                             .toString();
    QList<QJsonObject> out;
    for (const QJsonValue &v : QJsonDocument::fromJson(text.toUtf8()).array())
        if (v.isObject())
            out << v.toObject();
    return out;
}

QJsonObject withBoostAnnotation(QJsonObject quota, const QList<QJsonObject> &entries) {
    QJsonObject meta = quota.value(QLatin1String("metadata")).toObject();
    QJsonObject annotations = meta.value(QLatin1String("annotations")).toObject();
    if (entries.isEmpty()) {
        annotations.remove(kBoostsAnnotation);
    } else {
        QJsonArray arr;
        for (const QJsonObject &e : entries)
            arr.append(e);
        annotations.insert(kBoostsAnnotation,
                           QString::fromUtf8(QJsonDocument(arr).toJson(QJsonDocument::Compact)));
    }
    meta.insert(QStringLiteral("annotations"), annotations);
    quota.insert(QStringLiteral("metadata"), meta);
    return quota;
}

QJsonObject boostAnnotationEntry(const Boost &boost) {
    QJsonObject e{{QStringLiteral("id"), boost.id},
                  {QStringLiteral("resource"), boost.target.resource},
                  {QStringLiteral("delta"), boost.delta},
                  {QStringLiteral("expires"), formatInstantUtc(boost.expiry)}};
    if (boost.target.kind == BoostTarget::Kind::ClusterQueue) { // which of the queue's entries
        e.insert(QStringLiteral("flavor"), boost.target.quota);
        e.insert(QStringLiteral("field"), boost.target.field);
    }
    return e;
}

bool annotationEntryIsCurrent(const QJsonObject &entry, const Boost &boost) {
    const QJsonObject want = boostAnnotationEntry(boost);
    return entry.value(QLatin1String("id")).toInteger() == boost.id &&
           entry.value(QLatin1String("resource")) == want.value(QLatin1String("resource")) &&
           entry.value(QLatin1String("delta")) == want.value(QLatin1String("delta")) &&
           entry.value(QLatin1String("expires")) == want.value(QLatin1String("expires"));
}

QJsonObject withHardValue(QJsonObject quota, const QString &resource, const QString &value) {
    QJsonObject spec = quota.value(QLatin1String("spec")).toObject();
    QJsonObject hard = spec.value(QLatin1String("hard")).toObject();
    hard.insert(resource, value);
    spec.insert(QStringLiteral("hard"), hard);
    quota.insert(QStringLiteral("spec"), spec);
    return quota;
}

bool statusShows(const QJsonObject &quota, const QString &resource, const QString &value) {
    const QString shown = quota.value(QLatin1String("status"))
                              .toObject()
                              .value(QLatin1String("hard"))
                              .toObject()
                              .value(resource)
                              .toString();
    const auto a = Quantity::parse(shown);
    const auto b = Quantity::parse(value);
    return a && b && *a == *b;
}

} // namespace gq
