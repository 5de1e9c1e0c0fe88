#include "testcluster/apicall.h"

#include <QJsonArray>

// The router: from method and path to a handler, with authorization (the read-only
// user may read everything and change nothing) and the checks common to all verbs.

namespace gq::tc {

namespace {

// What a /api/v1/... path names.
struct Route {
    Resource resource = Resource::Namespace;
    QString ns;
    QString name;
    QString subresource;
    bool collection = false;
    bool allNamespaces = false; // /api/v1/pods: a list across namespaces, GET only
    bool legacyWatch = false;   // /api/v1/watch/...
};

// /api/v1/... (core) or /apis/GROUP/VERSION/...: the group, version and what follows.
std::optional<Route> routeOf(const QStringList &segs) {
    QString group;
    QString version;
    QStringList rest;
    if (segs.size() >= 3 && segs[0] == QLatin1String("api") && segs[1] == QLatin1String("v1")) {
        version = segs[1];
        rest = segs.mid(2);
    } else if (segs.size() >= 4 && segs[0] == QLatin1String("apis")) {
        group = segs[1];
        version = segs[2];
        rest = segs.mid(3);
    } else {
        return std::nullopt;
    }
    Route route;
    if (rest.first() == QLatin1String("watch")) {
        route.legacyWatch = true;
        rest.removeFirst();
    }
    if (rest.isEmpty())
        return std::nullopt;
    // NAME, or NAME/status where the kind has a status subresource.
    auto takeName = [&route](const QStringList &tail, Resource r) {
        if (tail.size() == 1 ||
            (tail.size() == 2 && tail[1] == QLatin1String("status") && resourceInfo(r).hasStatus)) {
            route.name = tail[0];
            route.subresource = tail.value(1);
            return true;
        }
        return false;
    };
    const bool namespacesPath = group.isEmpty() && rest[0] == QLatin1String("namespaces");
    if (!namespacesPath && (rest[0] != QLatin1String("namespaces") || rest.size() == 1)) {
        const auto r = resourceFromPlural(group, version, rest[0]);
        if (!r)
            return std::nullopt;
        route.resource = *r;
        if (rest.size() == 1) {
            route.collection = true;
            route.allNamespaces = resourceInfo(*r).namespaced;
            return route;
        }
        if (resourceInfo(*r).namespaced || !takeName(rest.mid(1), *r))
            return std::nullopt;
        return route;
    }
    if (namespacesPath) {
        route.resource = Resource::Namespace;
        if (rest.size() == 1) {
            route.collection = true;
            return route;
        }
        if (rest.size() == 2 || (rest.size() == 3 && (rest[2] == QLatin1String("status") ||
                                                      rest[2] == QLatin1String("finalize")))) {
            route.name = rest[1];
            route.subresource = rest.value(2);
            return route;
        }
    }
    if (rest.size() < 3)
        return std::nullopt;
    const auto r = resourceFromPlural(group, version, rest[2]);
    if (!r || !resourceInfo(*r).namespaced)
        return std::nullopt;
    route.resource = *r;
    route.ns = rest[1];
    if (rest.size() == 3) {
        route.collection = true;
        return route;
    }
    if (!takeName(rest.mid(3), *r))
        return std::nullopt;
    return route;
}

bool isReviewPath(const QStringList &segs) {
    if (segs.size() != 4 || segs[0] != QLatin1String("apis"))
        return false;
    if (segs[1] == QLatin1String("authorization.k8s.io"))
        return segs[2] == QLatin1String("v1") && (segs[3] == QLatin1String("selfsubjectaccessreviews") ||
                                                  segs[3] == QLatin1String("selfsubjectrulesreviews") ||
                                                  segs[3] == QLatin1String("subjectaccessreviews"));
    if (segs[1] == QLatin1String("authentication.k8s.io") && segs[2] == QLatin1String("v1") &&
        segs[3] == QLatin1String("tokenreviews"))
        return true;
    return segs[1] == QLatin1String("authentication.k8s.io") &&
           (segs[2] == QLatin1String("v1") || segs[2] == QLatin1String("v1beta1")) &&
           segs[3] == QLatin1String("selfsubjectreviews");
}

// The verb RBAC would see; empty when the method does not apply to the URL.
QString verbOf(const std::string &method, bool collection, bool watch) {
    if (method == "GET")
        return collection ? (watch ? QStringLiteral("watch") : QStringLiteral("list"))
                          : QStringLiteral("get");
    if (method == "POST" && collection)
        return QStringLiteral("create");
    if (method == "PUT" && !collection)
        return QStringLiteral("update");
    if (method == "PATCH" && !collection)
        return QStringLiteral("patch");
    if (method == "DELETE")
        return collection ? QStringLiteral("deletecollection") : QStringLiteral("delete");
    return {};
}

// A user a test added (`/_gq/users`) writes what its rules grant, as RBAC would.
std::optional<ApiError> forbidden(const ApiCall &call, const TestUsers &users) {
    const bool readVerb = call.verb == QLatin1String("get") || call.verb == QLatin1String("list") ||
                          call.verb == QLatin1String("watch");
    if (call.user.admin || readVerb)
        return std::nullopt;
    const ResourceInfo &info = resourceInfo(call.resource);
    AccessAttributes attrs;
    attrs.user = call.user.name;
    attrs.groups = call.user.groups;
    attrs.ns = call.ns;
    attrs.verb = call.verb;
    attrs.group = info.group;
    attrs.plural = info.plural;
    if (const std::optional<AccessVerdict> v = users.authorize(attrs); v && v->allowed)
        return std::nullopt;
    const QString resource =
        call.subresource.isEmpty() ? info.plural : info.plural + QLatin1Char('/') + call.subresource;
    QString why = QStringLiteral("User \"%1\" cannot %2 resource \"%3\" in API group \"%4\"")
                      .arg(call.user.name, call.verb, resource, info.group);
    why += call.ns.isEmpty() ? QStringLiteral(" at the cluster scope")
                             : QStringLiteral(" in the namespace \"%1\"").arg(call.ns);
    return ApiError::forbidden(info.qualifiedPlural(), call.name, why);
}

// dryRun takes "All" only, as the API server's options validation says.
ApiError badDryRun(const QString &verb, const QString &value) {
    const QString optionsKind = verb == QLatin1String("create")   ? QStringLiteral("CreateOptions")
                                : verb == QLatin1String("update") ? QStringLiteral("UpdateOptions")
                                : verb == QLatin1String("patch")  ? QStringLiteral("PatchOptions")
                                                                  : QStringLiteral("DeleteOptions");
    FieldError fe{FieldError::Type::NotSupported, QStringLiteral("dryRun"),
                  QStringLiteral("[\"") + value + QStringLiteral("\"]"),
                  QStringLiteral("supported values: \"All\"")};
    ApiError e =
        ApiError::invalid(optionsKind + QStringLiteral(".meta.k8s.io"), QString(), QJsonArray{fe.toCause()});
    e.kind = optionsKind;
    return e;
}

// "v1" or "v1beta1" if the client prefers a meta.k8s.io Table (kubectl get).
QString tableVersionFromAccept(const std::string &accept) {
    const QString a = QString::fromStdString(accept);
    for (const QString &part : a.split(QLatin1Char(','))) {
        if (!part.contains(QLatin1String("as=Table")) || !part.contains(QLatin1String("g=meta.k8s.io")))
            continue;
        if (part.contains(QLatin1String("v=v1beta1")))
            return QStringLiteral("v1beta1");
        if (part.contains(QLatin1String("v=v1")))
            return QStringLiteral("v1");
    }
    return {};
}

} // namespace

void ApiServer::handleApi(ApiCall &call) {
    const httplib::Request &req = call.req;
    httplib::Response &res = call.res;
    if (serveDiscovery(call))
        return;
    const QStringList segs = QString::fromStdString(req.path).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (isReviewPath(segs)) {
        if (req.method != "POST")
            return sendError(res, ApiError::methodNotAllowed());
        return handleReview(call);
    }
    if (servePodProxy(call, segs))
        return;
    const std::optional<Route> route = routeOf(segs);
    if (!route)
        return sendError(res, ApiError::pathNotFound());
    if (route->allNamespaces && req.method != "GET")
        return sendError(res, ApiError::methodNotAllowed());
    call.resource = route->resource;
    call.ns = route->ns;
    call.name = route->name;
    call.subresource = route->subresource;
    call.verb = verbOf(req.method, route->collection, route->legacyWatch || boolParam(req, "watch"));
    if (call.verb.isEmpty() ||
        (call.resource == Resource::Namespace && call.verb == QLatin1String("deletecollection")))
        return sendError(res, ApiError::methodNotAllowed());
    if (auto denied = forbidden(call, m_users))
        return sendError(res, *denied);
    if (req.has_param("dryRun")) {
        const QString dry = param(req, "dryRun");
        if (dry != QLatin1String("All"))
            return sendError(res, badDryRun(call.verb, dry));
        call.dryRun = true;
    }
    call.tableVersion = tableVersionFromAccept(req.get_header_value("Accept"));

    if (call.verb == QLatin1String("get"))
        return handleGet(call);
    if (call.verb == QLatin1String("list"))
        return handleList(call);
    if (call.verb == QLatin1String("watch"))
        return handleWatch(call);
    if (call.verb == QLatin1String("create"))
        return handleCreate(call);
    if (call.verb == QLatin1String("update")) {
        const Result<QJsonObject> body = requestObject(req);
        if (!body)
            return sendError(res, body.error());
        return handleUpdate(call, *body, false);
    }
    if (call.verb == QLatin1String("patch"))
        return handlePatch(call);
    if (call.verb == QLatin1String("delete"))
        return handleDelete(call);
    return handleDeleteCollection(call);
}

} // namespace gq::tc
