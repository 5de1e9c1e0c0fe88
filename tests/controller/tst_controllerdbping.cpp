// The built gpuquota-controller notices its database without anything to write:
//  * PostgreSQL stops in a quiet cluster (no pod changes): /readyz says
//    "database: unavailable" within the ping interval, and "available" again after;
//  * a network cut without FIN or RST (a relay between the controller and PostgreSQL
//    that stops forwarding and keeps the connections open): /readyz says "database:
//    unavailable" within ~30 s (a ping bounded by a timeout), "available" once the
//    relay forwards again;
//  * a wrong password at start is logged, with the server's words and without the
//    password, although the database was never available.
#include "tests/controller/controllertestutil.h"
#include "tests/controller/podscript.h"
#include "tests/tcprelay.h"

#include <QElapsedTimer>
#include <QUrl>
#include <QtTest>

#include <csignal>

using namespace gq;
using namespace gq::test;

class TestControllerDbPing : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    PostgresTestbed m_bed;

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        GQ_REQUIRE_TOOL("curl");
        QVERIFY(m_dir.isValid());
        QVERIFY2(m_bed.start(m_dir.path(), QDateTime::currentSecsSinceEpoch() / 86400 * 86400),
                 qPrintable(m_bed.error));
    }

    void quietOutageShowsInReadiness() {
        const int listen = freePort();
        ControllerProcess controller;
        QVERIFY(controller.start(
            m_bed.controllerConfig(m_dir.path(), QStringLiteral("quiet"), listen, {}, m_bed.pg->url)));
        QTRY_VERIFY_WITH_TIMEOUT(readyz(listen).contains(QLatin1String("database: available")), 30000);
        QVERIFY(m_bed.pg->stop()); // nothing else changes: no pod, no write
        QTRY_VERIFY_WITH_TIMEOUT(readyz(listen).contains(QLatin1String("database: unavailable")), 25000);
        QVERIFY(m_bed.pg->start());
        QTRY_VERIFY_WITH_TIMEOUT(readyz(listen).contains(QLatin1String("database: available")), 25000);
        controller.signal(SIGTERM);
        QVERIFY(controller.waitForExit(15000));
    }

    void silentCutShowsInReadiness() {
        const QUrl pg(m_bed.pg->url);
        RelayThread relayThread;
        TcpRelay *relay = relayThread.start(quint16(pg.port()));
        QVERIFY(relay);
        QUrl viaRelay = pg;
        viaRelay.setPort(relay->port());
        const int listen = freePort();
        ControllerProcess controller;
        QVERIFY(controller.start(
            m_bed.controllerConfig(m_dir.path(), QStringLiteral("silent"), listen, {}, viaRelay.toString())));
        // Recording (its reads and writes done), and the enforcer, boosts and metrics
        // ask the database on their timers: a statement may wait on the cut connection.
        QTRY_VERIFY_WITH_TIMEOUT(readyz(listen).startsWith(QLatin1String("200")), 30000);
        QVERIFY(relay->accepted() >= 1);
        relay->call([relay] { relay->setMode(TcpRelay::Mode::Blackhole); });
        QElapsedTimer cut;
        cut.start();
        QTRY_VERIFY_WITH_TIMEOUT(readyz(listen).contains(QLatin1String("database: unavailable")), 30000);
        qInfo("database: unavailable %lld ms after the silent cut", cut.elapsed());
        QVERIFY2(cut.elapsed() <= 30000, qPrintable(QString::number(cut.elapsed())));
        relay->call([relay] { relay->setMode(TcpRelay::Mode::Relay); });
        // A reconnect attempt in flight ends at the URL's connect_timeout (10 s).
        QTRY_VERIFY_WITH_TIMEOUT(readyz(listen).contains(QLatin1String("database: available")), 40000);
        controller.signal(SIGTERM);
        QVERIFY(controller.waitForExit(20000));
    }

    void wrongPasswordAtStartIsLogged() {
        const QString url = qEnvironmentVariable("GQ_TEST_PG_PASSWORD_URL");
        if (url.isEmpty()) {
            if (inCi())
                QFAIL(
                    "GQ_TEST_PG_PASSWORD_URL is not set (scripts/start-services.sh sets it; required in CI)");
            QSKIP("GQ_TEST_PG_PASSWORD_URL is not set");
        }
        const QByteArray wrong = "not-the-password-7c1e";
        QProcess proc;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PGPASSWORD"), QString::fromLatin1(wrong));
        proc.setProcessEnvironment(env);
        proc.setProcessChannelMode(QProcess::MergedChannels);
        const int listen = freePort();
        proc.start(binDir() + QStringLiteral("/gpuquota-controller"),
                   {QStringLiteral("--config"),
                    m_bed.controllerConfig(m_dir.path(), QStringLiteral("password"), listen, {}, url)});
        QVERIFY(proc.waitForStarted(10000));
        QByteArray log;
        (void)QTest::qWaitFor(
            [&] {
                proc.waitForReadyRead(200);
                log += proc.readAll();
                return log.contains("password authentication failed");
            },
            20000);
        ::kill(static_cast<pid_t>(proc.processId()), SIGTERM);
        proc.waitForFinished(15000);
        log += proc.readAll();
        QVERIFY2(log.contains("usage database unavailable"), log.constData());
        QVERIFY2(log.contains("password authentication failed"), log.constData());
        QVERIFY2(!log.contains(wrong), "the password is in the log");
    }
};

QTEST_GUILESS_MAIN(TestControllerDbPing)
#include "tst_controllerdbping.moc"
