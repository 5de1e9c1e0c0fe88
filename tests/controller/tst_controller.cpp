// The controller end to end: the built `gpuquota-controller` watching the real test
// cluster (pods created with kubectl, run and stopped at scripted instants through the
// test cluster's phase hook) and writing the usage database of this build (SQLite, or
// a private PostgreSQL server this suite starts and stops itself). The ledger must
// equal the script to the second, across a SIGKILL of the controller, a pod's containers
// restarting while it is down, and while the database is away (the spool), and
// `gpuquota usage` must show the same GPU-hours.
#include "tests/controller/controllertestutil.h"
#include "tests/controller/podscript.h"
#include "tests/testclusterprocess.h"
#include "core/usage/timewindow.h"
#include "tests/usage/usagebackend.h"
#include "core/usage/usagestore.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QtTest>

#include <csignal>
#include <map>

using namespace gq;
using namespace gq::test;

class TestController : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<TestClusterProcess> m_cluster;
    QTemporaryDir m_dir;
    std::unique_ptr<PrivatePostgres> m_pg;
    QString m_db;
    QString m_dbDir; // SQLite: the directory moved away to make the database unreachable
    QString m_config;
    std::unique_ptr<ControllerProcess> m_controller;
    qint64 m_day = 0; // 00:00 UTC of the scripted day (yesterday)
    int m_listenPort = 0;
    std::unique_ptr<PodScript> m_script;

    ToolRun kubectl(const QStringList &args) {
        return runTool(QStringLiteral("kubectl"),
                       QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath()} + args);
    }
    QString spoolFile() const { return m_dir.filePath(QStringLiteral("spool/intervals.spool")); }

    bool startController() {
        m_controller = std::make_unique<ControllerProcess>();
        return m_controller->start(m_config);
    }
    void killController() { m_controller.reset(); } // SIGKILL

    // GET /readyz on `listen`: "STATUS body".
    QString readyz() { return curl({QStringLiteral("http://127.0.0.1:%1/readyz").arg(m_listenPort)}); }
    void writeConfig() {
        m_listenPort = freePort();
        const QString yaml =
            QStringLiteral("cluster: {kubeconfig: %1, context: admin}\nclusterName: test\n"
                           "database: %2\nlisten: 127.0.0.1:%4\ntimeZone: UTC\nspool: %3\n")
                .arg(m_cluster->kubeconfigPath(), m_db, m_dir.filePath(QStringLiteral("spool")))
                .arg(m_listenPort);
        m_config = writeFile(m_dir.filePath(QStringLiteral("controller.yaml")), yaml.toUtf8());
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        TestClusterProcess::Options options;
        options.extraArguments = {QStringLiteral("--pods-stay-pending")};
        m_cluster = std::make_unique<TestClusterProcess>(options);
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        if (test::usePostgres()) {
            m_pg = std::make_unique<PrivatePostgres>();
            QVERIFY2(m_pg->init(), qPrintable(m_pg->error));
            m_db = m_pg->url;
        } else {
            m_dbDir = m_dir.filePath(QStringLiteral("db"));
            QDir().mkpath(m_dbDir);
            m_db = QStringLiteral("sqlite://") + m_dbDir + QStringLiteral("/usage.db");
        }
        // The database exists before the controller starts (the test reads it read-only).
        QVERIFY(UsageStore::open(m_db));
        writeConfig();
        for (const char *ns : {"team-a", "team-b"})
            QCOMPARE(
                kubectl({QStringLiteral("create"), QStringLiteral("namespace"), QLatin1String(ns)}).exitCode,
                0);
        m_day = (QDateTime::currentSecsSinceEpoch() / 86400 - 1) * 86400;
        m_script = std::make_unique<PodScript>(*m_cluster, m_dir.path(), m_db, m_day);
    }
    void cleanupTestCase() { killController(); }

    // Pods start and stop at known instants while the controller watches.
    void scriptedDay() {
        QVERIFY(startController());
        ScriptPod a = m_script->pod("team-a", "train-a", "alice", 2, "08:00:00");
        ScriptPod b = m_script->pod("team-a", "notebook-b", "", 1, "09:15:07");
        ScriptPod c = m_script->pod("team-b", "mig-c", "bob", 3, "10:00:00", "nvidia.com/mig-1g.10gb");
        ScriptPod d = m_script->pod("team-b", "init-d", "bob", 1, "13:00:01");
        d.initGpus = 4; // max(init 4, containers 1) = 4
        for (const ScriptPod &p : {a, b, c, d}) {
            m_script->start(p);
        }
        QVERIFY2(m_script->ledgerEqualsTruth(), qPrintable(m_script->mismatch()));
        QVERIFY(QTest::qWaitFor([&] { return readyz().startsWith(QLatin1String("200 ok")); }, 10000));
        QVERIFY2(readyz().contains(QLatin1String("database: available")), qPrintable(readyz()));
        m_script->finish(QStringLiteral("train-a"), m_script->at("12:30:15"));
        m_script->finish(QStringLiteral("mig-c"), m_script->at("11:00:00"));
        QVERIFY2(m_script->ledgerEqualsTruth(), qPrintable(m_script->mismatch()));
        // A deleted finished pod changes nothing.
        QCOMPARE(kubectl({QStringLiteral("delete"), QStringLiteral("pod"), QStringLiteral("-n"),
                          QStringLiteral("team-b"), QStringLiteral("mig-c"), QStringLiteral("--wait=false")})
                     .exitCode,
                 0);
        QTest::qWait(1000);
        QCOMPARE(m_script->ledger(), m_script->expected());
    }

    // SIGKILL, pods change while the controller is down, restart: the ledger is whole.
    void restartMidDay() {
        killController();
        m_script->finish(QStringLiteral("notebook-b"), m_script->at("17:00:00"));
        ScriptPod e =
            m_script->pod("team-a", "short-e", "alice", 1, "18:00:00"); // starts and ends while down
        m_script->start(e);
        m_script->finish(QStringLiteral("short-e"), m_script->at("18:45:30"));
        ScriptPod f = m_script->pod("team-a", "gone-f", "alice", 1, "19:00:00");
        m_script->start(f);
        QVERIFY(startController()); // sees f open...
        QVERIFY2(m_script->ledgerEqualsTruth(), qPrintable(m_script->mismatch()));
        killController();
        // ... and f is deleted while the controller is down: closed when noticed.
        const qint64 before = QDateTime::currentSecsSinceEpoch();
        QCOMPARE(kubectl({QStringLiteral("delete"), QStringLiteral("pod"), QStringLiteral("-n"),
                          QStringLiteral("team-a"), QStringLiteral("gone-f"), QStringLiteral("--wait=false")})
                     .exitCode,
                 0);
        QVERIFY(startController());
        m_script->truth.erase(QStringLiteral("gone-f"));
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QStringList rows = m_script->ledger();
                return rows.size() == static_cast<qsizetype>(m_script->truth.size()) + 1 &&
                       !rows.filter(QStringLiteral("gone-f")).value(0).endsWith(u'-');
            },
            20000));
        const QString f_row = m_script->ledger().filter(QStringLiteral("gone-f")).value(0);
        const qint64 end = parseInstant(f_row.section(u' ', 6, 6)).value_or(0);
        QVERIFY2(end >= before && end <= QDateTime::currentSecsSinceEpoch(), qPrintable(f_row));
        m_script->truth[QStringLiteral("gone-f")] = f;
        m_script->truth[QStringLiteral("gone-f")].end = end;
        QCOMPARE(m_script->ledger(), m_script->expected());
    }

    // A container restarts twice while no controller watches: the pod's status now shows
    // the run before the last (lastState) as its earliest start, not when it began. The
    // row the database holds from before goes on to where the status takes over, so the
    // pod's GPUs are counted for every second once.
    void containerRestartWhileDown() {
        ScriptPod r = m_script->pod("team-a", "restart-r", "dora", 2, "19:30:00");
        m_script->start(r);
        QVERIFY2(m_script->ledgerEqualsTruth(), qPrintable(m_script->mismatch()));
        killController();
        for (const char *when : {"20:10:00", "20:40:00"})
            QVERIFY(m_script->hook(
                QStringLiteral("team-a"), QStringLiteral("restart-r"), QStringLiteral("restart"),
                QJsonObject{{QStringLiteral("at"), formatInstantUtc(m_script->at(when))}}));
        QVERIFY(startController());
        ScriptPod before = r;
        before.end = m_script->at("20:10:00"); // where the status's earliest start takes over
        m_script->truth[QStringLiteral("restart-r (before the restarts)")] = before;
        m_script->truth[QStringLiteral("restart-r")].start = m_script->at("20:10:00");
        QVERIFY2(m_script->ledgerEqualsTruth(), qPrintable(m_script->mismatch()));
    }

    // The database goes away during pod churn (and the controller is killed with a full
    // spool); after it returns the ledger equals the script, nothing twice.
    void databaseDownDuringChurn() {
        if (test::usePostgres()) {
            QVERIFY(m_pg->stop());
        } else {
            // SQLite: the controller restarts while the database's directory is gone.
            killController();
            QVERIFY(QDir().rename(m_dbDir, m_dbDir + QStringLiteral(".away")));
            QVERIFY(startController());
        }
        ScriptPod g = m_script->pod("team-b", "churn-g", "carol", 2, "20:00:00");
        m_script->start(g);
        m_script->finish(QStringLiteral("init-d"), m_script->at("21:10:09"));
        ScriptPod h = m_script->pod("team-b", "churn-h", "", 1, "21:00:00");
        m_script->start(h);
        m_script->finish(QStringLiteral("churn-h"), m_script->at("22:00:00"));
        auto spooled = [&] {
            QFile f(spoolFile());
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        // g open, d closed, h closed (h may be seen only once, already finished).
        QVERIFY2(QTest::qWaitFor([&] { return spooled().count('\n') >= 3; }, 20000), spooled().constData());
        // Not writing to the database, yet ready: the spool takes the states.
        QVERIFY(QTest::qWaitFor([&] { return readyz().contains(QLatin1String("database: unavailable")); },
                                10000));
        QVERIFY2(readyz().startsWith(QLatin1String("200 ok")), qPrintable(readyz()));
        killController(); // the spool survives a restart
        QVERIFY(startController());
        QTest::qWait(1000);
        if (test::usePostgres()) {
            QVERIFY2(m_pg->start(), qPrintable(m_pg->error));
        } else {
            QVERIFY(QDir().rename(m_dbDir + QStringLiteral(".away"), m_dbDir));
        }
        QVERIFY2(m_script->ledgerEqualsTruth(30000), qPrintable(m_script->mismatch()));
        QVERIFY(QTest::qWaitFor([&] { return !QFile::exists(spoolFile()); }, 10000));
    }

    // `gpuquota usage` shows the script's GPU-hours per namespace for the day.
    void usageCliEqualsScript() {
        killController();
        std::map<QString, double> hours;
        for (const auto &[name, p] : m_script->truth) {
            const double weight = p.resource.startsWith(QLatin1String("nvidia.com/mig-1g")) ? 1.0 / 7 : 1.0;
            const qint64 end = p.end ? std::min(p.end, m_day + 86400) : m_day + 86400;
            hours[p.ns] += std::max(p.gpus, p.initGpus) * weight * (end - p.start) / 3600.0;
        }
        const ToolRun r =
            runTool(binDir() + QStringLiteral("/gpuquota"),
                    {QStringLiteral("usage"), QStringLiteral("--db"), m_db, QStringLiteral("--by"),
                     QStringLiteral("namespace"), QStringLiteral("--period"), QStringLiteral("day"),
                     QStringLiteral("--from"), formatInstantUtc(m_day), QStringLiteral("--to"),
                     formatInstantUtc(m_day + 86400), QStringLiteral("--tz"), QStringLiteral("UTC"),
                     QStringLiteral("-o"), QStringLiteral("csv")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        int matched = 0;
        for (const QByteArray &line : r.out.split('\n')) {
            const QList<QByteArray> cells = line.split(',');
            for (const auto &[ns, h] : hours) {
                if (cells.contains(ns.toUtf8())) {
                    QVERIFY2(qAbs(cells.last().toDouble() - h) < 0.01, line.constData());
                    ++matched;
                }
            }
        }
        QVERIFY2(matched == static_cast<int>(hours.size()), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestController)
#include "tst_controller.moc"
