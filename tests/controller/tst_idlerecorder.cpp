// The controller's idle recorder: its `metrics:` / `idle:` sections (every problem with
// its key and line), idle spans written to idle_spans once per span whatever the number
// of runs, restarts and a `since` that moves by a step, on SQLite and PostgreSQL; against
// the real Prometheus of scripts/start-services.sh and straight from our test exporter;
// `gpuquota idle --db` reading them back; and the controller itself recording with the
// sections in its file.
#include "services/controller/idlerecorder.h"
#include "tests/testclusterprocess.h"
#include "tests/usage/usagebackend.h"
#include "core/domain/yamldoc.h"

#include "tests/metrics/promtestutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTest>

#include <cmath>

using namespace gq;
using namespace gq::metrics;

Q_DECLARE_METATYPE(gq::IdleRecordReport)

namespace {

YamlNode section(const QByteArray &yaml, const char *key) {
    auto root = parseYamlNode(yaml);
    if (!root)
        return {};
    const YamlNode *n = root->find(QString::fromLatin1(key));
    return n ? *n : YamlNode();
}

Result<std::optional<IdleRecorderConfig>> parse(const QByteArray &yaml) {
    return parseIdleRecorderConfig(section(yaml, "metrics"), section(yaml, "idle"), QString());
}

IdleGpu idleGpu(const QString &uuid, const QString &pod, qint64 since, qint64 last, const QString &mig = {}) {
    IdleGpu g;
    g.gpu.hostname = QStringLiteral("n1");
    g.gpu.uuid = uuid;
    g.gpu.gpu = 0;
    if (!mig.isEmpty()) {
        g.gpu.migProfile = mig;
        g.gpu.gpuInstance = QStringLiteral("2");
    }
    g.holders = {GpuHolder{QStringLiteral("team-a"), pod, QStringLiteral("main"), {}}};
    g.sinceMs = since * 1000;
    g.lastMs = last * 1000;
    g.idleMs = g.lastMs - g.sinceMs;
    g.gpuHoursWasted = double(g.idleMs) / 3.6e6 * gpuWeight(g.gpu);
    return g;
}

struct SpanRow {
    QString ns, pod, node, gpu;
    qint64 start, end;
    double wasted;
};

QList<SpanRow> spans(const QString &url) {
    QList<SpanRow> out;
    auto store = UsageStore::open(url);
    if (!store)
        return out;
    QSqlQuery q((*store)->database());
    q.exec(QStringLiteral(
        "SELECT ns, pod_name, node, gpu_uuid, start_s, end_s, wasted_gpu_seconds FROM idle_spans "
        "ORDER BY node, gpu_uuid, start_s"));
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                    q.value(3).toString(), q.value(4).toLongLong(), q.value(5).toLongLong(),
                    q.value(6).toDouble()});
    return out;
}

} // namespace

class TestIdleRecorder : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qRegisterMetaType<IdleRecordReport>();
        GQ_PREPARE_USAGE_BACKEND(m_backend);
    }
    void init() { m_url = m_backend.freshUrl(); }
    void cleanup() {
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }
    void configSections();
    void upsertIsIdempotent();
    void currentSpansAsIdleGpus();
    void recordsFromPrometheus();
    void recordsFromScrapedPages();
    void spansFollowTheInjectedClock();
    void theControllerRecords();

private:
    gq::test::UsageTestBackend m_backend{"gq_idle"};
    QString m_url;
};

void TestIdleRecorder::configSections() {
    auto none = parse("database: x\n");
    QVERIFY(none);
    QVERIFY(!none->has_value());
    auto prom =
        parse("metrics: {prometheus: 'http://prom:9090'}\nidle: {threshold: 7.5, for: 45m, interval: 30s}\n");
    QVERIFY2(prom, qPrintable(prom ? QString() : prom.error().toString()));
    QCOMPARE((*prom)->prometheus.url, QStringLiteral("http://prom:9090"));
    QCOMPARE((*prom)->thresholdPct, 7.5);
    QCOMPARE((*prom)->forSeconds, 45 * 60);
    QCOMPARE((*prom)->intervalSeconds, 30);
    auto pages = parse("metrics:\n  scrape: ['http://n1:9400/metrics', 'http://n2:9400/metrics']\n");
    QVERIFY(pages);
    QCOMPARE((*pages)->scrape.size(), 2);
    QCOMPARE((*pages)->forSeconds, 30 * 60); // the defaults
    QCOMPARE((*pages)->thresholdPct, 5.0);

    // Every problem, with its key and line.
    auto bad = parse("metrics:\n  prometheus: 'ftp://x'\n  scrape: [a]\n  colour: red\n"
                     "idle:\n  threshold: 0\n  for: soon\n");
    QVERIFY(!bad);
    QCOMPARE(bad.error().kind, Error::Kind::Config);
    QStringList causes;
    for (const Error::Cause &c : bad.error().causes)
        causes << c.field + QStringLiteral(": ") + c.message;
    const QString all = causes.join(u'\n');
    QVERIFY2(all.contains(QStringLiteral("metrics.colour: line 4: unknown key")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("metrics: line 2: give either prometheus: URL or scrape: [URLs]")),
             qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("idle.threshold: line 6: must be a percentage above 0")),
             qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("idle.for: line 7: must be a duration")), qPrintable(all));
    auto badUrl = parse("metrics: {prometheus: 'ftp://x'}\n");
    QVERIFY(!badUrl);
    QCOMPARE(badUrl.error().field, QStringLiteral("metrics.prometheus"));
    auto orphan = parse("idle: {for: 1h}\n");
    QVERIFY(!orphan);
    QVERIFY(orphan.error().message.contains(QStringLiteral("needs a metrics: section")));
    auto token = parse("metrics: {prometheus: 'http://p:9090', tokenFile: /nonexistent/token}\n");
    QVERIFY(!token);
    QCOMPARE(token.error().field, QStringLiteral("metrics.tokenFile"));
}

void TestIdleRecorder::upsertIsIdempotent() {
    auto store = UsageStore::open(m_url);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    const qint64 t0 = 1'700'000'000;
    // The same span seen on three runs, `since` moving by a step, the end growing.
    for (const auto &[since, last] :
         {std::pair<qint64, qint64>{t0, t0 + 1800}, {t0 + 60, t0 + 1860}, {t0, t0 + 1920}}) {
        auto w = idlespans::upsert(
            **store, {idleGpu(QStringLiteral("GPU-a"), QStringLiteral("train-1"), since, last)}, 120);
        QVERIFY2(w, qPrintable(w ? QString() : w.error().toString()));
        QCOMPARE(*w, 1);
    }
    QList<SpanRow> rows = spans(m_url);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].start, t0);
    QCOMPARE(rows[0].end, t0 + 1920);
    QCOMPARE(rows[0].wasted, 1920.0);
    QCOMPARE(rows[0].ns, QStringLiteral("team-a"));
    QCOMPARE(rows[0].pod, QStringLiteral("train-1"));
    QCOMPARE(rows[0].node, QStringLiteral("n1"));
    QCOMPARE(rows[0].gpu, QStringLiteral("GPU-a"));
    // Another pod on that GPU, a MIG instance (3/7 of a GPU), a span after a busy hour:
    // rows of their own.
    QVERIFY(idlespans::upsert(
        **store,
        {idleGpu(QStringLiteral("GPU-a"), QStringLiteral("train-2"), t0 + 4000, t0 + 6000),
         idleGpu(QStringLiteral("GPU-m"), QStringLiteral("mig-job"), t0, t0 + 700, QStringLiteral("3g.40gb")),
         idleGpu(QStringLiteral("GPU-a"), QStringLiteral("train-1"), t0 + 9000, t0 + 9900)},
        120));
    rows = spans(m_url);
    QCOMPARE(rows.size(), 4);
    QCOMPARE(rows[3].gpu, QStringLiteral("GPU-m/2"));
    QCOMPARE(rows[3].wasted, 700.0 * 3.0 / 7.0);
    // A span first recorded in two pieces (the recorder was down between) becomes one
    // once a run sees it whole.
    QVERIFY(idlespans::upsert(
        **store, {idleGpu(QStringLiteral("GPU-a"), QStringLiteral("train-1"), t0, t0 + 9960)}, 120));
    rows = spans(m_url);
    QCOMPARE(rows.size(), 3);
    QCOMPARE(rows[0].start, t0);
    QCOMPARE(rows[0].end, t0 + 9960);
}

void TestIdleRecorder::currentSpansAsIdleGpus() {
    auto store = UsageStore::open(m_url);
    QVERIFY(store);
    const qint64 now = 1'700'010'000;
    QVERIFY(
        idlespans::upsert(**store,
                          {idleGpu(QStringLiteral("GPU-a"), QStringLiteral("train-1"), now - 7200, now - 30),
                           idleGpu(QStringLiteral("GPU-b"), QStringLiteral("old"), now - 9000, now - 5000),
                           idleGpu(QStringLiteral("GPU-c"), QStringLiteral("short"), now - 600, now - 10),
                           idleGpu(QStringLiteral("GPU-m"), QStringLiteral("mig"), now - 3600, now - 5,
                                   QStringLiteral("1g.10gb"))},
                          120));
    auto current = idlespans::current(**store, now, 1800, 600);
    QVERIFY(current);
    QCOMPARE(current->size(), 2); // b ended long ago, c is under 30 min
    QCOMPARE(current->at(0).gpu.uuid, QStringLiteral("GPU-a"));
    QCOMPARE(current->at(0).sinceMs, (now - 7200) * 1000);
    QCOMPARE(current->at(0).gpuHoursWasted, (7200.0 - 30.0) / 3600.0);
    QCOMPARE(current->at(0).holders.value(0).pod, QStringLiteral("train-1"));
    QVERIFY(current->at(0).holders.value(0).container.isNull());
    QVERIFY(std::isnan(current->at(0).meanUtilPct));
    QCOMPARE(current->at(1).gpu.gpuInstance, QStringLiteral("2"));
    QVERIFY(current->at(1).gpu.isMigInstance());
}

void TestIdleRecorder::recordsFromPrometheus() {
    gq::test::PromEnv env;
    GQ_REQUIRE_PROMETHEUS(env);
    gq::test::TestExporter exporter(env);
    const QList<gq::test::FrameGpu> gpus{
        {QStringLiteral("GPU-it-r0"), 0, QStringLiteral("team-idle"), QStringLiteral("sleepy")},
        {QStringLiteral("GPU-it-r1"), 90, QStringLiteral("team-busy"), QStringLiteral("worker")},
        {QStringLiteral("GPU-it-r2"), 0, {}, {}}};
    QVERIFY(exporter.start(env.ports[0], gq::test::dcgmFrame(QStringLiteral("it-r"), gpus)));
    QVERIFY(
        gq::test::waitForPromValue(env.url, QStringLiteral("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-it-r1\"}"), 90));
    QVERIFY(UsageStore::open(m_url));
    QTest::qWait(6000);
    IdleRecorderConfig config;
    config.prometheus.url = env.url;
    config.forSeconds = 3;
    config.intervalSeconds = 2;
    IdleRecorder recorder(config, m_url, {});
    QSignalSpy recorded(&recorder, &IdleRecorder::recorded);
    recorder.start();
    QTRY_VERIFY_WITH_TIMEOUT(recorded.size() >= 3, 30000);
    for (const QList<QVariant> &r : recorded) {
        const auto report = r.at(0).value<IdleRecordReport>();
        QVERIFY2(!report.error, qPrintable(report.error ? report.error->message : QString()));
    }
    const auto last = recorded.last().at(0).value<IdleRecordReport>();
    QStringList idleUuids;
    for (const IdleGpu &g : last.idle)
        if (g.gpu.uuid.startsWith(QLatin1String("GPU-it-r")))
            idleUuids << g.gpu.uuid;
    QCOMPARE(idleUuids, QStringList{QStringLiteral("GPU-it-r0")});
    recorder.stop();
    QList<SpanRow> rows;
    for (const SpanRow &s : spans(m_url))
        if (s.gpu.startsWith(QLatin1String("GPU-it-r")))
            rows << s;
    QCOMPARE(rows.size(), 1); // three runs, one span
    QCOMPARE(rows[0].ns, QStringLiteral("team-idle"));
    QCOMPARE(rows[0].pod, QStringLiteral("sleepy"));
    QCOMPARE(rows[0].node, QStringLiteral("it-r"));
    QVERIFY2(rows[0].end - rows[0].start >= 6, qPrintable(QString::number(rows[0].end - rows[0].start)));
    QCOMPARE(rows[0].wasted, double(rows[0].end - rows[0].start));

    // A restarted recorder (nothing kept in memory) grows the same row.
    QTest::qWait(3000);
    IdleRecorder again(config, m_url, {});
    QSignalSpy more(&again, &IdleRecorder::recorded);
    again.tick();
    QVERIFY(more.wait(30000));
    QList<SpanRow> after;
    for (const SpanRow &s : spans(m_url))
        if (s.gpu.startsWith(QLatin1String("GPU-it-r")))
            after << s;
    QCOMPARE(after.size(), 1);
    // The start is an estimate within a query step of the truth (idlequery.cpp); a later
    // reading may only move it earlier, never open a second span.
    QVERIFY2(after[0].start <= rows[0].start && rows[0].start - after[0].start <= 2 * config.intervalSeconds,
             qPrintable(QStringLiteral("%1 then %2").arg(rows[0].start).arg(after[0].start)));
    QVERIFY(after[0].end > rows[0].end);

    // `gpuquota idle --db` reads it back: the same JSON keys as through Prometheus.
    const gq::test::CliRun cli = gq::test::runGpuquota(
        env.bin, {QStringLiteral("idle"), QStringLiteral("--db"), m_url, QStringLiteral("--for"),
                  QStringLiteral("3s"), QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(cli.code == 0, cli.err.constData());
    const QJsonArray out = QJsonDocument::fromJson(cli.out).array();
    QCOMPARE(out.size(), 1);
    const QJsonObject g = out[0].toObject();
    QStringList keys = g.keys();
    keys.sort();
    QCOMPARE(keys, (QStringList{"at_least", "gpu", "gpu_hours_wasted", "gpu_instance", "holders", "hostname",
                                "idle_seconds", "max_util_pct", "mean_util_pct", "mig_profile", "model",
                                "since", "uuid"}));
    QCOMPARE(g.value(QLatin1String("uuid")).toString(), QStringLiteral("GPU-it-r0"));
    QCOMPARE(g.value(QLatin1String("hostname")).toString(), QStringLiteral("it-r"));
    QCOMPARE(g.value(QLatin1String("idle_seconds")).toDouble(), double(after[0].end - after[0].start));
    QCOMPARE(g.value(QLatin1String("gpu_hours_wasted")).toDouble(), after[0].wasted / 3600.0);
    QCOMPARE(g.value(QLatin1String("holders"))[0].toObject().value(QLatin1String("pod")).toString(),
             QStringLiteral("sleepy"));
    QVERIFY(g.value(QLatin1String("mean_util_pct")).isNull());
    QVERIFY(g.value(QLatin1String("model")).isNull());
    // The table, and --threshold said not to apply.
    const gq::test::CliRun table = gq::test::runGpuquota(
        env.bin, {QStringLiteral("idle"), QStringLiteral("--db"), m_url, QStringLiteral("--for"),
                  QStringLiteral("3s"), QStringLiteral("--threshold"), QStringLiteral("10")});
    QCOMPARE(table.code, 0);
    QVERIFY2(table.out.contains("team-idle/sleepy") && table.out.contains("GPU-h wasted"),
             table.out.constData());
    QVERIFY2(table.err.contains("--threshold does not apply to --db"), table.err.constData());
}

void TestIdleRecorder::recordsFromScrapedPages() {
    // No Prometheus: the recorder follows the spans itself, scrape by scrape.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const int port = probe.serverPort();
    probe.close();
    gq::test::PromEnv env;
    env.bin = qEnvironmentVariable("GQ_BIN_DIR");
    gq::test::TestExporter exporter(env);
    QVERIFY(exporter.start(port, gq::test::dcgmFrame(QStringLiteral("it-s"),
                                                     {{QStringLiteral("GPU-it-s0"), 1,
                                                       QStringLiteral("team-s"), QStringLiteral("dozer")}})));
    QVERIFY(UsageStore::open(m_url));
    IdleRecorderConfig config;
    config.scrape = {exporter.url()};
    config.forSeconds = 2;
    config.intervalSeconds = 1;
    IdleRecorder recorder(config, m_url, {});
    QSignalSpy recorded(&recorder, &IdleRecorder::recorded);
    recorder.start();
    QTRY_VERIFY_WITH_TIMEOUT(recorded.size() >= 5, 30000);
    recorder.stop();
    const QList<SpanRow> rows = spans(m_url);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].gpu, QStringLiteral("GPU-it-s0"));
    QCOMPARE(rows[0].pod, QStringLiteral("dozer"));
    QVERIFY(rows[0].end - rows[0].start >= 2);
}

void TestIdleRecorder::spansFollowTheInjectedClock() {
    // Two rounds an hour apart on a fake clock make an hour-long span, though the test
    // takes a second: on the wall clock the GPU would not have been idle for 30 minutes.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const int port = probe.serverPort();
    probe.close();
    gq::test::PromEnv env;
    env.bin = qEnvironmentVariable("GQ_BIN_DIR");
    gq::test::TestExporter exporter(env);
    QVERIFY(exporter.start(port, gq::test::dcgmFrame(QStringLiteral("it-c"), {{QStringLiteral("GPU-it-c0"), 1,
                                                                               QStringLiteral("team-c"),
                                                                               QStringLiteral("napper")}})));
    QVERIFY(UsageStore::open(m_url));
    IdleRecorderConfig config;
    config.scrape = {exporter.url()};
    config.forSeconds = 30 * 60;
    config.intervalSeconds = 3600; // the rounds are an interval apart: one span, not two
    constexpr qint64 kT0 = 1700000000;
    ManualClock clock(kT0);
    IdleRecorder recorder(config, m_url, {});
    recorder.setClock(&clock);
    QSignalSpy recorded(&recorder, &IdleRecorder::recorded);
    recorder.tick();
    QTRY_COMPARE_WITH_TIMEOUT(recorded.size(), 1, 20000);
    auto first = recorded.at(0).at(0).value<IdleRecordReport>();
    QVERIFY2(!first.error, first.error ? qPrintable(first.error->toString()) : "");
    QCOMPARE(first.at, kT0);
    QVERIFY(first.idle.isEmpty()); // idle for no time yet
    clock.advance(3600);
    recorder.tick();
    QTRY_COMPARE_WITH_TIMEOUT(recorded.size(), 2, 20000);
    auto second = recorded.at(1).at(0).value<IdleRecordReport>();
    QVERIFY2(!second.error, second.error ? qPrintable(second.error->toString()) : "");
    QCOMPARE(second.at, kT0 + 3600);
    QCOMPARE(second.idle.size(), 1);
    const QList<SpanRow> rows = spans(m_url);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].pod, QStringLiteral("napper"));
    QCOMPARE(rows[0].start, kT0);
    QCOMPARE(rows[0].end, kT0 + 3600);
}

void TestIdleRecorder::theControllerRecords() {
    // gpuquota-controller with metrics: and idle: in its file writes the spans, and a bad
    // section stops it before anything runs (exit 2, key and line).
    if (gq::test::usePostgres())
        QSKIP("the controller runs once, on SQLite");
    gq::test::PromEnv env;
    GQ_REQUIRE_PROMETHEUS(env);
    gq::test::TestExporter exporter(env);
    QVERIFY(exporter.start(
        env.ports[0],
        gq::test::dcgmFrame(QStringLiteral("it-c"), {{QStringLiteral("GPU-it-c0"), 0,
                                                      QStringLiteral("team-c"), QStringLiteral("napper")}})));
    QVERIFY(
        gq::test::waitForPromValue(env.url, QStringLiteral("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-it-c0\"}"), 0));
    gq::test::TestClusterProcess cluster;
    QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
    QTemporaryDir dir;
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const int listen = probe.serverPort();
    probe.close();
    auto writeConfig = [&](const QString &extra) {
        QFile f(dir.filePath(QStringLiteral("controller.yaml")));
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(
            QStringLiteral("cluster: {kubeconfig: %1, context: admin}\ndatabase: %2\nlisten: 127.0.0.1:%3\n"
                           "spool: %4\n")
                .arg(cluster.kubeconfigPath(), m_url)
                .arg(listen)
                .arg(dir.filePath(QStringLiteral("spool")))
                .toUtf8() +
            extra.toUtf8());
        return f.fileName();
    };
    const QString bin = env.bin + QStringLiteral("/gpuquota-controller");
    QProcess bad;
    bad.start(bin, {QStringLiteral("--config"), writeConfig(QStringLiteral("metrics: {scrape: []}\n"))});
    QVERIFY(bad.waitForFinished(30000));
    QCOMPARE(bad.exitCode(), 2);
    const QByteArray why = bad.readAllStandardError();
    QVERIFY2(why.contains("controller.yaml:5:") && why.contains("metrics.scrape: must be a list"),
             why.constData());

    QTest::qWait(4000);
    QProcess controller;
    controller.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    controller.start(
        bin,
        {QStringLiteral("--config"),
         writeConfig(
             QStringLiteral("metrics: {prometheus: '%1'}\nidle: {for: 3s, interval: 1s}\n").arg(env.url))});
    QVERIFY(controller.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const SpanRow &s : spans(m_url))
                if (s.gpu == QLatin1String("GPU-it-c0") && s.pod == QLatin1String("napper") &&
                    s.end - s.start >= 3)
                    return true;
            return false;
        }(),
        60000);
    // Its shutdown is another suite's subject (tst_controller); here it only has to stop.
    controller.terminate();
    if (!controller.waitForFinished(5000)) {
        controller.kill();
        QVERIFY(controller.waitForFinished(10000));
    }
}

QTEST_GUILESS_MAIN(TestIdleRecorder)
#include "tst_idlerecorder.moc"
