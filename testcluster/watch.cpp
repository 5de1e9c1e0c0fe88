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

} // namespace

void ApiServer::handleWatch(ApiCall &call) {
    const httplib::Request &req = call.req;
    Result<Selectors> parsed = selectorsOf(call);
    if (!parsed)
        return sendError(call.res, parsed.error());
    auto selectors = std::make_shared<const Selectors>(std::move(parsed).value());
    const QString rvText = param(req, "resourceVersion");
    const bool bookmarks = boolParam(req, "allowWatchBookmarks");
    const bool sendInitial = boolParam(req, "sendInitialEvents");
    const QString rvMatch = param(req, "resourceVersionMatch");
    if (req.has_param("sendInitialEvents") && rvMatch != QLatin1String("NotOlderThan"))
        return sendError(
            call.res,
            ApiError::invalid(
                QStringLiteral("ListOptions.meta.k8s.io"), QString(),
                QJsonArray{FieldError{
                    FieldError::Type::Forbidden,
                    QStringLiteral("resourceVersionMatch"),
                    {},
                    QStringLiteral("sendInitialEvents requires setting resourceVersionMatch to NotOlderThan")}
                               .toCause()}));
    const qint64 timeoutSeconds = param(req, "timeoutSeconds").toLongLong();
    const auto deadline = Clock::now() + std::chrono::seconds(timeoutSeconds > 0 ? timeoutSeconds : 1800);
    const Resource resource = call.resource;
    const QString ns = call.ns;
    const QString tableVersion = call.tableVersion;
    bool stall = false;
    {
        std::lock_guard lock(m_faultMutex);
        stall = m_faults.stallWatches;
    }

    struct State {
        quint64 cursor = 0;
        bool initial = false;
        bool started = false;
        bool sentColumns = false;
        Clock::time_point lastWrite = Clock::now();
    };
    auto state = std::make_shared<State>();
    {
        std::lock_guard lock(m_store.mutex);
        if (rvText.isEmpty() || rvText == QLatin1String("0") || sendInitial) {
            state->initial = rvText.isEmpty() || rvText == QLatin1String("0") || sendInitial;
            state->cursor = m_store.currentRv();
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
            state->cursor = rv;
        }
    }

    const SSL *ssl = req.ssl;
    const int bookmarkMs = m_config.bookmarkIntervalMs;
    auto eventLine = [resource, tableVersion, state](const QByteArray &type, const QByteArray &json) {
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
            line += toCompactJson(tableDocument(resource, tableVersion, meta, rows, !state->sentColumns));
            state->sentColumns = true;
        }
        line += "}\n";
        return line;
    };
    auto bookmarkLine = [resource](quint64 rv, bool initialEnd) {
        QByteArray line = "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"" +
                          resourceInfo(resource).kind.toLatin1() + "\",\"apiVersion\":\"" +
                          resourceInfo(resource).apiVersion().toLatin1() +
                          "\",\"metadata\":{\"resourceVersion\":\"" + QByteArray::number(rv) + '"';
        if (initialEnd)
            line += ",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}";
        line += "}}}\n";
        return line;
    };
    auto matches = [ns, selectors](const Entry &e) {
        return (ns.isEmpty() || e.ns == ns) && selectors->matches(e);
    };

    call.res.status = 200;
    call.res.set_header("Cache-Control", "no-cache, private");
    // The ";stream=watch" parameter keeps cpp-httplib from gzip-buffering the stream.
    call.res.set_chunked_content_provider(
        "application/json;stream=watch",
        [this, state, resource, ns, matches, eventLine, bookmarkLine, bookmarks, sendInitial, deadline, ssl,
         bookmarkMs, stall](std::size_t, httplib::DataSink &sink) {
            auto clientGone = [ssl] {
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
            };
            if (m_stopping || Clock::now() >= deadline) {
                sink.done();
                return true;
            }
            if (clientGone())
                return false;
            QByteArray out;
            if (stall) {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                return true;
            }
            {
                std::unique_lock lock(m_store.mutex);
                if (!state->started) {
                    state->started = true;
                    if (state->initial) {
                        auto [first, last] = m_store.range(resource, ns);
                        for (auto it = first; it != last; ++it) {
                            if (matches(it->second))
                                out += eventLine("ADDED", it->second.json);
                        }
                        if (sendInitial)
                            out += bookmarkLine(state->cursor, true);
                    }
                }
                if (out.isEmpty()) {
                    if (m_store.eventsAfter(state->cursor) == m_store.eventsEnd())
                        m_store.changed.wait_for(lock, std::chrono::milliseconds(250));
                    if (state->cursor < m_store.compactedRv()) {
                        out += tooOldLine(state->cursor, m_store.compactedRv());
                        lock.unlock();
                        sink.write(out.constData(), static_cast<std::size_t>(out.size()));
                        sink.done();
                        return true;
                    }
                    for (auto it = m_store.eventsAfter(state->cursor); it != m_store.eventsEnd(); ++it) {
                        state->cursor = it->rv;
                        if (it->resource == resource && matches(it->entry))
                            out += eventLine(it->type, it->entry.json);
                    }
                    if (out.isEmpty() && bookmarks &&
                        Clock::now() - state->lastWrite >= std::chrono::milliseconds(bookmarkMs)) {
                        state->cursor = std::max(state->cursor, m_store.currentRv());
                        out += bookmarkLine(state->cursor, false);
                    }
                }
            }
            if (!out.isEmpty()) {
                state->lastWrite = Clock::now();
                if (!sink.write(out.constData(), static_cast<std::size_t>(out.size())))
                    return false;
            }
            return true;
        });
}

} // namespace gq::tc
