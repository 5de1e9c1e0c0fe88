// KubeClient watches: a stream of JSON events on the transport, split into objects,
// re-opened from the last resourceVersion with backoff after the server ends it or
// the connection drops.
#include "core/jobs/jobtracker.h"
#include "core/kube/kubeclient_p.h"

#include <QJsonDocument>
#include <QThread>

#include <functional>
#include <optional>

namespace gq {

namespace {

// Splits a watch stream into top-level JSON objects, across chunk boundaries and
// whether or not the server puts newlines between them. An object (finished or not)
// longer than `limit` bytes makes feed() return false: the stream itself is endless by
// design, so each event is what must be bounded.
class JsonStreamSplitter {
public:
    explicit JsonStreamSplitter(qint64 limit = 0)
        : m_limit(limit) {}

    template <typename Fn> [[nodiscard]] bool feed(const QByteArray &chunk, Fn &&onObject) {
        m_buf.append(chunk);
        qsizetype i = m_scan;
        const qsizetype n = m_buf.size();
        const char *p = m_buf.constData();
        for (; i < n; ++i) {
            const char c = p[i];
            if (m_inString) {
                if (m_escape)
                    m_escape = false;
                else if (c == '\\')
                    m_escape = true;
                else if (c == '"')
                    m_inString = false;
                continue;
            }
            if (c == '"') {
                m_inString = true;
            } else if (c == '{') {
                if (m_depth++ == 0)
                    m_start = i;
            } else if (c == '}') {
                if (m_depth > 0 && --m_depth == 0) {
                    if (m_limit > 0 && i - m_start + 1 > m_limit)
                        return false; // arrived whole, but too big all the same
                    onObject(QByteArray(p + m_start, i - m_start + 1));
                    p = m_buf.constData();
                }
            }
        }
        if (m_depth == 0) {
            m_buf.clear();
            m_scan = 0;
        } else {
            // Keep only the unfinished object.
            m_buf.remove(0, m_start);
            m_scan = m_buf.size();
            m_start = 0;
        }
        return m_limit <= 0 || m_buf.size() <= m_limit;
    }

private:
    qint64 m_limit = 0;
    QByteArray m_buf;
    qsizetype m_scan = 0;
    qsizetype m_start = 0;
    int m_depth = 0;
    bool m_inString = false;
    bool m_escape = false;
};

// The context's end of a watch: a child of the context, so its tracker lives exactly
// as long as the context does. Deliveries go to it (on the context's thread) and stop
// when the context is destroyed.
class WatchReceiver final : public QObject {
public:
    explicit WatchReceiver(QObject *context)
        : QObject(context) {}
    JobTracker jobs{this};
};

using Delivery = std::function<void()>;

} // namespace

class WatchImpl final : public KubeWatch, public std::enable_shared_from_this<WatchImpl> {
public:
    WatchImpl(std::weak_ptr<KubeClient::Private> client, KubeResource resource, QString ns,
              WatchOptions options, QObject *context, WatchHandlers handlers)
        : m_client(std::move(client))
        , m_resource(std::move(resource))
        , m_ns(std::move(ns))
        , m_options(std::move(options))
        , m_handlers(std::move(handlers))
        , m_lastRv(m_options.resourceVersion) {
        if (!context)
            return;
        Q_ASSERT_X(context->thread() == QThread::currentThread(), "KubeClient::watch",
                   "the context must live on the calling thread");
        auto *receiver = new WatchReceiver(context);
        m_contextAlive = receiver->jobs.token();
        m_deliver = receiver->jobs.deliverer<Delivery>([](const Delivery &fn) { fn(); });
        // With this watch, the receiver goes too (a delivery runs only while it lives).
        m_release = [receiver] { receiver->deleteLater(); };
    }

    ~WatchImpl() override {
        stop();
        if (m_deliver)
            m_deliver(m_release);
    }

    void stop() override {
        if (m_stopped.exchange(true))
            return;
        if (auto d = m_client.lock()) {
            if (auto call = currentCall())
                d->cancel(call);
        }
    }
    bool isActive() const override { return !m_stopped; }
    QString lastResourceVersion() const override {
        std::lock_guard lock(m_mutex);
        return m_lastRv;
    }
    QDeadlineTimer nextAttempt() const override {
        std::lock_guard lock(m_mutex);
        return m_nextAttempt;
    }
    void retryNow() override {
        auto d = m_client.lock();
        if (!d || m_stopped)
            return;
        // On the worker, like every open: whether it still waits is decided there.
        std::weak_ptr<WatchImpl> weak = weak_from_this();
        d->schedule(0, [weak] {
            if (auto self = weak.lock())
                self->reopen(0);
        });
    }

    void open() {
        auto d = m_client.lock();
        if (!d || m_stopped)
            return;
        KubeRequest req;
        req.path = m_resource.path(m_ns);
        req.query.append({QStringLiteral("watch"), QStringLiteral("true")});
        const QString rv = lastResourceVersion();
        if (!rv.isEmpty())
            req.query.append({QStringLiteral("resourceVersion"), rv});
        if (m_options.allowBookmarks)
            req.query.append({QStringLiteral("allowWatchBookmarks"), QStringLiteral("true")});
        if (!m_options.labelSelector.isEmpty())
            req.query.append({QStringLiteral("labelSelector"), m_options.labelSelector});
        if (!m_options.fieldSelector.isEmpty())
            req.query.append({QStringLiteral("fieldSelector"), m_options.fieldSelector});
        if (m_options.timeoutSeconds > 0) {
            req.query.append({QStringLiteral("timeoutSeconds"), QString::number(m_options.timeoutSeconds)});
            req.timeoutMs = m_options.timeoutSeconds * 1000 + d->opts.watchGraceMs;
        } else {
            req.timeoutMs = 0;
        }
        req.maxAttempts = 1; // this class retries, from the last resourceVersion
        m_splitter = JsonStreamSplitter(d->opts.maxWatchEventBytes);
        m_maxEventBytes = d->opts.maxWatchEventBytes;
        m_server = d->conn.server;
        m_streamError.reset();
        m_receivedSinceOpen = false;
        std::weak_ptr<WatchImpl> weak = weak_from_this();
        if (m_handlers.connected)
            post([h = m_handlers.connected, rv] { h(rv); });
        quint64 opening = 0;
        {
            std::lock_guard lock(m_mutex);
            opening = ++m_opens;
        }
        auto call = d->submit(
            std::move(req),
            [weak](Result<KubeResponse> r) {
                if (auto self = weak.lock())
                    self->onDone(std::move(r));
            },
            [weak](const QByteArray &chunk) {
                auto self = weak.lock();
                return self && self->onChunk(chunk);
            });
        {
            // Its completion may already have started a newer open: keep that one.
            std::lock_guard lock(m_mutex);
            if (m_opens == opening)
                m_call = call;
        }
        if (m_stopped) // stop() raced with this (re)open
            d->cancel(call);
    }

private:
    std::shared_ptr<KubeCall> currentCall() const {
        std::lock_guard lock(m_mutex);
        return m_call;
    }

    // Hands fn to the context's thread through its receiver's tracker (dropped once the
    // context is destroyed or this watch stopped); without a context, runs it here.
    template <typename Fn> void post(Fn &&fn) {
        if (m_stopped)
            return;
        if (!m_deliver) {
            fn();
            return;
        }
        if (m_contextAlive.isCancelled()) { // the context is gone
            stop();
            return;
        }
        std::weak_ptr<WatchImpl> weak = weak_from_this();
        m_deliver([weak, fn = std::forward<Fn>(fn)] {
            auto self = weak.lock();
            if (self && !self->m_stopped)
                fn();
        });
    }

    bool onChunk(const QByteArray &chunk) {
        if (m_stopped)
            return false;
        QList<WatchEvent> events;
        bool keepGoing = true;
        const bool bounded = m_splitter.feed(chunk, [&](const QByteArray &objText) {
            if (!keepGoing)
                return;
            const QJsonObject ev = QJsonDocument::fromJson(objText).object();
            const QString type = ev.value(QLatin1String("type")).toString();
            QJsonObject obj = ev.value(QLatin1String("object")).toObject();
            if (type == QLatin1String("ERROR")) {
                m_streamError = errorFromResponse(obj.value(QLatin1String("code")).toInt(),
                                                  QJsonDocument(obj).toJson(QJsonDocument::Compact),
                                                  QStringLiteral("watch %1").arg(m_resource.plural));
                keepGoing = false;
                return;
            }
            WatchEvent we;
            if (type == QLatin1String("ADDED"))
                we.type = WatchEvent::Type::Added;
            else if (type == QLatin1String("MODIFIED"))
                we.type = WatchEvent::Type::Modified;
            else if (type == QLatin1String("DELETED"))
                we.type = WatchEvent::Type::Deleted;
            else if (type == QLatin1String("BOOKMARK"))
                we.type = WatchEvent::Type::Bookmark;
            else
                return; // unknown event types are skipped, as client-go does
            we.resourceVersion = obj.value(QLatin1String("metadata"))
                                     .toObject()
                                     .value(QLatin1String("resourceVersion"))
                                     .toString();
            we.object = std::move(obj);
            if (!we.resourceVersion.isEmpty()) {
                std::lock_guard lock(m_mutex);
                m_lastRv = we.resourceVersion;
            }
            events.append(std::move(we));
        });
        m_receivedSinceOpen = true;
        if (!bounded && keepGoing) {
            // Invalid: the watch ends for good; re-opening would read the same event.
            m_streamError = Error::make(
                Error::Kind::Invalid,
                QStringLiteral("watch %1 on %2: an event is larger than the %3 limit; the watch was stopped")
                    .arg(m_resource.plural, urlForMessages(m_server), describeByteLimit(m_maxEventBytes)));
            keepGoing = false;
        }
        if (!events.isEmpty() && m_handlers.events)
            post([h = m_handlers.events, events = std::move(events)] { h(events); });
        return keepGoing;
    }

    void onDone(Result<KubeResponse> r) {
        if (m_stopped)
            return;
        std::optional<Error> err = m_streamError;
        if (!err && !r && r.error().kind == Error::Kind::Cancelled)
            return; // the client shuts down (a stop() returned above): re-opening would loop
        if (!err && !r)
            err = r.error();
        if (m_receivedSinceOpen)
            m_failures = 0;
        if (!err) {
            if (!m_options.resume) {
                post([this, h = m_handlers.closed] {
                    m_stopped = true;
                    if (h)
                        h();
                });
                return;
            }
            open(); // the server ended the stream (timeoutSeconds): continue from the last RV
            return;
        }
        using K = Error::Kind;
        const bool terminal = err->kind == K::Gone || err->kind == K::Unauthorized ||
                              err->kind == K::Forbidden || err->kind == K::NotFound ||
                              err->kind == K::Invalid || err->kind == K::Tls || err->kind == K::Config ||
                              !m_options.resume;
        if (terminal) {
            post([this, h = m_handlers.failed, e = *err] {
                m_stopped = true;
                if (h)
                    h(e);
            });
            return;
        }
        auto d = m_client.lock();
        if (!d)
            return;
        const int delay = d->backoffMs(m_failures++);
        const quint64 ticket = ++m_waits;
        m_waitTicket = ticket;
        {
            std::lock_guard lock(m_mutex);
            m_nextAttempt = QDeadlineTimer(delay);
        }
        if (m_handlers.retrying)
            post([h = m_handlers.retrying, e = *err] { h(e); });
        std::weak_ptr<WatchImpl> weak = weak_from_this();
        d->schedule(delay, [weak, ticket] {
            if (auto self = weak.lock())
                self->reopen(ticket);
        });
    }

    // Worker thread. ticket 0: retryNow (any wait); else only the wait it was scheduled for.
    void reopen(quint64 ticket) {
        if (m_waitTicket == 0 || (ticket != 0 && ticket != m_waitTicket))
            return; // not waiting, or that wait was already cut short
        m_waitTicket = 0;
        {
            std::lock_guard lock(m_mutex);
            m_nextAttempt = QDeadlineTimer(QDeadlineTimer::Forever);
        }
        open();
    }

    std::weak_ptr<KubeClient::Private> m_client;
    KubeResource m_resource;
    QString m_ns;
    WatchOptions m_options;
    WatchHandlers m_handlers;
    // With a context: its receiver's deliverer, a token that turns cancelled when the
    // context is destroyed, and the receiver's own release. Set once, in the constructor.
    std::function<void(Delivery)> m_deliver;
    JobToken m_contextAlive;
    Delivery m_release;

    mutable std::mutex m_mutex;
    QString m_lastRv;
    QDeadlineTimer m_nextAttempt{QDeadlineTimer::Forever};
    std::atomic<bool> m_stopped{false};
    std::shared_ptr<KubeCall> m_call; // the open stream, or the request opening it
    quint64 m_opens = 0;

    // Touched by one operation at a time: the open, then its completion (transport or
    // credential thread), then the scheduled re-open on the transport thread.
    JsonStreamSplitter m_splitter;
    qint64 m_maxEventBytes = 0;
    QString m_server;
    std::optional<Error> m_streamError;
    bool m_receivedSinceOpen = false;
    int m_failures = 0;
    quint64 m_waitTicket = 0; // non-zero while waiting to re-open; identifies that wait
    quint64 m_waits = 0;      // waits so far: tickets are never reused
};

std::shared_ptr<KubeWatch> KubeClient::watch(const KubeResource &resource, const QString &ns,
                                             const WatchOptions &options, QObject *context,
                                             WatchHandlers handlers) {
    auto w = std::make_shared<WatchImpl>(d, resource, ns, options, context, std::move(handlers));
    w->open();
    return w;
}

} // namespace gq
