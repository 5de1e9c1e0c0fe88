// BudgetEnforcer end to end: namespace budgets spent in the usage database (SQLite, or
// PostgreSQL from GQ_TEST_PG_URL) clamp ResourceQuotas on the real test cluster, so
// the next GPU pod is refused by the API server (`kubectl create`: exceeded quota);
// the rollover (a pinned `now`), a raised budget and an admin's edits during the clamp;
// a namespace in Terminating is left alone.
#include "core/usage/auditanchor.h"
#include "core/usage/auditlog.h"
#include "services/controller/budgetenforcer.h"
#include "core/usage/usagestore.h"

#include "tests/kube/kubeclienttestutil.h"
#include "tests/usage/usagebackend.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gq;
using namespace gq::test;

namespace {
const QString kGpu = QStringLiteral("requests.nvidia.com/gpu");
// 2026-12-01 12:00:00 UTC, and the next day just after midnight.
constexpr qint64 kNoon = 1796126400;
constexpr qint64 kDayStart = kNoon - 12 * 3600;
constexpr qint64 kNextDay = kDayStart + 86400 + 30;
} // namespace

class TestBudgetEnforcer : public QObject {
    Q_OBJECT

private:
    UsageTestBackend m_backend{"gq_enforce"};
    std::unique_ptr<TestClusterProcess> m_cluster;
    std::shared_ptr<KubeClient> m_client;
    std::unique_ptr<UsageStore> m_store;
    QString m_url;
    int m_counter = 0;

    ToolRun kubectl(const QStringList &args) {
        return runTool(QStringLiteral("kubectl"),
                       QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath()} + args);
    }
    ToolRun applyYaml(const QString &yaml) {
        const QString file = writeFile(
            m_cluster->temporaryDir() + QStringLiteral("/obj-%1.yaml").arg(++m_counter), yaml.toUtf8());
        return kubectl({QStringLiteral("create"), QStringLiteral("-f"), file});
    }
    // A namespace (with a quota of `gpus` when > 0) and one running pod holding 2 GPUs.
    QString makeNamespace(int gpus) {
        const QString ns = QStringLiteral("enf-%1").arg(++m_counter);
        QString yaml = QStringLiteral("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %1\n").arg(ns);
        if (gpus > 0)
            yaml += QStringLiteral("---\napiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpu-quota\n"
                                   "  namespace: %1\nspec:\n  hard:\n    requests.nvidia.com/gpu: \"%2\"\n"
                                   "    pods: \"50\"\n")
                        .arg(ns)
                        .arg(gpus);
        const ToolRun k = applyYaml(yaml);
        if (k.exitCode != 0)
            qWarning("kubectl create: %s", k.err.constData());
        const ToolRun p = createPod(ns, QStringLiteral("running-1"), 2);
        if (p.exitCode != 0)
            qWarning("kubectl create pod: %s", p.err.constData());
        return ns;
    }
    ToolRun createPod(const QString &ns, const QString &name, int gpus) {
        return applyYaml(QStringLiteral("apiVersion: v1\nkind: Pod\nmetadata:\n  name: %1\n  namespace: %2\n"
                                        "spec:\n  containers:\n  - name: main\n    image: cuda:12\n"
                                        "    resources:\n      limits: {nvidia.com/gpu: %3}\n"
                                        "      requests: {nvidia.com/gpu: %3}\n")
                             .arg(name, ns)
                             .arg(gpus));
    }
    // `hours` GPU-hours of the namespace on the day, on 4 GPUs, ended before noon.
    UsageInterval spent(const QString &ns, double hours, qint64 dayStart = kDayStart) {
        UsageInterval iv;
        iv.cluster = QStringLiteral("test");
        iv.ns = ns;
        iv.user = QStringLiteral("alice");
        iv.podUid = QStringLiteral("uid-%1-%2").arg(ns).arg(++m_counter);
        iv.podName = QStringLiteral("done");
        iv.gpus = 4;
        iv.start = dayStart + 3600;
        iv.end = iv.start + qint64(hours * 3600 / 4);
        iv.source = QStringLiteral("test");
        return iv;
    }
    // ... recorded in the store.
    void spend(const QString &ns, double hours, qint64 dayStart = kDayStart) {
        auto r = m_store->upsertInterval(spent(ns, hours, dayStart));
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
    }
    void setBudget(const QString &ns, double limit) {
        Budget b;
        b.scope = BudgetScope::Namespace;
        b.subject = ns;
        b.period = Period::Day;
        b.limitGpuHours = limit;
        auto r = m_store->setBudget(b);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
    }
    QJsonObject quota(const QString &ns, const QString &name = QStringLiteral("gpu-quota")) {
        auto r = await(m_client->get(KubeResource::resourceQuotas(), ns, name));
        return r ? *r : QJsonObject{};
    }
    static QString hardGpus(const QJsonObject &q) {
        return q.value(QLatin1String("spec"))
            .toObject()
            .value(QLatin1String("hard"))
            .toObject()
            .value(kGpu)
            .toString();
    }
    static QString clampAnnotation(const QJsonObject &q) {
        return q.value(QLatin1String("metadata"))
            .toObject()
            .value(QLatin1String("annotations"))
            .toObject()
            .value(clampplan::kAnnotation)
            .toString();
    }
    EnforceReport tick(qint64 now) {
        BudgetEnforcer enforcer(*m_store, m_client);
        return enforcer.runNow(now);
    }

private slots:
    void initTestCase() {
        GQ_PREPARE_USAGE_BACKEND(m_backend);
        m_cluster = std::make_unique<TestClusterProcess>();
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        auto c = adminClient(*m_cluster);
        QVERIFY2(c, qPrintable(c ? QString() : c.error().toString()));
        m_client = *c;
    }
    void init() {
        m_url = m_backend.freshUrl();
        auto s = UsageStore::open(m_url);
        QVERIFY2(s, qPrintable(s ? QString() : s.error().toString()));
        m_store = std::move(*s);
    }
    void cleanup() {
        m_store.reset();
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }
    void cleanupTestCase() {
        m_client.reset();
        m_cluster.reset();
    }

    void exhaustedBudgetClampsUntilRollover() {
        const QString ns = makeNamespace(8);
        setBudget(ns, 8);
        spend(ns, 6);
        QVERIFY(createPod(ns, QStringLiteral("fits"), 1).exitCode == 0);
        EnforceReport r = tick(kNoon);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(r.events.size(), 0); // 6 of 8 GPU-h: nothing to do
        QCOMPARE(hardGpus(quota(ns)), QStringLiteral("8"));

        spend(ns, 2); // 8 of 8 GPU-h
        QList<ClampEvent> heard;
        BudgetEnforcer enforcer(*m_store, m_client);
        enforcer.addListener([&heard](const ClampEvent &e) { heard << e; });
        r = enforcer.runNow(kNoon);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(r.events.size(), 1);
        QCOMPARE(heard.size(), 1);
        QCOMPARE(heard[0].kind, ClampEvent::Kind::Applied);
        QCOMPARE(heard[0].ns, ns);
        QCOMPARE(heard[0].before.value(kGpu).toString(), QStringLiteral("8"));
        QCOMPARE(heard[0].after.value(kGpu).toString(), QStringLiteral("3")); // 2 + 1 GPUs in use
        QJsonObject q = quota(ns);
        QCOMPARE(hardGpus(q), QStringLiteral("3"));
        const QJsonObject record = QJsonDocument::fromJson(clampAnnotation(q).toUtf8()).object();
        QCOMPARE(record.value(QLatin1String("original")).toObject().value(kGpu).toString(),
                 QStringLiteral("8"));
        QCOMPARE(record.value(QLatin1String("at")).toString(), QStringLiteral("2026-12-01T12:00:00Z"));
        QVERIFY(record.value(QLatin1String("reason")).toString().contains(QLatin1String("8.00")));

        // The API server itself refuses the next GPU pod.
        ToolRun k = createPod(ns, QStringLiteral("refused"), 1);
        QVERIFY(k.exitCode != 0);
        QVERIFY2(k.err.contains("exceeded quota"), k.err.constData());

        // A repeated tick changes nothing.
        r = tick(kNoon + 60);
        QVERIFY(r.ok());
        QCOMPARE(r.events.size(), 0);

        AuditLog audit(*m_store);
        AuditLog::Filter f;
        f.action = QStringLiteral("quota.clamp");
        auto entries = audit.list(f);
        QVERIFY(entries);
        QCOMPARE(entries->size(), 1);
        QCOMPARE(entries->first().actor, QStringLiteral("gpuquota-controller"));
        QCOMPARE(entries->first().target, ns + QStringLiteral("/ResourceQuota/gpu-quota"));

        // The next day the budget allows work again: the admin's 8 is back.
        r = tick(kNextDay);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(r.events.size(), 1);
        QCOMPARE(r.events[0].kind, ClampEvent::Kind::Lifted);
        q = quota(ns);
        QCOMPARE(hardGpus(q), QStringLiteral("8"));
        QVERIFY(clampAnnotation(q).isEmpty());
        k = createPod(ns, QStringLiteral("admitted"), 1);
        QVERIFY2(k.exitCode == 0, k.err.constData());
        f.action = QStringLiteral("quota.unclamp");
        QCOMPARE(audit.list(f)->size(), 1);
    }

    void weightedGpuModelHoursClamp() {
        // The controller's store writes each interval with its GPU model's weight.
        const QString h100 = QStringLiteral("NVIDIA H100 80GB HBM3");
        UsageStore::Options o;
        o.weights.setModel(h100, 2.0);
        auto recorder = UsageStore::open(m_url, o);
        QVERIFY2(recorder, qPrintable(recorder ? QString() : recorder.error().toString()));
        auto spendOn = [&](const QString &ns, const QString &model) {
            UsageInterval iv = spent(ns, 4); // 4 GPU-h raw
            iv.node = QStringLiteral("gpu-node");
            iv.gpuModel = model;
            auto r = (*recorder)->upsertInterval(iv);
            QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        };
        // 4 GPU-h on H100s count 8 of an 8 GPU-h budget; the same on T4s (no weight) 4.
        const QString onH100 = makeNamespace(8);
        const QString onT4 = makeNamespace(8);
        setBudget(onH100, 8);
        setBudget(onT4, 8);
        spendOn(onH100, h100);
        spendOn(onT4, QStringLiteral("Tesla T4"));
        auto st = m_store->budgetStatus(BudgetScope::Namespace, onH100, kNoon);
        QVERIFY(st);
        QCOMPARE(st->first().used, 8.0);
        QCOMPARE(st->first().usedRaw, 4.0);

        EnforceReport r = tick(kNoon);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(r.events.size(), 1);
        QCOMPARE(r.events[0].ns, onH100);
        QCOMPARE(r.events[0].kind, ClampEvent::Kind::Applied);
        QVERIFY2(r.events[0].reason.contains(QLatin1String("8.00")), qPrintable(r.events[0].reason));
        QCOMPARE(hardGpus(quota(onH100)), QStringLiteral("2")); // the running pod's 2 GPUs
        QCOMPARE(hardGpus(quota(onT4)), QStringLiteral("8"));
        ToolRun k = createPod(onH100, QStringLiteral("refused"), 1);
        QVERIFY(k.exitCode != 0);
        QVERIFY2(k.err.contains("exceeded quota"), k.err.constData());
        k = createPod(onT4, QStringLiteral("admitted"), 1);
        QVERIFY2(k.exitCode == 0, k.err.constData());
    }

    void clampPublishesTheAuditHead() {
        // An entry before the clamp (an admin's budget change), so the head is not empty.
        AuditLog audit(*m_store);
        const QString ns = makeNamespace(8);
        QVERIFY(audit.append(QStringLiteral("admin"), QStringLiteral("budget.set"),
                             QStringLiteral("namespace/") + ns, {}, QStringLiteral("8/day"), {}));
        setBudget(ns, 8);
        spend(ns, 9);
        auto before = audit.head();
        QVERIFY(before);
        QCOMPARE(before->count, qint64(1));
        // (Clamps other tests left on the shared cluster are lifted in the same pass.)
        auto eventOf = [&ns](const EnforceReport &rep) {
            for (const ClampEvent &e : rep.events)
                if (e.ns == ns)
                    return e;
            return ClampEvent{};
        };
        EnforceReport r = tick(kNoon);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(eventOf(r).ns, ns);
        QCOMPARE(eventOf(r).kind, ClampEvent::Kind::Applied);
        QJsonObject q = quota(ns);
        QCOMPARE(hardGpus(q), QStringLiteral("2"));
        // The clamp's PUT carries the head as it stood at the write (the budget entry,
        // and lifts of other namespaces before it in this pass); the clamp's own entry
        // is the next one, written once the PUT succeeded.
        auto entryFor = [&audit, &ns](const QString &action) {
            AuditLog::Filter f;
            f.action = action;
            auto list = audit.list(f);
            if (list)
                for (const AuditEntry &e : *list)
                    if (e.target.startsWith(ns + QLatin1Char('/')))
                        return e;
            return AuditEntry{};
        };
        std::optional<AuditHead> published = auditHeadOf(q);
        QVERIFY(published);
        QVERIFY(published->count >= before->count);
        const AuditEntry clamp = entryFor(QStringLiteral("quota.clamp"));
        QCOMPARE(clamp.seq, published->count + 1);
        QCOMPARE(clamp.prevHash, published->hash);

        // Raising the budget lifts the clamp: that PUT carries the head with the clamp's entry.
        setBudget(ns, 20);
        r = tick(kNoon + 60);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(eventOf(r).ns, ns);
        QCOMPARE(eventOf(r).kind, ClampEvent::Kind::Lifted);
        q = quota(ns);
        QCOMPARE(hardGpus(q), QStringLiteral("8"));
        published = auditHeadOf(q);
        QVERIFY(published);
        QVERIFY(published->count >= clamp.seq); // the clamp's entry is anchored now
        const AuditEntry unclamp = entryFor(QStringLiteral("quota.unclamp"));
        QCOMPARE(unclamp.seq, published->count + 1);
        QCOMPARE(unclamp.prevHash, published->hash);
        // And the log verifies against what the quota published.
        AuditAnchor anchor;
        anchor.head = *published;
        auto v = audit.verifyChain(anchor);
        QVERIFY2(v, qPrintable(v ? QString() : v.error().toString()));
        QVERIFY2(v->ok, qPrintable(v->problem));
        QCOMPARE(v->anchoredUpTo, published->count);
    }

    void adminEditDuringClampWins() {
        const QString ns = makeNamespace(8);
        setBudget(ns, 8);
        spend(ns, 9);
        QVERIFY(tick(kNoon).ok());
        QCOMPARE(hardGpus(quota(ns)), QStringLiteral("2"));

        // The admin raises the quota while clamped; the next tick keeps enforcing but
        // records 12 as the value to restore.
        auto patch = [&](const char *value) {
            return kubectl({QStringLiteral("patch"), QStringLiteral("resourcequota"),
                            QStringLiteral("gpu-quota"), QStringLiteral("-n"), ns,
                            QStringLiteral("--type=merge"), QStringLiteral("-p"),
                            QStringLiteral("{\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"%1\"}}}")
                                .arg(QLatin1String(value))});
        };
        QCOMPARE(patch("12").exitCode, 0);
        EnforceReport r = tick(kNoon + 600);
        QVERIFY(r.ok());
        QCOMPARE(r.events.size(), 1);
        QCOMPARE(r.events[0].kind, ClampEvent::Kind::Adjusted);
        QVERIFY(r.events[0].adminEdit);
        QCOMPARE(hardGpus(quota(ns)), QStringLiteral("2"));

        // Edited again, and the rollover comes before any tick: that value stays.
        QCOMPARE(patch("10").exitCode, 0);
        r = tick(kNextDay);
        QVERIFY(r.ok());
        QCOMPARE(r.events.size(), 1);
        QVERIFY(r.events[0].adminEdit);
        QCOMPARE(hardGpus(quota(ns)), QStringLiteral("10"));
        QVERIFY(clampAnnotation(quota(ns)).isEmpty());

        // Once more, edited during the clamp and then adopted by a tick: 12 comes back.
        spend(ns, 9, kNextDay - 30);
        QVERIFY(tick(kNextDay + 5 * 3600).ok());
        QCOMPARE(hardGpus(quota(ns)), QStringLiteral("2"));
        QCOMPARE(patch("12").exitCode, 0);
        QVERIFY(tick(kNextDay + 5 * 3600 + 60).ok());
        QCOMPARE(hardGpus(quota(ns)), QStringLiteral("2"));
        // A raised budget lifts the clamp; the admin's 12 is restored, not the stale 10.
        setBudget(ns, 100);
        r = tick(kNextDay + 5 * 3600 + 120);
        QCOMPARE(r.events.size(), 1);
        QCOMPARE(r.events[0].kind, ClampEvent::Kind::Lifted);
        QCOMPARE(hardGpus(quota(ns)), QStringLiteral("12"));
    }

    void namespaceWithoutQuotaGetsOneForTheClamp() {
        const QString ns = makeNamespace(0);
        setBudget(ns, 4);
        spend(ns, 5);
        EnforceReport r = tick(kNoon);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(r.events.size(), 1);
        QVERIFY(r.events[0].createdQuota);
        const QJsonObject q = quota(ns, clampplan::kCreatedName);
        QCOMPARE(hardGpus(q), QStringLiteral("2"));
        QCOMPARE(q.value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("labels"))
                     .toObject()
                     .value(clampplan::kManagedByLabel)
                     .toString(),
                 clampplan::kManagedByValue);
        const ToolRun k = createPod(ns, QStringLiteral("refused"), 1);
        QVERIFY2(k.err.contains("exceeded quota"), k.err.constData());
        QCOMPARE(tick(kNoon + 30).events.size(), 0);

        // Deleting the budget lifts it too: the created quota goes away.
        QVERIFY(m_store->deleteBudget(BudgetScope::Namespace, ns));
        r = tick(kNoon + 60);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(r.events.size(), 1);
        QCOMPARE(r.events[0].kind, ClampEvent::Kind::Lifted);
        auto gone = await(m_client->get(KubeResource::resourceQuotas(), ns, clampplan::kCreatedName));
        QVERIFY(!gone);
        QCOMPARE(gone.error().kind, Error::Kind::NotFound);
    }

    void twoReplicasClampOnce() {
        const QString ns = makeNamespace(8);
        setBudget(ns, 8);
        spend(ns, 8);
        auto other = UsageStore::open(m_url);
        QVERIFY2(other, qPrintable(other ? QString() : other.error().toString()));
        BudgetEnforcer a(*m_store, m_client);
        BudgetEnforcer b(**other, m_client);
        QList<EnforceReport> reports;
        connect(&a, &BudgetEnforcer::finished, this, [&](const EnforceReport &r) { reports << r; });
        connect(&b, &BudgetEnforcer::finished, this, [&](const EnforceReport &r) { reports << r; });
        QVERIFY(a.tick(kNoon));
        QVERIFY(b.tick(kNoon));
        QTRY_COMPARE_WITH_TIMEOUT(reports.size(), 2, 60000);
        QVERIFY2(reports[0].ok() && reports[1].ok(),
                 qPrintable((reports[0].errors + reports[1].errors).join(QLatin1Char('\n'))));
        QCOMPARE(reports[0].events.size() + reports[1].events.size(), 1);
        QCOMPARE(hardGpus(quota(ns)), QStringLiteral("2"));
        AuditLog audit(*m_store);
        AuditLog::Filter f;
        f.action = QStringLiteral("quota.clamp");
        QCOMPARE(audit.list(f)->size(), 1);
    }

    void terminatingNamespaceIsSkipped() {
        const QString ns = makeNamespace(8);
        setBudget(ns, 8);
        spend(ns, 8); // spent: a clamp would be due
        // A finalizer of someone else's keeps the deleted namespace in Terminating.
        ToolRun k = kubectl({QStringLiteral("patch"), QStringLiteral("namespace"), ns,
                             QStringLiteral("--type=merge"), QStringLiteral("-p"),
                             QStringLiteral(R"({"metadata":{"finalizers":["example.com/hold"]}})")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        k = kubectl(
            {QStringLiteral("delete"), QStringLiteral("namespace"), ns, QStringLiteral("--wait=false")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        k = kubectl({QStringLiteral("get"), QStringLiteral("namespace"), ns, QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.status.phase}")});
        QCOMPARE(k.out, QByteArray("Terminating"));
        // As the real API server: no new content there.
        k = createPod(ns, QStringLiteral("late"), 1);
        QVERIFY(k.exitCode != 0);
        const QByteArray refused = "is forbidden: unable to create new content in namespace " + ns.toUtf8() +
                                   " because it is being terminated";
        QVERIFY2(k.err.contains(refused), k.err.constData());

        int skippedLines = 0;
        static int *counter = nullptr;
        static QtMessageHandler previous = nullptr;
        counter = &skippedLines;
        previous = qInstallMessageHandler([](QtMsgType t, const QMessageLogContext &c, const QString &m) {
            if (m.contains(QLatin1String("namespace is Terminating")))
                ++*counter;
            previous(t, c, m);
        });
        BudgetEnforcer enforcer(*m_store, m_client);
        EnforceReport r = enforcer.runNow(kNoon);
        EnforceReport again = enforcer.runNow(kNoon + 60);
        qInstallMessageHandler(previous);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(QLatin1Char('\n')))); // no 403 tried
        QVERIFY(again.ok());
        for (const ClampEvent &e : std::as_const(r.events)) // earlier tests' clamps are lifted
            QVERIFY(e.ns != ns);
        QVERIFY(r.terminating.contains(ns));
        QVERIFY(again.terminating.contains(ns));
        QCOMPARE(skippedLines, 1); // logged once, not every tick

        // The last finalizer removed: the namespace is gone.
        k = kubectl({QStringLiteral("patch"), QStringLiteral("namespace"), ns, QStringLiteral("--type=merge"),
                     QStringLiteral("-p"), QStringLiteral(R"({"metadata":{"finalizers":null}})")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        k = kubectl({QStringLiteral("get"), QStringLiteral("namespace"), ns});
        QVERIFY(k.exitCode != 0);
        QVERIFY2(k.err.contains("NotFound") || k.err.contains("not found"), k.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestBudgetEnforcer)
#include "tst_budgetenforcer.moc"
