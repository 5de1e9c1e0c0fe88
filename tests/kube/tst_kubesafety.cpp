// The client's safety bounds (#14): kubectl's --request-timeout syntax, no credentials
// over plain http:// to another host, and response bodies and watch events bounded in
// size, against the real test cluster.
#include "core/kube/kubeclient.h"
#include "core/kube/plainhttp.h"
#include "core/kube/requesttimeout.h"

#include "tests/kube/kubeclienttestutil.h"

#include <QElapsedTimer>
#include <QtTest>

using namespace gq;
using namespace gq::test;

class TestKubeSafety : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestClusterProcess> m_cluster;

    std::shared_ptr<KubeClient> client(KubeClientOptions o = testClientOptions()) {
        auto c = KubeClient::fromKubeconfig(m_cluster->kubeconfigPath(), QStringLiteral("admin"), o);
        if (!c)
            qFatal("cannot build client: %s", qPrintable(c.error().toString()));
        return *c;
    }

    static KubeConnection plainHttp(const QString &server) {
        KubeConnection c;
        c.contextName = QStringLiteral("prod");
        c.userName = QStringLiteral("ops-admin");
        c.server = server;
        c.token = QStringLiteral("s3cr3t-token");
        return c;
    }

private Q_SLOTS:
    void initTestCase() {
        TestClusterProcess::Options opts;
        opts.scenario = QStringLiteral("demo");
        m_cluster = std::make_unique<TestClusterProcess>(opts);
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
    }
    void cleanupTestCase() { QVERIFY(m_cluster->stop()); }

    void requestTimeoutSyntax_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("ms"); // -1: refused
        QTest::newRow("plain seconds") << QStringLiteral("30") << 30000;
        QTest::newRow("zero: none") << QStringLiteral("0") << 0;
        QTest::newRow("zero with unit") << QStringLiteral("0s") << 0;
        QTest::newRow("seconds") << QStringLiteral("30s") << 30000;
        QTest::newRow("minute") << QStringLiteral("1m") << 60000;
        QTest::newRow("compound") << QStringLiteral("1h2m3s") << 3723000;
        QTest::newRow("fraction") << QStringLiteral("1.5s") << 1500;
        QTest::newRow("milliseconds") << QStringLiteral("250ms") << 250;
        QTest::newRow("microseconds round up") << QStringLiteral("10us") << 1;
        QTest::newRow("negative") << QStringLiteral("-1") << -1;
        QTest::newRow("negative unit") << QStringLiteral("-5s") << -1;
        QTest::newRow("unknown unit") << QStringLiteral("5x") << -1;
        QTest::newRow("days are not Go") << QStringLiteral("1d") << -1;
        QTest::newRow("no number") << QStringLiteral("s") << -1;
        QTest::newRow("words") << QStringLiteral("soon") << -1;
        QTest::newRow("empty") << QString() << -1;
    }
    void requestTimeoutSyntax() {
        QFETCH(QString, value);
        QFETCH(int, ms);
        const Result<int> r = parseRequestTimeout(value);
        if (ms < 0) {
            QVERIFY(!r);
            QCOMPARE(r.error().kind, Error::Kind::Usage);
            QVERIFY2(r.error().message.contains(QLatin1String("--request-timeout")),
                     qPrintable(r.error().message));
        } else {
            QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
            QCOMPARE(*r, ms);
        }
    }

    void loopbackHosts_data() {
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("loopback");
        QTest::newRow("localhost") << QStringLiteral("localhost") << true;
        QTest::newRow("LOCALHOST") << QStringLiteral("LocalHost") << true;
        QTest::newRow("sub.localhost") << QStringLiteral("api.localhost") << true;
        QTest::newRow("127.0.0.1") << QStringLiteral("127.0.0.1") << true;
        QTest::newRow("127.1.2.3") << QStringLiteral("127.1.2.3") << true;
        QTest::newRow("::1") << QStringLiteral("::1") << true;
        QTest::newRow("mapped") << QStringLiteral("::ffff:127.0.0.1") << true;
        QTest::newRow("private address") << QStringLiteral("10.0.0.5") << false;
        QTest::newRow("127 as a name prefix") << QStringLiteral("127.0.0.1.evil.example") << false;
        QTest::newRow("localhost as a prefix") << QStringLiteral("localhost.evil.example") << false;
        QTest::newRow("name") << QStringLiteral("kube.example.com") << false;
        QTest::newRow("out of range") << QStringLiteral("127.0.0.256") << false;
    }
    void loopbackHosts() {
        QFETCH(QString, host);
        QFETCH(bool, loopback);
        QCOMPARE(isLoopbackHost(host), loopback);
    }

    // #14: an http:// server URL sent the bearer token in clear text, with no warning.
    void noCredentialsOverPlainHttpToAnotherHost() {
        KubeClientOptions o = testClientOptions();
        o.allowPlainHttpCredentials = false;
        KubeClient remote(plainHttp(QStringLiteral("http://192.0.2.7:8080")), o);
        QElapsedTimer timer;
        timer.start();
        auto r = await(remote.list(KubeResource::namespaces(), {}));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::Config);
        const QString msg = r.error().message;
        QVERIFY2(
            msg.contains(QLatin1String("refusing to send a bearer token of kubeconfig user \"ops-admin\"")),
            qPrintable(msg));
        QVERIFY2(msg.contains(QLatin1String("http://192.0.2.7:8080")), qPrintable(msg));
        QVERIFY(!msg.contains(QLatin1String("s3cr3t")));
        QCOMPARE(remote.requestsSent(), 0); // nothing left the machine
        QVERIFY(timer.elapsed() < 2000);
        QVERIFY(remote.clearTextWarning().isEmpty()); // refused, not warned about

        // A client certificate is refused the same way; without credentials http is fine.
        KubeConnection cert = plainHttp(QStringLiteral("http://kube.example.com"));
        cert.token.clear();
        cert.clientCertPem = "-----BEGIN CERTIFICATE-----";
        QVERIFY(plainHttpRefusal(cert, false));
        QVERIFY(plainHttpRefusal(cert, false)->message.contains(QLatin1String("a client certificate")));
        KubeConnection anonymous = plainHttp(QStringLiteral("http://kube.example.com"));
        anonymous.token.clear();
        QVERIFY(!plainHttpRefusal(anonymous, false));
        // Explicitly allowed: sent, and warned about.
        QVERIFY(!plainHttpRefusal(plainHttp(QStringLiteral("http://192.0.2.7:8080")), true));
        o.allowPlainHttpCredentials = true;
        KubeClient allowed(plainHttp(QStringLiteral("http://192.0.2.7:8080")), o);
        QVERIFY(allowed.clearTextWarning().contains(QLatin1String("sent unencrypted")));
    }

    void loopbackPlainHttpIsWarnedAbout() {
        KubeClient local(plainHttp(QStringLiteral("http://127.0.0.1:8001")), testClientOptions());
        const QString warning = local.clearTextWarning();
        QVERIFY2(
            warning.startsWith(QLatin1String("warning: a bearer token of kubeconfig user \"ops-admin\" is "
                                             "sent unencrypted to http://127.0.0.1:8001")),
            qPrintable(warning));
        QVERIFY(!warning.contains(QLatin1String("s3cr3t")));
        // https says nothing.
        QVERIFY(client()->clearTextWarning().isEmpty());
    }

    // #14: an 800 MB body used 1.07 GB; a list past the limit is an error now.
    void responseBodyLimit() {
        KubeClientOptions o = testClientOptions();
        o.maxResponseBytes = 512;
        auto small = client(o);
        auto r = await(small->list(KubeResource::namespaces(), {}));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::Invalid);
        QVERIFY2(r.error().message.contains(QLatin1String("larger than the 512 bytes limit")),
                 qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(small->server() + QStringLiteral("/api/v1/namespaces")),
                 qPrintable(r.error().message));
        QCOMPARE(small->requestsSent(), 1); // not retried

        // The default takes it, and a request may lift its own limit.
        auto full = await(client()->list(KubeResource::namespaces(), {}));
        GQ_VERIFY_OK(full);
        KubeRequest req;
        req.path = KubeResource::namespaces().path();
        req.maxBodyBytes = 0;
        auto lifted = await(small->send(req));
        GQ_VERIFY_OK(lifted);
    }

    void watchEventLimit() {
        KubeClientOptions o = testClientOptions();
        o.maxWatchEventBytes = 4096;
        auto watcher = client(o);
        auto admin = client();
        const QString ns = QStringLiteral("team-nlp");
        QObject context;
        QList<WatchEvent> events;
        std::optional<Error> failure;
        WatchHandlers h;
        h.events = [&](const QList<WatchEvent> &batch) { events += batch; };
        h.failed = [&](const Error &e) { failure = e; };
        auto list = await(admin->list(KubeResource::resourceQuotas(), ns));
        GQ_VERIFY_OK(list);
        WatchOptions wo;
        wo.resourceVersion = list->resourceVersion;
        auto watch = watcher->watch(KubeResource::resourceQuotas(), ns, wo, &context, h);

        QJsonObject big =
            quotaObject(QStringLiteral("big-event"), {{QStringLiteral("pods"), QStringLiteral("1")}});
        QJsonObject meta = big.value(QLatin1String("metadata")).toObject();
        meta.insert(QStringLiteral("annotations"),
                    QJsonObject{{QStringLiteral("example.com/padding"), QString(8000, QLatin1Char('x'))}});
        big.insert(QStringLiteral("metadata"), meta);
        auto created = await(admin->create(KubeResource::resourceQuotas(), ns, big));
        GQ_VERIFY_OK(created);
        QTRY_VERIFY_WITH_TIMEOUT(failure.has_value(), 10000);
        QCOMPARE(failure->kind, Error::Kind::Invalid);
        QVERIFY2(failure->message.contains(QLatin1String("an event is larger than the 4096 bytes limit")),
                 qPrintable(failure->message));
        QVERIFY(events.isEmpty());
        QVERIFY(!watch->isActive());
    }
};

QTEST_GUILESS_MAIN(TestKubeSafety)
#include "tst_kubesafety.moc"
