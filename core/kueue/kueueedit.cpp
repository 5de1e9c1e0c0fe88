#include "core/kueue/kueueedit.h"

#include <cstdlib>

namespace gq::kueue {

namespace {

struct Location {
    int group = -1;
    int flavor = -1;
    int resource = -1;
};

std::optional<Location> locate(const QJsonObject &queue, const QString &flavor, const QString &resource) {
    const QJsonArray groups =
        queue.value(QLatin1String("spec")).toObject().value(QLatin1String("resourceGroups")).toArray();
    for (int g = 0; g < groups.size(); ++g) {
        const QJsonArray flavors = groups.at(g).toObject().value(QLatin1String("flavors")).toArray();
        for (int f = 0; f < flavors.size(); ++f) {
            const QJsonObject fo = flavors.at(f).toObject();
            if (fo.value(QLatin1String("name")).toString() != flavor)
                continue;
            const QJsonArray resources = fo.value(QLatin1String("resources")).toArray();
            for (int r = 0; r < resources.size(); ++r)
                if (resources.at(r).toObject().value(QLatin1String("name")).toString() == resource)
                    return Location{g, f, r};
        }
    }
    return std::nullopt;
}

Error notFound(const QJsonObject &queue, const QString &flavor, const QString &resource) {
    return Error::make(
        Error::Kind::NotFound,
        QStringLiteral("%1 has no flavor %2 with resource %3")
            .arg(queue.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString(),
                 flavor, resource));
}

// The value at `loc`, edited by `edit` (which gets the resource entry).
template <typename Edit> QJsonObject editAt(QJsonObject queue, const Location &loc, Edit edit) {
    QJsonObject spec = queue.value(QLatin1String("spec")).toObject();
    QJsonArray groups = spec.value(QLatin1String("resourceGroups")).toArray();
    QJsonObject group = groups.at(loc.group).toObject();
    QJsonArray flavors = group.value(QLatin1String("flavors")).toArray();
    QJsonObject flavor = flavors.at(loc.flavor).toObject();
    QJsonArray resources = flavor.value(QLatin1String("resources")).toArray();
    QJsonObject resource = resources.at(loc.resource).toObject();
    edit(resource);
    resources.replace(loc.resource, resource);
    flavor.insert(QLatin1String("resources"), resources);
    flavors.replace(loc.flavor, flavor);
    group.insert(QLatin1String("flavors"), flavors);
    groups.replace(loc.group, group);
    spec.insert(QLatin1String("resourceGroups"), groups);
    queue.insert(QLatin1String("spec"), spec);
    return queue;
}

QJsonObject resourceAt(const QJsonObject &queue, const Location &loc) {
    return queue.value(QLatin1String("spec"))
        .toObject()
        .value(QLatin1String("resourceGroups"))
        .toArray()
        .at(loc.group)
        .toObject()
        .value(QLatin1String("flavors"))
        .toArray()
        .at(loc.flavor)
        .toObject()
        .value(QLatin1String("resources"))
        .toArray()
        .at(loc.resource)
        .toObject();
}

QString pointerOf(const Location &loc) {
    return QStringLiteral("/spec/resourceGroups/%1/flavors/%2/resources/%3")
        .arg(loc.group)
        .arg(loc.flavor)
        .arg(loc.resource);
}

} // namespace

QString fieldName(QuotaField field) {
    switch (field) {
    case QuotaField::NominalQuota: return QStringLiteral("nominalQuota");
    case QuotaField::BorrowingLimit: return QStringLiteral("borrowingLimit");
    case QuotaField::LendingLimit: return QStringLiteral("lendingLimit");
    }
    return {};
}

Result<QString> resourcePointer(const QJsonObject &queue, const QString &flavor, const QString &resource) {
    const auto loc = locate(queue, flavor, resource);
    if (!loc)
        return notFound(queue, flavor, resource);
    return pointerOf(*loc);
}

Result<QJsonObject> withQuota(const QJsonObject &queue, const QString &flavor, const QString &resource,
                              QuotaField field, const std::optional<Quantity> &value, bool cohortObject) {
    const auto loc = locate(queue, flavor, resource);
    if (!loc)
        return notFound(queue, flavor, resource);
    const QString key = fieldName(field);
    const QString path = pointerOf(*loc).mid(1).replace(u'/', u'.') + u'.' + key;
    if (!value && field == QuotaField::NominalQuota)
        return Error::make(Error::Kind::Invalid, QStringLiteral("the nominal quota cannot be removed"), path);
    const QJsonObject changed = editAt(queue, *loc, [&](QJsonObject &res) {
        if (value)
            res.insert(key, value->toString());
        else
            res.remove(key);
    });
    const QList<Problem> problems = validateQueueSpec(changed, cohortObject);
    if (!problems.isEmpty())
        return Error::make(Error::Kind::Invalid, problems.first().message, problems.first().field);
    return changed;
}

Result<QJsonObject> withQuotaDelta(const QJsonObject &queue, const QString &flavor, const QString &resource,
                                   QuotaField field, qint64 delta, bool cohortObject) {
    const auto loc = locate(queue, flavor, resource);
    if (!loc)
        return notFound(queue, flavor, resource);
    const QString key = fieldName(field);
    const QJsonValue current = resourceAt(queue, *loc).value(key);
    if (current.isUndefined())
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("%1 of %2 is not set (no limit): set it before moving it").arg(key, flavor), key);
    auto now = Quantity::parse(
        current.isDouble() ? QString::number(current.toDouble(), 'g', 17) : current.toString(), key);
    if (!now)
        return now.error();
    auto moved = now->plus(Quantity::fromInt(delta));
    if (!moved)
        return moved.error();
    if (moved->sign() < 0)
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("%1 of %2 would go below zero (%3 %4 %5)")
                .arg(key, flavor, now->toString(), delta < 0 ? QStringLiteral("-") : QStringLiteral("+"))
                .arg(std::abs(delta)),
            key);
    return withQuota(queue, flavor, resource, field, *moved, cohortObject);
}

Result<std::optional<Quantity>> quotaValue(const QJsonObject &queue, const QString &flavor,
                                           const QString &resource, QuotaField field) {
    const auto loc = locate(queue, flavor, resource);
    if (!loc)
        return notFound(queue, flavor, resource);
    const QString key = fieldName(field);
    const QJsonValue current = resourceAt(queue, *loc).value(key);
    if (current.isUndefined() || current.isNull())
        return std::optional<Quantity>();
    auto q = Quantity::parse(
        current.isDouble() ? QString::number(current.toDouble(), 'g', 17) : current.toString(), key);
    if (!q)
        return q.error();
    return std::optional<Quantity>(*q);
}

std::optional<QuotaField> parseFieldName(const QString &name) {
    for (auto f : {QuotaField::NominalQuota, QuotaField::BorrowingLimit, QuotaField::LendingLimit})
        if (fieldName(f) == name)
            return f;
    return std::nullopt;
}

Result<QJsonArray> quotaPatch(const QJsonObject &queue, const QJsonObject &changed, const QString &flavor,
                              const QString &resource, QuotaField field) {
    const auto loc = locate(queue, flavor, resource);
    if (!loc)
        return notFound(queue, flavor, resource);
    const QString key = fieldName(field);
    const QString base = pointerOf(*loc);
    const QJsonValue before = resourceAt(queue, *loc).value(key);
    const QJsonValue after = resourceAt(changed, *loc).value(key);
    QJsonArray ops;
    // The entry is still this resource: an index that moved fails the patch.
    ops.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("test")},
                           {QStringLiteral("path"), QString(base + QStringLiteral("/name"))},
                           {QStringLiteral("value"), resource}});
    if (!before.isUndefined())
        ops.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("test")},
                               {QStringLiteral("path"), QString(base + u'/' + key)},
                               {QStringLiteral("value"), before}});
    if (before == after)
        return ops;
    if (after.isUndefined())
        ops.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("remove")},
                               {QStringLiteral("path"), QString(base + u'/' + key)}});
    else
        ops.append(QJsonObject{
            {QStringLiteral("op"), before.isUndefined() ? QStringLiteral("add") : QStringLiteral("replace")},
            {QStringLiteral("path"), QString(base + u'/' + key)},
            {QStringLiteral("value"), after}});
    return ops;
}

} // namespace gq::kueue
