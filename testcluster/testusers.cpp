#include "testcluster/testusers.h"

#include <QCryptographicHash>

namespace gq::tc {

namespace {

bool matches(const QStringList &allowed, const QString &value) {
    return allowed.contains(QLatin1String("*")) || allowed.contains(value);
}

Error invalid(const QString &field, const QString &message) {
    return Error::make(Error::Kind::Invalid, QStringLiteral("%1: %2").arg(field, message), field);
}

Result<QStringList> stringList(const QJsonObject &o, const QString &key, const QString &where) {
    const QJsonValue v = o.value(key);
    if (v.isUndefined())
        return QStringList{};
    if (!v.isArray()) {
        return invalid(where + key, QStringLiteral("must be a list of strings"));
    }
    QStringList out;
    for (const QJsonValue &e : v.toArray()) {
        if (!e.isString() || e.toString().isEmpty()) {
            return invalid(where + key, QStringLiteral("must be a list of non-empty strings"));
        }
        out.append(e.toString());
    }
    return out;
}

} // namespace

Result<TestUser> TestUsers::fromJson(const QJsonObject &o) {
    TestUser u;
    u.name = o.value(QLatin1String("name")).toString();
    if (u.name.isEmpty()) {
        return invalid(QStringLiteral("name"), QStringLiteral("required"));
    }
    u.token = o.value(QLatin1String("token")).toString();
    if (u.token.isEmpty()) {
        return invalid(QStringLiteral("token"), QStringLiteral("required"));
    }
    const auto groups = stringList(o, QStringLiteral("groups"), {});
    if (!groups)
        return groups.error();
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
        const auto ns = stringList(r, QStringLiteral("namespaces"), where);
        if (!ns)
            return ns.error();
        const auto verbs = stringList(r, QStringLiteral("verbs"), where);
        if (!verbs)
            return verbs.error();
        const auto resources = stringList(r, QStringLiteral("resources"), where);
        if (!resources)
            return resources.error();
        if (ns->isEmpty() || verbs->isEmpty() || resources->isEmpty())
            return invalid(where + QStringLiteral("namespaces, verbs and resources"),
                           QStringLiteral("each needs at least one entry"));
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
