// What `gpuquota-console --demo` promises, with its real children (test cluster, GPU
// exporter, controller) started by the real DemoLauncher: a populated cluster (eight
// teams, MIG and shared-GPU pods), budgets in grace and past it, an active and a
// scheduled boost (the active one on the ResourceQuota, applied by the demo
// controller), audit entries, a live GPU feed with the demo's pods and an idle GPU, and
// a pod started with kubectl recorded by the demo controller.
#include "core/usage/auditlog.h"
#include "core/usage/boostledger.h"
#include "app/console/demolauncher.h"
#include "resources/demo/demoteams.h"
#include "core/usage/usagestore.h"

#include <QDateTime>
#include <QEventLoop>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace gq;

namespace {

QString bin(const char *name) {
    return QStringLiteral(GQ_BINARY_DIR "/bin/") + QLatin1String(name);
}

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run kubectl(const QString &kubeconfig, QStringList args, const QByteArray &input = {}) {
    QProcess p;
    args.prepend(kubeconfig);
    args.prepend(QStringLiteral("--kubeconfig"));
    p.start(QStringLiteral("kubectl"), args);
    if (!input.isEmpty()) {
        p.write(input);
        p.closeWriteChannel();
    }
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QJsonArray items(const Run &r) {
    return QJsonDocument::fromJson(r.out).object().value(QLatin1String("items")).toArray();
}

QByteArray httpGet(const QString &url) {
    QNetworkAccessManager nam;
    QNetworkReply *reply = nam.get(QNetworkRequest(QUrl(url)));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray body = reply->error() == QNetworkReply::NoError ? reply->readAll() : QByteArray();
    reply->deleteLater();
    return body;
}

int expectedRunningPods() {
    int n = 0;
    for (const demo::Team &t : demo::kTeams)
        n += t.runningPodCount();
    return n;
}

} // namespace

class TstDemoWorld : public QObject {
    Q_OBJECT

    DemoLauncher *m_demo = nullptr;

    std::unique_ptr<UsageStore> store() const {
        auto s = UsageStore::open(m_demo->databaseUrl());
        return s ? std::move(*s) : nullptr;
    }

private slots:
    void initTestCase() {
        qputenv("GQ_TESTCLUSTER", bin("gpuquota-testcluster").toUtf8());
        qputenv("GQ_TEST_EXPORTER", bin("gq-test-exporter").toUtf8());
        qputenv("GQ_CONTROLLER", bin("gpuquota-controller").toUtf8());
        m_demo = new DemoLauncher(this);
        QSignalSpy ready(m_demo, &DemoLauncher::ready);
        QSignalSpy failed(m_demo, &DemoLauncher::failed);
        m_demo->start();
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty() || !failed.isEmpty(), 120000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        QVERIFY(!m_demo->exporterUrl().isEmpty());
        QVERIFY(!m_demo->controllerUrl().isEmpty());
        // ready() waits for the controller to record the running pods.
        auto s = store();
        QVERIFY(s);
        const auto running = s->runningNow(QDateTime::currentSecsSinceEpoch());
        QVERIFY(running && !running->empty());
    }

    void cleanupTestCase() {
        if (m_demo)
            m_demo->stop();
    }

    void clusterHasTeamsWithMigAndSharedPods() {
        const Run ns =
            kubectl(m_demo->kubeconfigPath(),
                    {QStringLiteral("get"), QStringLiteral("namespaces"), QStringLiteral("-l"),
                     QStringLiteral("gpuquota.io/team"), QStringLiteral("-o"), QStringLiteral("json")});
        QCOMPARE(ns.exitCode, 0);
        QCOMPARE(items(ns).size(), qsizetype(demo::kTeams.size()));
        for (const char *kind : {"resourcequotas", "limitranges"}) {
            const Run r = kubectl(m_demo->kubeconfigPath(),
                                  {QStringLiteral("get"), QLatin1String(kind), QStringLiteral("-A"),
                                   QStringLiteral("-o"), QStringLiteral("json")});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(items(r).size() >= 8, kind);
        }
        const Run pods = kubectl(m_demo->kubeconfigPath(),
                                 {QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("-A"),
                                  QStringLiteral("-o"), QStringLiteral("json")});
        QCOMPARE(pods.exitCode, 0);
        int running = 0, mig = 0, shared = 0, labelled = 0;
        for (const QJsonValue &v : items(pods)) {
            const QJsonObject pod = v.toObject();
            if (pod[QLatin1String("status")][QLatin1String("phase")].toString() != QLatin1String("Running"))
                continue;
            const QByteArray spec = QJsonDocument(pod[QLatin1String("spec")].toObject()).toJson();
            // GPUs from extended resources, or (team-dra) from DRA claims.
            if (!spec.contains("nvidia.com/") && !spec.contains("resourceClaims"))
                continue;
            ++running;
            mig += spec.contains("nvidia.com/mig-") ? 1 : 0;
            shared += spec.contains("nvidia.com/gpu.shared") ? 1 : 0;
            labelled +=
                pod[QLatin1String("metadata")][QLatin1String("labels")][QLatin1String("gpuquota.io/user")]
                        .toString()
                        .isEmpty()
                    ? 0
                    : 1;
        }
        QCOMPARE(running, expectedRunningPods());
        QVERIFY(mig >= 2);
        QCOMPARE(shared, 2); // two one-replica pods time-slice one L4
        QCOMPARE(labelled, running);
        const Run nodes =
            kubectl(m_demo->kubeconfigPath(),
                    {QStringLiteral("get"), QStringLiteral("nodes"), QStringLiteral("-l"),
                     QStringLiteral("nvidia.com/gpu.product"), QStringLiteral("-o"), QStringLiteral("name")});
        QCOMPARE(nodes.exitCode, 0);
        QVERIFY(nodes.out.count('\n') >= 10);
    }

    // The demo controller records the running pods (the seeding leaves them to it), from
    // the backdated starts, so the GPU-hours so far agree with the pods.
    void controllerRecordsTheRunningPods() {
        const auto openCount = [this] {
            auto s = store();
            if (!s)
                return -1;
            auto running = s->runningNow(QDateTime::currentSecsSinceEpoch());
            return running ? int(running->size()) : -1;
        };
        QTRY_COMPARE_WITH_TIMEOUT(openCount(), expectedRunningPods(), 90000);
        auto s = store();
        QVERIFY(s);
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        auto running = s->runningNow(now);
        QVERIFY(running);
        qint64 oldest = now;
        for (const UsageInterval &iv : *running) {
            QCOMPARE(iv.source, QStringLiteral("controller"));
            oldest = std::min(oldest, iv.start);
        }
        QVERIFY2(now - oldest >= 3 * 3600, "the pods' starts are not backdated");
    }

    void oneTeamInGraceOneOverBudget() {
        auto s = store();
        QVERIFY(s);
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const auto over = s->budgetStatus(BudgetScope::Namespace, QLatin1String(demo::kOverTeam), now);
        QVERIFY(over);
        QCOMPARE(over->size(), 1);
        QCOMPARE(int(over->first().outcome), int(Decision::Outcome::Denied));
        QVERIFY(over->first().used > over->first().limit + over->first().graceAllowance);
        const auto grace = s->budgetStatus(BudgetScope::Namespace, QLatin1String(demo::kGraceTeam), now);
        QVERIFY(grace);
        QCOMPARE(grace->size(), 1);
        QVERIFY2(grace->first().outcome == Decision::Outcome::AllowedInGrace,
                 qPrintable(QStringLiteral("used %1 limit %2 allowance %3")
                                .arg(grace->first().used)
                                .arg(grace->first().limit)
                                .arg(grace->first().graceAllowance)));
        const auto budgets = s->budgets();
        QVERIFY(budgets);
        bool userBudget = false;
        for (const Budget &b : *budgets)
            userBudget = userBudget || b.scope == BudgetScope::User;
        QVERIFY(userBudget);
    }

    void activeAndScheduledBoost() {
        const auto states = [this] {
            QList<Boost::State> out;
            auto s = store();
            if (!s)
                return out;
            BoostLedger ledger(*s);
            auto all = ledger.list({});
            for (const Boost &b : all.value_or(QList<Boost>{}))
                out << b.state;
            return out;
        };
        // The controller's first boost pass applies the one that has begun.
        QTRY_VERIFY_WITH_TIMEOUT(states().contains(Boost::State::Active), 60000);
        QVERIFY(states().contains(Boost::State::Scheduled));
        const Run quota =
            kubectl(m_demo->kubeconfigPath(),
                    {QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
                     QStringLiteral("-n"), QStringLiteral("team-vision"), QStringLiteral("-o"),
                     QStringLiteral("json")});
        QCOMPARE(quota.exitCode, 0);
        const QJsonObject q = QJsonDocument::fromJson(quota.out).object();
        QVERIFY(
            !q[QLatin1String("metadata")][QLatin1String("annotations")][QLatin1String("gpuquota.io/boosts")]
                 .toString()
                 .isEmpty());
        QCOMPARE(q[QLatin1String("spec")][QLatin1String("hard")][QLatin1String("requests.nvidia.com/gpu")]
                     .toString(),
                 QStringLiteral("20"));
    }

    void auditEntriesForTheSeededChanges() {
        auto s = store();
        QVERIFY(s);
        AuditLog log(*s);
        const auto entries = log.list();
        QVERIFY(entries);
        QStringList actions;
        for (const AuditEntry &e : *entries)
            actions << e.action;
        QVERIFY2(actions.count(QStringLiteral("budget.set")) >= 4, qPrintable(actions.join(u',')));
        QVERIFY2(actions.count(QStringLiteral("boost.grant")) >= 2, qPrintable(actions.join(u',')));
        // The demo controller's own changes: the boost applied, and (on its first
        // enforcement pass, every 10 s) the team past its grace clamped.
        QVERIFY2(actions.contains(QStringLiteral("boost.apply")), qPrintable(actions.join(u',')));
        const auto clamped = [this] {
            auto s = store();
            if (!s)
                return false;
            const auto all = AuditLog(*s).list();
            for (const AuditEntry &e : all.value_or(QList<AuditEntry>{}))
                if (e.action == QLatin1String("quota.clamp") &&
                    e.target.startsWith(QLatin1String(demo::kOverTeam) + QLatin1Char('/')))
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(clamped(), 60000);
    }

    void exporterServesTheDemoGpusWithOneIdle() {
        const QByteArray first = httpGet(m_demo->exporterUrl());
        QVERIFY(!first.isEmpty());
        int gpus = 0, idle = 0;
        QHash<QString, QSet<QString>> holdersByUuid; // a time-sliced GPU has a series per pod
        static const QRegularExpression util(QStringLiteral(R"(^DCGM_FI_DEV_GPU_UTIL\{(.*)\} (\S+)$)"));
        static const QRegularExpression uuid(QStringLiteral("UUID=\"([^\"]+)\""));
        static const QRegularExpression instance(QStringLiteral("GPU_I_ID=\"([^\"]+)\""));
        static const QRegularExpression pod(QStringLiteral("pod=\"([^\"]+)\""));
        // Used + free framebuffer per series: each card's adds up to its model's size.
        static const QRegularExpression fb(QStringLiteral("^DCGM_FI_DEV_FB_(USED|FREE)\\{(.*)\\} (\\S+)$"));
        QHash<QString, double> framebuffer;
        for (const QByteArray &line : first.split('\n')) {
            const QString text = QString::fromUtf8(line);
            if (const auto f = fb.match(text); f.hasMatch())
                framebuffer[f.captured(2)] += f.captured(3).toDouble();
            const auto m = util.match(text);
            if (!m.hasMatch())
                continue;
            ++gpus;
            const QString labels = m.captured(1);
            if (const auto p = pod.match(labels); p.hasMatch())
                holdersByUuid[uuid.match(labels).captured(1) + QLatin1Char('/') +
                              instance.match(labels).captured(1)]
                    .insert(p.captured(1));
            if (labels.contains(QStringLiteral("pod=\"")) && m.captured(2).toDouble() < 5)
                ++idle;
        }
        QVERIFY2(gpus >= 80, qPrintable(QString::number(gpus)));
        QCOMPARE(idle, 1);
        QVERIFY(first.contains("GPU_I_PROFILE=\"3g.40gb\""));
        const auto sharedGpus = std::count_if(holdersByUuid.cbegin(), holdersByUuid.cend(),
                                              [](const QSet<QString> &pods) { return pods.size() > 1; });
        QCOMPARE(sharedGpus, 1);
        // Every running GPU pod of the cluster is on some GPU of the feed.
        for (const demo::Team &team : demo::kTeams)
            for (int i = 0; i < team.runningPodCount(); ++i) {
                const QByteArray label = QByteArray("namespace=\"") + team.ns + "\",pod=\"" +
                                         team.userOfPod(i) + "-train-" + QByteArray::number(i + 1) + '"';
                QVERIFY2(first.contains(label), label.constData());
            }
        // Each card's framebuffer (used + free) is its model's, as a real exporter reports it.
        static const QRegularExpression model(QStringLiteral("modelName=\"([^\"]+)\""));
        QVERIFY(!framebuffer.isEmpty());
        const QHash<QString, double> sizeMiB{{QStringLiteral("NVIDIA H100 80GB HBM3"), 81559},
                                             {QStringLiteral("NVIDIA A100-SXM4-80GB"), 81920},
                                             {QStringLiteral("NVIDIA L40S"), 46068},
                                             {QStringLiteral("NVIDIA L4"), 23034}};
        for (auto it = framebuffer.cbegin(); it != framebuffer.cend(); ++it) {
            if (it.key().contains(QStringLiteral("GPU_I_PROFILE")))
                continue; // a MIG instance has its slice
            const QString name = model.match(it.key()).captured(1);
            QVERIFY2(sizeMiB.contains(name), qPrintable(name));
            QVERIFY2(std::abs(it.value() - sizeMiB.value(name)) <= 1, qPrintable(it.key()));
        }
        // The readings change over time.
        QTest::qWait(6000);
        QVERIFY(httpGet(m_demo->exporterUrl()) != first);
    }

    void podStartedWithKubectlIsRecorded() {
        const QByteArray manifest = R"(apiVersion: v1
kind: Pod
metadata:
  name: kubectl-probe
  namespace: team-vision
  labels: {gpuquota.io/user: visitor}
spec:
  restartPolicy: Never
  containers:
  - name: main
    image: nvcr.io/nvidia/pytorch:24.05-py3
    resources:
      requests: {nvidia.com/gpu: "1", cpu: "1", memory: 4Gi}
      limits: {nvidia.com/gpu: "1", cpu: "1", memory: 4Gi}
)";
        const Run created =
            kubectl(m_demo->kubeconfigPath(),
                    {QStringLiteral("apply"), QStringLiteral("-f"), QStringLiteral("-")}, manifest);
        QVERIFY2(created.exitCode == 0, created.err.constData());
        const auto recorded = [this] {
            auto s = store();
            if (!s)
                return false;
            auto running = s->runningNow(QDateTime::currentSecsSinceEpoch());
            for (const UsageInterval &iv : running.value_or(std::vector<UsageInterval>{}))
                if (iv.podName == QLatin1String("kubectl-probe") && iv.user == QLatin1String("visitor"))
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(recorded(), 60000);
    }
};

QTEST_GUILESS_MAIN(TstDemoWorld)
#include "tst_demoworld.moc"
