// High availability with the real thing: two built gpuquota-controller replicas against
// a PostgreSQL server of the suite's own and the test cluster. One leads (records); pods
// come and go; the leader is SIGKILLed (it cannot give its Lease up); the other takes
// the Lease over once it has run out and records from there. Afterwards the ledger
// equals the script to the second: nothing lost in the gap, nothing counted twice.
#include "tests/controller/controllertestutil.h"
#include "tests/controller/podscript.h"
#include "tests/testclusterprocess.h"
#include "core/usage/usagestore.h"

#include <QElapsedTimer>
#include <QtTest>

#include <csignal>

using namespace gq;
using namespace gq::test;

class TestControllerHa : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    PostgresTestbed m_bed;

    // One replica's configuration: its own `listen` and spool, the shared database.
    QString config(const QString &name, int listen) {
        return m_bed.controllerConfig(
            m_dir.path(), name, listen,
            QStringLiteral("leaderElection: {enabled: true, namespace: gpuquota-system, name: gq-ha}\n"));
    }
    QString leaseHolder() {
        return QString::fromUtf8(
            m_bed.script
                ->kubectl({QStringLiteral("get"), QStringLiteral("lease"), QStringLiteral("gq-ha"),
                           QStringLiteral("-n"), QStringLiteral("gpuquota-system"), QStringLiteral("-o"),
                           QStringLiteral("jsonpath={.spec.holderIdentity}")})
                .out);
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        GQ_REQUIRE_TOOL("curl");
        QVERIFY(m_dir.isValid());
        QVERIFY2(m_bed.start(m_dir.path(), (QDateTime::currentSecsSinceEpoch() / 86400 - 1) * 86400),
                 qPrintable(m_bed.error));
        for (const char *ns : {"gpuquota-system", "team-a", "team-b"})
            QCOMPARE(m_bed.script
                         ->kubectl({QStringLiteral("create"), QStringLiteral("namespace"), QLatin1String(ns)})
                         .exitCode,
                     0);
    }

    void leaderKilledStandbyTakesOver() {
        PodScript &s = *m_bed.script;
        const int listenA = freePort();
        const int listenB = freePort();
        ControllerProcess a;
        ControllerProcess b;
        QVERIFY(a.start(config(QStringLiteral("a"), listenA), QStringLiteral("ctl-a")));
        QTRY_COMPARE_WITH_TIMEOUT(leaseHolder(), QStringLiteral("ctl-a"), 30000);
        QVERIFY(b.start(config(QStringLiteral("b"), listenB), QStringLiteral("ctl-b")));
        QTRY_VERIFY_WITH_TIMEOUT(curl({QStringLiteral("http://127.0.0.1:%1/readyz").arg(listenB)})
                                     .startsWith(QLatin1String("200")),
                                 20000);

        // Churn under the first leader.
        ScriptPod p1 = s.pod("team-a", "train-1", "alice", 2, "08:00:00");
        ScriptPod p2 = s.pod("team-a", "train-2", "bob", 1, "08:30:00");
        ScriptPod p3 = s.pod("team-b", "mig-3", "carol", 3, "09:00:00", "nvidia.com/mig-1g.10gb");
        ScriptPod p4 = s.pod("team-b", "long-4", "", 4, "09:30:00");
        for (const ScriptPod &p : {p1, p2, p3, p4}) {
            s.start(p);
        }
        s.finish(QStringLiteral("train-1"), s.at("10:00:00"));
        QVERIFY2(s.ledgerEqualsTruth(), qPrintable(s.mismatch()));

        // The leader dies without a word. Until the standby leads, pods go on changing:
        // one ends and is deleted, one starts, ends and is deleted, one starts and runs,
        // one restarts its containers. Only a replica that watched all along sees the
        // deleted ones: a new leader's relist finds neither.
        a.signal(SIGKILL);
        QVERIFY(a.waitForExit(10000));
        QElapsedTimer sinceKill;
        sinceKill.start();
        s.finish(QStringLiteral("train-2"), s.at("11:15:30"));
        ScriptPod p5 = s.pod("team-a", "short-5", "alice", 1, "11:20:00");
        s.start(p5);
        s.finish(QStringLiteral("short-5"), s.at("11:50:45"));
        QTest::qWait(300); // the standby's informer sees the end before the deletion
        s.remove(QStringLiteral("train-2"));
        s.remove(QStringLiteral("short-5"));
        ScriptPod p6 = s.pod("team-b", "new-6", "dora", 2, "12:00:00");
        s.start(p6);
        QVERIFY(s.hook(QStringLiteral("team-b"), QStringLiteral("long-4"), QStringLiteral("restart"),
                       QJsonObject{{QStringLiteral("at"), formatInstantUtc(s.at("12:30:00"))}}));

        // The standby takes the Lease once it has run out: the lease duration after it
        // last saw the leader renew, on its retry period's beat.
        QTRY_COMPARE_WITH_TIMEOUT(leaseHolder(), QStringLiteral("ctl-b"), 30000);
        const qint64 handover = sinceKill.elapsed();
        qInfo("handover %lld ms after the SIGKILL (lease duration %d ms)", handover, kLeaseDurationMs);
        QVERIFY2(handover <= kLeaseDurationMs + 2 * kRetryPeriodMs, qPrintable(QString::number(handover)));
        QVERIFY2(s.ledgerEqualsTruth(30000), qPrintable(s.mismatch()));

        // And records from there on.
        ScriptPod p7 = s.pod("team-a", "after-7", "alice", 1, "13:00:00");
        s.start(p7);
        s.finish(QStringLiteral("mig-3"), s.at("13:10:00"));
        QVERIFY2(s.ledgerEqualsTruth(), qPrintable(s.mismatch()));
        QCOMPARE(s.ledger(), s.expected()); // and stays so: no late write of the old leader

        b.signal(SIGTERM);
        QVERIFY(b.waitForExit(15000));
        QCOMPARE(b.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestControllerHa)
#include "tst_controllerha.moc"
