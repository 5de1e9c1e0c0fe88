// The controller end to end: the built `gpuquota-controller` watching the real test
// cluster (pods created with kubectl, run and stopped at scripted instants through the
// test cluster's phase hook) and writing the usage database of this build (SQLite, or
// a private PostgreSQL server this suite starts and stops itself). The ledger must
// equal the script to the second, across a SIGKILL of the controller and while the
// database is away (the spool), and `gpuquota usage` must show the same GPU-hours.
#include "kube/kubetestutil.h"
#include "testclusterprocess.h"
#include "timewindow.h"
#include "usage/usagebackend.h"
#include "usagestore.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTcpServer>
#include <QtTest>

#include <csignal>
#include <map>

using namespace gq;
using namespace gq::test;

namespace {

QString binDir() {
    QString dir = qEnvironmentVariable("GQ_BIN_DIR");
    return dir.isEmpty() ? QStringLiteral(GQ_BINARY_DIR "/bin") : dir;
}

// What a pod of the script is: its GPUs and when it ran (end 0: still running).
struct ScriptPod {
    QString ns;
    QString name;
    QString user; // empty: no label (charged to the namespace)
    QString resource;
    int gpus = 0;
    int initGpus = 0; // an init container's request (the scheduler's max(init, sum))
    qint64 start = 0;
    qint64 end = 0;
};

// PostgreSQL of our own, so the suite may stop and start it (scripts/start-services.sh
// does the same for the shared one). PostgreSQL refuses to run as root: as root it
// runs as the postgres user.
class PrivatePostgres {
public:
    QString error;
    QString url;

    bool init() {
        const QStringList bins =
            QDir(QStringLiteral("/usr/lib/postgresql")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        if (bins.isEmpty()) {
            error = QStringLiteral(
                "no PostgreSQL under /usr/lib/postgresql (scripts/install-deps.sh installs it)");
            return false;
        }
        m_bin = QStringLiteral("/usr/lib/postgresql/%1/bin/").arg(bins.last());
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        m_port = probe.serverPort();
        probe.close();
        m_data = m_dir.filePath(QStringLiteral("pgdata"));
        QDir().mkpath(m_data);
        if (isRoot())
            runTool(QStringLiteral("chown"),
                    {QStringLiteral("-R"), QStringLiteral("postgres:postgres"), m_dir.path()});
        const ToolRun r =
            asPg(m_bin + QStringLiteral("initdb"),
                 {QStringLiteral("-D"), m_data, QStringLiteral("-U"), QStringLiteral("postgres"),
                  QStringLiteral("--auth=trust"), QStringLiteral("-E"), QStringLiteral("UTF8")});
        if (r.exitCode != 0) {
            error = QString::fromUtf8(r.err + r.out);
            return false;
        }
        if (!start())
            return false;
        const ToolRun c = runTool(QStringLiteral("psql"),
                                  {QStringLiteral("-h"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                                   QString::number(m_port), QStringLiteral("-U"), QStringLiteral("postgres"),
                                   QStringLiteral("-q"), QStringLiteral("-c"),
                                   QStringLiteral("CREATE ROLE gq LOGIN SUPERUSER"), QStringLiteral("-c"),
                                   QStringLiteral("CREATE DATABASE gq_ctl OWNER gq")});
        if (c.exitCode != 0) {
            error = QString::fromUtf8(c.err);
            return false;
        }
        url = QStringLiteral("postgresql://gq@127.0.0.1:%1/gq_ctl").arg(m_port);
        return true;
    }
    bool start() {
        const ToolRun r = asPg(
            m_bin + QStringLiteral("pg_ctl"),
            {QStringLiteral("-D"), m_data, QStringLiteral("-l"), m_dir.filePath(QStringLiteral("pg.log")),
             QStringLiteral("-w"), QStringLiteral("-t"), QStringLiteral("60"), QStringLiteral("-o"),
             QStringLiteral("-c listen_addresses=127.0.0.1 -p %1 -k %2").arg(m_port).arg(m_dir.path()),
             QStringLiteral("start")});
        if (r.exitCode != 0)
            error = QString::fromUtf8(r.err + r.out);
        return r.exitCode == 0;
    }
    bool stop() {
        return asPg(m_bin + QStringLiteral("pg_ctl"),
                    {QStringLiteral("-D"), m_data, QStringLiteral("-m"), QStringLiteral("fast"),
                     QStringLiteral("-w"), QStringLiteral("stop")})
                   .exitCode == 0;
    }
    ~PrivatePostgres() {
        if (!m_data.isEmpty())
            stop();
    }

private:
    static bool isRoot() { return qEnvironmentVariable("USER") == QLatin1String("root") || ::geteuid() == 0; }
    ToolRun asPg(const QString &program, const QStringList &args) {
        if (isRoot())
            return runTool(
                QStringLiteral("runuser"),
                QStringList{QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("--"), program} +
                    args);
        return runTool(program, args);
    }
    QTemporaryDir m_dir;
    QString m_bin;
    QString m_data;
    int m_port = 0;
};

} // namespace

class TestController : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<TestClusterProcess> m_cluster;
    QTemporaryDir m_dir;
    std::unique_ptr<PrivatePostgres> m_pg;
    QString m_db;
    QString m_dbDir; // SQLite: the directory moved away to make the database unreachable
    QString m_config;
    std::unique_ptr<QProcess> m_controller;
    qint64 m_day = 0; // 00:00 UTC of the scripted day (yesterday)
    int m_listenPort = 0;
    std::map<QString, ScriptPod> m_truth;

    ToolRun kubectl(const QStringList &args) {
        return runTool(QStringLiteral("kubectl"),
                       QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath()} + args);
    }
    QString spoolFile() const { return m_dir.filePath(QStringLiteral("spool/intervals.spool")); }

    bool startController() {
        m_controller = std::make_unique<QProcess>();
        m_controller->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_controller->start(binDir() + QStringLiteral("/gpuquota-controller"),
                            {QStringLiteral("--config"), m_config});
        return m_controller->waitForStarted(10000);
    }
    void killController() {
        if (!m_controller)
            return;
        ::kill(static_cast<pid_t>(m_controller->processId()), SIGKILL);
        m_controller->waitForFinished(10000);
        m_controller.reset();
    }

    void createPod(const ScriptPod &p) {
        QString labels =
            p.user.isEmpty() ? QString() : QStringLiteral("  labels: {gpuquota.io/user: %1}\n").arg(p.user);
        QString init;
        if (p.initGpus > 0)
            init = QStringLiteral("  initContainers:\n  - name: prep\n    image: busybox\n    resources:\n"
                                  "      limits: {%1: \"%2\"}\n")
                       .arg(p.resource)
                       .arg(p.initGpus);
        const QString yaml =
            QStringLiteral("apiVersion: v1\nkind: Pod\nmetadata:\n  name: %1\n  namespace: %2\n%3"
                           "spec:\n%4  containers:\n  - name: main\n    image: cuda\n    resources:\n"
                           "      limits: {%5: \"%6\"}\n")
                .arg(p.name, p.ns, labels, init, p.resource)
                .arg(p.gpus);
        const QString file = writeFile(m_dir.filePath(p.name + QStringLiteral(".yaml")), yaml.toUtf8());
        const ToolRun k = kubectl({QStringLiteral("create"), QStringLiteral("-f"), file});
        QVERIFY2(k.exitCode == 0, k.err.constData());
    }
    void run(const ScriptPod &p) {
        const auto r = m_cluster->hook("POST", QStringLiteral("/_gq/pods/%1/%2/phase").arg(p.ns, p.name),
                                       QJsonObject{{QStringLiteral("phase"), QStringLiteral("Running")},
                                                   {QStringLiteral("startedAt"), formatInstantUtc(p.start)}});
        QVERIFY2(r.ok(), qPrintable(r.error));
        m_truth[p.name] = p;
    }
    void finish(const QString &name, qint64 end) {
        ScriptPod &p = m_truth[name];
        p.end = end;
        const auto r = m_cluster->hook("POST", QStringLiteral("/_gq/pods/%1/%2/phase").arg(p.ns, p.name),
                                       QJsonObject{{QStringLiteral("phase"), QStringLiteral("Succeeded")},
                                                   {QStringLiteral("finishedAt"), formatInstantUtc(end)}});
        QVERIFY2(r.ok(), qPrintable(r.error));
    }
    ScriptPod pod(const char *ns, const char *name, const char *user, int gpus, const char *from,
                  const char *resource = "nvidia.com/gpu") {
        ScriptPod p;
        p.ns = QLatin1String(ns);
        p.name = QLatin1String(name);
        p.user = QLatin1String(user);
        p.resource = QLatin1String(resource);
        p.gpus = gpus;
        p.start = m_day + QTime::fromString(QLatin1String(from), Qt::ISODate).msecsSinceStartOfDay() / 1000;
        return p;
    }
    qint64 at(const char *hms) const {
        return m_day + QTime::fromString(QLatin1String(hms), Qt::ISODate).msecsSinceStartOfDay() / 1000;
    }

    // The ledger as "pod resource gpus start end" lines, sorted; open rows end in "-".
    QStringList ledger(QString *error = nullptr) {
        UsageStore::Options o;
        o.readOnly = true;
        auto store = UsageStore::open(m_db, o);
        if (!store) {
            if (error)
                *error = store.error().toString();
            return {};
        }
        auto rows =
            (*store)->intervals(0, std::numeric_limits<qint32>::max(), QDateTime::currentSecsSinceEpoch());
        QStringList out;
        for (const UsageInterval &iv : *rows)
            out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
                       .arg(iv.ns, iv.podName, iv.user, iv.resource)
                       .arg(iv.gpus)
                       .arg(formatInstantUtc(iv.start),
                            iv.end ? formatInstantUtc(*iv.end) : QStringLiteral("-"));
        out.sort();
        return out;
    }
    QStringList expected() const {
        QStringList out;
        for (const auto &[name, p] : m_truth)
            out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
                       .arg(p.ns, p.name, p.user.isEmpty() ? p.ns : p.user, p.resource)
                       .arg(std::max(p.gpus, p.initGpus))
                       .arg(formatInstantUtc(p.start), p.end ? formatInstantUtc(p.end) : QStringLiteral("-"));
        out.sort();
        return out;
    }
    bool ledgerEqualsTruth(int timeoutMs = 20000) {
        return QTest::qWaitFor([&] { return ledger() == expected(); }, timeoutMs);
    }
    // GET /readyz on `listen`: "STATUS body".
    QString readyz() {
        const ToolRun r = runTool(QStringLiteral("curl"),
                                  {QStringLiteral("-s"), QStringLiteral("-w"), QStringLiteral("%{http_code}"),
                                   QStringLiteral("http://127.0.0.1:%1/readyz").arg(m_listenPort)});
        return QString::fromUtf8(r.out.right(3) + ' ' + r.out.chopped(3));
    }
    void writeConfig() {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        m_listenPort = probe.serverPort();
        probe.close();
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
    }
    void cleanupTestCase() { killController(); }

    // Pods start and stop at known instants while the controller watches.
    void scriptedDay() {
        QVERIFY(startController());
        ScriptPod a = pod("team-a", "train-a", "alice", 2, "08:00:00");
        ScriptPod b = pod("team-a", "notebook-b", "", 1, "09:15:07");
        ScriptPod c = pod("team-b", "mig-c", "bob", 3, "10:00:00", "nvidia.com/mig-1g.10gb");
        ScriptPod d = pod("team-b", "init-d", "bob", 1, "13:00:01");
        d.initGpus = 4; // max(init 4, containers 1) = 4
        for (const ScriptPod &p : {a, b, c, d}) {
            createPod(p);
            run(p);
        }
        QVERIFY2(ledgerEqualsTruth(),
                 qPrintable(ledger().join(u'\n') + u"\n--- expected\n" + expected().join(u'\n')));
        QVERIFY(QTest::qWaitFor([&] { return readyz().startsWith(QLatin1String("200 ok")); }, 10000));
        QVERIFY2(readyz().contains(QLatin1String("database: available")), qPrintable(readyz()));
        finish(QStringLiteral("train-a"), at("12:30:15"));
        finish(QStringLiteral("mig-c"), at("11:00:00"));
        QVERIFY2(ledgerEqualsTruth(),
                 qPrintable(ledger().join(u'\n') + u"\n--- expected\n" + expected().join(u'\n')));
        // A deleted finished pod changes nothing.
        QCOMPARE(kubectl({QStringLiteral("delete"), QStringLiteral("pod"), QStringLiteral("-n"),
                          QStringLiteral("team-b"), QStringLiteral("mig-c"), QStringLiteral("--wait=false")})
                     .exitCode,
                 0);
        QTest::qWait(1000);
        QCOMPARE(ledger(), expected());
    }

    // SIGKILL, pods change while the controller is down, restart: the ledger is whole.
    void restartMidDay() {
        killController();
        finish(QStringLiteral("notebook-b"), at("17:00:00"));
        ScriptPod e = pod("team-a", "short-e", "alice", 1, "18:00:00"); // starts and ends while down
        createPod(e);
        run(e);
        finish(QStringLiteral("short-e"), at("18:45:30"));
        ScriptPod f = pod("team-a", "gone-f", "alice", 1, "19:00:00");
        createPod(f);
        run(f);
        QVERIFY(startController()); // sees f open...
        QVERIFY2(ledgerEqualsTruth(),
                 qPrintable(ledger().join(u'\n') + u"\n--- expected\n" + expected().join(u'\n')));
        killController();
        // ... and f is deleted while the controller is down: closed when noticed.
        const qint64 before = QDateTime::currentSecsSinceEpoch();
        QCOMPARE(kubectl({QStringLiteral("delete"), QStringLiteral("pod"), QStringLiteral("-n"),
                          QStringLiteral("team-a"), QStringLiteral("gone-f"), QStringLiteral("--wait=false")})
                     .exitCode,
                 0);
        QVERIFY(startController());
        m_truth.erase(QStringLiteral("gone-f"));
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QStringList rows = ledger();
                return rows.size() == static_cast<qsizetype>(m_truth.size()) + 1 &&
                       !rows.filter(QStringLiteral("gone-f")).value(0).endsWith(u'-');
            },
            20000));
        const QString f_row = ledger().filter(QStringLiteral("gone-f")).value(0);
        const qint64 end = parseInstant(f_row.section(u' ', 6, 6)).value_or(0);
        QVERIFY2(end >= before && end <= QDateTime::currentSecsSinceEpoch(), qPrintable(f_row));
        m_truth[QStringLiteral("gone-f")] = f;
        m_truth[QStringLiteral("gone-f")].end = end;
        QCOMPARE(ledger(), expected());
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
        ScriptPod g = pod("team-b", "churn-g", "carol", 2, "20:00:00");
        createPod(g);
        run(g);
        finish(QStringLiteral("init-d"), at("21:10:09"));
        ScriptPod h = pod("team-b", "churn-h", "", 1, "21:00:00");
        createPod(h);
        run(h);
        finish(QStringLiteral("churn-h"), at("22:00:00"));
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
        QVERIFY2(ledgerEqualsTruth(30000),
                 qPrintable(ledger().join(u'\n') + u"\n--- expected\n" + expected().join(u'\n')));
        QVERIFY(QTest::qWaitFor([&] { return !QFile::exists(spoolFile()); }, 10000));
    }

    // `gpuquota usage` shows the script's GPU-hours per namespace for the day.
    void usageCliEqualsScript() {
        killController();
        std::map<QString, double> hours;
        for (const auto &[name, p] : m_truth) {
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
