#pragma once

#include "core/domain/result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <map>
#include <mutex>
#include <optional>

namespace gq::tc {

// Users that tests add at run time (`/_gq/users`), each with a bearer token and
// RBAC-like rules, so TokenReview and SubjectAccessReview have someone to answer
// about besides the built-in admin and viewer. Thread-safe.
//
// A rule grants `verbs` on `resources` (API groups are not distinguished) in the
// listed `namespaces`; "*" in namespaces is a ClusterRoleBinding: every namespace
// and the cluster scope (a request for all namespaces). "*" in verbs or resources
// matches any.
struct TestUserRule {
    QStringList namespaces;
    QStringList verbs;
    QStringList resources;
};

struct TestUser {
    QString name;
    QString uid;
    QString token;
    QStringList groups;
    QList<TestUserRule> rules;
};

// What a SubjectAccessReview asks about.
struct AccessAttributes {
    QString user;
    QStringList groups;
    bool resource = true; // false: nonResourceAttributes (path + verb)
    QString ns;
    QString verb;
    QString group;
    QString plural;
    QString path;
};

struct AccessVerdict {
    bool allowed = false;
    QString reason;
};

class TestUsers {
public:
    // From the hook's body: {"name", "token", "groups": [...], "rules": [...]}. The
    // error (kind Invalid) names the field.
    static Result<TestUser> fromJson(const QJsonObject &o);
    static QJsonObject toJson(const TestUser &u); // without the token

    void add(TestUser user); // replaces a user of the same name
    bool remove(const QString &name);
    [[nodiscard]] QJsonArray list() const;
    [[nodiscard]] std::optional<TestUser> byToken(const QString &token) const;

    // The answer for an added user (by name); nullopt for a name nobody added.
    [[nodiscard]] std::optional<AccessVerdict> authorize(const AccessAttributes &a) const;

private:
    mutable std::mutex m_mutex;
    std::map<QString, TestUser> m_users;
};

} // namespace gq::tc
