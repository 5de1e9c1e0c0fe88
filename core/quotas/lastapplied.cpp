#include "core/quotas/lastapplied.h"

#include "core/domain/quantity.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace gq::lastapplied {

namespace {

const QLatin1StringView kMetadata{"metadata"};
const QLatin1StringView kAnnotations{"annotations"};
const QLatin1StringView kLabels{"labels"};

// Maps keyed by resource name: their values are quantities.
bool isResourceMap(const QString &key) {
    static const QSet<QString> keys = {QStringLiteral("hard"),
                                       QStringLiteral("max"),
                                       QStringLiteral("min"),
                                       QStringLiteral("default"),
                                       QStringLiteral("defaultRequest"),
                                       QStringLiteral("maxLimitRequestRatio")};
    return keys.contains(key);
}

// Maps whose keys are data, written in brackets as SpecDiff writes them.
bool isKeyedMap(const QString &key) {
    return isResourceMap(key) || key == kLabels || key == kAnnotations;
}

QString numberText(double d) {
    if (std::trunc(d) == d && std::fabs(d) < 9007199254740992.0)
        return QString::number(static_cast<qint64>(d));
    return QString::number(d, 'g', QLocale::FloatingPointShortest);
}

std::optional<Quantity> quantityOf(const QJsonValue &v) {
    const QString text = v.isString() ? v.toString() : v.isDouble() ? numberText(v.toDouble()) : QString();
    if (text.isEmpty())
        return std::nullopt;
    auto q = Quantity::parse(text);
    return q ? std::optional<Quantity>(*q) : std::nullopt;
}

// Equal as the API server sees it: quantities by value, the rest exactly.
bool same(const QJsonValue &a, const QJsonValue &b, bool quantity) {
    if (a == b)
        return true;
    if (a.isObject() && b.isObject()) {
        const QJsonObject oa = a.toObject(), ob = b.toObject();
        if (oa.keys() != ob.keys())
            return false;
        for (auto it = oa.constBegin(); it != oa.constEnd(); ++it)
            if (!same(it.value(), ob.value(it.key()), isResourceMap(it.key())))
                return false;
        return true;
    }
    if (a.isArray() && b.isArray()) {
        const QJsonArray xa = a.toArray(), xb = b.toArray();
        if (xa.size() != xb.size())
            return false;
        for (qsizetype i = 0; i < xa.size(); ++i)
            if (!same(xa.at(i), xb.at(i), false))
                return false;
        return true;
    }
    if (!quantity)
        return false;
    const auto qa = quantityOf(a), qb = quantityOf(b);
    return qa && qb && *qa == *qb;
}

bool allObjects(const QJsonArray &a) {
    return std::all_of(a.begin(), a.end(), [](const QJsonValue &v) { return v.isObject(); });
}

class Merger {
public:
    Merger(bool hasBase, bool force, MergeResult *out)
        : m_hasBase(hasBase)
        , m_force(force)
        , m_out(out) {}

    // The merged value of one field (Undefined: leave it out). `key` is the field's
    // own name, which decides how its children are named and compared. `inItem`: the
    // field is inside an item of a list (LimitRange limits), which kubectl replaces as a
    // whole; there a field neither the base nor the file has is the server's default
    // (a limit range's default from its max), so it is dropped and defaulted anew
    // rather than kept or taken for a change on the server.
    QJsonValue value(const QString &path, const QString &key, const QJsonValue &base, const QJsonValue &live,
                     const QJsonValue &mine, bool quantity, bool inItem) {
        if (inItem && m_hasBase) {
            if (base.isUndefined())
                return mine;
            // Down to the leaves even where the file kept or dropped a map: beside what
            // was applied it may hold the server's defaults.
            if (live.isObject() && base.isObject() && (mine.isObject() || mine.isUndefined())) {
                const QJsonObject merged =
                    object(path, key, base.toObject(), live.toObject(), mine.toObject(), inItem);
                return mine.isUndefined() && merged.isEmpty() ? QJsonValue(QJsonValue::Undefined) : merged;
            }
        }
        if (!m_hasBase) {
            if (mine.isUndefined() || same(live, mine, quantity))
                return live;
            if (mine.isObject() && live.isObject())
                return object(path, key, {}, live.toObject(), mine.toObject(), inItem);
            return mine;
        }
        if (same(mine, base, quantity) || same(live, mine, quantity))
            return live; // the file left it alone, or both sides agree: the server's stays
        if (same(live, base, quantity))
            return mine;
        if (mine.isObject() && live.isObject() && (base.isObject() || base.isUndefined()))
            return object(path, key, base.toObject(), live.toObject(), mine.toObject(), inItem);
        if (mine.isArray() && live.isArray() && base.isArray()) {
            const QJsonArray b = base.toArray(), l = live.toArray(), m = mine.toArray();
            if (b.size() == l.size() && l.size() == m.size() && allObjects(b) && allObjects(l) &&
                allObjects(m)) {
                QJsonArray merged;
                for (qsizetype i = 0; i < m.size(); ++i)
                    merged.append(value(QStringLiteral("%1[%2]").arg(path).arg(i), {}, b.at(i), l.at(i),
                                        m.at(i), false, true));
                return merged;
            }
        }
        const FieldConflict conflict{path, base, live, mine};
        if (m_force) {
            m_out->forced << conflict;
            return mine;
        }
        m_out->conflicts << conflict;
        return live;
    }

private:
    QJsonObject object(const QString &path, const QString &key, const QJsonObject &base,
                       const QJsonObject &live, const QJsonObject &mine, bool inItem) {
        const bool keyed = isKeyedMap(key);
        const bool quantities = isResourceMap(key);
        QStringList keys = base.keys() + live.keys() + mine.keys();
        keys.sort();
        keys.removeDuplicates();
        QJsonObject merged;
        for (const QString &k : keys) {
            const QString child = keyed ? QStringLiteral("%1[%2]").arg(path, k) : path + QLatin1Char('.') + k;
            const QJsonValue v =
                value(child, k, base.value(k), live.value(k), mine.value(k), quantities, inItem);
            if (!v.isUndefined())
                merged.insert(k, v);
        }
        return merged;
    }

    bool m_hasBase;
    bool m_force;
    MergeResult *m_out;
};

QJsonValue withoutRecord(const QJsonValue &annotations) {
    if (!annotations.isObject())
        return annotations;
    QJsonObject a = annotations.toObject();
    a.remove(kAnnotation);
    return a;
}

void setOrRemove(QJsonObject &o, const QString &key, const QJsonValue &v) {
    if (v.isUndefined())
        o.remove(key);
    else
        o.insert(key, v);
}

} // namespace

QString annotationFor(const QJsonObject &applied) {
    QJsonObject o = applied;
    QJsonObject meta = o.value(kMetadata).toObject();
    meta.insert(kAnnotations, withoutRecord(meta.value(kAnnotations).toObject()));
    o.insert(kMetadata, meta);
    QString json = QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
    // Go's encoder escapes these for HTML; outside strings JSON never has them.
    json.replace(QLatin1Char('<'), QLatin1String("\\u003c"))
        .replace(QLatin1Char('>'), QLatin1String("\\u003e"))
        .replace(QLatin1Char('&'), QLatin1String("\\u0026"))
        .replace(QChar(0x2028), QLatin1String("\\u2028"))
        .replace(QChar(0x2029), QLatin1String("\\u2029"));
    return json + QLatin1Char('\n');
}

std::optional<QJsonObject> recordedBase(const QJsonObject &live) {
    const QString text =
        live.value(kMetadata).toObject().value(kAnnotations).toObject().value(kAnnotation).toString();
    if (text.isEmpty())
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    if (!doc.isObject())
        return std::nullopt;
    return doc.object();
}

QString displayValue(const QJsonValue &value) {
    switch (value.type()) {
    case QJsonValue::Undefined: return QStringLiteral("(none)");
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: return numberText(value.toDouble());
    case QJsonValue::String: return value.toString();
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    }
    return {};
}

MergeResult merge(const std::optional<QJsonObject> &base, const QJsonObject &live, const QJsonObject &mine,
                  bool force) {
    MergeResult r;
    r.merged = live;
    Merger merger(base.has_value(), force, &r);
    const QJsonObject b = base.value_or(QJsonObject());

    static const QSet<QString> notMerged = {QStringLiteral("apiVersion"), QStringLiteral("kind"),
                                            QStringLiteral("metadata"), QStringLiteral("status")};
    QStringList keys = b.keys() + mine.keys();
    keys.sort();
    keys.removeDuplicates();
    for (const QString &k : keys) {
        if (notMerged.contains(k))
            continue;
        setOrRemove(r.merged, k, merger.value(k, k, b.value(k), live.value(k), mine.value(k), false, false));
    }

    const QJsonObject bm = b.value(kMetadata).toObject(), mm = mine.value(kMetadata).toObject();
    QJsonObject lm = live.value(kMetadata).toObject();
    for (const QLatin1StringView k : {kLabels, kAnnotations}) {
        const bool ann = k == kAnnotations;
        auto strip = [ann](const QJsonValue &v) { return ann ? withoutRecord(v) : v; };
        setOrRemove(lm, k,
                    merger.value(QLatin1String("metadata.") + k, k, strip(bm.value(k)), strip(lm.value(k)),
                                 strip(mm.value(k)), false, false));
    }
    // The file's new record when it has one, else the one the server holds.
    QJsonValue record = mm.value(kAnnotations).toObject().value(kAnnotation);
    if (!record.isString())
        record = live.value(kMetadata).toObject().value(kAnnotations).toObject().value(kAnnotation);
    if (record.isString()) {
        QJsonObject annotations = lm.value(kAnnotations).toObject();
        annotations.insert(kAnnotation, record);
        lm.insert(kAnnotations, annotations);
    }
    r.merged.insert(kMetadata, lm);
    return r;
}

} // namespace gq::lastapplied
