#include "core/domain/specio_p.h"

namespace gq::detail {

QString quoted(const QString &value) {
    const QString shown = elided(value);
    QString out;
    out.reserve(shown.size() + 2);
    out += u'"';
    for (QChar c : shown) {
        if (c == u'"' || c == u'\\')
            out += u'\\';
        out += c;
    }
    out += u'"';
    return out;
}

namespace {
Error fieldError(Error::Kind kind, const QString &field, const QString &message, const char *reason) {
    Error e = Error::make(kind, message, field);
    e.reason = QString::fromLatin1(reason);
    return e;
}
} // namespace

Error invalidValue(const QString &field, const QString &value, const QString &detail) {
    return fieldError(Error::Kind::Invalid, field,
                      QStringLiteral("Invalid value: ") + quoted(value) + u": " + detail,
                      "FieldValueInvalid");
}

Error invalidShape(const QString &field, const QString &detail) {
    return fieldError(Error::Kind::Invalid, field, QStringLiteral("Invalid value: ") + detail,
                      "FieldValueInvalid");
}

Error requiredValue(const QString &field, const QString &detail) {
    return fieldError(Error::Kind::Invalid, field,
                      detail.isEmpty() ? QStringLiteral("Required value")
                                       : QStringLiteral("Required value: ") + detail,
                      "FieldValueRequired");
}

Error forbidden(const QString &field, const QString &detail) {
    return fieldError(Error::Kind::Invalid, field, QStringLiteral("Forbidden: ") + detail,
                      "FieldValueForbidden");
}

Error duplicateValue(const QString &field, const QString &value) {
    return fieldError(Error::Kind::Invalid, field, QStringLiteral("Duplicate value: ") + quoted(value),
                      "FieldValueDuplicate");
}

Error notSupported(const QString &field, const QString &value, const QStringList &supported) {
    QStringList q;
    for (const QString &s : supported)
        q << quoted(s);
    return fieldError(Error::Kind::Invalid, field,
                      QStringLiteral("Unsupported value: ") + quoted(value) +
                          QStringLiteral(": supported values: ") + q.join(QStringLiteral(", ")),
                      "FieldValueNotSupported");
}

ResourceList decodeResourceList(const YamlNode *node, const QString &path, QList<Error> &problems) {
    ResourceList list;
    if (!node || node->isNull())
        return list;
    if (!node->isMap()) {
        problems << invalidShape(path, QStringLiteral("must be a map of resource names to quantities"));
        return list;
    }
    list.reserve(qsizetype(node->entries().size()));
    for (const YamlNode::Entry &e : node->entries()) {
        // Spelled only for an error: a 200k-key map is mostly good entries. A QString, not
        // a QStringBuilder of temporaries.
        const auto field = [&]() -> QString { return path + u'[' + e.key + u']'; };
        if (e.value.isNull()) {
            problems << requiredValue(field(), QStringLiteral("a quantity is required"));
            continue;
        }
        if (!e.value.isScalar()) {
            problems << invalidShape(field(), QStringLiteral("must be a quantity (a string or a number)"));
            continue;
        }
        auto q = Quantity::parse(e.value.text());
        if (!q) {
            Error err = Error::make(Error::Kind::Parse,
                                    QStringLiteral("Invalid value: ") + quoted(e.value.text()) + u": " +
                                        q.error().message,
                                    field());
            err.reason = QStringLiteral("FieldValueInvalid");
            problems << err;
            continue;
        }
        list.set(e.key, *q);
    }
    return list;
}

void encodeResourceList(YamlNode &parent, const QString &key, const ResourceList &list) {
    const YamlNode *existing = parent.find(key);
    if (list.isEmpty() && !existing)
        return;
    YamlNode out = YamlNode::map();
    if (existing)
        out.setPos(existing->pos());
    for (const ResourceList::Entry &r : list) {
        const YamlNode::Entry *old = existing ? existing->findEntry(r.name) : nullptr;
        if (old && old->value.isScalar()) {
            auto oldQ = Quantity::parse(old->value.text());
            if (oldQ && *oldQ == r.quantity) {
                out.entries().push_back(*old);
                continue;
            }
        }
        YamlNode v = YamlNode::scalar(r.quantity.toString(), old ? old->value.isString() : false);
        if (old)
            v.setPos(old->value.pos());
        out.entries().push_back(YamlNode::Entry{r.name, old ? old->keyPos : SourcePos{}, v});
    }
    parent.insert(key, out);
}

void quantitiesAsStrings(YamlNode *resourceMap) {
    if (!resourceMap || !resourceMap->isMap())
        return;
    for (YamlNode::Entry &e : resourceMap->entries()) {
        if (e.value.isScalar() && !e.value.isString()) {
            const SourcePos p = e.value.pos();
            e.value.setScalar(e.value.text(), true);
            e.value.setPos(p);
        }
    }
}

QStringList decodeStringList(const YamlNode *node, const QString &path, QList<Error> &problems) {
    QStringList out;
    if (!node || node->isNull())
        return out;
    if (!node->isSequence()) {
        problems << invalidShape(path, QStringLiteral("must be a list of strings"));
        return out;
    }
    for (std::size_t i = 0; i < node->items().size(); ++i) {
        const YamlNode &item = node->items()[i];
        if (!item.isScalar()) {
            problems << invalidShape(path + u'[' + QString::number(i) + u']',
                                     QStringLiteral("must be a string"));
            continue;
        }
        out << item.text();
    }
    return out;
}

void encodeStringList(YamlNode &parent, const QString &key, const QStringList &values) {
    const YamlNode *existing = parent.find(key);
    if (values.isEmpty()) {
        parent.remove(key);
        return;
    }
    if (existing && existing->isSequence() && existing->size() == values.size()) {
        bool same = true;
        for (qsizetype i = 0; i < values.size() && same; ++i) {
            const YamlNode &item = existing->items()[std::size_t(i)];
            same = item.isScalar() && item.text() == values[i];
        }
        if (same)
            return;
    }
    YamlNode seq = YamlNode::sequence();
    if (existing)
        seq.setPos(existing->pos());
    for (const QString &v : values)
        seq.append(YamlNode::scalar(v, true));
    parent.insert(key, seq);
}

void checkKind(const YamlNode &object, const QString &expected, QList<Error> &problems) {
    const YamlNode *kind = object.find(u"kind");
    if (!kind || kind->isNull())
        return;
    if (!kind->isScalar() || kind->text() != expected)
        problems << invalidValue(QStringLiteral("kind"), kind->isScalar() ? kind->text() : QString(),
                                 QStringLiteral("must be ") + expected);
}

Error firstProblem(const QList<Error> &problems, const YamlNode &root) {
    Error e = problems.first();
    setErrorPosition(e, root);
    for (const Error &p : problems)
        e.causes << Error::Cause{p.field, p.message, p.reason};
    return e;
}

bool decodeObjectHead(const YamlNode &object, const QString &kind, ObjectMeta &meta, QList<Error> &problems) {
    if (!object.isMap()) {
        problems << invalidShape(QString(), QStringLiteral("a %1 must be a map").arg(kind));
        return false;
    }
    checkKind(object, kind, problems);
    if (const YamlNode *metadata = object.find(u"metadata"))
        meta = ObjectMeta::decode(*metadata, problems);
    return true;
}

void encodeObjectHead(YamlNode &root, const QString &kind, const ObjectMeta &meta) {
    if (!root.contains(u"apiVersion"))
        root.insert(QStringLiteral("apiVersion"), YamlNode::scalar(QStringLiteral("v1")));
    if (!root.contains(u"kind"))
        root.insert(QStringLiteral("kind"), YamlNode::scalar(kind));

    const ObjectMeta empty;
    if (root.contains(u"metadata") || !(meta == empty))
        meta.encode(root.mapAt(QStringLiteral("metadata")));
}

} // namespace gq::detail
