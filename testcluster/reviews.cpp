#include "testcluster/apicall.h"

#include <QJsonArray>

// The review endpoints: SelfSubjectReview (kubectl auth whoami), SelfSubjectAccessReview
// (kubectl auth can-i) and SelfSubjectRulesReview (can-i --list), answered from the
// two built-in roles: the admin may do anything, the viewer may read; a user a test added
// may also do what its rules grant (SelfSubjectAccessReview). TokenReview and
// SubjectAccessReview, which a server (the controller's self-service endpoints) asks
// about someone else, also know the users tests add with `/_gq/users`.

namespace gq::tc {

namespace {

// kubectl auth whoami: the caller's name and groups.
QJsonObject selfSubjectReviewStatus(const ApiUser &user) {
    QJsonObject userInfo;
    userInfo.insert(QLatin1String("username"), user.name);
    userInfo.insert(QLatin1String("groups"), QJsonArray::fromStringList(user.groups));
    QJsonObject status;
    status.insert(QLatin1String("userInfo"), userInfo);
    return status;
}

// kubectl auth can-i --list: everything for the admin, reading for the viewer, and the
// reviews themselves for both.
QJsonObject selfSubjectRulesStatus(const ApiUser &user) {
    const QStringList verbs =
        user.admin ? QStringList{QStringLiteral("*")}
                   : QStringList{QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")};
    QJsonObject rule;
    rule.insert(QLatin1String("verbs"), QJsonArray::fromStringList(verbs));
    rule.insert(QLatin1String("apiGroups"), QJsonArray{user.admin ? QStringLiteral("*") : QString()});
    rule.insert(QLatin1String("resources"), QJsonArray{QStringLiteral("*")});
    QJsonObject reviews;
    reviews.insert(QLatin1String("verbs"), QJsonArray{QStringLiteral("create")});
    reviews.insert(QLatin1String("apiGroups"), QJsonArray{QStringLiteral("authorization.k8s.io"),
                                                          QStringLiteral("authentication.k8s.io")});
    reviews.insert(QLatin1String("resources"), QJsonArray{QStringLiteral("selfsubjectaccessreviews"),
                                                          QStringLiteral("selfsubjectrulesreviews"),
                                                          QStringLiteral("selfsubjectreviews")});
    QJsonObject nonResource;
    nonResource.insert(QLatin1String("verbs"),
                       QJsonArray{user.admin ? QStringLiteral("*") : QStringLiteral("get")});
    nonResource.insert(QLatin1String("nonResourceURLs"),
                       QJsonArray{user.admin ? QStringLiteral("*") : QStringLiteral("/version")});
    QJsonObject status;
    status.insert(QLatin1String("resourceRules"), QJsonArray{reviews, rule});
    status.insert(QLatin1String("nonResourceRules"), QJsonArray{nonResource});
    status.insert(QLatin1String("incomplete"), false);
    return status;
}

// Like the API server: false booleans and empty fields are left out.
QJsonObject tokenReviewStatus(const std::optional<ApiUser> &who, const QString &uid,
                              const QJsonObject &spec) {
    QJsonObject status;
    if (who) {
        status.insert(QLatin1String("authenticated"), true);
        QJsonObject user{{QStringLiteral("username"), who->name},
                         {QStringLiteral("groups"), QJsonArray::fromStringList(who->groups)}};
        if (!uid.isEmpty())
            user.insert(QLatin1String("uid"), uid);
        status.insert(QLatin1String("user"), user);
        const QJsonArray audiences = spec.value(QLatin1String("audiences")).toArray();
        status.insert(QLatin1String("audiences"),
                      audiences.isEmpty() ? QJsonArray{QStringLiteral("https://kubernetes.default.svc")}
                                          : audiences);
    } else {
        status.insert(QLatin1String("user"), QJsonObject());
        status.insert(QLatin1String("error"), QLatin1String("invalid bearer token"));
    }
    return status;
}

QJsonArray subjectAccessReviewCauses(const QJsonObject &attrs, const QJsonObject &nonRes,
                                     const AccessAttributes &a) {
    QJsonArray causes;
    if (attrs.isEmpty() == nonRes.isEmpty())
        causes.append(FieldError{FieldError::Type::Required,
                                 QStringLiteral("spec.resourceAttributes"),
                                 {},
                                 QStringLiteral("exactly one of nonResourceAttributes or resourceAttributes "
                                                "must be specified")}
                          .toCause());
    if (a.user.isEmpty() && a.groups.isEmpty())
        causes.append(FieldError{FieldError::Type::Invalid, QStringLiteral("spec.user"),
                                 QStringLiteral("\"\""),
                                 QStringLiteral("at least one of user or group must be specified")}
                          .toCause());
    return causes;
}

// The built-in roles (admin: anything; viewer: read), else the rules of a user a test added.
AccessVerdict subjectAccessVerdict(const AccessAttributes &a, bool read, const TestUsers &users) {
    AccessVerdict verdict;
    if (a.user == QLatin1String("gq-admin") || a.groups.contains(QLatin1String("system:masters")))
        verdict = {true, QStringLiteral("RBAC: allowed by ClusterRoleBinding \"gq-admins\" of ClusterRole "
                                        "\"cluster-admin\" to User \"%1\"")
                             .arg(a.user)};
    else if (read && (a.user == QLatin1String("gq-viewer") || a.groups.contains(QLatin1String("gq:viewers"))))
        verdict = {true, QStringLiteral("RBAC: allowed by ClusterRoleBinding \"gq-viewers\" of ClusterRole "
                                        "\"view\" to Group \"gq:viewers\"")};
    else if (const std::optional<AccessVerdict> added = users.authorize(a))
        verdict = *added;
    return verdict;
}

} // namespace

void ApiServer::handleReview(ApiCall &call) {
    const QString path = QString::fromStdString(call.req.path);
    Result<QJsonObject> body = requestObject(call.req);
    if (!body)
        return sendError(call.res, body.error());
    QJsonObject review = std::move(body).value();
    const QString apiVersion = path.section(QLatin1Char('/'), 2, 3);
    QJsonObject meta;
    meta.insert(QLatin1String("creationTimestamp"), QJsonValue());
    review.insert(QLatin1String("metadata"), meta);
    review.insert(QLatin1String("apiVersion"), apiVersion);
    if (path.endsWith(QLatin1String("/tokenreviews")))
        return handleDelegatedReview(call, QStringLiteral("tokenreviews"), std::move(review));
    if (path.endsWith(QLatin1String("/subjectaccessreviews")) &&
        !path.endsWith(QLatin1String("selfsubjectaccessreviews")))
        return handleDelegatedReview(call, QStringLiteral("subjectaccessreviews"), std::move(review));
    const ApiUser &user = call.user;
    const QString userText = QStringLiteral("User \"%1\"").arg(user.name);
    if (path.endsWith(QLatin1String("selfsubjectreviews"))) {
        review.insert(QLatin1String("kind"), QLatin1String("SelfSubjectReview"));
        review.insert(QLatin1String("status"), selfSubjectReviewStatus(user));
        return sendJson(call.res, 201, toCompactJson(review));
    }
    if (path.endsWith(QLatin1String("selfsubjectrulesreviews"))) {
        review.insert(QLatin1String("kind"), QLatin1String("SelfSubjectRulesReview"));
        review.insert(QLatin1String("status"), selfSubjectRulesStatus(user));
        return sendJson(call.res, 201, toCompactJson(review));
    }
    review.insert(QLatin1String("kind"), QLatin1String("SelfSubjectAccessReview"));
    const QJsonObject spec = review.value(QLatin1String("spec")).toObject();
    const QJsonObject attrs = spec.value(QLatin1String("resourceAttributes")).toObject();
    const QJsonObject nonRes = spec.value(QLatin1String("nonResourceAttributes")).toObject();
    if (attrs.isEmpty() && nonRes.isEmpty()) {
        FieldError fe{
            FieldError::Type::Required,
            QStringLiteral("spec.resourceAttributes"),
            {},
            QStringLiteral("exactly one of nonResourceAttributes or resourceAttributes must be specified")};
        return sendError(call.res,
                         ApiError::invalid(QStringLiteral("SelfSubjectAccessReview.authorization.k8s.io"),
                                           QString(), QJsonArray{fe.toCause()}));
    }
    const QString verb = (attrs.isEmpty() ? nonRes : attrs).value(QLatin1String("verb")).toString();
    const bool read =
        verb == QLatin1String("get") || verb == QLatin1String("list") || verb == QLatin1String("watch");
    const QString resource = attrs.value(QLatin1String("resource")).toString();
    const bool reviewResource =
        resource.startsWith(QLatin1String("selfsubject")) && verb == QLatin1String("create");
    // A user a test added answers by its rules (a Role in one namespace is not the cluster scope).
    std::optional<AccessVerdict> added;
    if (!user.admin && !attrs.isEmpty()) {
        AccessAttributes a;
        a.user = user.name;
        a.groups = user.groups;
        a.ns = attrs.value(QLatin1String("namespace")).toString();
        a.verb = verb;
        a.group = attrs.value(QLatin1String("group")).toString();
        a.plural = resource;
        added = m_users.authorize(a);
    }
    const bool grantedByRule = added && added->allowed;
    const bool allowed = user.admin || read || reviewResource || grantedByRule;
    QJsonObject status;
    status.insert(QLatin1String("allowed"), allowed);
    if (grantedByRule && !read)
        status.insert(QLatin1String("reason"), added->reason);
    else if (allowed)
        status.insert(QLatin1String("reason"),
                      user.admin ? QStringLiteral("RBAC: allowed by ClusterRoleBinding \"gq-admins\" of "
                                                  "ClusterRole \"cluster-admin\" to %1")
                                       .arg(userText)
                                 : QStringLiteral("RBAC: allowed by ClusterRoleBinding \"gq-viewers\" of "
                                                  "ClusterRole \"view\" to Group \"gq:viewers\""));
    review.insert(QLatin1String("status"), status);
    sendJson(call.res, 201, toCompactJson(review));
}

void ApiServer::handleDelegatedReview(ApiCall &call, const QString &resource, QJsonObject review) {
    const bool tokenReview = resource == QLatin1String("tokenreviews");
    const QString group =
        tokenReview ? QStringLiteral("authentication.k8s.io") : QStringLiteral("authorization.k8s.io");
    // As with RBAC's system:auth-delegator: only a privileged caller may ask about others.
    if (!call.user.admin)
        return sendError(
            call.res, ApiError::forbidden(resource + QLatin1Char('.') + group, {},
                                          QStringLiteral("User \"%1\" cannot create resource \"%2\" in API "
                                                         "group \"%3\" at the cluster scope")
                                              .arg(call.user.name, resource, group)));
    const QJsonObject spec = review.value(QLatin1String("spec")).toObject();
    QJsonObject status;
    if (tokenReview) {
        review.insert(QLatin1String("kind"), QLatin1String("TokenReview"));
        const QString token = spec.value(QLatin1String("token")).toString();
        std::optional<ApiUser> who;
        if (!token.isEmpty() && token == m_config.adminToken)
            who = ApiUser{QStringLiteral("gq-admin"),
                          {QStringLiteral("system:masters"), QStringLiteral("system:authenticated")},
                          true,
                          true};
        else if (!token.isEmpty() && token == m_config.readonlyToken)
            who = ApiUser{QStringLiteral("gq-viewer"),
                          {QStringLiteral("gq:viewers"), QStringLiteral("system:authenticated")},
                          false,
                          true};
        QString uid;
        if (!who && !token.isEmpty()) {
            if (const std::optional<TestUser> added = m_users.byToken(token)) {
                who = ApiUser{added->name, added->groups, false, true};
                uid = added->uid;
            }
        }
        review.insert(QLatin1String("status"), tokenReviewStatus(who, uid, spec));
        return sendJson(call.res, 201, toCompactJson(review));
    }

    review.insert(QLatin1String("kind"), QLatin1String("SubjectAccessReview"));
    AccessAttributes a;
    a.user = spec.value(QLatin1String("user")).toString();
    for (const QJsonValue &g : spec.value(QLatin1String("groups")).toArray())
        a.groups.append(g.toString());
    const QJsonObject attrs = spec.value(QLatin1String("resourceAttributes")).toObject();
    const QJsonObject nonRes = spec.value(QLatin1String("nonResourceAttributes")).toObject();
    const QJsonArray causes = subjectAccessReviewCauses(attrs, nonRes, a);
    if (!causes.isEmpty())
        return sendError(
            call.res,
            ApiError::invalid(QStringLiteral("SubjectAccessReview.authorization.k8s.io"), QString(), causes));
    a.resource = !attrs.isEmpty();
    const QJsonObject &used = a.resource ? attrs : nonRes;
    a.verb = used.value(QLatin1String("verb")).toString();
    a.ns = attrs.value(QLatin1String("namespace")).toString();
    a.group = attrs.value(QLatin1String("group")).toString();
    a.plural = attrs.value(QLatin1String("resource")).toString();
    a.path = nonRes.value(QLatin1String("path")).toString();
    const bool read =
        a.verb == QLatin1String("get") || a.verb == QLatin1String("list") || a.verb == QLatin1String("watch");
    const AccessVerdict verdict = subjectAccessVerdict(a, read, m_users);
    status.insert(QLatin1String("allowed"), verdict.allowed);
    if (!verdict.reason.isEmpty())
        status.insert(QLatin1String("reason"), verdict.reason);
    review.insert(QLatin1String("status"), status);
    sendJson(call.res, 201, toCompactJson(review));
}

// GET /_gq/users, POST /_gq/users {"name","token","groups","rules"}, DELETE /_gq/users/{name}.
ApiServer::HookReply ApiServer::usersHook(const QByteArray &method, const QStringList &segs,
                                          const QJsonObject &in) {
    auto reply = [](int code, const QJsonObject &o) { return HookReply{code, toCompactJson(o)}; };
    auto bad = [](int code, const QString &message) {
        return HookReply{code,
                         ApiError{code,
                                  code == 404 ? QStringLiteral("NotFound") : QStringLiteral("BadRequest"),
                                  message,
                                  {},
                                  {},
                                  {},
                                  0}
                             .toJson()};
    };
    if (segs.size() == 2 && method == "GET")
        return reply(200, QJsonObject{{QStringLiteral("users"), m_users.list()}});
    if (segs.size() == 2 && (method == "POST" || method == "PUT")) {
        Result<TestUser> user = TestUsers::fromJson(in);
        if (!user)
            return bad(400, QStringLiteral("users: ") + user.error().message);
        if (user->token == m_config.adminToken || user->token == m_config.readonlyToken)
            return bad(400, QStringLiteral("users: token: already the admin's or the viewer's token"));
        const QJsonObject shown = TestUsers::toJson(*user);
        m_users.add(std::move(*user));
        return reply(201, shown);
    }
    if (segs.size() == 3 && method == "DELETE") {
        if (!m_users.remove(segs[2]))
            return bad(404, QStringLiteral("users: no user \"%1\"").arg(segs[2]));
        return reply(200, QJsonObject{{QStringLiteral("deleted"), segs[2]}});
    }
    return bad(404,
               QStringLiteral("unknown hook ") + QString::fromLatin1(method) + QStringLiteral(" /_gq/users"));
}

} // namespace gq::tc
