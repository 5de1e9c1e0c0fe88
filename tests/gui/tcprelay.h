#pragma once

// A TCP relay for GUI tests: sits between the console and a test cluster so a test
// can cut, reset, hold or redirect the connection on the same port, as a restarted
// API server, a broken network or a rotated server certificate would look.

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>

#include <atomic>

namespace gq::test {

// Forwards every accepted connection to the upstream port, byte for byte (TLS
// passes through untouched). Lives on its own thread; drive it with call().
class TcpRelay final : public QObject {
public:
    // Reset: accept, then reset at once. Hold: accept and never answer (an attempt
    // that hangs until the client's connect timeout).
    enum class Mode { Relay, Reset, Hold };

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
        m_mode = mode;
        if (mode != Mode::Hold)
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
            if (m_mode == Mode::Hold) {
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
            auto pipe = [](QTcpSocket *from, QTcpSocket *to) {
                QObject::connect(from, &QTcpSocket::readyRead, to,
                                 [from, to] { to->write(from->readAll()); });
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

} // namespace gq::test
