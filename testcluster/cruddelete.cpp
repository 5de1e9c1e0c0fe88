#include "testcluster/apicall.h"

#include <QJsonArray>

// delete (with preconditions; a namespace takes its contents with it at once) and
// deletecollection.

namespace gq::tc {

void ApiServer::handleDelete(ApiCall &call) {
    const ResourceInfo &info = resourceInfo(call.resource);
    // DeleteOptions; a body that does not parse counts as none.
    const QJsonObject options =
        call.req.body.empty() ? QJsonObject() : requestObject(call.req).value_or(QJsonObject());
    const QJsonObject pre = options.value(QLatin1String("preconditions")).toObject();
    std::unique_lock lock(m_store.mutex);
    const Entry *e = m_store.find(call.resource, call.ns, call.name);
    if (!e)
        return sendError(call.res, ApiError::notFound(info.qualifiedPlural(), call.name));
    QJsonObject obj = parseObject(e->json);
    QJsonObject meta = metaOf(obj);
    const QString preRv = pre.value(QLatin1String("resourceVersion")).toString();
    const QString preUid = pre.value(QLatin1String("uid")).toString();
    if (!preUid.isEmpty() && preUid != meta.value(QLatin1String("uid")).toString()) {
        ApiError c = ApiError::conflict(info.qualifiedPlural(), call.name);
        c.message =
            QStringLiteral("Operation cannot be fulfilled on %1 \"%2\": Precondition failed: UID in "
                           "precondition: %3, UID in object meta: %4")
                .arg(info.qualifiedPlural(), call.name, preUid, meta.value(QLatin1String("uid")).toString());
        return sendError(call.res, c);
    }
    if (!preRv.isEmpty() && preRv != meta.value(QLatin1String("resourceVersion")).toString()) {
        ApiError c = ApiError::conflict(info.qualifiedPlural(), call.name);
        c.message =
            QStringLiteral(
                "Operation cannot be fulfilled on %1 \"%2\": the ResourceVersion in the precondition (%3) "
                "does not match the ResourceVersion in record (%4). The object might have been modified")
                .arg(info.qualifiedPlural(), call.name, preRv,
                     meta.value(QLatin1String("resourceVersion")).toString());
        return sendError(call.res, c);
    }
    if (call.resource == Resource::Namespace || call.resource == Resource::Pod) {
        meta.insert(QLatin1String("deletionTimestamp"), nowStamp());
        if (call.resource == Resource::Pod)
            meta.insert(QLatin1String("deletionGracePeriodSeconds"), 0);
    }
    if (call.dryRun) {
        lock.unlock();
        setMeta(obj, meta);
        return sendJson(call.res, 200, withTypeMeta(obj, call.resource));
    }
    if (call.resource == Resource::Namespace) {
        // Namespace deletion cascades to everything in it at once (the namespace
        // controller's spec.finalizers "kubernetes" is done); only metadata.finalizers
        // (someone else's) keep it in Terminating until they are removed (handleUpdate).
        for (int i = 0; i < kResourceCount; ++i) {
            const auto r = static_cast<Resource>(i);
            if (!resourceInfo(r).namespaced)
                continue;
            std::vector<QString> names;
            auto [first, last] = m_store.range(r, call.name);
            for (auto it = first; it != last; ++it)
                names.push_back(it->second.name);
            for (const QString &n : names)
                m_store.remove(r, call.name, n);
        }
        QJsonObject status = obj.value(QLatin1String("status")).toObject();
        status.insert(QLatin1String("phase"), QLatin1String("Terminating"));
        obj.insert(QLatin1String("status"), status);
        if (!meta.value(QLatin1String("finalizers")).toArray().isEmpty()) {
            QJsonObject spec = obj.value(QLatin1String("spec")).toObject();
            spec.insert(QLatin1String("finalizers"), QJsonArray());
            obj.insert(QLatin1String("spec"), spec);
            setMeta(obj, meta);
            const Entry &stored = m_store.commit(call.resource, obj, "MODIFIED");
            const QByteArray body = withKind(call.resource, stored.json);
            retryPendingPods();
            lock.unlock();
            return sendJson(call.res, 200, body);
        }
    }
    QJsonObject last = m_store.remove(call.resource, call.ns, call.name);
    setMeta(obj, [&] {
        QJsonObject m = meta;
        m.insert(QLatin1String("resourceVersion"), metaOf(last).value(QLatin1String("resourceVersion")));
        return m;
    }());
    if (call.resource == Resource::Pod || call.resource == Resource::ResourceQuota)
        refreshQuotas(call.ns);
    if (call.resource == Resource::Pod || call.resource == Resource::Namespace)
        retryPendingPods(); // the room the pods held
    lock.unlock();
    sendJson(call.res, 200, withTypeMeta(obj, call.resource));
}

void ApiServer::handleDeleteCollection(ApiCall &call) {
    const ResourceInfo &info = resourceInfo(call.resource);
    const Result<Selectors> selectors = selectorsOf(call);
    if (!selectors)
        return sendError(call.res, selectors.error());
    std::unique_lock lock(m_store.mutex);
    std::vector<QString> names;
    QByteArray items;
    auto [first, last] = m_store.range(call.resource, call.ns);
    for (auto it = first; it != last; ++it) {
        if (selectors->matches(it->second)) {
            names.push_back(it->second.name);
            if (!items.isEmpty())
                items += ',';
            items += it->second.json;
        }
    }
    if (!call.dryRun) {
        for (const QString &n : names)
            m_store.remove(call.resource, call.ns, n);
        if (call.resource == Resource::Pod || call.resource == Resource::ResourceQuota)
            refreshQuotas(call.ns);
        if (call.resource == Resource::Pod)
            retryPendingPods();
    }
    const quint64 rv = m_store.currentRv();
    lock.unlock();
    QByteArray body = "{\"kind\":\"" + info.kind.toLatin1() + "List\",\"apiVersion\":\"" +
                      info.apiVersion().toLatin1() + "\",\"metadata\":{\"resourceVersion\":\"" +
                      QByteArray::number(rv) + "\"},\"items\":[" + items + "]}";
    sendJson(call.res, 200, body);
}

} // namespace gq::tc
