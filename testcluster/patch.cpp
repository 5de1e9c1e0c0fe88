#include "testcluster/patch.h"

#include <QHash>

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

namespace gq::tc {

std::optional<PatchType> patchTypeFromContentType(const QByteArray &contentType) {
    const QByteArray ct = contentType.split(';').first().trimmed();
    if (ct == "application/merge-patch+json")
        return PatchType::Merge;
    if (ct == "application/strategic-merge-patch+json")
        return PatchType::StrategicMerge;
    if (ct == "application/json-patch+json")
        return PatchType::Json;
    if (ct == "application/apply-patch+yaml")
        return PatchType::Apply;
    return std::nullopt;
}

namespace {

QJsonValue mergeValue(const QJsonValue &target, const QJsonValue &patch, bool strategic);
QJsonObject mergeObject(QJsonObject target, const QJsonObject &patch, bool strategic);

// The patchMergeKey of the lists of the served kinds that have one (from the Go types'
// `patchStrategy:"merge"` tags); every other list is replaced as a whole.
QString mergeKeyOf(const QString &field, const QJsonArray &elements) {
    static const QHash<QString, QString> keys = {
        {QStringLiteral("containers"), QStringLiteral("name")},
        {QStringLiteral("initContainers"), QStringLiteral("name")},
        {QStringLiteral("ephemeralContainers"), QStringLiteral("name")},
        {QStringLiteral("env"), QStringLiteral("name")},
        {QStringLiteral("volumes"), QStringLiteral("name")},
        {QStringLiteral("volumeMounts"), QStringLiteral("mountPath")},
        {QStringLiteral("imagePullSecrets"), QStringLiteral("name")},
        {QStringLiteral("webhooks"), QStringLiteral("name")},
        {QStringLiteral("conditions"), QStringLiteral("type")},
        {QStringLiteral("addresses"), QStringLiteral("type")},
        {QStringLiteral("hostAliases"), QStringLiteral("ip")},
        {QStringLiteral("topologySpreadConstraints"), QStringLiteral("topologyKey")},
    };
    if (field == QLatin1String("ports")) {
        // Container ports merge on containerPort, Service ports on port.
        for (const QJsonValue &e : elements) {
            if (e.toObject().contains(QLatin1String("containerPort")))
                return QStringLiteral("containerPort");
        }
        return QStringLiteral("port");
    }
    return keys.value(field);
}

// A merge-keyed list: patch elements merge into the element with the same key (or are
// appended, or removed by `$patch: delete`); `$setElementOrder/FIELD` orders the result.
QJsonArray mergeKeyedList(const QJsonArray &target, const QJsonArray &patch, const QString &key,
                          const QJsonArray &order) {
    QJsonArray out = target;
    auto indexOf = [&out, &key](const QJsonValue &k) {
        for (qsizetype i = 0; i < out.size(); ++i) {
            if (out.at(i).toObject().value(key) == k)
                return i;
        }
        return qsizetype(-1);
    };
    for (const QJsonValue &pv : patch) {
        const QJsonObject p = pv.toObject();
        const qsizetype i = indexOf(p.value(key));
        if (p.value(QLatin1String("$patch")).toString() == QLatin1String("delete")) {
            if (i >= 0)
                out.removeAt(i);
        } else if (i >= 0) {
            out.replace(i, mergeObject(out.at(i).toObject(), p, true));
        } else {
            QJsonObject added = p;
            added.remove(QLatin1String("$patch"));
            out.append(mergeObject(QJsonObject(), added, true));
        }
    }
    if (order.isEmpty())
        return out;
    QJsonArray ordered;
    for (const QJsonValue &o : order) {
        const qsizetype i = indexOf(o.toObject().value(key));
        if (i >= 0) {
            ordered.append(out.at(i));
            out.removeAt(i);
        }
    }
    for (const QJsonValue &rest : out)
        ordered.append(rest);
    return ordered;
}

QJsonObject mergeObject(QJsonObject target, const QJsonObject &patch, bool strategic) {
    if (strategic) {
        const QString directive = patch.value(QLatin1String("$patch")).toString();
        if (directive == QLatin1String("replace")) {
            QJsonObject copy = patch;
            copy.remove(QLatin1String("$patch"));
            return copy;
        }
        if (directive == QLatin1String("delete"))
            return {};
    }
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        const QString key = it.key();
        if (strategic && key.startsWith(QLatin1Char('$')))
            continue;
        if (it.value().isNull()) {
            target.remove(key);
            continue;
        }
        if (strategic && it.value().isObject() &&
            it.value().toObject().value(QLatin1String("$patch")).toString() == QLatin1String("delete")) {
            target.remove(key);
            continue;
        }
        if (strategic && it.value().isArray() && target.value(key).isArray()) {
            const QJsonArray elements = it.value().toArray();
            const QString mergeKey = mergeKeyOf(key, elements);
            if (!mergeKey.isEmpty()) {
                target.insert(
                    key, mergeKeyedList(target.value(key).toArray(), elements, mergeKey,
                                        patch.value(QStringLiteral("$setElementOrder/") + key).toArray()));
                continue;
            }
        }
        target.insert(key, mergeValue(target.value(key), it.value(), strategic));
    }
    return target;
}

QJsonValue mergeValue(const QJsonValue &target, const QJsonValue &patch, bool strategic) {
    if (!patch.isObject())
        return patch;
    return mergeObject(target.isObject() ? target.toObject() : QJsonObject(), patch.toObject(), strategic);
}

QStringList pointerTokens(const QString &pointer) {
    QStringList tokens = pointer.split(QLatin1Char('/'));
    tokens.removeFirst();
    for (QString &t : tokens)
        t = t.replace(QLatin1String("~1"), QLatin1String("/"))
                .replace(QLatin1String("~0"), QLatin1String("~"));
    return tokens;
}

// Recursive JSON-pointer edit. op: 0 get, 1 add, 2 remove, 3 replace.
bool edit(QJsonValue &node, const QStringList &tokens, int depth, int op, const QJsonValue &value,
          QJsonValue *out) {
    const QString &tok = tokens.at(depth);
    const bool last = depth == tokens.size() - 1;
    if (node.isObject()) {
        QJsonObject o = node.toObject();
        if (last) {
            switch (op) {
            case 0:
                if (!o.contains(tok))
                    return false;
                *out = o.value(tok);
                return true;
            case 1: o.insert(tok, value); break;
            case 2:
            case 3:
                if (!o.contains(tok))
                    return false;
                if (op == 2) {
                    *out = o.value(tok);
                    o.remove(tok);
                } else {
                    o.insert(tok, value);
                }
                break;
            }
            node = o;
            return true;
        }
        if (!o.contains(tok))
            return false;
        QJsonValue child = o.value(tok);
        if (!edit(child, tokens, depth + 1, op, value, out))
            return false;
        o.insert(tok, child);
        node = o;
        return true;
    }
    if (node.isArray()) {
        QJsonArray a = node.toArray();
        bool ok = false;
        qsizetype idx = tok == QLatin1String("-") ? a.size() : tok.toLongLong(&ok);
        if (tok != QLatin1String("-") && !ok)
            return false;
        if (last) {
            switch (op) {
            case 0:
                if (idx >= a.size())
                    return false;
                *out = a.at(idx);
                return true;
            case 1:
                if (idx > a.size())
                    return false;
                a.insert(idx, value);
                break;
            case 2:
                if (idx >= a.size())
                    return false;
                *out = a.at(idx);
                a.removeAt(idx);
                break;
            case 3:
                if (idx >= a.size())
                    return false;
                a[idx] = value;
                break;
            }
            node = a;
            return true;
        }
        if (idx >= a.size())
            return false;
        QJsonValue child = a.at(idx);
        if (!edit(child, tokens, depth + 1, op, value, out))
            return false;
        a[idx] = child;
        node = a;
        return true;
    }
    return false;
}

std::optional<ApiError> applyJsonPatch(const QJsonArray &ops, QJsonObject &target) {
    QJsonValue doc = target;
    for (const QJsonValue &v : ops) {
        const QJsonObject op = v.toObject();
        const QString name = op.value(QLatin1String("op")).toString();
        const QString path = op.value(QLatin1String("path")).toString();
        const QStringList tokens = pointerTokens(path);
        QJsonValue found;
        auto fail = [&](const QString &why) {
            return ApiError{422, QStringLiteral("Invalid"), why, {}, {}, {}, 0};
        };
        if (tokens.isEmpty())
            return fail(QStringLiteral("the json patch path \"") + path +
                        QStringLiteral("\" is not supported"));
        if (name == QLatin1String("add")) {
            if (!edit(doc, tokens, 0, 1, op.value(QLatin1String("value")), &found))
                return fail(QStringLiteral("add operation does not apply: doc is missing path: \"") + path +
                            QLatin1Char('"'));
        } else if (name == QLatin1String("remove")) {
            if (!edit(doc, tokens, 0, 2, {}, &found))
                return fail(QStringLiteral("remove operation does not apply: doc is missing path: \"") +
                            path + QLatin1Char('"'));
        } else if (name == QLatin1String("replace")) {
            if (!edit(doc, tokens, 0, 3, op.value(QLatin1String("value")), &found))
                return fail(QStringLiteral("replace operation does not apply: doc is missing key: ") + path);
        } else if (name == QLatin1String("test")) {
            if (!edit(doc, tokens, 0, 0, {}, &found) || found != op.value(QLatin1String("value")))
                return fail(QStringLiteral("testing value ") + path + QStringLiteral(" failed: test failed"));
        } else if (name == QLatin1String("move") || name == QLatin1String("copy")) {
            const QStringList from = pointerTokens(op.value(QLatin1String("from")).toString());
            if (from.isEmpty() || !edit(doc, from, 0, name == QLatin1String("move") ? 2 : 0, {}, &found))
                return fail(name + QStringLiteral(" operation does not apply: doc is missing from path"));
            QJsonValue ignored;
            if (!edit(doc, tokens, 0, 1, found, &ignored))
                return fail(name + QStringLiteral(" operation does not apply: doc is missing path: ") + path);
        } else {
            return fail(QStringLiteral("Unexpected kind: ") + name);
        }
    }
    target = doc.toObject();
    return std::nullopt;
}

} // namespace

std::optional<ApiError> applyPatch(PatchType type, const QByteArray &patch, QJsonObject &target) {
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(patch, &err);
    if (err.error != QJsonParseError::NoError) {
        return ApiError::badRequest(QStringLiteral("error decoding patch: ") + err.errorString());
    }
    if (type == PatchType::Json) {
        if (!doc.isArray())
            return ApiError::badRequest(
                QStringLiteral("json: cannot unmarshal object into Go value of type jsonpatch.Patch"));
        return applyJsonPatch(doc.array(), target);
    }
    if (!doc.isObject())
        return ApiError::badRequest(
            QStringLiteral("json: cannot unmarshal array into Go value of type map[string]interface {}"));
    target = mergeObject(target, doc.object(), type != PatchType::Merge);
    return std::nullopt;
}

} // namespace gq::tc
