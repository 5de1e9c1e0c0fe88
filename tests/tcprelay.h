#pragma once

// A TCP relay for tests: sits between a client (the console, the controller) and a
// server (a test cluster, PostgreSQL) so a test can cut, reset, hold, blackhole or
// redirect the connection on the same port, as a restarted server, a broken network or
// a rotated server certificate would look.

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <atomic>

namespace gq::test {

// Forwards every accepted connection to the upstream port, byte for byte (TLS
// passes through untouched). Lives on its own thread; drive it with call().
class TcpRelay final : public QObject {
public:
    // Reset: accept, then reset at once. Hold: accept and never answer (an attempt
    // that hangs until the client's connect timeout). Blackhole: as Hold for new
    // connections, and the open ones stay open but nothing passes any more, either way
    // (a network cut that sent no FIN or RST). Leaving Blackhole resets the connections
    // it held (the bytes dropped meanwhile are gone: a NAT entry that died answers the
    // next packet with a reset).
    enum class Mode { Relay, Reset, Hold, Blackhole };

    explicit TcpRelay(quint16 upstream)
        : m_upstream(upstream) {}

    // Runs fn on the relay's thread and waits for it.
    template <typename Fn> void call(Fn fn) {
        QMetaObject::invokeMethod(this, std::move(fn), Qt::BlockingQueuedConnection);
    }

    bool listen(quint16 port) { // relay thread
        if (!m_server) {
            m_server = new QTcpServer(this);
            QObject::connect(m_server, &QTcpServer::newConnection, this, [this] { onNewConnection(); });
        }
        if (!m_server->listen(QHostAddress::LocalHost, port))
            return false;
        m_port = m_server->serverPort();
        return true;
    }
    // Closes the port and resets every open connection: the peer sees ECONNRESET
    // now and ECONNREFUSED on its next attempt.
    void cut() { // relay thread
        if (m_server)
            m_server->close();
        for (const QPointer<QTcpSocket> &s : std::as_const(m_sockets))
            if (s)
                s->abort();
        m_sockets.clear();
        dropHeld();
    }
    // Where new connections go (open ones keep their upstream until cut()).
    void setUpstream(quint16 port) { m_upstream = port; } // relay thread
    void setMode(Mode mode) {                             // relay thread
        if (m_mode == Mode::Blackhole && mode != Mode::Blackhole) {
            for (const QPointer<QTcpSocket> &s : std::as_const(m_sockets))
                if (s)
                    s->abort();
            m_sockets.clear();
        }
        m_mode = mode;
        if (mode != Mode::Hold && mode != Mode::Blackhole)
            dropHeld();
    }

    [[nodiscard]] quint16 port() const { return m_port; }
    [[nodiscard]] int resets() const { return m_resets; }
    [[nodiscard]] int accepted() const { return m_accepted; }

private:
    void dropHeld() {
        for (const QPointer<QTcpSocket> &s : std::as_const(m_held))
            if (s) {
                s->abort();
                s->deleteLater();
            }
        m_held.clear();
    }

    void onNewConnection() {
        while (QTcpSocket *client = m_server->nextPendingConnection()) {
            ++m_accepted;
            if (m_mode == Mode::Hold || m_mode == Mode::Blackhole) {
                client->setParent(this);
                m_held << client;
                continue;
            }
            if (m_mode == Mode::Reset) {
                ++m_resets;
                client->abort();
                client->deleteLater();
                continue;
            }
            auto *upstream = new QTcpSocket(this);
            client->setParent(this);
            m_sockets << client << upstream;
            upstream->connectToHost(QHostAddress::LocalHost, m_upstream);
            auto pipe = [this](QTcpSocket *from, QTcpSocket *to) {
                QObject::connect(from, &QTcpSocket::readyRead, to, [this, from, to] {
                    const QByteArray bytes = from->readAll();
                    if (m_mode != Mode::Blackhole)
                        to->write(bytes);
                });
                // The other side closes once it has written what is buffered.
                QObject::connect(from, &QTcpSocket::disconnected, to, [to] { to->disconnectFromHost(); });
                QObject::connect(from, &QTcpSocket::disconnected, from, &QObject::deleteLater);
            };
            pipe(client, upstream);
            pipe(upstream, client);
        }
    }

    quint16 m_upstream;
    quint16 m_port = 0;
    QTcpServer *m_server = nullptr;
    QList<QPointer<QTcpSocket>> m_sockets;
    QList<QPointer<QTcpSocket>> m_held;
    Mode m_mode = Mode::Relay;
    std::atomic<int> m_resets{0};
    std::atomic<int> m_accepted{0};
};

// A TcpRelay on a thread of its own (the GUI thread of the test must stay free to run
// the window's event loop while the relay moves bytes). stop() goes after the window
// is gone, so that the window never talks to a relay that is being torn down.
class RelayThread {
public:
    RelayThread() = default;
    ~RelayThread() { stop(); }
    Q_DISABLE_COPY_MOVE(RelayThread)

    // Starts the thread and listens on a free local port; nullptr when it cannot.
    TcpRelay *start(quint16 upstream) {
        m_relay = new TcpRelay(upstream);
        m_relay->moveToThread(&m_thread);
        QObject::connect(&m_thread, &QThread::finished, m_relay, &QObject::deleteLater);
        m_thread.start();
        bool listening = false;
        m_relay->call([&] { listening = m_relay->listen(0); });
        return listening ? m_relay : nullptr;
    }

    // Cuts every connection and ends the thread (the relay is deleted with it).
    void stop() {
        if (m_relay)
            m_relay->call([this] { m_relay->cut(); });
        m_thread.quit();
        m_thread.wait();
        m_relay = nullptr;
    }

    // The address to put in a kubeconfig in place of the cluster's own.
    [[nodiscard]] QString url() const {
        return m_relay ? QStringLiteral("https://127.0.0.1:%1").arg(m_relay->port()) : QString();
    }

private:
    QThread m_thread;
    TcpRelay *m_relay = nullptr;
};

} // namespace gq::test
