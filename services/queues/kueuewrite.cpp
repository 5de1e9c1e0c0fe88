#include "services/queues/kueuewrite.h"

#include "core/kueue/kueuemodel.h"
#include "core/domain/yamldoc.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gq {

namespace {

QString shown(const QJsonValue &v) {
    if (v.isUndefined())
        return QStringLiteral("(unset)");
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 17);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isNull())
        return QStringLiteral("null");
    const QJsonDocument doc = v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject());
    return QString::fromUtf8(doc.toJson(QJsonDocument::Compact));
}

// Appends "path: before -> after" for every leaf that differs (objects and arrays of
// the same length are walked; anything else is one change).
void diffInto(const QString &path, const QJsonValue &a, const QJsonValue &b, QStringList *out) {
    if (a == b)
        return;
    if (a.isObject() && b.isObject()) {
        const QJsonObject oa = a.toObject(), ob = b.toObject();
        QStringList keys = oa.keys();
        for (const QString &k : ob.keys())
            if (!oa.contains(k))
                keys.append(k);
        for (const QString &k : keys)
            diffInto(path.isEmpty() ? k : path + u'.' + k, oa.value(k), ob.value(k), out);
        return;
    }
    if (a.isArray() && b.isArray() && a.toArray().size() == b.toArray().size()) {
        const QJsonArray aa = a.toArray(), ab = b.toArray();
        for (qsizetype i = 0; i < aa.size(); ++i)
            diffInto(QStringLiteral("%1[%2]").arg(path).arg(i), aa.at(i), ab.at(i), out);
        return;
    }
    out->append(QStringLiteral("%1: %2 -> %3").arg(path, shown(a), shown(b)));
}

QJsonObject writtenFields(const QJsonObject &o) {
    const QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
    QJsonObject fields;
    fields.insert(QStringLiteral("spec"), o.value(QLatin1String("spec")));
    if (meta.contains(QLatin1String("labels")))
        fields.insert(QStringLiteral("metadata.labels"), meta.value(QLatin1String("labels")));
    if (meta.contains(QLatin1String("annotations")))
        fields.insert(QStringLiteral("metadata.annotations"), meta.value(QLatin1String("annotations")));
    return fields;
}

} // namespace

bool isKueueResource(const KubeResource &resource) {
    return resource.group == QString::fromUtf16(kueue::kGroup);
}

QString kueueDiffText(const QJsonObject &before, const QJsonObject &after) {
    QStringList lines;
    const QJsonObject a = writtenFields(before), b = writtenFields(after);
    QStringList keys = a.keys();
    for (const QString &k : b.keys())
        if (!a.contains(k))
            keys.append(k);
    for (const QString &k : keys)
        diffInto(k, a.value(k), b.value(k), &lines);
    return lines.join(u'\n');
}

namespace {

// The object's problems; `root` (the text's tree, or empty) gives them their lines.
QList<Error> problemsOf(const KubeResource &resource, const QJsonObject &object, const YamlNode &root) {
    QList<Error> errors;
    const QString kind = object.value(QLatin1String("kind")).toString();
    if (!kind.isEmpty() && kind != resource.kind)
        errors.append(
            Error::make(Error::Kind::Invalid,
                        QStringLiteral("kind is %1; this editor writes a %2").arg(kind, resource.kind),
                        QStringLiteral("kind")));
    if (resource.plural == QLatin1String("clusterqueues") || resource.plural == QLatin1String("cohorts"))
        for (const kueue::Problem &p :
             kueue::validateQueueSpec(object, resource.plural == QLatin1String("cohorts")))
            errors.append(Error::make(Error::Kind::Invalid, p.message, p.field));
    for (Error &e : errors)
        setErrorPosition(e, root);
    return errors;
}

} // namespace

QList<Error> kueueTextProblems(const KubeResource &resource, const QString &text) {
    auto node = parseYamlNode(text.toUtf8());
    if (!node)
        return {node.error()};
    if (!node->isMap())
        return {Error::make(Error::Kind::Invalid, QStringLiteral("the text is not a %1").arg(resource.kind))};
    return problemsOf(resource, node->toJsonObject(), *node);
}

Result<QJsonObject> kueuePrepare(const KubeResource &resource, const QJsonObject &mine,
                                 const QString &mineYaml, const QJsonObject &base, QString *diffText) {
    QJsonObject object = mine;
    YamlNode root;
    if (!mineYaml.isEmpty()) {
        auto node = parseYamlNode(mineYaml.toUtf8());
        if (!node)
            return node.error();
        if (!node->isMap())
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("the text is not a %1").arg(resource.kind));
        root = *node;
        object = root.toJsonObject();
    }
    const QList<Error> problems = problemsOf(resource, object, root);
    if (!problems.isEmpty()) {
        Error e = problems.first();
        if (problems.size() > 1)
            for (const Error &p : problems)
                e.causes.append({p.field, p.message, QStringLiteral("FieldValueInvalid")});
        return e;
    }
    *diffText = kueueDiffText(base, object);
    return object;
}

} // namespace gq
