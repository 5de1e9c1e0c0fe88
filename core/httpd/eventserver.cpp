#include "core/httpd/eventserver.h"
#include "core/httpd/httpwire.h"
#include "core/httpd/serversocket.h"

#include <openssl/err.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace gq::httpd {

namespace {

using Clock = std::chrono::steady_clock;
constexpr quint64 kListener = 0;
constexpr quint64 kWake = ~quint64(0);

struct Conn {
    enum class State { Reading, Handling, Writing };
    int fd = -1;
    SSL *ssl = nullptr;
    bool handshaken = false;
    quint64 id = 0;
    QString remote;
    QByteArray in;
    QByteArray out;
    qsizetype outPos = 0;
    State state = State::Reading;
    bool closeAfterWrite = false;
    bool continueSent = false;
    bool peerClosed = false;
    bool inRequest = false; // some bytes of the next request have arrived
    Clock::time_point accepted;
    Clock::time_point lastActive; // connected, or the last answer written
    Clock::time_point answeredAt; // when the answer being written was first put on the socket
    Clock::time_point requestStart;
    Clock::time_point lastIo;

    // Waiting for a request (or for a ClientHello that may never come): may be closed
    // to make room.
    [[nodiscard]] bool idle() const { return state == State::Reading && !inRequest && out.isEmpty(); }
};

// While a handler has a connection (State::Handling) the event thread does not touch
// it, so the worker writes the answer itself, as far as the socket takes it without
// waiting: no hand-over back to the event thread for the common small answer.
struct Job {
    quint64 id = 0;
    int fd = -1;
    SSL *ssl = nullptr;
    Request request;
    bool keepAlive = true;
    bool head = false;
    QByteArray acceptEncoding;
};

struct Done {
    quint64 id = 0;
    QByteArray bytes;
    qsizetype written = 0; // by the worker
    bool broken = false;   // the worker's write failed
    bool keepAlive = true;
    // Taken before the first byte went out: the client cannot see the answer earlier, so
    // connections' idle order is the order their clients saw them answered (a worker may
    // hand the Done over long after the client moved on).
    std::chrono::steady_clock::time_point answeredAt;
};

// Writes what the socket takes now: the bytes written, -1 when the connection broke.
qsizetype writeSome(int fd, SSL *ssl, const QByteArray &bytes, qsizetype from) {
    qsizetype pos = from;
    while (pos < bytes.size()) {
        const char *data = bytes.constData() + pos;
        const qsizetype left = std::min<qsizetype>(bytes.size() - pos, 1 << 30);
        if (ssl) {
            const int n = SSL_write(ssl, data, int(left));
            if (n <= 0) {
                const int error = SSL_get_error(ssl, n);
                ERR_clear_error();
                return error == SSL_ERROR_WANT_WRITE || error == SSL_ERROR_WANT_READ ? pos - from : -1;
            }
            pos += n;
        } else {
            const ssize_t n = ::send(fd, data, size_t(left), MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return errno == EAGAIN || errno == EWOULDBLOCK ? pos - from : -1;
            }
            pos += n;
        }
    }
    return pos - from;
}

} // namespace

struct EventServer::Private {
    ServerOptions options;
    Dispatch dispatch;
    IsProbe isProbe;
    int listenFd = -1;
    int epollFd = -1;
    int wakeFd = -1;
    SSL_CTX *ctx = nullptr;
    std::unordered_map<quint64, std::unique_ptr<Conn>> conns;
    quint64 nextId = 1;
    std::thread loopThread;
    std::atomic<bool> stopping{false};
    std::atomic<bool> running{false};
    bool acceptPaused = false;

    // Handlers' queues: [0] for the `threads` workers, [1] for the probe worker.
    std::mutex jobMutex;
    std::condition_variable jobReady[2];
    std::deque<Job> jobs[2];
    bool workersStop = false;
    std::vector<std::thread> workers;

    std::mutex doneMutex;
    std::vector<Done> done;

    std::atomic<qint64> accepted{0}, requests{0}, open{0}, evictedIdle{0}, refused{0};

    void loop();
    void acceptAll();
    void takeDone();
    void sweep(Clock::time_point now);
    bool evictIdle();
    void pauseAccepting(bool pause);
    void close(Conn &c);
    bool progress(Conn &c);
    bool handshake(Conn &c);
    bool flush(Conn &c);
    bool readAll(Conn &c);
    void parse(Conn &c);
    void work(int queue);
    void wake() const {
        const quint64 one = 1;
        [[maybe_unused]] const auto written = ::write(wakeFd, &one, sizeof one);
    }
};

EventServer::EventServer(ServerOptions options, Dispatch dispatch, IsProbe isProbe)
    : d(std::make_unique<Private>()) {
    d->options = options;
    d->dispatch = std::move(dispatch);
    d->isProbe = std::move(isProbe);
}

EventServer::~EventServer() {
    stop();
}

Result<int> EventServer::start(const ListenAddress &address, SSL_CTX *ctx) {
    d->ctx = ctx;
    std::signal(SIGPIPE, SIG_IGN); // OpenSSL writes to sockets a client may have closed
    sock::raiseFileLimit();
    d->listenFd = sock::listenOn(address);
    if (d->listenFd < 0) {
        if (ctx)
            SSL_CTX_free(ctx);
        d->ctx = nullptr;
        return Error::make(
            Error::Kind::Network,
            QStringLiteral("could not listen on %1:%2 (in use, or not an address of this machine)")
                .arg(address.host)
                .arg(address.port));
    }
    const int port = sock::boundPort(d->listenFd);
    d->epollFd = ::epoll_create1(EPOLL_CLOEXEC);
    d->wakeFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = kListener;
    ::epoll_ctl(d->epollFd, EPOLL_CTL_ADD, d->listenFd, &ev);
    ev.data.u64 = kWake;
    ::epoll_ctl(d->epollFd, EPOLL_CTL_ADD, d->wakeFd, &ev);
    d->stopping = false;
    d->workersStop = false;
    d->running = true;
    for (int i = 0; i < std::max(1, d->options.threads); ++i)
        d->workers.emplace_back([this] { d->work(0); });
    d->workers.emplace_back([this] { d->work(1); });
    d->loopThread = std::thread([this] { d->loop(); });
    return port;
}

void EventServer::stop() {
    if (!d->loopThread.joinable() && d->workers.empty())
        return;
    d->stopping = true;
    d->wake();
    if (d->loopThread.joinable())
        d->loopThread.join();
    {
        std::lock_guard lock(d->jobMutex);
        d->workersStop = true;
        d->jobs[0].clear();
        d->jobs[1].clear();
    }
    d->jobReady[0].notify_all();
    d->jobReady[1].notify_all();
    for (std::thread &t : d->workers)
        t.join();
    d->workers.clear();
    while (!d->conns.empty())
        d->close(*d->conns.begin()->second);
    d->done.clear();
    for (int *fd : {&d->listenFd, &d->epollFd, &d->wakeFd})
        if (*fd >= 0) {
            ::close(*fd);
            *fd = -1;
        }
    if (d->ctx)
        SSL_CTX_free(d->ctx);
    d->ctx = nullptr;
    d->running = false;
}

bool EventServer::isRunning() const {
    return d->running;
}

ServerStats EventServer::stats() const {
    return {d->accepted, d->requests, d->open, d->evictedIdle, d->refused};
}

void EventServer::Private::loop() {
    epoll_event events[256];
    Clock::time_point lastSweep = Clock::now();
    while (!stopping) {
        const int n = ::epoll_wait(epollFd, events, 256, 100);
        for (int i = 0; i < n && !stopping; ++i) {
            const quint64 id = events[i].data.u64;
            if (id == kListener) {
                acceptAll();
            } else if (id == kWake) {
                quint64 count = 0;
                [[maybe_unused]] const auto got = ::read(wakeFd, &count, sizeof count);
                takeDone();
            } else if (const auto it = conns.find(id); it != conns.end()) {
                progress(*it->second);
            }
        }
        if (const Clock::time_point now = Clock::now(); now - lastSweep >= std::chrono::milliseconds(100)) {
            sweep(now);
            lastSweep = now;
        }
    }
}

void EventServer::Private::acceptAll() {
    while (true) {
        const int fd = ::accept4(listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EMFILE || errno == ENFILE) {
                if (evictIdle())
                    continue;
                pauseAccepting(true); // until a connection closes: no busy loop on the listener
            }
            return; // EAGAIN, or out of descriptors with nothing idle to close
        }
        ++accepted;
        if (qsizetype(conns.size()) >= options.maxConnections && !evictIdle()) {
            ++refused; // every open connection is busy: this one cannot be served
            ::close(fd);
            continue;
        }
        int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        auto conn = std::make_unique<Conn>();
        Conn &c = *conn;
        c.fd = fd;
        c.id = nextId++;
        c.remote = sock::peerAddress(fd);
        c.accepted = c.lastActive = c.lastIo = Clock::now();
        if (ctx) {
            c.ssl = SSL_new(ctx);
            SSL_set_fd(c.ssl, fd);
            SSL_set_accept_state(c.ssl);
            SSL_set_mode(c.ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
        }
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
        ev.data.u64 = c.id;
        ::epoll_ctl(epollFd, EPOLL_CTL_ADD, fd, &ev);
        conns.emplace(c.id, std::move(conn));
        ++open;
        progress(c);
    }
}

void EventServer::Private::pauseAccepting(bool pause) {
    if (acceptPaused == pause)
        return;
    acceptPaused = pause;
    epoll_event ev{};
    ev.events = pause ? 0u : unsigned(EPOLLIN);
    ev.data.u64 = kListener;
    ::epoll_ctl(epollFd, EPOLL_CTL_MOD, listenFd, &ev);
}

bool EventServer::Private::evictIdle() {
    Conn *oldest = nullptr;
    for (const auto &[id, conn] : conns)
        if (conn->idle() && (!oldest || conn->lastActive < oldest->lastActive))
            oldest = conn.get();
    if (!oldest)
        return false;
    ++evictedIdle;
    close(*oldest);
    return true;
}

void EventServer::Private::sweep(Clock::time_point now) {
    using std::chrono::seconds;
    std::vector<Conn *> expired;
    for (const auto &[id, conn] : conns) {
        const Conn &c = *conn;
        const bool handshakeLate =
            c.ssl && !c.handshaken && now - c.accepted > seconds(options.readTimeoutSeconds);
        const bool idleLong = c.idle() && now - c.lastActive > seconds(options.idleTimeoutSeconds);
        const bool requestLate = c.state == Conn::State::Reading && c.inRequest &&
                                 now - c.requestStart > seconds(options.readTimeoutSeconds);
        const bool writeStuck = !c.out.isEmpty() && now - c.lastIo > seconds(options.writeTimeoutSeconds);
        if (handshakeLate || idleLong || requestLate || writeStuck)
            expired.push_back(conn.get());
    }
    for (Conn *c : expired)
        close(*c);
}

void EventServer::Private::close(Conn &c) {
    ::epoll_ctl(epollFd, EPOLL_CTL_DEL, c.fd, nullptr);
    if (c.ssl) {
        if (c.handshaken && !c.peerClosed)
            SSL_shutdown(c.ssl); // one close_notify, not waiting for the peer's
        SSL_free(c.ssl);
        ERR_clear_error();
    }
    ::close(c.fd);
    --open;
    pauseAccepting(false);
    conns.erase(c.id); // destroys c
}

void EventServer::Private::takeDone() {
    std::vector<Done> ready;
    {
        std::lock_guard lock(doneMutex);
        ready.swap(done);
    }
    for (Done &answer : ready) {
        const auto it = conns.find(answer.id);
        if (it == conns.end())
            continue; // closed while its handler ran
        Conn &c = *it->second;
        if (answer.broken) {
            close(c);
            continue;
        }
        c.out = std::move(answer.bytes);
        c.outPos = answer.written;
        c.answeredAt = answer.answeredAt;
        c.lastIo = Clock::now();
        c.state = Conn::State::Writing;
        c.closeAfterWrite = !answer.keepAlive;
        progress(c);
    }
}

// Drives a connection as far as it goes without blocking; false when it was closed.
bool EventServer::Private::progress(Conn &c) {
    if (c.state == Conn::State::Handling)
        return true; // the worker owns it until its answer is back
    if (!handshake(c)) {
        close(c);
        return false;
    }
    if (c.ssl && !c.handshaken)
        return true;
    while (true) {
        if (!flush(c)) {
            close(c);
            return false;
        }
        if (c.outPos < c.out.size())
            return true; // EPOLLOUT continues
        c.out.clear();
        c.outPos = 0;
        if (c.state == Conn::State::Writing) {
            if (c.closeAfterWrite || stopping) {
                close(c);
                return false;
            }
            c.state = Conn::State::Reading;
            c.lastActive = c.answeredAt != Clock::time_point{} ? c.answeredAt : Clock::now();
        }
        if (c.state != Conn::State::Reading)
            return true; // a handler has the request
        if (!c.peerClosed && !readAll(c)) {
            close(c);
            return false;
        }
        parse(c);
        if (c.state == Conn::State::Reading && c.out.isEmpty()) {
            if (c.peerClosed) {
                close(c);
                return false;
            }
            return true;
        }
    }
}

bool EventServer::Private::handshake(Conn &c) {
    if (!c.ssl || c.handshaken)
        return true;
    const int rc = SSL_accept(c.ssl);
    if (rc == 1) {
        c.handshaken = true;
        c.lastActive = c.lastIo = Clock::now();
        return true;
    }
    const int error = SSL_get_error(c.ssl, rc);
    ERR_clear_error();
    return error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE;
}

bool EventServer::Private::flush(Conn &c) {
    if (c.outPos >= c.out.size())
        return true;
    const qsizetype n = writeSome(c.fd, c.ssl, c.out, c.outPos);
    if (n < 0)
        return false;
    if (n > 0)
        c.lastIo = Clock::now();
    c.outPos += n;
    return true;
}

bool EventServer::Private::readAll(Conn &c) {
    // Beyond this the request is refused anyway (413/431); stop buffering it.
    const qint64 cap = options.maxBodyBytes + wire::kMaxHeadBytes + 64 * 1024;
    char buffer[16384];
    while (c.in.size() < cap) {
        if (c.ssl) {
            const int n = SSL_read(c.ssl, buffer, sizeof buffer);
            if (n <= 0) {
                const int error = SSL_get_error(c.ssl, n);
                ERR_clear_error();
                if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE)
                    return true;
                if (error == SSL_ERROR_ZERO_RETURN) {
                    c.peerClosed = true;
                    return true;
                }
                return false;
            }
            c.in.append(buffer, n);
        } else {
            const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, 0);
            if (n == 0) {
                c.peerClosed = true;
                return true;
            }
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return errno == EAGAIN || errno == EWOULDBLOCK;
            }
            c.in.append(buffer, n);
        }
        c.lastIo = Clock::now();
    }
    return true;
}

void EventServer::Private::parse(Conn &c) {
    if (c.in.isEmpty()) {
        c.inRequest = false;
        return;
    }
    if (!c.inRequest) {
        c.inRequest = true;
        c.requestStart = Clock::now();
    }
    wire::Parsed p = wire::parseRequest(c.in, options.maxBodyBytes);
    switch (p.state) {
    case wire::Parsed::State::Incomplete:
        if (p.expectsContinue && !c.continueSent) {
            c.out = "HTTP/1.1 100 Continue\r\n\r\n";
            c.continueSent = true;
        }
        return;
    case wire::Parsed::State::Bad:
        c.in.clear();
        c.out = wire::serialize(Response::text(p.status, QStringLiteral("bad request\n")), false, false, {});
        c.state = Conn::State::Writing;
        c.closeAfterWrite = true;
        return;
    case wire::Parsed::State::Complete: break;
    }
    c.in.remove(0, p.consumed);
    c.inRequest = false;
    c.continueSent = false;
    c.state = Conn::State::Handling;
    p.request.remoteAddress = c.remote;
    ++requests;
    const int queue = isProbe && isProbe(p.request) ? 1 : 0;
    {
        std::lock_guard lock(jobMutex);
        jobs[queue].push_back(
            {c.id, c.fd, c.ssl, std::move(p.request), p.keepAlive, p.head, p.acceptEncoding});
    }
    jobReady[queue].notify_one();
}

void EventServer::Private::work(int queue) {
    while (true) {
        Job job;
        {
            std::unique_lock lock(jobMutex);
            jobReady[queue].wait(lock, [this, queue] { return workersStop || !jobs[queue].empty(); });
            if (workersStop)
                return;
            job = std::move(jobs[queue].front());
            jobs[queue].pop_front();
        }
        Response response;
        try {
            response = dispatch(job.request);
        } catch (...) {
            response = Response::text(500, QStringLiteral("internal error\n"));
        }
        Done answer;
        answer.id = job.id;
        answer.bytes = wire::serialize(response, job.keepAlive, job.head, job.acceptEncoding);
        answer.keepAlive = job.keepAlive;
        answer.answeredAt = std::chrono::steady_clock::now();
        const qsizetype written = writeSome(job.fd, job.ssl, answer.bytes, 0);
        answer.broken = written < 0;
        answer.written = std::max<qsizetype>(written, 0);
        {
            std::lock_guard lock(doneMutex);
            done.push_back(std::move(answer));
        }
        wake();
    }
}

} // namespace gq::httpd
