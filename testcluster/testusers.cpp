#include "testusers.h"

#include <QCryptographicHash>

namespace gq::tc {

namespace {

bool matches(const QStringList &allowed, const QString &value) {
    return allowed.contains(QLatin1String("*")) || allowed.contains(value);
}

std::optional<QStringList> stringList(const QJsonObject &o, const QString &key, const QString &where,
                                      QString *error) {
    const QJsonValue v = o.value(key);
    if (v.isUndefined())
        return QStringList{};
    if (!v.isArray()) {
        *error = QStringLiteral("%1%2: must be a list of strings").arg(where, key);
        return std::nullopt;
    }
    QStringList out;
    for (const QJsonValue &e : v.toArray()) {
        if (!e.isString() || e.toString().isEmpty()) {
            *error = QStringLiteral("%1%2: must be a list of non-empty strings").arg(where, key);
            return std::nullopt;
        }
        out.append(e.toString());
    }
    return out;
}

} // namespace

std::optional<TestUser> TestUsers::fromJson(const QJsonObject &o, QString *error) {
    TestUser u;
    u.name = o.value(QLatin1String("name")).toString();
    if (u.name.isEmpty()) {
        *error = QStringLiteral("name: required");
        return std::nullopt;
    }
    u.token = o.value(QLatin1String("token")).toString();
    if (u.token.isEmpty()) {
        *error = QStringLiteral("token: required");
        return std::nullopt;
    }
    const auto groups = stringList(o, QStringLiteral("groups"), {}, error);
    if (!groups)
        return std::nullopt;
    u.groups = *groups;
    if (!u.groups.contains(QLatin1String("system:authenticated")))
        u.groups.append(QStringLiteral("system:authenticated"));
    // A stable uid, as the API server gives a ServiceAccount or an OIDC subject one.
    u.uid = QString::fromLatin1(
        QCryptographicHash::hash(u.name.toUtf8(), QCryptographicHash::Sha256).toHex().left(32));
    const QJsonArray rules = o.value(QLatin1String("rules")).toArray();
    for (qsizetype i = 0; i < rules.size(); ++i) {
        const QJsonObject r = rules.at(i).toObject();
        const QString where = QStringLiteral("rules[%1].").arg(i);
        TestUserRule rule;
        const auto ns = stringList(r, QStringLiteral("namespaces"), where, error);
        const auto verbs = stringList(r, QStringLiteral("verbs"), where, error);
        const auto resources = stringList(r, QStringLiteral("resources"), where, error);
        if (!ns || !verbs || !resources)
            return std::nullopt;
        if (ns->isEmpty() || verbs->isEmpty() || resources->isEmpty()) {
            *error = where + QStringLiteral("namespaces, verbs and resources: each needs at least one entry");
            return std::nullopt;
        }
        rule.namespaces = *ns;
        rule.verbs = *verbs;
        rule.resources = *resources;
        u.rules.append(rule);
    }
    return u;
}

QJsonObject TestUsers::toJson(const TestUser &u) {
    QJsonArray rules;
    for (const TestUserRule &r : u.rules)
        rules.append(QJsonObject{{QStringLiteral("namespaces"), QJsonArray::fromStringList(r.namespaces)},
                                 {QStringLiteral("verbs"), QJsonArray::fromStringList(r.verbs)},
                                 {QStringLiteral("resources"), QJsonArray::fromStringList(r.resources)}});
    return QJsonObject{{QStringLiteral("name"), u.name},
                       {QStringLiteral("uid"), u.uid},
                       {QStringLiteral("groups"), QJsonArray::fromStringList(u.groups)},
                       {QStringLiteral("rules"), rules}};
}

void TestUsers::add(TestUser user) {
    std::lock_guard lock(m_mutex);
    const QString name = user.name;
    m_users[name] = std::move(user);
}

bool TestUsers::remove(const QString &name) {
    std::lock_guard lock(m_mutex);
    return m_users.erase(name) > 0;
}

QJsonArray TestUsers::list() const {
    std::lock_guard lock(m_mutex);
    QJsonArray out;
    for (const auto &[name, u] : m_users)
        out.append(toJson(u));
    return out;
}

std::optional<TestUser> TestUsers::byToken(const QString &token) const {
    std::lock_guard lock(m_mutex);
    for (const auto &[name, u] : m_users)
        if (u.token == token)
            return u;
    return std::nullopt;
}

std::optional<AccessVerdict> TestUsers::authorize(const AccessAttributes &a) const {
    std::lock_guard lock(m_mutex);
    const auto it = m_users.find(a.user);
    if (it == m_users.end())
        return std::nullopt;
    if (!a.resource)
        return AccessVerdict{};
    const TestUser &u = it->second;
    for (const TestUserRule &r : u.rules) {
        if (!matches(r.verbs, a.verb) || !matches(r.resources, a.plural))
            continue;
        const bool cluster = r.namespaces.contains(QLatin1String("*"));
        if (!cluster && (a.ns.isEmpty() || !r.namespaces.contains(a.ns)))
            continue;
        const QString binding =
            cluster
                ? QStringLiteral("ClusterRoleBinding \"gq-test-%1\" of ClusterRole \"gq-test-%1\"")
                      .arg(u.name)
                : QStringLiteral("RoleBinding \"gq-test-%1/%2\" of Role \"gq-test-%1\"").arg(u.name, a.ns);
        return AccessVerdict{true, QStringLiteral("RBAC: allowed by %1 to User \"%2\"").arg(binding, u.name)};
    }
    return AccessVerdict{};
}

} // namespace gq::tc
