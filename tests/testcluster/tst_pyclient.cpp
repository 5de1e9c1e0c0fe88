// The official Kubernetes Python client (Debian's python3-kubernetes) against the test
// cluster: list, create, patch, a stale replace (409), quota admission (403), a server
// dry run, and its watches. The client's Watch sends `watch=True` (capital T); the test
// cluster must answer with a watch stream, as the API server does, not with a list.
// tests/testcluster/pyclient.py does the calls and prints one JSON line per step.
// With GQ_REAL_CLUSTER=1 (ctest's tst_realcluster_pyclient) the same script runs against
// the real kube-apiserver of scripts/real-cluster.sh and must report the same facts.

#include "tests/kube/kubetestutil.h"
#include "tests/realcluster/realcluster.h"
#include "tests/testclusterprocess.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using gq::test::RealCluster;
using gq::test::TestClusterProcess;

namespace {
bool againstRealCluster() {
    return qEnvironmentVariable("GQ_REAL_CLUSTER") == QLatin1String("1");
}
} // namespace

class TestPyClient : public QObject {
    Q_OBJECT

    TestClusterProcess m_cluster{TestClusterProcess::Options{QStringLiteral("demo"), {}, {}, 60000}};
    RealCluster m_real;
    QHash<QString, QJsonObject> m_steps;
    QString m_stderr;

    // The step's facts; fails the test when the step is missing or raised.
    QJsonObject step(const char *name) {
        const QJsonObject s = m_steps.value(QLatin1String(name));
        if (s.isEmpty())
            qWarning("step %s did not report; stderr:\n%s", name, qPrintable(m_stderr));
        return s;
    }

private Q_SLOTS:
    void initTestCase() {
        // Debian's python3, where python3-kubernetes lives (not a version manager's).
        const QString python = QStringLiteral("/usr/bin/python3");
        QProcess probe;
        probe.start(python, {QStringLiteral("-c"), QStringLiteral("import kubernetes")});
        const bool haveClient = probe.waitForFinished(30000) && probe.exitCode() == 0;
        if (!haveClient) {
            if (gq::test::inCi())
                QFAIL("python3-kubernetes is not installed (scripts/install-deps.sh installs it)");
            QSKIP("python3-kubernetes is not installed");
        }
        QString kubeconfig;
        if (againstRealCluster()) {
            GQ_START_REAL_CLUSTER(m_real);
            kubeconfig = m_real.kubeconfigPath();
        } else {
            QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
            kubeconfig = m_cluster.kubeconfigPath();
        }
        QProcess p;
        p.start(python, {QStringLiteral(GQ_PYCLIENT_SCRIPT), kubeconfig, QStringLiteral("py-team")});
        QVERIFY(p.waitForFinished(120000));
        m_stderr = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 0);
        const QList<QByteArray> lines = p.readAllStandardOutput().split('\n');
        for (const QByteArray &line : lines) {
            if (line.trimmed().isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            QVERIFY2(!o.isEmpty(), line.constData());
            QVERIFY2(!o.contains(QLatin1String("error")), line.constData());
            m_steps.insert(o.value(QLatin1String("step")).toString(), o);
        }
    }

    void listsAndCreates() {
        const QStringList names =
            step("list_namespaces").value(QLatin1String("names")).toVariant().toStringList();
        // The demo's teams on the test cluster; the namespaces every real cluster has.
        for (const char *ns : againstRealCluster()
                                  ? std::initializer_list<const char *>{"default", "kube-system"}
                                  : std::initializer_list<const char *>{"team-nlp"})
            QVERIFY2(names.contains(QLatin1String(ns)), qPrintable(names.join(u',')));
        QCOMPARE(step("create_namespace").value(QLatin1String("name")).toString(), QStringLiteral("py-team"));
    }

    void quotaRoundTrip() {
        const QJsonObject q = step("quota_round_trip");
        QVERIFY(!q.value(QLatin1String("created_rv")).toString().isEmpty());
        QCOMPARE(q.value(QLatin1String("patched_gpu")).toString(), QStringLiteral("6"));
        QCOMPARE(q.value(QLatin1String("read_gpu")).toString(), QStringLiteral("6"));
        QCOMPARE(q.value(QLatin1String("read_pods")).toString(), QStringLiteral("10"));
    }

    void staleReplaceIsAConflict() {
        const QJsonObject s = step("stale_replace");
        QCOMPARE(s.value(QLatin1String("status")).toInt(), 409);
        QCOMPARE(s.value(QLatin1String("reason")).toString(), QStringLiteral("Conflict"));
    }

    // watch=True must stream events; a plain list would give no ADDED event for a pod
    // created after the watch started.
    void watchStreamsEvents() {
        const QJsonArray events = step("watch_pods").value(QLatin1String("events")).toArray();
        QVERIFY2(events.contains(QJsonArray{QStringLiteral("ADDED"), QStringLiteral("py-pod")}),
                 QJsonDocument(events).toJson(QJsonDocument::Compact).constData());
        const QJsonArray bookmarks = step("watch_bookmarks").value(QLatin1String("events")).toArray();
        QVERIFY2(bookmarks.contains(QStringLiteral("BOOKMARK")),
                 QJsonDocument(bookmarks).toJson(QJsonDocument::Compact).constData());
    }

    void quotaAdmissionRejects() {
        const QJsonObject a = step("quota_admission");
        QCOMPARE(a.value(QLatin1String("status")).toInt(), 403);
        QCOMPARE(a.value(QLatin1String("reason")).toString(), QStringLiteral("Forbidden"));
        QVERIFY2(
            a.value(QLatin1String("message")).toString().contains(QLatin1String("exceeded quota: gpu-quota")),
            qPrintable(a.value(QLatin1String("message")).toString()));
    }

    void dryRunStoresNothing() {
        const QJsonObject d = step("dry_run");
        QCOMPARE(d.value(QLatin1String("name")).toString(), QStringLiteral("dry"));
        QCOMPARE(d.value(QLatin1String("stored")).toBool(), false);
    }
};

QTEST_GUILESS_MAIN(TestPyClient)
#include "tst_pyclient.moc"
