// The Live GPU page against the real Prometheus that scripts/start-services.sh starts
// (it scrapes our test exporter on GQ_TEST_EXPORTER_PORTS) and against a direct scrape
// of that exporter: the table holds what `gpuquota gpus -o json` prints, the idle list
// what `gpuquota idle` finds, the namespace list shows the live utilization; and a
// context without a metrics source says how to configure one.
#include "services/settings/consolesettings.h"
#include "services/quotas/draftstore.h"
#include "services/livegpus/gpumonitor.h"
#include "widgets/livegpus/livegpudelegates.h"
#include "models/livegpus/livegpumodel.h"
#include "widgets/livegpus/livegpupage.h"
#include "app/console/mainwindow.h"
#include "models/quotas/namespacelistmodel.h"
#include "widgets/settings/preferencesdialog.h"
#include "widgets/connections/startpage.h"

#include "tests/metrics/promtestutil.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace gq;
using namespace gq::metrics;

namespace {

struct FrameGpu {
    QString uuid;
    int util;
    QList<QPair<QString, QString>> holders; // namespace, pod; several: a shared GPU
    QString migProfile{};                   // with migId: a MIG instance (engine activity, no GPU_UTIL)
    QString migId{};
};

// dcgm-exporter text for GPUs on node `host`: one series per holder, as the exporter
// writes a time-sliced GPU.
QByteArray frame(const QString &host, const QList<FrameGpu> &gpus) {
    QByteArray out;
    const char *families[] = {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED",
                              "DCGM_FI_DEV_FB_FREE",  "DCGM_FI_DEV_POWER_USAGE",
                              "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_PROF_GR_ENGINE_ACTIVE"};
    for (const char *fam : families) {
        const QByteArray f(fam);
        out += "# HELP " + f + " test family\n# TYPE " + f + " gauge\n";
        for (int i = 0; i < gpus.size(); ++i) {
            const FrameGpu &g = gpus[i];
            const bool mig = !g.migId.isEmpty();
            if (mig && f.endsWith("GPU_UTIL"))
                continue;
            QList<QPair<QString, QString>> holders = g.holders;
            if (holders.isEmpty())
                holders.append(QPair<QString, QString>());
            for (const auto &[ns, pod] : holders) {
                out += f + "{gpu=\"" + QByteArray::number(mig ? 7 : i) + "\",UUID=\"" + g.uuid.toUtf8() +
                       "\",modelName=\"NVIDIA A100-SXM4-80GB\",Hostname=\"" + host.toUtf8() + "\"";
                if (mig)
                    out += ",GPU_I_PROFILE=\"" + g.migProfile.toUtf8() + "\",GPU_I_ID=\"" + g.migId.toUtf8() +
                           "\"";
                if (!pod.isEmpty())
                    out +=
                        ",container=\"main\",namespace=\"" + ns.toUtf8() + "\",pod=\"" + pod.toUtf8() + "\"";
                out += "} ";
                if (f.endsWith("GPU_UTIL"))
                    out += QByteArray::number(g.util);
                else if (f.endsWith("ENGINE_ACTIVE"))
                    out += QByteArray::number(g.util / 100.0);
                else if (f.endsWith("FB_USED"))
                    out += QByteArray::number(holders.first().second.isEmpty() ? 0 : 10240);
                else if (f.endsWith("FB_FREE"))
                    out += QByteArray::number(holders.first().second.isEmpty() ? 81920 : 71680);
                else if (f.endsWith("POWER_USAGE"))
                    out += "201.250000";
                else
                    out += "44";
                out += '\n';
            }
        }
    }
    return out;
}

// The model's rows as `gpuquota gpus -o json` prints them (the keys the comparison needs).
QJsonArray modelAsJson(const LiveGpuModel &m, const QString &uuidPrefix) {
    QJsonArray rows;
    auto num = [](const std::optional<double> &v) { return v ? QJsonValue(*v) : QJsonValue(); };
    for (int r = 0; r < m.rowCount(); ++r) {
        const GpuSample &g = m.gpuAt(r);
        if (!g.uuid.startsWith(uuidPrefix))
            continue;
        QJsonArray holders;
        for (const GpuHolder &h : g.holders)
            holders.append(QJsonObject{{QStringLiteral("namespace"), h.ns}, {QStringLiteral("pod"), h.pod}});
        rows.append(
            QJsonObject{{QStringLiteral("hostname"), g.hostname},
                        {QStringLiteral("uuid"), g.uuid},
                        {QStringLiteral("mig_profile"), g.migProfile.isNull() ? QJsonValue() : g.migProfile},
                        {QStringLiteral("util_pct"), num(g.utilPct)},
                        {QStringLiteral("fb_used_mib"), num(g.fbUsedMib)},
                        {QStringLiteral("fb_free_mib"), num(g.fbFreeMib)},
                        {QStringLiteral("power_w"), num(g.powerW)},
                        {QStringLiteral("temp_c"), num(g.tempC)},
                        {QStringLiteral("shared"), g.shared},
                        {QStringLiteral("holders"), holders}});
    }
    return rows;
}

// The CLI's JSON cut to the same keys (holders without the container).
QJsonArray cliAsJson(const QByteArray &json, const QString &uuidPrefix) {
    QJsonArray rows;
    for (const QJsonValue &v : QJsonDocument::fromJson(json).array()) {
        const QJsonObject o = v.toObject();
        if (!o.value(QLatin1String("uuid")).toString().startsWith(uuidPrefix))
            continue;
        QJsonArray holders;
        for (const QJsonValue &h : o.value(QLatin1String("holders")).toArray())
            holders.append(QJsonObject{{QStringLiteral("namespace"), h[QLatin1String("namespace")]},
                                       {QStringLiteral("pod"), h[QLatin1String("pod")]}});
        QJsonObject row;
        for (const char *k : {"hostname", "uuid", "mig_profile", "util_pct", "fb_used_mib", "fb_free_mib",
                              "power_w", "temp_c", "shared"})
            row.insert(QLatin1String(k), o.value(QLatin1String(k)));
        row.insert(QStringLiteral("holders"), holders);
        rows.append(row);
    }
    return rows;
}

// node it-lg: 0 busy (team-a), 1 idle (team-idle), 2 free, 3 shared by two pods, and a
// MIG instance (3g.40gb) of GPU 7 held by team-a.
QList<FrameGpu> fleet() {
    return {{QStringLiteral("GPU-it-lg0"), 64, {{QStringLiteral("team-a"), QStringLiteral("train-1")}}},
            {QStringLiteral("GPU-it-lg1"), 0, {{QStringLiteral("team-idle"), QStringLiteral("sleepy")}}},
            {QStringLiteral("GPU-it-lg2"), 0, {}},
            {QStringLiteral("GPU-it-lg3"),
             30,
             {{QStringLiteral("team-b"), QStringLiteral("serve-1")},
              {QStringLiteral("team-b"), QStringLiteral("serve-2")}}},
            {QStringLiteral("GPU-it-lg7"),
             50,
             {{QStringLiteral("team-a"), QStringLiteral("mig-job")}},
             QStringLiteral("3g.40gb"),
             QStringLiteral("1")}};
}

} // namespace

class TestLiveGpuPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void fillsFromDirectScrape();
    void fillsFromPrometheus();
    void idleListOnAKnownSeries();
    void namespaceListShowsLiveUtilization();
    void prometheusNotesInTheStatusLine();
    void unconfiguredSaysHowToConfigure();

private:
    struct Run {
        int code = -1;
        QByteArray out, err;
    };
    Run cli(const QStringList &args);
    // The test's Prometheus as the monitor's source.
    GpuMonitor::Source prometheus() const {
        PrometheusConfig config;
        config.url = m_url;
        return GpuMonitor::Source::prometheusAt(config);
    }
    void startExporter(const QByteArray &text);
    [[nodiscard]] QString scrapeUrl() const {
        return QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_ports.value(0));
    }
    // Waits until the model shows `expected` rows of the fleet (uuid prefix GPU-it-lg).
    bool waitForRows(const LiveGpuModel &m, int expected, int timeoutMs = 20000);

    QString m_url, m_bin;
    QList<int> m_ports;
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_exporter;
};

void TestLiveGpuPage::initTestCase() {
    m_url = qEnvironmentVariable("GQ_TEST_PROMETHEUS_URL");
    if (m_url.isEmpty()) {
        if (qEnvironmentVariable("CI") == QLatin1String("true"))
            QFAIL("GQ_TEST_PROMETHEUS_URL is not set: scripts/start-services.sh starts Prometheus (CI=true: "
                  "no skip)");
        QSKIP("GQ_TEST_PROMETHEUS_URL is not set (source scripts/start-services.sh)");
    }
    for (const QString &p : qEnvironmentVariable("GQ_TEST_EXPORTER_PORTS").split(u',', Qt::SkipEmptyParts))
        m_ports << p.toInt();
    QCOMPARE(m_ports.size(), 2);
    m_bin = qEnvironmentVariable("GQ_BIN_DIR");
    QVERIFY(QFile::exists(m_bin + QStringLiteral("/gpuquota")));
    QVERIFY(QFile::exists(m_bin + QStringLiteral("/gq-test-exporter")));
    QVERIFY(m_dir.isValid());
}

void TestLiveGpuPage::cleanup() {
    if (m_exporter) {
        m_exporter->terminate();
        m_exporter->waitForFinished(5000);
        m_exporter.reset();
    }
}

TestLiveGpuPage::Run TestLiveGpuPage::cli(const QStringList &args) {
    QProcess p;
    p.start(m_bin + QStringLiteral("/gpuquota"),
            QStringList{QStringLiteral("--settings-file"), m_dir.filePath(QStringLiteral("cli.ini"))} + args);
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

void TestLiveGpuPage::startExporter(const QByteArray &text) {
    const QString file = m_dir.filePath(QStringLiteral("frame.prom"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
    f.close();
    m_exporter = std::make_unique<QProcess>();
    m_exporter->start(
        m_bin + QStringLiteral("/gq-test-exporter"),
        {QStringLiteral("--file"), file, QStringLiteral("--port"), QString::number(m_ports[0])});
    QVERIFY(m_exporter->waitForReadyRead(10000));
    QVERIFY2(m_exporter->readLine().startsWith("ready "), m_exporter->readAllStandardError().constData());
}

bool TestLiveGpuPage::waitForRows(const LiveGpuModel &m, int expected, int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (modelAsJson(m, QStringLiteral("GPU-it-lg")).size() == expected)
            return true;
        QTest::qWait(100);
    }
    return false;
}

void TestLiveGpuPage::fillsFromDirectScrape() {
    startExporter(frame(QStringLiteral("it-lg"), fleet()));
    GpuMonitor monitor;
    LiveGpuPage page(&monitor);
    QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    page.resize(1400, 800);
    page.show();
    monitor.setSource(GpuMonitor::Source::scrape({ScrapeTarget{scrapeUrl(), {}, false, 10000}}));
    monitor.start(1000);
    // Five readings plus the physical row of the MIG GPU.
    QVERIFY(waitForRows(*page.model(), 6));
    const Run direct = cli({QStringLiteral("gpus"), QStringLiteral("--scrape"), scrapeUrl(),
                            QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(direct.code == 0, direct.err.constData());
    QCOMPARE(modelAsJson(*page.model(), QStringLiteral("GPU-it-lg")),
             cliAsJson(direct.out, QStringLiteral("GPU-it-lg")));

    // The summary counts the MIG instance, not its physical GPU; the shared GPU once.
    QTRY_VERIFY2(page.summaryText().contains(QLatin1String("3 busy")) &&
                     page.summaryText().contains(QLatin1String("1 allocated but idle")),
                 qPrintable(page.summaryText()));
    const LiveGpuSummary s = page.model()->summary();
    QCOMPARE(s.busy, 3);
    QCOMPARE(s.allocatedIdle, 1);
    QCOMPARE(s.free, 1);
    QCOMPARE(s.shared, 1);
    // With the summary filled in, the page still fits beside the namespace list in a
    // 1280 px window (it made the window wider than the screen: the summary did not wrap
    // and the filter kept its placeholder's width).
    QVERIFY2(page.minimumSizeHint().width() <= 700,
             qPrintable(QString::number(page.minimumSizeHint().width())));

    // Shown in words: the shared marker and the holders.
    auto *table = page.findChild<QTableView *>(QStringLiteral("liveGpuTable"));
    QVERIFY(table);
    QStringList shared;
    for (int r = 0; r < table->model()->rowCount(); ++r)
        shared << table->model()->index(r, LiveGpuModel::SharedColumn).data().toString();
    QVERIFY2(shared.contains(QStringLiteral("shared ×2")), qPrintable(shared.join(u'|')));

    // Sorting by utilization puts the busiest first; filtering finds a pod.
    table->sortByColumn(LiveGpuModel::UtilColumn, Qt::DescendingOrder);
    QCOMPARE(table->model()->index(0, LiveGpuModel::HolderColumn).data().toString(),
             QStringLiteral("team-a/train-1"));
    auto *filter = page.findChild<QLineEdit *>(QStringLiteral("liveGpuFilter"));
    QTest::keyClicks(filter, QStringLiteral("sleepy"));
    QCOMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, LiveGpuModel::UtilColumn).data().toString(), QStringLiteral("0 %"));
    filter->clear();

    // The tile view: one tile per GPU and MIG instance (not the MIG GPU's own row).
    QTest::mouseClick(page.findChild<QToolButton *>(QStringLiteral("liveGpuTilesButton")), Qt::LeftButton);
    QVERIFY(page.tileView());
    auto *tiles = page.findChild<QListView *>(QStringLiteral("liveGpuTiles"));
    QVERIFY(tiles->isVisible());
    int tileRows = 0;
    for (int r = 0; r < tiles->model()->rowCount(); ++r)
        tileRows += tiles->model()
                        ->index(r, 0)
                        .data(LiveGpuModel::KeyRole)
                        .toString()
                        .contains(QLatin1String("it-lg"));
    QCOMPARE(tileRows, 5);
    // A tile says what the table's columns say: model, memory, power, temperature, the
    // holder and, once the cluster names it, the holder's user.
    page.model()->setUsers({{QStringLiteral("team-a/train-1"), QStringLiteral("alice")}});
    QStringList busyTile;
    for (int r = 0; r < tiles->model()->rowCount(); ++r)
        if (tiles->model()
                ->index(r, 0)
                .data(LiveGpuModel::KeyRole)
                .toString()
                .contains(QLatin1String("GPU-it-lg0")))
            busyTile = GpuTileDelegate::tileText(tiles->model()->index(r, 0));
    QCOMPARE(busyTile, (QStringList{QStringLiteral("it-lg · 0"), QStringLiteral("64 %"),
                                    QStringLiteral("NVIDIA A100-SXM4-80GB"),
                                    QStringLiteral("10.0 / 80.0 GiB · 201 W · 44 °C"),
                                    QStringLiteral("team-a/train-1 · alice")}));
    // The table has the user too, and the filter finds a GPU by it.
    QTest::mouseClick(page.findChild<QToolButton *>(QStringLiteral("liveGpuTableButton")), Qt::LeftButton);
    QTest::keyClicks(filter, QStringLiteral("alice"));
    QCOMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, LiveGpuModel::UserColumn).data().toString(), QStringLiteral("alice"));
    QVERIFY(table->model()
                ->index(0, LiveGpuModel::HolderColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("user alice")));
    filter->clear();

    // Direct scrapes keep no history: the idle list says it needs Prometheus.
    QVERIFY(page.findChild<QLabel *>(QStringLiteral("idleGpuHeader"))
                ->text()
                .contains(QLatin1String("needs Prometheus")));

    // The exporter goes away: the page says so in words and keeps retrying.
    cleanup();
    QTRY_VERIFY_WITH_TIMEOUT(page.statusText().contains(QLatin1String("Could not read the GPU metrics")),
                             30000);
    QVERIFY(page.statusText().contains(QLatin1String("Retrying")));
    startExporter(frame(QStringLiteral("it-lg"), fleet()));
    QTRY_VERIFY_WITH_TIMEOUT(page.statusText().isEmpty(), 30000);
}

void TestLiveGpuPage::fillsFromPrometheus() {
    startExporter(frame(QStringLiteral("it-lg"), fleet()));
    GpuMonitor monitor;
    LiveGpuPage page(&monitor);
    page.show();
    monitor.setSource(prometheus());
    monitor.start(1000);
    QVERIFY2(waitForRows(*page.model(), 6, 30000), "Prometheus never scraped the test exporter");
    // Prometheus may scrape between the page's query and the CLI's; the frame does not
    // change, so both see the same values.
    const Run viaProm = cli({QStringLiteral("gpus"), QStringLiteral("--prometheus"), m_url,
                             QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(viaProm.code == 0, viaProm.err.constData());
    QCOMPARE(modelAsJson(*page.model(), QStringLiteral("GPU-it-lg")),
             cliAsJson(viaProm.out, QStringLiteral("GPU-it-lg")));

    // History: the sparkline of GPU 0 and team-a's line in the namespace chart.
    QTest::qWait(3000);
    page.refreshHistory();
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int r = 0; r < page.model()->rowCount(); ++r)
                if (page.model()->gpuAt(r).uuid == QLatin1String("GPU-it-lg0"))
                    return page.model()
                        ->index(r, LiveGpuModel::HistoryColumn)
                        .data(LiveGpuModel::HistoryRole)
                        .value<QList<double>>()
                        .contains(64.0);
            return false;
        }(),
        20000);
}

void TestLiveGpuPage::idleListOnAKnownSeries() {
    startExporter(frame(QStringLiteral("it-lg"), fleet()));
    GpuMonitor monitor;
    LiveGpuPage page(&monitor);
    page.show();
    monitor.setSource(prometheus());
    IdleOptions options;
    options.thresholdPct = 5;
    options.minIdleMs = 5000;
    page.setIdleOptions(options);
    monitor.start(1000);
    QVERIFY(waitForRows(*page.model(), 6, 30000));
    QTest::qWait(8000); // more scrapes than the 5 s asked for
    QSignalSpy idleSpy(&monitor, &GpuMonitor::idleAvailable);
    page.refreshHistory();
    QVERIFY(idleSpy.wait(20000));
    const IdleGpuModel *idle = page.idleModel();
    QStringList uuids;
    int row = -1;
    for (int r = 0; r < idle->rowCount(); ++r) {
        if (!idle->idleAt(r).gpu.uuid.startsWith(QLatin1String("GPU-it-lg")))
            continue;
        uuids << idle->idleAt(r).gpu.uuid;
        row = r;
    }
    QCOMPARE(uuids, QStringList{QStringLiteral("GPU-it-lg1")}); // busy, free and shared ones are not idle
    QCOMPARE(idle->index(row, IdleGpuModel::NamespaceColumn).data().toString(), QStringLiteral("team-idle"));
    QCOMPARE(idle->index(row, IdleGpuModel::PodColumn).data().toString(), QStringLiteral("sleepy"));
    const IdleGpu &g = idle->idleAt(row);
    QVERIFY2(g.idleMs >= 5000, qPrintable(QString::number(g.idleMs)));
    QCOMPARE(g.gpuHoursWasted, double(g.idleMs) / 3600000.0);

    // The CLI finds the same GPU.
    const Run run =
        cli({QStringLiteral("idle"), QStringLiteral("--prometheus"), m_url, QStringLiteral("--for"),
             QStringLiteral("5s"), QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(run.code == 0, run.err.constData());
    QStringList cliUuids;
    for (const QJsonValue &v : QJsonDocument::fromJson(run.out).array())
        if (v[QLatin1String("uuid")].toString().startsWith(QLatin1String("GPU-it-lg")))
            cliUuids << v[QLatin1String("uuid")].toString();
    QCOMPARE(cliUuids, uuids);

    // The tab names the count; a double click asks for the namespace.
    auto *tabs = page.findChild<QTabWidget *>(QStringLiteral("liveGpuTabs"));
    QVERIFY(tabs->tabText(1).contains(QLatin1Char('(')));
    tabs->setCurrentIndex(1);
    auto *view = page.findChild<QTableView *>(QStringLiteral("idleGpuTable"));
    QSignalSpy activated(&page, &LiveGpuPage::namespaceActivated);
    int viewRow = -1;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        if (view->model()->index(r, IdleGpuModel::NamespaceColumn).data().toString() ==
            QLatin1String("team-idle"))
            viewRow = r;
    QVERIFY(viewRow >= 0);
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QTRY_VERIFY(view->isVisible());
    const QRect cell = view->visualRect(view->model()->index(viewRow, IdleGpuModel::PodColumn));
    QVERIFY(!cell.isEmpty());
    // As a user does it: the first click selects, the second one (a double click) opens.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.first().first().toString(), QStringLiteral("team-idle"));
    // The namespace itself is a link: one click opens it.
    const QModelIndex nsCell = view->model()->index(viewRow, IdleGpuModel::NamespaceColumn);
    QVERIFY(nsCell.data(Qt::FontRole).value<QFont>().underline());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(nsCell).center());
    QCOMPARE(activated.size(), 2);
    QCOMPARE(activated.last().first().toString(), QStringLiteral("team-idle"));
    QVERIFY(page.findChild<QLabel *>(QStringLiteral("idleGpuHeader"))
                ->text()
                .contains(QLatin1String("Click a namespace to open its quota")));
}

void TestLiveGpuPage::namespaceListShowsLiveUtilization() {
    NamespaceListModel model;
    NamespaceSummary a;
    a.name = QStringLiteral("team-a");
    a.gpu.used = Quantity::parse(QStringLiteral("2")).value();
    a.gpu.hard = Quantity::parse(QStringLiteral("8")).value();
    a.gpu.tracked = true;
    NamespaceSummary b = a;
    b.name = QStringLiteral("team-c");
    model.resetAll({a, b});
    const QString before = model.index(0, NamespaceListModel::GpuColumn).data().toString();

    GpuSnapshot snap = gpusFromSamples(parseExposition(frame(QStringLiteral("it-lg"), fleet())).samples);
    model.setLiveGpus(namespaceGpuLive(snap));
    // team-a holds GPU 0 at 64 % and a 3/7 MIG slice at 50 %: (64 + 50 x 3/7) / (1 + 3/7) = 59.8 %.
    QCOMPARE(model.index(0, NamespaceListModel::GpuColumn).data().toString(),
             before + QStringLiteral(" · 60%"));
    QVERIFY(model.index(0, NamespaceListModel::GpuColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("Live")));
    // A namespace holding nothing now keeps its quota text only.
    QCOMPARE(model.index(1, NamespaceListModel::GpuColumn).data().toString(), before);
    model.setLiveGpus({});
    QCOMPARE(model.index(0, NamespaceListModel::GpuColumn).data().toString(), before);
}

void TestLiveGpuPage::prometheusNotesInTheStatusLine() {
    // What Prometheus adds to its query_range answers (a partial answer's warning, an
    // info) shows in the page's status line, not only the instant query's.
    gq::test::FakePromApi prom;
    QVERIFY(prom.listen(QHostAddress::LocalHost));
    prom.answer(
        "/api/v1/query",
        R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","gpu":"0","UUID":"GPU-n0","Hostname":"n1","namespace":"team-a","pod":"p"},"value":[1700000000,"1"]}]}})");
    prom.answer(
        "/api/v1/query_range",
        R"({"status":"success","warnings":["partial response: store eu-2 unreachable"],"infos":["PromQL info: ignored"],"data":{"resultType":"matrix","result":[]}})");
    GpuMonitor monitor;
    LiveGpuPage page(&monitor);
    page.show();
    PrometheusConfig config;
    config.url = prom.url();
    monitor.setSource(GpuMonitor::Source::prometheusAt(config));
    monitor.refresh();
    QTRY_COMPARE(page.model()->rowCount(), 1);
    QVERIFY(page.statusText().isEmpty());
    page.refreshHistory();
    QTRY_VERIFY_WITH_TIMEOUT(
        page.statusText().contains(QLatin1String("partial response: store eu-2 unreachable")), 10000);
    QVERIFY2(page.statusText().contains(QLatin1String("info: PromQL info: ignored")),
             qPrintable(page.statusText()));
    QVERIFY(prom.hits.value("/api/v1/query_range") >= 2); // history and idle detection
    // A clean answer clears it.
    prom.answer("/api/v1/query_range", R"({"status":"success","data":{"resultType":"matrix","result":[]}})");
    page.refreshHistory();
    QTRY_VERIFY_WITH_TIMEOUT(page.statusText().isEmpty(), 10000);
}

void TestLiveGpuPage::unconfiguredSaysHowToConfigure() {
    ConsoleSettings settings(m_dir.filePath(QStringLiteral("console.ini")),
                             std::make_unique<MemorySecretStore>());
    DraftStore drafts(nullptr, m_dir.filePath(QStringLiteral("drafts")));
    MainWindow window(&settings, &drafts);
    window.resize(1200, 800);
    window.show();
    auto *gate = window.findChild<SourceGate *>(QStringLiteral("liveGpuGate"));
    QVERIFY(gate);
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("detailsTabs"));
    tabs->setCurrentWidget(gate);
    QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Live GPUs"));
    QVERIFY(!gate->showsPage());
    QString text;
    for (auto *l : gate->findChildren<QLabel *>())
        if (l->isVisible())
            text += l->text();
    QVERIFY2(text.contains(QLatin1String("has no GPU metrics source")) &&
                 text.contains(QLatin1String("Prometheus")) &&
                 text.contains(QLatin1String("Preferences > Connections")),
             qPrintable(text));
    QPushButton *button = nullptr;
    for (auto *b : gate->findChildren<QPushButton *>())
        if (b->isVisible())
            button = b;
    QVERIFY(button);
    QCOMPARE(button->text(), QStringLiteral("Configure the metrics source..."));
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_VERIFY(window.findChild<PreferencesDialog *>() &&
                window.findChild<PreferencesDialog *>()->isVisible());
    // The start-page key opens this tab.
    const auto pages = PreferencesDialog::startPages();
    QVERIFY(std::any_of(pages.cbegin(), pages.cend(),
                        [](const auto &p) { return p.first == QLatin1String("gpus"); }));
}

QTEST_MAIN(TestLiveGpuPage)
#include "tst_livegpupage.moc"
