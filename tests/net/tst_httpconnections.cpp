// Issue 31 item 6: connections must not starve the server. Idle TCP and TLS
// connections (16, then 300) must not keep /healthz from answering; at the
// connection cap the longest-idle connection makes room; one keep-alive connection
// serves many requests; 200 keep-alive TLS connections are all served. Clients are
// raw sockets and OpenSSL with a receive timeout, so a starved server fails the
// test instead of hanging it.
#include "core/httpd/httpserver.h"
#include "tests/rawhttpclient.h"

#include <QElapsedTimer>
#include <QTest>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

using namespace gq;
using namespace gq::httpd;
using gq::test::clientContext;
using gq::test::ClientCtx;
using gq::test::RawClient;

class TestHttpConnections : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void idleConnectionsDoNotLockOut_data();
    void idleConnectionsDoNotLockOut();
    void capEvictsLongestIdle();
    void manyRequestsPerConnection();
    void manyKeepAliveConnectionsServed();
    void slowHandlersDoNotBlockProbes();
    void wireFormats();
    void slowRequestTimesOut();

private:
    std::optional<TlsConfig> m_tls;
};

void TestHttpConnections::initTestCase() {
    const gq::test::LoopbackTls tls = gq::test::loopbackTls();
    m_tls = TlsConfig{tls.certPem, tls.keyPem};
}

void TestHttpConnections::idleConnectionsDoNotLockOut_data() {
    QTest::addColumn<int>("idle");
    QTest::addColumn<bool>("tls");
    QTest::newRow("16 idle TCP, HTTP") << 16 << false;
    QTest::newRow("16 idle TCP and TLS, HTTPS") << 16 << true;
    QTest::newRow("300 idle TCP and TLS, HTTPS") << 300 << true;
}

// Before: a pool of 8 workers, each held by one connection until it idled 2 s; the
// 9th connection waited before its handshake, so 16 idle ones locked everyone out.
void TestHttpConnections::idleConnectionsDoNotLockOut() {
    QFETCH(int, idle);
    QFETCH(bool, tls);
    HttpServer server;
    server.route("GET", QStringLiteral("/healthz"),
                 [](const Request &) { return Response::text(200, "ok\n"); });
    auto port = server.start({QStringLiteral("127.0.0.1"), 0}, tls ? m_tls : std::nullopt);
    QVERIFY(port);
    ClientCtx ctx = clientContext();
    std::vector<std::unique_ptr<RawClient>> idlers;
    for (int i = 0; i < idle; ++i) {
        // Half never send a byte (not even a ClientHello); on HTTPS the other half
        // finish the handshake and then say nothing.
        auto c = std::make_unique<RawClient>();
        QVERIFY2(c->connectTo(*port, tls && i % 2 ? ctx.get() : nullptr), qPrintable(QString::number(i)));
        idlers.push_back(std::move(c));
    }
    for (int round = 0; round < 3; ++round) {
        QElapsedTimer timer;
        timer.start();
        RawClient probe;
        QVERIFY2(probe.connectTo(*port, tls ? ctx.get() : nullptr), "the probe's handshake timed out");
        QCOMPARE(probe.get("/healthz"), 200);
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QStringLiteral("%1 ms").arg(timer.elapsed())));
    }
    QTRY_COMPARE(server.stats().open, qint64(idle)); // the probes closed, the idle ones stay
}

// At the cap a new connection closes the longest-idle one instead of waiting.
void TestHttpConnections::capEvictsLongestIdle() {
    ServerOptions options;
    options.maxConnections = 10;
    HttpServer server(options);
    server.route("GET", QStringLiteral("/healthz"),
                 [](const Request &) { return Response::text(200, "ok\n"); });
    auto port = server.start({QStringLiteral("127.0.0.1"), 0}, m_tls);
    QVERIFY(port);
    ClientCtx ctx = clientContext();
    std::vector<std::unique_ptr<RawClient>> idlers;
    for (int i = 0; i < 10; ++i) {
        idlers.push_back(std::make_unique<RawClient>());
        QVERIFY(idlers.back()->connectTo(*port, ctx.get()));
        QCOMPARE(idlers.back()->get("/healthz"), 200); // now idle keep-alive connections
    }
    // Five more, kept open: each closes the connection idle longest, oldest first.
    std::vector<std::unique_ptr<RawClient>> probes;
    for (int i = 0; i < 5; ++i) {
        probes.push_back(std::make_unique<RawClient>());
        QVERIFY(probes.back()->connectTo(*port, ctx.get()));
        QCOMPARE(probes.back()->get("/healthz"), 200);
    }
    QCOMPARE(server.stats().evictedIdle, qint64(5));
    QCOMPARE(server.stats().refused, qint64(0));
    QCOMPARE(idlers[4]->get("/healthz"), 0);
    QCOMPARE(idlers[5]->get("/healthz"), 200);
    QCOMPARE(probes.front()->get("/healthz"), 200);
}

// Before: every 5th request closed the connection, and the next paid a handshake.
void TestHttpConnections::manyRequestsPerConnection() {
    HttpServer server;
    server.route("GET", QStringLiteral("/healthz"),
                 [](const Request &) { return Response::text(200, "ok\n"); });
    auto port = server.start({QStringLiteral("127.0.0.1"), 0}, m_tls);
    QVERIFY(port);
    ClientCtx ctx = clientContext();
    RawClient client;
    QVERIFY(client.connectTo(*port, ctx.get()));
    for (int i = 0; i < 100; ++i) {
        QByteArray head;
        QCOMPARE(client.get("/healthz", &head), 200);
        QVERIFY2(!head.contains("connection: close"), qPrintable(QString::number(i)));
    }
    QCOMPARE(server.stats().accepted, qint64(1));
    QCOMPARE(server.stats().requests, qint64(100));
}

// 200 keep-alive TLS connections, each doing requests in turn: all are served.
void TestHttpConnections::manyKeepAliveConnectionsServed() {
    HttpServer server;
    server.route("GET", QStringLiteral("/quota"), [](const Request &) { return Response::text(200, "q\n"); });
    auto port = server.start({QStringLiteral("127.0.0.1"), 0}, m_tls);
    QVERIFY(port);
    ClientCtx ctx = clientContext();
    std::vector<std::unique_ptr<RawClient>> clients;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 200; ++i) {
        clients.push_back(std::make_unique<RawClient>());
        QVERIFY2(clients.back()->connectTo(*port, ctx.get()), qPrintable(QString::number(i)));
    }
    for (int round = 0; round < 5; ++round)
        for (std::size_t i = 0; i < clients.size(); ++i)
            QVERIFY2(clients[i]->get("/quota") == 200,
                     qPrintable(QStringLiteral("round %1 connection %2").arg(round).arg(i)));
    qInfo("200 TLS connections x 5 requests: %lld ms", timer.elapsed());
    QCOMPARE(server.stats().accepted, qint64(200));
    QCOMPARE(server.stats().requests, qint64(1000));
    QVERIFY(timer.elapsed() < 20000);
}

// Slow handlers (self-service waiting for a hanging API server) on every worker and
// more queued: a probe route (/healthz) still answers at once.
void TestHttpConnections::slowHandlersDoNotBlockProbes() {
    ServerOptions options;
    options.threads = 2;
    HttpServer server(options);
    std::atomic<bool> release{false};
    server.route("GET", QStringLiteral("/quota"), [&](const Request &) {
        while (!release.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return Response::text(200, "q\n");
    });
    server.routeProbe("GET", QStringLiteral("/healthz"),
                      [](const Request &) { return Response::text(200, "ok\n"); });
    auto port = server.start({QStringLiteral("127.0.0.1"), 0});
    QVERIFY(port);
    std::vector<std::thread> slow;
    for (int i = 0; i < 4; ++i)
        slow.emplace_back([&] {
            RawClient c;
            if (c.connectTo(*port, nullptr, 20000))
                c.get("/quota");
        });
    QTRY_COMPARE(server.stats().requests, qint64(4));
    QElapsedTimer timer;
    timer.start();
    RawClient probe;
    QVERIFY(probe.connectTo(*port, nullptr));
    const int status = probe.get("/healthz");
    const qint64 ms = timer.elapsed();
    release = true;
    for (std::thread &t : slow)
        t.join();
    QCOMPARE(status, 200);
    QVERIFY2(ms < 2000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
}

// What clients send besides plain requests: chunked bodies (Go's client for a body of
// unknown length), Expect: 100-continue (curl for large bodies), pipelined requests,
// HEAD, HTTP/1.0 without keep-alive.
void TestHttpConnections::wireFormats() {
    HttpServer server;
    server.route("POST", QStringLiteral("/echo"),
                 [](const Request &r) { return Response::text(200, QString::fromUtf8(r.body)); });
    server.route("GET", QStringLiteral("/healthz"),
                 [](const Request &) { return Response::text(200, "ok\n"); });
    auto port = server.start({QStringLiteral("127.0.0.1"), 0});
    QVERIFY(port);
    RawClient c;
    QVERIFY(c.connectTo(*port, nullptr));
    QByteArray head, body;
    QCOMPARE(c.exchange("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n",
                        &head, &body),
             200);
    QCOMPARE(body, QByteArray("hello world"));
    QVERIFY(c.write("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n"));
    QVERIFY(c.readSome().startsWith("HTTP/1.1 100 Continue\r\n\r\n"));
    QCOMPARE(c.exchange("body", &head, &body), 200);
    QCOMPARE(body, QByteArray("body"));
    // Two requests in one write: two answers, in order.
    QVERIFY(c.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\none"
                    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\ntwo"));
    QCOMPARE(c.exchange({}, &head, &body), 200);
    QCOMPARE(body, QByteArray("one"));
    QCOMPARE(c.exchange({}, &head, &body), 200);
    QCOMPARE(body, QByteArray("two"));
    QVERIFY(c.write("HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    const QByteArray headOnly = c.readSome();
    QVERIFY2(headOnly.startsWith("HTTP/1.1 200") && headOnly.endsWith("\r\n\r\n"), headOnly.constData());
    QVERIFY(headOnly.contains("Content-Length: 3"));
    QCOMPARE(c.exchange("GET /healthz HTTP/1.0\r\n\r\n", &head, &body), 200);
    QVERIFY(head.contains("connection: close"));
    QCOMPARE(c.readSome(), QByteArray()); // closed
    RawClient bad;
    QVERIFY(bad.connectTo(*port, nullptr));
    QCOMPARE(bad.exchange("NONSENSE\r\n\r\n"), 400);
}

// A request must arrive whole within readTimeoutSeconds of its first byte: a client
// that sends half a request and stops holds nothing for long.
void TestHttpConnections::slowRequestTimesOut() {
    ServerOptions options;
    options.readTimeoutSeconds = 1;
    HttpServer server(options);
    server.route("GET", QStringLiteral("/healthz"),
                 [](const Request &) { return Response::text(200, "ok\n"); });
    auto port = server.start({QStringLiteral("127.0.0.1"), 0});
    QVERIFY(port);
    RawClient c;
    QVERIFY(c.connectTo(*port, nullptr, 5000));
    QElapsedTimer timer;
    timer.start();
    QVERIFY(c.write("GET /healthz HTTP/1.1\r\nHost:"));
    QCOMPARE(c.readSome(), QByteArray());
    QVERIFY2(timer.elapsed() >= 900 && timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
    QTRY_COMPARE(server.stats().open, qint64(0));
}

QTEST_GUILESS_MAIN(TestHttpConnections)
#include "tst_httpconnections.moc"
