// Issue 31 item 12: what the controller's endpoints say when what is behind them fails.
// Self-service against an API server that accepts connections and never answers (a
// real loopback listener): the TokenReview is bounded to a few seconds in total, not
// 5 tries of 10 s or more, and the 503 does not show the API server's address. The
// admission webhook over a broken database (nothing listening; a real PostgreSQL
// without that database): the 500 names no host, port, database or user; the details
// are logged on the controller's side.
#include "services/controller/admissionwebhook.h"
#include "core/httpd/httpserver.h"
#include "core/net/httptransport.h"
#include "core/kube/kubeclient.h"
#include "services/controller/selfservice.h"
#include "tests/webhooktestutil.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>
#include <QtTest>

using namespace gq;

namespace {

// A port with nothing listening on it (bound, then closed).
int closedPort() {
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    const int port = s.serverPort();
    s.close();
    return port;
}

} // namespace

class TestInternalErrors : public QObject {
    Q_OBJECT

private:
    HttpTransport m_http;

    // GET on `url` with a bearer token, the event loop running meanwhile (the hanging
    // listener accepts on this thread).
    HttpResponse getWithLoop(const QString &url, qint64 &ms) {
        HttpRequest req;
        req.url = url;
        req.headers.append(qMakePair(QByteArray("Authorization"), QByteArray("Bearer tok-someone")));
        QElapsedTimer timer;
        timer.start();
        QFuture<HttpResponse> f = m_http.send(req);
        [&] { QTRY_VERIFY_WITH_TIMEOUT(f.isFinished(), 120000); }();
        ms = timer.elapsed();
        return f.isFinished() ? f.result() : HttpResponse{};
    }

    // The webhook's answer to one GPU pod's review over `dbUrl`.
    static httpd::Response reviewOver(const QString &dbUrl) {
        AdmissionWebhook::Options opt;
        AdmissionWebhook hook(dbUrl, UsageStore::Options{}, opt);
        httpd::Request req;
        req.method = "POST";
        req.path = AdmissionWebhook::kPath;
        req.body = gq::test::reviewJson(QStringLiteral("uid-1"), QStringLiteral("team-a"),
                                        QStringLiteral("alice"), 2);
        return hook.handle(req);
    }

private slots:
    void selfServiceAgainstAHangingApiServer() {
        // Accepts every connection and never writes a byte (no TLS handshake either).
        QTcpServer hanging;
        QVERIFY(hanging.listen(QHostAddress::LocalHost, 0));
        QList<QTcpSocket *> held;
        connect(&hanging, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket *s = hanging.nextPendingConnection())
                held.append(s);
        });
        KubeConnection conn;
        conn.server = QStringLiteral("https://127.0.0.1:%1").arg(hanging.serverPort());
        conn.insecureSkipTlsVerify = true;
        conn.token = QStringLiteral("controller-token");
        KubeClientOptions kubeOptions; // the defaults: retries, per-attempt timeouts
        kubeOptions.requestTimeoutMs = 10000;
        SelfServiceOptions o;
        o.openStore = [] { return UsageStore::open(QStringLiteral("sqlite://:memory:")); };
        o.kube = std::make_shared<KubeClient>(conn, kubeOptions);
        SelfService service(std::move(o));
        httpd::HttpServer server;
        service.mount(server);
        auto port = server.start({QStringLiteral("127.0.0.1"), 0});
        QVERIFY(port);
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(*port);
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(QStringLiteral("self-service answered 503: cannot verify the "
                                                               "token.*127\\.0\\.0\\.1:%1")
                                                    .arg(hanging.serverPort())));
        qint64 ms = 0;
        const HttpResponse status = getWithLoop(base + QStringLiteral("/quota/status"), ms);
        qInfo("/quota/status with the API server hanging: %d after %lld ms", status.httpStatus, ms);
        QCOMPARE(status.httpStatus, 503);
        QVERIFY2(ms < 8000, qPrintable(QString::number(ms))); // was 5 tries x the request timeout
        const QByteArray port1 = QByteArray::number(hanging.serverPort());
        for (const QByteArray &secret : {QByteArray("127.0.0.1"), port1, QByteArray("https://")})
            QVERIFY2(!status.body.contains(secret), status.body.constData());
        QVERIFY2(status.body.contains("cannot verify the token with the cluster"), status.body.constData());
        // The page says the same, as HTML.
        const HttpResponse page = getWithLoop(base + QStringLiteral("/quota"), ms);
        QCOMPARE(page.httpStatus, 503);
        QVERIFY2(ms < 8000, qPrintable(QString::number(ms)));
        QVERIFY2(!page.body.contains("127.0.0.1") && !page.body.contains(port1), page.body.constData());
        server.stop();
        qDeleteAll(held);
    }

    void webhookOverADatabaseWithNothingListening() {
        const int port = closedPort();
        const QString url = QStringLiteral("postgresql://gq_secret_user@127.0.0.1:%1/gq_secret_db").arg(port);
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(QStringLiteral("admission review answered 500")));
        const httpd::Response r = reviewOver(url);
        QCOMPARE(r.status, 500);
        for (const QByteArray &secret :
             {QByteArray("127.0.0.1"), QByteArray::number(port), QByteArray("gq_secret_user"),
              QByteArray("gq_secret_db"), QByteArray("postgresql")})
            QVERIFY2(!r.body.contains(secret), r.body.constData());
        QVERIFY2(r.body.contains("unavailable"), r.body.constData());
    }

    void webhookOverARealPostgresWithoutItsDatabase() {
        const QString base = qEnvironmentVariable("GQ_TEST_PG_URL");
        if (base.isEmpty()) {
            if (qEnvironmentVariable("CI") == QLatin1String("true"))
                QFAIL("CI=true but GQ_TEST_PG_URL is not set (source scripts/start-services.sh)");
            QSKIP("GQ_TEST_PG_URL not set");
        }
        QUrl url(base);
        url.setPath(QStringLiteral("/gq_secret_no_such_db"));
        const httpd::Response r = reviewOver(url.toString());
        QCOMPARE(r.status, 500);
        for (const QByteArray &secret :
             {QByteArray("127.0.0.1"), QByteArray::number(url.port()),
              QByteArray(url.userName().toUtf8() + '@'), QByteArray("gq_secret_no_such_db")})
            QVERIFY2(!r.body.contains(secret), r.body.constData());
    }
};

QTEST_GUILESS_MAIN(TestInternalErrors)
#include "tst_internalerrors.moc"
