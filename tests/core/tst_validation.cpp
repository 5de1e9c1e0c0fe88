// Validation of ResourceQuota / LimitRange: every Kubernetes documentation example
// must pass; every broken variant must fail with exactly the expected errors (field,
// line, column, message); plus table-driven cases built in code.
#include "core/domain/validation.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace gq;

namespace {

QString fixtureDir(const QString &sub) {
    return QStringLiteral(GQ_TEST_FIXTURES "/specs/") + sub;
}

QByteArray readFile(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// All diagnostics of a file, parse errors included, as validate prints them.
QList<Error> diagnose(const QByteArray &text, int *objects = nullptr) {
    auto doc = loadYaml(text);
    if (!doc)
        return {doc.error()};
    if (objects)
        *objects = int(doc->objects.size());
    QList<Error> all;
    for (const YamlObject &o : doc->objects)
        all += validateObject(o);
    return all;
}

QString render(const QList<Error> &errors) {
    QStringList lines;
    for (const Error &e : errors)
        lines << formatDiagnostic(QStringLiteral("f"), e);
    return lines.join(u'\n');
}

QuotaSpec quota(std::initializer_list<std::pair<const char *, const char *>> hard) {
    QuotaSpec q;
    q.meta.name = QStringLiteral("q");
    for (const auto &[name, value] : hard)
        q.hard.set(QString::fromLatin1(name), *Quantity::parse(QString::fromLatin1(value)));
    return q;
}

} // namespace

class TestValidation : public QObject {
    Q_OBJECT
private slots:
    void docsExamples_data();
    void docsExamples();
    void brokenVariants_data();
    void brokenVariants();
    void quotaCases_data();
    void quotaCases();
    void limitRangeCases_data();
    void limitRangeCases();
    void gpuPolicyCanBeTurnedOff();
    void errorsCarryReasonAndKind();
    void notAnObject();
    void typedListImpliesKind();
    void formatDiagnosticShape();
    void wholeText();
};

void TestValidation::wholeText() {
    const QByteArray text = "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n---\n"
                            "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: team-a}\n"
                            "spec:\n  hard:\n    pods: 1.5\n    gpus: 2\n";
    int checked = 0;
    const QList<Error> errors = validateYamlText(text, {}, &checked);
    QCOMPARE(checked, 2);
    QCOMPARE(errors.size(), 3); // Namespace is not ours; pods fraction; unknown name
    QCOMPARE(errors[0].field, QStringLiteral("kind"));
    QCOMPARE(errors[1].field, QStringLiteral("spec.hard[pods]"));
    QCOMPARE(errors[2].field, QStringLiteral("spec.hard[gpus]"));
    QVERIFY2(errors[2].message.endsWith(u"did you mean 'requests.nvidia.com/gpu'?"),
             qPrintable(errors[2].message));
    ValidationOptions skip;
    skip.ignoreOtherKinds = true;
    QCOMPARE(validateYamlText(text, skip, &checked).size(), 2);
    QCOMPARE(checked, 1);
    const QList<Error> parse = validateYamlText("a: [1\n", {}, &checked);
    QCOMPARE(parse.size(), 1);
    QCOMPARE(parse[0].kind, Error::Kind::Parse);
    QCOMPARE(checked, 0);
    QVERIFY(validateYamlText("").isEmpty());
}

void TestValidation::docsExamples_data() {
    QTest::addColumn<QString>("path");
    const QDir dir(fixtureDir(QStringLiteral("docs")));
    const auto files = dir.entryInfoList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 20, "the documentation examples are missing");
    for (const QFileInfo &f : files)
        QTest::newRow(qPrintable(f.fileName())) << f.filePath();
    const QDir valid(fixtureDir(QStringLiteral("valid")));
    for (const QFileInfo &f : valid.entryInfoList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(QStringLiteral("valid/") + f.fileName())) << f.filePath();
}

void TestValidation::docsExamples() {
    QFETCH(QString, path);
    const QByteArray text = readFile(path);
    QVERIFY(!text.isEmpty());
    int objects = 0;
    const QList<Error> errors = diagnose(text, &objects);
    QVERIFY2(errors.isEmpty(), qPrintable(render(errors)));
    QVERIFY(objects >= 1);
}

// Each broken fixture states its expected errors in comments:
//   # expect: LINE:COL FIELD MESSAGE-FRAGMENT      (FIELD "-" for none)
void TestValidation::brokenVariants_data() {
    QTest::addColumn<QString>("path");
    const QDir dir(fixtureDir(QStringLiteral("broken")));
    const auto files = dir.entryInfoList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 30, "the broken variants are missing");
    for (const QFileInfo &f : files)
        QTest::newRow(qPrintable(f.fileName())) << f.filePath();
}

void TestValidation::brokenVariants() {
    QFETCH(QString, path);
    const QByteArray text = readFile(path);
    static const QRegularExpression expectRe(QStringLiteral(R"(^# expect: (\d+):(\d+) (\S+) (.+)$)"),
                                             QRegularExpression::MultilineOption);
    struct Expect {
        int line, column;
        QString field, fragment;
    };
    QList<Expect> expects;
    auto it = expectRe.globalMatch(QString::fromUtf8(text));
    while (it.hasNext()) {
        const auto m = it.next();
        expects << Expect{m.captured(1).toInt(), m.captured(2).toInt(),
                          m.captured(3) == u"-" ? QString() : m.captured(3), m.captured(4).trimmed()};
    }
    QVERIFY2(!expects.isEmpty(), "fixture has no '# expect:' line");

    const QList<Error> errors = diagnose(text);
    const QString all = render(errors);
    QCOMPARE(errors.size(), expects.size());
    for (const Expect &x : expects) {
        bool found = false;
        for (const Error &e : errors) {
            if (e.line == x.line && e.column == x.column && e.field == x.field &&
                e.message.contains(x.fragment)) {
                found = true;
                break;
            }
        }
        QVERIFY2(found, qPrintable(QStringLiteral("expected %1:%2 %3 '%4' among:\n%5")
                                       .arg(x.line)
                                       .arg(x.column)
                                       .arg(x.field, x.fragment, all)));
    }
}

void TestValidation::quotaCases_data() {
    QTest::addColumn<QuotaSpec>("spec");
    QTest::addColumn<QStringList>("expected"); // "field|fragment" per error, in order

    QTest::newRow("ok") << quota({{"requests.nvidia.com/gpu", "8"}, {"requests.cpu", "500m"}})
                        << QStringList{};
    QTest::newRow("mig ok") << quota({{"requests.nvidia.com/mig-1g.10gb", "14"}}) << QStringList{};
    QTest::newRow("zero ok") << quota({{"requests.nvidia.com/gpu", "0"}}) << QStringList{};
    QTest::newRow("negative") << quota({{"requests.memory", "-1Gi"}})
                              << QStringList{
                                     "spec.hard[requests.memory]|Invalid value: \"-1Gi\": must be greater "
                                     "than or equal to 0"};
    QTest::newRow("secrets fraction")
        << quota({{"secrets", "100m"}}) << QStringList{"spec.hard[secrets]|must be an integer"};
    QTest::newRow("unknown name") << quota({{"cpus", "1"}})
                                  << QStringList{"spec.hard[cpus]|must be a standard resource for quota"};
    QTest::newRow("plain gpu") << quota({{"nvidia.com/gpu", "4"}})
                               << QStringList{"spec.hard[nvidia.com/gpu]|use 'requests.nvidia.com/gpu'"};
    QTest::newRow("plain gpu fraction")
        << quota({{"nvidia.com/gpu", "1500m"}})
        << QStringList{"spec.hard[nvidia.com/gpu]|must be an integer",
                       "spec.hard[nvidia.com/gpu]|use 'requests.nvidia.com/gpu'"};
    QTest::newRow("gpu fraction") << quota({{"requests.nvidia.com/gpu", "0.5"}})
                                  << QStringList{
                                         "spec.hard[requests.nvidia.com/gpu]|must be an integer (GPUs"};
    QTest::newRow("fpga fraction ok upstream")
        << quota({{"requests.example.com/fpga", "0.5"}}) << QStringList{};
    QTest::newRow("dra device class ok")
        << quota({{"gpu.nvidia.com.deviceclass.resource.k8s.io/devices", "4"}}) << QStringList{};
    QTest::newRow("dra device class fraction")
        << quota({{"gpu.nvidia.com.deviceclass.resource.k8s.io/devices", "0.5"}})
        << QStringList{"spec.hard[gpu.nvidia.com.deviceclass.resource.k8s.io/devices]|must be an integer"};
    QTest::newRow("count ok") << quota({{"count/deployments.apps", "2"}, {"count/pods", "3"}})
                              << QStringList{};

    QuotaSpec noName = quota({{"pods", "1"}});
    noName.meta.name.clear();
    QTest::newRow("no name") << noName << QStringList{"metadata.name|Required value"};
    QuotaSpec genName = noName;
    genName.meta.generateName = QStringLiteral("gpu-");
    QTest::newRow("generateName") << genName << QStringList{};
    QuotaSpec badLabel = quota({{"pods", "1"}});
    badLabel.meta.labels.insert(QStringLiteral("team"), QStringLiteral("a b"));
    QTest::newRow("label value") << badLabel << QStringList{"metadata.labels[team]|Invalid value: \"a b\""};

    QuotaSpec scoped = quota({{"pods", "10"}, {"requests.cpu", "1"}});
    scoped.scopes = {QStringLiteral("NotBestEffort"), QStringLiteral("NotTerminating")};
    QTest::newRow("scopes ok") << scoped << QStringList{};
    scoped.scopes = {QStringLiteral("BestEffort"), QStringLiteral("NotBestEffort")};
    QTest::newRow("scopes conflict") << scoped
                                     << QStringList{"spec.scopes[0]|unsupported scope applied to resource",
                                                    "spec.scopes|conflicting scopes"};

    QuotaSpec sel = quota({{"pods", "10"}});
    sel.hasScopeSelector = true;
    sel.scopeSelector = {{QStringLiteral("PriorityClass"), QStringLiteral("NotIn"), {QStringLiteral("low")}}};
    QTest::newRow("selector ok") << sel << QStringList{};
    sel.scopeSelector = {{QStringLiteral("PriorityClass"), QStringLiteral("DoesNotExist"), {}}};
    QTest::newRow("selector DoesNotExist ok") << sel << QStringList{};
    sel.scopeSelector = {{QStringLiteral("PriorityClass"), QStringLiteral("NotIn"), {}}};
    QTest::newRow("NotIn empty") << sel
                                 << QStringList{
                                        "spec.scopeSelector.matchExpressions[0].values|Required value"};
    sel.scopeSelector = {
        {QStringLiteral("PriorityClass"), QStringLiteral("DoesNotExist"), {QStringLiteral("x")}}};
    QTest::newRow("DoesNotExist values")
        << sel << QStringList{"spec.scopeSelector.matchExpressions[0].values|must be no value"};
    sel.scopeSelector = {{QStringLiteral("Priority"), QStringLiteral("Exists"), {}}};
    QTest::newRow("bad scope name") << sel
                                    << QStringList{
                                           "spec.scopeSelector.matchExpressions[0].scopeName|Unsupported "
                                           "value: \"Priority\""};
    sel.scopeSelector = {{QStringLiteral("Terminating"), QStringLiteral("Exists"), {}},
                         {QStringLiteral("NotTerminating"), QStringLiteral("Exists"), {}}};
    QTest::newRow("selector conflict")
        << sel << QStringList{"spec.scopeSelector.matchExpressions|conflicting scopes"};
    sel.scopeSelector = {{QStringLiteral("PriorityClass"), QString(), {}}};
    QTest::newRow("no operator") << sel
                                 << QStringList{
                                        "spec.scopeSelector.matchExpressions[0].operator|Required value"};
}

void TestValidation::quotaCases() {
    QFETCH(QuotaSpec, spec);
    QFETCH(QStringList, expected);
    const QList<Error> errors = validateQuota(spec);
    QCOMPARE(errors.size(), expected.size());
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const QStringList parts = expected[i].split(u'|');
        QCOMPARE(errors[i].field, parts[0]);
        QVERIFY2(errors[i].message.contains(parts[1]), qPrintable(errors[i].message));
        QCOMPARE(errors[i].kind, Error::Kind::Invalid);
        // Built in code: there is no text to point at.
        QCOMPARE(errors[i].line, 0);
    }
}

void TestValidation::limitRangeCases_data() {
    QTest::addColumn<LimitRangeSpec>("spec");
    QTest::addColumn<QStringList>("expected");
    auto q = [](const char *s) { return *Quantity::parse(QString::fromLatin1(s)); };
    auto lr = [](LimitRangeItem item) {
        LimitRangeSpec s;
        s.meta.name = QStringLiteral("lr");
        s.limits << item;
        return s;
    };

    LimitRangeItem gpu;
    gpu.type = QStringLiteral("Container");
    gpu.defaultLimit.set(QStringLiteral("nvidia.com/gpu"), q("1"));
    gpu.defaultRequest.set(QStringLiteral("nvidia.com/gpu"), q("1"));
    gpu.max.set(QStringLiteral("nvidia.com/gpu"), q("4"));
    QTest::newRow("gpu ok") << lr(gpu) << QStringList{};

    LimitRangeItem hp;
    hp.type = QStringLiteral("Container");
    hp.defaultLimit.set(QStringLiteral("hugepages-2Mi"), q("4Mi"));
    hp.defaultRequest.set(QStringLiteral("hugepages-2Mi"), q("2Mi"));
    QTest::newRow("hugepages overcommit")
        << lr(hp)
        << QStringList{"spec.limits[0].defaultRequest[hugepages-2Mi]|must equal to defaultRequest value"};

    LimitRangeItem full;
    full.type = QStringLiteral("Container");
    full.min.set(QStringLiteral("cpu"), q("100m"));
    full.defaultRequest.set(QStringLiteral("cpu"), q("200m"));
    full.defaultLimit.set(QStringLiteral("cpu"), q("500m"));
    full.max.set(QStringLiteral("cpu"), q("1"));
    full.maxLimitRequestRatio.set(QStringLiteral("cpu"), q("10"));
    QTest::newRow("full ok") << lr(full) << QStringList{};

    LimitRangeItem reqBelowMin = full;
    reqBelowMin.defaultRequest.set(QStringLiteral("cpu"), q("50m"));
    QTest::newRow("defaultRequest < min")
        << lr(reqBelowMin)
        << QStringList{
               "spec.limits[0].defaultRequest[cpu]|min value 100m is greater than default request value 50m"};

    LimitRangeItem reqAboveMax = full;
    reqAboveMax.defaultRequest.set(QStringLiteral("cpu"), q("2"));
    reqAboveMax.defaultLimit.set(QStringLiteral("cpu"), q("2"));
    QTest::newRow("defaults > max") << lr(reqAboveMax)
                                    << QStringList{
                                           "spec.limits[0].defaultRequest[cpu]|default request value 2 is "
                                           "greater than max value 1",
                                           "spec.limits[0].default[cpu]|default value 2 is greater than max "
                                           "value 1"};

    LimitRangeItem defaultBelowMin = full;
    defaultBelowMin.defaultLimit.set(QStringLiteral("cpu"), q("150m"));
    defaultBelowMin.defaultRequest.set(QStringLiteral("cpu"), q("100m"));
    defaultBelowMin.min.set(QStringLiteral("cpu"), q("200m"));
    defaultBelowMin.maxLimitRequestRatio.clear(); // 10 > max/min = 5 would be a third error
    QTest::newRow("default < min")
        << lr(defaultBelowMin)
        << QStringList{
               "spec.limits[0].defaultRequest[cpu]|min value 200m is greater than default request value 100m",
               "spec.limits[0].default[cpu]|min value 200m is greater than default value 150m"};

    LimitRangeItem ratioOk;
    ratioOk.type = QStringLiteral("Container");
    ratioOk.min.set(QStringLiteral("memory"), q("1Gi"));
    ratioOk.max.set(QStringLiteral("memory"), q("2Gi"));
    ratioOk.maxLimitRequestRatio.set(QStringLiteral("memory"), q("2"));
    QTest::newRow("ratio == max/min") << lr(ratioOk) << QStringList{};
    ratioOk.maxLimitRequestRatio.set(QStringLiteral("memory"), q("2001m"));
    QTest::newRow("ratio > max/min")
        << lr(ratioOk)
        << QStringList{"spec.limits[0].maxLimitRequestRatio[memory]|ratio 2001m is greater than max/min"};

    LimitRangeItem pod;
    pod.type = QStringLiteral("Pod");
    pod.defaultRequest.set(QStringLiteral("cpu"), q("1"));
    QTest::newRow("pod defaultRequest")
        << lr(pod)
        << QStringList{"spec.limits[0].defaultRequest|Forbidden: may not be specified when `type` is 'Pod'"};

    LimitRangeItem pvc;
    pvc.type = QStringLiteral("PersistentVolumeClaim");
    pvc.max.set(QStringLiteral("storage"), q("10Gi"));
    QTest::newRow("pvc ok") << lr(pvc) << QStringList{};

    LimitRangeItem custom;
    custom.type = QStringLiteral("example.com/Thing");
    custom.max.set(QStringLiteral("example.com/widgets"), q("3"));
    QTest::newRow("fully qualified type ok") << lr(custom) << QStringList{};

    LimitRangeItem negative;
    negative.type = QStringLiteral("Container");
    negative.min.set(QStringLiteral("memory"), q("-1"));
    QTest::newRow("negative") << lr(negative)
                              << QStringList{"spec.limits[0].min[memory]|must be greater than or equal to 0"};
}

void TestValidation::limitRangeCases() {
    QFETCH(LimitRangeSpec, spec);
    QFETCH(QStringList, expected);
    const QList<Error> errors = validateLimitRange(spec);
    QStringList got;
    for (const Error &e : errors)
        got << e.field + u'|' + e.message;
    QCOMPARE(errors.size(), expected.size());
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const QStringList parts = expected[i].split(u'|');
        QCOMPARE(errors[i].field, parts[0]);
        QVERIFY2(errors[i].message.contains(parts[1]), qPrintable(got.join(u'\n')));
    }
}

void TestValidation::gpuPolicyCanBeTurnedOff() {
    const QuotaSpec q =
        quota({{"nvidia.com/gpu", "4"}, {"limits.nvidia.com/gpu", "4"}, {"requests.nvidia.com/gpu", "0.5"}});
    QCOMPARE(validateQuota(q).size(), 3);
    ValidationOptions upstream;
    upstream.gpuPolicy = false;
    QVERIFY(validateQuota(q, upstream).isEmpty());
}

void TestValidation::errorsCarryReasonAndKind() {
    const QByteArray text = "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard:\n"
                            "    cpu: 2Gb\n    pods: \"-1\"\n    gpu: 1\n";
    const QList<Error> errors = diagnose(text);
    QCOMPARE(errors.size(), 3);
    QCOMPARE(errors[0].kind, Error::Kind::Parse); // 2Gb does not parse
    QCOMPARE(errors[0].field, QStringLiteral("spec.hard[cpu]"));
    QVERIFY2(errors[0].message.contains(u"Gb"), qPrintable(errors[0].message));
    QCOMPARE(errors[0].line, 6);
    QCOMPARE(errors[0].column, 10);
    QCOMPARE(errors[1].reason, QStringLiteral("FieldValueInvalid"));
    QCOMPARE(errors[1].line, 7);
    QCOMPARE(errors[1].column, 11);
    // A bad name points at the key, not the value.
    QCOMPARE(errors[2].field, QStringLiteral("spec.hard[gpu]"));
    QCOMPARE(errors[2].line, 8);
    QCOMPARE(errors[2].column, 5);
}

void TestValidation::notAnObject() {
    const QList<Error> errors = diagnose("- a\n- b\n");
    QCOMPARE(errors.size(), 1);
    QVERIFY(errors[0].message.contains(u"found a list"));
    QCOMPARE(errors[0].line, 1);
    const QList<Error> scalar = diagnose("hello\n");
    QCOMPARE(scalar.size(), 1);
    QVERIFY(scalar[0].message.contains(u"found a scalar"));
    QVERIFY(diagnose("# only a comment\n---\n").isEmpty()); // no objects, nothing wrong
    const QList<Error> noKind = diagnose("apiVersion: v1\nmetadata: {name: q}\n");
    QCOMPARE(noKind.size(), 1);
    QCOMPARE(noKind[0].field, QStringLiteral("kind"));
    QVERIFY(noKind[0].message.startsWith(u"Required value"));
}

void TestValidation::typedListImpliesKind() {
    // What `kubectl get resourcequota -o yaml` used to print: items without kind.
    const QByteArray text = "apiVersion: v1\nkind: ResourceQuotaList\nitems:\n"
                            "- metadata: {name: a, namespace: ns}\n  spec: {hard: {pods: \"2\"}}\n"
                            "- metadata: {name: b, namespace: ns}\n  spec: {hard: {pods: 2.5}}\n";
    int objects = 0;
    const QList<Error> errors = diagnose(text, &objects);
    QCOMPARE(objects, 2);
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors[0].field, QStringLiteral("spec.hard[pods]"));
    QCOMPARE(errors[0].line, 7);
}

void TestValidation::formatDiagnosticShape() {
    Error e =
        Error::make(Error::Kind::Invalid, QStringLiteral("Required value"), QStringLiteral("metadata.name"));
    QCOMPARE(formatDiagnostic(QStringLiteral("a.yaml"), e),
             QStringLiteral("a.yaml: metadata.name: Required value"));
    e.line = 3;
    e.column = 7;
    QCOMPARE(formatDiagnostic(QStringLiteral("a.yaml"), e),
             QStringLiteral("a.yaml:3:7: metadata.name: Required value"));
    e.field.clear();
    QCOMPARE(formatDiagnostic(QStringLiteral("-"), e), QStringLiteral("-:3:7: Required value"));
}

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
