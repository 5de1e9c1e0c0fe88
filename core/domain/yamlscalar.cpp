#include "core/domain/yamldoc.h"
#include "core/domain/yamlscalar_p.h"

#include <QStringList>

namespace gq {

namespace detail {

bool isYamlNull(const QString &t) {
    return t.isEmpty() || t == u"~" || t == u"null" || t == u"Null" || t == u"NULL";
}

bool isYamlBool(const QString &t, bool *value) {
    if (t == u"true" || t == u"True" || t == u"TRUE") {
        *value = true;
        return true;
    }
    if (t == u"false" || t == u"False" || t == u"FALSE") {
        *value = false;
        return true;
    }
    return false;
}

// Words YAML 1.1 readers (Go's yaml.v2, used by kubectl for years) take as booleans.
bool isYaml11Bool(const QString &t) {
    static const QStringList words = {
        QStringLiteral("y"),   QStringLiteral("Y"),   QStringLiteral("yes"), QStringLiteral("Yes"),
        QStringLiteral("YES"), QStringLiteral("n"),   QStringLiteral("N"),   QStringLiteral("no"),
        QStringLiteral("No"),  QStringLiteral("NO"),  QStringLiteral("on"),  QStringLiteral("On"),
        QStringLiteral("ON"),  QStringLiteral("off"), QStringLiteral("Off"), QStringLiteral("OFF")};
    return words.contains(t);
}

namespace {

bool isDigits(QStringView t) {
    if (t.isEmpty())
        return false;
    for (QChar c : t) {
        if (c < u'0' || c > u'9')
            return false;
    }
    return true;
}

} // namespace

// [-+]?[0-9]+
bool isYamlInt(QStringView t) {
    if (t.startsWith(u'-') || t.startsWith(u'+'))
        t = t.mid(1);
    return isDigits(t);
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool isYamlFloat(QStringView t) {
    if (t.startsWith(u'-') || t.startsWith(u'+'))
        t = t.mid(1);
    qsizetype e = t.indexOf(u'e');
    if (e < 0)
        e = t.indexOf(u'E');
    QStringView mantissa = e < 0 ? t : t.left(e);
    if (e >= 0) {
        QStringView exp = t.mid(e + 1);
        if (exp.startsWith(u'-') || exp.startsWith(u'+'))
            exp = exp.mid(1);
        if (!isDigits(exp))
            return false;
    }
    const qsizetype dot = mantissa.indexOf(u'.');
    if (dot < 0)
        return isDigits(mantissa);
    const QStringView whole = mantissa.left(dot);
    const QStringView frac = mantissa.mid(dot + 1);
    if (whole.isEmpty())
        return isDigits(frac);
    return isDigits(whole) && (frac.isEmpty() || isDigits(frac));
}

bool needsQuotes(const QString &t) {
    bool b = false;
    return isYamlNull(t) || isYamlBool(t, &b) || isYaml11Bool(t) || isYamlInt(t) || isYamlFloat(t) ||
           t.startsWith(u"0x") || t.startsWith(u"0o") || t == u".inf" || t == u"-.inf" || t == u".nan";
}

// Control characters (a lone CR, a tab at the end), Unicode line separators and a
// stray byte-order mark do not survive as plain scalars; they are emitted quoted.
bool hasControlChars(const QString &t) {
    for (QChar c : t) {
        const char16_t u = c.unicode();
        if (u < 0x20 || (u >= 0x7F && u <= 0x9F) || u == 0x2028 || u == 0x2029 || u == 0xFEFF)
            return true;
    }
    return false;
}

// "---" and "..." at the start of a line end or start a document; a scalar or key
// beginning with them must be quoted to read back as itself.
bool startsLikeDocumentMarker(const QString &t) {
    return t.startsWith(u"---") || t.startsWith(u"...");
}

bool startsLikeNumber(const QString &t) {
    if (t.isEmpty())
        return false;
    const QChar c = t.front();
    return (c >= u'0' && c <= u'9') || c == u'-' || c == u'+' || c == u'.';
}

} // namespace detail

bool YamlNode::resolvesAsString() const {
    using namespace detail;
    if (m_type != Type::Scalar)
        return false;
    if (m_isString)
        return true;
    bool b = false;
    return !isYamlNull(m_text) && !isYamlBool(m_text, &b) && !isYamlInt(m_text) && !isYamlFloat(m_text);
}

} // namespace gq
