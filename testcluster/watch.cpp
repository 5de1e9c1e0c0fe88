#include "testcluster/apicall.h"
#include "testcluster/tables.h"

#include <QDateTime>
#include <QJsonArray>

#include <openssl/ssl.h>

#ifdef _WIN32
#include <winsock2.h>
#else
#include <poll.h>
#endif

#include <chrono>
#include <thread>

// Watch: a chunked stream of JSON lines (ADDED/MODIFIED/DELETED, BOOKMARK, ERROR)
// from the store's event log, with initial events, bookmarks and the 410 a
// compacted resourceVersion gets, as the watch cache answers.

namespace gq::tc {

namespace {

using Clock = std::chrono::steady_clock;

// The ERROR event for a resourceVersion older than the compaction.
QByteArray tooOldLine(quint64 rv, quint64 compactedRv) {
    const ApiError gone =
        ApiError::gone(QStringLiteral("too old resource version: %1 (%2)").arg(rv).arg(compactedRv + 1));
    return "{\"type\":\"ERROR\",\"object\":" + gone.toJson() + "}\n";
}

// Whether the TLS client has hung up (a plain-HTTP client is noticed on write).
bool clientGone(const SSL *ssl) {
    if (!ssl)
        return false;
#ifdef _WIN32
    // No POLLRDHUP: WSAPoll reports the client's orderly close as POLLHUP.
    WSAPOLLFD pfd{static_cast<SOCKET>(SSL_get_fd(ssl)), POLLRDNORM, 0};
    return WSAPoll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLHUP | POLLERR));
#else
    pollfd pfd{SSL_get_fd(ssl), POLLRDHUP, 0};
    return ::poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR));
#endif
}

// What `sendInitialEvents` without `resourceVersionMatch=NotOlderThan` gets.
ApiError sendInitialEventsError() {
    return ApiError::invalid(
        QStringLiteral("ListOptions.meta.k8s.io"), QString(),
        QJsonArray{FieldError{
            FieldError::Type::Forbidden,
            QStringLiteral("resourceVersionMatch"),
            {},
            QStringLiteral("sendInitialEvents requires setting resourceVersionMatch to NotOlderThan")}
                       .toCause()});
}

// One watch: what it asked for, and how far it has got (shared with the chunk
// provider, which cpp-httplib copies).
struct WatchStream {
    Resource resource;
    QString ns;
    QString tableVersion;
    std::shared_ptr<const Selectors> selectors;
    bool bookmarks = false;
    bool sendInitial = false;
    Clock::time_point deadline;
    const SSL *ssl = nullptr;
    int bookmarkMs = 0;
    bool stall = false;

    quint64 cursor = 0;
    bool initial = false;
    bool started = false;
    bool sentColumns = false;
    Clock::time_point lastWrite = Clock::now();

    bool matches(const Entry &e) const { return (ns.isEmpty() || e.ns == ns) && selectors->matches(e); }

    QByteArray eventLine(const QByteArray &type, const QByteArray &json) {
        QByteArray line = "{\"type\":\"" + type + "\",\"object\":";
        if (tableVersion.isEmpty()) {
            line += withKind(resource, json);
        } else {
            const QJsonObject obj = parseObject(json);
            QJsonObject meta;
            meta.insert(QLatin1String("resourceVersion"),
                        metaOf(obj).value(QLatin1String("resourceVersion")));
            const QJsonArray rows{
                tableRow(resource, obj, IncludeObject::Metadata, QDateTime::currentDateTimeUtc())};
            line += toCompactJson(tableDocument(resource, tableVersion, meta, rows, !sentColumns));
            sentColumns = true;
        }
        line += "}\n";
        return line;
    }

    QByteArray bookmarkLine(quint64 rv, bool initialEnd) const {
        QByteArray line = "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"" +
                          resourceInfo(resource).kind.toLatin1() + "\",\"apiVersion\":\"" +
                          resourceInfo(resource).apiVersion().toLatin1() +
                          "\",\"metadata\":{\"resourceVersion\":\"" + QByteArray::number(rv) + '"';
        if (initialEnd)
            line += ",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}";
        line += "}}}\n";
        return line;
    }

    // The store's objects as ADDED events (and the initial-events-end bookmark), once.
    QByteArray initialLines(const Store &store) {
        QByteArray out;
        if (started)
            return out;
        started = true;
        if (initial) {
            auto [first, last] = store.range(resource, ns);
            for (auto it = first; it != last; ++it) {
                if (matches(it->second))
                    out += eventLine("ADDED", it->second.json);
            }
            if (sendInitial)
                out += bookmarkLine(cursor, true);
        }
        return out;
    }

    // The events after the cursor, or a bookmark when nothing happened for a while.
    QByteArray eventLines(const Store &store) {
        QByteArray out;
        for (auto it = store.eventsAfter(cursor); it != store.eventsEnd(); ++it) {
            cursor = it->rv;
            if (it->resource == resource && matches(it->entry))
                out += eventLine(it->type, it->entry.json);
        }
        if (out.isEmpty() && bookmarks && Clock::now() - lastWrite >= std::chrono::milliseconds(bookmarkMs)) {
            cursor = std::max(cursor, store.currentRv());
            out += bookmarkLine(cursor, false);
        }
        return out;
    }
};

// One turn of the chunk provider: false ends the stream abruptly (the client went away).
bool writeWatchChunk(Store &store, const std::atomic<bool> &stopping, WatchStream &w,
                     httplib::DataSink &sink) {
    if (stopping || Clock::now() >= w.deadline) {
        sink.done();
        return true;
    }
    if (clientGone(w.ssl))
        return false;
    if (w.stall) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        return true;
    }
    QByteArray out;
    {
        std::unique_lock lock(store.mutex);
        out = w.initialLines(store);
        if (out.isEmpty()) {
            if (store.eventsAfter(w.cursor) == store.eventsEnd())
                store.changed.wait_for(lock, std::chrono::milliseconds(250));
            if (w.cursor < store.compactedRv()) {
                out += tooOldLine(w.cursor, store.compactedRv());
                lock.unlock();
                sink.write(out.constData(), static_cast<std::size_t>(out.size()));
                sink.done();
                return true;
            }
            out = w.eventLines(store);
        }
    }
    if (!out.isEmpty()) {
        w.lastWrite = Clock::now();
        if (!sink.write(out.constData(), static_cast<std::size_t>(out.size())))
            return false;
    }
    return true;
}

} // namespace

void ApiServer::handleWatch(ApiCall &call) {
    const httplib::Request &req = call.req;
    Result<Selectors> parsed = selectorsOf(call);
    if (!parsed)
        return sendError(call.res, parsed.error());
    auto w = std::make_shared<WatchStream>();
    w->selectors = std::make_shared<const Selectors>(std::move(parsed).value());
    const QString rvText = param(req, "resourceVersion");
    w->bookmarks = boolParam(req, "allowWatchBookmarks");
    w->sendInitial = boolParam(req, "sendInitialEvents");
    const QString rvMatch = param(req, "resourceVersionMatch");
    if (req.has_param("sendInitialEvents") && rvMatch != QLatin1String("NotOlderThan"))
        return sendError(call.res, sendInitialEventsError());
    const qint64 timeoutSeconds = param(req, "timeoutSeconds").toLongLong();
    w->deadline = Clock::now() + std::chrono::seconds(timeoutSeconds > 0 ? timeoutSeconds : 1800);
    w->resource = call.resource;
    w->ns = call.ns;
    w->tableVersion = call.tableVersion;
    {
        std::lock_guard lock(m_faultMutex);
        w->stall = m_faults.stallWatches;
    }
    {
        std::lock_guard lock(m_store.mutex);
        if (rvText.isEmpty() || rvText == QLatin1String("0") || w->sendInitial) {
            w->initial = rvText.isEmpty() || rvText == QLatin1String("0") || w->sendInitial;
            w->cursor = m_store.currentRv();
        } else {
            bool ok = false;
            const quint64 rv = rvText.toULongLong(&ok);
            if (!ok)
                return sendError(call.res,
                                 ApiError::badRequest(QStringLiteral("invalid resource version: ") + rvText));
            if (rv < m_store.compactedRv()) {
                // Like the watch cache: HTTP 200 with a single ERROR event.
                return sendJson(call.res, 200, tooOldLine(rv, m_store.compactedRv()));
            }
            w->cursor = rv;
        }
    }
    w->ssl = req.ssl;
    w->bookmarkMs = m_config.bookmarkIntervalMs;

    call.res.status = 200;
    call.res.set_header("Cache-Control", "no-cache, private");
    // The ";stream=watch" parameter keeps cpp-httplib from gzip-buffering the stream.
    call.res.set_chunked_content_provider("application/json;stream=watch",
                                          [this, w](std::size_t, httplib::DataSink &sink) {
                                              return writeWatchChunk(m_store, m_stopping, *w, sink);
                                          });
}

} // namespace gq::tc
