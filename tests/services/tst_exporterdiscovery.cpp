// "Discover dcgm-exporter through the cluster" for real: the test cluster holds three
// exporter pods (one per label the NVIDIA chart and GPU operator use); two are mapped
// to real gq-test-exporter processes with the test-only annotation
// gpuquota.io/test-proxy-port, the third answers as an unreachable pod does. Read
// through the pod proxy by kubectl, by the service (exporterdiscovery.h), by the
// monitor, by the Test button's check and by `gpuquota gpus --discover` (flags and the
// console's settings), which must print what `--scrape` of the same exporters prints.
#include "services/settings/connectionsettings.h"
#include "services/settings/consolesettings.h"
#include "services/livegpus/exporterdiscovery.h"
#include "tests/exporterpods.h"
#include "services/livegpus/gpumonitor.h"
#include "core/kube/kubeclient.h"
#include "services/settings/secretstore.h"
#include "tests/testclusterprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "tests/services/futurewait.h"

using namespace gq;
using namespace gq::metrics;
using gq::test::offThread;
using gq::test::waitFor;

Q_DECLARE_METATYPE(gq::metrics::GpuSnapshot)

namespace {

// Two GPUs on `node`; GPU 0 held by team-a/<pod>.
QByteArray page(const char *node, const char *pod, int util) {
    QByteArray out =
        "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n";
    for (int i = 0; i < 2; ++i) {
        out += QByteArray("DCGM_FI_DEV_GPU_UTIL{gpu=\"") + QByteArray::number(i) + "\",UUID=\"GPU-" + node +
               QByteArray::number(i) + "\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"" + node + "\"";
        if (i == 0)
            out += QByteArray(",container=\"main\",namespace=\"team-a\",pod=\"") + pod + "\"";
        out += "} " + QByteArray::number(i == 0 ? util : 0) + "\n";
    }
    out += "# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).\n";
    for (int i = 0; i < 2; ++i)
        out += QByteArray("DCGM_FI_DEV_FB_USED{gpu=\"") + QByteArray::number(i) + "\",UUID=\"GPU-" + node +
               QByteArray::number(i) + "\",Hostname=\"" + node + "\"} " + QByteArray::number(1000 * (i + 1)) +
               "\n";
    return out;
}

QJsonObject exporterPod(const QString &name, const QJsonObject &labels, int localPort) {
    return gq::test::exporterPodJson(name, labels, localPort);
}

struct Run {
    int code = -1;
    QByteArray out, err;
};

} // namespace

class TestExporterDiscovery : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void kubectlReadsThroughThePodProxy();
    void findsThePodsByTheirLabels();
    void readsEveryRunningPodThroughTheProxy();
    void cliDiscoverPrintsWhatScrapePrints();
    void cliDiscoverFromTheConsoleSettings();
    void monitorWithTheDiscoverSource();
    void testButtonCountsTheGpusItRead();
    void aReplacedPodIsFoundAgain();

private:
    int startExporter(const QByteArray &text);
    Run cli(const QStringList &args);
    bool createPod(const QJsonObject &pod, const QString &ns = QStringLiteral("gpu-operator"));
    bool waitRunning(const QString &ns, const QString &name);

    gq::test::TestClusterProcess m_cluster;
    std::shared_ptr<KubeClient> m_client;
    QTemporaryDir m_dir;
    QList<QProcess *> m_exporters;
    QStringList m_scrapeUrls;
    QList<int> m_ports;
    QString m_bin;
};

void TestExporterDiscovery::initTestCase() {
    qRegisterMetaType<GpuSnapshot>();
    m_bin = qEnvironmentVariable("GQ_BIN_DIR");
    QVERIFY(QFile::exists(m_bin + QStringLiteral("/gpuquota")));
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
    auto client = KubeClient::fromKubeconfig(m_cluster.kubeconfigPath(), QStringLiteral("admin"));
    QVERIFY2(client, qPrintable(client ? QString() : client.error().toString()));
    m_client = *client;
    m_ports << startExporter(page("gpu-node-a", "train-1", 87))
            << startExporter(page("gpu-node-b", "infer-2", 3));
    QVERIFY(m_ports[0] > 0 && m_ports[1] > 0);

    for (const char *ns : {"gpu-operator", "team-a"})
        QVERIFY(waitFor(m_client->create(KubeResource::namespaces(), {},
                                         QJsonObject{{"metadata", QJsonObject{{"name", ns}}}})));
    // One pod per label set the chart and the operator use; c is not mapped: unreachable.
    QVERIFY(
        createPod(exporterPod("dcgm-exporter-a", {{"app.kubernetes.io/name", "dcgm-exporter"}}, m_ports[0])));
    QVERIFY(createPod(exporterPod("nvidia-dcgm-exporter-b", {{"app", "nvidia-dcgm-exporter"}}, m_ports[1])));
    QVERIFY(createPod(exporterPod("dcgm-exporter-c", {{"app", "dcgm-exporter"}}, 0)));
    // The workload the page names, with its user label.
    const QJsonObject workload{
        {"metadata",
         QJsonObject{{"name", "train-1"}, {"labels", QJsonObject{{"gpuquota.io/user", "alice"}}}}},
        {"spec",
         QJsonObject{{"containers", QJsonArray{QJsonObject{{"name", "main"}, {"image", "pytorch"}}}}}}};
    QVERIFY(createPod(workload, QStringLiteral("team-a")));
    for (const char *name : {"dcgm-exporter-a", "nvidia-dcgm-exporter-b", "dcgm-exporter-c"})
        QVERIFY2(waitRunning(QStringLiteral("gpu-operator"), QLatin1String(name)), name);
}

void TestExporterDiscovery::cleanupTestCase() {
    for (QProcess *p : std::as_const(m_exporters)) {
        p->terminate();
        p->waitForFinished(5000);
        delete p;
    }
    m_client.reset();
}

int TestExporterDiscovery::startExporter(const QByteArray &text) {
    const QString file = m_dir.filePath(QStringLiteral("page-%1.prom").arg(m_exporters.size()));
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly))
        return 0;
    f.write(text);
    f.close();
    auto *p = new QProcess;
    m_exporters << p;
    p->start(m_bin + QStringLiteral("/gq-test-exporter"), {QStringLiteral("--file"), file});
    if (!p->waitForReadyRead(10000))
        return 0;
    const QByteArray ready = p->readLine().trimmed();
    if (!ready.startsWith("ready "))
        return 0;
    m_scrapeUrls << QString::fromUtf8(ready.mid(6));
    return QUrl(m_scrapeUrls.last()).port();
}

Run TestExporterDiscovery::cli(const QStringList &args) {
    QProcess p;
    p.start(m_bin + QStringLiteral("/gpuquota"), args);
    (void)QTest::qWaitFor([&] { return p.state() == QProcess::NotRunning || p.waitForFinished(10); }, 60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

bool TestExporterDiscovery::createPod(const QJsonObject &pod, const QString &ns) {
    auto r = waitFor(m_client->create(KubeResource::pods(), ns, pod));
    if (!r)
        qWarning("%s", qPrintable(r.error().toString()));
    return bool(r);
}

bool TestExporterDiscovery::waitRunning(const QString &ns, const QString &name) {
    return gq::test::waitPodRunning(*m_client, ns, name);
}

void TestExporterDiscovery::kubectlReadsThroughThePodProxy() {
    // The real kubectl against the test cluster's pods/proxy subresource.
    auto kubectl = [&](const QString &path) {
        QProcess p;
        p.start(QStringLiteral("kubectl"),
                {QStringLiteral("--kubeconfig"), m_cluster.kubeconfigPath(), QStringLiteral("--context"),
                 QStringLiteral("admin"), QStringLiteral("get"), QStringLiteral("--raw"), path});
        (void)QTest::qWaitFor([&] { return p.state() == QProcess::NotRunning || p.waitForFinished(10); },
                              60000);
        return Run{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
    };
    const Run a =
        kubectl(QStringLiteral("/api/v1/namespaces/gpu-operator/pods/dcgm-exporter-a:9400/proxy/metrics"));
    QVERIFY2(a.code == 0, a.err.constData());
    QCOMPARE(a.out, page("gpu-node-a", "train-1", 87));
    // The query string travels too (the exporter ignores it).
    QCOMPARE(kubectl(QStringLiteral(
                         "/api/v1/namespaces/gpu-operator/pods/nvidia-dcgm-exporter-b/proxy/metrics?x=1"))
                 .out,
             page("gpu-node-b", "infer-2", 3));
    const Run c =
        kubectl(QStringLiteral("/api/v1/namespaces/gpu-operator/pods/dcgm-exporter-c:9400/proxy/metrics"));
    QCOMPARE(c.code, 1);
    QVERIFY2(c.err.contains("ServiceUnavailable") &&
                 c.err.contains("error trying to reach service: dial tcp") &&
                 c.err.contains(":9400: connect: connection refused"),
             c.err.constData());
    const Run missing =
        kubectl(QStringLiteral("/api/v1/namespaces/gpu-operator/pods/nope:9400/proxy/metrics"));
    QCOMPARE(missing.code, 1);
    QVERIFY2(missing.err.contains("pods \"nope\" not found"), missing.err.constData());
}

void TestExporterDiscovery::findsThePodsByTheirLabels() {
    auto pods = offThread([c = m_client] { return exporters::findExporterPods(*c); });
    QVERIFY2(pods, qPrintable(pods ? QString() : pods.error().toString()));
    QStringList names;
    for (const exporters::ExporterPod &p : pods->pods) {
        names << p.name;
        QVERIFY(p.running);
        QCOMPARE(p.port, 9400);
        QVERIFY(!p.node.isEmpty());
        QCOMPARE(p.proxyPath(),
                 QStringLiteral("/api/v1/namespaces/gpu-operator/pods/%1:9400/proxy/metrics").arg(p.name));
    }
    QCOMPARE(names, (QStringList{"dcgm-exporter-a", "dcgm-exporter-c", "nvidia-dcgm-exporter-b"}));
    QVERIFY(pods->notes.isEmpty());
}

void TestExporterDiscovery::readsEveryRunningPodThroughTheProxy() {
    auto r = offThread([c = m_client] { return exporters::discoverAndScrape(*c); });
    QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
    QCOMPARE(r->asked, 3);
    QCOMPARE(r->answered, 2);
    QCOMPARE(r->snapshot.gpus.size(), 4);
    QCOMPARE(r->snapshot.gpus[0].hostname, QStringLiteral("gpu-node-a"));
    QCOMPARE(*r->snapshot.gpus[0].utilPct, 87.0);
    QCOMPARE(r->snapshot.gpus[0].holders.value(0).pod, QStringLiteral("train-1"));
    QCOMPARE(*r->snapshot.gpus[3].fbUsedMib, 2000.0);
    QCOMPARE(r->snapshot.warnings.size(), 1);
    QVERIFY2(r->snapshot.warnings[0].contains(QStringLiteral("gpu-operator/dcgm-exporter-c")) &&
                 r->snapshot.warnings[0].contains(QStringLiteral("error trying to reach service")),
             qPrintable(r->snapshot.warnings[0]));
}

void TestExporterDiscovery::cliDiscoverPrintsWhatScrapePrints() {
    const QStringList cluster{QStringLiteral("--kubeconfig"), m_cluster.kubeconfigPath(),
                              QStringLiteral("--context"), QStringLiteral("admin")};
    const Run discovered = cli(QStringList{QStringLiteral("gpus"), QStringLiteral("--discover")} + cluster +
                               QStringList{QStringLiteral("-o"), QStringLiteral("json")});
    // One pod did not answer: said on stderr, exit 1, the others printed.
    QCOMPARE(discovered.code, 1);
    QVERIFY2(discovered.err.contains("warning: cannot read dcgm-exporter pod gpu-operator/dcgm-exporter-c"),
             discovered.err.constData());
    const Run scraped = cli(QStringList{QStringLiteral("gpus"), QStringLiteral("--scrape")} + m_scrapeUrls +
                            QStringList{QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(scraped.code == 0, scraped.err.constData());
    QCOMPARE(QJsonDocument::fromJson(discovered.out).array().size(), 4);
    QCOMPARE(QJsonDocument::fromJson(discovered.out), QJsonDocument::fromJson(scraped.out));
    // Flags that do not go with it.
    const Run ca = cli(QStringList{QStringLiteral("gpus"), QStringLiteral("--discover"),
                                   QStringLiteral("--ca"), QStringLiteral("x.pem")} +
                       cluster);
    QCOMPARE(ca.code, 2);
    QVERIFY2(ca.err.contains("--ca goes with --prometheus or --scrape"), ca.err.constData());
    const Run both = cli(QStringList{QStringLiteral("gpus"), QStringLiteral("--discover"),
                                     QStringLiteral("--scrape"), m_scrapeUrls.first()});
    QCOMPARE(both.code, 2);
    QVERIFY2(both.err.contains("give either --prometheus URL or --scrape URL... (or --discover)"),
             both.err.constData());
}

void TestExporterDiscovery::cliDiscoverFromTheConsoleSettings() {
    // The context's metrics source is "discover": gpus without flags reads through the cluster.
    const QString ini = m_dir.filePath(QStringLiteral("console.ini"));
    {
        ConsoleSettings settings(ini, std::make_unique<MemorySecretStore>());
        ContextConnections c;
        c.metricsSource = MetricsSource::Discover;
        saveConnections(settings, QStringLiteral("admin"), c);
        settings.sync();
    }
    const Run r =
        cli({QStringLiteral("--settings-file"), ini, QStringLiteral("gpus"), QStringLiteral("--kubeconfig"),
             m_cluster.kubeconfigPath(), QStringLiteral("--context"), QStringLiteral("admin"),
             QStringLiteral("-o"), QStringLiteral("json")});
    QCOMPARE(r.code, 1); // dcgm-exporter-c, as above
    QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 4);
    QVERIFY(r.err.contains("dcgm-exporter-c"));
}

void TestExporterDiscovery::monitorWithTheDiscoverSource() {
    GpuMonitor monitor;
    monitor.setClusterClient([c = m_client] { return c; });
    monitor.setSource(GpuMonitor::Source::discover());
    QVERIFY(monitor.isConfigured());
    QVERIFY(!monitor.keepsHistory());
    QSignalSpy got(&monitor, &GpuMonitor::snapshotAvailable);
    QSignalSpy users(&monitor, &GpuMonitor::usersAvailable);
    monitor.refresh();
    QVERIFY(got.wait(30000));
    const GpuSnapshot s = got[0][0].value<GpuSnapshot>();
    QCOMPARE(s.gpus.size(), 4);
    QCOMPARE(s.gpus[2].hostname, QStringLiteral("gpu-node-b"));
    QVERIFY(s.warnings.join(u' ').contains(QStringLiteral("dcgm-exporter-c")));
    // The holders' users, from their pods' gpuquota.io/user label.
    QVERIFY(users.count() > 0 || users.wait(10000));
    const auto byPod = users.last().at(0).value<QHash<QString, QString>>();
    QCOMPARE(byPod.value(QStringLiteral("team-a/train-1")), QStringLiteral("alice"));
    // Without a cluster client the source says so.
    GpuMonitor alone;
    alone.setSource(GpuMonitor::Source::discover());
    QSignalSpy failed(&alone, &GpuMonitor::failed);
    alone.refresh();
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed[0][0].value<Error>().kind, Error::Kind::Config);
}

void TestExporterDiscovery::testButtonCountsTheGpusItRead() {
    auto r = offThread([c = m_client] { return exporters::testDiscovered(*c); });
    QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
    QVERIFY2(r->startsWith(
                 QStringLiteral("2 of 3 dcgm-exporter pods answer through the API server, 4 GPUs "
                                "reporting (cannot read dcgm-exporter pod gpu-operator/dcgm-exporter-c")),
             qPrintable(*r));
    // A cluster without exporters: the words say what was looked for.
    gq::test::TestClusterProcess bare;
    QVERIFY2(bare.start(), qPrintable(bare.errorString()));
    auto client = KubeClient::fromKubeconfig(bare.kubeconfigPath(), QStringLiteral("admin"));
    QVERIFY(client);
    auto none = offThread([c = *client] { return exporters::testDiscovered(*c); });
    QVERIFY(!none);
    QVERIFY2(none.error().message.startsWith(QStringLiteral("no dcgm-exporter pods found (labels "
                                                            "app.kubernetes.io/name=dcgm-exporter")),
             qPrintable(none.error().message));
}

void TestExporterDiscovery::aReplacedPodIsFoundAgain() {
    // A DaemonSet rolls: the pod the list named is gone (404 through the proxy), its
    // successor is listed on the next refresh.
    exporters::DiscoveredExporters discovered(3600 * 1000);
    auto first = offThread([&] { return discovered.snapshot(m_client); });
    QVERIFY(first);
    QCOMPARE(first->gpus.size(), 4);
    QCOMPARE(discovered.listings(), 1);
    QVERIFY(waitFor(m_client->remove(KubeResource::pods(), QStringLiteral("gpu-operator"),
                                     QStringLiteral("dcgm-exporter-a"))));
    QVERIFY(createPod(
        exporterPod("dcgm-exporter-a2", {{"app.kubernetes.io/name", "dcgm-exporter"}}, m_ports[0])));
    QVERIFY(waitRunning(QStringLiteral("gpu-operator"), QStringLiteral("dcgm-exporter-a2")));
    auto gone = offThread([&] { return discovered.snapshot(m_client); });
    QVERIFY(gone);
    QCOMPARE(gone->gpus.size(), 2); // only b answered; a's pod is gone
    auto again = offThread([&] { return discovered.snapshot(m_client); });
    QVERIFY(again);
    QCOMPARE(again->gpus.size(), 4);
    QCOMPARE(discovered.listings(), 2);
}

QTEST_GUILESS_MAIN(TestExporterDiscovery)
#include "tst_exporterdiscovery.moc"
