#include "testcluster/openapischema.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace gq::tc {

namespace {

QString join(const QString &path, const QString &key) {
    return path.isEmpty() ? key : path + QLatin1Char('.') + key;
}

QString typeName(const QJsonValue &v) {
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("boolean");
    case QJsonValue::Double: return QStringLiteral("number");
    case QJsonValue::String: return QStringLiteral("string");
    case QJsonValue::Array: return QStringLiteral("array");
    case QJsonValue::Object: return QStringLiteral("object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("undefined");
}

} // namespace

bool OpenApiSchema::addDocument(const QByteArray &json) {
    const QJsonObject schemas = QJsonDocument::fromJson(json)
                                    .object()
                                    .value(QLatin1String("components"))
                                    .toObject()
                                    .value(QLatin1String("schemas"))
                                    .toObject();
    for (auto it = schemas.begin(); it != schemas.end(); ++it)
        m_schemas.insert(it.key(), it.value());
    return !schemas.isEmpty();
}

QJsonObject OpenApiSchema::resolve(const QJsonObject &schema) const {
    QJsonObject s = schema;
    for (int depth = 0; depth < 16; ++depth) {
        if (s.contains(QLatin1String("$ref"))) {
            const QString ref = s.value(QLatin1String("$ref")).toString().section(QLatin1Char('/'), -1);
            s = m_schemas.value(ref).toObject();
            continue;
        }
        const QJsonArray allOf = s.value(QLatin1String("allOf")).toArray();
        if (allOf.size() == 1) {
            s = allOf.first().toObject();
            continue;
        }
        break;
    }
    return s;
}

QStringList OpenApiSchema::pruneUnknown(const QString &component, QJsonObject &object) const {
    QStringList unknown;
    const QJsonObject schema = m_schemas.value(component).toObject();
    if (schema.isEmpty())
        return unknown;
    object = prune(schema, object, QString(), unknown).toObject();
    return unknown;
}

QJsonValue OpenApiSchema::prune(const QJsonObject &schemaIn, const QJsonValue &value, const QString &path,
                                QStringList &unknown) const {
    const QJsonObject schema = resolve(schemaIn);
    if (schema.value(QLatin1String("x-kubernetes-preserve-unknown-fields")).toBool())
        return value;
    if (value.isObject()) {
        const QJsonObject properties = schema.value(QLatin1String("properties")).toObject();
        const QJsonValue additional = schema.value(QLatin1String("additionalProperties"));
        if (properties.isEmpty() && !additional.isObject())
            return value; // free-form (RawExtension, JSON, ...)
        QJsonObject in = value.toObject();
        QJsonObject out;
        for (auto it = in.begin(); it != in.end(); ++it) {
            const QString childPath = join(path, it.key());
            if (properties.contains(it.key()))
                out.insert(it.key(),
                           prune(properties.value(it.key()).toObject(), it.value(), childPath, unknown));
            else if (additional.isObject())
                out.insert(it.key(), prune(additional.toObject(), it.value(), childPath, unknown));
            else
                unknown.append(childPath);
        }
        return out;
    }
    if (value.isArray() && schema.value(QLatin1String("items")).isObject()) {
        QJsonArray in = value.toArray();
        for (qsizetype i = 0; i < in.size(); ++i)
            in[i] = prune(schema.value(QLatin1String("items")).toObject(), in.at(i),
                          path + QLatin1Char('[') + QString::number(i) + QLatin1Char(']'), unknown);
        return in;
    }
    return value;
}

QStringList OpenApiSchema::validate(const QString &component, const QJsonValue &value) const {
    QStringList errors;
    if (!m_schemas.contains(component)) {
        errors.append(QStringLiteral("no schema component ") + component);
        return errors;
    }
    check(m_schemas.value(component).toObject(), value, QString(), errors);
    return errors;
}

void OpenApiSchema::check(const QJsonObject &schemaIn, const QJsonValue &value, const QString &path,
                          QStringList &errors) const {
    const QJsonObject schema = resolve(schemaIn);
    if (value.isNull() || value.isUndefined())
        return;
    const QString where = path.isEmpty() ? QStringLiteral("<root>") : path;
    if (schema.value(QLatin1String("x-kubernetes-int-or-string")).toBool()) {
        if (!value.isString() && !value.isDouble())
            errors.append(where + QStringLiteral(": expected integer or string, got ") + typeName(value));
        return;
    }
    for (const char *alternatives : {"oneOf", "anyOf"}) {
        const QJsonArray options = schema.value(QLatin1String(alternatives)).toArray();
        if (options.isEmpty())
            continue;
        for (const QJsonValue &o : options) {
            QStringList sub;
            check(o.toObject(), value, path, sub);
            if (sub.isEmpty())
                return;
        }
        errors.append(where + QStringLiteral(": matches none of the ") + QLatin1String(alternatives) +
                      QStringLiteral(" alternatives"));
        return;
    }
    const QString type = schema.value(QLatin1String("type")).toString();
    const QJsonObject properties = schema.value(QLatin1String("properties")).toObject();
    if (type == QLatin1String("string")) {
        if (!value.isString())
            errors.append(where + QStringLiteral(": expected string, got ") + typeName(value));
    } else if (type == QLatin1String("integer")) {
        if (!value.isDouble() || std::floor(value.toDouble()) != value.toDouble())
            errors.append(where + QStringLiteral(": expected integer, got ") + typeName(value));
    } else if (type == QLatin1String("number")) {
        if (!value.isDouble())
            errors.append(where + QStringLiteral(": expected number, got ") + typeName(value));
    } else if (type == QLatin1String("boolean")) {
        if (!value.isBool())
            errors.append(where + QStringLiteral(": expected boolean, got ") + typeName(value));
    } else if (type == QLatin1String("array")) {
        if (!value.isArray()) {
            errors.append(where + QStringLiteral(": expected array, got ") + typeName(value));
            return;
        }
        const QJsonArray items = value.toArray();
        for (qsizetype i = 0; i < items.size(); ++i)
            check(schema.value(QLatin1String("items")).toObject(), items.at(i),
                  path + QLatin1Char('[') + QString::number(i) + QLatin1Char(']'), errors);
    } else if (type == QLatin1String("object") || !properties.isEmpty()) {
        if (!value.isObject()) {
            errors.append(where + QStringLiteral(": expected object, got ") + typeName(value));
            return;
        }
        if (schema.value(QLatin1String("x-kubernetes-preserve-unknown-fields")).toBool())
            return;
        const QJsonObject obj = value.toObject();
        for (const QJsonValue &r : schema.value(QLatin1String("required")).toArray()) {
            const QJsonValue v = obj.value(r.toString());
            if (v.isUndefined() || v.isNull())
                errors.append(join(path, r.toString()) + QStringLiteral(": required field is missing"));
        }
        const QJsonValue additional = schema.value(QLatin1String("additionalProperties"));
        if (properties.isEmpty() && !additional.isObject())
            return;
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            const QString childPath = join(path, it.key());
            if (properties.contains(it.key()))
                check(properties.value(it.key()).toObject(), it.value(), childPath, errors);
            else if (additional.isObject())
                check(additional.toObject(), it.value(), childPath, errors);
            else
                errors.append(childPath + QStringLiteral(": unknown field"));
        }
    }
}

} // namespace gq::tc
