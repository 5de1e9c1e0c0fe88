#include "testcluster/resourcemath.h"

namespace gq::tc {

std::optional<Quantity> parseQuantity(const QJsonValue &v) {
    if (v.isString()) {
        auto q = Quantity::parse(v.toString());
        if (q)
            return *q;
        return std::nullopt;
    }
    if (v.isDouble()) {
        // JSON numbers are accepted as quantities; go through text to stay exact for integers.
        const double d = v.toDouble();
        auto q = Quantity::parse(d == static_cast<double>(static_cast<qint64>(d))
                                     ? QString::number(static_cast<qint64>(d))
                                     : QString::number(d, 'g', 15));
        if (q)
            return *q;
    }
    return std::nullopt;
}

ResourceList parseList(const QJsonValue &v) {
    ResourceList out;
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (auto q = parseQuantity(it.value()))
            out.emplace(it.key(), *q);
    }
    return out;
}

QJsonObject toJson(const ResourceList &list) {
    QJsonObject o;
    for (const auto &[k, q] : list)
        o.insert(k, q.toString());
    return o;
}

void addTo(ResourceList &sum, const QString &key, const Quantity &q) {
    auto it = sum.find(key);
    if (it == sum.end()) {
        sum.emplace(key, q);
    } else if (auto r = it->second.plus(q)) {
        it->second = *r;
    }
}

void addTo(Usage &sum, const QString &key, const Quantity &q) {
    for (auto &[k, v] : sum) {
        if (k == key) {
            if (auto r = v.plus(q))
                v = *r;
            return;
        }
    }
    sum.emplace_back(key, q);
}

QString prettyPrint(const ResourceList &list) {
    QStringList parts;
    for (const auto &[k, q] : list)
        parts.append(k + QLatin1Char('=') + q.toString());
    return parts.join(QLatin1Char(','));
}

QString aggregate(const QStringList &errors) {
    return errors.size() == 1 ? errors.first()
                              : QLatin1Char('[') + errors.join(QStringLiteral(", ")) + QLatin1Char(']');
}

bool isNativeName(const QString &name) {
    return !name.contains(QLatin1Char('/')) || name.contains(QLatin1String("kubernetes.io/"));
}

bool overcommitAllowed(const QString &name) {
    return isNativeName(name) && !name.startsWith(QLatin1String("hugepages-"));
}

QJsonArray containersOf(const QJsonObject &spec, bool init) {
    return spec.value(init ? QLatin1String("initContainers") : QLatin1String("containers")).toArray();
}

ResourceList containerList(const QJsonObject &c, QLatin1String which) {
    return parseList(c.value(QLatin1String("resources")).toObject().value(which));
}

ResourceList podEffective(const QJsonObject &pod, QLatin1String which) {
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    ResourceList sum;
    for (const QJsonValue &c : containersOf(spec, false)) {
        for (const auto &[k, q] : containerList(c.toObject(), which))
            addTo(sum, k, q);
    }
    for (const QJsonValue &c : containersOf(spec, true)) {
        for (const auto &[k, q] : containerList(c.toObject(), which)) {
            auto it = sum.find(k);
            if (it == sum.end())
                sum.emplace(k, q);
            else if (q > it->second)
                it->second = q;
        }
    }
    return sum;
}

QJsonObject canonicalList(const QJsonObject &list) {
    QJsonObject out;
    for (auto it = list.begin(); it != list.end(); ++it) {
        auto q = parseQuantity(it.value());
        out.insert(it.key(), q ? QJsonValue(q->toString()) : it.value());
    }
    return out;
}

QString badQuantityPath(const QJsonObject &list, const QString &path) {
    for (auto it = list.begin(); it != list.end(); ++it) {
        if (!parseQuantity(it.value()))
            return path + QLatin1Char('[') + it.key() + QLatin1Char(']');
    }
    return {};
}

FieldError invalid(const QString &field, const QString &value, const QString &detail) {
    return {FieldError::Type::Invalid, field, FieldError::quote(value), detail};
}

FieldError required(const QString &field, const QString &detail) {
    return {FieldError::Type::Required, field, {}, detail};
}

} // namespace gq::tc
