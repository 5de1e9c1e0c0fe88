// `gpuquota usage --by clusterqueue|localqueue` and `gpuquota report chargeback --by
// clusterqueue|localqueue` (app/cli/queuegrouping.cpp, core/kueue/queueattribution.h): a
// real SQLite ledger with November's GPU-hours of four namespaces, grouped through the
// LocalQueues of the test cluster's demo scenario (team-speech and team-recsys both
// point at cq-serving, team-nlp at cq-nlp; scratch has none). And `gpuquota budget status
// --by clusterqueue|localqueue` over December's budgets (core/usage/budgetgroups.h).
#include "tests/clirun.h"
#include "tests/testclusterprocess.h"

#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
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

    QStringList budgetStatus(const QString &by, const QString &format) const {
        return {QStringLiteral("budget"), QStringLiteral("status"),
                QStringLiteral("--db"),   m_db,
                QStringLiteral("--by"),   by,
                QStringLiteral("--now"),  QStringLiteral("2026-12-01T12:00:00Z"),
                QStringLiteral("-o"),     format};
    }
    // The groups of `budget status --by by -o json`, each budget carrying its group's key.
    QJsonArray budgetGroups(const QString &by, const QString &key) {
        const CliRun r = gq(budgetStatus(by, QStringLiteral("json")));
        if (r.code != 0)
            return {QJsonObject{{key, r.err}}};
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        if (o.value(QLatin1String("by")).toString() != by)
            return {QJsonObject{{key, r.out}}};
        return o.value(QLatin1String("groups")).toArray();
    }
    // queue -> "used/limit subject subject..." (subjects sorted), checking each budget's
    // key and that the subtotals are the sums of the group's budgets.
    static QMap<QString, QString> subtotals(const QJsonArray &groups, const QString &key) {
        QMap<QString, QString> out;
        for (const QJsonValue &v : groups) {
            const QJsonObject g = v.toObject();
            const QString queue = g.value(key).toString();
            double used = 0, limit = 0;
            QStringList subjects;
            for (const QJsonValue &b : g.value(QLatin1String("budgets")).toArray()) {
                const QJsonObject o = b.toObject();
                if (o.value(key).toString() != queue)
                    return {{queue, QStringLiteral("a budget without its key")}};
                used += o.value(QLatin1String("used")).toDouble();
                limit += o.value(QLatin1String("limit")).toDouble();
                subjects << o.value(QLatin1String("subject")).toString();
            }
            if (std::abs(used - g.value(QLatin1String("used")).toDouble()) > 1e-9 ||
                std::abs(limit - g.value(QLatin1String("limit")).toDouble()) > 1e-9)
                return {{queue, QStringLiteral("subtotal is not the sum")}};
            subjects.sort();
            out.insert(queue,
                       QStringLiteral("%1/%2 %3").arg(used).arg(limit).arg(subjects.join(QLatin1Char(' '))));
        }
        return out;
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
        // December (after the months above): frank runs in team-speech (2 x 3 h = 6) and
        // team-nlp (1 x 2 h = 2); month budgets on four namespaces and two users.
        const auto dec1 = [](int hour) {
            return QDateTime(QDate(2026, 12, 1), QTime(hour, 0), Qt::UTC).toSecsSinceEpoch();
        };
        for (const gq::UsageInterval &iv : {interval(QStringLiteral("team-speech"), QStringLiteral("frank"),
                                                     QStringLiteral("asr-1"), 2, dec1(2), dec1(5)),
                                            interval(QStringLiteral("team-nlp"), QStringLiteral("frank"),
                                                     QStringLiteral("llm-1"), 1, dec1(6), dec1(8))}) {
            auto r = (*store)->upsertInterval(iv);
            QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        }
        const QList<std::tuple<gq::BudgetScope, const char *, double>> budgets{
            {gq::BudgetScope::Namespace, "team-speech", 20},
            {gq::BudgetScope::Namespace, "team-recsys", 10},
            {gq::BudgetScope::Namespace, "team-nlp", 10},
            {gq::BudgetScope::Namespace, "scratch", 5},
            {gq::BudgetScope::User, "frank", 12},
            {gq::BudgetScope::User, "alice", 4}};
        for (const auto &[scope, subject, limit] : budgets) {
            gq::Budget b;
            b.scope = scope;
            b.subject = QString::fromLatin1(subject);
            b.period = gq::Period::Month;
            b.limitGpuHours = limit;
            auto r = (*store)->setBudget(b);
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

    // Each budget under its queue, the subtotals the sums of their budgets: a namespace
    // budget by its namespace's queue, frank's by both queues he ran in (jointly), alice
    // (no run in December) and scratch (no LocalQueue) under "(no queue)".
    void budgetStatusByClusterQueue() {
        const QJsonArray groups =
            budgetGroups(QStringLiteral("clusterqueue"), QStringLiteral("clusterQueue"));
        QCOMPARE(subtotals(groups, QStringLiteral("clusterQueue")),
                 (QMap<QString, QString>{
                     {QStringLiteral("(no queue)"), QStringLiteral("0/9 alice scratch")},
                     {QStringLiteral("cq-nlp"), QStringLiteral("2/10 team-nlp")},
                     {QStringLiteral("cq-nlp+cq-serving"), QStringLiteral("8/12 frank")},
                     {QStringLiteral("cq-serving"), QStringLiteral("6/30 team-recsys team-speech")}}));
    }

    void budgetStatusByLocalQueue() {
        const QJsonArray groups = budgetGroups(QStringLiteral("localqueue"), QStringLiteral("localQueue"));
        QCOMPARE(subtotals(groups, QStringLiteral("localQueue")),
                 (QMap<QString, QString>{
                     {QStringLiteral("(no queue)"), QStringLiteral("0/9 alice scratch")},
                     {QStringLiteral("team-nlp/nlp"), QStringLiteral("2/10 team-nlp")},
                     {QStringLiteral("team-nlp/nlp+team-speech/speech"), QStringLiteral("8/12 frank")},
                     {QStringLiteral("team-recsys/recsys"), QStringLiteral("0/10 team-recsys")},
                     {QStringLiteral("team-speech/speech"), QStringLiteral("6/20 team-speech")}}));
    }

    void budgetStatusTableAndOneSubject() {
        CliRun r = gq(budgetStatus(QStringLiteral("cq"), QStringLiteral("table")));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith(QLatin1String("CLUSTERQUEUE")), qPrintable(r.out));
        QVERIFY2(
            r.out.contains(QRegularExpression(QStringLiteral("\\ncq-serving +subtotal +6\\.00 +30\\.00"))),
            qPrintable(r.out));
        QVERIFY2(
            r.out.contains(QRegularExpression(QStringLiteral("\\ncq-nlp\\+cq-serving +user +frank +month "
                                                             "+8\\.00 +12\\.00 +ok"))),
            qPrintable(r.out));
        // One subject: its budgets only, under its queue.
        r = gq(budgetStatus(QStringLiteral("clusterqueue"), QStringLiteral("json"))
               << QStringLiteral("--namespace") << QStringLiteral("team-speech"));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonArray groups =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("groups")).toArray();
        QCOMPARE(
            subtotals(groups, QStringLiteral("clusterQueue")),
            (QMap<QString, QString>{{QStringLiteral("cq-serving"), QStringLiteral("6/20 team-speech")}}));
        // A bad --by is a usage error.
        r = gq(budgetStatus(QStringLiteral("cohort"), QStringLiteral("json")));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("clusterqueue or localqueue")), qPrintable(r.err));
    }

    void cleanupTestCase() { m_cluster.reset(); }
};

QTEST_GUILESS_MAIN(TestCliQueueUsage)
#include "tst_cli_queueusage.moc"
