#include "core/usage/identitymapping.h"

#include "core/domain/yamldoc.h"

#include <optional>

namespace gq {

namespace {

const QLatin1String kServiceAccountPrefix("system:serviceaccount:");

bool alnum(QChar c) {
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
           (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
           (c >= QLatin1Char('0') && c <= QLatin1Char('9'));
}

QString arrow(const IdentityMapping &m) {
    const QString target =
        m.scope == BudgetScope::Namespace ? QStringLiteral("namespace ") + m.subject : m.subject;
    return QStringLiteral("%1 \u2192 %2").arg(m.username, target);
}

Error cannotMap(const QString &username, const QString &why) {
    return Error::make(Error::Kind::Invalid,
                       QStringLiteral("%1 cannot be mapped to a budget user: %2").arg(username, why));
}

std::optional<bool> readBool(const QString &field, const YamlNode &node, QList<Error> *errors) {
    if (node.isScalar() && !node.isString()) {
        if (node.text() == QLatin1String("true"))
            return true;
        if (node.text() == QLatin1String("false"))
            return false;
    }
    addConfigError(errors, field, node.pos(), QStringLiteral("must be true or false"));
    return std::nullopt;
}

} // namespace

bool isLabelValue(const QString &value, QString *why) {
    auto fail = [why](const QString &reason) {
        if (why)
            *why = reason;
        return false;
    };
    if (value.isEmpty())
        return fail(QStringLiteral("nothing is left of the name"));
    if (value.size() > 63)
        return fail(QStringLiteral("\"%1\" is longer than 63 characters").arg(value));
    for (const QChar c : value)
        if (!alnum(c) && c != QLatin1Char('-') && c != QLatin1Char('_') && c != QLatin1Char('.'))
            return fail(QStringLiteral("\"%1\" contains '%2' (a user is letters, digits, '-', '_' and '.')")
                            .arg(value, c));
    if (!alnum(value.front()) || !alnum(value.back()))
        return fail(QStringLiteral("\"%1\" must start and end with a letter or digit").arg(value));
    return true;
}

Result<IdentityMapping> mapIdentity(const QString &username, const IdentityRules &rules) {
    IdentityMapping m;
    m.username = username;
    if (username.isEmpty())
        return cannotMap(QStringLiteral("\"\""), QStringLiteral("the username is empty"));
    if (const auto it = rules.users.find(username); it != rules.users.end()) {
        QString why;
        if (!isLabelValue(*it, &why))
            return cannotMap(username, QStringLiteral("identity.users maps it to %1").arg(why));
        m.subject = *it;
        m.steps = {QStringLiteral("table")};
        m.explanation = arrow(m) + QStringLiteral(" (identity.users)");
        return m;
    }
    if (username.startsWith(kServiceAccountPrefix)) {
        const QStringList parts = username.mid(kServiceAccountPrefix.size()).split(QLatin1Char(':'));
        if (parts.size() != 2 || parts[0].isEmpty() || parts[1].isEmpty())
            return cannotMap(username,
                             QStringLiteral("not a ServiceAccount name (system:serviceaccount:NS:NAME)"));
        if (rules.serviceAccounts == IdentityRules::ServiceAccounts::None)
            return cannotMap(username, QStringLiteral("ServiceAccounts have no budget of their own "
                                                      "(identity.serviceAccounts: none)"));
        m.scope = BudgetScope::Namespace;
        m.subject = parts[0];
        m.steps = {QStringLiteral("service-account")};
        m.explanation =
            arrow(m) + QStringLiteral(" (ServiceAccount %1 of namespace %2)").arg(parts[1], parts[0]);
        return m;
    }
    if (username.startsWith(QLatin1String("system:")))
        return cannotMap(username, QStringLiteral("system: names are Kubernetes' own components"));

    QString name = username;
    QStringList said;
    for (const QString &prefix : rules.stripPrefixes) {
        if (!prefix.isEmpty() && name.startsWith(prefix) && name.size() > prefix.size()) {
            name = name.mid(prefix.size());
            m.steps.append(QStringLiteral("prefix"));
            said.append(QStringLiteral("prefix %1 removed").arg(prefix));
            break;
        }
    }
    if (rules.stripIssuer &&
        (name.startsWith(QLatin1String("https://")) || name.startsWith(QLatin1String("http://")))) {
        const qsizetype hash = name.lastIndexOf(QLatin1Char('#'));
        if (hash > 0 && hash + 1 < name.size()) {
            said.append(QStringLiteral("issuer %1 removed").arg(name.left(hash)));
            name = name.mid(hash + 1);
            m.steps.append(QStringLiteral("issuer"));
        }
    }
    if (rules.emailLocalPart) {
        const qsizetype at = name.lastIndexOf(QLatin1Char('@'));
        if (at > 0 && at + 1 < name.size()) {
            name = name.left(at);
            m.steps.append(QStringLiteral("email"));
            said.append(QStringLiteral("e-mail local part"));
        }
    }
    if (m.steps.isEmpty()) {
        m.steps = {QStringLiteral("as-is")};
        said = {QStringLiteral("used as it is")};
    }
    QString why;
    if (!isLabelValue(name, &why))
        return cannotMap(username, why);
    m.subject = name;
    m.explanation = arrow(m) + QStringLiteral(" (%1)").arg(said.join(QStringLiteral(", ")));
    return m;
}

IdentityRules parseIdentityRules(const YamlNode &node, QList<Error> *errors) {
    IdentityRules rules;
    if (node.isNull())
        return rules;
    if (!node.isMap()) {
        addConfigError(errors, QStringLiteral("identity"), node.pos(),
                       QStringLiteral("must be a map, e.g. {emailLocalPart: true}"));
        return rules;
    }
    static const QStringList known = {QStringLiteral("users"), QStringLiteral("stripPrefixes"),
                                      QStringLiteral("stripIssuer"), QStringLiteral("emailLocalPart"),
                                      QStringLiteral("serviceAccounts")};
    for (const YamlNode::Entry &e : node.entries()) {
        const QString field = QStringLiteral("identity.") + e.key;
        const YamlNode &v = e.value;
        if (e.key == QLatin1String("users")) {
            if (!v.isMap()) {
                addConfigError(
                    errors, field, v.pos(),
                    QStringLiteral("must be a map of username to user, e.g. {\"oidc:42\": alice}"));
                continue;
            }
            for (const YamlNode::Entry &u : v.entries()) {
                const QString userField = QStringLiteral("identity.users[%1]").arg(u.key);
                QString why;
                if (!u.value.isScalar() || !isLabelValue(u.value.text(), &why))
                    addConfigError(errors, userField, u.value.pos(),
                                   u.value.isScalar() ? QStringLiteral("not a user name: %1").arg(why)
                                                      : QStringLiteral("must be a user name"));
                else
                    rules.users.insert(u.key, u.value.text());
            }
        } else if (e.key == QLatin1String("stripPrefixes")) {
            if (!v.isSequence()) {
                addConfigError(errors, field, v.pos(), QStringLiteral("must be a list, e.g. [\"oidc:\"]"));
                continue;
            }
            rules.stripPrefixes.clear();
            for (const YamlNode &p : v.items()) {
                if (!p.isScalar() || p.text().isEmpty())
                    addConfigError(errors, field, p.pos(),
                                   QStringLiteral("each prefix must be a non-empty string"));
                else
                    rules.stripPrefixes.append(p.text());
            }
        } else if (e.key == QLatin1String("stripIssuer")) {
            rules.stripIssuer = readBool(field, v, errors).value_or(rules.stripIssuer);
        } else if (e.key == QLatin1String("emailLocalPart")) {
            rules.emailLocalPart = readBool(field, v, errors).value_or(rules.emailLocalPart);
        } else if (e.key == QLatin1String("serviceAccounts")) {
            if (v.isScalar() && v.text() == QLatin1String("namespace"))
                rules.serviceAccounts = IdentityRules::ServiceAccounts::Namespace;
            else if (v.isScalar() && v.text() == QLatin1String("none"))
                rules.serviceAccounts = IdentityRules::ServiceAccounts::None;
            else
                addConfigError(errors, field, v.pos(),
                               QStringLiteral("must be namespace or none (got \"%1\")").arg(v.text()));
        } else {
            addConfigError(
                errors, field, e.keyPos,
                QStringLiteral("unknown key (known here: %1)").arg(known.join(QStringLiteral(", "))));
        }
    }
    return rules;
}

QJsonObject identityJson(const QString &username, const Result<IdentityMapping> &mapping) {
    QJsonObject o{{QStringLiteral("username"), username}};
    if (mapping) {
        o.insert(QStringLiteral("scope"), scopeName(mapping->scope));
        o.insert(QStringLiteral("subject"), mapping->subject);
        o.insert(QStringLiteral("rule"), mapping->rule());
        o.insert(QStringLiteral("explanation"), mapping->explanation);
    } else {
        o.insert(QStringLiteral("error"), mapping.error().message);
    }
    return o;
}

} // namespace gq
