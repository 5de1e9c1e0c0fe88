#include "tests/clirun.h"
#include "tests/usage/usagebackend.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gq;
using namespace gq::test;

// `gpuquota budget status` of the real binary against the suite's backend (built
// twice: SQLite and PostgreSQL): the numbers, the state, the grace end and the
// forecast as a script reads them (-o json) and as a person does (table).
class TestBudgetStatus : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void json_data();
    void json();
    void boostRaisesTheLimit();
    void namespaceWeekNotAtThisRate();
    void pastNowIsAsOfThen_data();
    void pastNowIsAsOfThen();
    void table();
    void noBudget();
    void badInput_data();
    void badInput();
    void helpNamesTheKeys();
    void gpuModelWeightsShowBothHours();

private:
    using Run = gq::test::CliRun;
    Run gq(const QStringList &args) const { return gq::test::runCli(m_bin, args); }
    QJsonObject status(const QStringList &subject, const QString &now);

    UsageTestBackend m_backend{"gq_bstat"};
    QString m_bin;
    QString m_url;
};

void TestBudgetStatus::initTestCase() {
    GQ_PREPARE_USAGE_BACKEND(m_backend);
    m_bin = gq::test::gpuquotaBinary();
    QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
    m_url = m_backend.freshUrl();
    auto store = UsageStore::open(m_url);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    UsageStore &s = **store;
    // alice: 2 GPUs since 07:00 UTC (08:00 in Berlin), a day budget of 8 with 30 min grace.
    QVERIFY(s.upsertInterval(interval(QStringLiteral("ml"), QStringLiteral("alice"), QStringLiteral("a"), 2,
                                      utc(10, 7), std::nullopt)));
    QVERIFY(s.setBudget(
        budget(BudgetScope::User, QStringLiteral("alice"), 8, 1800, QStringLiteral("Europe/Berlin"))));
    // bob: 1 GPU since 07:00 UTC, 8 per day, a boost of 2 GPU-h from 08:00 to 20:00 UTC.
    QVERIFY(s.upsertInterval(interval(QStringLiteral("ml"), QStringLiteral("bob"), QStringLiteral("b"), 1,
                                      utc(10, 7), std::nullopt)));
    QVERIFY(
        s.setBudget(budget(BudgetScope::User, QStringLiteral("bob"), 8, 0, QStringLiteral("Europe/Berlin"))));
    QVERIFY(s.addBoost(
        budgetBoost(BudgetScope::User, QStringLiteral("bob"), QStringLiteral("2"), utc(10, 8), utc(10, 20))));
    // Namespace ml: a week budget (ISO week from Monday 2026-03-09 in UTC) of 200.
    QVERIFY(s.setBudget(budget(BudgetScope::Namespace, QStringLiteral("ml"), 200, 3600, QStringLiteral("UTC"),
                               Period::Week)));
    // dora: 2 GPUs from 10:00 to 13:00 UTC on the 12th, recorded as closed; 100 a day.
    QVERIFY(s.upsertInterval(interval(QStringLiteral("cv"), QStringLiteral("dora"), QStringLiteral("d"), 2,
                                      utc(12, 10), utc(12, 13))));
    QVERIFY(s.setBudget(budget(BudgetScope::User, QStringLiteral("dora"), 100, 0, QStringLiteral("UTC"))));
}

void TestBudgetStatus::cleanupTestCase() {
    const QString err = m_backend.dropSchemas();
    QVERIFY2(err.isEmpty(), qPrintable(err));
}

QJsonObject TestBudgetStatus::status(const QStringList &subject, const QString &now) {
    const Run r =
        gq(QStringList{QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_url} +
           subject + QStringList{QStringLiteral("--now"), now, QStringLiteral("-o"), QStringLiteral("json")});
    if (r.code != 0) {
        qWarning() << "exit" << r.code << r.err;
        return {};
    }
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

void TestBudgetStatus::json_data() {
    QTest::addColumn<QString>("now");
    QTest::addColumn<double>("used");
    QTest::addColumn<double>("remaining");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("graceEnd");
    QTest::addColumn<QString>("forecast");
    QTest::addColumn<QString>("exhaustion");
    // 2 GPUs from 08:00 Berlin: 8 GPU-h are spent at 12:00, grace (2 GPUs x 30 min) at 12:30.
    QTest::newRow("ok") << "2026-03-10T09:00:00Z" << 4.0 << 4.0 << "ok"
                        << ""
                        << "runs-out"
                        << "2026-03-10T12:00:00+01:00";
    QTest::newRow("near: less than 20 % left") << "2026-03-10T10:15:00Z" << 6.5 << 1.5 << "near"
                                               << ""
                                               << "runs-out"
                                               << "2026-03-10T12:00:00+01:00";
    QTest::newRow("early") << "2026-03-10T08:00:00Z" << 2.0 << 6.0 << "ok"
                           << ""
                           << "runs-out"
                           << "2026-03-10T12:00:00+01:00";
    QTest::newRow("grace") << "2026-03-10T11:15:00Z" << 8.5 << -0.5 << "grace"
                           << "2026-03-10T12:30:00+01:00"
                           << "in-grace"
                           << "2026-03-10T12:30:00+01:00";
    QTest::newRow("over") << "2026-03-10T11:45:00Z" << 9.5 << -1.5 << "over"
                          << ""
                          << "spent"
                          << "";
    QTest::newRow("next day starts over") << "2026-03-10T23:30:00Z" << 1.0 << 7.0 << "ok"
                                          << ""
                                          << "runs-out"
                                          << "2026-03-11T04:00:00+01:00";
}

void TestBudgetStatus::json() {
    QFETCH(QString, now);
    QFETCH(double, used);
    QFETCH(double, remaining);
    QFETCH(QString, state);
    QFETCH(QString, graceEnd);
    QFETCH(QString, forecast);
    QFETCH(QString, exhaustion);
    const QJsonObject doc = status({QStringLiteral("--user"), QStringLiteral("alice")}, now);
    QCOMPARE(doc.value(QStringLiteral("scope")).toString(), QStringLiteral("user"));
    QCOMPARE(doc.value(QStringLiteral("subject")).toString(), QStringLiteral("alice"));
    QCOMPARE(doc.value(QStringLiteral("now")).toString(), now);
    const QJsonArray budgets = doc.value(QStringLiteral("budgets")).toArray();
    QCOMPARE(budgets.size(), 1);
    const QJsonObject b = budgets.first().toObject();
    QCOMPARE(b.value(QStringLiteral("period")).toString(), QStringLiteral("day"));
    QCOMPARE(b.value(QStringLiteral("tz")).toString(), QStringLiteral("Europe/Berlin"));
    QVERIFY(qAbs(b.value(QStringLiteral("used")).toDouble() - used) < 1e-9);
    QCOMPARE(b.value(QStringLiteral("limit")).toDouble(), 8.0);
    QCOMPARE(b.value(QStringLiteral("budget_limit")).toDouble(), 8.0);
    QCOMPARE(b.value(QStringLiteral("boost")).toDouble(), 0.0);
    QVERIFY(qAbs(b.value(QStringLiteral("remaining")).toDouble() - remaining) < 1e-9);
    const bool nextDay = now.startsWith(QLatin1String("2026-03-10T23"));
    QCOMPARE(b.value(QStringLiteral("period_start")).toString(),
             nextDay ? QStringLiteral("2026-03-11T00:00:00+01:00")
                     : QStringLiteral("2026-03-10T00:00:00+01:00"));
    QCOMPARE(b.value(QStringLiteral("period_end")).toString(),
             nextDay ? QStringLiteral("2026-03-12T00:00:00+01:00")
                     : QStringLiteral("2026-03-11T00:00:00+01:00"));
    QCOMPARE(b.value(QStringLiteral("state")).toString(), state);
    QCOMPARE(b.value(QStringLiteral("grace_seconds")).toDouble(), 1800.0);
    QCOMPARE(b.value(QStringLiteral("running_gpus")).toDouble(), 2.0);
    QCOMPARE(b.value(QStringLiteral("grace_end")).isNull(), graceEnd.isEmpty());
    QCOMPARE(b.value(QStringLiteral("grace_end")).toString(), graceEnd);
    QCOMPARE(b.value(QStringLiteral("forecast")).toString(), forecast);
    QCOMPARE(b.value(QStringLiteral("forecast_exhaustion")).isNull(), exhaustion.isEmpty());
    QCOMPARE(b.value(QStringLiteral("forecast_exhaustion")).toString(), exhaustion);
}

// The limit a script sees includes active budget boosts; the forecast uses it.
void TestBudgetStatus::boostRaisesTheLimit() {
    const QJsonObject during =
        status({QStringLiteral("--user"), QStringLiteral("bob")}, QStringLiteral("2026-03-10T10:00:00Z"))
            .value(QStringLiteral("budgets"))
            .toArray()
            .first()
            .toObject();
    QCOMPARE(during.value(QStringLiteral("used")).toDouble(), 3.0);
    QCOMPARE(during.value(QStringLiteral("limit")).toDouble(), 10.0);
    QCOMPARE(during.value(QStringLiteral("budget_limit")).toDouble(), 8.0);
    QCOMPARE(during.value(QStringLiteral("boost")).toDouble(), 2.0);
    QCOMPARE(during.value(QStringLiteral("remaining")).toDouble(), 7.0);
    QCOMPARE(during.value(QStringLiteral("forecast_exhaustion")).toString(),
             QStringLiteral("2026-03-10T18:00:00+01:00"));
    const QJsonObject before =
        status({QStringLiteral("--user"), QStringLiteral("bob")}, QStringLiteral("2026-03-10T07:30:00Z"))
            .value(QStringLiteral("budgets"))
            .toArray()
            .first()
            .toObject();
    QCOMPARE(before.value(QStringLiteral("limit")).toDouble(), 8.0);
    QCOMPARE(before.value(QStringLiteral("forecast_exhaustion")).toString(),
             QStringLiteral("2026-03-10T16:00:00+01:00"));
}

// A --now before an interval closed: it counts up to --now only, and it was running
// then (the interval is closed in the database, but not at --now).
void TestBudgetStatus::pastNowIsAsOfThen_data() {
    QTest::addColumn<QString>("now");
    QTest::addColumn<double>("used");
    QTest::addColumn<double>("running");
    QTest::addColumn<QString>("forecast");
    QTest::addColumn<QString>("says");
    QTest::newRow("before") << "2026-03-12T09:00:00Z" << 0.0 << 0.0 << "nothing-running"
                            << "nothing running";
    QTest::newRow("at the start") << "2026-03-12T10:00:00Z" << 0.0 << 2.0 << "not-at-this-rate"
                                  << "not at this rate (2 GPUs)";
    QTest::newRow("during") << "2026-03-12T12:00:00Z" << 4.0 << 2.0 << "not-at-this-rate"
                            << "not at this rate (2 GPUs)";
    QTest::newRow("at the end") << "2026-03-12T13:00:00Z" << 6.0 << 0.0 << "nothing-running"
                                << "nothing running";
    QTest::newRow("after") << "2026-03-12T20:00:00Z" << 6.0 << 0.0 << "nothing-running"
                           << "nothing running";
}

void TestBudgetStatus::pastNowIsAsOfThen() {
    QFETCH(QString, now);
    QFETCH(double, used);
    QFETCH(double, running);
    QFETCH(QString, forecast);
    QFETCH(QString, says);
    const QJsonObject b = status({QStringLiteral("--user"), QStringLiteral("dora")}, now)
                              .value(QStringLiteral("budgets"))
                              .toArray()
                              .first()
                              .toObject();
    QVERIFY2(qAbs(b.value(QStringLiteral("used")).toDouble() - used) < 1e-9,
             qPrintable(QString::number(b.value(QStringLiteral("used")).toDouble())));
    QCOMPARE(b.value(QStringLiteral("remaining")).toDouble(), 100.0 - used);
    QCOMPARE(b.value(QStringLiteral("running_gpus")).toDouble(), running);
    QCOMPARE(b.value(QStringLiteral("forecast")).toString(), forecast);
    const Run table = gq({QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_url,
                          QStringLiteral("--user"), QStringLiteral("dora"), QStringLiteral("--now"), now});
    QCOMPARE(table.code, 0);
    QVERIFY2(table.out.contains(says), qPrintable(table.out));
    QVERIFY2(table.out.contains(QStringLiteral("used:          %1 GPU-h").arg(used, 0, 'f', 2)),
             qPrintable(table.out));
}

// 3 GPUs run in ml (alice 2, bob 1) from Tuesday 07:00 UTC; 200 GPU-h a week would
// need 66 h more, past Sunday's end: not at this rate.
void TestBudgetStatus::namespaceWeekNotAtThisRate() {
    const QJsonObject doc =
        status({QStringLiteral("--namespace"), QStringLiteral("ml")}, QStringLiteral("2026-03-11T07:00:00Z"));
    QCOMPARE(doc.value(QStringLiteral("scope")).toString(), QStringLiteral("namespace"));
    const QJsonObject b = doc.value(QStringLiteral("budgets")).toArray().first().toObject();
    QCOMPARE(b.value(QStringLiteral("period")).toString(), QStringLiteral("week"));
    QCOMPARE(b.value(QStringLiteral("used")).toDouble(), 72.0);
    QCOMPARE(b.value(QStringLiteral("running_gpus")).toDouble(), 3.0);
    QCOMPARE(b.value(QStringLiteral("period_start")).toString(), QStringLiteral("2026-03-09T00:00:00Z"));
    QCOMPARE(b.value(QStringLiteral("period_end")).toString(), QStringLiteral("2026-03-16T00:00:00Z"));
    QCOMPARE(b.value(QStringLiteral("state")).toString(), QStringLiteral("ok"));
    QCOMPARE(b.value(QStringLiteral("forecast")).toString(), QStringLiteral("runs-out"));
    // 128 left at 3 GPUs = 42 h 40 min after Wednesday 07:00.
    QCOMPARE(b.value(QStringLiteral("forecast_exhaustion")).toString(),
             QStringLiteral("2026-03-13T01:40:00Z"));
    const QJsonObject late =
        status({QStringLiteral("--namespace"), QStringLiteral("ml")}, QStringLiteral("2026-03-15T22:00:00Z"))
            .value(QStringLiteral("budgets"))
            .toArray()
            .first()
            .toObject();
    // 135 h x 3 = 405 used: over, grace (3 GPUs x 1 h) long spent.
    QCOMPARE(late.value(QStringLiteral("state")).toString(), QStringLiteral("over"));
    QVERIFY(late.value(QStringLiteral("forecast_exhaustion")).isNull());
}

void TestBudgetStatus::table() {
    const Run r = gq({QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_url,
                      QStringLiteral("--user"), QStringLiteral("alice"), QStringLiteral("--now"),
                      QStringLiteral("2026-03-10T11:15:00Z")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out,
             QStringLiteral("user alice, day budget in Europe/Berlin\n"
                            "  used:          8.50 GPU-h\n"
                            "  limit:         8.00 GPU-h\n"
                            "  remaining:     -0.50 GPU-h\n"
                            "  period start:  2026-03-10T00:00:00+01:00\n"
                            "  period end:    2026-03-11T00:00:00+01:00\n"
                            "  state:         grace\n"
                            "  grace:         30m\n"
                            "  grace end:     2026-03-10T12:30:00+01:00\n"
                            "  forecast:      grace ends 2026-03-10T12:30:00+01:00 at this rate (2 GPUs)\n"));
    const Run boosted = gq({QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_url,
                            QStringLiteral("--user"), QStringLiteral("bob"), QStringLiteral("--now"),
                            QStringLiteral("2026-03-10T10:00:00Z")});
    QVERIFY2(boosted.out.contains(QStringLiteral("  limit:         10.00 GPU-h (8.00 + 2.00 boost)\n")),
             qPrintable(boosted.out));
    QVERIFY2(boosted.out.contains(QStringLiteral("spent by 2026-03-10T18:00:00+01:00 at this rate (1 GPUs)")),
             qPrintable(boosted.out));
}

void TestBudgetStatus::noBudget() {
    const Run r = gq({QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_url,
                      QStringLiteral("--user"), QStringLiteral("carol")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QStringLiteral("no budget for user carol\n"));
    const QJsonObject doc =
        status({QStringLiteral("--user"), QStringLiteral("carol")}, QStringLiteral("2026-03-10T10:00:00Z"));
    QVERIFY(doc.contains(QStringLiteral("budgets")));
    QVERIFY(doc.value(QStringLiteral("budgets")).toArray().isEmpty());
}

void TestBudgetStatus::badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("both subjects") << words("--user a --namespace b")
                                   << "exactly one of --user U or --namespace N";
    QTest::newRow("no subject") << QStringList{} << "exactly one of --user U or --namespace N";
    QTest::newRow("empty user") << QStringList{QStringLiteral("--user"), QString()}
                                << "--user must not be empty";
    QTest::newRow("bad now") << words("--user a --now tomorrow") << "--now";
    QTest::newRow("bad output") << words("--user a -o csv") << "-o must be table or json";
    QTest::newRow("unknown flag") << words("--user a --period day") << "unknown flag --period";
}

void TestBudgetStatus::badInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r =
        gq(QStringList{QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_url} +
           args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

void TestBudgetStatus::helpNamesTheKeys() {
    const Run r = gq({QStringLiteral("budget"), QStringLiteral("--help")});
    QCOMPARE(r.code, 0);
    for (const char *key : {"used", "limit", "remaining", "period_start", "period_end", "state", "grace_end",
                            "forecast_exhaustion", "budget_limit", "boost", "running_gpus", "used_raw"})
        QVERIFY2(r.out.contains(QStringLiteral("  %1 ").arg(QLatin1String(key))), key);
}

// hana ran one H100 (weight 2, written by a store configured like the controller) for
// 1 h: 2 weighted GPU-h count against her budget, 1 raw; both are shown.
void TestBudgetStatus::gpuModelWeightsShowBothHours() {
    const QString h100 = QStringLiteral("NVIDIA H100 80GB HBM3");
    {
        UsageStore::Options o;
        o.weights.setModel(h100, 2.0);
        auto store = UsageStore::open(m_url, o);
        QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
        UsageInterval iv = interval(QStringLiteral("hpc"), QStringLiteral("hana"), QStringLiteral("h"), 1,
                                    utc(12, 10), utc(12, 11));
        iv.gpuModel = h100;
        QVERIFY((*store)->upsertInterval(iv));
        QVERIFY((*store)->setBudget(
            budget(BudgetScope::User, QStringLiteral("hana"), 10, 0, QStringLiteral("UTC"))));
    }
    const QJsonObject doc =
        status({QStringLiteral("--user"), QStringLiteral("hana")}, QStringLiteral("2026-03-12T12:00:00Z"));
    const QJsonObject b = doc.value(QStringLiteral("budgets")).toArray().at(0).toObject();
    QCOMPARE(b.value(QStringLiteral("used")).toDouble(), 2.0);
    QCOMPARE(b.value(QStringLiteral("used_raw")).toDouble(), 1.0);
    QCOMPARE(b.value(QStringLiteral("remaining")).toDouble(), 8.0);
    const Run r = gq({QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_url,
                      QStringLiteral("--user"), QStringLiteral("hana"), QStringLiteral("--now"),
                      QStringLiteral("2026-03-12T12:00:00Z")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(QStringLiteral("  used:          2.00 GPU-h weighted (1.00 GPU-h raw)\n")),
             qPrintable(r.out));
    // Without model weights nothing changes in the table (dora's budget).
    const Run plain = gq({QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_url,
                          QStringLiteral("--user"), QStringLiteral("dora"), QStringLiteral("--now"),
                          QStringLiteral("2026-03-12T14:00:00Z")});
    QVERIFY2(!plain.out.contains(QStringLiteral("raw")), qPrintable(plain.out));
    // check: a 4 h job on one H100 needs 8 weighted GPU-h: allowed (8 left); 5 h is not.
    const QStringList check{QStringLiteral("check"),
                            QStringLiteral("--db"),
                            m_url,
                            QStringLiteral("--user"),
                            QStringLiteral("hana"),
                            QStringLiteral("--gpus"),
                            QStringLiteral("1"),
                            QStringLiteral("--now"),
                            QStringLiteral("2026-03-12T12:00:00Z"),
                            QStringLiteral("--gpu-model"),
                            h100,
                            QStringLiteral("--gpu-model-weights"),
                            h100 + QStringLiteral("=2")};
    Run c = gq(check + QStringList{QStringLiteral("--hours"), QStringLiteral("4")});
    QVERIFY2(c.code == 0, qPrintable(c.out + c.err));
    QVERIFY2(c.out.contains(QStringLiteral("used 2.00 of 10.00 GPU-h (weighted; 1.00 GPU-h raw)")),
             qPrintable(c.out));
    c = gq(check + QStringList{QStringLiteral("--hours"), QStringLiteral("5")});
    QCOMPARE(c.code, 1);
    QVERIFY2(c.out.contains(QStringLiteral("Denied: need 10.00 GPU-h, only 8.00 left")), qPrintable(c.out));
    c = gq(check + QStringList{QStringLiteral("--hours"), QStringLiteral("5"),
                               QStringLiteral("--gpu-model-weights"), QStringLiteral("bad")});
    QCOMPARE(c.code, 2);
    QVERIFY2(c.err.contains(QStringLiteral("MODEL=WEIGHT")), qPrintable(c.err));
}

QTEST_GUILESS_MAIN(TestBudgetStatus)
#include "tst_budgetstatus.moc"
