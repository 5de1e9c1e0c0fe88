// Another owner of a quota on the real API server (issue #26, items 3 and 7): a ResourceQuota
// applied by "Argo CD" (`kubectl apply --server-side --field-manager=argocd-controller`,
// forced as Argo CD's server-side apply is), whose metadata.managedFields the real
// kube-apiserver keeps. The clamp is undone by the re-apply: the enforcer reports it once
// (one Reverted event, one audit entry), writes the clamp again at most after its
// back-off, not every tick; `gpuquota get quotas` names the manager; a boost reverted by
// the re-apply takes nothing back when it ends. A scoped quota (scopeSelector on a
// PriorityClass) is clamped to what its own scope holds (its status.used).
#include "core/usage/auditlog.h"
#include "services/boosts/boostreconciler.h"
#include "services/controller/budgetenforcer.h"
#include "core/kube/kubeclient.h"
#include "tests/realcluster/realcluster.h"
#include "core/usage/usagestore.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QTimeZone>
#include <QtTest>

using namespace gq;
using namespace gq::test;

class TestRealClusterGitOps : public QObject {
    Q_OBJECT

    RealCluster m_cluster;
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<UsageStore> m_store;
    std::shared_ptr<KubeClient> m_client;
    qint64 m_now = 0;
    int m_files = 0;

    ToolRun gq(const QStringList &args) {
        return runTool(qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota"), args);
    }
    // What Argo CD does on a sync: a forced server-side apply of the declared object.
    ToolRun argoApply(const QString &ns, const QString &name, int gpus) {
        const QString f = writeFile(
            m_dir.filePath(QStringLiteral("argo-%1.yaml").arg(++m_files)),
            QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: %1, namespace: %2}\n"
                           "spec:\n  hard: {requests.nvidia.com/gpu: \"%3\", pods: \"20\"}\n")
                .arg(name, ns)
                .arg(gpus)
                .toUtf8());
        return m_cluster.kubectl(
            {QStringLiteral("apply"), QStringLiteral("--server-side"), QStringLiteral("--force-conflicts"),
             QStringLiteral("--field-manager=argocd-controller"), QStringLiteral("-f"), f});
    }
    QString hard(const QString &ns, const QString &name, const QString &part = QStringLiteral("spec")) {
        return QString::fromUtf8(
            m_cluster
                .kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), name, QStringLiteral("-n"),
                          ns, QStringLiteral("-o"),
                          QStringLiteral("jsonpath={.%1.hard.requests\\.nvidia\\.com/gpu}").arg(part)})
                .out);
    }
    ToolRun budgetZero(const QString &ns) {
        return gq({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), m_db,
                   QStringLiteral("--period"), QStringLiteral("day"), QStringLiteral("--namespace"), ns,
                   QStringLiteral("--limit"), QStringLiteral("0")});
    }
    static int writes(const EnforceReport &r, const QString &ns) {
        int n = 0;
        for (const ClampEvent &e : r.events)
            n += e.ns == ns && (e.kind == ClampEvent::Kind::Applied || e.kind == ClampEvent::Kind::Adjusted);
        return n;
    }
    static int reverted(const EnforceReport &r, const QString &ns) {
        int n = 0;
        for (const ClampEvent &e : r.events)
            n += e.ns == ns && e.kind == ClampEvent::Kind::Reverted;
        return n;
    }
    QList<AuditEntry> audit(const QString &action) {
        AuditLog::Filter f;
        f.action = action;
        auto l = AuditLog(*m_store).list(f);
        return l ? *l : QList<AuditEntry>{};
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        QVERIFY(m_dir.isValid());
        GQ_START_REAL_CLUSTER(m_cluster);
        m_db = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
        auto store = UsageStore::open(m_db);
        QVERIFY2(store, store ? "" : qPrintable(store.error().message));
        m_store = std::move(*store);
        auto client = KubeClient::fromKubeconfig(m_cluster.kubeconfigPath(), QStringLiteral("admin"));
        QVERIFY2(client, client ? "" : qPrintable(client.error().message));
        m_client = *client;
        for (const char *ns : {"team-git", "team-boost", "team-scoped"})
            QVERIFY(m_cluster.createNamespace(QLatin1String(ns)));
        m_now = QDateTime::currentSecsSinceEpoch();
    }

    // Argo CD owns the key; the clamp is undone on every sync. Seven ticks, two syncs:
    // three clamp writes (the clamp, once after the first undo, once after the first
    // minute of back-off), one Reverted event, one audit entry.
    void clampBacksOffFromGitOps() {
        const QString ns = QStringLiteral("team-git");
        QCOMPARE(argoApply(ns, QStringLiteral("gpus"), 8).exitCode, 0);
        QVERIFY2(budgetZero(ns).exitCode == 0, "budget set");
        BudgetEnforcer enforcer(*m_store, m_client);
        int written = 0, reports = 0;
        EnforceReport r = enforcer.runNow(m_now);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
        written += writes(r, ns);
        QCOMPARE(written, 1);
        QCOMPARE(hard(ns, QStringLiteral("gpus")), QStringLiteral("0"));
        const auto first = audit(QStringLiteral("quota.clamp"));
        QCOMPARE(first.size(), 1);
        QVERIFY2(first[0].note.contains(QLatin1String("pending enforcement")), qPrintable(first[0].note));

        QCOMPARE(argoApply(ns, QStringLiteral("gpus"), 8).exitCode, 0); // the sync undoes it
        QCOMPARE(hard(ns, QStringLiteral("gpus")), QStringLiteral("8"));
        r = enforcer.runNow(m_now + 1);
        written += writes(r, ns);
        reports += reverted(r, ns);
        QCOMPARE(reports, 1);
        const auto revert = std::find_if(r.events.begin(), r.events.end(), [](const ClampEvent &e) {
            return e.kind == ClampEvent::Kind::Reverted;
        });
        QCOMPARE(revert->revertedBy, QStringLiteral("argocd-controller"));
        QCOMPARE(written, 2); // written back once, as an admin's edit is

        QCOMPARE(argoApply(ns, QStringLiteral("gpus"), 8).exitCode, 0); // and undone again
        for (int t = 2; t < 7; ++t) {
            r = enforcer.runNow(m_now + t);
            QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
            written += writes(r, ns);
            reports += reverted(r, ns);
            QVERIFY(r.backingOff.contains(QStringLiteral("team-git/gpus")));
        }
        QCOMPARE(written, 2);
        QCOMPARE(reports, 1);
        QCOMPARE(hard(ns, QStringLiteral("gpus")), QStringLiteral("8"));
        r = enforcer.runNow(m_now + 2 + 60); // a minute after the second undo was seen
        written += writes(r, ns);
        reports += reverted(r, ns);
        QCOMPARE(written, 3);
        QCOMPARE(reports, 1);
        QCOMPARE(audit(QStringLiteral("quota.clamp.reverted")).size(), 1);
        QVERIFY(audit(QStringLiteral("quota.clamp.reverted"))[0].note.contains(
            QLatin1String("argocd-controller")));
    }

    // The CLI names the other owner of the key.
    void cliNamesTheManager() {
        QCOMPARE(argoApply(QStringLiteral("team-git"), QStringLiteral("gpus"), 8).exitCode, 0);
        const ToolRun r =
            gq({QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("-n"),
                QStringLiteral("team-git"), QStringLiteral("--kubeconfig"), m_cluster.kubeconfigPath(),
                QStringLiteral("--context"), QStringLiteral("admin")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(
            r.err.contains("team-git/gpus: requests.nvidia.com/gpu is managed by argocd-controller (Apply): "
                           "a change of it is reverted on its next sync"),
            r.err.constData());
    }

    // +4 on 8 by a boost; the sync puts 8 back; the expiry takes nothing back (not 8 - 4).
    void boostExpiryTakesNothingBackAfterARevert() {
        const QString ns = QStringLiteral("team-boost");
        QCOMPARE(argoApply(ns, QStringLiteral("gpus"), 8).exitCode, 0);
        const QString now = QDateTime::fromSecsSinceEpoch(m_now, QTimeZone::utc()).toString(Qt::ISODate);
        ToolRun g = gq({QStringLiteral("boost"),        QStringLiteral("grant"),
                        QStringLiteral("--db"),         m_db,
                        QStringLiteral("--kubeconfig"), m_cluster.kubeconfigPath(),
                        QStringLiteral("--context"),    QStringLiteral("admin"),
                        QStringLiteral("--namespace"),  ns,
                        QStringLiteral("--resource"),   QStringLiteral("requests.nvidia.com/gpu"),
                        QStringLiteral("--quota"),      QStringLiteral("gpus"),
                        QStringLiteral("--add"),        QStringLiteral("4"),
                        QStringLiteral("--start"),      now,
                        QStringLiteral("--for"),        QStringLiteral("1h"),
                        QStringLiteral("--now"),        now,
                        QStringLiteral("--note"),       QStringLiteral("end-of-quarter deadline")});
        QVERIFY2(g.exitCode == 0, g.err.constData());
        QCOMPARE(hard(ns, QStringLiteral("gpus")), QStringLiteral("12"));
        QVERIFY2(g.err.contains("managed by argocd-controller"), g.err.constData()); // it will not last
        QCOMPARE(argoApply(ns, QStringLiteral("gpus"), 8).exitCode, 0);
        QCOMPARE(hard(ns, QStringLiteral("gpus")), QStringLiteral("8"));

        BoostReconciler::Options o;
        o.actor = QStringLiteral("test");
        BoostReconciler rec(*m_store, m_client, o);
        const ReconcileReport rep = rec.runNow(m_now + 3600 + 5);
        QVERIFY(rep.ok());
        QCOMPARE(rep.transitions.size(), 1);
        QCOMPARE(rep.transitions[0].to, Boost::State::Expired);
        QVERIFY2(rep.transitions[0].note.contains(QLatin1String("reverted by argocd-controller")),
                 qPrintable(rep.transitions[0].line()));
        QCOMPARE(hard(ns, QStringLiteral("gpus")), QStringLiteral("8")); // not 4
        const auto expired = audit(QStringLiteral("boost.expire"));
        QCOMPARE(expired.size(), 1);
        QVERIFY(expired[0].note.contains(QLatin1String("nothing taken back")));
        const auto applied = audit(QStringLiteral("boost.apply"));
        QCOMPARE(applied.size(), 1); // written at once: status.hard showed 8 then
        QVERIFY2(applied[0].note.contains(QLatin1String("pending enforcement")), qPrintable(applied[0].note));
    }

    // A quota scoped to PriorityClass "high" counts only those pods: clamped to 1 (its
    // status.used), not the namespace's 3; the namespace's other pods get the unscoped
    // gpuquota-budget quota, clamped to the namespace's total.
    void scopedQuotaIsClampedByItsScope() {
        const QString ns = QStringLiteral("team-scoped");
        QCOMPARE(
            m_cluster
                .apply("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\n"
                       "value: 1000\n---\napiVersion: v1\nkind: ResourceQuota\n"
                       "metadata: {name: high-gpus, namespace: team-scoped}\nspec:\n"
                       "  hard: {requests.nvidia.com/gpu: \"8\"}\n  scopeSelector:\n    matchExpressions:\n"
                       "    - {scopeName: PriorityClass, operator: In, values: [high]}\n"
                       "---\napiVersion: v1\nkind: Pod\nmetadata: {name: urgent, namespace: team-scoped}\n"
                       "spec:\n  priorityClassName: high\n  containers:\n  - name: main\n    image: cuda\n"
                       "    resources: {limits: {nvidia.com/gpu: \"1\"}}\n")
                .exitCode,
            0);
        QCOMPARE(m_cluster.createGpuPod(ns, QStringLiteral("batch"), QStringLiteral("erin"), 2).exitCode, 0);
        QVERIFY(m_cluster.waitForJsonPath(
            {QStringLiteral("resourcequota"), QStringLiteral("high-gpus"), QStringLiteral("-n"), ns},
            QStringLiteral("{.status.used.requests\\.nvidia\\.com/gpu}"), QStringLiteral("1")));
        QVERIFY2(budgetZero(ns).exitCode == 0, "budget set");
        BudgetEnforcer enforcer(*m_store, m_client);
        const EnforceReport r = enforcer.runNow(m_now + 10);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
        QCOMPARE(hard(ns, QStringLiteral("high-gpus")), QStringLiteral("1"));
        QCOMPARE(hard(ns, QStringLiteral("gpuquota-budget")), QStringLiteral("3"));
        // Admission (once kube-controller-manager copied the clamp): the namespace is full.
        QVERIFY(QTest::qWaitFor(
            [&] {
                return hard(ns, QStringLiteral("gpuquota-budget"), QStringLiteral("status")) ==
                       QLatin1String("3");
            },
            60000));
        const ToolRun again = m_cluster.createGpuPod(ns, QStringLiteral("more-2"), QStringLiteral("erin"), 1);
        QVERIFY2(again.exitCode != 0, again.out.constData());
        QVERIFY2(again.err.contains("exceeded quota: gpuquota-budget"), again.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestRealClusterGitOps)
#include "tst_realcluster_gitops.moc"
