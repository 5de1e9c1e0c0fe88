#include "testcluster/selectors.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace gq::tc {

namespace {

// Splits on commas that are not inside parentheses.
QStringList splitTerms(const QString &text) {
    QStringList out;
    int depth = 0;
    QString cur;
    for (QChar c : text) {
        if (c == QLatin1Char('('))
            ++depth;
        else if (c == QLatin1Char(')'))
            --depth;
        if (c == QLatin1Char(',') && depth == 0) {
            out.append(cur.trimmed());
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.trimmed().isEmpty() || !out.isEmpty())
        out.append(cur.trimmed());
    return out;
}

// Field selectors the API server supports on events (pkg/registry/core/event).
const QStringList &eventFields() {
    static const QStringList fields = {QStringLiteral("involvedObject.kind"),
                                       QStringLiteral("involvedObject.namespace"),
                                       QStringLiteral("involvedObject.name"),
                                       QStringLiteral("involvedObject.uid"),
                                       QStringLiteral("involvedObject.apiVersion"),
                                       QStringLiteral("involvedObject.resourceVersion"),
                                       QStringLiteral("involvedObject.fieldPath"),
                                       QStringLiteral("reason"),
                                       QStringLiteral("reportingComponent"),
                                       QStringLiteral("source"),
                                       QStringLiteral("type")};
    return fields;
}

Error parseError(const QString &message) {
    return Error::make(Error::Kind::Parse, message);
}

} // namespace

Result<void> LabelSelector::parse(const QString &text) {
    m_terms.clear();
    if (text.trimmed().isEmpty())
        return {};
    for (const QString &term : splitTerms(text)) {
        if (term.isEmpty()) {
            return parseError(QStringLiteral("unable to parse requirement: empty requirement in \"") + text +
                              QLatin1Char('"'));
        }
        Term t;
        const int inPos = term.indexOf(QLatin1String(" in "));
        const int notInPos = term.indexOf(QLatin1String(" notin "));
        if (notInPos > 0 || inPos > 0) {
            const bool notIn = notInPos > 0;
            t.key = term.left(notIn ? notInPos : inPos).trimmed();
            t.op = notIn ? Op::NotIn : Op::In;
            QString rest = term.mid((notIn ? notInPos + 7 : inPos + 4)).trimmed();
            if (!rest.startsWith(QLatin1Char('(')) || !rest.endsWith(QLatin1Char(')'))) {
                return parseError(QStringLiteral("unable to parse requirement: found '") + rest +
                                  QStringLiteral("', expected: '('"));
            }
            rest = rest.mid(1, rest.size() - 2);
            for (const QString &v : rest.split(QLatin1Char(',')))
                t.values.append(v.trimmed());
        } else if (term.contains(QLatin1String("!="))) {
            const int p = term.indexOf(QLatin1String("!="));
            t.key = term.left(p).trimmed();
            t.op = Op::NotEquals;
            t.values.append(term.mid(p + 2).trimmed());
        } else if (term.contains(QLatin1Char('='))) {
            const int p = term.indexOf(QLatin1Char('='));
            const bool dbl = term.mid(p, 2) == QLatin1String("==");
            t.key = term.left(p).trimmed();
            t.op = Op::Equals;
            t.values.append(term.mid(p + (dbl ? 2 : 1)).trimmed());
        } else if (term.startsWith(QLatin1Char('!'))) {
            t.key = term.mid(1).trimmed();
            t.op = Op::NotExists;
        } else {
            t.key = term;
            t.op = Op::Exists;
        }
        if (t.key.isEmpty() || t.key.contains(QLatin1Char(' '))) {
            return parseError(QStringLiteral("unable to parse requirement: invalid label key \"") + t.key +
                              QLatin1Char('"'));
        }
        m_terms.push_back(std::move(t));
    }
    return {};
}

bool LabelSelector::matches(const Labels &labels) const {
    for (const Term &t : m_terms) {
        const QString *v = valueOf(labels, t.key);
        switch (t.op) {
        case Op::Equals:
            if (!v || *v != t.values.first())
                return false;
            break;
        case Op::NotEquals:
            if (v && *v == t.values.first())
                return false;
            break;
        case Op::In:
            if (!v || !t.values.contains(*v))
                return false;
            break;
        case Op::NotIn:
            if (v && t.values.contains(*v))
                return false;
            break;
        case Op::Exists:
            if (!v)
                return false;
            break;
        case Op::NotExists:
            if (v)
                return false;
            break;
        }
    }
    return true;
}

Result<void> FieldSelector::parse(Resource r, const QString &text) {
    m_terms.clear();
    if (text.trimmed().isEmpty())
        return {};
    for (const QString &term : text.split(QLatin1Char(','))) {
        Term t;
        int p = term.indexOf(QLatin1String("!="));
        int len = 2;
        t.negate = p >= 0;
        if (p < 0) {
            p = term.indexOf(QLatin1String("=="));
            if (p < 0) {
                p = term.indexOf(QLatin1Char('='));
                len = 1;
            }
        }
        if (p <= 0) {
            return parseError(QStringLiteral("invalid selector: '") + text +
                              QStringLiteral("'; can't understand '") + term + QLatin1Char('\''));
        }
        t.field = term.left(p).trimmed();
        t.value = term.mid(p + len).trimmed();
        const bool known =
            t.field == QLatin1String("metadata.name") || t.field == QLatin1String("metadata.namespace") ||
            (r == Resource::Pod &&
             (t.field == QLatin1String("status.phase") || t.field == QLatin1String("spec.nodeName"))) ||
            (r == Resource::Namespace && t.field == QLatin1String("status.phase")) ||
            (r == Resource::Event && eventFields().contains(t.field));
        if (!known) {
            return parseError(QStringLiteral("field label not supported: ") + t.field);
        }
        m_terms.push_back(std::move(t));
    }
    return {};
}

bool FieldSelector::matches(const Entry &e) const {
    QJsonObject parsed;
    for (const Term &t : m_terms) {
        QString actual;
        if (eventFields().contains(t.field)) {
            if (parsed.isEmpty())
                parsed = QJsonDocument::fromJson(e.json).object();
            if (t.field == QLatin1String("source")) {
                actual = parsed.value(QLatin1String("source"))
                             .toObject()
                             .value(QLatin1String("component"))
                             .toString();
            } else if (t.field.startsWith(QLatin1String("involvedObject."))) {
                actual = parsed.value(QLatin1String("involvedObject"))
                             .toObject()
                             .value(t.field.mid(15))
                             .toString();
            } else {
                actual = parsed.value(t.field).toString();
            }
            if ((actual == t.value) == t.negate)
                return false;
            continue;
        }
        if (t.field == QLatin1String("metadata.name"))
            actual = e.name;
        else if (t.field == QLatin1String("metadata.namespace"))
            actual = e.ns;
        else if (t.field == QLatin1String("status.phase"))
            actual = e.phase;
        else if (t.field == QLatin1String("spec.nodeName"))
            actual = e.nodeName;
        if ((actual == t.value) == t.negate)
            return false;
    }
    return true;
}

Result<Selectors> Selectors::parse(Resource r, const QString &labelText, const QString &fieldText) {
    Selectors s;
    if (Result<void> ok = s.labels.parse(labelText); !ok)
        return ok.error();
    if (Result<void> ok = s.fields.parse(r, fieldText); !ok)
        return ok.error();
    return s;
}

} // namespace gq::tc
