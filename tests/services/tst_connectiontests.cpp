// What the Test buttons say, against the real things: a PostgreSQL (GQ_TEST_PG_URL) and
// SQLite, a real Prometheus (/usr/bin/prometheus) scraping a dcgm-exporter stand-in (no
// GPUs here: a small HTTP server answering the exporter's exposition text) and one behind
// basic auth (a bearer token is refused with 401), and discovery on the real test
// cluster. Every failure case checks its words.

#include "services/cluster/clusterdiscovery.h"
#include "services/cluster/connectiontests.h"
#include "core/net/httptransport.h"
#include "core/kube/kubeclient.h"
#include "tests/testclusterprocess.h"
#include "core/usage/usagestore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <future>

#include "tests/services/futurewait.h"
#include "tests/usage/usagebackend.h"

using namespace gq;
using gq::test::waitFor;

namespace {
// The connection tests block; run them on another thread while this one serves the
// exporter stand-in.
template <typename F> auto offThread(F f) {
    auto future = std::async(std::launch::async, std::move(f));
    (void)QTest::qWaitFor(
        [&] { return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }, 60000);
    return future.get();
}

int freePort() {
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

// What dcgm-exporter answers on /metrics for two GPUs (and /healthz, for the controller test).
class ExporterStandIn : public QTcpServer {
public:
    ExporterStandIn() {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s] {
                    const QByteArray request = s->readAll();
                    const QByteArray path = request.split(' ').value(1);
                    QByteArray body;
                    QByteArray status = "200 OK";
                    if (path == "/metrics") {
                        body = "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
                               "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
                               "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",namespace=\"team-a\"} 87\n"
                               "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-b\",namespace=\"team-b\"} 3\n";
                    } else if (path == "/fleet") {
                        // Three GPUs: GPU-a shared by two pods (two series), GPU-c from an
                        // old exporter (lower-case names and labels), GPU-m in MIG mode with
                        // two instances that report engine activity only.
                        body = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\","
                               "namespace=\"a\",pod=\"p1\"} 50\n"
                               "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\","
                               "namespace=\"b\",pod=\"p2\"} 50\n"
                               "dcgm_fi_dev_gpu_util{gpu=\"1\",uuid=\"GPU-c\",hostname=\"n1\"} 10\n"
                               "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"2\",UUID=\"GPU-m\",Hostname=\"n1\","
                               "GPU_I_ID=\"1\",GPU_I_PROFILE=\"3g.40gb\",namespace=\"c\",pod=\"p3\"} 0.5\n"
                               "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"2\",UUID=\"GPU-m\",Hostname=\"n1\","
                               "GPU_I_ID=\"2\",GPU_I_PROFILE=\"3g.40gb\"} 0\n";
                    } else if (path == "/healthz") {
                        body = "ok";
                    } else {
                        status = "404 Not Found";
                        body = "not found";
                    }
                    s->write("HTTP/1.1 " + status + "\r\nContent-Type: text/plain\r\nContent-Length: " +
                             QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    QString url(const char *path) const {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(serverPort()).arg(QLatin1String(path));
    }
};
} // namespace

class TestConnectionTests : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_exporter.listen(QHostAddress::LocalHost, 0));
    }
    void cleanupTestCase() {
        for (QProcess *p : std::as_const(m_prometheus)) {
            p->terminate();
            p->waitForFinished(10000);
            delete p;
        }
        dropPgSchema();
    }

    void sqliteDatabase() {
        const QString url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("u.db"));
        // Not there yet: the test says so and creates nothing.
        auto missing = connectiontests::usageDatabase(url, {}, 0);
        QVERIFY(!missing);
        QVERIFY2(missing.error().message.startsWith(QStringLiteral("no database file at ")) &&
                     missing.error().message.contains(QStringLiteral("the console creates it")),
                 qPrintable(missing.error().message));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("u.db"))));
        const qint64 now = 1767225600;
        seed(url, now);
        auto ok = connectiontests::usageDatabase(url, {}, now);
        QVERIFY2(ok, qPrintable(ok ? QString() : ok.error().message));
        QVERIFY2(ok->startsWith(QStringLiteral("connected, schema v%1, 3 intervals, newest 3 min ago")
                                    .arg(UsageStore::kSchemaVersion)),
                 qPrintable(*ok));
        QVERIFY(!connectiontests::usageDatabase(QStringLiteral("mysql://x"), {}, now));
        QCOMPARE(connectiontests::usageDatabase(QString(), {}, now).error().message,
                 QStringLiteral("no database URL given"));
    }

    void postgresDatabase() {
        const QString base = qEnvironmentVariable("GQ_TEST_PG_URL");
        if (base.isEmpty()) {
            if (qEnvironmentVariable("CI") == QLatin1String("true"))
                QFAIL("CI=true but GQ_TEST_PG_URL is not set");
            QSKIP("GQ_TEST_PG_URL not set");
        }
        m_pgSchema = QStringLiteral("gqconn_%1").arg(QCoreApplication::applicationPid());
        const QString url = gq::test::withPgSchema(base, m_pgSchema);
        const qint64 now = 1767225600;
        seed(url, now);
        auto ok = offThread([url, now] { return connectiontests::usageDatabase(url, {}, now); });
        QVERIFY2(ok, qPrintable(ok ? QString() : ok.error().message));
        QVERIFY2(ok->startsWith(QStringLiteral("connected, schema v")), qPrintable(*ok));
        QVERIFY2(ok->contains(QStringLiteral("3 intervals, newest 3 min ago")), qPrintable(*ok));

        // Nothing listening: the words say where it tried.
        auto refused = offThread([] {
            return connectiontests::usageDatabase(QStringLiteral("postgresql://gq@127.0.0.1:1/gq"), {}, 0);
        });
        QVERIFY(!refused);
        QVERIFY2(
            refused.error().message.contains(QStringLiteral("cannot connect to PostgreSQL at 127.0.0.1:1")),
            qPrintable(refused.error().message));
        // A schema without a usage database: read-only, nothing is created.
        const QString empty =
            base +
            (base.contains(QLatin1Char('?')) ? QStringLiteral("&schema=") : QStringLiteral("?schema=")) +
            QStringLiteral("gqconn_missing_%1").arg(QCoreApplication::applicationPid());
        auto none = offThread([empty] { return connectiontests::usageDatabase(empty, {}, 0); });
        QVERIFY(!none);
        QVERIFY2(!none.error().message.isEmpty(), "a reason is given");
    }

    // The Test button on a role that must give its password (gq_pw of
    // scripts/start-services.sh): a wrong one is "password rejected", the right one
    // connects (its database holds no gpuquota schema yet: it says so, without a
    // password error).
    void postgresPasswordRejected() {
        const QString url = qEnvironmentVariable("GQ_TEST_PG_PASSWORD_URL");
        const QString password = qEnvironmentVariable("GQ_TEST_PG_PASSWORD");
        if (url.isEmpty() || password.isEmpty()) {
            if (qEnvironmentVariable("CI") == QLatin1String("true"))
                QFAIL("CI=true but GQ_TEST_PG_PASSWORD_URL / GQ_TEST_PG_PASSWORD are not set");
            QSKIP("GQ_TEST_PG_PASSWORD_URL not set (source scripts/start-services.sh)");
        }
        auto wrong =
            offThread([url] { return connectiontests::usageDatabase(url, QStringLiteral("wrong"), 0); });
        QVERIFY(!wrong);
        QVERIFY2(wrong.error().message.startsWith(QStringLiteral("password rejected: ")),
                 qPrintable(wrong.error().message));
        QVERIFY2(!wrong.error().message.contains(QStringLiteral("wrong")), "the password is never shown");
        auto none = offThread([url] { return connectiontests::usageDatabase(url, {}, 0); });
        QVERIFY(!none);
        QVERIFY2(none.error().message.contains(QStringLiteral("password")), qPrintable(none.error().message));
        auto right = offThread([url, password] { return connectiontests::usageDatabase(url, password, 0); });
        if (!right)
            QVERIFY2(!right.error().message.contains(QStringLiteral("password")),
                     qPrintable(right.error().message));
    }

    void exporterEndpoints() {
        HttpTransport http;
        auto ok = offThread([&] { return connectiontests::exporters(http, {m_exporter.url("/metrics")}); });
        QVERIFY2(ok, qPrintable(ok ? QString() : ok.error().message));
        QCOMPARE(*ok, QStringLiteral("1 of 1 endpoints answer, 2 GPUs reporting"));
        const QString closed = QStringLiteral("http://127.0.0.1:%1/metrics").arg(freePort());
        auto partly = offThread([&] {
            return connectiontests::exporters(http, {m_exporter.url("/metrics"), closed});
        });
        QVERIFY(partly);
        QVERIFY2(
            partly->startsWith(QStringLiteral("1 of 2 endpoints answer, 2 GPUs reporting (cannot reach")),
            qPrintable(*partly));
        // Distinct GPUs and MIG instances, as the live view maps them, not series.
        auto fleet = offThread([&] { return connectiontests::exporters(http, {m_exporter.url("/fleet")}); });
        QVERIFY2(fleet, qPrintable(fleet ? QString() : fleet.error().message));
        QCOMPARE(*fleet, QStringLiteral("1 of 1 endpoints answer, 3 GPUs and 2 MIG instances reporting"));
        auto none = offThread([&] { return connectiontests::exporters(http, {closed}); });
        QVERIFY(!none);
        QVERIFY2(none.error().message.startsWith(QStringLiteral("0 of 1 endpoints answer")),
                 qPrintable(none.error().message));
    }

    void prometheusCountsGpus() {
        const Result<QString> r = promTestOnceScraped(startPrometheus(false), QStringLiteral("2 GPUs"));
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        // Debian's build calls itself 2.42.0+ds.
        QVERIFY2(r->startsWith(QStringLiteral("Prometheus 2.42.0")) &&
                     r->endsWith(QStringLiteral(" reachable, 2 GPUs reporting")),
                 qPrintable(*r));
    }

    // The same fleet through a real Prometheus: GPUs and MIG instances counted by their
    // identity labels (both spellings), not by series.
    void prometheusCountsDistinctGpus() {
        const Result<QString> r =
            promTestOnceScraped(startPrometheus(false, "/fleet"), QStringLiteral("MIG"));
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QVERIFY2(r->endsWith(QStringLiteral(" reachable, 3 GPUs and 2 MIG instances reporting")),
                 qPrintable(*r));
    }

    void prometheusRejectsTheToken() {
        const int port = startPrometheus(true);
        QVERIFY(port > 0);
        HttpTransport http;
        const connectiontests::PrometheusTarget target{
            QStringLiteral("http://127.0.0.1:%1").arg(port), QStringLiteral("not-the-password"), {}};
        auto r = offThread([&] { return connectiontests::prometheus(http, target); });
        QVERIFY(!r);
        QCOMPARE(r.error().message, QStringLiteral("401: token rejected"));
        QCOMPARE(r.error().httpStatus, 401);
    }

    void prometheusFailuresInWords() {
        HttpTransport http;
        const QString closed = QStringLiteral("http://127.0.0.1:%1").arg(freePort());
        auto refused = offThread([&] { return connectiontests::prometheus(http, {closed, {}, {}}); });
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.startsWith(QStringLiteral("cannot reach ") + closed),
                 qPrintable(refused.error().message));
        // Something answers, but it is not Prometheus.
        auto notProm = offThread([&] {
            return connectiontests::prometheus(http, {m_exporter.url(""), {}, {}});
        });
        QVERIFY(!notProm);
        QVERIFY2(notProm.error().message.startsWith(QStringLiteral("404: nothing at")),
                 qPrintable(notProm.error().message));
        auto bad = connectiontests::prometheus(http, {QStringLiteral("prometheus:9090"), {}, {}});
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.startsWith(QStringLiteral("not an http:// or https:// URL")),
                 qPrintable(bad.error().message));
    }

    void controllerHealth() {
        HttpTransport http;
        auto ok = offThread([&] { return connectiontests::controller(http, m_exporter.url("")); });
        QVERIFY2(ok, qPrintable(ok ? QString() : ok.error().message));
        QCOMPARE(*ok, QStringLiteral("controller reachable: ok"));
        const QString closed = QStringLiteral("http://127.0.0.1:%1").arg(freePort());
        auto down = offThread([&] { return connectiontests::controller(http, closed); });
        QVERIFY(!down);
        QVERIFY2(down.error().message.startsWith(QStringLiteral("cannot reach")),
                 qPrintable(down.error().message));
    }

    // The cluster advertises the controller's settings (never its secrets) and has
    // dcgm-exporter pods; discovery proposes them, and finds nothing on a bare cluster.
    void discoveryOnTheTestCluster() {
        gq::test::TestClusterProcess cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        auto client = KubeClient::fromKubeconfig(cluster.kubeconfigPath(), QStringLiteral("admin"));
        QVERIFY2(client, qPrintable(client ? QString() : client.error().toString()));

        auto bare = offThread([c = *client] { return discovery::discover(c); });
        QVERIFY2(bare, qPrintable(bare ? QString() : bare.error().toString()));
        QVERIFY(!bare->foundAnything());
        QVERIFY2(bare->findings.first().startsWith(
                     QStringLiteral("No ConfigMap gpuquota-system/gpuquota-controller")),
                 qPrintable(bare->findings.join(QLatin1Char('\n'))));

        const KubeResource configMaps{
            {}, QStringLiteral("v1"), QStringLiteral("configmaps"), QStringLiteral("ConfigMap"), true};
        const KubeResource services{
            {}, QStringLiteral("v1"), QStringLiteral("services"), QStringLiteral("Service"), true};
        for (const char *ns : {"gpuquota-system", "gpu-operator"})
            QVERIFY(waitFor((*client)->create(KubeResource::namespaces(), {},
                                              QJsonObject{{"metadata", QJsonObject{{"name", ns}}}})));
        const QJsonObject cm{
            {"metadata", QJsonObject{{"name", "gpuquota-controller"}}},
            {"data", QJsonObject{{"usageDatabase", "postgresql://gq@db.gpuquota-system:5432/gpuquota"},
                                 {"prometheusUrl", "http://prometheus.monitoring:9090"},
                                 {"databasePassword", "must-not-be-taken"}}}};
        auto created = waitFor((*client)->create(configMaps, QStringLiteral("gpuquota-system"), cm));
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        const QJsonObject svc{
            {"metadata", QJsonObject{{"name", "gpuquota-controller"}}},
            {"spec", QJsonObject{{"ports", QJsonArray{QJsonObject{{"name", "http"}, {"port", 8080}}}}}}};
        QVERIFY(waitFor((*client)->create(services, QStringLiteral("gpuquota-system"), svc)));
        const QJsonObject labels{{"app", "nvidia-dcgm-exporter"}};
        const QJsonObject pod{
            {"metadata", QJsonObject{{"name", "dcgm-exporter-x1"}, {"labels", labels}}},
            {"spec",
             QJsonObject{{"containers", QJsonArray{QJsonObject{{"name", "exporter"},
                                                               {"image", "nvcr.io/dcgm-exporter"}}}}}}};
        auto podMade = waitFor((*client)->create(KubeResource::pods(), QStringLiteral("gpu-operator"), pod));
        QVERIFY2(podMade, qPrintable(podMade ? QString() : podMade.error().toString()));
        const QJsonObject exporterSvc{
            {"metadata", QJsonObject{{"name", "dcgm-exporter"}, {"labels", labels}}},
            {"spec", QJsonObject{{"ports", QJsonArray{QJsonObject{{"name", "metrics"}, {"port", 9400}}}}}}};
        QVERIFY(waitFor((*client)->create(services, QStringLiteral("gpu-operator"), exporterSvc)));

        auto found = offThread([c = *client] { return discovery::discover(c); });
        QVERIFY2(found, qPrintable(found ? QString() : found.error().toString()));
        const ContextConnections &p = found->proposal;
        QCOMPARE(p.usageDatabaseUrl, QStringLiteral("postgresql://gq@db.gpuquota-system:5432/gpuquota"));
        QCOMPARE(p.metricsSource, MetricsSource::Prometheus);
        QCOMPARE(p.prometheusUrl, QStringLiteral("http://prometheus.monitoring:9090"));
        QCOMPARE(p.controllerUrl, QStringLiteral("http://gpuquota-controller.gpuquota-system.svc:8080"));
        QCOMPARE(found->ignored, QStringList{QStringLiteral("databasePassword")});
        QCOMPARE(found->exporterPods, 1);
        QVERIFY2(found->findings.join(QLatin1Char(' '))
                     .contains(QStringLiteral("1 dcgm-exporter pods found (1 services)")),
                 qPrintable(found->findings.join(QLatin1Char('\n'))));
        for (const QString &f : found->findings)
            QVERIFY2(!f.contains(QStringLiteral("must-not-be-taken")), qPrintable(f));
    }

private:
    // The Test button's answer once Prometheus (on `port`) has scraped: asked again until
    // it contains `until` (the first scrapes take a moment), for up to 30 s.
    Result<QString> promTestOnceScraped(int port, const QString &until) {
        if (port <= 0)
            return Error::make(Error::Kind::Internal, QStringLiteral("Prometheus did not start"));
        HttpTransport http;
        const connectiontests::PrometheusTarget target{
            QStringLiteral("http://127.0.0.1:%1").arg(port), {}, {}};
        Result<QString> r = Error::make(Error::Kind::Internal, QStringLiteral("not run"));
        for (int i = 0; i < 60; ++i) {
            r = offThread([&] { return connectiontests::prometheus(http, target); });
            if (r && r->contains(until))
                break;
            QTest::qWait(500);
        }
        return r;
    }

    void seed(const QString &url, qint64 now) {
        auto store = UsageStore::open(url);
        QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
        for (int i = 0; i < 3; ++i) {
            UsageInterval iv;
            iv.cluster = QStringLiteral("c");
            iv.ns = QStringLiteral("team-a");
            iv.user = QStringLiteral("alice");
            iv.podUid = QStringLiteral("uid-%1").arg(i);
            iv.podName = QStringLiteral("job-%1").arg(i);
            iv.gpus = 1;
            iv.start = now - 3600 + i * 1710; // the last starts 3 min 0 s before now
            iv.end = iv.start + 60;
            QVERIFY((*store)->upsertInterval(iv));
        }
    }

    // A real Prometheus scraping the stand-in every second; with basicAuth, behind a
    // web config that admits only user gq / password gq-test. Returns its port, or 0.
    int startPrometheus(bool basicAuth, const char *metricsPath = "/metrics") {
        const int port = freePort();
        const QString dir = m_dir.filePath(QStringLiteral("prom-%1").arg(port));
        QDir().mkpath(dir);
        QFile config(dir + QStringLiteral("/prometheus.yml"));
        if (!config.open(QIODevice::WriteOnly))
            return 0;
        config.write(QStringLiteral("global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
                                    "scrape_configs:\n  - job_name: dcgm\n    metrics_path: %2\n"
                                    "    static_configs:\n      - targets: ['127.0.0.1:%1']\n")
                         .arg(m_exporter.serverPort())
                         .arg(QLatin1String(metricsPath))
                         .toUtf8());
        config.close();
        QStringList args{QStringLiteral("--config.file=") + config.fileName(),
                         QStringLiteral("--storage.tsdb.path=") + dir + QStringLiteral("/data"),
                         QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port)};
        if (basicAuth) {
            QFile web(dir + QStringLiteral("/web.yml"));
            if (!web.open(QIODevice::WriteOnly))
                return 0;
            // bcrypt of "gq-test" (Prometheus keeps only hashes).
            web.write(
                "basic_auth_users:\n  gq: $2b$04$tckfK/XeAj7WXVcK64L9sO2mIWbrv/izx6TlSdLPo/QvHxQ6ZTg7W\n");
            web.close();
            args << QStringLiteral("--web.config.file=") + web.fileName();
        }
        auto *p = new QProcess;
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->setStandardOutputFile(QProcess::nullDevice());
        p->start(QStringLiteral("/usr/bin/prometheus"), args);
        m_prometheus << p;
        if (!p->waitForStarted(10000))
            return 0;
        // Ready once it accepts connections (answers 401 behind auth, which is still an answer).
        const bool up = QTest::qWaitFor(
            [port] {
                QTcpSocket s;
                s.connectToHost(QHostAddress::LocalHost, quint16(port));
                return s.waitForConnected(200);
            },
            30000);
        return up ? port : 0;
    }

    void dropPgSchema() {
        const QString base = qEnvironmentVariable("GQ_TEST_PG_URL");
        if (base.isEmpty() || m_pgSchema.isEmpty())
            return;
        // Best effort: a schema left behind only costs space in the test database.
        (void)gq::test::dropPgSchemas(base, {m_pgSchema}, QStringLiteral("gq-conn-admin"));
    }

    QTemporaryDir m_dir;
    ExporterStandIn m_exporter;
    QList<QProcess *> m_prometheus;
    QString m_pgSchema;
};

QTEST_GUILESS_MAIN(TestConnectionTests)
#include "tst_connectiontests.moc"
