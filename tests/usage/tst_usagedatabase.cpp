// The console's usage database (UsageService: a UsageStore on a thread of its own)
// against a real SQLite file (GQ_TEST_BACKEND=sqlite) or a real PostgreSQL
// (GQ_TEST_BACKEND=postgres, GQ_TEST_PG_URL, one fresh schema per test):
// - the periodic budget refresh answers from kept check inputs (cacheChecks), and a
//   change written by another connection (the CLI, the controller) still shows;
// - the budget states the namespace list paints: near, in grace with its end, over;
// - an audit write does not wait for a whole refresh of 2,000 budgets (prints the
//   latency; no timed assertion).

#include "core/domain/clock.h"
#include "tests/usage/clockeddatabase.h"
#include "tests/usage/usagebackend.h"
#include "services/usage/usageservice.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace gq;
using namespace gq::test;

namespace {

double median(QList<double> v) {
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? 0 : v.at(v.size() / 2);
}

} // namespace

class TestUsageDatabase : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void graceStatesFlipAtTheRightInstants();
    void cachedRefreshSeesOtherConnections();
    void graceEndTriggersARefresh();
    void auditDoesNotWaitForARefresh();
    void cleanupTestCase();

private:
    UsageTestBackend m_backend{"gq_udb"};
    QString m_url;
};

void TestUsageDatabase::initTestCase() {
    GQ_PREPARE_USAGE_BACKEND(m_backend);
}

void TestUsageDatabase::cleanupTestCase() {
    const QString err = m_backend.dropSchemas();
    QVERIFY2(err.isEmpty(), qPrintable(err));
}

void TestUsageDatabase::init() {
    m_url = m_backend.freshUrl();
}

namespace {
// The one budget of `ns` in the last refresh.
BudgetUse useOf(const NamespaceBudgets &b, const QString &ns) {
    const QList<BudgetUse> uses = b.value(ns);
    return uses.size() == 1 ? uses.front() : BudgetUse{BudgetUse::Period::Day, -1, -1};
}
const char *stateName(BudgetUse::State s) {
    switch (s) {
    case BudgetUse::State::Within: return "within";
    case BudgetUse::State::Near: return "near";
    case BudgetUse::State::InGrace: return "in grace";
    case BudgetUse::State::Over: return "over";
    }
    return "?";
}

// The console's usage database on a manual clock. `last` holds the budgets of its
// latest refresh; `checked` counts refreshes and is connected after `last`, so a
// wait on it returns with `last` already updated.
struct WatchedDatabase : ClockedDatabase {
    using ClockedDatabase::ClockedDatabase;

    NamespaceBudgets last;
    QMetaObject::Connection keepLast = QObject::connect(&db, &UsageService::budgetsChanged, &db,
                                                        [this](const NamespaceBudgets &b) { last = b; });
    QSignalSpy checked{&db, &UsageService::budgetsChanged};
};
} // namespace

// Three namespaces through one day, the clock moved second by second at the edges:
// - team-grace: 8 GPU-h a day in America/New_York (EDT: the day starts 04:00 UTC),
//   grace 15 min, 2 GPUs running since 10:00 UTC. Crosses 8 at 14:00:00 UTC; the
//   grace allowance is 2 GPUs x 15 min = 0.5 GPU-h, spent at 14:15:00. A 16 GPU-h
//   job that ended 04:00 UTC belongs to the previous New York day and must not count.
// - team-near: 10 GPU-h a day in UTC, no grace, 1 GPU running since 08:00: 80 % at
//   16:00:00, over after 18:00:00.
// - team-red: 1 GPU-h, grace 15 min, already 2 GPU-h used: red all day.
// Users alice and dave (team-grace) and erin (team-red) are over their own budgets,
// bob (team-near) is not.
void TestUsageDatabase::graceStatesFlipAtTheRightInstants() {
    auto other = UsageStore::open(m_url);
    QVERIFY2(other, qPrintable(other ? QString() : other.error().toString()));
    UsageStore &cli = **other;
    const QString grace = QStringLiteral("team-grace"), nearNs = QStringLiteral("team-near"),
                  red = QStringLiteral("team-red");
    QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, grace, 8, 900, QStringLiteral("America/New_York"))));
    QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, nearNs, 10)));
    QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, red, 1, 900)));
    QVERIFY(cli.setBudget(budget(BudgetScope::User, QStringLiteral("alice"), 1)));
    QVERIFY(cli.setBudget(budget(BudgetScope::User, QStringLiteral("dave"), 2)));
    QVERIFY(cli.setBudget(budget(BudgetScope::User, QStringLiteral("erin"), 1)));
    QVERIFY(cli.setBudget(budget(BudgetScope::User, QStringLiteral("bob"), 1000)));
    const QString alice = QStringLiteral("alice"), dave = QStringLiteral("dave");
    QVERIFY(cli.upsertInterval(interval(grace, alice, QStringLiteral("old"), 4, utc(10, 0), utc(10, 4))));
    QVERIFY(cli.upsertInterval(interval(grace, alice, QStringLiteral("a"), 1, utc(10, 10), std::nullopt)));
    QVERIFY(cli.upsertInterval(interval(grace, dave, QStringLiteral("d"), 1, utc(10, 10), std::nullopt)));
    QVERIFY(cli.upsertInterval(
        interval(nearNs, QStringLiteral("bob"), QStringLiteral("b"), 1, utc(10, 8), std::nullopt)));
    QVERIFY(cli.upsertInterval(
        interval(red, QStringLiteral("erin"), QStringLiteral("e0"), 2, utc(10, 9), utc(10, 10))));
    QVERIFY(cli.upsertInterval(
        interval(red, QStringLiteral("erin"), QStringLiteral("e"), 1, utc(10, 12), std::nullopt)));

    WatchedDatabase w(utc(10, 13, 59, 59), 0); // every check below is asked for explicitly
    UsersOverBudget users;
    connect(&w.db, &UsageService::usersOverBudgetChanged, this, [&](const UsersOverBudget &u) { users = u; });
    QSignalSpy opened(&w.db, &UsageService::opened);
    w.db.open(m_url);
    QVERIFY(opened.wait(20000));
    QVERIFY(w.checked.count() == 1 || w.checked.wait(20000));

    struct Step {
        qint64 at;
        BudgetUse::State grace, nearState;
        qint64 graceEndsAt; // of team-grace, 0 when not in grace
        bool usersOver;     // alice, dave and erin over their own (UTC-day) budgets
    };
    using S = BudgetUse::State;
    const bool both = true;
    const Step steps[] = {
        {utc(10, 13, 59, 59), S::Near, S::Within, 0, both},
        {utc(10, 14, 0, 0), S::Near, S::Within, 0, both}, // exactly at the limit: not over
        {utc(10, 14, 0, 1), S::InGrace, S::Within, utc(10, 14, 15), both},
        {utc(10, 14, 14, 59), S::InGrace, S::Within, utc(10, 14, 15), both},
        {utc(10, 14, 15, 0), S::InGrace, S::Within, utc(10, 14, 15), both}, // the allowance is exactly spent
        {utc(10, 14, 15, 1), S::Over, S::Within, 0, both},
        {utc(10, 15, 59, 59), S::Over, S::Within, 0, both},
        {utc(10, 16, 0, 0), S::Over, S::Near, 0, both},
        {utc(10, 18, 0, 0), S::Over, S::Near, 0, both},
        {utc(10, 18, 0, 1), S::Over, S::Over, 0, both},
        // A new UTC day (team-near and the users start over) is still 20:30 in New York.
        {utc(11, 0, 30), S::Over, S::Within, 0, false},
        {utc(11, 3, 59, 59), S::Over, S::Within, 0, both}, // ~4 GPU-h each again
        {utc(11, 4, 0, 0), S::Within, S::Within, 0, both}, // midnight in New York (EDT)
    };
    for (const Step &step : steps) {
        w.clock.set(step.at);
        const qsizetype before = w.checked.count();
        w.db.checkBudgets();
        QTRY_VERIFY_WITH_TIMEOUT(w.checked.count() > before, 20000);
        const QString when = QDateTime::fromSecsSinceEpoch(step.at, Qt::UTC).toString(Qt::ISODate);
        const BudgetUse g = useOf(w.last, grace), n = useOf(w.last, nearNs), r = useOf(w.last, red);
        QVERIFY2(g.state() == step.grace, qPrintable(QStringLiteral("%1: team-grace %2 (%3 of %4)")
                                                         .arg(when, QLatin1String(stateName(g.state())))
                                                         .arg(g.usedGpuHours)
                                                         .arg(g.limitGpuHours)));
        QVERIFY2(n.state() == step.nearState,
                 qPrintable(when + QStringLiteral(": team-near ") + QLatin1String(stateName(n.state()))));
        if (step.at < utc(11, 0)) // team-red's UTC day starts over too
            QVERIFY2(r.state() == S::Over, qPrintable(when));
        QCOMPARE(g.graceEndsAt, step.graceEndsAt);
        QCOMPARE(g.graceSeconds, qint64(900));
        QCOMPARE(g.at, step.at);
        const QStringList graceUsers = step.usersOver ? QStringList{alice, dave} : QStringList();
        const QStringList redUsers = step.usersOver ? QStringList{QStringLiteral("erin")} : QStringList();
        QCOMPARE(users.value(grace), graceUsers);
        QCOMPARE(users.value(red), redUsers);
        QVERIFY(!users.contains(nearNs));
    }
    // The refreshes answered from kept inputs: nothing was written meanwhile.
    const UsageStore::CheckCacheStats stats = w.db.checkCacheStats();
    QVERIFY(stats.active);
    QVERIFY2(stats.fromCache > 0, qPrintable(QString::number(stats.fromCache)));
}

// The console keeps the check inputs; what another connection writes (the CLI, the
// controller, another console) must still reach the list.
void TestUsageDatabase::cachedRefreshSeesOtherConnections() {
    auto other = UsageStore::open(m_url);
    QVERIFY(other);
    UsageStore &cli = **other;
    const QString ns = QStringLiteral("team-x");
    QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, ns, 10)));
    WatchedDatabase w(kNow.toSecsSinceEpoch(), 50);
    w.db.open(m_url);
    QVERIFY(w.checked.wait(20000));
    QCOMPARE(useOf(w.last, ns).state(), BudgetUse::State::Within);
    // Unchanged data: later refreshes come from the kept inputs.
    QTRY_VERIFY_WITH_TIMEOUT(w.db.checkCacheStats().fromCache >= 3, 10000);
    QVERIFY(w.db.checkCacheStats().active);

    // 6 GPUs for 2 h: 12 of 10.
    QVERIFY(
        cli.upsertInterval(interval(ns, QStringLiteral("alice"), QStringLiteral("p"), 6, at(10), at(12))));
    QTRY_VERIFY_WITH_TIMEOUT(useOf(w.last, ns).state() == BudgetUse::State::Over, 10000);
    QCOMPARE(useOf(w.last, ns).usedGpuHours, 12.0);
    QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, ns, 14)));
    QTRY_VERIFY_WITH_TIMEOUT(useOf(w.last, ns).state() == BudgetUse::State::Near, 10000);
    // A budget boost of 10 GPU-h (the console's Boosts tab, another process).
    QVERIFY(cli.addBoost(budgetBoost(BudgetScope::Namespace, QStringLiteral("team-x"), QStringLiteral("10"),
                                     kNow.toSecsSinceEpoch() - 60, kNow.toSecsSinceEpoch() + 3600,
                                     QStringLiteral("tester"))));
    QTRY_VERIFY_WITH_TIMEOUT(useOf(w.last, ns).state() == BudgetUse::State::Within, 10000);
    QCOMPARE(useOf(w.last, ns).limitGpuHours, 24.0);
    QVERIFY(cli.deleteBudget(BudgetScope::Namespace, ns));
    QTRY_VERIFY_WITH_TIMEOUT(!w.last.contains(ns), 10000);
    // The interval, the new limit and the boost were each noticed by a check; the
    // deleted budget never reaches one (the refresh lists budgets first).
    QVERIFY2(w.db.checkCacheStats().changes >= 3,
             qPrintable(QString::number(w.db.checkCacheStats().changes)));
}

// The badge turns red when the grace ends, not at the next periodic refresh (an
// hour away here): 1 GPU running since 10:00 against 4 GPU-h with 60 s grace is in
// grace until 14:01:00; a refresh follows one second after that.
void TestUsageDatabase::graceEndTriggersARefresh() {
    auto other = UsageStore::open(m_url);
    QVERIFY(other);
    const QString ns = QStringLiteral("team-g");
    QVERIFY((*other)->setBudget(budget(BudgetScope::Namespace, ns, 4, 60)));
    QVERIFY((*other)->upsertInterval(
        interval(ns, QStringLiteral("alice"), QStringLiteral("p"), 1, utc(10, 10), std::nullopt)));
    WatchedDatabase w(utc(10, 14, 0, 58), 3600 * 1000);
    w.db.open(m_url);
    QVERIFY(w.checked.wait(20000));
    QCOMPARE(useOf(w.last, ns).state(), BudgetUse::State::InGrace);
    QCOMPARE(useOf(w.last, ns).graceEndsAt, utc(10, 14, 1));
    w.clock.set(utc(10, 14, 1, 1)); // what the wall clock will say when the timer fires
    QElapsedTimer waited;
    waited.start();
    QVERIFY(w.checked.wait(10000));
    QCOMPARE(useOf(w.last, ns).state(), BudgetUse::State::Over);
    QVERIFY2(waited.elapsed() >= 2000, qPrintable(QString::number(waited.elapsed()))); // not at once
}

// 2,000 namespace budgets, every other one over. Another connection writes one
// interval before each round, so every refresh reads all 2,000 subjects afresh (the
// worst case: the controller writes all the time). An audit write is requested just
// after the refresh; the figure is the time until it is written and reported.
void TestUsageDatabase::auditDoesNotWaitForARefresh() {
    const int kBudgets = 2000, kRounds = 5;
    auto other = UsageStore::open(m_url);
    QVERIFY2(other, qPrintable(other ? QString() : other.error().toString()));
    UsageStore &cli = **other;
    {
        std::vector<UsageInterval> ivs;
        for (int i = 0; i < kBudgets; ++i) {
            const QString ns = QStringLiteral("ns-%1").arg(i, 5, 10, QLatin1Char('0'));
            QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, ns, 10)));
            ivs.push_back(
                interval(ns, QStringLiteral("alice"), QStringLiteral("p"), i % 2 ? 6 : 2, at(10), at(12)));
        }
        QVERIFY(cli.insertBulk(ivs));
    }

    WatchedDatabase w(kNow.toSecsSinceEpoch(), 0);
    QSignalSpy opened(&w.db, &UsageService::opened);
    QSignalSpy failed(&w.db, &UsageService::failed);
    QSignalSpy audited(&w.db, &UsageService::auditAppended);
    w.db.open(m_url);
    QVERIFY(opened.wait(20000));
    QVERIFY(w.checked.count() == 1 || w.checked.wait(60000));

    // Taken where the signals arrive: polling would round the figures to its period.
    QList<double> refreshMs, auditMs;
    QElapsedTimer refresh, audit;
    connect(&w.db, &UsageService::budgetsChanged, this, [&] { refreshMs << refresh.nsecsElapsed() / 1e6; });
    connect(&w.db, &UsageService::auditAppended, this, [&] { auditMs << audit.nsecsElapsed() / 1e6; });
    // The same write with nothing else running, for comparison.
    for (int round = 0; round < kRounds; ++round) {
        const qsizetype audits = audited.count();
        audit.start();
        w.db.appendAudit(QStringLiteral("tester"), QStringLiteral("quota.apply"),
                         QStringLiteral("ns-00001/ResourceQuota/alone%1").arg(round), QString(), QString(),
                         QString());
        QVERIFY(audited.count() > audits || audited.wait(60000)); // a real event loop, not polling
    }
    const QList<double> aloneMs = auditMs;
    auditMs.clear();
    for (int round = 0; round < kRounds; ++round) {
        QVERIFY(cli.upsertInterval(interval(QStringLiteral("ns-00000"), QStringLiteral("bob"),
                                            QStringLiteral("r%1").arg(round), 1, at(13), at(13, 1))));
        // On PostgreSQL the write reaches the kept inputs by NOTIFY: let it arrive, so
        // the refresh below reads every subject afresh like on SQLite.
        QTest::qWait(20);
        const qsizetype checks = w.checked.count(), audits = audited.count();
        refresh.start();
        w.db.checkBudgets();
        audit.start();
        w.db.appendAudit(QStringLiteral("tester"), QStringLiteral("quota.apply"),
                         QStringLiteral("ns-00001/ResourceQuota/q%1").arg(round), QString(), QString(),
                         QStringLiteral("round %1").arg(round));
        QVERIFY(audited.count() > audits || audited.wait(60000));
        QVERIFY(w.checked.count() > checks || w.checked.wait(60000));
    }
    QCOMPARE(auditMs.size(), kRounds);
    QCOMPARE(refreshMs.size(), kRounds);
    const QList<double> changedMs = refreshMs;
    // Nothing written since: after one refresh that reads what the last audit write
    // dropped (own writes count as changes), every budget comes from the kept inputs.
    // On PostgreSQL the last writes come back as NOTIFY, which a busy machine may deliver
    // after the next refresh: refresh until two in a row read everything from the kept
    // inputs (bounded, so a cache that never holds still fails below).
    for (int settle = 0, quiet = 0; quiet < 2; ++settle) {
        QVERIFY2(settle < 50, "the kept check inputs never served a whole refresh");
        QTest::qWait(50);
        const qint64 before = w.db.checkCacheStats().fromCache;
        const qsizetype checks = w.checked.count();
        w.db.checkBudgets();
        QVERIFY(w.checked.count() > checks || w.checked.wait(60000));
        quiet = w.db.checkCacheStats().fromCache - before == kBudgets ? quiet + 1 : 0;
    }
    const qint64 keptBefore = w.db.checkCacheStats().fromCache;
    refreshMs.clear();
    for (int round = 0; round < kRounds; ++round) {
        const qsizetype checks = w.checked.count();
        refresh.start();
        w.db.checkBudgets();
        QVERIFY(w.checked.count() > checks || w.checked.wait(60000));
    }
    const QList<double> unchangedMs = refreshMs;
    QCOMPARE(w.db.checkCacheStats().fromCache - keptBefore, qint64(kRounds) * kBudgets);
    QCOMPARE(failed.count(), 0);
    int over = 0;
    for (auto it = w.last.constBegin(); it != w.last.constEnd(); ++it)
        over += std::any_of(it->cbegin(), it->cend(), [](const BudgetUse &u) { return u.over(); });
    QCOMPARE(w.last.size(), kBudgets);
    QCOMPARE(over, kBudgets / 2);
    qInfo("%s, %d namespace budgets, every refresh reads afresh: refresh (request to answer) median %.1f ms, "
          "max %.1f ms; audit write requested right after the refresh until written and reported: median "
          "%.1f ms, max %.1f ms (%d rounds); the same write alone: median %.1f ms, max %.1f ms; a refresh "
          "with nothing changed (kept check inputs): median %.1f ms",
          test::usePostgres() ? "PostgreSQL" : "SQLite", kBudgets, median(changedMs),
          *std::max_element(changedMs.cbegin(), changedMs.cend()), median(auditMs),
          *std::max_element(auditMs.cbegin(), auditMs.cend()), kRounds, median(aloneMs),
          *std::max_element(aloneMs.cbegin(), aloneMs.cend()), median(unchangedMs));
}

QTEST_GUILESS_MAIN(TestUsageDatabase)
#include "tst_usagedatabase.moc"
