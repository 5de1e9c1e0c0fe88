#pragma once

#include "core/usage/budget.h"
#include "core/domain/error.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace gq {

class YamlNode;

// How the names Kubernetes authenticates become budget subjects. A budget user is a
// label value (the pods' gpuquota.io/user), but the API server's usernames are
// "alice@example.com", "oidc:alice", "https://issuer#sub",
// "system:serviceaccount:team-a:notebook" or an IAM ARN, none of which can be one. The
// rules below, in this order, turn a username into a subject:
//
//   1. users:          an exact username -> user table (ARNs, renamed people)
//   2. serviceAccounts: system:serviceaccount:NS:NAME -> the namespace NS's budget
//                       (`namespace`, the default) or no budget of its own (`none`)
//   3. stripPrefixes:   the first listed prefix the name starts with is removed
//                       (default "oidc:")
//   4. stripIssuer:     "https://ISSUER#SUB" -> SUB (default on; what the API server's
//                       OIDC authenticator makes of a non-e-mail claim without a prefix)
//   5. emailLocalPart:  "alice@example.com" -> "alice" (default on)
//
// What is left must be a label value ([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, at most
// 63 characters); otherwise the name cannot be mapped, and the error says why.
struct IdentityRules {
    enum class ServiceAccounts { Namespace, None };

    QMap<QString, QString> users;
    QStringList stripPrefixes = {QStringLiteral("oidc:")};
    bool stripIssuer = true;
    bool emailLocalPart = true;
    ServiceAccounts serviceAccounts = ServiceAccounts::Namespace;
};

// One username's subject and the steps that produced it.
struct IdentityMapping {
    QString username;
    BudgetScope scope = BudgetScope::User;
    QString subject;
    // "table", "service-account", "prefix", "issuer", "email", "as-is", in the order applied.
    QStringList steps;
    // For people: "alice@example.com → alice (e-mail local part)".
    QString explanation;

    [[nodiscard]] QString rule() const { return steps.join(QLatin1Char('+')); }
};

// The subject of `username` under `rules`. An Invalid error, whose message says why,
// when the name cannot be a budget subject (e.g. "system:anonymous", "bob smith").
[[nodiscard]] Result<IdentityMapping> mapIdentity(const QString &username, const IdentityRules &rules);
// The `identity` object self-service and `gpuquota identity map -o json` print:
// {username, scope, subject, rule, explanation}, or {username, error}.
[[nodiscard]] QJsonObject identityJson(const QString &username, const Result<IdentityMapping> &mapping);

// Whether `value` can be a Kubernetes label value (and so a budget user); when not and
// `why` is given, the reason.
[[nodiscard]] bool isLabelValue(const QString &value, QString *why = nullptr);

// The controller configuration's `identity:` section (null: the defaults). Each problem
// is appended to `errors` (kind Config) with its key ("identity.users[arn:...]") and
// the node's line and column; the rules read so far are returned either way.
[[nodiscard]] IdentityRules parseIdentityRules(const YamlNode &node, QList<Error> *errors);

} // namespace gq
