// The Live GPUs tab in the whole console window against the test cluster: a context
// whose metrics source is "discover dcgm-exporter through the cluster" fills the page
// from exporter pods read through the API server's pod proxy (with the holders' users
// from their pods; a GPU the exporter names only by its DRA claim shows the claim's
// pods, from the cluster's ResourceClaims), the Connections tab's Test button says how
// many GPUs it really read, and the page's layout (its splitter, tiles or table) is there
// again in a new window.
#include "tests/gui/consolefixture.h"
#include "core/kube/dra.h"
#include "tests/exporterpods.h"
#include "models/livegpus/livegpumodel.h"
#include "widgets/livegpus/livegpupage.h"
#include "widgets/settings/preferencesdialog.h"
#include "widgets/connections/startpage.h"

#include <QJsonArray>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>

using namespace gq;
using gq::test::ConsoleFixture;

namespace {

QByteArray page(const char *node) {
    QByteArray out;
    for (int i = 0; i < 2; ++i) {
        // GPU 0 names its pod; GPU 1 only its DRA claim.
        QByteArray holder = ",container=\"main\",namespace=\"team-a\",pod=\"train-1\"";
        if (i == 1)
            holder =
                QByteArray(",dra_claim_name=\"train-2-gpu\",dra_claim_namespace=\"team-a\","
                           "dra_device_name=\"gpu-1\",dra_driver_name=\"gpu.nvidia.com\",dra_pool_name=\"") +
                node + '"';
        out += QByteArray("DCGM_FI_DEV_GPU_UTIL{gpu=\"") + QByteArray::number(i) + "\",UUID=\"GPU-" + node +
               QByteArray::number(i) + "\",modelName=\"NVIDIA L40S\",Hostname=\"" + node + "\"" + holder +
               "} " + QByteArray::number(i == 0 ? 55 : 0) + "\n";
    }
    return out;
}

} // namespace

class TestLiveGpuConsole : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void discoverThroughTheCluster();
    void layoutIsRemembered();

private:
    ConsoleFixture m_fx;
    QProcess m_exporter;
};

void TestLiveGpuConsole::initTestCase() {
    QVERIFY2(m_fx.startCluster(QStringLiteral("empty")).isEmpty(), "the test cluster did not start");
    const QString file = m_fx.path(QStringLiteral("page.prom"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(page("gpu-node-x"));
    f.close();
    m_exporter.start(qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gq-test-exporter"),
                     {QStringLiteral("--file"), file});
    QVERIFY(m_exporter.waitForReadyRead(10000));
    const int port = QUrl(QString::fromUtf8(m_exporter.readLine().trimmed().mid(6))).port();
    QVERIFY(port > 0);

    auto client = KubeClient::fromKubeconfig(m_fx.kubeconfig(), QStringLiteral("admin"));
    QVERIFY(client);
    auto wait = [](auto future) {
        (void)QTest::qWaitFor([&] { return future.isFinished(); }, 10000);
        return future.isFinished() && future.result().has_value();
    };
    for (const char *ns : {"gpu-operator", "team-a"})
        QVERIFY(wait((*client)->create(KubeResource::namespaces(), {},
                                       QJsonObject{{"metadata", QJsonObject{{"name", ns}}}})));
    QVERIFY(wait((*client)->create(KubeResource::pods(), QStringLiteral("gpu-operator"),
                                   gq::test::exporterPodJson(QStringLiteral("nvidia-dcgm-exporter-x"),
                                                             {{"app", "nvidia-dcgm-exporter"}}, port))));
    QVERIFY(wait((*client)->create(
        KubeResource::pods(), QStringLiteral("team-a"),
        QJsonObject{{"metadata", QJsonObject{{"name", "train-1"},
                                             {"labels", QJsonObject{{"gpuquota.io/user", "alice"}}}}},
                    {"spec", QJsonObject{{"containers",
                                          QJsonArray{QJsonObject{{"name", "main"}, {"image", "x"}}}}}}})));
    QVERIFY(wait((*client)->create(
        KubeResource::pods(), QStringLiteral("team-a"),
        QJsonObject{{"metadata",
                     QJsonObject{{"name", "train-2"}, {"labels", QJsonObject{{"gpuquota.io/user", "bob"}}}}},
                    {"spec", QJsonObject{{"containers",
                                          QJsonArray{QJsonObject{{"name", "main"}, {"image", "x"}}}}}}})));
    // GPU 1's claim, reserved for train-2 (dcgm-exporter's series names no pod for it).
    QVERIFY(wait((*client)->create(
        dra::resourceClaims(), QStringLiteral("team-a"),
        QJsonObject{
            {"metadata", QJsonObject{{"name", "train-2-gpu"}}},
            {"spec",
             QJsonObject{
                 {"devices", QJsonObject{{"requests", QJsonArray{QJsonObject{
                                                          {"name", "gpu"},
                                                          {"exactly", QJsonObject{{"deviceClassName",
                                                                                   "gpu.nvidia.com"}}}}}}}}}},
            {"status", QJsonObject{{"reservedFor",
                                    QJsonArray{QJsonObject{{"resource", "pods"}, {"name", "train-2"}}}}}}})));
    QVERIFY(gq::test::waitPodRunning(**client, QStringLiteral("gpu-operator"),
                                     QStringLiteral("nvidia-dcgm-exporter-x")));

    // The context's metrics source: discover.
    ConsoleSettings settings(m_fx.path(QStringLiteral("settings.ini")));
    ContextConnections c;
    c.metricsSource = MetricsSource::Discover;
    saveConnections(settings, QStringLiteral("admin"), c);
    settings.sync();
}

void TestLiveGpuConsole::cleanupTestCase() {
    m_fx.stop();
    m_exporter.terminate();
    m_exporter.waitForFinished(5000);
}

void TestLiveGpuConsole::discoverThroughTheCluster() {
    ConsoleFixture::WindowOptions options;
    options.size = QSize(1400, 900);
    QVERIFY2(m_fx.openWindow(options).isEmpty(), "the window did not open");
    auto *gate = m_fx.find<SourceGate>(QStringLiteral("liveGpuGate"));
    QVERIFY(gate);
    QTRY_VERIFY(gate->showsPage()); // a source: the page, not what to configure
    auto *tabs = m_fx.find<QTabWidget>(QStringLiteral("detailsTabs"));
    tabs->setCurrentWidget(gate);
    LiveGpuModel *model = m_fx.window->liveGpuPage()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 2, 20000);
    QCOMPARE(model->gpuAt(0).hostname, QStringLiteral("gpu-node-x"));
    QCOMPARE(*model->gpuAt(0).utilPct, 55.0);
    QCOMPARE(model->gpuAt(0).holders.value(0).pod, QStringLiteral("train-1"));
    // The holder's user, from its pod's gpuquota.io/user label.
    QTRY_COMPARE_WITH_TIMEOUT(model->index(0, LiveGpuModel::UserColumn).data().toString(),
                              QStringLiteral("alice"), 20000);
    // DRA: GPU 1 is held through the claim train-2-gpu; its pod comes from the claim's
    // reservedFor (the series has no pod label), with the pod's user.
    QTRY_COMPARE_WITH_TIMEOUT(model->gpuAt(1).holders.value(0).pod, QStringLiteral("train-2"), 20000);
    QCOMPARE(model->gpuAt(1).holders.value(0).ns, QStringLiteral("team-a"));
    QCOMPARE(model->gpuAt(1).holders.value(0).claim, QStringLiteral("team-a/train-2-gpu"));
    QTRY_COMPARE_WITH_TIMEOUT(model->index(1, LiveGpuModel::UserColumn).data().toString(),
                              QStringLiteral("bob"), 20000);
    const QString holderText = model->index(1, LiveGpuModel::HolderColumn).data().toString();
    QVERIFY2(holderText.contains(QLatin1String("train-2")), qPrintable(holderText));
    // No history from exporters: the idle tab says it needs Prometheus.
    QVERIFY(m_fx.find<QLabel>(QStringLiteral("idleGpuHeader"))
                ->text()
                .contains(QLatin1String("needs Prometheus")));

    // The Test button reads them through the API server too, and counts what it read.
    PreferencesDialog *prefs =
        m_fx.window->openPreferences(PreferencesDialog::Tab::Connections, ConnectionsTab::Section::Metrics);
    QVERIFY(prefs);
    auto *tab = prefs->findChild<ConnectionsTab *>(QStringLiteral("connectionsTab"));
    QVERIFY(tab);
    QSignalSpy tested(tab, &ConnectionsTab::testFinished);
    auto *button = prefs->findChild<QPushButton *>(QStringLiteral("testMetricsButton"));
    QVERIFY(button);
    QTRY_VERIFY(button->isVisible());
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(tested.wait(30000));
    QVERIFY2(tested.last().at(1).toBool(), qPrintable(tested.last().at(2).toString()));
    QCOMPARE(tested.last().at(2).toString(),
             QStringLiteral("1 of 1 dcgm-exporter pods answer through the API server, 2 GPUs reporting"));
    prefs->close();
}

void TestLiveGpuConsole::layoutIsRemembered() {
    LiveGpuPage *livePage = m_fx.window->liveGpuPage();
    QTRY_VERIFY(livePage->isVisible());
    QVERIFY(!livePage->tileView());
    QTest::mouseClick(livePage->findChild<QToolButton *>(QStringLiteral("liveGpuTilesButton")),
                      Qt::LeftButton);
    QVERIFY(livePage->tileView());
    // The user drags the handle between the GPUs and the namespace chart upwards.
    auto *splitter = livePage->findChild<QSplitter *>(QStringLiteral("liveGpuSplitter"));
    QVERIFY(splitter);
    const QList<int> before = splitter->sizes();
    QSplitterHandle *handle = splitter->handle(1);
    const QPoint grip = handle->rect().center();
    QTest::mousePress(handle, Qt::LeftButton, {}, grip);
    QTest::mouseMove(handle, grip - QPoint(0, 60));
    QTest::mouseRelease(handle, Qt::LeftButton, {}, grip - QPoint(0, 60));
    const QList<int> after = splitter->sizes();
    QVERIFY2(after != before && after.value(0) < before.value(0), qPrintable(QStringLiteral("%1,%2 -> %3,%4")
                                                                                 .arg(before.value(0))
                                                                                 .arg(before.value(1))
                                                                                 .arg(after.value(0))
                                                                                 .arg(after.value(1))));
    m_fx.settings->sync();

    // A new window on the same settings.
    m_fx.window.reset();
    ConsoleFixture::WindowOptions options;
    options.size = QSize(1400, 900);
    QVERIFY2(m_fx.openWindow(options).isEmpty(), "the window did not open again");
    auto *tabs = m_fx.find<QTabWidget>(QStringLiteral("detailsTabs"));
    tabs->setCurrentWidget(m_fx.find<SourceGate>(QStringLiteral("liveGpuGate")));
    LiveGpuPage *again = m_fx.window->liveGpuPage();
    QTRY_VERIFY(again->isVisible());
    QVERIFY(again->tileView());
    QTRY_COMPARE(again->findChild<QSplitter *>(QStringLiteral("liveGpuSplitter"))->sizes(), after);
}

QTEST_MAIN(TestLiveGpuConsole)
#include "tst_livegpuconsole.moc"
