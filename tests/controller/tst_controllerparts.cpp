// The controller composed (app/controller: ControllerParts around ControllerRuntime),
// the built binary against the test cluster and SQLite: it takes the Lease, serves
// /metrics and the self-service endpoints on `listen` and the admission webhook over
// TLS, clamps a spent namespace budget on its enforce timer, gives the Lease up on
// SIGTERM, and refuses a bad alerts: or selfService: section with exit 2 before
// anything starts. Each part has its own suite; this one checks they are wired, that
// --check-config finds what a start would, and that the process goes when it must:
// on SIGTERM in every state, and when it can no longer renew its Lease.
#include "tests/controller/controllertestutil.h"
#include "tests/rawhttpclient.h"
#include "testcluster/testcerts.h"
#include "tests/testclusterprocess.h"
#include "core/usage/usagestore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include <csignal>
#include <memory>
#include <vector>

using namespace gq;
using namespace gq::test;

namespace {

// One replica's addresses: `listen` and the webhook's.
struct Ports {
    int listen = freePort();
    int webhook = freePort();
};

} // namespace

class TestControllerParts : public QObject {
    Q_OBJECT

    std::unique_ptr<TestClusterProcess> m_cluster;
    QTemporaryDir m_dir;
    QString m_db;
    QString m_caFile;
    Ports m_ports;

    ToolRun kubectl(const QStringList &args) {
        return runTool(QStringLiteral("kubectl"),
                       QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath()} + args);
    }
    ToolRun gq(const QStringList &args) { return runTool(binDir() + QStringLiteral("/gpuquota"), args); }
    // The configuration of one replica; `election` false: no leader election.
    QString config(const QString &extra, const Ports &ports,
                   const QString &name = QStringLiteral("controller"), bool election = true) {
        const QString yaml =
            QStringLiteral(
                "cluster: {kubeconfig: %1, context: admin}\nclusterName: test\n"
                "database: %2\nlisten: 127.0.0.1:%3\ntimeZone: UTC\nspool: %4\n"
                "enforce: {enabled: true, interval: 1s}\n"
                "webhook: {listen: 127.0.0.1:%5, tlsCert: %6, tlsKey: %7}\n"
                "leaderElection: {enabled: %8, namespace: gpuquota-system, name: gpuquota-controller}\n")
                .arg(m_cluster->kubeconfigPath(), m_db)
                .arg(ports.listen)
                .arg(m_dir.filePath(name + QStringLiteral("-spool")))
                .arg(ports.webhook)
                .arg(m_dir.filePath(QStringLiteral("tls.crt")), m_dir.filePath(QStringLiteral("tls.key")),
                     election ? QStringLiteral("true") : QStringLiteral("false")) +
            extra;
        return writeFile(m_dir.filePath(name + QStringLiteral(".yaml")), yaml.toUtf8());
    }
    QString leaseHolder() {
        return QString::fromUtf8(
            kubectl({QStringLiteral("get"), QStringLiteral("lease"), QStringLiteral("gpuquota-controller"),
                     QStringLiteral("-n"), QStringLiteral("gpuquota-system"), QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.spec.holderIdentity}")})
                .out);
    }
    static QString readyz(const Ports &ports) {
        return curl({QStringLiteral("http://127.0.0.1:%1/readyz").arg(ports.listen)});
    }
    // The problem lines a run printed: "FILE:LINE:COL: key: message" each.
    static QStringList problemLines(const QByteArray &err) {
        QStringList out;
        for (const QString &line : QString::fromUtf8(err).split(u'\n', Qt::SkipEmptyParts))
            if (!line.startsWith(QLatin1String("gpuquota-controller: ")))
                out << line;
        return out;
    }
    // Starts a replica as `identity` and waits until it holds the Lease and is ready.
    void startLeader(ControllerProcess &c, const Ports &ports, const QString &name, const QString &identity) {
        QVERIFY(c.start(config(QString(), ports, name), identity));
        QTRY_COMPARE_WITH_TIMEOUT(leaseHolder(), identity, 40000);
        QTRY_VERIFY_WITH_TIMEOUT(readyz(ports).startsWith(QLatin1String("200")), 20000);
    }
    void stopCluster(int sig) { ::kill(static_cast<pid_t>(m_clusterPid), sig); }
    qint64 m_clusterPid = 0;

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        GQ_REQUIRE_TOOL("curl");
        QVERIFY(m_dir.isValid());
        m_cluster = std::make_unique<TestClusterProcess>(TestClusterProcess::Options{});
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        m_clusterPid = m_cluster->processId();
        m_db = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
        QVERIFY(UsageStore::open(m_db));
        auto tls = tc::generateServingMaterial("IP:127.0.0.1");
        QVERIFY(tls);
        writeFile(m_dir.filePath(QStringLiteral("tls.crt")), tls->serverCertPem);
        writeFile(m_dir.filePath(QStringLiteral("tls.key")), tls->serverKeyPem);
        m_caFile = writeFile(m_dir.filePath(QStringLiteral("ca.crt")), tls->caCertPem);
        for (const char *ns : {"gpuquota-system", "team-spent"})
            QCOMPARE(
                kubectl({QStringLiteral("create"), QStringLiteral("namespace"), QLatin1String(ns)}).exitCode,
                0);
        const QByteArray quota =
            "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpus, namespace: team-spent}\n"
            "spec:\n  hard: {requests.nvidia.com/gpu: \"4\"}\n";
        QCOMPARE(kubectl({QStringLiteral("apply"), QStringLiteral("-f"),
                          writeFile(m_dir.filePath(QStringLiteral("quota.yaml")), quota)})
                     .exitCode,
                 0);
        // A budget of nothing: spent at once, so the first enforce tick clamps.
        const ToolRun set =
            gq({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), m_db,
                QStringLiteral("--namespace"), QStringLiteral("team-spent"), QStringLiteral("--limit"),
                QStringLiteral("0"), QStringLiteral("--period"), QStringLiteral("day")});
        QVERIFY2(set.exitCode == 0, set.err.constData());
    }

    void badSectionsStopBeforeAnythingRuns() {
        const QString bad = config(QStringLiteral("selfService: {perUserMetric: true}\n"), m_ports);
        QProcess p;
        p.start(binDir() + QStringLiteral("/gpuquota-controller"), {QStringLiteral("--config"), bad});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QLatin1String("selfService.perUserMetric")), qPrintable(err));
        QVERIFY2(err.contains(QLatin1String(":10:")), qPrintable(err)); // its line
        QCOMPARE(curl({QStringLiteral("http://127.0.0.1:%1/healthz").arg(m_ports.listen)}).left(3),
                 QStringLiteral("000"));
        const QString badAlerts = config(QStringLiteral("alerts: {enabled: maybe}\n"), m_ports);
        p.start(binDir() + QStringLiteral("/gpuquota-controller"), {QStringLiteral("--config"), badAlerts});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(QString::fromUtf8(p.readAllStandardError()).contains(QLatin1String("alerts")),
                 "names the section");
    }

    // --check-config runs the start's own checks: every problem a start would stop on is
    // reported, all at once, one `FILE:LINE:COL: key: message` line each, exit 2; and a
    // start of the same file prints the same lines.
    void checkConfigFindsWhatStartFinds() {
        const QString notPem =
            writeFile(m_dir.filePath(QStringLiteral("not-a-cert.pem")), "this is not a certificate\n");
        QString text = QString::fromUtf8(readFile(config(QString(), m_ports)));
        text.replace(QStringLiteral("context: admin"), QStringLiteral("context: nope"));
        text.replace(m_dir.filePath(QStringLiteral("tls.crt")), notPem);
        text += QStringLiteral("selfService: {perUserMetric: true}\n"
                               "alerts:\n  enabled: maybe\n  idleAfter: soon\n");
        const QString file = writeFile(m_dir.filePath(QStringLiteral("bad-everything.yaml")), text.toUtf8());

        const ToolRun check = runTool(binDir() + QStringLiteral("/gpuquota-controller"),
                                      {QStringLiteral("--config"), file, QStringLiteral("--check-config")});
        QCOMPARE(check.exitCode, 2);
        const QStringList lines = problemLines(check.err);
        const QRegularExpression format(
            QStringLiteral("^%1:(\\d+):(\\d+): ([A-Za-z.]+): .+$").arg(QRegularExpression::escape(file)));
        QStringList keys;
        QList<int> lineNumbers;
        for (const QString &line : lines) {
            const auto m = format.match(line);
            QVERIFY2(m.hasMatch(), qPrintable(QStringLiteral("not FILE:LINE:COL: key: message: ") + line));
            keys << m.captured(3);
            lineNumbers << m.captured(1).toInt();
        }
        const QStringList expectedKeys = {QStringLiteral("cluster"), QStringLiteral("webhook.tlsCert"),
                                          QStringLiteral("selfService.perUserMetric"),
                                          QStringLiteral("alerts.enabled"),
                                          QStringLiteral("alerts.idleAfter")};
        QCOMPARE(keys, expectedKeys);                                                       // in file order
        QCOMPARE(lineNumbers, (QList<int>{1, 8, 10, 12, 13}));                              // on their lines
        QVERIFY2(lines.first().contains(QLatin1String("nope")), qPrintable(lines.first())); // the context
        QVERIFY2(lines.at(1).contains(QLatin1String("not valid PEM")), qPrintable(lines.at(1)));
        QVERIFY2(check.err.contains("5 problem(s)"), check.err.constData());

        // The start finds the same, and nothing listens.
        const ToolRun start =
            runTool(binDir() + QStringLiteral("/gpuquota-controller"), {QStringLiteral("--config"), file});
        QCOMPARE(start.exitCode, 2);
        QCOMPARE(problemLines(start.err), lines);
        QCOMPARE(curl({QStringLiteral("http://127.0.0.1:%1/healthz").arg(m_ports.listen)}).left(3),
                 QStringLiteral("000"));

        // A good file is valid, and says so.
        const ToolRun good = runTool(
            binDir() + QStringLiteral("/gpuquota-controller"),
            {QStringLiteral("--config"), config(QString(), m_ports), QStringLiteral("--check-config")});
        QVERIFY2(good.exitCode == 0, good.err.constData());
        QVERIFY2(good.out.endsWith(": valid\n"), good.out.constData());
    }

    void partsAreWired() {
        ControllerProcess controller;
        QVERIFY(controller.start(config(QStringLiteral("selfService: {perUserMetrics: false}\n"), m_ports),
                                 QStringLiteral("ctl-a")));

        // The Lease is ours, so it records and enforces: the spent budget is clamped.
        QTRY_COMPARE_WITH_TIMEOUT(leaseHolder(), QStringLiteral("ctl-a"), 30000);
        auto hard = [&] {
            return QString::fromUtf8(
                kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("gpus"),
                         QStringLiteral("-n"), QStringLiteral("team-spent"), QStringLiteral("-o"),
                         QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")})
                    .out);
        };
        QTRY_COMPARE_WITH_TIMEOUT(hard(), QStringLiteral("0"), 30000);

        // listen: /metrics (unauthenticated), the self-service endpoints (401 without a token).
        const QString metrics = curl({QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_ports.listen)});
        QVERIFY2(metrics.startsWith(QLatin1String("200 ")), qPrintable(metrics.left(200)));
        QVERIFY(metrics.contains(QLatin1String("gpuquota_spool_intervals")));
        QVERIFY(metrics.contains(QLatin1String("gpuquota_clamps_active")));
        QCOMPARE(
            curl({QStringLiteral("http://127.0.0.1:%1/quota/status?user=alice").arg(m_ports.listen)}).left(3),
            QStringLiteral("401"));
        QCOMPARE(readyz(m_ports).left(3), QStringLiteral("200"));

        // The webhook over TLS, verified with its CA: a pod without GPUs is allowed.
        const QByteArray review =
            R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u-1",)"
            R"("kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},)"
            R"("namespace":"team-spent","operation":"CREATE","userInfo":{"username":"alice"},)"
            R"("object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"team-spent"},)"
            R"("spec":{"containers":[{"name":"c","image":"busybox"}]}}}})";
        const QString answer =
            curl({QStringLiteral("--cacert"), m_caFile, QStringLiteral("-H"),
                  QStringLiteral("Content-Type: application/json"), QStringLiteral("--data-binary"),
                  QString::fromUtf8(review),
                  QStringLiteral("https://127.0.0.1:%1/validate/pods").arg(m_ports.webhook)});
        QVERIFY2(answer.startsWith(QLatin1String("200 ")), qPrintable(answer));
        const QJsonObject response = QJsonDocument::fromJson(answer.mid(4).toUtf8())
                                         .object()
                                         .value(QLatin1String("response"))
                                         .toObject();
        QCOMPARE(response.value(QLatin1String("uid")).toString(), QStringLiteral("u-1"));
        QCOMPARE(response.value(QLatin1String("allowed")).toBool(), true);

        // Issue 31 item 6: 300 idle connections on each listener (half of the webhook's
        // through the TLS handshake) lock nobody out: /healthz and a review still answer.
        test::ClientCtx ctx = test::clientContext();
        std::vector<std::unique_ptr<test::RawClient>> idle;
        for (int i = 0; i < 600; ++i) {
            idle.push_back(std::make_unique<test::RawClient>());
            const bool webhook = i % 2;
            QVERIFY(idle.back()->connectTo(webhook ? m_ports.webhook : m_ports.listen,
                                           webhook && i % 4 == 1 ? ctx.get() : nullptr));
        }
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(curl({QStringLiteral("http://127.0.0.1:%1/healthz").arg(m_ports.listen)}).left(3),
                 QStringLiteral("200"));
        QVERIFY(curl({QStringLiteral("--cacert"), m_caFile, QStringLiteral("-H"),
                      QStringLiteral("Content-Type: application/json"), QStringLiteral("--data-binary"),
                      QString::fromUtf8(review),
                      QStringLiteral("https://127.0.0.1:%1/validate/pods").arg(m_ports.webhook)})
                    .startsWith(QLatin1String("200 ")));
        QVERIFY2(timer.elapsed() < 3000, qPrintable(QStringLiteral("%1 ms").arg(timer.elapsed())));
        idle.clear();

        // SIGTERM: the Lease is given up (no waiting out its duration) and the exit is clean.
        controller.signal(SIGTERM);
        QVERIFY(controller.waitForExit(15000));
        QVERIFY(!controller.crashed());
        QCOMPARE(controller.exitCode(), 0);
        QCOMPARE(leaseHolder(), QString());
    }

    // SIGTERM ends a replica promptly whatever it is doing: a follower waiting for the
    // Lease, and a controller without leader election. (The leader's case is above.)
    void sigtermEndsFollowerAndLoneController() {
        ControllerProcess leader;
        startLeader(leader, m_ports, QStringLiteral("leader"), QStringLiteral("ctl-a"));
        QVERIFY(!QTest::currentTestFailed());

        const Ports followerPorts;
        ControllerProcess follower;
        QVERIFY(follower.start(config(QString(), followerPorts, QStringLiteral("follower")),
                               QStringLiteral("ctl-b")));
        QTRY_VERIFY_WITH_TIMEOUT(readyz(followerPorts).startsWith(QLatin1String("200")), 20000);
        follower.signal(SIGTERM);
        QVERIFY2(follower.waitForExit(5000), "a follower must leave at once on SIGTERM");
        QCOMPARE(follower.exitCode(), 0);
        QCOMPARE(leaseHolder(), QStringLiteral("ctl-a")); // the leader is not disturbed

        const Ports lonePorts;
        ControllerProcess lone;
        QVERIFY(lone.start(config(QString(), lonePorts, QStringLiteral("lone"), false)));
        QTRY_VERIFY_WITH_TIMEOUT(readyz(lonePorts).startsWith(QLatin1String("200")), 20000);
        lone.signal(SIGTERM);
        QVERIFY2(lone.waitForExit(5000),
                 "a controller without leader election must leave at once on SIGTERM");
        QCOMPARE(lone.exitCode(), 0);

        leader.signal(SIGTERM);
        QVERIFY(leader.waitForExit(15000));
        QCOMPARE(leader.exitCode(), 0);
    }

    // The API server stops answering under the leader (SIGSTOP: requests hang, as in a
    // partition): it cannot renew, so it must stop acting as leader and be gone (exit 1)
    // within the lease duration, before another replica may take over. And SIGTERM while
    // the release of the Lease hangs: /readyz says 503 meanwhile, and it still leaves.
    void leaderLeavesWhenItCannotRenew() {
        ControllerProcess leader;
        startLeader(leader, m_ports, QStringLiteral("partitioned"), QStringLiteral("ctl-p"));
        QVERIFY(!QTest::currentTestFailed());
        stopCluster(SIGSTOP);
        const bool gone = leader.waitForExit(kLeaseDurationMs);
        stopCluster(SIGCONT);
        QVERIFY2(gone, "a leader that cannot renew must exit within the lease duration");
        QVERIFY(!leader.crashed());
        QCOMPARE(leader.exitCode(), 1);

        ControllerProcess again;
        startLeader(again, m_ports, QStringLiteral("partitioned"), QStringLiteral("ctl-q"));
        QVERIFY(!QTest::currentTestFailed());
        stopCluster(SIGSTOP);
        again.signal(SIGTERM);
        QString duringRelease; // the release waits up to two seconds for the hung API server
        (void)QTest::qWaitFor(
            [&] {
                duringRelease = readyz(m_ports);
                return duringRelease.startsWith(QLatin1String("503"));
            },
            1500);
        const bool left = again.waitForExit(5000);
        stopCluster(SIGCONT);
        QVERIFY2(duringRelease.startsWith(QLatin1String("503")), qPrintable(duringRelease));
        QVERIFY2(duringRelease.contains(QLatin1String("stopping")), qPrintable(duringRelease));
        QVERIFY2(left, "SIGTERM must end the process even when the Lease cannot be given up");
        QCOMPARE(again.exitCode(), 0);
    }

    // Issue 31 item 9: a Lease that cannot be created (here every Lease request fails;
    // a namespace that does not exist is the usual cause) leaves nobody recording:
    // /readyz says so with 503 and gpuquota_leader is 0, until the Lease can be taken.
    // --check-config refuses a Lease namespace the cluster does not have.
    void nobodyLeadingIsSaid() {
        const Ports ports;
        const QString typo = config(QString(), ports, QStringLiteral("typo"));
        QString text = QString::fromUtf8(readFile(typo));
        text.replace(QLatin1String("namespace: gpuquota-system"), QLatin1String("namespace: gpuquota-sytem"));
        writeFile(typo, text.toUtf8());
        const ToolRun check = runTool(binDir() + QStringLiteral("/gpuquota-controller"),
                                      {QStringLiteral("--config"), typo, QStringLiteral("--check-config")});
        QCOMPARE(check.exitCode, 2);
        QVERIFY2(check.err.contains("leaderElection.namespace: namespace \"gpuquota-sytem\" does not exist"),
                 check.err.constData());

        // A namespace created only after the start ("not created yet"): the start's own
        // check gets one injected 500 and cannot tell, so it starts; then every Lease
        // create fails with 404 until the namespace exists.
        const QString late = QStringLiteral("gq-late");
        QVERIFY(m_cluster->setFaults(
            QJsonObject{{QStringLiteral("errorCount"), 1},
                        {QStringLiteral("pathPrefix"),
                         QString(QStringLiteral("/apis/coordination.k8s.io/v1/namespaces/") + late)}}));
        QString text2 = QString::fromUtf8(readFile(config(QString(), ports, QStringLiteral("late"))));
        text2.replace(QLatin1String("namespace: gpuquota-system"), QLatin1String("namespace: ") + late);
        const QString lateConfig = writeFile(m_dir.filePath(QStringLiteral("late.yaml")), text2.toUtf8());
        ControllerProcess c;
        QVERIFY(c.start(lateConfig, QStringLiteral("ctl-n")));
        QString ready;
        QTRY_VERIFY_WITH_TIMEOUT((ready = readyz(ports)).contains(QLatin1String("nothing enforces")), 20000);
        QTest::qWait(5000); // two retry periods of failed creates
        ready = readyz(ports);
        // Every replica records, so it stays ready (the webhook keeps its endpoints), and
        // says that nothing enforces.
        QVERIFY2(ready.startsWith(QLatin1String("200")), qPrintable(ready));
        QVERIFY2(
            ready.contains(QLatin1String("leader: nobody holds the Lease gq-late/gpuquota-controller: every "
                                         "replica records, nothing enforces")),
            qPrintable(ready));
        QTRY_VERIFY_WITH_TIMEOUT(curl({QStringLiteral("http://127.0.0.1:%1/metrics").arg(ports.listen)})
                                     .contains(QLatin1String("\ngpuquota_leader 0\n")),
                                 10000);
        QVERIFY(c.running());
        QCOMPARE(kubectl({QStringLiteral("create"), QStringLiteral("namespace"), late}).exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT((ready = readyz(ports)).contains(QLatin1String("leader: this replica")),
                                 30000);
        QVERIFY2(ready.startsWith(QLatin1String("200")), qPrintable(ready));
        QTRY_VERIFY_WITH_TIMEOUT(curl({QStringLiteral("http://127.0.0.1:%1/metrics").arg(ports.listen)})
                                     .contains(QLatin1String("\ngpuquota_leader 1\n")),
                                 10000);
        c.signal(SIGTERM);
        QVERIFY(c.waitForExit(15000));
    }

    void cleanupTestCase() {
        if (m_clusterPid)
            stopCluster(SIGCONT);
        if (m_cluster)
            QVERIFY(m_cluster->stop());
    }
};

QTEST_GUILESS_MAIN(TestControllerParts)
#include "tst_controllerparts.moc"
