#include "core/domain/limitrangespec.h"

#include "core/domain/specio_p.h"

namespace gq {

using namespace detail;

namespace {

struct ListField {
    const char16_t *key;
    ResourceList LimitRangeItem::*member;
};

constexpr ListField kItemLists[] = {
    {u"max", &LimitRangeItem::max},
    {u"min", &LimitRangeItem::min},
    {u"default", &LimitRangeItem::defaultLimit},
    {u"defaultRequest", &LimitRangeItem::defaultRequest},
    {u"maxLimitRequestRatio", &LimitRangeItem::maxLimitRequestRatio},
};

QString specKind() {
    return QStringLiteral("LimitRange");
}

} // namespace

bool LimitRangeItem::sameAs(const LimitRangeItem &other) const {
    return type == other.type && max.sameAs(other.max) && min.sameAs(other.min) &&
           defaultLimit.sameAs(other.defaultLimit) && defaultRequest.sameAs(other.defaultRequest) &&
           maxLimitRequestRatio.sameAs(other.maxLimitRequestRatio);
}

LimitRangeSpec::LimitRangeSpec() {
    m_source = YamlNode::map();
    encodeObjectHead(m_source, specKind(), ObjectMeta());
}

LimitRangeSpec LimitRangeSpec::decode(const YamlNode &object, QList<Error> &problems) {
    LimitRangeSpec lr;
    lr.m_source = object;
    if (!decodeObjectHead(object, specKind(), lr.meta, problems))
        return lr;

    const YamlNode *spec = object.find(u"spec");
    if (!spec || spec->isNull())
        return lr;
    if (!spec->isMap()) {
        problems << invalidShape(QStringLiteral("spec"), QStringLiteral("must be a map"));
        return lr;
    }
    const YamlNode *limits = spec->find(u"limits");
    if (!limits || limits->isNull())
        return lr;
    if (!limits->isSequence()) {
        problems << invalidShape(QStringLiteral("spec.limits"), QStringLiteral("must be a list"));
        return lr;
    }
    for (std::size_t i = 0; i < limits->items().size(); ++i) {
        const YamlNode &node = limits->items()[i];
        const QString path = QStringLiteral("spec.limits[") + QString::number(i) + u']';
        LimitRangeItem item;
        if (!node.isMap()) {
            problems << invalidShape(path, QStringLiteral("must be a map"));
            lr.limits << item;
            continue;
        }
        if (const YamlNode *type = node.find(u"type"); type && !type->isNull() && !type->isScalar())
            problems << invalidShape(path + QStringLiteral(".type"), QStringLiteral("must be a string"));
        item.type = node.scalarAt(u"type");
        for (const ListField &f : kItemLists) {
            const QString key = QString::fromUtf16(f.key);
            item.*(f.member) = decodeResourceList(node.find(key), path + u'.' + key, problems);
        }
        lr.limits << item;
    }
    return lr;
}

Result<LimitRangeSpec> LimitRangeSpec::fromNode(const YamlNode &object) {
    return strictDecode<LimitRangeSpec>(object);
}

Result<LimitRangeSpec> LimitRangeSpec::fromYaml(const QByteArray &yaml) {
    return decodeYamlText<LimitRangeSpec>(yaml);
}

Result<LimitRangeSpec> LimitRangeSpec::fromJson(const QJsonObject &object) {
    return fromNode(YamlNode::fromJson(object));
}

YamlNode LimitRangeSpec::toNode() const {
    YamlNode root = m_source.isMap() ? m_source : YamlNode::map();
    encodeObjectHead(root, specKind(), meta);

    if (!root.contains(u"spec") && limits.isEmpty())
        return root;
    YamlNode &spec = root.mapAt(QStringLiteral("spec"));
    const YamlNode *old = spec.find(u"limits");
    YamlNode seq = YamlNode::sequence();
    if (old)
        seq.setPos(old->pos());
    for (qsizetype i = 0; i < limits.size(); ++i) {
        const LimitRangeItem &item = limits[i];
        YamlNode node = YamlNode::map();
        if (old && old->isSequence() && i < old->size() && old->items()[std::size_t(i)].isMap())
            node = old->items()[std::size_t(i)];
        if (item.type.isEmpty())
            node.remove(u"type");
        else if (node.scalarAt(u"type") != item.type)
            node.insert(QStringLiteral("type"), YamlNode::scalar(item.type));
        for (const ListField &f : kItemLists)
            encodeResourceList(node, QString::fromUtf16(f.key), item.*(f.member));
        seq.append(node);
    }
    spec.insert(QStringLiteral("limits"), seq);
    return root;
}

QJsonObject LimitRangeSpec::toJson() const {
    YamlNode root = toNode();
    if (YamlNode *spec = root.find(u"spec")) {
        if (YamlNode *limitsNode = spec->find(u"limits"); limitsNode && limitsNode->isSequence()) {
            for (YamlNode &item : limitsNode->items()) {
                for (const ListField &f : kItemLists)
                    quantitiesAsStrings(item.find(QString::fromUtf16(f.key)));
            }
        }
    }
    return root.toJsonObject();
}

QByteArray LimitRangeSpec::toYaml() const {
    return emitYaml(toNode());
}

bool LimitRangeSpec::sameAs(const LimitRangeSpec &other) const {
    if (!(meta == other.meta) || limits.size() != other.limits.size())
        return false;
    for (qsizetype i = 0; i < limits.size(); ++i) {
        if (!limits[i].sameAs(other.limits[i]))
            return false;
    }
    return true;
}

} // namespace gq
