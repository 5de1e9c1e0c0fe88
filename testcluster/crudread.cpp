#include "testcluster/apicall.h"
#include "testcluster/queryparams.h"
#include "testcluster/tables.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

// get and list, as JSON or as the Table kubectl asks for; lists page with
// limit/continue over a snapshot resourceVersion, as etcd-backed lists do.

namespace gq::tc {

void ApiServer::handleGet(ApiCall &call) {
    std::unique_lock lock(m_store.mutex);
    const Entry *e = m_store.find(call.resource, call.ns, call.name);
    if (!e)
        return sendError(call.res,
                         ApiError::notFound(resourceInfo(call.resource).qualifiedPlural(), call.name));
    if (!call.tableVersion.isEmpty()) {
        QJsonObject meta;
        meta.insert(QLatin1String("resourceVersion"), QString::number(e->rv));
        const QJsonArray rows{tableRow(call.resource, parseObject(e->json),
                                       includeObjectFrom(param(call.req, "includeObject")),
                                       QDateTime::currentDateTimeUtc())};
        lock.unlock();
        return sendJson(call.res, 200,
                        toCompactJson(tableDocument(call.resource, call.tableVersion, meta, rows)),
                        tableContentType(call.tableVersion));
    }
    const QByteArray body = withKind(call.resource, e->json);
    lock.unlock();
    sendJson(call.res, 200, body);
}

void ApiServer::handleList(ApiCall &call) {
    const httplib::Request &req = call.req;
    const Result<Selectors> selectors = selectorsOf(call);
    if (!selectors)
        return sendError(call.res, selectors.error());
    const qint64 limit = param(req, "limit").toLongLong();
    ContinueToken from;
    const QString cont = param(req, "continue");
    if (!cont.isEmpty()) {
        const auto token = decodeContinueToken(cont);
        if (!token)
            return sendError(call.res, ApiError::badRequest(QStringLiteral(
                                           "continue key is not valid: invalid continue token")));
        from = *token;
    }
    quint64 listRv = from.resourceVersion;
    const bool table = !call.tableVersion.isEmpty();
    const IncludeObject include = includeObjectFrom(param(req, "includeObject"));
    const QDateTime now = QDateTime::currentDateTimeUtc();

    QByteArray items;
    QJsonArray rows;
    QString nextKey;
    qint64 remaining = -1;
    {
        std::lock_guard lock(m_store.mutex);
        if (listRv == 0) {
            listRv = m_store.currentRv();
        } else if (listRv < m_store.compactedRv()) {
            // The snapshot a continue token refers to is gone, as after an etcd compaction.
            return sendError(call.res, ApiError::gone(QStringLiteral(
                                           "The provided continue parameter is too old to display a "
                                           "consistent list result. You can start a new list without "
                                           "the continue parameter, or use the continue token in this "
                                           "response to retrieve the remainder of the results.")));
        }
        auto [first, last] = m_store.range(call.resource, call.ns);
        auto it = first;
        if (!from.startKey.isEmpty()) {
            it = m_store.map(call.resource).lower_bound(from.startKey);
            if (it == m_store.map(call.resource).end() ||
                (last != m_store.map(call.resource).end() && it->first >= last->first))
                it = last;
        }
        qint64 count = 0;
        QString lastKey;
        const bool filtered = !selectors->isEmpty();
        items.reserve(4096);
        for (; it != last; ++it) {
            const Entry &e = it->second;
            if (filtered && !selectors->matches(e))
                continue;
            if (limit > 0 && count == limit) {
                nextKey = lastKey; // the token resumes after the last key returned
                if (!filtered)
                    remaining = std::distance(it, last);
                break;
            }
            ++count;
            lastKey = it->first;
            if (table) {
                rows.append(tableRow(call.resource, parseObject(e.json), include, now));
            } else {
                if (count > 1)
                    items += ',';
                items += e.json;
            }
        }
    }
    QByteArray meta = "{\"resourceVersion\":\"" + QByteArray::number(listRv) + '"';
    if (!nextKey.isEmpty()) {
        meta += ",\"continue\":\"" + encodeContinueToken({listRv, nextKey}) + '"';
        if (remaining >= 0)
            meta += ",\"remainingItemCount\":" + QByteArray::number(remaining);
    }
    meta += '}';
    if (table) {
        const QJsonObject t =
            tableDocument(call.resource, call.tableVersion, QJsonDocument::fromJson(meta).object(), rows);
        return sendJson(call.res, 200, toCompactJson(t), tableContentType(call.tableVersion));
    }
    QByteArray body;
    body.reserve(items.size() + 200);
    body += "{\"kind\":\"" + resourceInfo(call.resource).kind.toLatin1() + "List\",\"apiVersion\":\"" +
            resourceInfo(call.resource).apiVersion().toLatin1() + "\",\"metadata\":";
    body += meta;
    body += ",\"items\":[";
    body += items;
    body += "]}";
    sendJson(call.res, 200, body);
}

} // namespace gq::tc
