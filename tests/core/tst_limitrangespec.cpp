// LimitRangeSpec: typed view of a LimitRange that keeps what it does not model.
#include "tests/coretestdata.h"
#include "core/domain/limitrangespec.h"

#include <QJsonArray>
#include <QTest>

using namespace gq;
using gq::test::q;
using gq::test::specFixture;

class TestLimitRangeSpec : public QObject {
    Q_OBJECT
private slots:
    void decodes();
    void decodesFlowStyleDocsExample();
    void unchangedRoundTrip();
    void editItemKeepsUnknownFields();
    void addAndRemoveItems();
    void json();
    void strictErrors_data();
    void strictErrors();
    void fromScratch();
};

void TestLimitRangeSpec::decodes() {
    auto lr = LimitRangeSpec::fromYaml(specFixture("valid/gpu-limitrange.yaml"));
    QVERIFY2(lr, qPrintable(lr ? QString() : lr.error().toString()));
    QCOMPARE(lr->meta.name, QStringLiteral("gpu-defaults"));
    QCOMPARE(lr->limits.size(), 3);
    const LimitRangeItem &c = lr->limits[0];
    QCOMPARE(c.type, QStringLiteral("Container"));
    QCOMPARE(*c.defaultLimit.value(u"nvidia.com/gpu"), q("1"));
    QCOMPARE(*c.defaultRequest.value(u"cpu"), q("500m"));
    QCOMPARE(*c.max.value(u"nvidia.com/mig-3g.40gb"), q("2"));
    QCOMPARE(*c.maxLimitRequestRatio.value(u"cpu"), q("4"));
    QCOMPARE(c.defaultLimit.names(), (QStringList{"nvidia.com/gpu", "cpu", "memory"}));
    QCOMPARE(lr->limits[1].type, QStringLiteral("Pod"));
    QCOMPARE(*lr->limits[2].min.value(u"storage"), q("1Gi"));
}

void TestLimitRangeSpec::decodesFlowStyleDocsExample() {
    auto lr = LimitRangeSpec::fromYaml(specFixture("docs/limit-mem-cpu-container.yaml"));
    QVERIFY(lr);
    QCOMPARE(lr->meta.name, QStringLiteral("limit-mem-cpu-per-container"));
    QCOMPARE(*lr->limits[0].defaultRequest.value(u"memory"), q("111Mi"));
    auto plain = LimitRangeSpec::fromYaml(specFixture("docs/cpu-defaults.yaml"));
    QVERIFY(plain);
    QCOMPARE(*plain->limits[0].defaultRequest.value(u"cpu"), q("500m")); // written as plain 0.5
}

void TestLimitRangeSpec::unchangedRoundTrip() {
    auto lr = LimitRangeSpec::fromYaml(specFixture("valid/gpu-limitrange.yaml"));
    QVERIFY(lr);
    QVERIFY(lr->toNode() == lr->source());
    auto again = LimitRangeSpec::fromYaml(lr->toYaml());
    QVERIFY(again);
    QVERIFY(again->source() == lr->source());
    QVERIFY(again->sameAs(*lr));
}

void TestLimitRangeSpec::editItemKeepsUnknownFields() {
    auto lr =
        LimitRangeSpec::fromYaml("kind: LimitRange\nmetadata: {name: l}\nspec:\n  limits:\n"
                                 "  - type: Container\n    max: {cpu: \"2\", memory: 1Gi}\n    x-note: keep\n"
                                 "  - type: Pod\n    max: {cpu: \"4\"}\n");
    QVERIFY(lr);
    lr->limits[0].max.set(QStringLiteral("cpu"), q("3"));
    lr->limits[0].defaultRequest.set(QStringLiteral("nvidia.com/gpu"), q("1"));
    const YamlNode node = lr->toNode();
    const YamlNode &item = node.find(u"spec")->find(u"limits")->items()[0];
    QCOMPARE(item.scalarAt(u"x-note"), QStringLiteral("keep"));
    QCOMPARE(item.find(u"max")->scalarAt(u"cpu"), QStringLiteral("3"));
    QCOMPARE(item.find(u"max")->scalarAt(u"memory"), QStringLiteral("1Gi"));
    QCOMPARE(item.find(u"defaultRequest")->scalarAt(u"nvidia.com/gpu"), QStringLiteral("1"));
    QCOMPARE(item.entries().back().key, QStringLiteral("defaultRequest")); // new keys go last
}

void TestLimitRangeSpec::addAndRemoveItems() {
    auto lr = LimitRangeSpec::fromYaml(specFixture("valid/gpu-limitrange.yaml"));
    QVERIFY(lr);
    lr->limits.removeAt(1);
    LimitRangeItem extra;
    extra.type = QStringLiteral("Pod");
    extra.max.set(QStringLiteral("memory"), q("64Gi"));
    lr->limits << extra;
    const YamlNode node = lr->toNode();
    const YamlNode *limits = node.find(u"spec")->find(u"limits");
    QCOMPARE(limits->size(), 3);
    // Items are matched by index: item 1 is now the PVC item, item 2 the new one.
    QCOMPARE(limits->items()[1].scalarAt(u"type"), QStringLiteral("PersistentVolumeClaim"));
    QCOMPARE(limits->items()[2].scalarAt(u"type"), QStringLiteral("Pod"));
    QCOMPARE(limits->items()[2].find(u"max")->scalarAt(u"memory"), QStringLiteral("64Gi"));
    auto back = LimitRangeSpec::fromNode(node);
    QVERIFY(back);
    QVERIFY(back->sameAs(*lr));
}

void TestLimitRangeSpec::json() {
    auto lr = LimitRangeSpec::fromYaml(specFixture("valid/gpu-limitrange.yaml"));
    QVERIFY(lr);
    const QJsonObject json = lr->toJson();
    const QJsonObject item = json.value(u"spec").toObject().value(u"limits").toArray().at(0).toObject();
    QCOMPARE(item.value(u"default").toObject().value(u"nvidia.com/gpu"), QJsonValue(QStringLiteral("1")));
    QCOMPARE(item.value(u"maxLimitRequestRatio").toObject().value(u"cpu"), QJsonValue(QStringLiteral("4")));
    auto back = LimitRangeSpec::fromJson(json);
    QVERIFY(back);
    QVERIFY(back->sameAs(*lr));
}

void TestLimitRangeSpec::strictErrors_data() {
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("line");
    QTest::newRow("bad quantity")
        << QByteArray("kind: LimitRange\nspec:\n  limits:\n  - type: Pod\n    max: {cpu: 2 cores}\n")
        << "spec.limits[0].max[cpu]" << 5;
    QTest::newRow("limits not a list")
        << QByteArray("kind: LimitRange\nspec:\n  limits: {type: Pod}\n") << "spec.limits" << 3;
    QTest::newRow("item not a map") << QByteArray("kind: LimitRange\nspec:\n  limits:\n  - Pod\n")
                                    << "spec.limits[0]" << 4;
    QTest::newRow("type not a string")
        << QByteArray("kind: LimitRange\nspec:\n  limits:\n  - type: [Pod]\n") << "spec.limits[0].type" << 4;
    QTest::newRow("wrong kind") << QByteArray("kind: ResourceQuota\n") << "kind" << 1;
}

void TestLimitRangeSpec::strictErrors() {
    QFETCH(QByteArray, yaml);
    QFETCH(QString, field);
    QFETCH(int, line);
    auto lr = LimitRangeSpec::fromYaml(yaml);
    QVERIFY(!lr);
    QCOMPARE(lr.error().field, field);
    QCOMPARE(lr.error().line, line);
}

void TestLimitRangeSpec::fromScratch() {
    LimitRangeSpec lr;
    lr.meta.name = QStringLiteral("gpu");
    LimitRangeItem item;
    item.type = QStringLiteral("Container");
    item.defaultLimit.set(QStringLiteral("nvidia.com/gpu"), q("1"));
    item.defaultRequest.set(QStringLiteral("nvidia.com/gpu"), q("1"));
    lr.limits << item;
    QCOMPARE(lr.toYaml(),
             QByteArray("apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: gpu\nspec:\n  limits:\n"
                        "    - type: Container\n      default:\n        nvidia.com/gpu: 1\n"
                        "      defaultRequest:\n        nvidia.com/gpu: 1\n"));
}

QTEST_GUILESS_MAIN(TestLimitRangeSpec)
#include "tst_limitrangespec.moc"
