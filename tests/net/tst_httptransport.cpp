// HttpTransport against real servers: a small HTTP/1.1 server in this process for
// retries, Retry-After, timeouts, cancel and streams; the test cluster for TLS with
// a CA handed over in memory.
#include "core/net/httptransport.h"
#include "core/kube/kubeconfig.h"

#include "tests/testclusterprocess.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QHash>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>
#include <QtTest>

#include <mutex>

using namespace gq;

namespace {

// Answers by path:
//   /ok                               200 "hello"
//   /flaky?id=X&fail=N&status=S&ra=R  the first N requests for id X answer S (with
//                                     Retry-After: R when given), later ones 200
//   /slow?ms=M                        200 after M ms
//   /hang                             never answers
//   /stream?n=N&ms=M                  chunked 200, N chunks M ms apart
//   /big?kb=K                         200 with a body of K KiB (Content-Length)
//   /endless                          chunked 200 that never ends: 64 KiB chunks for as
//                                     long as the client reads
class TinyHttpServer : public QObject {
public:
    TinyHttpServer() {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                s->setParent(this);
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onRead(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    QString url(const QString &pathAndQuery) const {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(m_server.serverPort()).arg(pathAndQuery);
    }
    int hits(const QString &id) const { return m_hits.value(id); }

private:
    void onRead(QTcpSocket *s) {
        QByteArray &buf = m_buffers[s];
        buf += s->readAll();
        const qsizetype end = buf.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QList<QByteArray> requestLine = buf.left(buf.indexOf("\r\n")).split(' ');
        buf.clear();
        if (requestLine.size() < 2)
            return;
        const QUrl url(QString::fromLatin1(requestLine.at(1)));
        const QUrlQuery q(url);
        const QString path = url.path();
        if (path == QLatin1String("/ok")) {
            reply(s, 200, "hello");
        } else if (path == QLatin1String("/flaky")) {
            const QString id = q.queryItemValue(QStringLiteral("id"));
            const int n = ++m_hits[id];
            if (n <= q.queryItemValue(QStringLiteral("fail")).toInt())
                reply(s, q.queryItemValue(QStringLiteral("status")).toInt(), "try later",
                      q.queryItemValue(QStringLiteral("ra")).toLatin1());
            else
                reply(s, 200, "finally");
        } else if (path == QLatin1String("/slow")) {
            QPointer<QTcpSocket> guard(s);
            QTimer::singleShot(q.queryItemValue(QStringLiteral("ms")).toInt(), this, [this, guard] {
                if (guard)
                    reply(guard, 200, "slow");
            });
        } else if (path == QLatin1String("/hang")) {
            // Say nothing: the client's timeout or cancel must end it.
        } else if (path == QLatin1String("/big")) {
            reply(s, 200, QByteArray(q.queryItemValue(QStringLiteral("kb")).toInt() * 1024, 'x'));
        } else if (path == QLatin1String("/endless")) {
            endless(s);
        } else if (path == QLatin1String("/stream")) {
            stream(s, q.queryItemValue(QStringLiteral("n")).toInt(),
                   q.queryItemValue(QStringLiteral("ms")).toInt());
        } else {
            reply(s, 404, "no such path");
        }
    }

    void reply(QTcpSocket *s, int status, const QByteArray &body, const QByteArray &retryAfter = {}) {
        QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: text/plain\r\n";
        if (!retryAfter.isEmpty())
            out += "Retry-After: " + retryAfter + "\r\n";
        out += "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
        s->write(out);
        s->disconnectFromHost();
    }

    void stream(QTcpSocket *s, int chunks, int intervalMs) {
        s->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n"
                 "Connection: close\r\n\r\n");
        QPointer<QTcpSocket> guard(s);
        for (int i = 0; i <= chunks; ++i) {
            QTimer::singleShot(i * intervalMs, this, [guard, i, chunks] {
                if (!guard)
                    return;
                if (i == chunks) {
                    guard->write("0\r\n\r\n");
                    guard->disconnectFromHost();
                    return;
                }
                const QByteArray data = "chunk" + QByteArray::number(i) + "\n";
                guard->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
                guard->flush();
            });
        }
    }

    // Writes the next chunk whenever the last one left, until the client hangs up.
    void endless(QTcpSocket *s) {
        s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
        const QByteArray data(64 * 1024, ' ');
        const QByteArray chunk = QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
        auto more = [s, chunk] {
            if (s->state() == QAbstractSocket::ConnectedState && s->bytesToWrite() < 4 * chunk.size())
                s->write(chunk);
        };
        connect(s, &QTcpSocket::bytesWritten, s, more);
        more();
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QHash<QString, int> m_hits;
};

// Spins an event loop (the in-process server needs it) until the future is done.
HttpResponse await(const QFuture<HttpResponse> &future, int timeoutMs = 30000) {
    QEventLoop loop;
    QFutureWatcher<HttpResponse> watcher;
    QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    watcher.setFuture(future);
    if (!future.isFinished())
        loop.exec();
    if (!future.isFinished() || future.resultCount() == 0) {
        HttpResponse r;
        r.transportError = Error::make(Error::Kind::Internal, QStringLiteral("test: no answer in time"));
        return r;
    }
    return future.result();
}

HttpRequest get(const QString &url, int maxAttempts = 1) {
    HttpRequest r;
    r.url = url;
    r.retry.maxAttempts = maxAttempts;
    r.retry.backoffBaseMs = 10;
    r.retry.backoffMaxMs = 50;
    r.timeoutMs = 10000;
    return r;
}

QString describe(const HttpResponse &r) {
    return QStringLiteral("HTTP %1 after %2 attempts%3")
        .arg(r.httpStatus)
        .arg(r.attempts)
        .arg(r.transportError ? QStringLiteral(", ") + r.transportError->message : QString());
}

} // namespace

class TestHttpTransport : public QObject {
    Q_OBJECT

private:
    TinyHttpServer m_server;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_server.listen()); }

    void plainGet() {
        HttpTransport t;
        const HttpResponse r = await(t.send(get(m_server.url(QStringLiteral("/ok")))));
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QCOMPARE(r.body, QByteArray("hello"));
        QCOMPARE(r.header("content-type"), QByteArray("text/plain"));
        QCOMPARE(r.attempts, 1);
        QCOMPARE(t.attemptsStarted(), 1);
        QCOMPARE(t.retries(), 0);
    }

    void goesThroughTheProxy() {
        // The in-process server answers the proxy's absolute-URI request line; the
        // host itself does not resolve, so an answer proves the proxy carried it.
        HttpTransport t;
        HttpRequest req = get(QStringLiteral("http://gq-no-such-host.invalid/ok"));
        req.proxyUrl = m_server.url(QString());
        const HttpResponse r = await(t.send(req));
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QCOMPARE(r.body, QByteArray("hello"));
    }

    void retryAfterValues_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<int>("minMs");
        QTest::addColumn<int>("maxMs");
        QTest::newRow("seconds") << QByteArray("3") << 3000 << 3000;
        QTest::newRow("zero") << QByteArray("0") << 0 << 0;
        QTest::newRow("negative") << QByteArray("-4") << 0 << 0;
        QTest::newRow("absent") << QByteArray() << -1 << -1;
        QTest::newRow("garbage") << QByteArray("soon") << -1 << -1;
        QTest::newRow("http date")
            << QDateTime::currentDateTimeUtc().addSecs(20).toString(Qt::RFC2822Date).toLatin1() << 17000
            << 20000;
        QTest::newRow("imf-fixdate") << QDateTime::currentDateTimeUtc()
                                            .addSecs(20)
                                            .toString(QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
                                            .toLatin1()
                                     << 17000 << 20000;
        QTest::newRow("date in the past") << QByteArray("Wed, 21 Oct 2015 07:28:00 GMT") << 0 << 0;
    }
    void retryAfterValues() {
        QFETCH(QByteArray, value);
        QFETCH(int, minMs);
        QFETCH(int, maxMs);
        const int ms = parseRetryAfterMs(value);
        QVERIFY2(ms >= minMs && ms <= maxMs, qPrintable(QString::number(ms)));
    }

    void backoffDoublesWithinItsCap() {
        RetryPolicy p;
        p.backoffBaseMs = 100;
        p.backoffMaxMs = 1000;
        for (int i = 0; i < 50; ++i) {
            const int first = backoffDelayMs(p, 0);
            QVERIFY2(first >= 50 && first <= 100, qPrintable(QString::number(first)));
            const int third = backoffDelayMs(p, 2);
            QVERIFY2(third >= 200 && third <= 400, qPrintable(QString::number(third)));
            const int late = backoffDelayMs(p, 30);
            QVERIFY2(late >= 500 && late <= 1000, qPrintable(QString::number(late)));
        }
    }

    void retriesServerErrorsThenSucceeds() {
        HttpTransport t;
        const HttpResponse r =
            await(t.send(get(m_server.url(QStringLiteral("/flaky?id=5xx&fail=2&status=503")), 5)));
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QCOMPARE(r.body, QByteArray("finally"));
        QCOMPARE(r.attempts, 3);
        QCOMPARE(m_server.hits(QStringLiteral("5xx")), 3);
        QCOMPARE(t.retries(), 2);
    }

    void givesUpAfterMaxAttempts() {
        HttpTransport t;
        const HttpResponse r =
            await(t.send(get(m_server.url(QStringLiteral("/flaky?id=down&fail=100&status=502")), 3)));
        QVERIFY(!r.ok());
        QVERIFY(!r.transportError); // the server answered: that is a status, not a transport error
        QCOMPARE(r.httpStatus, 502);
        QCOMPARE(r.body, QByteArray("try later"));
        QCOMPARE(r.attempts, 3);
        QCOMPARE(m_server.hits(QStringLiteral("down")), 3);
    }

    void notImplementedIsNotRetried() {
        HttpTransport t;
        const HttpResponse r =
            await(t.send(get(m_server.url(QStringLiteral("/flaky?id=501&fail=1&status=501")), 5)));
        QCOMPARE(r.httpStatus, 501);
        QCOMPARE(r.attempts, 1);
    }

    void retryAfterIsHonoured() {
        HttpTransport t;
        QElapsedTimer timer;
        timer.start();
        const HttpResponse r =
            await(t.send(get(m_server.url(QStringLiteral("/flaky?id=429&fail=1&status=429&ra=1")), 3)));
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QCOMPARE(r.attempts, 2);
        // Backoff alone would have waited ~10 ms.
        QVERIFY2(timer.elapsed() >= 950, qPrintable(QString::number(timer.elapsed())));
    }

    void retryAfterIsCapped() {
        HttpTransport t;
        HttpRequest req = get(m_server.url(QStringLiteral("/flaky?id=cap&fail=1&status=503&ra=60")), 3);
        req.retry.maxRetryAfterMs = 200;
        QElapsedTimer timer;
        timer.start();
        const HttpResponse r = await(t.send(req));
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QCOMPARE(r.attempts, 2);
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
    }

    void writesAreRetriedOnlyWhenNotProcessed() {
        HttpTransport t;
        HttpRequest post = get(m_server.url(QStringLiteral("/flaky?id=post5xx&fail=1&status=503")), 5);
        post.method = HttpMethod::Post;
        post.body = "{}";
        HttpResponse r = await(t.send(post));
        QCOMPARE(r.httpStatus, 503); // may have been applied: the caller decides
        QCOMPARE(r.attempts, 1);

        post.url = m_server.url(QStringLiteral("/flaky?id=post429&fail=1&status=429"));
        r = await(t.send(post));
        QVERIFY2(r.ok(), qPrintable(describe(r))); // 429: rejected before processing
        QCOMPARE(r.attempts, 2);

        post.url = m_server.url(QStringLiteral("/flaky?id=safe&fail=1&status=503"));
        post.retry.retrySafe = true;
        r = await(t.send(post));
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QCOMPARE(r.attempts, 2);
    }

    void timeoutEndsAHangingRequest() {
        HttpTransport t;
        HttpRequest req = get(m_server.url(QStringLiteral("/hang")));
        req.timeoutMs = 300;
        QElapsedTimer timer;
        timer.start();
        const HttpResponse r = await(t.send(req));
        QVERIFY(r.transportError);
        QCOMPARE(r.transportError->kind, Error::Kind::Timeout);
        QCOMPARE(r.httpStatus, 0);
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    }

    // #14: an endless body used to be collected until memory ran out.
    void endlessBodyEndsAtTheLimit() {
        HttpTransport t;
        HttpRequest req =
            get(m_server.url(QStringLiteral("/endless?token=s3cr3t"))
                    .replace(QStringLiteral("http://"), QStringLiteral("http://alice:hunter2@")),
                3);
        req.maxBodyBytes = 1024 * 1024;
        QElapsedTimer timer;
        timer.start();
        const HttpResponse r = await(t.send(req), 20000);
        QVERIFY(r.transportError);
        QCOMPARE(r.transportError->kind, Error::Kind::Invalid);
        const QString msg = r.transportError->message;
        QVERIFY2(msg.contains(QLatin1String("larger than the 1 MiB limit")), qPrintable(msg));
        QVERIFY2(msg.contains(m_server.url(QStringLiteral("/endless"))), qPrintable(msg));
        QVERIFY2(!msg.contains(QLatin1String("hunter2")) && !msg.contains(QLatin1String("alice")) &&
                     !msg.contains(QLatin1String("s3cr3t")),
                 qPrintable(msg));
        QCOMPARE(r.attempts, 1); // the same server would send the same body again
        QVERIFY(r.body.isEmpty());
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
    }

    void bodyLimitIsPerRequest() {
        HttpTransport t;
        HttpRequest req = get(m_server.url(QStringLiteral("/big?kb=2048")));
        HttpResponse r = await(t.send(req)); // the default (64 MiB) lets it through
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QCOMPARE(r.body.size(), 2048 * 1024);

        req.maxBodyBytes = 1000;
        r = await(t.send(req));
        QVERIFY(r.transportError);
        QVERIFY2(r.transportError->message.contains(QLatin1String("1000 bytes limit")),
                 qPrintable(r.transportError->message));

        req.maxBodyBytes = 0; // no limit
        r = await(t.send(req));
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QCOMPARE(req.maxBodyBytes, qint64(0));
        QCOMPARE(HttpRequest().maxBodyBytes, kDefaultMaxBodyBytes);
    }

    // #14: a hanging server made one GET wait 5 tries x 30 s.
    void totalTimeoutBoundsTheRetries() {
        HttpTransport t;
        HttpRequest req = get(m_server.url(QStringLiteral("/hang")), 10);
        req.timeoutMs = 400;
        req.retry.totalTimeoutMs = 1000;
        QElapsedTimer timer;
        timer.start();
        const HttpResponse r = await(t.send(req));
        const qint64 elapsed = timer.elapsed();
        QVERIFY(r.transportError);
        QCOMPARE(r.transportError->kind, Error::Kind::Timeout);
        QVERIFY2(r.transportError->message.contains(QLatin1String("total time limit of 1 s")),
                 qPrintable(r.transportError->message));
        QVERIFY2(r.attempts >= 2 && r.attempts <= 3, qPrintable(describe(r)));
        QVERIFY2(elapsed >= 900 && elapsed < 2500, qPrintable(QString::number(elapsed)));
    }

    void refusedConnectionIsANetworkError() {
        quint16 port = 0;
        {
            QTcpServer probe; // a port nobody listens on once probe is gone
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            port = probe.serverPort();
        }
        HttpTransport t;
        const HttpResponse r = await(t.send(get(QStringLiteral("http://127.0.0.1:%1/ok").arg(port), 2)));
        QVERIFY(r.transportError);
        QCOMPARE(r.transportError->kind, Error::Kind::Network);
        QCOMPARE(r.attempts, 2); // never sent: retried even though it could be a write
    }

    void cancelOneWhileAnotherCompletes() {
        HttpTransport t;
        auto hung = std::make_shared<QPromise<HttpResponse>>();
        QFuture<HttpResponse> hungFuture = hung->future();
        hung->start();
        HttpRequest hang = get(m_server.url(QStringLiteral("/hang")));
        hang.timeoutMs = 20000;
        const HttpTransport::RequestId id = t.start(hang, [hung](HttpResponse r) {
            hung->addResult(std::move(r));
            hung->finish();
        });
        QFuture<HttpResponse> slow = t.send(get(m_server.url(QStringLiteral("/slow?ms=300"))));
        QTest::qWait(100);
        QElapsedTimer timer;
        timer.start();
        t.cancel(id);
        const HttpResponse cancelled = await(hungFuture, 5000);
        QVERIFY(cancelled.transportError);
        QCOMPARE(cancelled.transportError->kind, Error::Kind::Cancelled);
        QVERIFY(timer.elapsed() < 2000);
        const HttpResponse done = await(slow);
        QVERIFY2(done.ok(), qPrintable(describe(done)));
        QCOMPARE(done.body, QByteArray("slow"));
    }

    void shutdownCancelsWhatIsPending() {
        auto t = std::make_unique<HttpTransport>();
        QFuture<HttpResponse> f = t->send(get(m_server.url(QStringLiteral("/hang"))));
        QTest::qWait(50);
        t.reset();
        QVERIFY(f.isFinished());
        QVERIFY(f.result().transportError);
        QCOMPARE(f.result().transportError->kind, Error::Kind::Cancelled);
    }

    void streamDeliversChunksAsTheyArrive() {
        HttpTransport t;
        std::mutex m;
        QList<QByteArray> chunks;
        QList<qint64> arrivals;
        QElapsedTimer timer;
        timer.start();
        auto done = std::make_shared<QPromise<HttpResponse>>();
        QFuture<HttpResponse> f = done->future();
        done->start();
        HttpRequest req = get(m_server.url(QStringLiteral("/stream?n=4&ms=250")));
        req.timeoutMs = 0;
        t.start(
            req,
            [done](HttpResponse r) {
                done->addResult(std::move(r));
                done->finish();
            },
            [&](const QByteArray &chunk) {
                std::lock_guard lock(m);
                chunks << chunk;
                arrivals << timer.elapsed();
                return true;
            });
        // The first chunk is there long before the stream ends.
        QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                     std::lock_guard lock(m);
                                     return !chunks.isEmpty();
                                 })(),
                                 5000);
        QVERIFY(!f.isFinished());
        const HttpResponse r = await(f);
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QVERIFY(r.body.isEmpty()); // handed to the chunk handler instead
        std::lock_guard lock(m);
        QCOMPARE(chunks.join(), QByteArray("chunk0\nchunk1\nchunk2\nchunk3\n"));
        QVERIFY2(arrivals.last() - arrivals.first() >= 500, qPrintable(QString::number(arrivals.last())));
    }

    void streamEndedByItsConsumer() {
        HttpTransport t;
        HttpRequest req = get(m_server.url(QStringLiteral("/stream?n=20&ms=100")));
        req.timeoutMs = 0;
        req.retry.maxAttempts = 5;
        auto done = std::make_shared<QPromise<HttpResponse>>();
        QFuture<HttpResponse> f = done->future();
        done->start();
        t.start(
            req,
            [done](HttpResponse r) {
                done->addResult(std::move(r));
                done->finish();
            },
            [](const QByteArray &) { return false; });
        const HttpResponse r = await(f, 5000);
        QVERIFY(r.transportError);
        QCOMPARE(r.transportError->kind, Error::Kind::Cancelled);
        QCOMPARE(r.attempts, 1); // not retried
    }

    void tlsWithInMemoryCa() {
        test::TestClusterProcess cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        auto cfg = KubeConfig::load(cluster.kubeconfigPath());
        QVERIFY(cfg);
        auto conn = cfg->connection(QStringLiteral("admin"));
        QVERIFY(conn);
        QVERIFY(!conn->caPem.isEmpty());

        HttpTransport t;
        HttpRequest req = get(conn->server + QStringLiteral("/api"));
        req.headers.append(
            qMakePair(QByteArray("Authorization"), QByteArray("Bearer " + conn->token.toUtf8())));
        req.tls.caPem = conn->caPem;
        HttpResponse r = await(t.send(req));
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QVERIFY(r.body.contains("APIVersions"));

        // The system trust store does not know the cluster's own CA.
        HttpRequest noCa = req;
        noCa.tls.caPem.clear();
        r = await(t.send(noCa));
        QVERIFY(r.transportError);
        QCOMPARE(r.transportError->kind, Error::Kind::Tls);
        QCOMPARE(r.attempts, 1); // a verification failure is not retried

        HttpRequest insecure = noCa;
        insecure.tls.insecureSkipVerify = true;
        r = await(t.send(insecure));
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QVERIFY(cluster.stop());
    }
};

QTEST_GUILESS_MAIN(TestHttpTransport)
#include "tst_httptransport.moc"
