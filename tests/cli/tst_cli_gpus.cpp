// `gpuquota gpus --scrape file://...` as a user runs it: the JSON keys of the issue,
// null for what the source does not report, malformed lines as warnings with their line
// numbers while the rest is shown, and exit codes. (Through Prometheus, and `idle`:
// tests/metrics/tst_prometheus.)
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString sample(const char *name) {
    return QStringLiteral("file://" GQ_TEST_FIXTURES "/dcgm/") + QString::fromLatin1(name);
}

struct Run {
    int code = -1;
    QByteArray out, err;
};

} // namespace

class TestCliGpus : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void jsonKeysAndNulls();
    void severalPagesOneTable();
    void malformedLinesAreWarnings();
    void unreadableTargetFails();
    void usageErrors();
    void idleFromAMissingDatabase();
    void everyVerbAcceptsHelp();
    void testExporterModes();

private:
    Run run(const QStringList &args);
    QString m_bin;
};

void TestCliGpus::initTestCase() {
    m_bin = qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota");
    QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
}

Run TestCliGpus::run(const QStringList &args) {
    QProcess p;
    p.start(m_bin, args);
    p.waitForFinished(60000);
    return Run{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

void TestCliGpus::jsonKeysAndNulls() {
    const Run r = run({QStringLiteral("gpus"), QStringLiteral("--scrape"),
                       sample("gpu-operator-issue340-t4-pod-labels.prom"), QStringLiteral("-o"),
                       QStringLiteral("json")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(rows.size(), 1);
    const QJsonObject g = rows[0].toObject();
    QStringList keys = g.keys();
    keys.sort();
    QCOMPARE(keys, (QStringList{"fb_free_mib", "fb_used_mib", "gpu", "gpu_instance", "holders", "hostname",
                                "mig_profile", "model", "power_w", "shared", "temp_c", "util_pct", "uuid"}));
    QCOMPARE(g.value(QLatin1String("hostname")).toString(), QStringLiteral("nvidia-dcgm-exporter-ml2wh"));
    QCOMPARE(g.value(QLatin1String("gpu")).toInt(), 0);
    QCOMPARE(g.value(QLatin1String("uuid")).toString(),
             QStringLiteral("GPU-e1200d64-e918-4277-cad9-75da90b9f618"));
    QCOMPARE(g.value(QLatin1String("model")).toString(), QStringLiteral("Tesla T4"));
    QCOMPARE(g.value(QLatin1String("fb_free_mib")).toDouble(), 15109.0);
    for (const char *unknown :
         {"util_pct", "fb_used_mib", "power_w", "temp_c", "mig_profile", "gpu_instance"})
        QVERIFY2(g.value(QLatin1String(unknown)).isNull(), unknown);
    QCOMPARE(g.value(QLatin1String("shared")).toBool(), false);
    QCOMPARE(g.value(QLatin1String("holders")).toArray(),
             (QJsonArray{QJsonObject{{QStringLiteral("namespace"), QStringLiteral("default")},
                                     {QStringLiteral("pod"), QStringLiteral("dcgmproftester")},
                                     {QStringLiteral("container"), QStringLiteral("dcgmproftester11")},
                                     {QStringLiteral("claim"), QJsonValue(QJsonValue::Null)}}}));
}

void TestCliGpus::severalPagesOneTable() {
    // --scrape takes several URLs, and may be repeated.
    const Run r =
        run({QStringLiteral("gpus"), QStringLiteral("--scrape"), sample("dcgm-exporter-pr570-dra-gh200.prom"),
             sample("dcgm-exporter-issue272-mig-old-namespace.prom"), QStringLiteral("--scrape"),
             sample("dcgm-exporter-issue363-driver-version-label.prom")});
    QCOMPARE(r.code, 0);
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QVERIFY(lines[0].startsWith("HOST"));
    QCOMPARE(lines.size(), 1 + 2 + 5 + 1 + 1); // header, GH200 x2, A100 + MIG rows, A5000, "read as"
    QVERIFY(r.out.contains("3g.40gb #1"));
    // DRA: the holder with the claim dcgm-exporter names (dra_claim_name).
    QVERIFY(r.out.contains("shared: gpu-test2/pod (claim pod-shared-gpu-64std)"));
    QVERIFY(r.out.contains("21383/?"));
    QVERIFY(lines.last().startsWith("read as: old label names"));
}

void TestCliGpus::malformedLinesAreWarnings() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("page.prom"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
            "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 12\n"
            "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\" 13\n"
            "DCGM_FI_DEV_GPU_UTIL{gpu=\"2\",UUID=\"GPU-c\",Hostname=\"n1\"} 14\n");
    f.close();
    const Run r = run({QStringLiteral("gpus"), QStringLiteral("--scrape"), QStringLiteral("file://") + path,
                       QStringLiteral("-o"), QStringLiteral("json")});
    QCOMPARE(r.code, 0);
    const QByteArray expected = "warning: file://" + path.toUtf8() + ": line 3, column";
    QVERIFY2(r.err.contains(expected), r.err.constData());
    const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows[1].toObject().value(QLatin1String("util_pct")).toDouble(), 14.0);
}

void TestCliGpus::unreadableTargetFails() {
    const Run r =
        run({QStringLiteral("gpus"), QStringLiteral("--scrape"), QStringLiteral("file:///nonexistent.prom"),
             sample("dcgm-exporter-issue363-driver-version-label.prom"), QStringLiteral("-o"),
             QStringLiteral("json")});
    QCOMPARE(r.code, 1); // what could be read is still printed
    QVERIFY2(r.err.contains("cannot read /nonexistent.prom"), r.err.constData());
    QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 1);
}

void TestCliGpus::usageErrors() {
    const QList<QPair<QStringList, QByteArray>> cases{
        {{QStringLiteral("gpus")}, "give either --prometheus URL or --scrape URL..."},
        {{QStringLiteral("gpus"), QStringLiteral("--scrape"), sample("x"), QStringLiteral("--prometheus"),
          QStringLiteral("http://h:9090")},
         "give either"},
        {{QStringLiteral("gpus"), QStringLiteral("--scrape")}, "flag --scrape needs a value"},
        {{QStringLiteral("gpus"), QStringLiteral("--scrape"), QStringLiteral("ftp://h/metrics")},
         "--scrape: 'ftp://h/metrics'"},
        {{QStringLiteral("gpus"), QStringLiteral("--scrape"), sample("x"), QStringLiteral("--token-file"),
          QStringLiteral("t")},
         "--token-file goes with --prometheus"},
        {{QStringLiteral("gpus"), QStringLiteral("--scrape"), sample("x"), QStringLiteral("--ca"),
          QStringLiteral("/nonexistent")},
         "--ca: cannot read the CA file /nonexistent"},
        {{QStringLiteral("gpus"), QStringLiteral("--bogus"), QStringLiteral("1")}, "unknown flag --bogus"},
        {{QStringLiteral("idle"), QStringLiteral("--db"), QStringLiteral("sqlite:///tmp/x.db"),
          QStringLiteral("--token-file"), QStringLiteral("t")},
         "--token-file and --ca go with --prometheus"},
        {{QStringLiteral("idle"), QStringLiteral("--db"), QStringLiteral("sqlite:///tmp/x.db"),
          QStringLiteral("--prometheus"), QStringLiteral("http://h:9090")},
         "give either --prometheus URL or --db URL"},
        {{QStringLiteral("gpus"), QStringLiteral("--discover=yes")}, "--discover takes no value"},
        {{QStringLiteral("idle"), QStringLiteral("--prometheus"), QStringLiteral("http://h:9090"),
          QStringLiteral("--threshold"), QStringLiteral("0")},
         "--threshold must be a percentage above 0"},
    };
    for (const auto &[args, message] : cases) {
        const Run r = run(args);
        QVERIFY2(r.code == 2, qPrintable(args.join(u' ') + QStringLiteral(": exit %1").arg(r.code)));
        QVERIFY2(r.err.contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
}

void TestCliGpus::idleFromAMissingDatabase() {
    // --db is a source of its own now (the recorded spans): a database that is not
    // there is a failure to read it, exit 1, not a usage error.
    const Run r = run(
        {QStringLiteral("idle"), QStringLiteral("--db"), QStringLiteral("sqlite:///nonexistent/usage.db")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.startsWith("error: "), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

void TestCliGpus::everyVerbAcceptsHelp() {
    const Run gpus = run({QStringLiteral("gpus"), QStringLiteral("--help")});
    QCOMPARE(gpus.code, 0);
    QVERIFY2(gpus.err.isEmpty(), gpus.err.constData());
    QVERIFY2(gpus.out.startsWith("Usage: gpuquota gpus (--prometheus URL") &&
                 gpus.out.contains("--discover") && gpus.out.contains("file://") &&
                 gpus.out.contains("Exit codes:"),
             gpus.out.constData());
    const Run idle = run({QStringLiteral("idle"), QStringLiteral("-h")});
    QCOMPARE(idle.code, 0);
    QVERIFY2(idle.out.startsWith("Usage: gpuquota idle (--prometheus URL | --db URL)") &&
                 idle.out.contains("up to 7 days") && idle.out.contains("idle_spans"),
             idle.out.constData());
    // --help wins over the other flags given (and over their errors).
    const Run late = run({QStringLiteral("gpus"), QStringLiteral("--bogus"), QStringLiteral("--help")});
    QCOMPARE(late.code, 0);
    QVERIFY(late.out.startsWith("Usage: gpuquota gpus"));
    // Every verb the top-level help lists.
    const Run top = run({QStringLiteral("--help")});
    QCOMPARE(top.code, 0);
    const QByteArray verbs = top.out.mid(top.out.indexOf("Verbs:\n") + 7,
                                         top.out.indexOf("\nOptions:") - top.out.indexOf("Verbs:\n") - 7);
    QStringList names;
    for (const QByteArray &line : verbs.split('\n'))
        if (line.startsWith("  ") && line.size() > 2 && line.at(2) != ' ')
            names << QString::fromUtf8(line.trimmed().split(' ').first());
    QVERIFY2(names.size() >= 18 && names.contains(QStringLiteral("gpus")) &&
                 names.contains(QStringLiteral("idle")),
             qPrintable(names.join(u' ')));
    for (const QString &verb : std::as_const(names)) {
        const Run r = run({verb, QStringLiteral("--help")});
        QVERIFY2(r.code == 0,
                 qPrintable(verb + QStringLiteral(": exit %1: ").arg(r.code) + QString::fromUtf8(r.err)));
        QVERIFY2(r.out.contains("Usage:") && r.err.isEmpty(),
                 qPrintable(verb + QStringLiteral(": ") + QString::fromUtf8(r.out + r.err)));
    }
}

void TestCliGpus::testExporterModes() {
    // The exporter the Prometheus tests and demos use: the real samples in turn, and a
    // synthetic fleet, both read back through --scrape http://.
    const QString exporter = qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gq-test-exporter");
    for (const QStringList &mode :
         {QStringList{QStringLiteral("--samples"), QStringLiteral(GQ_TEST_FIXTURES "/dcgm")},
          QStringList{QStringLiteral("--fleet"), QStringLiteral("2")}}) {
        QProcess p;
        p.start(exporter, mode);
        QVERIFY(p.waitForReadyRead(10000));
        const QByteArray ready = p.readLine().trimmed();
        QVERIFY2(ready.startsWith("ready http://127.0.0.1:"), ready.constData());
        const Run r = run({QStringLiteral("gpus"), QStringLiteral("--scrape"),
                           QString::fromUtf8(ready.mid(6)), QStringLiteral("-o"), QStringLiteral("json")});
        p.terminate();
        p.waitForFinished(5000);
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
        if (mode[0] == QLatin1String("--fleet")) {
            // 2 nodes x 8 GPUs; GPU 3 of gpu-node-0 (every tenth from 3) split in 3 MIG instances + its row.
            QCOMPARE(rows.size(), 16 + 3);
            int mig = 0, held = 0, withTemp = 0;
            for (const QJsonValue &v : rows) {
                mig += v.toObject().value(QLatin1String("mig_profile")).isString() ? 1 : 0;
                held += v.toObject().value(QLatin1String("holders")).toArray().isEmpty() ? 0 : 1;
                withTemp += v.toObject().value(QLatin1String("temp_c")).isDouble() ? 1 : 0;
            }
            QCOMPARE(mig, 3);
            QCOMPARE(withTemp, 18); // the split GPU's own row: its instances report, it does not
            QVERIFY(held > 0);
        } else {
            QVERIFY(!rows.isEmpty());
        }
    }
}

QTEST_GUILESS_MAIN(TestCliGpus)
#include "tst_cli_gpus.moc"
