// Informers against the real gpuquota-testcluster, once per fault knob (see
// tst_kubeclient): the cache must converge to what the server holds, whatever the
// faults, and changes must be reported by key.
#include "core/kube/informer.h"
#include "core/kube/kubeclient.h"

#include "tests/kube/kubeclienttestutil.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QSet>
#include <QSignalSpy>
#include <QtTest>

using namespace gq;
using namespace gq::test;

namespace {

// Collects every key an informer reported, by kind of change.
struct ChangeLog {
    QStringList added, updated, deleted;
    int emissions = 0;
    void connectTo(Informer *inf) {
        QObject::connect(inf, &Informer::changed, inf,
                         [this](const QStringList &a, const QStringList &u, const QStringList &d) {
                             added += a;
                             updated += u;
                             deleted += d;
                             ++emissions;
                         });
    }
};

QSet<QString> keysOf(const QList<QJsonObject> &items) {
    QSet<QString> keys;
    for (const QJsonObject &o : items) {
        const QJsonObject m = o.value(QLatin1String("metadata")).toObject();
        const QString ns = m.value(QLatin1String("namespace")).toString();
        keys.insert(ns.isEmpty() ? m.value(QLatin1String("name")).toString()
                                 : ns + QLatin1Char('/') + m.value(QLatin1String("name")).toString());
    }
    return keys;
}

QSet<QString> keySet(const Informer &informer) {
    const QStringList keys = informer.keys();
    return QSet<QString>(keys.cbegin(), keys.cend());
}

} // namespace

class TestInformer : public FaultModeSuite {
    Q_OBJECT

private:
    QSet<QString> serverKeys(const KubeResource &res, const QString &ns = {}) {
        auto l = await(m_admin->list(res, ns));
        if (!l)
            qWarning("list failed: %s", qPrintable(describe(l.error())));
        return l ? keysOf(l->items) : QSet<QString>{};
    }

private Q_SLOTS:
    void initTestCase() {
        m_cluster = std::make_unique<TestClusterProcess>(demoClusterOptions(m_mode));
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        auto c = adminClient(*m_cluster);
        GQ_VERIFY_OK(c);
        m_admin = *c;
    }

    void cleanupTestCase() {
        m_admin.reset();
        QVERIFY(m_cluster->stop());
    }

    void namespacesAndPodsSyncCompactly() {
        NamespaceInformer namespaces(m_admin);
        PodInformer pods(m_admin);
        QSignalSpy nsSynced(&namespaces, &Informer::synced);
        QSignalSpy podsSynced(&pods, &Informer::synced);
        namespaces.setPageSize(3); // several pages even on the small demo
        pods.setPageSize(4);
        namespaces.start();
        pods.start();
        QTRY_VERIFY_WITH_TIMEOUT(namespaces.hasSynced() && pods.hasSynced(), 60000);
        QCOMPARE(nsSynced.count(), 1);

        QCOMPARE(keySet(namespaces), serverKeys(KubeResource::namespaces()));
        const QSet<QString> podKeys = serverKeys(KubeResource::pods());
        QCOMPARE(keySet(pods), podKeys);

        auto nlp = namespaces.namespaceInfo(QStringLiteral("team-nlp"));
        QVERIFY(nlp);
        QCOMPARE(nlp->phase, NamespaceInfo::Phase::Active);
        QVERIFY(!nlp->uid.isEmpty());

        // GPU requests are summed per resource; the user comes from the label.
        int gpuPods = 0;
        for (const PodInfo &p : pods.pods()) {
            QVERIFY(!p.uid.isEmpty());
            QVERIFY(!p.namespaceName.isEmpty());
            if (!p.gpus.isEmpty()) {
                ++gpuPods;
                QVERIFY(isGpuResourceName(p.gpus.first().resource));
                QVERIFY(p.gpus.first().amount.sign() > 0);
            }
        }
        QVERIFY(gpuPods > 0);
        QVERIFY(pods.memoryEstimate() > 0);
        QVERIFY(!pods.podsInNamespace(QStringLiteral("team-nlp")).isEmpty());
        // Under the fault modes a watch may be between retries (Backoff) right now.
        QTRY_COMPARE_WITH_TIMEOUT(namespaces.state(), Informer::State::Watching, 30000);
    }

    void podChangesAreReported() {
        PodInformer pods(m_admin, QStringLiteral("team-nlp"));
        pods.setWatchTimeout(1);
        ChangeLog log;
        log.connectTo(&pods);
        pods.start();
        QTRY_VERIFY_WITH_TIMEOUT(pods.hasSynced(), 60000);
        QVERIFY(!pods.pods().isEmpty());
        const PodInfo target = pods.pods().first();
        QVERIFY(target.phase != PodInfo::Phase::Failed);
        log.updated.clear();
        QVERIFY(m_cluster->setPodPhase(target.namespaceName, target.name, QStringLiteral("Failed")));
        QTRY_VERIFY_WITH_TIMEOUT(pods.pod(target.namespaceName, target.name)->phase == PodInfo::Phase::Failed,
                                 30000);
        QTRY_VERIFY_WITH_TIMEOUT(log.updated.contains(target.key()), 5000); // after the batch interval
    }

    void quotaCacheFollowsEveryWrite() {
        const QString ns = QStringLiteral("inf-quotas");
        CarefulWriter w(*m_admin, &m_recoveries);
        QVERIFY(w.create(KubeResource::namespaces(), {}, namespaceObject(ns)));
        ObjectInformer quotas(m_admin, KubeResource::resourceQuotas(), ns);
        quotas.setWatchTimeout(1);
        quotas.setBatchInterval(m_mode.none() ? 1500 : 50);
        ChangeLog log;
        log.connectTo(&quotas);
        quotas.start();
        QTRY_VERIFY_WITH_TIMEOUT(quotas.hasSynced(), 60000);
        QCOMPARE(quotas.size(), 0);

        for (int i = 0; i < 8; ++i)
            QVERIFY(w.create(
                KubeResource::resourceQuotas(), ns,
                quotaObject(QStringLiteral("q%1").arg(i), {{QStringLiteral("pods"), QStringLiteral("1")}})));
        QVERIFY(w.mergePatch(KubeResource::resourceQuotas(), ns, QStringLiteral("q1"),
                             {{QStringLiteral("spec"),
                               QJsonObject{{QStringLiteral("hard"),
                                            QJsonObject{{QStringLiteral("pods"), QStringLiteral("7")}}}}}}));
        QVERIFY(w.remove(KubeResource::resourceQuotas(), ns, QStringLiteral("q2")));

        const QSet<QString> expected = serverKeys(KubeResource::resourceQuotas(), ns);
        QCOMPARE(expected.size(), 7);
        QTRY_COMPARE_WITH_TIMEOUT(keySet(quotas), expected, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(
            hardOf(quotas.object(ns, QStringLiteral("q1"))->object).value(QLatin1String("pods")).toString(),
            QStringLiteral("7"), 30000);
        QVERIFY(!quotas.object(ns, QStringLiteral("q2")));
        if (m_mode.none()) {
            // q2 was added and deleted inside one batch: reported as nothing at all, and
            // ten changes arrived in far fewer signals.
            QVERIFY(!log.added.contains(ns + QStringLiteral("/q2")));
            QVERIFY2(log.emissions <= 3, qPrintable(QString::number(log.emissions)));
        }
    }

    void relistsAfter410AndLosesNothing() {
        const QString ns = QStringLiteral("inf-gone");
        CarefulWriter w(*m_admin, &m_recoveries);
        QVERIFY(w.create(KubeResource::namespaces(), {}, namespaceObject(ns)));
        QVERIFY(
            w.create(KubeResource::resourceQuotas(), ns,
                     quotaObject(QStringLiteral("old"), {{QStringLiteral("pods"), QStringLiteral("1")}})));

        // All-namespace informer: its list/watch path differs from the write paths, so
        // a fault on it cuts the informer off while writes go through.
        ObjectInformer quotas(m_admin, KubeResource::resourceQuotas());
        quotas.setWatchTimeout(1);
        ChangeLog log;
        log.connectTo(&quotas);
        quotas.start();
        QTRY_VERIFY_WITH_TIMEOUT(quotas.hasSynced() && quotas.object(ns, QStringLiteral("old")).has_value(),
                                 60000);
        const int relistsBefore = quotas.relists();

        QVERIFY(
            m_cluster->setFaults({{QStringLiteral("errorRate"), 1.0},
                                  {QStringLiteral("pathPrefix"), QStringLiteral("/api/v1/resourcequotas")}}));
        QTest::qWait(2500); // the open stream ends (timeout 1 s); re-watches now fail
        QVERIFY(
            w.create(KubeResource::resourceQuotas(), ns,
                     quotaObject(QStringLiteral("new"), {{QStringLiteral("pods"), QStringLiteral("2")}})));
        QVERIFY(w.remove(KubeResource::resourceQuotas(), ns, QStringLiteral("old")));
        QVERIFY(m_cluster->compact()); // the informer's resourceVersion is now too old
        QVERIFY(m_cluster->setFaults(modeFaults()));

        QTRY_VERIFY_WITH_TIMEOUT(quotas.object(ns, QStringLiteral("new")).has_value(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!quotas.object(ns, QStringLiteral("old")).has_value(), 30000);
        QVERIFY(quotas.relists() > relistsBefore);
        QVERIFY(log.added.contains(ns + QStringLiteral("/new")));
        QVERIFY(log.deleted.contains(ns + QStringLiteral("/old")));
        QTRY_COMPARE_WITH_TIMEOUT(keySet(quotas), serverKeys(KubeResource::resourceQuotas()), 30000);
    }

    // A watch that cannot reconnect is Backoff (with errors reported), not Watching,
    // and becomes Watching again once the server answers, without a relist.
    void stateFollowsTheConnection() {
        ObjectInformer limits(m_admin, KubeResource::limitRanges());
        limits.setWatchTimeout(1);
        QSignalSpy errors(&limits, &Informer::errorOccurred);
        QSignalSpy states(&limits, &Informer::stateChanged);
        limits.start();
        QTRY_VERIFY_WITH_TIMEOUT(limits.hasSynced(), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(limits.state(), Informer::State::Watching, 30000);
        const int relistsBefore = limits.relists();
        const qsizetype sizeBefore = limits.size();

        QVERIFY(
            m_cluster->setFaults({{QStringLiteral("errorRate"), 1.0},
                                  {QStringLiteral("pathPrefix"), QStringLiteral("/api/v1/limitranges")}}));
        QTRY_COMPARE_WITH_TIMEOUT(limits.state(), Informer::State::Backoff, 30000);
        QVERIFY(errors.count() > 0);
        QVERIFY(limits.lastError().has_value());
        QCOMPARE(limits.size(), sizeBefore); // the cache is kept while cut off

        QVERIFY(m_cluster->setFaults(modeFaults()));
        QTRY_COMPARE_WITH_TIMEOUT(limits.state(), Informer::State::Watching, 60000);
        if (m_mode.none())
            QCOMPARE(limits.relists(), relistsBefore); // resumed from its resourceVersion
        QVERIFY(states.count() >= 2);
    }

    // A list that failed waits out the informer's own backoff: nextAttempt() says until
    // when, retryNow() starts the attempt at once, and an attempt that fails again
    // waits longer (the failure count is kept).
    void retryNowCutsARelistWaitShort() {
        QVERIFY(
            m_cluster->setFaults({{QStringLiteral("errorRate"), 1.0},
                                  {QStringLiteral("pathPrefix"), QStringLiteral("/api/v1/limitranges")}}));
        ObjectInformer limits(m_admin, KubeResource::limitRanges());
        limits.setBackoff(20000, 60000);
        QSignalSpy waits(&limits, &Informer::nextAttemptChanged);
        QVERIFY(limits.nextAttempt().isForever());
        limits.start();
        QTRY_COMPARE_WITH_TIMEOUT(limits.state(), Informer::State::Backoff, 60000);
        QVERIFY(!limits.hasSynced());
        const QDeadlineTimer first = limits.nextAttempt();
        QVERIFY(!first.isForever());
        QVERIFY2(first.remainingTime() > 5000 && first.remainingTime() <= 20000,
                 qPrintable(QString::number(first.remainingTime())));
        QVERIFY(waits.count() >= 1);

        // Retry now while the server still fails: the attempt starts at once...
        limits.retryNow();
        QCOMPARE(limits.state(), Informer::State::Listing);
        QVERIFY(limits.nextAttempt().isForever());
        // ...fails, and the next wait comes from the doubled backoff, [20 s, 40 s].
        QTRY_COMPARE_WITH_TIMEOUT(limits.state(), Informer::State::Backoff, 60000);
        const qint64 second = limits.nextAttempt().remainingTime();
        QVERIFY2(second > 18000 && second <= 40000, qPrintable(QString::number(second)));

        // The server answers again: retryNow, and the informer lists and watches long
        // before its wait would have ended.
        QVERIFY(m_cluster->setFaults(modeFaults()));
        QElapsedTimer since;
        since.start();
        limits.retryNow();
        QTRY_VERIFY_WITH_TIMEOUT(limits.hasSynced(), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(limits.state(), Informer::State::Watching, 15000);
        QVERIFY2(since.elapsed() < second, qPrintable(QString::number(since.elapsed())));
        QVERIFY(limits.nextAttempt().isForever());
        QCOMPARE(keySet(limits), serverKeys(KubeResource::limitRanges()));

        // Nothing waits: retryNow changes nothing.
        const int relists = limits.relists();
        limits.retryNow();
        QCOMPARE(limits.state(), Informer::State::Watching);
        QCOMPARE(limits.relists(), relists);
    }

    // A watch whose stream failed re-opens by itself after the client's backoff; the
    // informer reports that moment, and retryNow() re-opens at once from the
    // resourceVersion it had (no relist).
    void retryNowReopensAWaitingWatch() {
        KubeClientOptions slow = testClientOptions();
        slow.backoffBaseMs = 20000; // a watch re-open waits 10-20 s, then 20-40 s
        slow.backoffMaxMs = 60000;
        auto client = KubeClient::fromKubeconfig(m_cluster->kubeconfigPath(), QStringLiteral("admin"), slow);
        GQ_VERIFY_OK(client);
        ObjectInformer limits(*client, KubeResource::limitRanges());
        limits.setWatchTimeout(1); // streams end every second: a re-open soon meets the fault
        QSignalSpy waits(&limits, &Informer::nextAttemptChanged);
        limits.start();
        QTRY_VERIFY_WITH_TIMEOUT(limits.hasSynced(), 120000);
        QTRY_COMPARE_WITH_TIMEOUT(limits.state(), Informer::State::Watching, 60000);
        const int relistsBefore = limits.relists();

        QVERIFY(
            m_cluster->setFaults({{QStringLiteral("errorRate"), 1.0},
                                  {QStringLiteral("pathPrefix"), QStringLiteral("/api/v1/limitranges")}}));
        // Under the fault modes a re-open may already be waiting out an injected fault
        // (up to the 60 s cap) when the error fault starts; plain runs get here in ~1 s.
        QTRY_VERIFY_WITH_TIMEOUT(
            limits.state() == Informer::State::Backoff && !limits.nextAttempt().isForever(), 90000);
        const qint64 wait = limits.nextAttempt().remainingTime();
        QVERIFY2(wait > 5000 && wait <= 60000, qPrintable(QString::number(wait)));
        QVERIFY(waits.count() >= 1);

        QVERIFY(m_cluster->setFaults(modeFaults()));
        QElapsedTimer since;
        since.start();
        // Under the fault knobs a re-open may meet an injected fault itself: try again.
        bool watching = false;
        for (int i = 0; i < 5 && !watching; ++i) {
            limits.retryNow();
            watching = QTest::qWaitFor([&] { return limits.state() == Informer::State::Watching; }, 5000);
        }
        QVERIFY(watching);
        QVERIFY(limits.nextAttempt().isForever() || limits.state() != Informer::State::Watching);
        if (m_mode.none()) {
            QVERIFY2(since.elapsed() < std::min<qint64>(wait, 5000),
                     qPrintable(QString::number(since.elapsed())));
            QCOMPARE(limits.relists(), relistsBefore); // resumed from its resourceVersion
        }
        QTRY_COMPARE_WITH_TIMEOUT(keySet(limits), serverKeys(KubeResource::limitRanges()), 30000);
    }

    void stopAndDestroyAreSafeMidStream() {
        for (int i = 0; i < 5; ++i) {
            auto *pods = new PodInformer(m_admin);
            pods->setPageSize(2);
            pods->start();
            QTest::qWait(20 * i);
            if (i % 2)
                pods->stop();
            delete pods; // results still in flight must not touch it
        }
        QTest::qWait(300);
        NamespaceInformer ns(m_admin);
        ns.start();
        QTRY_VERIFY_WITH_TIMEOUT(ns.hasSynced(), 60000);
    }
};

QTEST_GUILESS_MAIN(TestInformer)
#include "tst_informer.moc"
