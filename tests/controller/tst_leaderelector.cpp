// Leases on the real test cluster (create/get/update/list with resourceVersion, the
// API server's 409, `kubectl get leases`) and LeaderElector on them: one leader of
// two, a killed leader replaced within the lease duration, never two leaders at once
// (sampled from both electors and from the Lease's holder), a clean release, and a
// leader that cannot renew stepping down.
#include "services/controller/leaderelector.h"

#include "tests/kube/kubeclienttestutil.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QtTest>

using namespace gq;
using namespace gq::test;

namespace {

const KubeResource &leases() {
    static const KubeResource r{QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"),
                                QStringLiteral("leases"), QStringLiteral("Lease"), true};
    return r;
}

QString holderOf(const QJsonObject &lease) {
    return lease.value(QLatin1String("spec")).toObject().value(QLatin1String("holderIdentity")).toString();
}

LeaderElector::Options fastOptions(const QString &ns, const QString &identity) {
    LeaderElector::Options o;
    o.ns = ns;
    o.name = QStringLiteral("gpuquota-controller");
    o.identity = identity;
    o.leaseDurationSeconds = 3;
    o.renewDeadlineMs = 2000;
    o.retryPeriodMs = 250;
    return o;
}

} // namespace

class TestLeaderElector : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestClusterProcess> m_cluster;
    std::shared_ptr<KubeClient> m_client;
    int m_counter = 0;

    ToolRun kubectl(const QStringList &args) {
        return runTool(QStringLiteral("kubectl"),
                       QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath()} + args);
    }
    QString makeNamespace() {
        const QString ns = QStringLiteral("lease-%1").arg(++m_counter);
        auto r = await(m_client->create(
            KubeResource::namespaces(), {},
            QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), ns}}}}));
        if (!r)
            qWarning("namespace: %s", qPrintable(r.error().toString()));
        return ns;
    }

private slots:
    void initTestCase() {
        m_cluster = std::make_unique<TestClusterProcess>();
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        auto c = adminClient(*m_cluster);
        QVERIFY2(c, qPrintable(c ? QString() : c.error().toString()));
        m_client = *c;
    }
    void cleanupTestCase() {
        m_client.reset();
        m_cluster.reset();
    }

    void leasesCrudWithResourceVersion() {
        const QString ns = makeNamespace();
        QJsonObject lease{
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("l1")}}},
            {QStringLiteral("spec"),
             QJsonObject{{QStringLiteral("holderIdentity"), QStringLiteral("a")},
                         {QStringLiteral("leaseDurationSeconds"), 15},
                         {QStringLiteral("renewTime"), QStringLiteral("2026-12-01T12:00:00.000000Z")}}}};
        auto created = await(m_client->create(leases(), ns, lease));
        QVERIFY2(created, qPrintable(created ? QString() : describe(created.error())));
        QCOMPARE(created->value(QLatin1String("apiVersion")).toString(),
                 QStringLiteral("coordination.k8s.io/v1"));
        QCOMPARE(created->value(QLatin1String("kind")).toString(), QStringLiteral("Lease"));

        QJsonObject updated = *created;
        QJsonObject spec = updated.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("holderIdentity"), QStringLiteral("b"));
        updated.insert(QStringLiteral("spec"), spec);
        auto first = await(m_client->replace(leases(), ns, updated));
        QVERIFY2(first, qPrintable(first ? QString() : describe(first.error())));
        QCOMPARE(holderOf(*first), QStringLiteral("b"));
        // The same stale resourceVersion again: refused as the API server refuses it.
        auto stale = await(m_client->replace(leases(), ns, updated));
        QVERIFY(!stale);
        QCOMPARE(stale.error().kind, Error::Kind::Conflict);
        QCOMPARE(stale.error().httpStatus, 409);
        QCOMPARE(stale.error().message,
                 QStringLiteral(
                     "Operation cannot be fulfilled on leases.coordination.k8s.io \"l1\": the object has "
                     "been modified; please apply your changes to the latest version and try again"));

        auto list = await(m_client->list(leases(), ns));
        QVERIFY(list);
        QCOMPARE(list->items.size(), 1);
        QCOMPARE(list->kind, QStringLiteral("LeaseList"));
        QCOMPARE(list->apiVersion, QStringLiteral("coordination.k8s.io/v1"));

        // A renewTime that is not a MicroTime is a decoding error; a zero duration invalid.
        QJsonObject bad = lease;
        bad.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("l2")}});
        bad.insert(QStringLiteral("spec"),
                   QJsonObject{{QStringLiteral("renewTime"), QStringLiteral("yesterday")}});
        auto badTime = await(m_client->create(leases(), ns, bad));
        QVERIFY(!badTime);
        QCOMPARE(badTime.error().httpStatus, 400);
        bad.insert(QStringLiteral("spec"), QJsonObject{{QStringLiteral("leaseDurationSeconds"), 0}});
        auto badDuration = await(m_client->create(leases(), ns, bad));
        QVERIFY(!badDuration);
        QCOMPARE(badDuration.error().httpStatus, 422);
        QVERIFY2(badDuration.error().message.contains(QLatin1String("spec.leaseDurationSeconds")),
                 qPrintable(badDuration.error().message));

        const ToolRun k =
            kubectl({QStringLiteral("get"), QStringLiteral("leases"), QStringLiteral("-n"), ns});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        QVERIFY2(k.out.contains("HOLDER") && k.out.contains("l1") && k.out.contains(" b "),
                 k.out.constData());
    }

    void oneLeaderAndHandOverWhenKilled() {
        const QString ns = makeNamespace();
        auto a = std::make_unique<LeaderElector>(m_client, fastOptions(ns, QStringLiteral("replica-a")));
        auto b = std::make_unique<LeaderElector>(m_client, fastOptions(ns, QStringLiteral("replica-b")));
        QSignalSpy aLeads(a.get(), &LeaderElector::becameLeader);
        QSignalSpy bLeads(b.get(), &LeaderElector::becameLeader);
        QVERIFY(a->start());
        QVERIFY(aLeads.wait(10000));
        QVERIFY(b->start());

        // Sample both electors and the Lease's holder while they run.
        int bothLeaders = 0;
        QStringList holders;
        QTimer sampler;
        connect(&sampler, &QTimer::timeout, this, [&] {
            if (a && a->isLeader() && b->isLeader())
                ++bothLeaders;
        });
        sampler.start(10);
        auto sampleHolder = [&] {
            auto l = await(m_client->get(leases(), ns, QStringLiteral("gpuquota-controller")));
            if (l && (holders.isEmpty() || holders.last() != holderOf(*l)))
                holders << holderOf(*l);
        };
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 4000) { // longer than the lease: a renewing leader keeps it
            sampleHolder();
            QTest::qWait(100);
        }
        QVERIFY(a->isLeader());
        QVERIFY(!b->isLeader());
        QCOMPARE(bLeads.count(), 0);
        QCOMPARE(holders, QStringList{QStringLiteral("replica-a")});

        // The leader dies without a word: b leads within the lease duration (3 s) plus
        // the retry period it needs to notice.
        a.reset();
        QElapsedTimer handover;
        handover.start();
        QVERIFY(bLeads.wait(10000));
        QVERIFY2(handover.elapsed() <= 3000 + 2 * 250 + 500, qPrintable(QString::number(handover.elapsed())));
        QVERIFY2(handover.elapsed() >= 2000, "took over before the lease could have expired");
        sampleHolder();
        QCOMPARE(holders, (QStringList{QStringLiteral("replica-a"), QStringLiteral("replica-b")}));
        QCOMPARE(bothLeaders, 0);
        auto l = await(m_client->get(leases(), ns, QStringLiteral("gpuquota-controller")));
        QVERIFY(l);
        const QJsonObject spec = l->value(QLatin1String("spec")).toObject();
        QCOMPARE(spec.value(QLatin1String("leaseTransitions")).toInt(), 1);
        QCOMPARE(spec.value(QLatin1String("leaseDurationSeconds")).toInt(), 3);
        QVERIFY(QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z$"))
                    .match(spec.value(QLatin1String("renewTime")).toString())
                    .hasMatch());

        // A clean shutdown hands over at once.
        auto c = std::make_unique<LeaderElector>(m_client, fastOptions(ns, QStringLiteral("replica-c")));
        QSignalSpy cLeads(c.get(), &LeaderElector::becameLeader);
        QVERIFY(c->start());
        QTest::qWait(500);
        QVERIFY(!c->isLeader());
        QSignalSpy bLost(b.get(), &LeaderElector::lostLeadership);
        QSignalSpy released(b.get(), &LeaderElector::releaseFinished);
        b->release();
        QCOMPARE(bLost.count(), 1); // before the Lease says so: never two leaders
        QVERIFY(released.wait(5000));
        QElapsedTimer quick;
        quick.start();
        QVERIFY(cLeads.wait(5000));
        QVERIFY2(quick.elapsed() < 1500, qPrintable(QString::number(quick.elapsed())));
    }

    void leaderThatCannotRenewStepsDown() {
        // A cluster of its own, stopped under the leader.
        TestClusterProcess other;
        QVERIFY2(other.start(), qPrintable(other.errorString()));
        auto c =
            KubeClient::fromKubeconfig(other.kubeconfigPath(), QStringLiteral("admin"), testClientOptions());
        QVERIFY(c);
        QVERIFY(
            await((*c)->create(KubeResource::namespaces(), {},
                               QJsonObject{{QStringLiteral("metadata"),
                                            QJsonObject{{QStringLiteral("name"), QStringLiteral("sys")}}}})));
        LeaderElector e(*c, fastOptions(QStringLiteral("sys"), QStringLiteral("lonely")));
        QSignalSpy leads(&e, &LeaderElector::becameLeader);
        QSignalSpy lost(&e, &LeaderElector::lostLeadership);
        QVERIFY(e.start());
        QVERIFY(leads.wait(10000));
        other.stop();
        QElapsedTimer t;
        t.start();
        QVERIFY(lost.wait(10000));
        // It gave up by its renew deadline, before the lease (3 s) ran out for anyone else.
        QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(!e.isLeader());
    }

    void badOptions() {
        LeaderElector::Options o = fastOptions(QStringLiteral("x"), QStringLiteral("y"));
        o.renewDeadlineMs = 5000; // longer than the lease
        LeaderElector e(m_client, o);
        auto r = e.start();
        QVERIFY(!r);
        QCOMPARE(r.error().field, QStringLiteral("renewDeadline"));
    }
};

QTEST_GUILESS_MAIN(TestLeaderElector)
#include "tst_leaderelector.moc"
