// The Prometheus client and the `gpus` / `idle` verbs against a real Prometheus
// (Debian's, started by scripts/start-services.sh with a 1 s scrape interval) scraping
// our test exporter, which serves exposition text the test changes over time. Error
// paths that a real Prometheus cannot be made to produce on demand (5xx, warnings) go
// to a small local HTTP server in this suite.
#include "core/metrics/idle.h"
#include "core/metrics/prometheusclient.h"
#include "tests/metrics/promtestutil.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;
using namespace gq::metrics;

namespace {

PrometheusConfig promAt(const QString &url) {
    PrometheusConfig c;
    c.url = url;
    return c;
}

using gq::test::await;
using gq::test::FrameGpu;

QByteArray frame(const QString &host, const QList<FrameGpu> &gpus) {
    return gq::test::dcgmFrame(host, gpus);
}

QJsonArray onlyUuids(const QJsonArray &rows, const QString &prefix) {
    QJsonArray out;
    for (const QJsonValue &v : rows)
        if (v.toObject().value(QLatin1String("uuid")).toString().startsWith(prefix))
            out.append(v);
    return out;
}

} // namespace

class TestPrometheus : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void buildInfo();
    void badPromQLCarriesPrometheusMessage();
    void unreachable();
    void serverErrorsAreRetried();
    void warningsAreSurfaced();
    void bearerTokenFromFile();
    void httpsWithCaFile();
    void decodeEdgeCases();
    void gpusThroughPrometheusMatchTheExporter();
    void exportedLabelsThroughPrometheus();
    void idleThroughPrometheus();
    void idleLongerThanTheRecentWindow();
    void cliUsageErrors();

private:
    using Run = gq::test::CliRun;
    Run cli(const QStringList &args) { return gq::test::runGpuquota(m_env.bin, args); }
    void startExporter(int port, const QByteArray &text) { QVERIFY(m_exporter.start(port, text)); }
    bool waitForValue(const QString &promql, double expected, int timeoutMs = 30000) {
        return gq::test::waitForPromValue(m_url, promql, expected, timeoutMs);
    }

    gq::test::PromEnv m_env;
    gq::test::TestExporter m_exporter{m_env};
    QString m_url;
    QList<int> m_ports;
    QTemporaryDir m_dir;
};

void TestPrometheus::initTestCase() {
    GQ_REQUIRE_PROMETHEUS(m_env);
    m_url = m_env.url;
    m_ports = m_env.ports;
    QVERIFY(m_dir.isValid());
}

void TestPrometheus::cleanup() {
    m_exporter.stop();
}

void TestPrometheus::buildInfo() {
    PrometheusClient client(promAt(m_url));
    auto b = await(client.buildInfo());
    QVERIFY2(b, qPrintable(b ? QString() : b.error().message));
    QVERIFY2(b->version.count(u'.') >= 2, qPrintable(b->version));
}

void TestPrometheus::badPromQLCarriesPrometheusMessage() {
    PrometheusClient client(promAt(m_url));
    auto r = await(client.query(QStringLiteral("sum(rate(up[1m])")));
    QVERIFY(!r);
    QCOMPARE(r.error().kind, Error::Kind::Invalid);
    QCOMPARE(r.error().httpStatus, 400);
    QVERIFY2(r.error().message.contains(QStringLiteral("Prometheus (bad_data): ")) &&
                 r.error().message.contains(QStringLiteral("parse error")),
             qPrintable(r.error().message));
    // Prometheus refuses a range of more than 11,000 steps with its own words.
    auto range = await(client.queryRange(QStringLiteral("up"), 0, 1000000, 1));
    QVERIFY(!range);
    QVERIFY2(range.error().message.contains(QStringLiteral("11,000 points")),
             qPrintable(range.error().message));
}

void TestPrometheus::unreachable() {
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const quint16 port = probe.serverPort();
    probe.close(); // nothing listens there now
    PrometheusConfig c = promAt(QStringLiteral("http://127.0.0.1:%1").arg(port));
    c.maxAttempts = 1;
    PrometheusClient client(c);
    auto r = await(client.query(QStringLiteral("up")));
    QVERIFY(!r);
    QCOMPARE(r.error().kind, Error::Kind::Network);
    QVERIFY2(r.error().message.startsWith(
                 QStringLiteral("cannot reach Prometheus at http://127.0.0.1:%1").arg(port)),
             qPrintable(r.error().message));
    const Run run = cli({QStringLiteral("gpus"), QStringLiteral("--prometheus"), c.url});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains("cannot reach Prometheus"), run.err.constData());
}

namespace {

// Answers each request with the next of `replies` (status, body), then the last again.
class FakePrometheus : public QTcpServer {
public:
    explicit FakePrometheus(QList<QPair<int, QByteArray>> replies)
        : m_replies(std::move(replies)) {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [this, s] {
                    m_buffer[s] += s->readAll();
                    if (!m_buffer[s].contains("\r\n\r\n"))
                        return;
                    lastRequest = m_buffer.take(s);
                    const auto &[status, body] =
                        m_replies.at(std::min<qsizetype>(requests, m_replies.size() - 1));
                    ++requests;
                    s->write("HTTP/1.1 " + QByteArray::number(status) +
                             " X\r\nContent-Type: application/json\r\n"
                             "Content-Length: " +
                             QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
                    s->disconnectFromHost();
                });
            }
        });
    }
    int requests = 0;
    QByteArray lastRequest;

private:
    QList<QPair<int, QByteArray>> m_replies;
    QHash<QTcpSocket *, QByteArray> m_buffer;
};

} // namespace

void TestPrometheus::serverErrorsAreRetried() {
    const QByteArray unavailable = R"({"status":"error","errorType":"unavailable","error":"TSDB not ready"})";
    const QByteArray ok =
        R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"up"},"value":[1700000000.5,"1"]}]}})";
    FakePrometheus once({{503, unavailable}, {200, ok}});
    QVERIFY(once.listen(QHostAddress::LocalHost));
    PrometheusClient client(promAt(QStringLiteral("http://127.0.0.1:%1").arg(once.serverPort())));
    auto r = await(client.query(QStringLiteral("up")));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(once.requests, 2);
    QCOMPARE(r->series.size(), 1);
    QCOMPARE(r->series[0].points[0].t, 1700000000.5);

    FakePrometheus always({{503, unavailable}});
    QVERIFY(always.listen(QHostAddress::LocalHost));
    PrometheusClient failing(promAt(QStringLiteral("http://127.0.0.1:%1").arg(always.serverPort())));
    auto f = await(failing.query(QStringLiteral("up")));
    QVERIFY(!f);
    QCOMPARE(always.requests, 3);
    QCOMPARE(f.error().kind, Error::Kind::Server);
    QCOMPARE(f.error().message,
             QStringLiteral("Prometheus (unavailable): TSDB not ready (after 3 attempts)"));
}

void TestPrometheus::warningsAreSurfaced() {
    const QByteArray partial =
        R"({"status":"success","warnings":["partial response: store gateway eu-2 unreachable"],"infos":["PromQL info: metric might not be a counter"],)"
        R"("data":{"resultType":"vector","result":[{"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","gpu":"0","UUID":"GPU-w","Hostname":"n1"},"value":[1700000000,"12"]}]}})";
    FakePrometheus server({{200, partial}});
    QVERIFY(server.listen(QHostAddress::LocalHost));
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(server.serverPort());
    PrometheusClient client(promAt(url));
    auto r = await(client.query(QStringLiteral("up")));
    QVERIFY(r);
    QCOMPARE(r->warnings, QStringList{QStringLiteral("partial response: store gateway eu-2 unreachable")});
    QCOMPARE(r->infos, QStringList{QStringLiteral("PromQL info: metric might not be a counter")});
    const Run run = cli({QStringLiteral("gpus"), QStringLiteral("--prometheus"), url, QStringLiteral("-o"),
                         QStringLiteral("json")});
    QCOMPARE(run.code, 0);
    QVERIFY2(run.err.contains("warning: Prometheus: partial response: store gateway eu-2 unreachable"),
             run.err.constData());
    const QJsonArray rows = QJsonDocument::fromJson(run.out).array();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].toObject().value(QLatin1String("util_pct")).toDouble(), 12.0);
}

void TestPrometheus::bearerTokenFromFile() {
    const QByteArray ok = R"({"status":"success","data":{"resultType":"vector","result":[]}})";
    FakePrometheus server({{200, ok}});
    QVERIFY(server.listen(QHostAddress::LocalHost));
    const QString tokenFile = m_dir.filePath(QStringLiteral("token"));
    QFile f(tokenFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("s3cr3t-token-1\n");
    f.close();
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(server.serverPort());
    const Run run = cli({QStringLiteral("gpus"), QStringLiteral("--prometheus"), url,
                         QStringLiteral("--token-file"), tokenFile});
    QCOMPARE(run.code, 0);
    QVERIFY2(server.lastRequest.contains("\r\nAuthorization: Bearer s3cr3t-token-1\r\n"),
             server.lastRequest.constData());
    QVERIFY(server.lastRequest.startsWith("GET /api/v1/query?query=%7B__name__%3D~"));
    QVERIFY(!run.out.contains("s3cr3t") && !run.err.contains("s3cr3t"));
    // Read afresh on every request: a rotated token is picked up.
    PrometheusConfig c = promAt(url);
    c.tokenFile = tokenFile;
    PrometheusClient client(c);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write("rotated-2");
    f.close();
    QVERIFY(await(client.query(QStringLiteral("up"))));
    QVERIFY2(server.lastRequest.contains("Authorization: Bearer rotated-2\r\n"),
             server.lastRequest.constData());
}

void TestPrometheus::httpsWithCaFile() {
    // A second, TLS-only Prometheus with a certificate from a CA made here: --ca makes
    // it trusted, without it the handshake fails and says so.
    const QString prom = qEnvironmentVariable("GQ_PROMETHEUS_BIN", QStringLiteral("/usr/bin/prometheus"));
    QVERIFY2(QFile::exists(prom), qPrintable(prom));
    QTemporaryDir dir;
    auto path = [&](const char *name) { return dir.filePath(QString::fromLatin1(name)); };
    auto openssl = [&](const QStringList &args) {
        QProcess p;
        p.start(QStringLiteral("openssl"), args);
        return p.waitForFinished(60000) && p.exitCode() == 0;
    };
    const QStringList ec{QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                         QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};
    QVERIFY(openssl(QStringList{QStringLiteral("req"), QStringLiteral("-x509")} + ec +
                    QStringList{QStringLiteral("-keyout"), path("ca.key"), QStringLiteral("-out"),
                                path("ca.pem"), QStringLiteral("-days"), QStringLiteral("2"),
                                QStringLiteral("-subj"), QStringLiteral("/CN=gq-test-ca")}));
    QVERIFY(
        openssl(QStringList{QStringLiteral("req")} + ec +
                QStringList{QStringLiteral("-keyout"), path("server.key"), QStringLiteral("-out"),
                            path("server.csr"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1")}));
    QFile ext(path("ext.cnf"));
    QVERIFY(ext.open(QIODevice::WriteOnly));
    ext.write("subjectAltName=IP:127.0.0.1\n");
    ext.close();
    QVERIFY(
        openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), path("server.csr"),
                 QStringLiteral("-CA"), path("ca.pem"), QStringLiteral("-CAkey"), path("ca.key"),
                 QStringLiteral("-CAcreateserial"), QStringLiteral("-out"), path("server.pem"),
                 QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-extfile"), path("ext.cnf")}));
    QFile web(path("web.yml")), conf(path("prometheus.yml"));
    QVERIFY(web.open(QIODevice::WriteOnly) && conf.open(QIODevice::WriteOnly));
    web.write("tls_server_config:\n  cert_file: " + path("server.pem").toUtf8() +
              "\n  key_file: " + path("server.key").toUtf8() + "\n");
    conf.write("global:\n  scrape_interval: 1s\n");
    web.close();
    conf.close();
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const quint16 port = probe.serverPort();
    probe.close();
    QProcess server;
    server.start(prom, {QStringLiteral("--config.file=") + path("prometheus.yml"),
                        QStringLiteral("--web.config.file=") + path("web.yml"),
                        QStringLiteral("--storage.tsdb.path=") + path("data"),
                        QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port),
                        QStringLiteral("--log.level=warn")});
    QVERIFY(server.waitForStarted(10000));
    const QString url = QStringLiteral("https://127.0.0.1:%1").arg(port);
    QFile caFile(path("ca.pem"));
    QVERIFY(caFile.open(QIODevice::ReadOnly));
    PrometheusConfig c = promAt(url);
    c.caPem = caFile.readAll();
    PrometheusClient client(c);
    QDeadlineTimer deadline(60000);
    Result<PromBuildInfo> info = Error::make(Error::Kind::Timeout, QStringLiteral("not started"));
    while (!deadline.hasExpired() && !(info = await(client.buildInfo())))
        QTest::qWait(300);
    QVERIFY2(info, qPrintable(info ? QString() : info.error().message));

    const Run trusted =
        cli({QStringLiteral("gpus"), QStringLiteral("--prometheus"), url, QStringLiteral("--ca"),
             path("ca.pem"), QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(trusted.code == 0, trusted.err.constData());
    QCOMPARE(QJsonDocument::fromJson(trusted.out).array().size(), 0);
    const Run untrusted = cli({QStringLiteral("gpus"), QStringLiteral("--prometheus"), url});
    QCOMPARE(untrusted.code, 1);
    const QByteArray tlsMessage = "TLS with Prometheus at " + url.toUtf8();
    QVERIFY2(untrusted.err.contains(tlsMessage), untrusted.err.constData());
    server.terminate();
    QVERIFY(server.waitForFinished(10000));
}

void TestPrometheus::decodeEdgeCases() {
    auto html = decodePromResponse(502, "<html><body>Bad gateway</body></html>");
    QVERIFY(!html);
    QCOMPARE(html.error().kind, Error::Kind::Server);
    QVERIFY2(html.error().message.startsWith(QStringLiteral("not a Prometheus API answer (HTTP 502")),
             qPrintable(html.error().message));
    auto cut =
        decodePromResponse(200, R"({"status":"success","data":{"resultType":"vector","result":[{"metric")");
    QVERIFY(!cut);
    QCOMPARE(cut.error().kind, Error::Kind::Parse);
    auto unauth = decodePromResponse(401, "Unauthorized\n");
    QCOMPARE(unauth.error().kind, Error::Kind::Unauthorized);
    auto special = decodePromResponse(
        200,
        R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"NaN"],[2,"+Inf"],[3,"-Inf"]]}]}})");
    QVERIFY(special);
    QVERIFY(std::isnan(special->series[0].points[0].v));
    QVERIFY(std::isinf(special->series[0].points[1].v) && special->series[0].points[1].v > 0);
    QVERIFY(std::isinf(special->series[0].points[2].v) && special->series[0].points[2].v < 0);
    auto scalar =
        decodePromResponse(200, R"({"status":"success","data":{"resultType":"scalar","result":[5,"2.5"]}})");
    QCOMPARE(scalar->scalar->v, 2.5);
}

void TestPrometheus::gpusThroughPrometheusMatchTheExporter() {
    // Node it-a: GPU 0 held by team-a/train-1 at 37 %, GPU 1 free.
    QList<FrameGpu> gpus{
        {QStringLiteral("GPU-it-a0"), 37, QStringLiteral("team-a"), QStringLiteral("train-1"), 20480},
        {QStringLiteral("GPU-it-a1"), 0, {}, {}, 0}};
    startExporter(m_ports[0], frame(QStringLiteral("it-a"), gpus));
    QVERIFY2(waitForValue(QStringLiteral("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-it-a0\"}"), 37),
             "Prometheus never scraped the exporter");
    const QString scrapeUrl = QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_ports[0]);
    for (int util : {37, 55}) {
        if (util != 37) {
            // The readings change over time: the next frame.
            gpus[0].util = util;
            QVERIFY(m_exporter.write(frame(QStringLiteral("it-a"), gpus)));
            QVERIFY(waitForValue(QStringLiteral("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-it-a0\"}"), util));
            QVERIFY(waitForValue(QStringLiteral("DCGM_FI_DEV_FB_USED{UUID=\"GPU-it-a0\"}"), 20480));
        }
        const Run viaProm = cli({QStringLiteral("gpus"), QStringLiteral("--prometheus"), m_url,
                                 QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(viaProm.code == 0, viaProm.err.constData());
        const Run direct = cli({QStringLiteral("gpus"), QStringLiteral("--scrape"), scrapeUrl,
                                QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(direct.code == 0, direct.err.constData());
        const QJsonArray p =
            onlyUuids(QJsonDocument::fromJson(viaProm.out).array(), QStringLiteral("GPU-it-a"));
        const QJsonArray d =
            onlyUuids(QJsonDocument::fromJson(direct.out).array(), QStringLiteral("GPU-it-a"));
        QCOMPARE(p.size(), 2);
        QCOMPARE(p, d);
        const QJsonObject g0 = p[0].toObject();
        QCOMPARE(g0.value(QLatin1String("hostname")).toString(), QStringLiteral("it-a"));
        QCOMPARE(g0.value(QLatin1String("gpu")).toInt(), 0);
        QCOMPARE(g0.value(QLatin1String("util_pct")).toDouble(), double(util));
        QCOMPARE(g0.value(QLatin1String("fb_used_mib")).toDouble(), 20480.0);
        QCOMPARE(g0.value(QLatin1String("fb_free_mib")).toDouble(), 61440.0);
        QCOMPARE(g0.value(QLatin1String("power_w")).toDouble(), 250.5);
        QCOMPARE(g0.value(QLatin1String("temp_c")).toDouble(), 47.0);
        QVERIFY(g0.value(QLatin1String("mig_profile")).isNull());
        QCOMPARE(g0.value(QLatin1String("shared")).toBool(), false);
        QCOMPARE(g0.value(QLatin1String("holders")).toArray(),
                 (QJsonArray{QJsonObject{{QStringLiteral("namespace"), QStringLiteral("team-a")},
                                         {QStringLiteral("pod"), QStringLiteral("train-1")},
                                         {QStringLiteral("container"), QStringLiteral("main")},
                                         {QStringLiteral("claim"), QJsonValue(QJsonValue::Null)}}}));
        QVERIFY(p[1].toObject().value(QLatin1String("holders")).toArray().isEmpty());
    }
}

void TestPrometheus::exportedLabelsThroughPrometheus() {
    // The second job has honor_labels: false and names the exporter's pod in its target
    // labels: Prometheus stores the workload's labels as exported_*.
    const QList<FrameGpu> gpus{
        {QStringLiteral("GPU-it-b0"), 64, QStringLiteral("team-b"), QStringLiteral("infer-7")},
        {QStringLiteral("GPU-it-b1"), 9, {}, {}}};
    startExporter(m_ports[1], frame(QStringLiteral("it-b"), gpus));
    QVERIFY(waitForValue(QStringLiteral("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-it-b0\"}"), 64));
    QVERIFY(waitForValue(QStringLiteral("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-it-b1\"}"), 9));
    PrometheusClient client(promAt(m_url));
    auto raw = await(client.query(QStringLiteral("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-it-b0\"}")));
    QVERIFY(raw && raw->series.size() == 1);
    QCOMPARE(labelValue(raw->series[0].metric, u"exported_pod"), QStringLiteral("infer-7"));
    QCOMPARE(labelValue(raw->series[0].metric, u"pod"), QStringLiteral("nvidia-dcgm-exporter-7kq2d"));

    const Run viaProm = cli({QStringLiteral("gpus"), QStringLiteral("--prometheus"), m_url,
                             QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(viaProm.code == 0, viaProm.err.constData());
    const Run direct = cli({QStringLiteral("gpus"), QStringLiteral("--scrape"),
                            QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_ports[1]),
                            QStringLiteral("-o"), QStringLiteral("json")});
    const QJsonArray p = onlyUuids(QJsonDocument::fromJson(viaProm.out).array(), QStringLiteral("GPU-it-b"));
    QCOMPARE(p, onlyUuids(QJsonDocument::fromJson(direct.out).array(), QStringLiteral("GPU-it-b")));
    QCOMPARE(p.size(), 2);
    QCOMPARE(p[0].toObject().value(QLatin1String("holders")).toArray().size(), 1);
    QCOMPARE(
        p[0].toObject().value(QLatin1String("holders"))[0].toObject().value(QLatin1String("pod")).toString(),
        QStringLiteral("infer-7"));
    // The free GPU carries only the exporter's own pod: not a holder.
    QVERIFY(p[1].toObject().value(QLatin1String("holders")).toArray().isEmpty());
}

void TestPrometheus::idleThroughPrometheus() {
    const QList<FrameGpu> gpus{
        {QStringLiteral("GPU-it-c0"), 0, QStringLiteral("team-idle"), QStringLiteral("sleepy")},
        {QStringLiteral("GPU-it-c1"), 90, QStringLiteral("team-busy"), QStringLiteral("worker")},
        {QStringLiteral("GPU-it-c2"), 0, {}, {}}};
    startExporter(m_ports[0], frame(QStringLiteral("it-c"), gpus));
    QVERIFY(waitForValue(QStringLiteral("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-it-c1\"}"), 90));
    QTest::qWait(8000); // eight more scrapes: more than the 5 s asked for below
    const Run run = cli({QStringLiteral("idle"), QStringLiteral("--prometheus"), m_url,
                         QStringLiteral("--for"), QStringLiteral("5s"), QStringLiteral("--threshold"),
                         QStringLiteral("5"), QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(run.code == 0, run.err.constData());
    const QJsonArray idle = onlyUuids(QJsonDocument::fromJson(run.out).array(), QStringLiteral("GPU-it-c"));
    QCOMPARE(idle.size(), 1); // c1 is busy, c2 is free
    const QJsonObject g = idle[0].toObject();
    QCOMPARE(g.value(QLatin1String("uuid")).toString(), QStringLiteral("GPU-it-c0"));
    QCOMPARE(g.value(QLatin1String("holders"))[0].toObject().value(QLatin1String("pod")).toString(),
             QStringLiteral("sleepy"));
    const double seconds = g.value(QLatin1String("idle_seconds")).toDouble();
    QVERIFY2(seconds >= 5 && seconds <= 40, qPrintable(QString::number(seconds)));
    QCOMPARE(g.value(QLatin1String("gpu_hours_wasted")).toDouble(), seconds / 3600.0);
    QCOMPARE(g.value(QLatin1String("mean_util_pct")).toDouble(), 0.0);
    QVERIFY(!g.value(QLatin1String("since")).toString().isEmpty());

    // The table names the pod and totals the waste.
    const Run table = cli({QStringLiteral("idle"), QStringLiteral("--prometheus"), m_url,
                           QStringLiteral("--for"), QStringLiteral("5s")});
    QCOMPARE(table.code, 0);
    QVERIFY2(table.out.contains("team-idle/sleepy") && table.out.contains("GPU-h wasted"),
             table.out.constData());
}

void TestPrometheus::idleLongerThanTheRecentWindow() {
    // --for 2s reads a recent window of 12 s (max(2 x 2 s, 2 s + 10 steps of 1 s)). A GPU
    // idle for half a minute must say so, not "12 s": the older windows carry the span
    // back to the first scrape that saw it idle.
    const QList<FrameGpu> gpus{
        {QStringLiteral("GPU-it-l0"), 0, QStringLiteral("team-long"), QStringLiteral("sleeper")},
        {QStringLiteral("GPU-it-l1"), 80, QStringLiteral("team-busy"), QStringLiteral("worker")}};
    startExporter(m_ports[0], frame(QStringLiteral("it-l"), gpus));
    QVERIFY(waitForValue(QStringLiteral("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-it-l0\"}"), 0));
    QElapsedTimer scraped;
    scraped.start();
    QTest::qWait(35000);
    const Run run =
        cli({QStringLiteral("idle"), QStringLiteral("--prometheus"), m_url, QStringLiteral("--for"),
             QStringLiteral("2s"), QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(run.code == 0, run.err.constData());
    const QJsonArray idle = onlyUuids(QJsonDocument::fromJson(run.out).array(), QStringLiteral("GPU-it-l"));
    QCOMPARE(idle.size(), 1);
    const QJsonObject g = idle[0].toObject();
    QCOMPARE(g.value(QLatin1String("uuid")).toString(), QStringLiteral("GPU-it-l0"));
    const double seconds = g.value(QLatin1String("idle_seconds")).toDouble();
    const double elapsed = double(scraped.elapsed()) / 1000.0;
    // Since the first idle scrape (a second or two before `scraped` started), within a step.
    QVERIFY2(seconds >= elapsed - 4 && seconds <= elapsed + 8,
             qPrintable(QStringLiteral("%1 s idle, %2 s since the first scrape").arg(seconds).arg(elapsed)));
    QCOMPARE(g.value(QLatin1String("gpu_hours_wasted")).toDouble(), seconds / 3600.0);
    QCOMPARE(g.value(QLatin1String("at_least")).toBool(), false);
    QCOMPARE(g.value(QLatin1String("max_util_pct")).toDouble(), 0.0);
}

void TestPrometheus::cliUsageErrors() {
    const QList<QPair<QStringList, QByteArray>> cases{
        {{QStringLiteral("gpus")}, "give either --prometheus URL or --scrape URL..."},
        {{QStringLiteral("gpus"), QStringLiteral("--prometheus"), QStringLiteral("ftp://x")},
         "--prometheus: 'ftp://x' is not a Prometheus URL"},
        {{QStringLiteral("gpus"), QStringLiteral("--prometheus"), m_url, QStringLiteral("--token-file"),
          QStringLiteral("/nonexistent")},
         "--token-file: cannot read the token file /nonexistent"},
        {{QStringLiteral("gpus"), QStringLiteral("--prometheus"), m_url, QStringLiteral("--ca"),
          QStringLiteral("/nonexistent")},
         "--ca: cannot read the CA file"},
        {{QStringLiteral("gpus"), QStringLiteral("--scrape"), QStringLiteral("gopher://x")},
         "--scrape: 'gopher://x' is not an http://, https:// or file:// URL"},
        {{QStringLiteral("gpus"), QStringLiteral("--prometheus"), m_url, QStringLiteral("-o"),
          QStringLiteral("yaml")},
         "-o must be table or json"},
        {{QStringLiteral("idle"), QStringLiteral("--prometheus"), m_url, QStringLiteral("--threshold"),
          QStringLiteral("abc")},
         "--threshold must be a percentage"},
        {{QStringLiteral("idle"), QStringLiteral("--prometheus"), m_url, QStringLiteral("--for"),
          QStringLiteral("soon")},
         "--for"},
        {{QStringLiteral("idle")}, "give either --prometheus URL or --db URL"},
    };
    for (const auto &[args, message] : cases) {
        const Run r = cli(args);
        QVERIFY2(r.code == 2, qPrintable(args.join(u' ') + QStringLiteral(": exit %1").arg(r.code)));
        QVERIFY2(r.err.contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
}

QTEST_GUILESS_MAIN(TestPrometheus)
#include "tst_prometheus.moc"
