// The enforcer against another owner of a quota (issue #26): ClampBackoff's back-off and
// one report per episode, judged from metadata.managedFields; a scoped quota clamped by
// its own status.used; "effective" only when status.hard shows the clamp. The real API
// server's managedFields end to end: tst_realcluster_gitops.
#include "services/controller/budgetenforcer.h"
#include "services/controller/clampbackoff.h"
#include "services/controller/clampplan.h"
#include "services/controller/clampscope.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gq;

namespace {

const QString kGpu = QStringLiteral("requests.nvidia.com/gpu");

QJsonObject quotaOwnedBy(const char *manager, const char *operation) {
    const QJsonObject fields{
        {QStringLiteral("f:spec"),
         QJsonObject{{QStringLiteral("f:hard"),
                      QJsonObject{{QStringLiteral("f:requests.nvidia.com/gpu"), QJsonObject{}}}}}}};
    const QJsonObject entry{{QStringLiteral("manager"), QLatin1String(manager)},
                            {QStringLiteral("operation"), QLatin1String(operation)},
                            {QStringLiteral("fieldsType"), QStringLiteral("FieldsV1")},
                            {QStringLiteral("fieldsV1"), fields}};
    return QJsonObject{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("gpus")},
                                                 {QStringLiteral("namespace"), QStringLiteral("team-a")},
                                                 {QStringLiteral("managedFields"), QJsonArray{entry}}}},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("hard"), QJsonObject{{kGpu, QStringLiteral("8")}}}}}};
}

} // namespace

class TestClampBackoff : public QObject {
    Q_OBJECT

private slots:
    void delays() {
        QCOMPARE(ClampBackoff::delay(1), 0);
        QCOMPARE(ClampBackoff::delay(2), 60);
        QCOMPARE(ClampBackoff::delay(3), 120);
        QCOMPARE(ClampBackoff::delay(7), 1920);
        QCOMPARE(ClampBackoff::delay(8), 3600);
        QCOMPARE(ClampBackoff::delay(50), 3600);
    }

    // Argo CD undoes the clamp on every sync: the first undo is written back at once and
    // reported; the next one waits a minute, then two; ticks in between write nothing.
    void gitOpsRevertBacksOffAndReportsOnce() {
        ClampBackoff b;
        const QJsonObject q = quotaOwnedBy("argocd-controller", "Apply");
        const QString key = ClampBackoff::keyOf(q);
        QCOMPARE(key, QStringLiteral("team-a/gpus"));
        auto v = b.judge(q, {kGpu}, 1000);
        QVERIFY(v.write);
        QVERIFY(v.report);
        QCOMPARE(v.owner->manager, QStringLiteral("argocd-controller"));
        b.wrote(key);
        v = b.judge(q, {kGpu}, 1001); // reverted again
        QVERIFY(!v.write);
        QVERIFY(!v.report);
        QCOMPARE(v.reverts, 2);
        QCOMPARE(v.nextAttempt, 1061);
        for (qint64 t = 1002; t < 1061; t += 10) // every tick meanwhile: nothing written
            QVERIFY(!b.judge(q, {kGpu}, t).write);
        QVERIFY(b.isBackingOff(key, 1060));
        QVERIFY(b.judge(q, {kGpu}, 1061).write);
        b.wrote(key);
        v = b.judge(q, {kGpu}, 1070);
        QCOMPARE(v.nextAttempt, 1070 + 120);
        QVERIFY(!v.report);
        b.forget(key); // lifted: a new episode reports again
        QVERIFY(b.judge(q, {kGpu}, 5000).report);
    }

    // An admin's kubectl edit is adopted and clamped again at once, without an alert;
    // only an edit that keeps coming back is a fight.
    void kubectlEditIsAnAdminsEdit() {
        ClampBackoff b;
        const QJsonObject q = quotaOwnedBy("kubectl-edit", "Update");
        auto v = b.judge(q, {kGpu}, 1000);
        QVERIFY(v.write);
        QVERIFY(!v.report);
        b.wrote(ClampBackoff::keyOf(q));
        v = b.judge(q, {kGpu}, 1010);
        QVERIFY(!v.write);
        QVERIFY(v.report);
    }

    // No managedFields (an edit by our own manager, or a server that keeps none): the edit
    // rule as it always was.
    void noForeignOwnerNeverBacksOff() {
        ClampBackoff b;
        const QJsonObject q = quotaOwnedBy("gpuquota", "Update");
        for (int i = 0; i < 5; ++i) {
            const auto v = b.judge(q, {kGpu}, 1000 + i);
            QVERIFY(v.write);
            QVERIFY(!v.report);
            b.wrote(ClampBackoff::keyOf(q));
        }
    }

    // A scoped quota counts only its scope: the clamp holds it to its own status.used.
    void scopedQuotaIsClampedByItsOwnUse() {
        const QJsonObject scoped =
            QJsonDocument::fromJson(
                R"({"metadata":{"name":"high","namespace":"a"},)"
                R"("spec":{"hard":{"requests.nvidia.com/gpu":"8"},)"
                R"("scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In","values":["high"]}]}},)"
                R"("status":{"hard":{"requests.nvidia.com/gpu":"8"},"used":{"requests.nvidia.com/gpu":"1","pods":"1"}}})")
                .object();
        QVERIFY(clampplan::isScoped(scoped));
        const QHash<QString, qint64> nsTotal{{kGpu, 5}};
        QCOMPARE(clampplan::inUseFor(scoped, nsTotal).value(kGpu), 1);
        const auto p =
            clampplan::planClamp(scoped, clampplan::inUseFor(scoped, nsTotal), 0, QStringLiteral("x"));
        QCOMPARE(p.after.value(kGpu).toString(), QStringLiteral("1"));

        QJsonObject bestEffort = scoped;
        QJsonObject spec = bestEffort.value(QLatin1String("spec")).toObject();
        spec.remove(QLatin1String("scopeSelector"));
        spec.insert(QLatin1String("scopes"), QJsonArray{QStringLiteral("NotTerminating")});
        bestEffort.insert(QLatin1String("spec"), spec);
        QVERIFY(clampplan::isScoped(bestEffort));
        spec.remove(QLatin1String("scopes"));
        bestEffort.insert(QLatin1String("spec"), spec);
        QVERIFY(!clampplan::isScoped(bestEffort));
        QCOMPARE(clampplan::inUseFor(bestEffort, nsTotal).value(kGpu), 5);
    }

    // The clamp plan names the keys someone else changed (what ClampBackoff judges).
    void planNamesTheEditedKeys() {
        const QString record =
            QStringLiteral("{\"original\":{\"requests.nvidia.com/"
                           "gpu\":\"8\"},\"clamped\":{\"requests.nvidia.com/gpu\":\"0\"}}");
        const QJsonObject q{
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("gpus")},
                         {QStringLiteral("namespace"), QStringLiteral("a")},
                         {QStringLiteral("annotations"),
                          QJsonObject{{QStringLiteral("gpuquota.io/clamp"), record}}}}},
            {QStringLiteral("spec"),
             QJsonObject{{QStringLiteral("hard"), QJsonObject{{kGpu, QStringLiteral("8")}}}}}};
        const auto p = clampplan::planClamp(q, {}, 0, QStringLiteral("x"));
        QVERIFY(p.adminEdit);
        QCOMPARE(p.editedKeys, QStringList{kGpu});
    }

    // The log line (and the alert's reason) of a revert name who undid the clamp.
    void revertedEventLine() {
        ClampEvent e;
        e.kind = ClampEvent::Kind::Reverted;
        e.ns = QStringLiteral("team-a");
        e.quota = QStringLiteral("gpus");
        e.before = QJsonObject{{kGpu, QStringLiteral("8")}};
        e.after = QJsonObject{{kGpu, QStringLiteral("0")}};
        e.revertedBy = QStringLiteral("argocd-controller");
        e.reason = QStringLiteral("backing off");
        QCOMPARE(e.line(), QStringLiteral("team-a/gpus clamp reverted by argocd-controller: "
                                          "requests.nvidia.com/gpu 8 (clamp 0) (backing off)"));
        QCOMPARE(ClampEvent::kindName(ClampEvent::Kind::Reverted), QStringLiteral("reverted"));
    }

    void effectiveOnlyWhenStatusShowsIt() {
        const QJsonObject after{{kGpu, QStringLiteral("0")}};
        QVERIFY(!clampplan::shows(QJsonObject{}, after));
        QVERIFY(!clampplan::shows(
            QJsonDocument::fromJson(R"({"status":{"hard":{"requests.nvidia.com/gpu":"8"}}})").object(),
            after));
        QVERIFY(clampplan::shows(
            QJsonDocument::fromJson(R"({"status":{"hard":{"requests.nvidia.com/gpu":"0"}}})").object(),
            after));
        QCOMPARE(clampplan::enforcementWord(false), QStringLiteral("pending enforcement"));
        QCOMPARE(clampplan::enforcementWord(true), QStringLiteral("effective"));
    }
};

QTEST_GUILESS_MAIN(TestClampBackoff)
#include "tst_clampbackoff.moc"
