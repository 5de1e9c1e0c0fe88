#pragma once

// What the suites against the real Prometheus of scripts/start-services.sh share: where
// it is and where it scrapes (GQ_TEST_PROMETHEUS_URL, GQ_TEST_EXPORTER_PORTS: a job with
// honor_labels true, then one with false), our test exporter on one of those ports,
// dcgm-exporter text made up for a test, waiting until Prometheus holds a value, and
// running the built `gpuquota` without blocking this thread's event loop.
//
//     gq::test::PromEnv env;
//     void initTestCase() { GQ_REQUIRE_PROMETHEUS(env); }
//     gq::test::TestExporter exporter(env);
//     QVERIFY(exporter.start(env.ports[0], gq::test::dcgmFrame("node-a", {{"GPU-a", 37, "ns", "pod"}})));
//     QVERIFY(gq::test::waitForPromValue(env.url, "DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-a\"}", 37));

#include "core/metrics/prometheusclient.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace gq::test {

struct PromEnv {
    QString url;      // http://127.0.0.1:PORT
    QList<int> ports; // where it scrapes: [0] honor_labels true, [1] false
    QString bin;      // GQ_BIN_DIR
    // Empty when ready; else why not (the caller fails under CI=true, skips otherwise).
    QString prepare() {
        url = qEnvironmentVariable("GQ_TEST_PROMETHEUS_URL");
        if (url.isEmpty())
            return QStringLiteral("GQ_TEST_PROMETHEUS_URL is not set (source scripts/start-services.sh)");
        for (const QString &p :
             qEnvironmentVariable("GQ_TEST_EXPORTER_PORTS").split(u',', Qt::SkipEmptyParts))
            ports << p.toInt();
        bin = qEnvironmentVariable("GQ_BIN_DIR");
        return {};
    }
};

#define GQ_REQUIRE_PROMETHEUS(env)                                                                           \
    do {                                                                                                     \
        const QString gqWhyNot_ = (env).prepare();                                                           \
        if (!gqWhyNot_.isEmpty()) {                                                                          \
            if (qEnvironmentVariable("CI") == QLatin1String("true"))                                         \
                QFAIL(qPrintable(gqWhyNot_ + QStringLiteral(" (CI=true: no skip)")));                        \
            QSKIP(qPrintable(gqWhyNot_));                                                                    \
        }                                                                                                    \
        QCOMPARE((env).ports.size(), 2);                                                                     \
        QVERIFY(QFile::exists((env).bin + QStringLiteral("/gpuquota")));                                     \
        QVERIFY(QFile::exists((env).bin + QStringLiteral("/gq-test-exporter")));                             \
    } while (false)

// Spins the event loop (a fake server may live on this thread) until the answer is in.
template <typename T> Result<T> await(QFuture<Result<T>> f, int timeoutMs = 60000) {
    QDeadlineTimer deadline(timeoutMs);
    while (!f.isFinished() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (!f.isFinished())
        return Error::make(Error::Kind::Timeout, QStringLiteral("test: no answer in time"));
    return f.result();
}

// A GPU of a made-up dcgm-exporter page: with a holder it carries pod labels.
struct FrameGpu {
    QString uuid;
    int util;
    QString ns, pod;
    int fbUsed = 1000;
};

// GPU_UTIL, FB_USED, FB_FREE (of 80 GiB), POWER_USAGE (250.5) and GPU_TEMP (47) of
// `gpus` on node `host`, A100s, with HELP and TYPE lines.
inline QByteArray dcgmFrame(const QString &host, const QList<FrameGpu> &gpus) {
    QByteArray out;
    const char *families[] = {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE",
                              "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP"};
    for (const char *fam : families) {
        out += QByteArray("# HELP ") + fam + " test family\n# TYPE " + fam + " gauge\n";
        for (int i = 0; i < gpus.size(); ++i) {
            const FrameGpu &g = gpus[i];
            out += QByteArray(fam) + "{gpu=\"" + QByteArray::number(i) + "\",UUID=\"" + g.uuid.toUtf8() +
                   "\",device=\"nvidia" + QByteArray::number(i) +
                   "\",modelName=\"NVIDIA A100-SXM4-80GB\",Hostname=\"" + host.toUtf8() + "\"";
            if (!g.pod.isEmpty())
                out +=
                    ",container=\"main\",namespace=\"" + g.ns.toUtf8() + "\",pod=\"" + g.pod.toUtf8() + "\"";
            out += "} ";
            const QByteArray fams(fam);
            if (fams.endsWith("GPU_UTIL"))
                out += QByteArray::number(g.util);
            else if (fams.endsWith("FB_USED"))
                out += QByteArray::number(g.fbUsed);
            else if (fams.endsWith("FB_FREE"))
                out += QByteArray::number(81920 - g.fbUsed);
            else if (fams.endsWith("POWER_USAGE"))
                out += "250.500000";
            else
                out += "47";
            out += '\n';
        }
    }
    return out;
}

// gq-test-exporter on a port Prometheus scrapes, serving a file this object rewrites
// (--file), or any other mode (start(port, args)).
class TestExporter {
public:
    explicit TestExporter(const PromEnv &env)
        : m_env(env) {}
    ~TestExporter() { stop(); }
    TestExporter(const TestExporter &) = delete;
    TestExporter &operator=(const TestExporter &) = delete;

    bool start(int port, const QByteArray &text) {
        if (!m_dir.isValid() || !write(text))
            return false;
        return start(port,
                     QStringList{QStringLiteral("--file"), m_dir.filePath(QStringLiteral("frame.prom"))});
    }
    bool start(int port, const QStringList &mode) {
        stop();
        m_process = std::make_unique<QProcess>();
        m_process->start(m_env.bin + QStringLiteral("/gq-test-exporter"),
                         mode + QStringList{QStringLiteral("--port"), QString::number(port)});
        if (!m_process->waitForReadyRead(10000) || !m_process->readLine().startsWith("ready ")) {
            qWarning("gq-test-exporter: %s", m_process->readAllStandardError().constData());
            return false;
        }
        m_url = QStringLiteral("http://127.0.0.1:%1/metrics").arg(port);
        return true;
    }
    // The next scrape reads this (--file mode).
    bool write(const QByteArray &text) {
        QFile f(m_dir.filePath(QStringLiteral("frame.prom")));
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return false;
        f.write(text);
        return true;
    }
    void stop() {
        if (!m_process)
            return;
        m_process->terminate();
        m_process->waitForFinished(5000);
        m_process.reset();
    }
    [[nodiscard]] QString url() const { return m_url; }

private:
    const PromEnv &m_env;
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_process;
    QString m_url;
};

// Until `promql` answers one series whose last value is `expected`.
inline bool waitForPromValue(const QString &url, const QString &promql, double expected,
                             int timeoutMs = 30000) {
    metrics::PrometheusConfig c;
    c.url = url;
    metrics::PrometheusClient client(c);
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        auto r = await(client.query(promql));
        if (r && r->series.size() == 1 && !r->series[0].points.isEmpty() &&
            r->series[0].points.last().v == expected)
            return true;
        QTest::qWait(200);
    }
    return false;
}

struct CliRun {
    int code = -1;
    QByteArray out, err;
};

// The built gpuquota, with the event loop spinning meanwhile (a fake server in the
// test may have to answer it).
inline CliRun runGpuquota(const QString &bin, const QStringList &args, int timeoutMs = 60000) {
    QProcess p;
    p.start(bin + QStringLiteral("/gpuquota"), args);
    QDeadlineTimer deadline(timeoutMs);
    while (p.state() != QProcess::NotRunning && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        p.waitForFinished(10);
    }
    CliRun r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// A Prometheus API stand-in on this thread for what the real one cannot be made to say
// on demand (warnings, infos): each path (/api/v1/query, /api/v1/query_range, ...)
// answers its set body with 200; others 404.
class FakePromApi : public QTcpServer {
public:
    FakePromApi() {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [this, s] {
                    m_buffers[s] += s->readAll();
                    const QByteArray request = m_buffers.value(s);
                    const qsizetype head = request.indexOf("\r\n\r\n");
                    if (head < 0)
                        return;
                    const qsizetype length =
                        request.toLower().indexOf("content-length:") >= 0
                            ? request.mid(request.toLower().indexOf("content-length:") + 15)
                                  .split('\r')
                                  .first()
                                  .trimmed()
                                  .toInt()
                            : 0;
                    if (request.size() < head + 4 + length)
                        return;
                    m_buffers.remove(s);
                    QByteArray path = request.split(' ').value(1);
                    path = path.left(path.indexOf('?') < 0 ? path.size() : path.indexOf('?'));
                    ++hits[path];
                    const bool known = m_bodies.contains(path);
                    const QByteArray body = known ? m_bodies.value(path) : QByteArrayLiteral("not found");
                    s->write(QByteArray(known ? "HTTP/1.1 200 OK" : "HTTP/1.1 404 Not Found") +
                             "\r\nContent-Type: application/json\r\nContent-Length: " +
                             QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    void answer(const QByteArray &path, const QByteArray &body) { m_bodies.insert(path, body); }
    [[nodiscard]] QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(serverPort()); }
    QHash<QByteArray, int> hits;

private:
    QHash<QByteArray, QByteArray> m_bodies;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

} // namespace gq::test
