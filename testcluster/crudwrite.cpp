#include "testcluster/admission.h"
#include "testcluster/apicall.h"
#include "testcluster/kubelet.h"
#include "testcluster/patch.h"
#include "testcluster/webhooks.h"

#include <cstdio>

#include <QJsonArray>
#include <QRandomGenerator>
#include <QUuid>

// create, update (also of /status) and patch: system metadata, defaulting,
// validation and admission, then one commit and the quota controller's refresh.

namespace gq::tc {

namespace {

// A body may leave its namespace out (the URL's is filled in) but not name another.
std::optional<ApiError> namespaceMismatch(const QJsonObject &meta, const QString &urlNamespace) {
    const QString bodyNs = meta.value(QLatin1String("namespace")).toString();
    if (bodyNs.isEmpty() || bodyNs == urlNamespace)
        return std::nullopt;
    return ApiError::badRequest(QStringLiteral("the namespace of the provided object does not "
                                               "match the namespace sent on the request"));
}

// The 422 Invalid for validation errors, if there are any.
std::optional<ApiError> invalidIfAny(const QString &kind, const QString &name,
                                     const QList<FieldError> &errors) {
    if (errors.isEmpty())
        return std::nullopt;
    QJsonArray causes;
    for (const FieldError &e : errors)
        causes.append(e.toCause());
    return ApiError::invalid(kind, name, causes);
}

QJsonObject ignoringRvMeta(QJsonObject o) {
    QJsonObject m = metaOf(o);
    m.remove(QLatin1String("resourceVersion"));
    o.insert(QLatin1String("metadata"), m);
    return o;
}

// A created object's metadata as the API server sets it (namespace, generated name,
// uid, creation time, generation), its type meta dropped and its defaults applied; the
// error when the request cannot be an object of this kind.
std::optional<ApiError> prepareNewObject(const ApiCall &call, const ResourceInfo &info, QJsonObject &obj) {
    const QString kind = obj.value(QLatin1String("kind")).toString();
    if (!kind.isEmpty() && kind != info.kind)
        return ApiError::badRequest(
            QStringLiteral("the server could not process a %1 at this endpoint (expected %2)")
                .arg(kind, info.kind));
    QJsonObject meta = metaOf(obj);
    if (info.namespaced) {
        if (auto mismatch = namespaceMismatch(meta, call.ns))
            return *mismatch;
        meta.insert(QLatin1String("namespace"), call.ns);
    } else {
        meta.remove(QLatin1String("namespace"));
    }
    if (meta.value(QLatin1String("name")).toString().isEmpty()) {
        const QString generate = meta.value(QLatin1String("generateName")).toString();
        if (!generate.isEmpty()) {
            static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
            QString suffix;
            for (int i = 0; i < 5; ++i)
                suffix += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(27)]);
            meta.insert(QLatin1String("name"), QString(generate + suffix));
        }
    }
    if (!meta.value(QLatin1String("resourceVersion")).toString().isEmpty())
        return ApiError::internal(
            QStringLiteral("resourceVersion should not be set on objects to be created"));
    if (auto bad = checkDecodable(call.resource, obj))
        return *bad;
    meta.insert(QLatin1String("uid"), QUuid::createUuid().toString(QUuid::WithoutBraces));
    // Scenarios may backdate objects so a demo shows realistic ages.
    if (call.user.name != QLatin1String("scenario") || !meta.contains(QLatin1String("creationTimestamp")))
        meta.insert(QLatin1String("creationTimestamp"), nowStamp());
    meta.remove(QLatin1String("deletionTimestamp"));
    meta.remove(QLatin1String("managedFields"));
    if (call.resource == Resource::ResourceQuota || call.resource == Resource::LimitRange ||
        call.resource == Resource::Pod)
        meta.insert(QLatin1String("generation"), 1);
    setMeta(obj, meta);
    obj.remove(QLatin1String("kind"));
    obj.remove(QLatin1String("apiVersion"));
    applyDefaults(call.resource, obj);
    return std::nullopt;
}

// Nothing is created in a namespace that does not exist or is being deleted.
std::optional<ApiError> namespaceRefusal(const Store &store, const ResourceInfo &info, const QString &ns,
                                         const QString &name) {
    if (info.namespaced && !store.find(Resource::Namespace, {}, ns))
        return ApiError::notFound(QStringLiteral("namespaces"), ns);
    if (info.namespaced) {
        const Entry *nsEntry = store.find(Resource::Namespace, {}, ns);
        if (nsEntry->phase == QLatin1String("Terminating"))
            return ApiError::forbidden(
                info.qualifiedPlural(), name,
                QStringLiteral("unable to create new content in namespace %1 because it is being terminated")
                    .arg(ns));
    }
    return std::nullopt;
}

// An update's object with what the client does not own taken from the stored one:
// system metadata, status (or only status through /status), the namespace name label,
// the generation bumped on a spec change; defaults applied.
void mergeWithStored(const ApiCall &call, const ResourceInfo &info, const QJsonObject &old, QJsonObject &obj,
                     QJsonObject &meta) {
    // System-owned metadata comes from the stored object.
    const QJsonObject oldMeta = metaOf(old);
    for (const char *key :
         {"uid", "creationTimestamp", "generation", "deletionTimestamp", "resourceVersion"}) {
        if (oldMeta.contains(QLatin1String(key)))
            meta.insert(QLatin1String(key), oldMeta.value(QLatin1String(key)));
        else
            meta.remove(QLatin1String(key));
    }
    meta.remove(QLatin1String("managedFields"));
    obj.remove(QLatin1String("kind"));
    obj.remove(QLatin1String("apiVersion"));
    if (call.subresource == QLatin1String("status")) {
        // Only status changes through /status.
        QJsonObject merged = old;
        merged.insert(QLatin1String("status"), obj.value(QLatin1String("status")));
        obj = merged;
        meta = metaOf(old);
    } else if (info.hasStatus) {
        if (old.contains(QLatin1String("status")))
            obj.insert(QLatin1String("status"), old.value(QLatin1String("status")));
        else
            obj.remove(QLatin1String("status"));
    }
    if (call.resource == Resource::Namespace && call.subresource != QLatin1String("finalize"))
        meta.insert(QLatin1String("labels"), [&] {
            QJsonObject l = meta.value(QLatin1String("labels")).toObject();
            l.insert(QLatin1String("kubernetes.io/metadata.name"), call.name);
            return l;
        }());
    if (old.value(QLatin1String("spec")) != obj.value(QLatin1String("spec")) &&
        meta.contains(QLatin1String("generation")))
        meta.insert(QLatin1String("generation"), meta.value(QLatin1String("generation")).toInteger() + 1);
    setMeta(obj, meta);
    if (call.subresource.isEmpty())
        applyDefaults(call.resource, obj);
}

} // namespace

std::optional<ApiError> ApiServer::runValidatingWebhooks(ApiCall &call, std::unique_lock<std::mutex> &lock,
                                                         const QString &operation, const QJsonObject &object,
                                                         const QJsonObject &oldObject) {
    AdmissionRequest request;
    request.resource = call.resource;
    request.subresource = call.subresource;
    request.operation = operation;
    request.ns = call.ns;
    request.name = metaOf(object).value(QLatin1String("name")).toString();
    request.object = object;
    request.oldObject = oldObject;
    request.userName = call.user.name;
    request.userGroups = call.user.groups;
    request.dryRun = call.dryRun;
    const std::vector<WebhookTarget> targets = matchingWebhooks(m_store, request);
    if (targets.empty())
        return std::nullopt;
    lock.unlock();
    const WebhookOutcome outcome = callWebhooks(targets, request);
    for (const QString &w : outcome.warnings)
        call.res.set_header("Warning", toStd(QStringLiteral("299 - \"%1\"").arg(w).toUtf8()));
    if (m_config.verbose) {
        for (const QString &f : outcome.ignoredFailures)
            std::fprintf(stderr, "Failed calling webhook, failing open: %s\n", qPrintable(f));
    }
    lock.lock();
    return outcome.rejection;
}

Result<void> ApiServer::decodeStrictly(ApiCall &call, QJsonObject &object) {
    const ResourceInfo &info = resourceInfo(call.resource);
    const QString kind = info.kind;
    // io.k8s.api.core.v1.Pod, io.k8s.api.apps.v1.Deployment; kinds without a loaded document keep all fields.
    const QString package =
        info.group.isEmpty() ? QStringLiteral("core") : info.group.section(QLatin1Char('.'), 0, 0);
    const QStringList unknown =
        m_schema.pruneUnknown(QStringLiteral("io.k8s.api.%1.%2.%3").arg(package, info.version, kind), object);
    if (unknown.isEmpty())
        return {};
    const QString mode = param(call.req, "fieldValidation");
    if (mode == QLatin1String("Strict")) {
        QStringList parts;
        for (const QString &u : unknown)
            parts.append(QStringLiteral("unknown field \"%1\"").arg(u));
        return ApiError::badRequest(
                   kind +
                   QStringLiteral(" in version \"%1\" cannot be handled as a ").arg(info.apiVersion()) +
                   kind + QStringLiteral(": strict decoding error: ") + parts.join(QStringLiteral(", ")))
            .toError();
    }
    if (mode != QLatin1String("Ignore")) {
        for (const QString &u : unknown)
            call.res.set_header("Warning",
                                toStd(QStringLiteral("299 - \"unknown field \\\"%1\\\"\"").arg(u).toUtf8()));
    }
    return {};
}

void ApiServer::handleCreate(ApiCall &call) {
    const ResourceInfo &info = resourceInfo(call.resource);
    Result<QJsonObject> requested = requestObject(call.req);
    if (!requested)
        return sendError(call.res, requested.error());
    QJsonObject obj = std::move(requested).value();
    if (Result<void> decoded = decodeStrictly(call, obj); !decoded)
        return sendError(call.res, decoded.error());
    if (auto refused = prepareNewObject(call, info, obj))
        return sendError(call.res, *refused);
    const QString name = metaOf(obj).value(QLatin1String("name")).toString();

    std::unique_lock lock(m_store.mutex);
    if (auto refused = namespaceRefusal(m_store, info, call.ns, name))
        return sendError(call.res, *refused);
    if (call.resource == Resource::Pod) {
        obj.insert(QLatin1String("status"), podStatusFor(obj, QStringLiteral("Pending"), {}));
        if (auto denied = admitPodLimits(m_store, call.ns, obj))
            return sendError(call.res, *denied);
    } else {
        if (auto invalid =
                invalidIfAny(info.qualifiedKind(), name, validateObject(call.resource, obj, nullptr)))
            return sendError(call.res, *invalid);
    }
    if (auto denied = runValidatingWebhooks(call, lock, QStringLiteral("CREATE"), obj, {}))
        return sendError(call.res, *denied);
    if (info.namespaced && !m_store.find(Resource::Namespace, {}, call.ns))
        return sendError(call.res, ApiError::notFound(QStringLiteral("namespaces"), call.ns));
    if (call.resource == Resource::Pod) {
        if (auto denied = admitPodQuota(m_store, call.ns, obj))
            return sendError(call.res, *denied);
    }
    if (m_store.find(call.resource, call.ns, name))
        return sendError(call.res, ApiError::alreadyExists(info.qualifiedPlural(), name));
    if (call.resource == Resource::ResourceQuota) {
        // The API server clears a new quota's status; the quota controller fills it in.
        obj.remove(QLatin1String("status"));
        if (!m_quotaControllerPaused)
            obj.insert(QLatin1String("status"), computeQuotaStatus(m_store, obj));
    }
    if (call.dryRun) {
        lock.unlock();
        return sendJson(call.res, 201, withTypeMeta(obj, call.resource));
    }
    const Entry &stored = m_store.commit(call.resource, obj, "ADDED");
    const QByteArray body = withKind(call.resource, stored.json);
    if (call.resource == Resource::Pod) {
        refreshQuotas(call.ns);
        if (!m_config.podsStayPending)
            schedulePod(call.ns, name);
    } else if (call.resource == Resource::ResourceQuota) {
        refreshQuotas(call.ns); // count/resourcequotas in sibling quotas
    } else if (call.resource == Resource::Node) {
        retryPendingPods(); // room for the pods waiting
    }
    lock.unlock();
    sendJson(call.res, 201, body);
}

void ApiServer::handleUpdate(ApiCall &call, const QJsonObject &bodyIn, bool fromPatch) {
    const ResourceInfo &info = resourceInfo(call.resource);
    QJsonObject obj = bodyIn;
    if (Result<void> decoded = decodeStrictly(call, obj); !decoded)
        return sendError(call.res, decoded.error());
    QJsonObject meta = metaOf(obj);
    const QString bodyName = meta.value(QLatin1String("name")).toString();
    if (bodyName != call.name)
        return sendError(
            call.res,
            ApiError::badRequest(
                QStringLiteral("the name of the object (%1) does not match the name on the URL (%2)")
                    .arg(bodyName, call.name)));
    if (info.namespaced) {
        if (auto mismatch = namespaceMismatch(meta, call.ns))
            return sendError(call.res, *mismatch);
        meta.insert(QLatin1String("namespace"), call.ns);
    }
    if (auto bad = checkDecodable(call.resource, obj))
        return sendError(call.res, *bad);

    std::unique_lock lock(m_store.mutex);
    const Entry *existing = m_store.find(call.resource, call.ns, call.name);
    if (!existing) {
        if (call.resource == Resource::LimitRange && call.subresource.isEmpty() && !fromPatch) {
            lock.unlock();
            // LimitRange alone allows create-on-update (AllowCreateOnUpdate).
            meta.remove(QLatin1String("resourceVersion"));
            setMeta(obj, meta);
            return createFrom(call, toStd(toCompactJson(obj)));
        }
        return sendError(call.res, ApiError::notFound(info.qualifiedPlural(), call.name));
    }
    const QJsonObject old = parseObject(existing->json);
    const QJsonObject oldMeta = metaOf(old);
    const QString wantRv = meta.value(QLatin1String("resourceVersion")).toString();
    if (!wantRv.isEmpty() && wantRv != oldMeta.value(QLatin1String("resourceVersion")).toString())
        return sendError(call.res, ApiError::conflict(info.qualifiedPlural(), call.name));

    mergeWithStored(call, info, old, obj, meta);

    if (call.resource == Resource::Pod && call.subresource.isEmpty()) {
        if (auto refused = checkPodSpecUpdate(old, obj))
            return sendError(
                call.res, ApiError::invalid(info.qualifiedKind(), call.name, QJsonArray{refused->toCause()}));
    }
    if (call.subresource.isEmpty()) {
        if (auto invalid =
                invalidIfAny(info.qualifiedKind(), call.name, validateObject(call.resource, obj, &old)))
            return sendError(call.res, *invalid);
    }
    if (!(ignoringRvMeta(obj) == ignoringRvMeta(old))) {
        const quint64 rvBefore = existing->rv;
        if (auto denied = runValidatingWebhooks(call, lock, QStringLiteral("UPDATE"), obj, old))
            return sendError(call.res, *denied);
        // The lock was let go for the webhooks: someone else's change in between is a conflict.
        existing = m_store.find(call.resource, call.ns, call.name);
        if (!existing)
            return sendError(call.res, ApiError::notFound(info.qualifiedPlural(), call.name));
        if (existing->rv != rvBefore)
            return sendError(call.res, ApiError::conflict(info.qualifiedPlural(), call.name));
    }
    if (call.resource == Resource::ResourceQuota && call.subresource.isEmpty() && !m_quotaControllerPaused)
        obj.insert(QLatin1String("status"), computeQuotaStatus(m_store, obj));

    if (ignoringRvMeta(obj) == ignoringRvMeta(old) || call.dryRun) {
        // A no-op update keeps the resourceVersion and sends no event, like the API server.
        lock.unlock();
        return sendJson(call.res, 200, withTypeMeta(obj, call.resource));
    }
    if (call.resource == Resource::Namespace && meta.contains(QLatin1String("deletionTimestamp")) &&
        meta.value(QLatin1String("finalizers")).toArray().isEmpty()) {
        // The last finalizer of a Terminating namespace is gone: it goes too.
        m_store.remove(call.resource, call.ns, call.name);
        lock.unlock();
        return sendJson(call.res, 200, withTypeMeta(obj, call.resource));
    }
    const Entry &stored = m_store.commit(call.resource, obj, "MODIFIED");
    const QByteArray body = withKind(call.resource, stored.json);
    if (call.resource == Resource::Pod)
        refreshQuotas(call.ns);
    else if (call.resource == Resource::Node)
        retryPendingPods();
    lock.unlock();
    sendJson(call.res, 200, body);
}

void ApiServer::handlePatch(ApiCall &call) {
    const ResourceInfo &info = resourceInfo(call.resource);
    const QByteArray contentType = QByteArray::fromStdString(call.req.get_header_value("Content-Type"));
    const auto type = patchTypeFromContentType(contentType);
    if (!type)
        return sendError(call.res, ApiError::unsupportedMediaType(QString::fromLatin1(contentType)));
    const QByteArray patch = QByteArray::fromStdString(call.req.body);
    QJsonObject current;
    {
        std::lock_guard lock(m_store.mutex);
        const Entry *e = m_store.find(call.resource, call.ns, call.name);
        if (e) {
            current = parseObject(e->json);
        } else if (*type != PatchType::Apply) {
            return sendError(call.res, ApiError::notFound(info.qualifiedPlural(), call.name));
        }
    }
    if (*type == PatchType::Apply) {
        if (param(call.req, "fieldManager").isEmpty()) {
            FieldError fe{FieldError::Type::Required,
                          QStringLiteral("fieldManager"),
                          {},
                          QStringLiteral("is required for apply patch")};
            ApiError e = ApiError::invalid(QStringLiteral("PatchOptions.meta.k8s.io"), QString(),
                                           QJsonArray{fe.toCause()});
            e.kind = QStringLiteral("PatchOptions");
            return sendError(call.res, e);
        }
        if (current.isEmpty())
            return createFrom(call, call.req.body);
    }
    const QString rvBefore = metaOf(current).value(QLatin1String("resourceVersion")).toString();
    if (auto err = applyPatch(*type, patch, current))
        return sendError(call.res, *err);
    QJsonObject meta = metaOf(current);
    if (meta.value(QLatin1String("resourceVersion")).toString().isEmpty())
        meta.insert(QLatin1String("resourceVersion"), rvBefore);
    if (meta.value(QLatin1String("name")).toString().isEmpty())
        meta.insert(QLatin1String("name"), call.name);
    current.insert(QLatin1String("metadata"), meta);
    handleUpdate(call, current, true);
}

void ApiServer::createFrom(ApiCall &call, std::string body) {
    httplib::Request req;
    req.method = "POST";
    req.body = std::move(body);
    ApiCall create{req,         call.res, call.user, call.resource, call.ns, {}, {}, QStringLiteral("create"),
                   call.dryRun, {}};
    handleCreate(create);
}

} // namespace gq::tc
