#include "core/domain/quotaspec.h"

#include "core/domain/specio_p.h"

namespace gq {

using namespace detail;

namespace {
QString specKind() {
    return QStringLiteral("ResourceQuota");
}
} // namespace

QuotaSpec::QuotaSpec() {
    m_source = YamlNode::map();
    encodeObjectHead(m_source, specKind(), ObjectMeta());
}

QuotaSpec QuotaSpec::decode(const YamlNode &object, QList<Error> &problems) {
    QuotaSpec q;
    q.m_source = object;
    if (!decodeObjectHead(object, specKind(), q.meta, problems))
        return q;

    if (const YamlNode *spec = object.find(u"spec"); spec && !spec->isNull()) {
        if (!spec->isMap()) {
            problems << invalidShape(QStringLiteral("spec"), QStringLiteral("must be a map"));
        } else {
            q.hard = decodeResourceList(spec->find(u"hard"), QStringLiteral("spec.hard"), problems);
            q.scopes = decodeStringList(spec->find(u"scopes"), QStringLiteral("spec.scopes"), problems);
            if (const YamlNode *sel = spec->find(u"scopeSelector"); sel && !sel->isNull()) {
                q.hasScopeSelector = true;
                if (!sel->isMap()) {
                    problems << invalidShape(QStringLiteral("spec.scopeSelector"),
                                             QStringLiteral("must be a map"));
                } else if (const YamlNode *exprs = sel->find(u"matchExpressions");
                           exprs && !exprs->isNull()) {
                    const QString base = QStringLiteral("spec.scopeSelector.matchExpressions");
                    if (!exprs->isSequence()) {
                        problems << invalidShape(base, QStringLiteral("must be a list"));
                    } else {
                        for (std::size_t i = 0; i < exprs->items().size(); ++i) {
                            const YamlNode &item = exprs->items()[i];
                            const QString path = base + u'[' + QString::number(i) + u']';
                            ScopedResourceSelectorRequirement r;
                            if (!item.isMap()) {
                                problems << invalidShape(path, QStringLiteral("must be a map"));
                                q.scopeSelector << r;
                                continue;
                            }
                            const YamlNode *name = item.find(u"scopeName");
                            const YamlNode *op = item.find(u"operator");
                            if (name && !name->isNull() && !name->isScalar())
                                problems << invalidShape(path + QStringLiteral(".scopeName"),
                                                         QStringLiteral("must be a string"));
                            if (op && !op->isNull() && !op->isScalar())
                                problems << invalidShape(path + QStringLiteral(".operator"),
                                                         QStringLiteral("must be a string"));
                            r.scopeName = item.scalarAt(u"scopeName");
                            r.op = item.scalarAt(u"operator");
                            r.values = decodeStringList(item.find(u"values"),
                                                        path + QStringLiteral(".values"), problems);
                            q.scopeSelector << r;
                        }
                    }
                }
            }
        }
    }

    if (const YamlNode *status = object.find(u"status"); status && !status->isNull()) {
        if (!status->isMap()) {
            problems << invalidShape(QStringLiteral("status"), QStringLiteral("must be a map"));
        } else {
            q.statusHard = decodeResourceList(status->find(u"hard"), QStringLiteral("status.hard"), problems);
            q.statusUsed = decodeResourceList(status->find(u"used"), QStringLiteral("status.used"), problems);
        }
    }
    return q;
}

Result<QuotaSpec> QuotaSpec::fromNode(const YamlNode &object) {
    return strictDecode<QuotaSpec>(object);
}

Result<QuotaSpec> QuotaSpec::fromYaml(const QByteArray &yaml) {
    return decodeYamlText<QuotaSpec>(yaml);
}

Result<QuotaSpec> QuotaSpec::fromJson(const QJsonObject &object) {
    return fromNode(YamlNode::fromJson(object));
}

YamlNode QuotaSpec::toNode() const {
    YamlNode root = m_source.isMap() ? m_source : YamlNode::map();
    encodeObjectHead(root, specKind(), meta);

    if (root.contains(u"spec") || !hard.isEmpty() || !scopes.isEmpty() || hasScopeSelector) {
        YamlNode &spec = root.mapAt(QStringLiteral("spec"));
        encodeResourceList(spec, QStringLiteral("hard"), hard);
        encodeStringList(spec, QStringLiteral("scopes"), scopes);
        if (!hasScopeSelector) {
            spec.remove(u"scopeSelector");
        } else {
            YamlNode &sel = spec.mapAt(QStringLiteral("scopeSelector"));
            const YamlNode *old = sel.find(u"matchExpressions");
            YamlNode exprs = YamlNode::sequence();
            if (old)
                exprs.setPos(old->pos());
            for (qsizetype i = 0; i < scopeSelector.size(); ++i) {
                const ScopedResourceSelectorRequirement &r = scopeSelector[i];
                YamlNode item = YamlNode::map();
                if (old && old->isSequence() && i < old->size() && old->items()[std::size_t(i)].isMap())
                    item = old->items()[std::size_t(i)];
                if (item.scalarAt(u"scopeName") != r.scopeName || !item.contains(u"scopeName"))
                    item.insert(QStringLiteral("scopeName"), YamlNode::scalar(r.scopeName));
                if (item.scalarAt(u"operator") != r.op || !item.contains(u"operator"))
                    item.insert(QStringLiteral("operator"), YamlNode::scalar(r.op));
                encodeStringList(item, QStringLiteral("values"), r.values);
                exprs.append(item);
            }
            sel.insert(QStringLiteral("matchExpressions"), exprs);
        }
    }

    if (root.contains(u"status") || !statusHard.isEmpty() || !statusUsed.isEmpty()) {
        YamlNode &status = root.mapAt(QStringLiteral("status"));
        encodeResourceList(status, QStringLiteral("hard"), statusHard);
        encodeResourceList(status, QStringLiteral("used"), statusUsed);
    }
    return root;
}

QJsonObject QuotaSpec::toJson() const {
    YamlNode root = toNode();
    if (YamlNode *spec = root.find(u"spec"))
        quantitiesAsStrings(spec->find(u"hard"));
    if (YamlNode *status = root.find(u"status")) {
        quantitiesAsStrings(status->find(u"hard"));
        quantitiesAsStrings(status->find(u"used"));
    }
    return root.toJsonObject();
}

QByteArray QuotaSpec::toYaml() const {
    return emitYaml(toNode());
}

bool QuotaSpec::sameAs(const QuotaSpec &other) const {
    return meta == other.meta && hard.sameAs(other.hard) && scopes == other.scopes &&
           hasScopeSelector == other.hasScopeSelector && scopeSelector == other.scopeSelector &&
           statusHard.sameAs(other.statusHard) && statusUsed.sameAs(other.statusUsed);
}

} // namespace gq
