// QuotaSpec: typed view of a ResourceQuota that keeps what it does not model.
#include "tests/coretestdata.h"
#include "core/domain/quotaspec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace gq;
using gq::test::q;
using gq::test::specFixture;

class TestQuotaSpec : public QObject {
    Q_OBJECT
private slots:
    void decodesEveryModelledField();
    void unchangedRoundTripIsIdentical();
    void editsKeepOrderUnknownFieldsAndText();
    void addAndRemove();
    void metadataEdits();
    void selectorEdits();
    void json();
    void jsonFromServer();
    void strictErrors_data();
    void strictErrors();
    void newSpecFromScratch();
    void sameAs();
};

void TestQuotaSpec::decodesEveryModelledField() {
    auto spec = QuotaSpec::fromYaml(specFixture("valid/gpu-quota.yaml"));
    QVERIFY2(spec, qPrintable(spec ? QString() : spec.error().toString()));
    QCOMPARE(spec->meta.name, QStringLiteral("gpu-quota"));
    QCOMPARE(spec->meta.namespaceName, QStringLiteral("ml-team"));
    QCOMPARE(spec->meta.resourceVersion, QStringLiteral("12345"));
    QCOMPARE(spec->meta.uid, QStringLiteral("0b6c4a39-2f0e-4cde-9c4b-2f6c1a2b3c4d"));
    QCOMPARE(spec->meta.labels.value(QStringLiteral("team")), QStringLiteral("ml"));
    QCOMPARE(spec->meta.annotations.value(QStringLiteral("gpuquota.io/budget")), QStringLiteral("1000h"));
    QCOMPARE(spec->hard.names(),
             (QStringList{"requests.nvidia.com/gpu", "requests.nvidia.com/mig-1g.10gb", "requests.cpu",
                          "requests.memory", "limits.memory", "pods", "count/jobs.batch"}));
    QCOMPARE(*spec->hard.value(u"requests.nvidia.com/gpu"), q("8"));
    QCOMPARE(*spec->hard.value(u"requests.cpu"), q("64"));
    QCOMPARE(*spec->hard.value(u"requests.memory"), q("512Gi"));
    QVERIFY(spec->hasScopeSelector);
    QCOMPARE(spec->scopeSelector.size(), 1);
    QCOMPARE(spec->scopeSelector[0].scopeName, QStringLiteral("PriorityClass"));
    QCOMPARE(spec->scopeSelector[0].op, QStringLiteral("NotIn"));
    QCOMPARE(spec->scopeSelector[0].values, QStringList{QStringLiteral("preemptible")});
    QCOMPARE(*spec->statusUsed.value(u"requests.nvidia.com/gpu"), q("3"));
    QCOMPARE(*spec->statusHard.value(u"pods"), q("40"));
    QVERIFY(spec->scopes.isEmpty());
}

void TestQuotaSpec::unchangedRoundTripIsIdentical() {
    const QByteArray text = specFixture("valid/gpu-quota.yaml");
    auto spec = QuotaSpec::fromYaml(text);
    QVERIFY(spec);
    QVERIFY(spec->toNode() == spec->source());
    // Through YAML text and back: same tree, including unknown fields and quoting.
    auto again = QuotaSpec::fromYaml(spec->toYaml());
    QVERIFY(again);
    QVERIFY(again->source() == spec->source());
    QVERIFY(spec->toYaml().contains("requests.cpu: 64000m")); // unchanged: original text kept
    QVERIFY(spec->toYaml().contains("creationTimestamp: \"2024-05-01T10:00:00Z\""));
}

void TestQuotaSpec::editsKeepOrderUnknownFieldsAndText() {
    auto spec =
        QuotaSpec::fromYaml("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\n"
                            "  managedFields: [{manager: kubectl}]\nspec:\n  hard:\n"
                            "    pods: \"10\"\n    requests.nvidia.com/gpu: \"4\"\n    requests.cpu: 2000m\n"
                            "  futureField: {x: 1}\nextra: true\n");
    QVERIFY(spec);
    spec->hard.set(QStringLiteral("requests.nvidia.com/gpu"), q("8"));
    const YamlNode out = spec->toNode();
    const YamlNode *hard = out.find(u"spec")->find(u"hard");
    QCOMPARE(hard->entries()[0].key, QStringLiteral("pods"));
    QCOMPARE(hard->entries()[1].key, QStringLiteral("requests.nvidia.com/gpu"));
    QCOMPARE(hard->entries()[1].value.text(), QStringLiteral("8"));
    QVERIFY(hard->entries()[1].value.isString());                       // it was quoted, it stays quoted
    QCOMPARE(hard->entries()[2].value.text(), QStringLiteral("2000m")); // untouched text
    QVERIFY(out.find(u"spec")->find(u"futureField"));
    QCOMPARE(out.scalarAt(u"extra"), QStringLiteral("true"));
    QVERIFY(out.find(u"metadata")->find(u"managedFields")->isSequence());
    QCOMPARE(out.entries().back().key, QStringLiteral("extra"));
}

void TestQuotaSpec::addAndRemove() {
    auto spec =
        QuotaSpec::fromYaml("kind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard:\n    a.io/x: 1\n"
                            "    pods: 2\n");
    QVERIFY(spec);
    QVERIFY(spec->hard.remove(u"a.io/x"));
    spec->hard.set(QStringLiteral("requests.nvidia.com/gpu"), q("3"));
    const YamlNode node = spec->toNode();
    const YamlNode *hard = node.find(u"spec")->find(u"hard");
    QCOMPARE(hard->size(), 2);
    QCOMPARE(hard->entries()[0].key, QStringLiteral("pods"));
    QCOMPARE(hard->entries()[1].key, QStringLiteral("requests.nvidia.com/gpu"));
    spec->hard.clear();
    const YamlNode emptied = spec->toNode();
    QVERIFY(emptied.find(u"spec")->find(u"hard")->isMap()); // it existed: kept, now empty
    QCOMPARE(emptied.find(u"spec")->find(u"hard")->size(), 0);
    // The toNode() default fills apiVersion (missing in the source) at the end.
    QCOMPARE(emptied.scalarAt(u"apiVersion"), QStringLiteral("v1"));
}

void TestQuotaSpec::metadataEdits() {
    auto spec =
        QuotaSpec::fromYaml("kind: ResourceQuota\nmetadata:\n  name: q\n  labels: {z: \"1\", a: \"2\"}\n"
                            "  resourceVersion: \"7\"\n");
    QVERIFY(spec);
    spec->meta.labels.insert(QStringLiteral("m"), QStringLiteral("3"));
    spec->meta.labels.insert(QStringLiteral("z"), QStringLiteral("9"));
    spec->meta.resourceVersion.clear();
    const YamlNode md = *spec->toNode().find(u"metadata");
    const YamlNode *labels = md.find(u"labels");
    QCOMPARE(labels->entries()[0].key, QStringLiteral("z")); // existing order first
    QCOMPARE(labels->entries()[0].value.text(), QStringLiteral("9"));
    QCOMPARE(labels->entries()[1].key, QStringLiteral("a"));
    QCOMPARE(labels->entries()[2].key, QStringLiteral("m"));
    QVERIFY(!md.contains(u"resourceVersion"));
    spec->meta.labels.clear();
    QVERIFY(!spec->toNode().find(u"metadata")->contains(u"labels"));
}

void TestQuotaSpec::selectorEdits() {
    auto spec =
        QuotaSpec::fromYaml("kind: ResourceQuota\nmetadata: {name: q}\nspec:\n  scopeSelector:\n"
                            "    matchExpressions:\n    - scopeName: PriorityClass\n      operator: In\n"
                            "      values: [high]\n      note: keep\n");
    QVERIFY(spec);
    spec->scopeSelector[0].values << QStringLiteral("urgent");
    spec->scopeSelector << ScopedResourceSelectorRequirement{
        QStringLiteral("BestEffort"), QStringLiteral("Exists"), {}};
    spec->scopes = {QStringLiteral("NotTerminating")};
    const YamlNode spec2 = *spec->toNode().find(u"spec");
    const YamlNode *exprs = spec2.find(u"scopeSelector")->find(u"matchExpressions");
    QCOMPARE(exprs->size(), 2);
    QCOMPARE(exprs->items()[0].scalarAt(u"note"), QStringLiteral("keep"));
    QCOMPARE(exprs->items()[0].find(u"values")->size(), 2);
    QCOMPARE(exprs->items()[1].scalarAt(u"operator"), QStringLiteral("Exists"));
    QVERIFY(!exprs->items()[1].contains(u"values"));
    QCOMPARE(spec2.find(u"scopes")->items()[0].text(), QStringLiteral("NotTerminating"));
    spec->hasScopeSelector = false;
    QVERIFY(!spec->toNode().find(u"spec")->contains(u"scopeSelector"));
}

void TestQuotaSpec::json() {
    auto spec = QuotaSpec::fromYaml(specFixture("valid/gpu-quota.yaml"));
    QVERIFY(spec);
    const QJsonObject json = spec->toJson();
    const QJsonObject hard = json.value(u"spec").toObject().value(u"hard").toObject();
    // Quantities travel as strings, canonical or as written.
    QCOMPARE(hard.value(u"requests.nvidia.com/gpu"), QJsonValue(QStringLiteral("8")));
    QCOMPARE(hard.value(u"requests.cpu"), QJsonValue(QStringLiteral("64000m")));
    QCOMPARE(json.value(u"metadata").toObject().value(u"creationTimestamp"),
             QJsonValue(QStringLiteral("2024-05-01T10:00:00Z")));
    auto back = QuotaSpec::fromJson(json);
    QVERIFY(back);
    QVERIFY(back->sameAs(*spec));
    QCOMPARE(back->toJson(), json);
}

void TestQuotaSpec::jsonFromServer() {
    // Shape of GET /api/v1/namespaces/ns/resourcequotas/q (numbers allowed for quantities).
    const QByteArray body =
        R"({"kind":"ResourceQuota","apiVersion":"v1","metadata":{"name":"q","namespace":"ns",
        "uid":"u-1","resourceVersion":"991","creationTimestamp":"2024-05-01T10:00:00Z",
        "managedFields":[{"manager":"kubectl-create","operation":"Update"}]},
        "spec":{"hard":{"requests.nvidia.com/gpu":"4","pods":10}},
        "status":{"hard":{"requests.nvidia.com/gpu":"4","pods":"10"},"used":{"requests.nvidia.com/gpu":"1","pods":"2"}}})";
    const QJsonObject obj = QJsonDocument::fromJson(body).object();
    auto spec = QuotaSpec::fromJson(obj);
    QVERIFY(spec);
    QCOMPARE(spec->meta.resourceVersion, QStringLiteral("991"));
    QCOMPARE(*spec->hard.value(u"pods"), q("10"));
    QCOMPARE(*spec->statusUsed.value(u"requests.nvidia.com/gpu"), q("1"));
    spec->hard.set(QStringLiteral("requests.nvidia.com/gpu"), q("6"));
    const QJsonObject out = spec->toJson();
    QCOMPARE(out.value(u"spec").toObject().value(u"hard").toObject().value(u"requests.nvidia.com/gpu"),
             QJsonValue(QStringLiteral("6")));
    QCOMPARE(out.value(u"spec").toObject().value(u"hard").toObject().value(u"pods"),
             QJsonValue(QStringLiteral("10")));
    QCOMPARE(out.value(u"metadata").toObject().value(u"managedFields").toArray().size(), 1);
    QCOMPARE(out.value(u"metadata").toObject().value(u"resourceVersion"), QJsonValue(QStringLiteral("991")));
}

void TestQuotaSpec::strictErrors_data() {
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("causes");
    QTest::newRow("bad quantity") << QByteArray(
                                         "kind: ResourceQuota\nspec:\n  hard:\n    cpu: 1Gb\n    pods: x\n")
                                  << "spec.hard[cpu]" << 4 << 2;
    QTest::newRow("hard not a map") << QByteArray("kind: ResourceQuota\nspec:\n  hard: [1]\n") << "spec.hard"
                                    << 3 << 1;
    QTest::newRow("wrong kind") << QByteArray("kind: LimitRange\n") << "kind" << 1 << 1;
    QTest::newRow("labels not a map")
        << QByteArray("kind: ResourceQuota\nmetadata:\n  labels: x\n") << "metadata.labels" << 3 << 1;
    QTest::newRow("not a map") << QByteArray("- 1\n") << "" << 1 << 1;
    QTest::newRow("empty quantity") << QByteArray("kind: ResourceQuota\nspec:\n  hard:\n    cpu:\n")
                                    << "spec.hard[cpu]" << 4 << 1;
}

void TestQuotaSpec::strictErrors() {
    QFETCH(QByteArray, yaml);
    QFETCH(QString, field);
    QFETCH(int, line);
    QFETCH(int, causes);
    auto spec = QuotaSpec::fromYaml(yaml);
    QVERIFY(!spec);
    QCOMPARE(spec.error().field, field);
    QCOMPARE(spec.error().line, line);
    QCOMPARE(spec.error().causes.size(), causes);
    QVERIFY(!spec.error().message.isEmpty());
}

void TestQuotaSpec::newSpecFromScratch() {
    QuotaSpec spec;
    spec.meta.name = QStringLiteral("gpu");
    spec.meta.namespaceName = QStringLiteral("team-a");
    spec.hard.set(QStringLiteral("requests.nvidia.com/gpu"), q("2"));
    const QByteArray yaml = spec.toYaml();
    QCOMPARE(yaml,
             QByteArray("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpu\n  namespace: team-a\n"
                        "spec:\n  hard:\n    requests.nvidia.com/gpu: 2\n"));
    QVERIFY(!spec.toNode().contains(u"status"));
    QCOMPARE(QuotaSpec().toYaml(), QByteArray("apiVersion: v1\nkind: ResourceQuota\n"));
}

void TestQuotaSpec::sameAs() {
    QuotaSpec a;
    a.hard.set(QStringLiteral("cpu"), q("1"));
    a.hard.set(QStringLiteral("pods"), q("2"));
    QuotaSpec b;
    b.hard.set(QStringLiteral("pods"), q("2"));
    b.hard.set(QStringLiteral("cpu"), q("1000m"));
    QVERIFY(a.sameAs(b)); // order and spelling do not matter
    b.hard.set(QStringLiteral("cpu"), q("1001m"));
    QVERIFY(!a.sameAs(b));
}

QTEST_GUILESS_MAIN(TestQuotaSpec)
#include "tst_quotaspec.moc"
