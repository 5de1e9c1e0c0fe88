// The demo's usage history must agree with the demo cluster it stands next to, and
// must show what the demo promises: one team over its daily GPU-hour budget (past its
// grace once the day is under way), one in grace and one within it, at any hour of the day.
#include "app/demo/demousage.h"
#include "tests/testclusterprocess.h"
#include "core/usage/usagestore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;

class TstDemoUsage : public QObject {
    Q_OBJECT

    static std::unique_ptr<UsageStore> seeded(const QTemporaryDir &dir, qint64 now, const QTimeZone &zone) {
        const QString url = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db"));
        const auto seededOk = seedDemoUsage(url, now, zone);
        if (!seededOk)
            qWarning("%s", qPrintable(seededOk.error().message));
        auto store = UsageStore::open(url);
        return store ? std::move(*store) : nullptr;
    }

private slots:
    void runningPodsMatchTheDemoCluster() {
        test::TestClusterProcess::Options options;
        options.scenario = QStringLiteral("demo");
        test::TestClusterProcess cluster(options);
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        QProcess kubectl;
        kubectl.start(QStringLiteral("kubectl"),
                      {QStringLiteral("--kubeconfig"), cluster.kubeconfigPath(), QStringLiteral("get"),
                       QStringLiteral("resourcequota"), QStringLiteral("-A"), QStringLiteral("-o"),
                       QStringLiteral("json")});
        QVERIFY(kubectl.waitForFinished(60000));
        QCOMPARE(kubectl.exitCode(), 0);
        // namespace -> GPUs the cluster's quota status says are in use
        QMap<QString, int> clusterGpus;
        const auto items =
            QJsonDocument::fromJson(kubectl.readAllStandardOutput())[QLatin1String("items")].toArray();
        for (const auto &item : items) {
            const QString ns = item[QLatin1String("metadata")][QLatin1String("namespace")].toString();
            const QJsonObject used = item[QLatin1String("status")][QLatin1String("used")].toObject();
            for (auto it = used.begin(); it != used.end(); ++it) {
                if (it.key().startsWith(QLatin1String("requests.nvidia.com/")) ||
                    it.key().endsWith(QLatin1String(".deviceclass.resource.k8s.io/devices"))) // team-dra
                    clusterGpus[ns] += it.value().toString().toInt();
            }
        }
        QVERIFY(clusterGpus.size() >= 5);

        // Who runs what: "ns user gpus" for every running GPU pod, from the pods'
        // gpuquota.io/user labels and their GPU requests.
        kubectl.start(QStringLiteral("kubectl"),
                      {QStringLiteral("--kubeconfig"), cluster.kubeconfigPath(), QStringLiteral("get"),
                       QStringLiteral("pods"), QStringLiteral("-A"), QStringLiteral("-o"),
                       QStringLiteral("json")});
        QVERIFY(kubectl.waitForFinished(60000));
        QCOMPARE(kubectl.exitCode(), 0);
        const QByteArray podList = kubectl.readAllStandardOutput();
        // DRA (team-dra): a pod's GPUs are its claims' allocated devices.
        kubectl.start(QStringLiteral("kubectl"),
                      {QStringLiteral("--kubeconfig"), cluster.kubeconfigPath(), QStringLiteral("get"),
                       QStringLiteral("resourceclaims"), QStringLiteral("-A"), QStringLiteral("-o"),
                       QStringLiteral("json")});
        QVERIFY(kubectl.waitForFinished(60000));
        QCOMPARE(kubectl.exitCode(), 0);
        QHash<QString, int> claimDevices; // "ns/claim" -> devices
        for (const auto &c :
             QJsonDocument::fromJson(kubectl.readAllStandardOutput())[QLatin1String("items")].toArray())
            claimDevices.insert(c[QLatin1String("metadata")][QLatin1String("namespace")].toString() + u'/' +
                                    c[QLatin1String("metadata")][QLatin1String("name")].toString(),
                                int(c[QLatin1String("status")][QLatin1String("allocation")]
                                     [QLatin1String("devices")][QLatin1String("results")]
                                         .toArray()
                                         .size()));
        QVERIFY(!claimDevices.isEmpty());
        QStringList clusterPods;
        const auto pods = QJsonDocument::fromJson(podList)[QLatin1String("items")].toArray();
        for (const auto &pod : pods) {
            if (pod[QLatin1String("status")][QLatin1String("phase")].toString() != QLatin1String("Running"))
                continue;
            int gpus = 0;
            for (const auto &c : pod[QLatin1String("spec")][QLatin1String("containers")].toArray()) {
                const QJsonObject requests =
                    c[QLatin1String("resources")][QLatin1String("requests")].toObject();
                for (auto it = requests.begin(); it != requests.end(); ++it) {
                    if (it.key().startsWith(QLatin1String("nvidia.com/")))
                        gpus += it.value().toString().toInt();
                }
            }
            for (const auto &claim : pod[QLatin1String("spec")][QLatin1String("resourceClaims")].toArray())
                gpus +=
                    claimDevices.value(pod[QLatin1String("metadata")][QLatin1String("namespace")].toString() +
                                       u'/' + claim[QLatin1String("resourceClaimName")].toString());
            if (gpus > 0)
                clusterPods << QStringLiteral("%1 %2 %3")
                                   .arg(pod[QLatin1String("metadata")][QLatin1String("namespace")].toString(),
                                        pod[QLatin1String("metadata")][QLatin1String("labels")]
                                           [QLatin1String("gpuquota.io/user")]
                                               .toString())
                                   .arg(gpus);
        }
        clusterPods.sort();
        QVERIFY(clusterPods.size() >= 15);

        QTemporaryDir dir;
        const qint64 now = 1'790'000'000;
        auto store = seeded(dir, now, QTimeZone("Europe/Berlin"));
        QVERIFY(store);
        const auto running = store->runningNow(now);
        QVERIFY(running);
        QMap<QString, int> dbGpus;
        QStringList dbPods;
        for (const auto &iv : *running) {
            dbGpus[iv.ns] += iv.gpus;
            dbPods << QStringLiteral("%1 %2 %3").arg(iv.ns, iv.user).arg(iv.gpus);
        }
        dbPods.sort();
        QCOMPARE(dbGpus, clusterGpus);
        QCOMPARE(dbPods, clusterPods);
    }

    void oneTeamOverOneWithinAtAnyHour_data() {
        QTest::addColumn<QString>("zone");
        QTest::addColumn<int>("minutesAfterMidnight");
        for (const char *zone : {"UTC", "America/New_York", "Asia/Kolkata"}) {
            for (int minutes : {5, 90, 12 * 60, 23 * 60 + 55})
                QTest::addRow("%s +%dmin", zone, minutes) << QString::fromLatin1(zone) << minutes;
        }
    }
    void oneTeamOverOneWithinAtAnyHour() {
        QFETCH(QString, zone);
        QFETCH(int, minutesAfterMidnight);
        const QTimeZone tz(zone.toUtf8());
        QVERIFY(tz.isValid());
        const qint64 midnight = QDateTime(QDate(2026, 11, 30), QTime(0, 0), tz).toSecsSinceEpoch();
        const qint64 now = midnight + minutesAfterMidnight * 60;
        QTemporaryDir dir;
        auto store = seeded(dir, now, tz);
        QVERIFY(store);

        const auto nlp = store->budgetStatus(BudgetScope::Namespace, QStringLiteral("team-nlp"), now);
        QVERIFY(nlp);
        QCOMPARE(nlp->size(), 1);
        QVERIFY2(
            nlp->first().used > nlp->first().limit,
            qPrintable(QStringLiteral("used %1, limit %2").arg(nlp->first().used).arg(nlp->first().limit)));

        const auto vision = store->budgetStatus(BudgetScope::Namespace, QStringLiteral("team-vision"), now);
        QVERIFY(vision);
        QCOMPARE(vision->size(), 1);
        QVERIFY(vision->first().used > 0);
        QVERIFY(vision->first().used < vision->first().limit);

        // One team in grace at any hour; one past its grace once the day is under way.
        const auto grace = store->budgetStatus(BudgetScope::Namespace, QStringLiteral("team-speech"), now);
        QVERIFY(grace);
        QCOMPARE(grace->size(), 1);
        QCOMPARE(int(grace->first().outcome), int(Decision::Outcome::AllowedInGrace));
        if (minutesAfterMidnight >= 90)
            QCOMPARE(int(nlp->first().outcome), int(Decision::Outcome::Denied));

        const auto budgets = store->budgets();
        QVERIFY(budgets);
        QCOMPARE(budgets->size(), 4);
        for (const Budget &b : *budgets)
            QCOMPARE(b.tz, zone);
        // A week of history, not just today's running pods.
        const auto week = store->usedGpuHours(BudgetScope::Namespace, QStringLiteral("team-speech"),
                                              TimeRange{now - 7 * 86400, now - 86400}, now);
        QVERIFY(week);
        QVERIFY(*week > 1.0);
    }
};

QTEST_GUILESS_MAIN(TstDemoUsage)
#include "tst_demousage.moc"
