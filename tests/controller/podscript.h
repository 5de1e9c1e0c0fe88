#pragma once

// A scripted stretch of pod history for the suites that run the built controller: pods
// created with kubectl, run and stopped at chosen instants through the test cluster's
// phase hook (start it with --pods-stay-pending), the ground truth kept beside them, and
// the usage database's ledger read back in the same form to compare.

#include "tests/controller/controllertestutil.h"
#include "tests/kube/kubetestutil.h"
#include "tests/testclusterprocess.h"
#include "core/usage/timewindow.h"
#include "core/usage/usagestore.h"

#include <QDateTime>
#include <QJsonObject>
#include <QTime>
#include <QtTest>

#include <limits>
#include <map>
#include <memory>

namespace gq::test {

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

class PodScript {
public:
    // day: 00:00 UTC of the scripted day; dir: where the pod manifests are written.
    PodScript(TestClusterProcess &cluster, QString dir, QString db, qint64 day)
        : m_cluster(cluster)
        , m_dir(std::move(dir))
        , m_db(std::move(db))
        , m_day(day) {}

    // The rows the ledger must hold, by a name of the test's choosing (usually the pod's).
    std::map<QString, ScriptPod> truth;

    ToolRun kubectl(const QStringList &args) {
        return runTool(QStringLiteral("kubectl"),
                       QStringList{QStringLiteral("--kubeconfig"), m_cluster.kubeconfigPath()} + args);
    }
    void create(const ScriptPod &p) {
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
        const QString file = writeFile(m_dir + u'/' + p.name + QStringLiteral(".yaml"), yaml.toUtf8());
        const ToolRun k = kubectl({QStringLiteral("create"), QStringLiteral("-f"), file});
        QVERIFY2(k.exitCode == 0, k.err.constData());
    }
    // POST /_gq/pods/NS/NAME/WHAT (phase, restart) on the test cluster.
    bool hook(const QString &ns, const QString &name, const QString &what, const QJsonObject &body) {
        return m_cluster.hook("POST", QStringLiteral("/_gq/pods/%1/%2/%3").arg(ns, name, what), body).ok();
    }
    // Created and running from p.start.
    void start(const ScriptPod &p) {
        create(p);
        run(p);
    }
    void run(const ScriptPod &p) {
        const auto r = m_cluster.hook("POST", QStringLiteral("/_gq/pods/%1/%2/phase").arg(p.ns, p.name),
                                      QJsonObject{{QStringLiteral("phase"), QStringLiteral("Running")},
                                                  {QStringLiteral("startedAt"), formatInstantUtc(p.start)}});
        QVERIFY2(r.ok(), qPrintable(r.error));
        truth[p.name] = p;
    }
    void finish(const QString &name, qint64 end) {
        ScriptPod &p = truth[name];
        p.end = end;
        const auto r = m_cluster.hook("POST", QStringLiteral("/_gq/pods/%1/%2/phase").arg(p.ns, p.name),
                                      QJsonObject{{QStringLiteral("phase"), QStringLiteral("Succeeded")},
                                                  {QStringLiteral("finishedAt"), formatInstantUtc(end)}});
        QVERIFY2(r.ok(), qPrintable(r.error));
    }
    // Deleted from the cluster (its truth stays: a finished pod keeps its end).
    void remove(const QString &name) {
        const ScriptPod &p = truth[name];
        const ToolRun k = kubectl({QStringLiteral("delete"), QStringLiteral("pod"), p.name,
                                   QStringLiteral("-n"), p.ns, QStringLiteral("--wait=true")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
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
    [[nodiscard]] QStringList ledger(QString *error = nullptr) const {
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
    [[nodiscard]] QStringList expected() const {
        QStringList out;
        for (const auto &[name, p] : truth)
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
    // For a failure message: both sides.
    [[nodiscard]] QString mismatch() const {
        return ledger().join(u'\n') + u"\n--- expected\n" + expected().join(u'\n');
    }

private:
    TestClusterProcess &m_cluster;
    QString m_dir;
    QString m_db;
    qint64 m_day = 0;
};

// The test cluster with scripted pods and a PostgreSQL server of the suite's own (so it
// may stop and start it): what the suites with two replicas or a database outage start
// from. `day`: 00:00 UTC of the scripted day.
struct PostgresTestbed {
    std::unique_ptr<TestClusterProcess> cluster;
    std::unique_ptr<PrivatePostgres> pg;
    std::unique_ptr<PodScript> script;
    QString error;

    bool start(const QString &dir, qint64 day) {
        TestClusterProcess::Options options;
        options.extraArguments = {QStringLiteral("--pods-stay-pending")};
        cluster = std::make_unique<TestClusterProcess>(options);
        if (!cluster->start()) {
            error = cluster->errorString();
            return false;
        }
        pg = std::make_unique<PrivatePostgres>();
        if (!pg->init()) {
            error = pg->error;
            return false;
        }
        if (auto store = UsageStore::open(pg->url); !store) { // the schema, before any controller
            error = store.error().toString();
            return false;
        }
        script = std::make_unique<PodScript>(*cluster, dir, pg->url, day);
        return true;
    }

    // A controller configuration on this bed, written to DIR/NAME.yaml: the cluster, the
    // database (the bed's server unless `database` names another, e.g. a relay), `listen`,
    // UTC, a spool (DIR/NAME-spool unless `spool` is given), then `extra` YAML lines.
    QString controllerConfig(const QString &dir, const QString &name, int listen, const QString &extra = {},
                             const QString &database = {}, const QString &spool = {}) const {
        const QString yaml =
            QStringLiteral("cluster: {kubeconfig: %1, context: admin}\nclusterName: test\n"
                           "database: %2\nlisten: 127.0.0.1:%3\ntimeZone: UTC\nspool: %4\n")
                .arg(cluster->kubeconfigPath(), database.isEmpty() ? pg->url : database)
                .arg(listen)
                .arg(spool.isEmpty() ? dir + u'/' + name + QStringLiteral("-spool") : spool) +
            extra;
        return writeFile(dir + u'/' + name + QStringLiteral(".yaml"), yaml.toUtf8());
    }
};

} // namespace gq::test
