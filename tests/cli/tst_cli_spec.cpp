// `gpuquota validate` and `gpuquota fmt`, run as a user would: the built binary, real
// files, exit codes and output lines.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString fixture(const QString &rel) {
    return QStringLiteral(GQ_TEST_FIXTURES "/specs/") + rel;
}

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QStringList outLines() const {
        QStringList lines = QString::fromUtf8(out).split(u'\n');
        if (!lines.isEmpty() && lines.last().isEmpty())
            lines.removeLast();
        return lines;
    }
};

} // namespace

class TestCliSpec : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void validateDocsExamples();
    void validateBroken();
    void validateSeveralFilesAndOrder();
    void validateStdin();
    void validateOptions();
    void validateUsageErrors();
    void fmtPrints();
    void fmtWriteAndCheck();
    void fmtErrors();
    void fmtAndValidateAgreeOnNoObjects();
    void applyRefusesAHugeList();
    void versionHelpAndPluginName();

private:
    Run run(const QStringList &args, const QByteArray &stdinData = {}, const QString &program = {});
    QString m_bin;
};

void TestCliSpec::initTestCase() {
    const QString dir = qEnvironmentVariable("GQ_BIN_DIR");
    QVERIFY2(!dir.isEmpty(), "GQ_BIN_DIR is not set");
    m_bin = dir + QStringLiteral("/gpuquota");
    QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
}

Run TestCliSpec::run(const QStringList &args, const QByteArray &stdinData, const QString &program) {
    QProcess p;
    p.setProgram(program.isEmpty() ? m_bin : program);
    p.setArguments(args);
    p.setWorkingDirectory(fixture(QString()));
    p.start();
    Run r;
    if (!p.waitForStarted(10000))
        return r;
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

void TestCliSpec::validateDocsExamples() {
    QStringList files;
    const QDir docs(fixture(QStringLiteral("docs")));
    for (const QString &f : docs.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
        files << QStringLiteral("docs/") + f;
    QVERIFY(files.size() >= 20);
    const Run r = run(QStringList{QStringLiteral("validate")} + files);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, QByteArray());
    QVERIFY2(r.err.contains("valid"), r.err.constData());
}

void TestCliSpec::validateBroken() {
    const Run r = run({QStringLiteral("validate"), QStringLiteral("broken/quota-negative.yaml")});
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(r.outLines(),
             QStringList{QStringLiteral("broken/quota-negative.yaml:8:19: spec.hard[requests.cpu]: "
                                        "Invalid value: \"-1\": must be greater than or equal to 0")});
    const Run y = run({QStringLiteral("validate"), QStringLiteral("broken/invalid-yaml.yaml")});
    QCOMPARE(y.exitCode, 1);
    QCOMPARE(y.outLines(),
             QStringList{QStringLiteral("broken/invalid-yaml.yaml:9:1: invalid YAML: end of sequence "
                                        "flow not found")});
    const Run k = run({QStringLiteral("validate"), QStringLiteral("broken/unknown-kind.yaml")});
    QCOMPARE(k.exitCode, 1);
    QCOMPARE(k.outLines(),
             QStringList{QStringLiteral("broken/unknown-kind.yaml:3:7: kind: Unsupported value: \"Pod\": "
                                        "supported values: \"ResourceQuota\", \"LimitRange\"")});
}

void TestCliSpec::validateSeveralFilesAndOrder() {
    const Run r = run({QStringLiteral("validate"), QStringLiteral("docs/quota-pod.yaml"),
                       QStringLiteral("broken/multi-doc.yaml"), QStringLiteral("broken/lr-min-gt-max.yaml")});
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(r.outLines(),
             (QStringList{
                 QStringLiteral("broken/multi-doc.yaml:23:15: spec.limits[0].min[memory]: Invalid value: "
                                "\"1Gi\": min value 1Gi is greater than max value 512Mi"),
                 QStringLiteral("broken/multi-doc.yaml:30:30: spec.hard[requests.nvidia.com/gpu]: Invalid "
                                "value: \"-2\": must be greater than or equal to 0"),
                 QStringLiteral("broken/lr-min-gt-max.yaml:12:12: spec.limits[0].min[cpu]: Invalid value: "
                                "\"2\": min value 2 is greater than max value 1")}));
}

void TestCliSpec::validateStdin() {
    QFile f(fixture(QStringLiteral("broken/quota-unknown-resource.yaml")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const Run r = run({QStringLiteral("validate"), QStringLiteral("-")}, f.readAll());
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(r.outLines(), QStringList{QStringLiteral(
                               "<stdin>:9:5: spec.hard[gpu]: Invalid value: \"gpu\": must be a "
                               "standard resource for quota; did you mean 'requests.nvidia.com/gpu'?")});
    const Run ok = run({QStringLiteral("validate"), QStringLiteral("-")},
                       "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {pods: 1}}\n");
    QCOMPARE(ok.exitCode, 0);
}

void TestCliSpec::validateOptions() {
    const QString gpu = QStringLiteral("broken/quota-gpu-no-prefix.yaml");
    QCOMPARE(run({QStringLiteral("validate"), gpu}).exitCode, 1);
    QCOMPARE(run({QStringLiteral("validate"), QStringLiteral("--no-gpu-policy"), gpu}).exitCode, 0);
    const QString pod = QStringLiteral("broken/unknown-kind.yaml");
    const Run skipped = run({QStringLiteral("validate"), QStringLiteral("--skip-other-kinds"), pod});
    QCOMPARE(skipped.exitCode, 0);
    QVERIFY2(skipped.err.contains("no ResourceQuota or LimitRange found"), skipped.err.constData());
    const Run quiet =
        run({QStringLiteral("validate"), QStringLiteral("-q"), QStringLiteral("docs/quota-pod.yaml")});
    QCOMPARE(quiet.exitCode, 0);
    QCOMPARE(quiet.err, QByteArray());
    // Global options reach the verb and are ignored by it.
    QCOMPARE(run({QStringLiteral("--kubeconfig"), QStringLiteral("/nonexistent"), QStringLiteral("validate"),
                  QStringLiteral("docs/quota-pod.yaml")})
                 .exitCode,
             0);
}

void TestCliSpec::validateUsageErrors() {
    const Run none = run({QStringLiteral("validate")});
    QCOMPARE(none.exitCode, 2);
    QVERIFY(none.err.contains("no FILE given"));
    const Run opt =
        run({QStringLiteral("validate"), QStringLiteral("--bogus"), QStringLiteral("docs/quota-pod.yaml")});
    QCOMPARE(opt.exitCode, 2);
    QVERIFY(opt.err.contains("unknown option '--bogus'"));
    // Unreadable beats invalid: exit 2, and the readable files are still checked.
    const Run missing = run({QStringLiteral("validate"), QStringLiteral("nope.yaml"),
                             QStringLiteral("broken/quota-negative.yaml")});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains("cannot read nope.yaml"));
    QCOMPARE(missing.outLines().size(), 1);
    const Run dir = run({QStringLiteral("validate"), QStringLiteral("docs")});
    QCOMPARE(dir.exitCode, 2);
    const Run help = run({QStringLiteral("validate"), QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains("FILE:LINE:COL: field.path: message"));
}

void TestCliSpec::fmtPrints() {
    const Run r = run({QStringLiteral("fmt"), QStringLiteral("valid/gpu-quota.yaml")});
    QCOMPARE(r.exitCode, 0);
    QFile f(fixture(QStringLiteral("valid/gpu-quota.yaml")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray expected = f.readAll();
    expected.replace("requests.cpu: 64000m        # non-canonical on purpose",
                     "requests.cpu: 64        # non-canonical on purpose");
    expected.replace("requests.memory: 0.5Ti", "requests.memory: 512Gi");
    QCOMPARE(QString::fromUtf8(r.out), QString::fromUtf8(expected));
    const Run in =
        run({QStringLiteral("fmt"), QStringLiteral("-")}, "kind: LimitRange\nspec:\n  limits:\n"
                                                          "  - type: Container # c\n    max: {cpu: 0.5}\n");
    QCOMPARE(in.exitCode, 0);
    QCOMPARE(
        in.out,
        QByteArray("kind: LimitRange\nspec:\n  limits:\n  - type: Container # c\n    max: {cpu: 500m}\n"));
}

void TestCliSpec::fmtWriteAndCheck() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString path = tmp.filePath(QStringLiteral("q.yaml"));
    const QByteArray original = "# keep me\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\n"
                                "spec:\n  hard:\n    requests.memory: \"1.5Gi\"  # quoted\n    pods: 10\n";
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(original);
    }
    const Run check = run({QStringLiteral("fmt"), QStringLiteral("--check"), path});
    QCOMPARE(check.exitCode, 1);
    QCOMPARE(check.outLines(), QStringList{path});
    const Run write = run({QStringLiteral("fmt"), QStringLiteral("-w"), path});
    QCOMPARE(write.exitCode, 0);
    QCOMPARE(write.out, QByteArray());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(),
             QByteArray("# keep me\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\n"
                        "spec:\n  hard:\n    requests.memory: \"1536Mi\"  # quoted\n    pods: 10\n"));
    const Run again = run({QStringLiteral("fmt"), QStringLiteral("--check"), path});
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(again.out, QByteArray());
    const Run list =
        run({QStringLiteral("fmt"), QStringLiteral("-l"), path, QStringLiteral("valid/gpu-quota.yaml")});
    QCOMPARE(list.exitCode, 0);
    QCOMPARE(list.outLines(), QStringList{QStringLiteral("valid/gpu-quota.yaml")});
}

void TestCliSpec::fmtErrors() {
    const Run bad = run({QStringLiteral("fmt"), QStringLiteral("broken/invalid-yaml.yaml")});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.err.contains("broken/invalid-yaml.yaml:9:1: invalid YAML"), bad.err.constData());
    QCOMPARE(run({QStringLiteral("fmt"), QStringLiteral("-w"), QStringLiteral("-")}).exitCode, 2);
    QCOMPARE(run({QStringLiteral("fmt")}).exitCode, 2);
    QCOMPARE(run({QStringLiteral("fmt"), QStringLiteral("missing.yaml")}).exitCode, 2);
    QCOMPARE(run({QStringLiteral("fmt"), QStringLiteral("--nope"), QStringLiteral("valid/gpu-quota.yaml")})
                 .exitCode,
             2);
}

// Issue 31 item 16: 3 million empty documents (12 MB): validate and fmt both say "no
// objects" and exit 1 (fmt exited 0 after formatting every empty document).
void TestCliSpec::fmtAndValidateAgreeOnNoObjects() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("empty.yaml"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.write(QByteArray("---\n").repeated(3000000)) > 0);
    f.close();
    const Run validate = run({QStringLiteral("validate"), file});
    QCOMPARE(validate.exitCode, 1);
    QVERIFY2(validate.out.contains("no objects"), validate.out.constData());
    for (const QStringList &args : {QStringList{QStringLiteral("fmt"), file},
                                    QStringList{QStringLiteral("fmt"), QStringLiteral("--check"), file}}) {
        const Run fmt = run(args);
        QCOMPARE(fmt.exitCode, 1);
        QVERIFY2(fmt.err.contains("no objects"), fmt.err.constData());
        QVERIFY(fmt.out.isEmpty());
    }
}

// Issue 31 item 16: `apply --dry-run=server` of a 100,000-item List ran past 15 s at
// 341 MB (one request per item); it is refused with the limit, before any cluster.
void TestCliSpec::applyRefusesAHugeList() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("list.yaml"));
    QByteArray text = "apiVersion: v1\nkind: List\nitems:\n";
    for (int i = 0; i < 100000; ++i)
        text += "- {apiVersion: v1, kind: ResourceQuota, metadata: {name: q" + QByteArray::number(i) +
                ", namespace: a}, spec: {hard: {requests.nvidia.com/gpu: 1}}}\n";
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(text), qint64(text.size()));
    f.close();
    const Run r = run({QStringLiteral("apply"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                       file, QStringLiteral("--kubeconfig"), dir.filePath(QStringLiteral("none"))});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("holds 100000 objects; apply takes at most 2000"), r.err.constData());
}

void TestCliSpec::versionHelpAndPluginName() {
    const Run v = run({QStringLiteral("--version")});
    QCOMPARE(v.exitCode, 0);
    QVERIFY(v.out.startsWith("gpuquota "));
    const Run h = run({QStringLiteral("--help")});
    QCOMPARE(h.exitCode, 0);
    QVERIFY(h.out.contains("validate FILE..."));
    QVERIFY(h.out.contains("fmt [-w] FILE..."));
    // kubectl finds plugins by name: `kubectl gpuquota validate ...`.
    const QString plugin = QFileInfo(m_bin).absolutePath() + QStringLiteral("/kubectl-gpuquota");
    QVERIFY2(QFile::exists(plugin), qPrintable(plugin));
    const Run p = run({QStringLiteral("validate"), QStringLiteral("broken/quota-negative.yaml")}, {}, plugin);
    QCOMPARE(p.exitCode, 1);
}

QTEST_GUILESS_MAIN(TestCliSpec)
#include "tst_cli_spec.moc"
