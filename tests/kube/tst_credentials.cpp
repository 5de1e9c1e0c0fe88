// Credentials resolved off the HTTP loop (CredentialProvider), against the real test
// cluster: a slow exec plugin delays only the requests that wait for its token, never
// a running watch; concurrent requests share one plugin run; a token file is cached
// and re-read when it changes or after a 401.
#include "core/kube/credentials.h"
#include "core/kube/kubeclient.h"

#include "tests/kube/kubeclienttestutil.h"

#include <QElapsedTimer>
#include <QFile>
#include <QtTest>

using namespace gq;
using namespace gq::test;

class TestCredentials : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestClusterProcess> m_cluster;
    std::shared_ptr<KubeClient> m_admin;
    KubeConnection m_adminConn;
    int m_recoveries = 0;
    int m_plugins = 0;

    // A plugin that prints the admin token. Its first run answers at once with a token
    // that is stale two seconds later (expiry 12 s ahead, renewal margin 10 s); later
    // runs take slowSecs and answer with a token good for an hour. Each run appends a
    // line to the returned counter file.
    QString writePlugin(int slowSecs, QString *counter) {
        const QString dir = m_cluster->temporaryDir();
        const QString n = QString::number(++m_plugins);
        *counter = dir + QStringLiteral("/runs-") + n;
        const QString path = dir + QStringLiteral("/plugin-") + n + QStringLiteral(".sh");
        const QByteArray script =
            "#!/bin/sh\n"
            "echo run >> '" +
            counter->toUtf8() +
            "'\n"
            "if [ \"$(wc -l < '" +
            counter->toUtf8() +
            "')\" -gt 1 ]; then\n"
            "  sleep " +
            QByteArray::number(slowSecs) +
            "\n"
            "  exp=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)\n"
            "else\n"
            "  exp=$(date -u -d '+12 seconds' +%Y-%m-%dT%H:%M:%SZ)\n"
            "fi\n"
            "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
            "\"status\":{\"token\":\"" +
            m_adminConn.token.toUtf8() +
            "\",\"expirationTimestamp\":\"%s\"}}' "
            "\"$exp\"\n";
        writeFile(path, script);
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }

    KubeConnection execConnection(const QString &plugin) const {
        KubeConnection c = m_adminConn;
        c.token.clear();
        c.exec = KubeExecConfig{QStringLiteral("client.authentication.k8s.io/v1"),
                                plugin,
                                {},
                                {},
                                QStringLiteral("Never"),
                                false,
                                {},
                                m_cluster->temporaryDir()};
        return c;
    }

    // The admin connection reading its token from `file`, which is written with `token`.
    KubeConnection tokenFileConnection(const QString &file, const QByteArray &token) const {
        writeFile(file, token);
        KubeConnection c = m_adminConn;
        c.token.clear();
        c.tokenFile = file;
        return c;
    }

    static Result<Credentials> acquire(CredentialProvider &creds) {
        auto promise = std::make_shared<QPromise<Result<Credentials>>>();
        promise->start();
        auto f = promise->future();
        creds.acquire([promise](Result<Credentials> c) {
            promise->addResult(std::move(c));
            promise->finish();
        });
        return await(f, 30000);
    }

    static int runs(const QString &counter) { return int(readFile(counter).count("run")); }

private Q_SLOTS:
    void initTestCase() {
        m_cluster = std::make_unique<TestClusterProcess>();
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        auto conn = KubeConfig::load(m_cluster->kubeconfigPath())->connection(QStringLiteral("admin"));
        QVERIFY(conn);
        QVERIFY(!conn->token.isEmpty());
        m_adminConn = *conn;
        m_admin = std::make_shared<KubeClient>(m_adminConn, testClientOptions());
    }

    void cleanupTestCase() {
        m_admin.reset();
        QVERIFY(m_cluster->stop());
    }

    void slowExecPluginDoesNotStallAWatch() {
        CarefulWriter w(*m_admin, &m_recoveries);
        const QString ns = QStringLiteral("cred-watch");
        GQ_VERIFY_OK(w.create(KubeResource::namespaces(), {}, namespaceObject(ns)));
        QString counter;
        KubeClient client(execConnection(writePlugin(5, &counter)), testClientOptions());

        const auto &rq = KubeResource::resourceQuotas();
        QElapsedTimer sinceToken;
        sinceToken.start();
        auto start = await(client.list(rq, ns));
        GQ_VERIFY_OK(start);
        QCOMPARE(runs(counter), 1);

        QStringList seen;
        QObject context;
        WatchHandlers h;
        h.events = [&](const QList<WatchEvent> &batch) {
            for (const WatchEvent &e : batch) {
                if (e.type == WatchEvent::Type::Added)
                    seen << nameOf(e.object);
            }
        };
        WatchOptions wo;
        wo.resourceVersion = start->resourceVersion;
        auto watch = client.watch(rq, ns, wo, &context, h);
        GQ_VERIFY_OK(w.create(
            rq, ns, quotaObject(QStringLiteral("q0"), {{QStringLiteral("pods"), QStringLiteral("1")}})));
        QTRY_COMPARE_WITH_TIMEOUT(seen.size(), 1, 10000); // the stream is live

        // The token is stale now: the next request must wait for the slow second run.
        while (sinceToken.elapsed() < 3000)
            QTest::qWait(100);
        QElapsedTimer slowFor;
        slowFor.start();
        auto slow = client.get(KubeResource::namespaces(), {}, ns);

        // Meanwhile the watch keeps delivering what happens.
        int seenWhileWaiting = 0;
        for (int i = 1; i <= 6; ++i) {
            GQ_VERIFY_OK(w.create(
                rq, ns,
                quotaObject(QStringLiteral("q%1").arg(i), {{QStringLiteral("pods"), QStringLiteral("1")}})));
            QTRY_COMPARE_WITH_TIMEOUT(seen.size(), i + 1, 3000);
            if (!slow.isFinished())
                ++seenWhileWaiting;
            QTest::qWait(200);
        }
        QVERIFY2(seenWhileWaiting >= 4, qPrintable(QString::number(seenWhileWaiting)));

        auto got = await(slow);
        GQ_VERIFY_OK(got);
        QVERIFY2(slowFor.elapsed() >= 4500, qPrintable(QString::number(slowFor.elapsed())));
        QCOMPARE(runs(counter), 2);
        QVERIFY(watch->isActive());
        watch->stop();
    }

    void concurrentRequestsShareOnePluginRun() {
        QString counter;
        KubeClient client(execConnection(writePlugin(1, &counter)), testClientOptions());
        QList<QFuture<Result<ObjectList>>> calls;
        for (int i = 0; i < 5; ++i)
            calls << client.list(KubeResource::namespaces(), {});
        for (auto &f : calls)
            GQ_VERIFY_OK(await(f));
        QCOMPARE(runs(counter), 1);
    }

    void aRejectedGenerationIsResolvedOnce() {
        QString counter;
        CredentialProvider creds(execConnection(writePlugin(0, &counter)));
        QVERIFY(creds.refreshable());
        auto first = acquire(creds);
        GQ_VERIFY_OK(first);
        QCOMPARE(first->bearerToken, m_adminConn.token);
        creds.invalidate(first->generation);
        creds.invalidate(first->generation); // a second 401 for the same token
        auto second = acquire(creds);
        GQ_VERIFY_OK(second);
        QVERIFY(second->generation != first->generation);
        creds.invalidate(first->generation); // stale: already replaced
        auto third = acquire(creds);
        GQ_VERIFY_OK(third);
        QCOMPARE(third->generation, second->generation);
        QCOMPARE(creds.execRuns(), 2);
        QCOMPARE(runs(counter), 2);
    }

    void tokenFileIsCachedAndReReadWhenItChanges() {
        const QString file = m_cluster->temporaryDir() + QStringLiteral("/token-rotating");
        CredentialProvider creds(tokenFileConnection(file, "first\n"));
        auto first = acquire(creds);
        GQ_VERIFY_OK(first);
        QCOMPARE(first->bearerToken, QStringLiteral("first"));
        auto again = acquire(creds);
        GQ_VERIFY_OK(again);
        QCOMPARE(again->generation, first->generation);
        QCOMPARE(creds.tokenFileReads(), 1); // not read on every request

        writeFile(file, "second, a little longer\n"); // rotated
        QTRY_COMPARE_WITH_TIMEOUT(acquire(creds)->bearerToken, QStringLiteral("second, a little longer"),
                                  10000);
        QCOMPARE(creds.tokenFileReads(), 2);
    }

    void tokenFileIsReReadAfterUnauthorized() {
        const QString file = m_cluster->temporaryDir() + QStringLiteral("/token");
        KubeClient client(tokenFileConnection(file, "not-the-token\n"), testClientOptions());
        // 401, re-read (still wrong), 401.
        auto denied = await(client.list(KubeResource::namespaces(), {}));
        QVERIFY(!denied);
        QCOMPARE(denied.error().kind, Error::Kind::Unauthorized);
        QCOMPARE(client.requestsSent(), 2);
        writeFile(file, m_adminConn.token.toUtf8());
        GQ_VERIFY_OK(await(client.list(KubeResource::namespaces(), {})));
    }
};

QTEST_GUILESS_MAIN(TestCredentials)
#include "tst_credentials.moc"
