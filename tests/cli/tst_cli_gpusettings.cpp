// `gpuquota gpus` and `idle` without --prometheus or --scrape: the metrics source the
// console's Preferences > Connections set for the context (--settings-file, --context),
// as --db already is for the usage verbs.
#include "services/settings/connectionsettings.h"
#include "services/settings/consolesettings.h"
#include "services/settings/secretstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;

class TestCliGpuSettings : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void exportersFromSettings();
    void prometheusFromSettings();
    void nothingConfigured();

private:
    struct Run {
        int code = -1;
        QByteArray out, err;
    };
    Run run(const QStringList &args);
    void configure(const QString &context, const ContextConnections &c);
    QString m_bin;
    QTemporaryDir m_dir;
    QString m_ini;
};

void TestCliGpuSettings::initTestCase() {
    m_bin = qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota");
    QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
    QVERIFY(m_dir.isValid());
    m_ini = m_dir.filePath(QStringLiteral("console.ini"));
}

TestCliGpuSettings::Run TestCliGpuSettings::run(const QStringList &args) {
    QProcess p;
    // No kubeconfig: the context comes from --context only.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("KUBECONFIG"), m_dir.filePath(QStringLiteral("none")));
    p.setProcessEnvironment(env);
    p.start(m_bin, QStringList{QStringLiteral("--settings-file"), m_ini} + args);
    p.waitForFinished(60000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

void TestCliGpuSettings::configure(const QString &context, const ContextConnections &c) {
    ConsoleSettings settings(m_ini, std::make_unique<MemorySecretStore>());
    saveConnections(settings, context, c);
    settings.sync();
}

void TestCliGpuSettings::exportersFromSettings() {
    ContextConnections c;
    c.metricsSource = MetricsSource::Exporters;
    c.exporterEndpoints = {
        QStringLiteral("file://" GQ_TEST_FIXTURES "/dcgm/gpu-operator-issue340-t4-pod-labels.prom")};
    configure(QStringLiteral("lab"), c);
    const Run r = run({QStringLiteral("gpus"), QStringLiteral("--context"), QStringLiteral("lab"),
                       QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(!QJsonDocument::fromJson(r.out).array().isEmpty());
    // The same as giving the endpoint by hand.
    const Run direct = run({QStringLiteral("gpus"), QStringLiteral("--scrape"), c.exporterEndpoints.first(),
                            QStringLiteral("-o"), QStringLiteral("json")});
    QCOMPARE(r.out, direct.out);
    // idle needs Prometheus' history: exporters are no default for it.
    const Run idle = run({QStringLiteral("idle"), QStringLiteral("--context"), QStringLiteral("lab")});
    QCOMPARE(idle.code, 2);
    QVERIFY2(idle.err.contains("give either --prometheus URL or --db URL"), idle.err.constData());
}

void TestCliGpuSettings::prometheusFromSettings() {
    // A Prometheus nobody listens on: the error names the URL taken from the settings.
    ContextConnections c;
    c.metricsSource = MetricsSource::Prometheus;
    c.prometheusUrl = QStringLiteral("http://127.0.0.1:9");
    configure(QStringLiteral("prod"), c);
    for (const QString &verb : {QStringLiteral("gpus"), QStringLiteral("idle")}) {
        const Run r = run({verb, QStringLiteral("--context"), QStringLiteral("prod")});
        QVERIFY2(r.code == 1,
                 qPrintable(verb + QStringLiteral(": exit %1 ").arg(r.code) + QString::fromUtf8(r.err)));
        QVERIFY2(r.err.contains("127.0.0.1:9"), r.err.constData());
    }
    // A flag still wins over the settings.
    const Run flag =
        run({QStringLiteral("gpus"), QStringLiteral("--context"), QStringLiteral("prod"),
             QStringLiteral("--scrape"),
             QStringLiteral("file://" GQ_TEST_FIXTURES "/dcgm/gpu-operator-issue340-t4-pod-labels.prom")});
    QCOMPARE(flag.code, 0);
}

void TestCliGpuSettings::nothingConfigured() {
    const Run r = run({QStringLiteral("gpus"), QStringLiteral("--context"), QStringLiteral("empty")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("give either --prometheus URL or --scrape URL...") &&
                 r.err.contains("context \"empty\" has no metrics source") && r.err.contains(m_ini.toUtf8()),
             r.err.constData());
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(TestCliGpuSettings)
#include "tst_cli_gpusettings.moc"
