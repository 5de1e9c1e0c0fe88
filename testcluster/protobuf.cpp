#include "testcluster/protobuf.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <map>
#include <vector>

namespace gq::tc {

namespace {

// --- wire format ---------------------------------------------------------------

struct Reader {
    const char *p;
    const char *end;
    bool ok = true;

    bool atEnd() const { return p >= end; }
    quint64 varint() {
        quint64 v = 0;
        int shift = 0;
        while (p < end && shift < 64) {
            const auto byte = static_cast<quint8>(*p++);
            v |= quint64(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return v;
            shift += 7;
        }
        ok = false;
        return 0;
    }
    QByteArray bytes() {
        const quint64 n = varint();
        if (!ok || n > quint64(end - p)) {
            ok = false;
            return {};
        }
        QByteArray out(p, static_cast<qsizetype>(n));
        p += n;
        return out;
    }
    void skip(int wireType) {
        switch (wireType) {
        case 0: varint(); break;
        case 1: p += 8; break;
        case 2: bytes(); break;
        case 5: p += 4; break;
        default: ok = false;
        }
        if (p > end)
            ok = false;
    }
};

enum class Type { String, Int, Bool, Message, MapString, MapQuantity, Time };

struct Field {
    int number;
    const char *json;
    Type type;
    const char *message = nullptr;
    bool repeated = false;
};

using Schema = std::map<QString, std::vector<Field>>;

const Schema &schema() {
    static const Schema s = {
        {QStringLiteral("ObjectMeta"),
         {{1, "name", Type::String},
          {2, "generateName", Type::String},
          {3, "namespace", Type::String},
          {5, "uid", Type::String},
          {6, "resourceVersion", Type::String},
          {7, "generation", Type::Int},
          {8, "creationTimestamp", Type::Time},
          {9, "deletionTimestamp", Type::Time},
          {10, "deletionGracePeriodSeconds", Type::Int},
          {11, "labels", Type::MapString},
          {12, "annotations", Type::MapString},
          {14, "finalizers", Type::String, nullptr, true}}},
        {QStringLiteral("Namespace"),
         {{1, "metadata", Type::Message, "ObjectMeta"},
          {2, "spec", Type::Message, "NamespaceSpec"},
          {3, "status", Type::Message, "NamespaceStatus"}}},
        {QStringLiteral("NamespaceSpec"), {{1, "finalizers", Type::String, nullptr, true}}},
        {QStringLiteral("NamespaceStatus"), {{1, "phase", Type::String}}},
        {QStringLiteral("ResourceQuota"),
         {{1, "metadata", Type::Message, "ObjectMeta"},
          {2, "spec", Type::Message, "ResourceQuotaSpec"},
          {3, "status", Type::Message, "ResourceQuotaStatus"}}},
        {QStringLiteral("ResourceQuotaSpec"),
         {{1, "hard", Type::MapQuantity},
          {2, "scopes", Type::String, nullptr, true},
          {3, "scopeSelector", Type::Message, "ScopeSelector"}}},
        {QStringLiteral("ScopeSelector"),
         {{1, "matchExpressions", Type::Message, "ScopedResourceSelectorRequirement", true}}},
        {QStringLiteral("ScopedResourceSelectorRequirement"),
         {{1, "scopeName", Type::String},
          {2, "operator", Type::String},
          {3, "values", Type::String, nullptr, true}}},
        {QStringLiteral("ResourceQuotaStatus"),
         {{1, "hard", Type::MapQuantity}, {2, "used", Type::MapQuantity}}},
        {QStringLiteral("ConfigMap"),
         {{1, "metadata", Type::Message, "ObjectMeta"},
          {2, "data", Type::MapString},
          {4, "immutable", Type::Bool}}},
        {QStringLiteral("LimitRange"),
         {{1, "metadata", Type::Message, "ObjectMeta"}, {2, "spec", Type::Message, "LimitRangeSpec"}}},
        {QStringLiteral("LimitRangeSpec"), {{1, "limits", Type::Message, "LimitRangeItem", true}}},
        {QStringLiteral("LimitRangeItem"),
         {{1, "type", Type::String},
          {2, "max", Type::MapQuantity},
          {3, "min", Type::MapQuantity},
          {4, "default", Type::MapQuantity},
          {5, "defaultRequest", Type::MapQuantity},
          {6, "maxLimitRequestRatio", Type::MapQuantity}}},
        {QStringLiteral("SelfSubjectAccessReview"),
         {{1, "metadata", Type::Message, "ObjectMeta"},
          {2, "spec", Type::Message, "SelfSubjectAccessReviewSpec"}}},
        {QStringLiteral("SelfSubjectAccessReviewSpec"),
         {{1, "resourceAttributes", Type::Message, "ResourceAttributes"},
          {2, "nonResourceAttributes", Type::Message, "NonResourceAttributes"}}},
        {QStringLiteral("ResourceAttributes"),
         {{1, "namespace", Type::String},
          {2, "verb", Type::String},
          {3, "group", Type::String},
          {4, "version", Type::String},
          {5, "resource", Type::String},
          {6, "subresource", Type::String},
          {7, "name", Type::String}}},
        {QStringLiteral("NonResourceAttributes"), {{1, "path", Type::String}, {2, "verb", Type::String}}},
        {QStringLiteral("SelfSubjectRulesReview"),
         {{1, "metadata", Type::Message, "ObjectMeta"},
          {2, "spec", Type::Message, "SelfSubjectRulesReviewSpec"}}},
        {QStringLiteral("SelfSubjectRulesReviewSpec"), {{1, "namespace", Type::String}}},
        {QStringLiteral("SelfSubjectReview"), {{1, "metadata", Type::Message, "ObjectMeta"}}},
        {QStringLiteral("DeleteOptions"),
         {{1, "gracePeriodSeconds", Type::Int},
          {2, "preconditions", Type::Message, "Preconditions"},
          {3, "orphanDependents", Type::Bool},
          {4, "propagationPolicy", Type::String},
          {5, "dryRun", Type::String, nullptr, true}}},
        {QStringLiteral("Preconditions"), {{1, "uid", Type::String}, {2, "resourceVersion", Type::String}}},
    };
    return s;
}

QJsonObject decodeMessage(const QByteArray &data, const QString &name, bool *ok);

// map<string, X> entries are messages {1: key, 2: value}.
std::pair<QString, QByteArray> mapEntry(const QByteArray &data, bool *ok) {
    Reader r{data.constData(), data.constData() + data.size()};
    QString key;
    QByteArray value;
    while (!r.atEnd() && r.ok) {
        const quint64 tag = r.varint();
        const int field = static_cast<int>(tag >> 3);
        const int wire = static_cast<int>(tag & 7);
        if (wire == 2 && field == 1)
            key = QString::fromUtf8(r.bytes());
        else if (wire == 2 && field == 2)
            value = r.bytes();
        else
            r.skip(wire);
    }
    *ok = *ok && r.ok;
    return {key, value};
}

QString quantityText(const QByteArray &data, bool *ok) {
    // resource.Quantity's protobuf form is {1: string}.
    Reader r{data.constData(), data.constData() + data.size()};
    QString text;
    while (!r.atEnd() && r.ok) {
        const quint64 tag = r.varint();
        if ((tag >> 3) == 1 && (tag & 7) == 2)
            text = QString::fromUtf8(r.bytes());
        else
            r.skip(static_cast<int>(tag & 7));
    }
    *ok = *ok && r.ok;
    return text;
}

QString timeText(const QByteArray &data, bool *ok) {
    Reader r{data.constData(), data.constData() + data.size()};
    qint64 seconds = 0;
    while (!r.atEnd() && r.ok) {
        const quint64 tag = r.varint();
        if ((tag >> 3) == 1 && (tag & 7) == 0)
            seconds = static_cast<qint64>(r.varint());
        else
            r.skip(static_cast<int>(tag & 7));
    }
    *ok = *ok && r.ok;
    return QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC).toString(Qt::ISODate);
}

QJsonObject decodeMessage(const QByteArray &data, const QString &name, bool *ok) {
    const auto it = schema().find(name);
    QJsonObject out;
    if (it == schema().end())
        return out;
    Reader r{data.constData(), data.constData() + data.size()};
    while (!r.atEnd() && r.ok) {
        const quint64 tag = r.varint();
        const int number = static_cast<int>(tag >> 3);
        const int wire = static_cast<int>(tag & 7);
        const Field *field = nullptr;
        for (const Field &f : it->second) {
            if (f.number == number)
                field = &f;
        }
        if (!field) {
            r.skip(wire);
            continue;
        }
        const QString key = QLatin1String(field->json);
        QJsonValue value;
        switch (field->type) {
        case Type::String: {
            // gogo-protobuf writes empty optional strings; JSON would omit them.
            const QString text = QString::fromUtf8(r.bytes());
            if (text.isEmpty() && !field->repeated)
                continue;
            value = text;
            break;
        }
        case Type::Int: {
            const auto v = static_cast<qint64>(r.varint());
            if (v == 0)
                continue;
            value = v;
            break;
        }
        case Type::Bool: value = r.varint() != 0; break;
        case Type::Time: {
            const QString text = timeText(r.bytes(), ok);
            if (text.startsWith(QLatin1String("1970-01-01T00:00:00")))
                continue;
            value = text;
            break;
        }
        case Type::Message: value = decodeMessage(r.bytes(), QLatin1String(field->message), ok); break;
        case Type::MapString:
        case Type::MapQuantity: {
            const auto [k, v] = mapEntry(r.bytes(), ok);
            QJsonObject map = out.value(key).toObject();
            map.insert(k, field->type == Type::MapString ? QString::fromUtf8(v) : quantityText(v, ok));
            out.insert(key, map);
            continue;
        }
        }
        if (field->repeated) {
            QJsonArray arr = out.value(key).toArray();
            arr.append(value);
            out.insert(key, arr);
        } else {
            out.insert(key, value);
        }
    }
    *ok = *ok && r.ok;
    return out;
}

// --- encoding ------------------------------------------------------------------

class Writer {
public:
    void varint(quint64 v) {
        while (v >= 0x80) {
            m_buf.append(static_cast<char>((v & 0x7f) | 0x80));
            v >>= 7;
        }
        m_buf.append(static_cast<char>(v));
    }
    void tag(int field, int wire) { varint(quint64(field) << 3 | quint64(wire)); }
    void bytes(int field, const QByteArray &b) {
        tag(field, 2);
        varint(static_cast<quint64>(b.size()));
        m_buf.append(b);
    }
    void string(int field, const QString &s) {
        if (!s.isEmpty())
            bytes(field, s.toUtf8());
    }
    void boolean(int field, bool b) {
        if (!b)
            return;
        tag(field, 0);
        varint(1);
    }
    void int64(int field, qint64 v) {
        if (v == 0)
            return;
        tag(field, 0);
        varint(static_cast<quint64>(v));
    }
    const QByteArray &data() const { return m_buf; }

private:
    QByteArray m_buf;
};

QString v2Ref(const QString &ref) {
    static const QLatin1String prefix("#/components/schemas/");
    return ref.startsWith(prefix) ? QStringLiteral("#/definitions/") + ref.mid(prefix.size()) : ref;
}

// gnostic openapi_v2.Any: field 2 holds YAML text; JSON is valid YAML.
QByteArray anyYaml(const QJsonValue &v) {
    Writer w;
    QByteArray text;
    if (v.isObject())
        text = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    else if (v.isArray())
        text = QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
    else if (v.isString())
        text = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    else if (v.isBool())
        text = v.toBool() ? "true" : "false";
    else if (v.isDouble())
        text = QByteArray::number(v.toDouble());
    w.bytes(2, text);
    return w.data();
}

QByteArray encodeSchema(const QJsonObject &s) {
    Writer w;
    QJsonObject schema = s;
    // v3 wraps a reference in allOf to give it a description; v2 puts $ref beside it.
    const QJsonArray allOf = schema.value(QLatin1String("allOf")).toArray();
    if (allOf.size() == 1 && allOf.first().toObject().contains(QLatin1String("$ref"))) {
        schema.insert(QLatin1String("$ref"), allOf.first().toObject().value(QLatin1String("$ref")));
        schema.remove(QLatin1String("allOf"));
    }
    w.string(1, v2Ref(schema.value(QLatin1String("$ref")).toString()));
    w.string(2, schema.value(QLatin1String("format")).toString());
    w.string(3, schema.value(QLatin1String("title")).toString());
    w.string(4, schema.value(QLatin1String("description")).toString());
    for (const QJsonValue &r : schema.value(QLatin1String("required")).toArray())
        w.string(19, r.toString());
    for (const QJsonValue &e : schema.value(QLatin1String("enum")).toArray())
        w.bytes(20, anyYaml(e));
    const QJsonValue additional = schema.value(QLatin1String("additionalProperties"));
    if (additional.isObject()) {
        Writer item;
        item.bytes(1, encodeSchema(additional.toObject()));
        w.bytes(21, item.data());
    } else if (additional.isBool()) {
        Writer item;
        item.tag(2, 0);
        item.varint(additional.toBool() ? 1 : 0);
        w.bytes(21, item.data());
    }
    if (schema.contains(QLatin1String("type"))) {
        Writer type;
        type.string(1, schema.value(QLatin1String("type")).toString());
        w.bytes(22, type.data());
    }
    if (schema.value(QLatin1String("items")).isObject()) {
        Writer items;
        items.bytes(1, encodeSchema(schema.value(QLatin1String("items")).toObject()));
        w.bytes(23, items.data());
    }
    for (const QJsonValue &a : schema.value(QLatin1String("allOf")).toArray())
        w.bytes(24, encodeSchema(a.toObject()));
    const QJsonObject properties = schema.value(QLatin1String("properties")).toObject();
    if (!properties.isEmpty()) {
        Writer props;
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            Writer named;
            named.string(1, it.key());
            named.bytes(2, encodeSchema(it.value().toObject()));
            props.bytes(1, named.data());
        }
        w.bytes(25, props.data());
    }
    for (auto it = schema.begin(); it != schema.end(); ++it) {
        if (!it.key().startsWith(QLatin1String("x-")))
            continue;
        Writer named;
        named.string(1, it.key());
        named.bytes(2, anyYaml(it.value()));
        w.bytes(31, named.data());
    }
    return w.data();
}

} // namespace

Result<QJsonObject> decodeKubernetesProtobuf(const QByteArray &body) {
    if (!body.startsWith(QByteArray("k8s\0", 4)))
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("protobuf body does not start with the k8s envelope prefix"));
    const QByteArray envelope = body.mid(4);
    Reader r{envelope.constData(), envelope.constData() + envelope.size()};
    QString apiVersion, kind;
    QByteArray raw;
    bool ok = true;
    while (!r.atEnd() && r.ok) {
        const quint64 tag = r.varint();
        const int field = static_cast<int>(tag >> 3);
        const int wire = static_cast<int>(tag & 7);
        if (field == 1 && wire == 2) {
            const QByteArray typeMeta = r.bytes();
            Reader t{typeMeta.constData(), typeMeta.constData() + typeMeta.size()};
            while (!t.atEnd() && t.ok) {
                const quint64 ttag = t.varint();
                if ((ttag >> 3) == 1 && (ttag & 7) == 2)
                    apiVersion = QString::fromUtf8(t.bytes());
                else if ((ttag >> 3) == 2 && (ttag & 7) == 2)
                    kind = QString::fromUtf8(t.bytes());
                else
                    t.skip(static_cast<int>(ttag & 7));
            }
        } else if (field == 2 && wire == 2) {
            raw = r.bytes();
        } else {
            r.skip(wire);
        }
    }
    if (!r.ok)
        return Error::make(Error::Kind::Parse, QStringLiteral("malformed protobuf envelope"));
    if (schema().find(kind) == schema().end())
        return Error::make(
            Error::Kind::Parse,
            QStringLiteral("no protobuf decoding for kind \"%1\" in this test server").arg(kind));
    QJsonObject object = decodeMessage(raw, kind, &ok);
    if (!ok)
        return Error::make(Error::Kind::Parse, QStringLiteral("malformed protobuf %1").arg(kind));
    object.insert(QLatin1String("apiVersion"), apiVersion);
    object.insert(QLatin1String("kind"), kind);
    return object;
}

QByteArray encodeOpenApiV2(const QJsonObject &core, const QJsonObject &authorization) {
    Writer doc;
    doc.string(1, QStringLiteral("2.0"));
    Writer info;
    info.string(1, QStringLiteral("Kubernetes"));
    info.string(2, QStringLiteral("v1.32.4"));
    doc.bytes(2, info.data());
    Writer definitions;
    std::map<QString, QJsonObject> all;
    for (const QJsonObject &d : {core, authorization}) {
        const QJsonObject schemas =
            d.value(QLatin1String("components")).toObject().value(QLatin1String("schemas")).toObject();
        for (auto it = schemas.begin(); it != schemas.end(); ++it)
            all.emplace(it.key(), it.value().toObject());
    }
    for (const auto &[name, schema] : all) {
        Writer named;
        named.string(1, name);
        named.bytes(2, encodeSchema(schema));
        definitions.bytes(1, named.data());
    }
    doc.bytes(9, definitions.data());
    return doc.data();
}

} // namespace gq::tc
