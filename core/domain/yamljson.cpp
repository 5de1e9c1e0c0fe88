#include "core/domain/keyindex_p.h"
#include "core/domain/yamldoc.h"
#include "core/domain/yamlscalar_p.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <vector>

namespace gq {

using namespace detail;

namespace {

constexpr double kMaxExactJsonInt = 9007199254740992.0; // 2^53

} // namespace

QJsonValue YamlNode::toJson() const {
    switch (m_type) {
    case Type::Null: return QJsonValue(QJsonValue::Null);
    case Type::Scalar: {
        if (m_isString)
            return QJsonValue(m_text);
        if (isYamlNull(m_text))
            return QJsonValue(QJsonValue::Null);
        bool b = false;
        if (isYamlBool(m_text, &b))
            return QJsonValue(b);
        if (isYamlInt(m_text) || isYamlFloat(m_text)) {
            bool ok = false;
            const double d = m_text.toDouble(&ok);
            // Integers beyond 2^53 and values that do not fit a double would lose
            // digits as JSON numbers; keep their exact text.
            if (ok && std::isfinite(d) && (!isYamlInt(m_text) || std::fabs(d) <= kMaxExactJsonInt))
                return QJsonValue(d);
        }
        return QJsonValue(m_text);
    }
    case Type::Sequence: {
        QJsonArray a;
        for (const YamlNode &n : items())
            a.append(n.toJson());
        return a;
    }
    case Type::Map: return toJsonObject();
    }
    return {};
}

QJsonObject YamlNode::toJsonObject() const {
    QJsonObject o;
    if (m_type != Type::Map)
        return o;
    const std::vector<Entry> &list = entries();
    if (list.size() < detail::kIndexFrom) {
        for (const Entry &e : list)
            o.insert(e.key, e.value.toJson());
        return o;
    }
    // QJsonObject keeps its keys sorted, so inserting in document order moves the tail
    // on every insert (200k keys took 7 s); in key order each insert appends. A stable
    // sort keeps the last of duplicate keys winning, as before.
    std::vector<const Entry *> sorted;
    sorted.reserve(list.size());
    for (const Entry &e : list)
        sorted.push_back(&e);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Entry *a, const Entry *b) { return a->key < b->key; });
    for (const Entry *e : sorted)
        o.insert(e->key, e->value.toJson());
    return o;
}

YamlNode YamlNode::fromJson(const QJsonValue &value) {
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined: return YamlNode();
    case QJsonValue::Bool:
        return scalar(value.toBool() ? QStringLiteral("true") : QStringLiteral("false"), false);
    case QJsonValue::Double: {
        const double d = value.toDouble();
        if (std::fabs(d) <= kMaxExactJsonInt && d == std::floor(d))
            return scalar(QString::number(qint64(d)), false);
        return scalar(QString::number(d, 'g', 17), false);
    }
    case QJsonValue::String: return scalar(value.toString(), true);
    case QJsonValue::Array: {
        YamlNode n = sequence();
        const QJsonArray a = value.toArray();
        for (const QJsonValue &v : a)
            n.items().push_back(fromJson(v));
        return n;
    }
    case QJsonValue::Object: {
        YamlNode n = map();
        const QJsonObject o = value.toObject();
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            n.entries().push_back(Entry{it.key(), SourcePos{}, fromJson(it.value())});
        n.indexKeys();
        return n;
    }
    }
    return YamlNode();
}

} // namespace gq
