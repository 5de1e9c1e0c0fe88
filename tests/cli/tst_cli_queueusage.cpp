// `gpuquota usage --by clusterqueue|localqueue` and `gpuquota report chargeback --by
// clusterqueue|localqueue` (app/cli/queuegrouping.cpp, core/kueue/queueattribution.h): a
// real SQLite ledger with November's GPU-hours of four namespaces, grouped through the
// LocalQueues of the test cluster's demo scenario (team-speech and team-recsys both
// point at cq-serving, team-nlp at cq-nlp; scratch has none).
#include "tests/clirun.h"
#include "tests/testclusterprocess.h"

#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using gq::test::CliRun;
using gq::test::gpuquotaBinary;
using gq::test::runCli;
using gq::test::TestClusterProcess;

namespace {
// subject -> GPU-hours summed over the rows of `rows` (each with `key` naming it too).
QMap<QString, double> hoursBy(const QJsonArray &rows, const QString &key, const char *hoursKey) {
    QMap<QString, double> out;
    for (const QJsonValue &v : rows) {
        const QJsonObject o = v.toObject();
        const QString subject = o.value(QLatin1String("subject")).toString();
        if (o.value(key).toString() != subject)
            return {{QStringLiteral("row without its %1 key").arg(key), 0}};
        out[subject] += o.value(QLatin1String(hoursKey)).toDouble();
    }
    return out;
}
} // namespace

class TestCliQueueUsage : public QObject {
    Q_OBJECT

    std::unique_ptr<TestClusterProcess> m_cluster;
    QTemporaryDir m_dir;
    QString m_db;

    // The cluster flags after the verb's words (`report` wants its kind first).
    CliRun gq(const QStringList &args) {
        return runCli(gpuquotaBinary(),
                      args + QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath(),
                                         QStringLiteral("--context"), QStringLiteral("readonly")});
    }
    QStringList usage(const QString &by) const {
        return {QStringLiteral("usage"),
                QStringLiteral("--db"),
                m_db,
                QStringLiteral("--by"),
                by,
                QStringLiteral("--period"),
                QStringLiteral("month"),
                QStringLiteral("--from"),
                QStringLiteral("2026-11-01T00:00:00Z"),
                QStringLiteral("--to"),
                QStringLiteral("2026-12-01T00:00:00Z"),
                QStringLiteral("--now"),
                QStringLiteral("2026-12-02T00:00:00Z"),
                QStringLiteral("-o"),
                QStringLiteral("json")};
    }
    QStringList chargeback(const QString &by) const {
        return {QStringLiteral("report"),  QStringLiteral("chargeback"),
                QStringLiteral("--db"),    m_db,
                QStringLiteral("--month"), QStringLiteral("2026-11"),
                QStringLiteral("--by"),    by,
                QStringLiteral("--rate"),  QStringLiteral("2.50"),
                QStringLiteral("-o"),      QStringLiteral("json")};
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_db = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
        auto store = gq::UsageStore::open(m_db);
        QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
        using gq::test::interval;
        const auto nov = [](int day, int hour) {
            return QDateTime(QDate(2026, 11, day), QTime(hour, 0), Qt::UTC).toSecsSinceEpoch();
        };
        // team-speech 2 GPUs x 4 h = 8; team-recsys 1 x 6 = 6 (both cq-serving: 14);
        // team-nlp 4 x 2 = 8 (cq-nlp); scratch 1 x 3 = 3 (no LocalQueue).
        for (const gq::UsageInterval &iv : {interval(QStringLiteral("team-speech"), QStringLiteral("alice"),
                                                     QStringLiteral("asr-0"), 2, nov(3, 10), nov(3, 14)),
                                            interval(QStringLiteral("team-recsys"), QStringLiteral("bob"),
                                                     QStringLiteral("rank-0"), 1, nov(4, 0), nov(4, 6)),
                                            interval(QStringLiteral("team-nlp"), QStringLiteral("carol"),
                                                     QStringLiteral("llm-0"), 4, nov(5, 8), nov(5, 10)),
                                            interval(QStringLiteral("scratch"), QStringLiteral("dave"),
                                                     QStringLiteral("try-0"), 1, nov(6, 9), nov(6, 12))}) {
            auto r = (*store)->upsertInterval(iv);
            QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        }
        m_cluster = TestClusterProcess::ofScenario(QStringLiteral("demo"));
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
    }

    void usageByClusterQueue() {
        const CliRun r = gq(usage(QStringLiteral("clusterqueue")));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("by")).toString(), QStringLiteral("clusterqueue"));
        const QMap<QString, double> hours =
            hoursBy(o.value(QLatin1String("rows")).toArray(), QStringLiteral("clusterQueue"), "gpu_hours");
        const QMap<QString, double> expected{{QStringLiteral("cq-serving"), 14.0},
                                             {QStringLiteral("cq-nlp"), 8.0},
                                             {QStringLiteral("(no queue)"), 3.0}};
        QCOMPARE(hours, expected);
    }

    void usageByLocalQueue() {
        const CliRun r = gq(usage(QStringLiteral("localqueue")));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("by")).toString(), QStringLiteral("localqueue"));
        const QMap<QString, double> hours =
            hoursBy(o.value(QLatin1String("rows")).toArray(), QStringLiteral("localQueue"), "gpu_hours");
        const QMap<QString, double> expected{{QStringLiteral("team-speech/speech"), 8.0},
                                             {QStringLiteral("team-recsys/recsys"), 6.0},
                                             {QStringLiteral("team-nlp/nlp"), 8.0},
                                             {QStringLiteral("(no queue)"), 3.0}};
        QCOMPARE(hours, expected);
    }

    void usageTableByClusterQueue() {
        QStringList args = usage(QStringLiteral("cq"));
        args.removeLast();
        args.removeLast(); // the table
        const CliRun r = gq(args);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("CLUSTERQUEUE")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("total: 25.00 GPU-h")), qPrintable(r.out));
    }

    void chargebackByClusterQueue() {
        const CliRun r = gq(chargeback(QStringLiteral("clusterqueue")));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("by")).toString(), QStringLiteral("clusterqueue"));
        const QJsonArray rows = o.value(QLatin1String("rows")).toArray();
        QCOMPARE(hoursBy(rows, QStringLiteral("clusterQueue"), "cost"),
                 (QMap<QString, double>{{QStringLiteral("cq-serving"), 35.0},
                                        {QStringLiteral("cq-nlp"), 20.0},
                                        {QStringLiteral("(no queue)"), 7.5}}));
        // Highest cost first, the total the sum of the lines.
        QCOMPARE(rows.first().toObject().value(QLatin1String("subject")).toString(),
                 QStringLiteral("cq-serving"));
        QCOMPARE(o.value(QLatin1String("total")).toObject().value(QLatin1String("cost")).toDouble(), 62.5);
    }

    void chargebackByLocalQueue() {
        const CliRun r = gq(chargeback(QStringLiteral("localqueue")));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(hoursBy(o.value(QLatin1String("rows")).toArray(), QStringLiteral("localQueue"), "gpu_hours"),
                 (QMap<QString, double>{{QStringLiteral("team-speech/speech"), 8.0},
                                        {QStringLiteral("team-recsys/recsys"), 6.0},
                                        {QStringLiteral("team-nlp/nlp"), 8.0},
                                        {QStringLiteral("(no queue)"), 3.0}}));
    }

    void namespaceGroupingUnchanged() {
        const CliRun r = gq(chargeback(QStringLiteral("namespace")));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("by")).toString(), QStringLiteral("namespace"));
        QCOMPARE(o.value(QLatin1String("rows")).toArray().size(), 4);
        QVERIFY(!o.value(QLatin1String("rows"))
                     .toArray()
                     .first()
                     .toObject()
                     .contains(QLatin1String("clusterQueue")));
    }

    void badGrouping() {
        const CliRun u = gq(usage(QStringLiteral("cohort")));
        QCOMPARE(u.code, 2);
        QVERIFY2(u.err.contains(QLatin1String("clusterqueue or localqueue")), qPrintable(u.err));
        const CliRun c = gq(chargeback(QStringLiteral("cohort")));
        QCOMPARE(c.code, 2);
        QVERIFY2(c.err.contains(QLatin1String("clusterqueue or localqueue")), qPrintable(c.err));
    }

    void cleanupTestCase() { m_cluster.reset(); }
};

QTEST_GUILESS_MAIN(TestCliQueueUsage)
#include "tst_cli_queueusage.moc"
