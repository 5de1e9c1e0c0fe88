#include "core/domain/objectmeta.h"

namespace gq {

namespace {

Error shapeError(const QString &field, const QString &what) {
    Error e = Error::make(Error::Kind::Invalid, QStringLiteral("Invalid value: must be ") + what, field);
    e.reason = QStringLiteral("FieldValueInvalid");
    return e;
}

// A plain `42` or `true` is a number or a boolean to the API server (kubectl sends the
// YAML as JSON), which refuses it for a string field: say so here, not after a round trip.
bool scalarIsString(const YamlNode &n, const QString &path, QList<Error> &problems) {
    if (n.resolvesAsString())
        return true;
    problems << shapeError(
        path,
        QStringLiteral("a string, not %1 (quote it: \"%2\")")
            .arg(n.toJson().isBool() ? QStringLiteral("a boolean") : QStringLiteral("a number"), n.text()));
    return false;
}

QString readString(const YamlNode &parent, const QString &key, const QString &path, QList<Error> &problems) {
    const YamlNode *n = parent.find(key);
    if (!n || n->isNull())
        return {};
    if (!n->isScalar()) {
        problems << shapeError(path, QStringLiteral("a string"));
        return {};
    }
    return scalarIsString(*n, path, problems) ? n->text() : QString();
}

QMap<QString, QString> readStringMap(const YamlNode &parent, const QString &key, const QString &path,
                                     QList<Error> &problems) {
    QMap<QString, QString> out;
    const YamlNode *n = parent.find(key);
    if (!n || n->isNull())
        return out;
    if (!n->isMap()) {
        problems << shapeError(path, QStringLiteral("a map of string keys to string values"));
        return out;
    }
    for (const YamlNode::Entry &e : n->entries()) {
        if (e.value.isNull()) {
            out.insert(e.key, QString());
        } else if (!e.value.isScalar()) {
            problems << shapeError(path + u'[' + e.key + u']', QStringLiteral("a string"));
        } else if (scalarIsString(e.value, path + u'[' + e.key + u']', problems)) {
            out.insert(e.key, e.value.text());
        }
    }
    return out;
}

void writeString(YamlNode &parent, const QString &key, const QString &value) {
    if (value.isEmpty()) {
        parent.remove(key);
        return;
    }
    if (const YamlNode *existing = parent.find(key);
        existing && existing->isScalar() && existing->text() == value)
        return; // keep the original node (and its quoting)
    YamlNode n = YamlNode::scalar(value, true);
    if (const YamlNode *existing = parent.find(key))
        n.setPos(existing->pos());
    parent.insert(key, n);
}

void writeStringMap(YamlNode &parent, const QString &key, const QMap<QString, QString> &values) {
    YamlNode *existing = parent.find(key);
    if (values.isEmpty()) {
        parent.remove(key);
        return;
    }
    YamlNode out = YamlNode::map();
    if (existing && existing->isMap()) {
        out.setPos(existing->pos());
        // Existing keys first, in their order, then new ones.
        for (const YamlNode::Entry &e : existing->entries()) {
            const auto it = values.constFind(e.key);
            if (it == values.constEnd())
                continue;
            YamlNode::Entry copy = e;
            if (!e.value.isScalar() || e.value.text() != *it) {
                copy.value = YamlNode::scalar(*it, true);
                copy.value.setPos(e.value.pos());
            }
            out.entries().push_back(std::move(copy));
        }
    }
    for (auto it = values.constBegin(); it != values.constEnd(); ++it) {
        if (!out.contains(it.key()))
            out.insert(it.key(), YamlNode::scalar(it.value(), true));
    }
    parent.insert(key, out);
}

} // namespace

ObjectMeta ObjectMeta::decode(const YamlNode &metadata, QList<Error> &problems) {
    ObjectMeta m;
    if (metadata.isNull())
        return m;
    if (!metadata.isMap()) {
        problems << shapeError(QStringLiteral("metadata"), QStringLiteral("a map"));
        return m;
    }
    m.name = readString(metadata, QStringLiteral("name"), QStringLiteral("metadata.name"), problems);
    m.generateName = readString(metadata, QStringLiteral("generateName"),
                                QStringLiteral("metadata.generateName"), problems);
    m.namespaceName =
        readString(metadata, QStringLiteral("namespace"), QStringLiteral("metadata.namespace"), problems);
    m.resourceVersion = readString(metadata, QStringLiteral("resourceVersion"),
                                   QStringLiteral("metadata.resourceVersion"), problems);
    m.uid = readString(metadata, QStringLiteral("uid"), QStringLiteral("metadata.uid"), problems);
    m.labels = readStringMap(metadata, QStringLiteral("labels"), QStringLiteral("metadata.labels"), problems);
    m.annotations = readStringMap(metadata, QStringLiteral("annotations"),
                                  QStringLiteral("metadata.annotations"), problems);
    return m;
}

void ObjectMeta::encode(YamlNode &metadata) const {
    if (!metadata.isMap())
        metadata = YamlNode::map();
    writeString(metadata, QStringLiteral("name"), name);
    writeString(metadata, QStringLiteral("generateName"), generateName);
    writeString(metadata, QStringLiteral("namespace"), namespaceName);
    writeString(metadata, QStringLiteral("resourceVersion"), resourceVersion);
    writeString(metadata, QStringLiteral("uid"), uid);
    writeStringMap(metadata, QStringLiteral("labels"), labels);
    writeStringMap(metadata, QStringLiteral("annotations"), annotations);
}

} // namespace gq
