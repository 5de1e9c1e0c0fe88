// The built gpuquota-controller when nothing can persist what it records: its PostgreSQL
// stopped and its spool on a real, full tmpfs (mounted by the suite; needs root, which
// CI has). The interval states are held in memory, /readyz says 503 and what is held
// since when, /metrics counts them; once the disk has room they go to the spool, and
// once PostgreSQL is back the ledger equals the scripted pods' history to the second.
// A second outage with the disk still full: the held states go straight to the database.
#include "tests/controller/controllertestutil.h"
#include "tests/controller/podscript.h"

#include <QtTest>

#include <csignal>
#include <unistd.h>

using namespace gq;
using namespace gq::test;

class TestControllerDiskFull : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    PostgresTestbed m_bed;
    QString m_mount;
    bool m_mounted = false;

    QString spoolDir() const { return m_mount + QStringLiteral("/spool"); }
    QString filler() const { return m_mount + QStringLiteral("/filler"); }
    // Fills the tmpfs to the last byte (the spool directory exists already).
    bool fill() {
        return runTool(QStringLiteral("sh"),
                       {QStringLiteral("-c"), QStringLiteral("dd if=/dev/zero of=%1 bs=1k 2>/dev/null; "
                                                             "dd if=/dev/zero of=%1.2 bs=1 2>/dev/null; true")
                                                  .arg(filler())})
                       .exitCode == 0 &&
               QFileInfo(filler()).size() > 0;
    }
    void makeRoom() {
        QFile::remove(filler());
        QFile::remove(filler() + QStringLiteral(".2"));
    }
    QString config(int listen) {
        return m_bed.controllerConfig(m_dir.path(), QStringLiteral("controller"), listen, {}, {}, spoolDir());
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        GQ_REQUIRE_TOOL("curl");
        if (::geteuid() != 0) {
            if (inCi())
                QFAIL("mounting the small tmpfs needs root (CI runs as root)");
            QSKIP("mounting the small tmpfs needs root");
        }
        QVERIFY(m_dir.isValid());
        m_mount = m_dir.filePath(QStringLiteral("small"));
        QVERIFY(QDir().mkpath(m_mount));
        const ToolRun mount = runTool(QStringLiteral("mount"),
                                      {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                       QStringLiteral("size=256k"), QStringLiteral("tmpfs"), m_mount});
        QVERIFY2(mount.exitCode == 0, mount.err.constData());
        m_mounted = true;
        QVERIFY(QDir().mkpath(spoolDir()));
        QVERIFY2(m_bed.start(m_dir.path(), (QDateTime::currentSecsSinceEpoch() / 86400 - 1) * 86400),
                 qPrintable(m_bed.error));
        for (const char *ns : {"team-a", "team-b"})
            QCOMPARE(m_bed.script
                         ->kubectl({QStringLiteral("create"), QStringLiteral("namespace"), QLatin1String(ns)})
                         .exitCode,
                     0);
    }
    void cleanupTestCase() {
        if (m_mounted)
            runTool(QStringLiteral("umount"), {QStringLiteral("-l"), m_mount});
    }

    void heldInMemoryUntilTheDiskOrTheDatabaseTakesThem() {
        PodScript &s = *m_bed.script;
        const int listen = freePort();
        ControllerProcess controller;
        QVERIFY(controller.start(config(listen)));
        QTRY_VERIFY_WITH_TIMEOUT(readyz(listen).startsWith(QLatin1String("200")), 30000);
        ScriptPod p1 = s.pod("team-a", "train-1", "alice", 2, "08:00:00");
        s.start(p1);
        QVERIFY2(s.ledgerEqualsTruth(), qPrintable(s.mismatch()));

        // Outage 1: the database stops and the spool's disk is full.
        QVERIFY(fill());
        QVERIFY(m_bed.pg->stop());
        s.finish(QStringLiteral("train-1"), s.at("09:15:30"));
        ScriptPod p2 = s.pod("team-a", "short-2", "bob", 1, "09:20:00");
        s.start(p2);
        s.finish(QStringLiteral("short-2"), s.at("09:40:10"));
        QTest::qWait(300); // seen finished before it goes
        s.remove(QStringLiteral("short-2"));
        s.remove(QStringLiteral("train-1"));
        ScriptPod p3 = s.pod("team-b", "new-3", "carol", 4, "10:00:00");
        s.start(p3);
        QTRY_VERIFY_WITH_TIMEOUT(readyz(listen).contains(QLatin1String("held in memory: ")), 20000);
        const QString held = readyz(listen);
        QVERIFY2(held.startsWith(QLatin1String("503")), qPrintable(held));
        // /metrics is fed every 5 s.
        QTRY_VERIFY_WITH_TIMEOUT(
            metrics(listen).contains(QLatin1String("gpuquota_intervals_held_in_memory ")) &&
                !metrics(listen).contains(QLatin1String("gpuquota_intervals_held_in_memory 0\n")),
            15000);

        // Room on the disk: the held states go to the spool (readiness waits a while).
        makeRoom();
        QTRY_VERIFY_WITH_TIMEOUT(!readyz(listen).contains(QLatin1String("held in memory")), 20000);
        QVERIFY2(!readyz(listen).contains(QLatin1String("spool: writable (0 waiting)")),
                 qPrintable(readyz(listen)));
        QTRY_VERIFY_WITH_TIMEOUT(readyz(listen).startsWith(QLatin1String("200")), 30000);

        // The database back: the spool is replayed, the ledger is the truth.
        QVERIFY(m_bed.pg->start());
        QVERIFY2(s.ledgerEqualsTruth(30000), qPrintable(s.mismatch()));

        // Outage 2: full disk again; the database returns while the disk is still full.
        QVERIFY(fill());
        QVERIFY(m_bed.pg->stop());
        s.finish(QStringLiteral("new-3"), s.at("11:00:05"));
        QTest::qWait(300);
        s.remove(QStringLiteral("new-3"));
        QTRY_VERIFY_WITH_TIMEOUT(readyz(listen).contains(QLatin1String("held in memory: ")), 20000);
        QVERIFY(m_bed.pg->start());
        QVERIFY2(s.ledgerEqualsTruth(30000), qPrintable(s.mismatch()));
        QVERIFY(!readyz(listen).contains(QLatin1String("held in memory")));
        QVERIFY(!metrics(listen).contains(QLatin1String("gpuquota_intervals_lost_total 1")));
        makeRoom();

        controller.signal(SIGTERM);
        QVERIFY(controller.waitForExit(15000));
        QCOMPARE(controller.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestControllerDiskFull)
#include "tst_controllerdiskfull.moc"
