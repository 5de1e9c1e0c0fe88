// Every real dcgm-exporter sample of tests/fixtures/dcgm through the real Prometheus:
// gq-test-exporter --samples serves the files in turn (one per period) on the port the
// honor_labels job of scripts/start-services.sh scrapes, and for each file
// `gpuquota gpus --prometheus` must print the same GPUs with the same values as
// `gpuquota gpus --scrape file://FILE`. The one difference allowed is said out loud: a
// page without a Hostname label names its GPUs after its scrape instance, which is the
// file's name when read from disk and host:port when Prometheus scraped it.
#include "core/net/httptransport.h"
#include "tests/metrics/promtestutil.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gq;

namespace {

constexpr int kPeriodSeconds = 12;

QString fixturesDir() {
    return QStringLiteral(GQ_TEST_FIXTURES "/dcgm");
}

} // namespace

class TestPromSamples : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GQ_REQUIRE_PROMETHEUS(m_env); }
    void everySampleReadsTheSameThroughPrometheus();

private:
    gq::test::PromEnv m_env;
};

void TestPromSamples::everySampleReadsTheSameThroughPrometheus() {
    const QDir dir(fixturesDir());
    const QStringList files = dir.entryList({QStringLiteral("*.prom")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 6);
    QHash<QString, QByteArray> contents;
    QHash<QString, QJsonArray> direct;
    for (const QString &name : files) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::ReadOnly));
        contents.insert(name, f.readAll());
        const gq::test::CliRun r =
            gq::test::runGpuquota(m_env.bin, {QStringLiteral("gpus"), QStringLiteral("--scrape"),
                                              QStringLiteral("file://") + dir.filePath(name),
                                              QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(r.code == 0, r.err.constData());
        direct.insert(name, QJsonDocument::fromJson(r.out).array());
        QVERIFY2(!direct.value(name).isEmpty(), qPrintable(name));
    }

    gq::test::TestExporter exporter(m_env);
    QVERIFY(exporter.start(m_env.ports[0],
                           QStringList{QStringLiteral("--samples"), fixturesDir(), QStringLiteral("--period"),
                                       QString::number(kPeriodSeconds)}));
    const QString instance = QStringLiteral("127.0.0.1:%1").arg(m_env.ports[0]);
    HttpTransport http;
    QSet<QString> matched;
    QHash<QString, QByteArray> lastSeen; // per file: what Prometheus answered last, for the message
    QDeadlineTimer deadline(qint64(files.size()) * kPeriodSeconds * 2000 + 60000);
    while (matched.size() < files.size() && !deadline.hasExpired()) {
        // Which file is served now: the exporter's page, byte for byte.
        HttpRequest req;
        req.url = exporter.url();
        const HttpResponse page = http.send(req).result();
        QString current;
        for (const QString &name : files)
            if (page.ok() && page.body == contents.value(name))
                current = name;
        QVERIFY2(!current.isEmpty(), "the exporter serves none of the samples");
        if (matched.contains(current)) {
            QTest::qWait(1000);
            continue;
        }
        const gq::test::CliRun viaProm =
            gq::test::runGpuquota(m_env.bin, {QStringLiteral("gpus"), QStringLiteral("--prometheus"),
                                              m_env.url, QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(viaProm.code == 0, viaProm.err.constData());
        QJsonArray expected;
        for (const QJsonValue &v : direct.value(current)) {
            QJsonObject row = v.toObject();
            if (row.value(QLatin1String("hostname")).toString() == current)
                row.insert(QStringLiteral("hostname"), instance); // no Hostname label in the page
            expected.append(row);
        }
        const QJsonArray got = QJsonDocument::fromJson(viaProm.out).array();
        lastSeen.insert(current, viaProm.out);
        if (got == expected)
            matched.insert(current);
        else
            QTest::qWait(1000); // Prometheus may not have scraped the new page yet
    }
    for (const QString &name : files)
        QVERIFY2(matched.contains(name),
                 qPrintable(QStringLiteral("%1: through Prometheus\n%2\nfrom the file\n%3")
                                .arg(name, QString::fromUtf8(lastSeen.value(name)),
                                     QString::fromUtf8(QJsonDocument(direct.value(name)).toJson()))));
}

QTEST_GUILESS_MAIN(TestPromSamples)
#include "tst_promsamples.moc"
