// The GPU monitor service: snapshots from saved exporter pages (file:// targets),
// failures reported as values, Prometheus-only features refused for direct scrapes,
// and a replaced source dropping what the old one still had out.
#include "services/livegpus/gpumonitor.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace gq;
using namespace gq::metrics;

Q_DECLARE_METATYPE(gq::metrics::GpuSnapshot)
Q_DECLARE_METATYPE(gq::Error)

namespace {

ScrapeTarget fixture(const char *name) {
    ScrapeTarget t;
    t.url = QStringLiteral("file://" GQ_TEST_FIXTURES "/dcgm/") + QString::fromLatin1(name);
    return t;
}

} // namespace

class TestGpuMonitor : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qRegisterMetaType<GpuSnapshot>();
        qRegisterMetaType<Error>();
    }
    void unconfiguredSaysSo();
    void snapshotFromScrapedPages();
    void oneTargetDownKeepsTheOthers();
    void prometheusUnreachableIsAFailure();
    void historyNeedsPrometheus();
    void replacedSourceDropsOldResults();
    void periodicRefresh();
};

void TestGpuMonitor::unconfiguredSaysSo() {
    GpuMonitor m;
    QVERIFY(!m.isConfigured());
    QSignalSpy failed(&m, &GpuMonitor::failed);
    m.refresh();
    QCOMPARE(failed.size(), 1);
    QCOMPARE(failed[0][0].value<Error>().kind, Error::Kind::Config);
}

void TestGpuMonitor::snapshotFromScrapedPages() {
    GpuMonitor m;
    m.setSource(GpuMonitor::Source::scrape({fixture("dcgm-exporter-pr570-dra-gh200.prom"),
                                            fixture("gpu-operator-issue340-t4-pod-labels.prom")}));
    QSignalSpy got(&m, &GpuMonitor::snapshotAvailable);
    m.refresh();
    QVERIFY(got.wait(10000));
    const GpuSnapshot s = got[0][0].value<GpuSnapshot>();
    QCOMPARE(s.gpus.size(), 3);
    QCOMPARE(s.gpus[0].hostname, QStringLiteral("nvidia-dcgm-exporter-ml2wh"));
    QCOMPARE(*s.gpus[0].fbFreeMib, 15109.0);
    QVERIFY(s.gpus[1].shared);
    QVERIFY(s.takenAtMs > 0);
    QCOMPARE(m.lastSnapshot().gpus.size(), 3);
}

void TestGpuMonitor::oneTargetDownKeepsTheOthers() {
    GpuMonitor m;
    ScrapeTarget missing;
    missing.url = QStringLiteral("file:///nonexistent/metrics.prom");
    m.setSource(
        GpuMonitor::Source::scrape({missing, fixture("dcgm-exporter-issue363-driver-version-label.prom")}));
    QSignalSpy got(&m, &GpuMonitor::snapshotAvailable);
    m.refresh();
    QVERIFY(got.wait(10000));
    const GpuSnapshot s = got[0][0].value<GpuSnapshot>();
    QCOMPARE(s.gpus.size(), 1);
    QCOMPARE(s.warnings.size(), 1);
    QVERIFY2(s.warnings[0].contains(QStringLiteral("/nonexistent/metrics.prom")), qPrintable(s.warnings[0]));
}

void TestGpuMonitor::prometheusUnreachableIsAFailure() {
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    PrometheusConfig c;
    c.url = QStringLiteral("http://127.0.0.1:%1").arg(probe.serverPort());
    c.maxAttempts = 1;
    probe.close();
    GpuMonitor m;
    m.setSource(GpuMonitor::Source::prometheusAt(c));
    QSignalSpy failed(&m, &GpuMonitor::failed);
    m.refresh();
    QVERIFY(failed.wait(20000));
    QCOMPARE(failed[0][0].value<Error>().kind, Error::Kind::Network);
}

void TestGpuMonitor::historyNeedsPrometheus() {
    GpuMonitor m;
    m.setSource(GpuMonitor::Source::scrape({fixture("dcgm-exporter-issue363-driver-version-label.prom")}));
    QSignalSpy failed(&m, &GpuMonitor::failed);
    m.fetchHistory(900, 15);
    m.findIdle({});
    QCOMPARE(failed.size(), 2);
    QVERIFY(failed[0][0].value<Error>().message.contains(QStringLiteral("needs Prometheus")));
}

void TestGpuMonitor::replacedSourceDropsOldResults() {
    GpuMonitor m;
    m.setSource(GpuMonitor::Source::scrape({fixture("dcgm-exporter-issue58-empty-pod-labels.prom")}));
    QSignalSpy got(&m, &GpuMonitor::snapshotAvailable);
    m.refresh();
    m.setSource(GpuMonitor::Source::scrape({fixture("dcgm-exporter-issue363-driver-version-label.prom")}));
    m.refresh();
    QVERIFY(got.wait(10000));
    QTest::qWait(200); // the first refresh's result, had it not been dropped, is in by now
    QCOMPARE(got.size(), 1);
    QCOMPARE(got[0][0].value<GpuSnapshot>().gpus.size(), 1); // issue363's one GPU, not issue58's five
}

void TestGpuMonitor::periodicRefresh() {
    GpuMonitor m;
    m.setSource(GpuMonitor::Source::scrape({fixture("dcgm-exporter-issue363-driver-version-label.prom")}));
    QSignalSpy got(&m, &GpuMonitor::snapshotAvailable);
    m.start(500);
    QTRY_VERIFY_WITH_TIMEOUT(got.size() >= 3, 10000);
    m.stop();
    QVERIFY(!m.isRunning());
}

QTEST_GUILESS_MAIN(TestGpuMonitor)
#include "tst_gpumonitor.moc"
