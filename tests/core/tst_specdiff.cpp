// Structured diffs of QuotaSpec / LimitRangeSpec, for editors and the audit log.
#include "tests/coretestdata.h"
#include "core/domain/specdiff.h"

#include <QTest>

using namespace gq;
using gq::test::q;

namespace {
QuotaSpec quota(const char *yaml) {
    return *QuotaSpec::fromYaml(QByteArray(yaml));
}
LimitRangeSpec parseLimitRange(const char *yaml) {
    return *LimitRangeSpec::fromYaml(QByteArray(yaml));
}
} // namespace

class TestSpecDiff : public QObject {
    Q_OBJECT
private slots:
    void identicalIsEmpty();
    void quotaHard();
    void quotaScopesAndMetadata();
    void limitRange();
    void textRendering();
};

void TestSpecDiff::identicalIsEmpty() {
    const QuotaSpec a = quota("kind: ResourceQuota\nmetadata: {name: q, resourceVersion: \"1\"}\n"
                              "spec: {hard: {cpu: 1000m, pods: 2}}\nstatus: {used: {pods: 1}}\n");
    QuotaSpec b = a;
    b.hard.set(QStringLiteral("cpu"), q("1"));        // same value, other spelling
    b.meta.resourceVersion = QStringLiteral("2");     // server-managed: ignored
    b.statusUsed.set(QStringLiteral("pods"), q("2")); // status: ignored
    QVERIFY(diffQuota(a, b).isEmpty());
    QCOMPARE(diffQuota(a, b).toText(), QString());
}

void TestSpecDiff::quotaHard() {
    const QuotaSpec before = quota("kind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard:\n"
                                   "    requests.nvidia.com/gpu: 4\n    pods: 10\n    requests.cpu: 8\n");
    QuotaSpec after = before;
    after.hard.set(QStringLiteral("requests.nvidia.com/gpu"), q("8"));
    after.hard.remove(u"pods");
    after.hard.set(QStringLiteral("requests.nvidia.com/mig-1g.10gb"), q("7"));
    const SpecDiff d = diffQuota(before, after);
    QCOMPARE(d.changes.size(), 3);
    const SpecChange &c0 = d.changes[0];
    QCOMPARE(c0.kind, SpecChange::Kind::Changed);
    QCOMPARE(c0.path, QStringLiteral("spec.hard[requests.nvidia.com/gpu]"));
    QCOMPARE(c0.resource, QStringLiteral("requests.nvidia.com/gpu"));
    QCOMPARE(c0.oldValue, QStringLiteral("4"));
    QCOMPARE(c0.newValue, QStringLiteral("8"));
    QCOMPARE(*c0.oldQuantity, q("4"));
    QCOMPARE(*c0.newQuantity, q("8"));
    QCOMPARE(d.changes[1].kind, SpecChange::Kind::Added);
    QCOMPARE(d.changes[1].resource, QStringLiteral("requests.nvidia.com/mig-1g.10gb"));
    QVERIFY(!d.changes[1].oldQuantity);
    QCOMPARE(d.changes[2].kind, SpecChange::Kind::Removed);
    QCOMPARE(d.changes[2].path, QStringLiteral("spec.hard[pods]"));
    QCOMPARE(d.changes[2].oldValue, QStringLiteral("10"));
    QVERIFY(d.changes[2].newValue.isEmpty());
    // Reversed, the same facts the other way round.
    const SpecDiff r = diffQuota(after, before);
    QCOMPARE(r.changes.size(), 3);
    QCOMPARE(r.changes[0].oldValue, QStringLiteral("8"));
}

void TestSpecDiff::quotaScopesAndMetadata() {
    QuotaSpec before = quota("kind: ResourceQuota\nmetadata:\n  name: q\n  labels: {team: a}\nspec:\n"
                             "  scopes: [NotBestEffort]\n");
    QuotaSpec after = before;
    after.meta.labels.insert(QStringLiteral("team"), QStringLiteral("b"));
    after.meta.annotations.insert(QStringLiteral("why"), QStringLiteral("boost"));
    after.scopes = {QStringLiteral("NotBestEffort"), QStringLiteral("NotTerminating")};
    after.hasScopeSelector = true;
    after.scopeSelector = {{QStringLiteral("PriorityClass"), QStringLiteral("In"), {QStringLiteral("high")}}};
    const QString text = diffQuota(before, after).toText();
    QCOMPARE(text, QStringLiteral("~ metadata.labels[team]: a -> b\n"
                                  "+ metadata.annotations[why]: boost\n"
                                  "~ spec.scopes: [NotBestEffort] -> [NotBestEffort, NotTerminating]\n"
                                  "+ spec.scopeSelector: PriorityClass In [high]\n"));
}

void TestSpecDiff::limitRange() {
    const LimitRangeSpec before =
        parseLimitRange("kind: LimitRange\nmetadata: {name: l}\nspec:\n  limits:\n  - type: Container\n"
                        "    default: {nvidia.com/gpu: 1}\n    defaultRequest: {nvidia.com/gpu: 1}\n"
                        "  - type: Pod\n    max: {cpu: 4}\n");
    LimitRangeSpec after = before;
    after.limits[0].defaultLimit.set(QStringLiteral("nvidia.com/gpu"), q("2"));
    after.limits[0].defaultRequest.set(QStringLiteral("nvidia.com/gpu"), q("2"));
    after.limits.removeLast();
    LimitRangeItem pvc;
    pvc.type = QStringLiteral("PersistentVolumeClaim");
    pvc.max.set(QStringLiteral("storage"), q("10Gi"));
    after.limits << pvc;
    const SpecDiff d = diffLimitRange(before, after);
    QCOMPARE(d.toText(), QStringLiteral("~ spec.limits[0].default[nvidia.com/gpu]: 1 -> 2\n"
                                        "~ spec.limits[0].defaultRequest[nvidia.com/gpu]: 1 -> 2\n"
                                        "~ spec.limits[1].type: Pod -> PersistentVolumeClaim\n"
                                        "+ spec.limits[1].max[storage]: 10Gi\n"
                                        "- spec.limits[1].max[cpu]: 4\n"));
    QCOMPARE(d.changes[0].resource, QStringLiteral("nvidia.com/gpu"));
    LimitRangeSpec shorter = before;
    shorter.limits.removeLast();
    const SpecDiff removed = diffLimitRange(before, shorter);
    QCOMPARE(removed.changes.size(), 1);
    QCOMPARE(removed.changes[0].kind, SpecChange::Kind::Removed);
    QCOMPARE(removed.changes[0].path, QStringLiteral("spec.limits[1]"));
    QCOMPARE(removed.changes[0].oldValue, QStringLiteral("type=Pod max={cpu=4}"));
    QCOMPARE(diffLimitRange(shorter, before).changes[0].kind, SpecChange::Kind::Added);
}

void TestSpecDiff::textRendering() {
    QCOMPARE(changeKindSymbol(SpecChange::Kind::Added), QStringLiteral("+"));
    QCOMPARE(changeKindSymbol(SpecChange::Kind::Removed), QStringLiteral("-"));
    QCOMPARE(changeKindSymbol(SpecChange::Kind::Changed), QStringLiteral("~"));
}

QTEST_GUILESS_MAIN(TestSpecDiff)
#include "tst_specdiff.moc"
