#include "tests/usage/usagestoresuite.h"

#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTest>

using namespace gq;

// Budgets and the admission check: budget CRUD, decisions with boosts and grace, GPU
// model weights, and the kept check inputs (Options::cacheChecks) against uncached
// and naive answers.
// Runs twice, on SQLite and on PostgreSQL (usage/usagebackend.h); the fixture is
// usage/usagestoresuite.h.
class TestUsageStoreBudgets : public test::UsageStoreSuite {
    Q_OBJECT
public:
    TestUsageStoreBudgets()
        : UsageStoreSuite("gq_usbud") {}

private slots:
    void budgetsCrud();
    void admissionCheck();
    void gpuModelWeightsCountForBudgets_data();
    void gpuModelWeightsCountForBudgets();
    void cachedCheckSeesOtherConnections();
    void cachedCheckSeesOwnWritesAtOnce();
    void cachedCheckRollsOver();
    void cachedCheckMatchesUncachedAndNaive();
};

void TestUsageStoreBudgets::budgetsCrud() {
    auto s = openStore();
    QVERIFY(s);
    Budget b;
    b.scope = BudgetScope::User;
    b.subject = QStringLiteral("alice");
    b.period = Period::Day;
    b.limitGpuHours = 8;
    b.graceSeconds = 900;
    b.tz = QStringLiteral("Europe/Berlin");
    auto stored = s->setBudget(b);
    QVERIFY(stored);
    QVERIFY(stored->id > 0);
    b.limitGpuHours = 10; // same scope/subject/period: replaced
    auto replaced = s->setBudget(b);
    QCOMPARE(replaced->id, stored->id);
    b.period = Period::Month;
    b.limitGpuHours = 100;
    QVERIFY(s->setBudget(b));
    auto list = s->budgets();
    QCOMPARE(list->size(), 2);
    QCOMPARE(list->at(0).limitGpuHours, 10.0);
    QCOMPARE(list->at(0).tz, QStringLiteral("Europe/Berlin"));
    QCOMPARE(list->at(0).graceSeconds, qint64(900));
    QCOMPARE(*s->deleteBudget(BudgetScope::User, QStringLiteral("alice"), Period::Day), 1);
    QCOMPARE(*s->deleteBudget(BudgetScope::User, QStringLiteral("alice"), Period::Day), 0);
    QCOMPARE(s->budgets()->size(), 1);
    b.tz = QStringLiteral("Nowhere/Special");
    auto bad = s->setBudget(b);
    QVERIFY(!bad);
    QCOMPARE(bad.error().field, QStringLiteral("tz"));
}

void TestUsageStoreBudgets::admissionCheck() {
    auto s = openStore();
    QVERIFY(s);
    const QTimeZone berlin = *parseZone(QStringLiteral("Europe/Berlin"));
    const qint64 now = t("2026-03-29T15:00:00+02:00"); // a 23-hour day in Berlin
    const qint64 dayStart = periodContaining(now, Period::Day, berlin).start;
    // 3.5 GPU-h today: 2 GPUs for 1 h (closed), yesterday's late job overlapping by
    // 30 min x 1 GPU, and 1 GPU running for the last hour.
    QVERIFY(s->upsertInterval(mk("team-a", "alice", "1", 2, dayStart + 3600, dayStart + 7200)));
    QVERIFY(s->upsertInterval(mk("team-a", "alice", "2", 1, dayStart - 3600, dayStart + 1800)));
    QVERIFY(s->upsertInterval(mk("team-a", "alice", "3", 1, now - 3600, std::nullopt)));
    QVERIFY(s->upsertInterval(mk("team-a", "bob", "4", 8, dayStart, now)));
    const TimeRange today{dayStart, periodContaining(now, Period::Day, berlin).end};
    QCOMPARE(*s->usedGpuHours(BudgetScope::User, QStringLiteral("alice"), today, now), 3.5);
    QCOMPARE(*s->usedGpuHoursNaive(BudgetScope::User, QStringLiteral("alice"), today, now), 3.5);

    const AdmissionRequest req{AdmissionRequest::Kind::NewJob, 1, 4};
    auto none = s->check(QStringLiteral("alice"), QStringLiteral("team-a"), req, now);
    QVERIFY(none);
    QVERIFY(!none->hasBudget);
    QVERIFY(none->allowed());

    Budget b;
    b.subject = QStringLiteral("alice");
    b.limitGpuHours = 8;
    b.graceSeconds = 900;
    b.tz = QStringLiteral("Europe/Berlin");
    QVERIFY(s->setBudget(b));
    auto d = s->check(QStringLiteral("alice"), QStringLiteral("team-a"), req, now);
    QVERIFY(d);
    QCOMPARE(d->outcome, Decision::Outcome::Allowed);
    QCOMPARE(d->message, QStringLiteral("Allowed: 4.00 GPU-h ≤ 4.50 available"));
    auto denied =
        s->check(QStringLiteral("alice"), {}, AdmissionRequest{AdmissionRequest::Kind::NewJob, 1, 5}, now);
    QCOMPARE(denied->outcome, Decision::Outcome::Denied);
    QCOMPARE(denied->message, QStringLiteral("Denied: need 5.00 GPU-h, only 4.50 left (limit 8.00 per day)"));

    // A namespace budget that is tighter wins.
    Budget ns = b;
    ns.scope = BudgetScope::Namespace;
    ns.subject = QStringLiteral("team-a");
    ns.limitGpuHours = 118; // bob's 8 GPUs x 14 h + alice's 3.5 = 115.5 used
    QVERIFY(s->setBudget(ns));
    const AdmissionRequest three{AdmissionRequest::Kind::NewJob, 1, 3};
    auto tight = s->check(QStringLiteral("alice"), QStringLiteral("team-a"), three, now);
    QCOMPARE(tight->outcome, Decision::Outcome::Denied);
    QCOMPARE(tight->budget.scope, BudgetScope::Namespace);
    QCOMPARE(tight->message,
             QStringLiteral("Denied: need 3.00 GPU-h, only 2.50 left (limit 118.00 per day)"));
    QCOMPARE(s->check(QStringLiteral("alice"), {}, three, now)->outcome, Decision::Outcome::Allowed);

    // A budget boost lifts the limit while active.
    Boost boost = gq::test::budgetBoost(BudgetScope::Namespace, QStringLiteral("team-a"),
                                        QStringLiteral("10"), now - 60, now + 3600);
    boost.note = QStringLiteral("deadline");
    auto added = s->addBoost(boost);
    QVERIFY(added);
    QVERIFY(added->id > 0);
    auto lifted = s->check(QStringLiteral("alice"), QStringLiteral("team-a"), three, now);
    QCOMPARE(lifted->outcome, Decision::Outcome::Allowed);
    QVERIFY(*s->setBoostState(added->id, Boost::State::Expired));
    QCOMPARE(s->boosts()->at(0).state, Boost::State::Expired);
    QCOMPARE(*s->activeBudgetBoost(BudgetScope::Namespace, QStringLiteral("team-a"), now), 0.0);

    // Running work past the limit: in grace, then denied.
    b.limitGpuHours = 3.4; // alice runs 1 GPU; grace 15 min allows 0.25 GPU-h overrun
    QVERIFY(s->setBudget(b));
    auto status = s->budgetStatus(BudgetScope::User, QStringLiteral("alice"), now);
    QVERIFY(status);
    QCOMPARE(status->size(), 1);
    QCOMPARE(status->at(0).outcome, Decision::Outcome::AllowedInGrace);
    auto later = s->budgetStatus(BudgetScope::User, QStringLiteral("alice"), now + 900);
    QCOMPARE(later->at(0).outcome, Decision::Outcome::Denied);
}

void TestUsageStoreBudgets::gpuModelWeightsCountForBudgets_data() {
    QTest::addColumn<bool>("cacheChecks");
    QTest::newRow("uncached") << false;
    QTest::newRow("kept inputs") << true;
}

// An H100 (weight 2) held for 1 h counts 2 weighted GPU-h against a budget and 1 raw;
// a model without a weight counts 1. Budgets (status, admission check) are weighted,
// usage and rollups stay raw; the factor is the one stored with each row.
void TestUsageStoreBudgets::gpuModelWeightsCountForBudgets() {
    QFETCH(bool, cacheChecks);
    const QString h100 = QStringLiteral("NVIDIA H100 80GB HBM3");
    const QString t4 = QStringLiteral("Tesla T4");
    UsageStore::Options o;
    o.cacheChecks = cacheChecks;
    o.weights.setModel(h100, 2.0);
    auto opened = UsageStore::open(m_url, o);
    QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().toString()));
    UsageStore &s = **opened;
    const qint64 now = t("2026-12-01T12:00:00Z");
    const qint64 day = t("2026-12-01T00:00:00Z");
    const TimeRange today{day, day + 86400};
    auto on = [](UsageInterval iv, const QString &model) {
        iv.node = QStringLiteral("node-") + model.left(5);
        iv.gpuModel = model;
        return iv;
    };
    Budget b;
    b.scope = BudgetScope::Namespace;
    b.subject = QStringLiteral("team-h");
    b.limitGpuHours = 10;
    QVERIFY(s.setBudget(b));
    Budget ub = b;
    ub.scope = BudgetScope::User;
    ub.subject = QStringLiteral("alice");
    QVERIFY(s.setBudget(ub));

    // 1 h on one H100: 2 weighted, 1 raw.
    QVERIFY(s.upsertInterval(on(mk("team-h", "alice", "h1", 1, day + 3600, day + 7200), h100)));
    auto st = s.budgetStatus(BudgetScope::Namespace, QStringLiteral("team-h"), now);
    QVERIFY(st);
    QCOMPARE(st->size(), 1);
    QCOMPARE(st->first().used, 2.0);
    QCOMPARE(st->first().usedRaw, 1.0);
    QVERIFY(st->first().weighted());
    QCOMPARE(st->first().remaining, 8.0);
    auto c = s.checkEach(QStringLiteral("alice"), QStringLiteral("team-h"),
                         AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0}, now);
    QVERIFY(c);
    QCOMPARE(c->size(), 2);
    for (const Decision &d : *c) {
        QCOMPARE(d.used, 2.0);
        QCOMPARE(d.usedRaw, 1.0);
    }
    // The usage numbers stay raw GPU-hours.
    QCOMPARE(*s.usedGpuHours(BudgetScope::Namespace, QStringLiteral("team-h"), today, now), 1.0);

    // 1 h on a T4 (no weight): counts 1 in both.
    QVERIFY(s.upsertInterval(on(mk("team-h", "alice", "t1", 1, day + 3600, day + 7200), t4)));
    st = s.budgetStatus(BudgetScope::Namespace, QStringLiteral("team-h"), now);
    QCOMPARE(st->first().used, 3.0);
    QCOMPARE(st->first().usedRaw, 2.0);

    // Two H100s running for the last 30 min: 2 more weighted, 1 more raw; they hold 4
    // weighted GPUs (what grace and the forecast are measured in).
    QVERIFY(s.upsertInterval(on(mk("team-h", "alice", "h2", 2, now - 1800, std::nullopt), h100)));
    st = s.budgetStatus(BudgetScope::Namespace, QStringLiteral("team-h"), now);
    QCOMPARE(st->first().used, 5.0);
    QCOMPARE(st->first().usedRaw, 3.0);
    QCOMPARE(st->first().runningGpus, 4.0);
    c = s.checkEach(QStringLiteral("alice"), QStringLiteral("team-h"),
                    AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0}, now);
    for (const Decision &d : *c) {
        QCOMPARE(d.used, 5.0);
        QCOMPARE(d.usedRaw, 3.0);
        QCOMPARE(d.runningGpus, 4.0);
    }
    QCOMPARE(*s.usedGpuHours(BudgetScope::User, QStringLiteral("alice"), today, now), 3.0);

    // The admission check decides on weighted hours: 5 of 10 left, a 6 GPU-h job is
    // denied although only 3 raw GPU-h were used.
    auto denied = s.check(QStringLiteral("alice"), QStringLiteral("team-h"),
                          AdmissionRequest{AdmissionRequest::Kind::NewJob, 1, 6}, now);
    QVERIFY(denied);
    QCOMPARE(denied->outcome, Decision::Outcome::Denied);
    QCOMPARE(denied->message,
             QStringLiteral("Denied: need 6.00 GPU-h, only 5.00 left (limit 10.00 per day)"));
    // 20 minutes later the running H100s have added 4 x 1/3 h weighted.
    auto later = s.check(QStringLiteral("alice"), QStringLiteral("team-h"),
                         AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0}, now + 1200);
    QVERIFY(qAbs(later->used - (5.0 + 4.0 / 3.0)) < 1e-9);
    QVERIFY(qAbs(later->usedRaw - (3.0 + 2.0 / 3.0)) < 1e-9);

    // As of a past instant (the first H100 and the T4 half done): their later halves are
    // not counted yet.
    st = s.budgetStatus(BudgetScope::User, QStringLiteral("alice"), day + 5400);
    QCOMPARE(st->first().used, 1.5); // the H100's 0.5 h x 2 and the T4's 0.5 h
    QCOMPARE(st->first().usedRaw, 1.0);
    QCOMPARE(st->first().runningGpus, 3.0); // both held then: 2 + 1

    // The factor is the one stored with each row: a store without model weights (a CLI,
    // another replica with an older configuration) reads the same weighted hours.
    {
        auto plain = UsageStore::open(m_url);
        QVERIFY(plain);
        auto ps = (*plain)->budgetStatus(BudgetScope::Namespace, QStringLiteral("team-h"), now);
        QVERIFY(ps);
        QCOMPARE(ps->first().used, 5.0);
        QCOMPARE(ps->first().usedRaw, 3.0);
    }
    // Closing the running H100s keeps their weight: 2 GPUs x 1 h x 2 = 4 more.
    QVERIFY(*s.closeInterval(QStringLiteral("prod"), QStringLiteral("h2"), QStringLiteral("nvidia.com/gpu"),
                             now - 1800, now + 1800));
    st = s.budgetStatus(BudgetScope::Namespace, QStringLiteral("team-h"), now + 7200);
    QCOMPARE(st->first().used, 7.0);
    QCOMPARE(st->first().usedRaw, 4.0);
    QCOMPARE(st->first().runningGpus, 0.0);
    c = s.checkEach(QStringLiteral("alice"), {}, AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0},
                    now + 7200);
    QCOMPARE(c->first().used, 7.0);
    QCOMPARE(c->first().usedRaw, 4.0);
    // The rollups hold raw GPU-seconds, and a rebuild agrees with them.
    auto rebuilt = s.rebuildRollups();
    QVERIFY(rebuilt);
    QVERIFY(!rebuilt->changedAnything());
    QCOMPARE(*s.usedGpuHours(BudgetScope::Namespace, QStringLiteral("team-h"), today, now + 7200), 4.0);
}

// --- kept admission-check inputs (Options::cacheChecks) ------------------------------

// Another connection's commit reaches a caching store at once on SQLite (data_version
// is compared by every check) and once its NOTIFY has arrived on PostgreSQL.
#define GQ_COMPARE_SOON(expr, expected)                                                                      \
    do {                                                                                                     \
        if (test::usePostgres())                                                                             \
            QTRY_COMPARE_WITH_TIMEOUT(expr, expected, 5000);                                                 \
        else                                                                                                 \
            QCOMPARE(expr, expected);                                                                        \
    } while (false)

static bool sameDecision(const Decision &a, const Decision &b, QString *why) {
    auto near = [](double x, double y) { return std::abs(x - y) <= 1e-6 * std::max(1.0, std::abs(y)); };
    QStringList diff;
    if (a.outcome != b.outcome)
        diff << QStringLiteral("outcome %1 vs %2").arg(outcomeName(a.outcome), outcomeName(b.outcome));
    if (a.hasBudget != b.hasBudget)
        diff << QStringLiteral("hasBudget");
    if (!near(a.used, b.used))
        diff << QStringLiteral("used %1 vs %2").arg(a.used, 0, 'f', 9).arg(b.used, 0, 'f', 9);
    if (!near(a.limit, b.limit))
        diff << QStringLiteral("limit %1 vs %2").arg(a.limit).arg(b.limit);
    if (!near(a.remaining, b.remaining))
        diff << QStringLiteral("remaining %1 vs %2").arg(a.remaining).arg(b.remaining);
    if (!near(a.graceAllowance, b.graceAllowance))
        diff << QStringLiteral("grace %1 vs %2").arg(a.graceAllowance).arg(b.graceAllowance);
    if (a.hasBudget && (a.budget.id != b.budget.id || !(a.period == b.period)))
        diff << QStringLiteral("budget %1/%2 vs %3/%4")
                    .arg(a.budget.id)
                    .arg(a.period.start)
                    .arg(b.budget.id)
                    .arg(b.period.start);
    if (why)
        *why = diff.join(QStringLiteral("; "));
    return diff.isEmpty();
}

void TestUsageStoreBudgets::cachedCheckSeesOtherConnections() {
    auto cachedStore = openStore(true);
    auto other = openStore(); // another connection: stands for another process
    QVERIFY(cachedStore && other);
    UsageStore &a = *cachedStore;
    QVERIFY(a.checkCacheStats().active);
    const qint64 now = t("2026-03-10T12:00:00Z");
    const QString alice = QStringLiteral("alice"), team = QStringLiteral("team-a");
    QVERIFY(other->upsertInterval(mk(team, alice, "1", 2, now - 3 * 3600, now - 2 * 3600)));
    QVERIFY(other->upsertInterval(mk(team, alice, "2", 1, now - 3600, std::nullopt)));
    Budget b;
    b.subject = alice;
    b.limitGpuHours = 10;
    QVERIFY(other->setBudget(b));
    const AdmissionRequest req{AdmissionRequest::Kind::NewJob, 1, 2};
    auto used = [&](qint64 at) { return a.check(alice, team, req, at)->used; };
    auto limit = [&](qint64 at) { return a.check(alice, team, req, at)->limit; };

    // Let a PostgreSQL notification of the set-up writes arrive before counting.
    GQ_COMPARE_SOON(used(now), 3.0);
    QTRY_COMPARE_WITH_TIMEOUT((void(used(now)), a.checkCacheStats().fromCache > 0), true, 5000);
    const auto before = a.checkCacheStats();
    QCOMPARE(used(now + 1800), 3.5); // the running row grows at check time
    QCOMPARE(a.checkCacheStats().fromCache, before.fromCache + 1);
    QCOMPARE(a.checkCacheStats().reads, before.reads);

    // A new interval, a changed budget, a boost, a reverted boost, a closed interval.
    QVERIFY(other->upsertInterval(mk(team, alice, "3", 4, now - 7200, now - 3600)));
    GQ_COMPARE_SOON(used(now), 7.0);
    QVERIFY(a.checkCacheStats().changes > before.changes);
    b.limitGpuHours = 20;
    QVERIFY(other->setBudget(b));
    GQ_COMPARE_SOON(limit(now), 20.0);
    const Boost boost = gq::test::budgetBoost(BudgetScope::User, QStringLiteral("alice"), QStringLiteral("5"),
                                              now - 60, now + 3600);
    auto added = other->addBoost(boost);
    QVERIFY(added);
    GQ_COMPARE_SOON(limit(now), 25.0);
    QCOMPARE(limit(now + 3600), 20.0); // expired: decided at check time from the kept row
    QVERIFY(*other->setBoostState(added->id, Boost::State::Expired));
    GQ_COMPARE_SOON(limit(now), 20.0);
    QVERIFY(*other->closeInterval(QStringLiteral("prod"), QStringLiteral("2"),
                                  QStringLiteral("nvidia.com/gpu"), now - 3600, now - 1800));
    GQ_COMPARE_SOON(used(now + 3600), 6.5);
    QCOMPARE(*other->deleteBudget(BudgetScope::User, alice), 1);
    GQ_COMPARE_SOON(a.check(alice, team, req, now)->hasBudget, false);
    // A namespace budget set elsewhere applies to the kept namespace entry too.
    Budget nsBudget;
    nsBudget.scope = BudgetScope::Namespace;
    nsBudget.subject = team;
    nsBudget.limitGpuHours = 1;
    QVERIFY(other->setBudget(nsBudget));
    GQ_COMPARE_SOON(a.check(alice, team, req, now)->outcome, Decision::Outcome::Denied);
}

void TestUsageStoreBudgets::cachedCheckSeesOwnWritesAtOnce() {
    auto cachedStore = openStore(true);
    auto other = openStore();
    QVERIFY(cachedStore && other);
    UsageStore &a = *cachedStore;
    const qint64 now = t("2026-03-10T12:00:00Z");
    const QString bob = QStringLiteral("bob"), team = QStringLiteral("team-b");
    Budget b;
    b.subject = bob;
    b.limitGpuHours = 8;
    b.graceSeconds = 600;
    QVERIFY(a.setBudget(b));
    const AdmissionRequest req{AdmissionRequest::Kind::NewJob, 1, 1};
    auto expectSame = [&](qint64 at) {
        auto mine = a.check(bob, team, req, at);
        auto theirs = other->check(bob, team, req, at);
        QString why;
        QVERIFY(mine && theirs);
        QVERIFY2(sameDecision(*mine, *theirs, &why), qPrintable(why));
    };
    expectSame(now);
    QCOMPARE(a.check(bob, team, req, now)->used, 0.0);
    const qint64 readsBefore = a.checkCacheStats().reads;
    QVERIFY(a.upsertInterval(mk(team, bob, "1", 2, now - 7200, now - 3600)));
    QCOMPARE(a.check(bob, team, req, now)->used, 2.0); // no waiting: own writes drop the cache
    QVERIFY(a.checkCacheStats().reads > readsBefore);
    QVERIFY(a.upsertInterval(mk(team, bob, "2", 1, now - 1800, std::nullopt)));
    QCOMPARE(a.check(bob, team, req, now)->used, 2.5);
    QVERIFY(*a.closeInterval(QStringLiteral("prod"), QStringLiteral("2"), QStringLiteral("nvidia.com/gpu"),
                             now - 1800, now - 900));
    QCOMPARE(a.check(bob, team, req, now + 3600)->used, 2.25);
    b.limitGpuHours = 2;
    QVERIFY(a.setBudget(b));
    QCOMPARE(a.check(bob, team, req, now)->outcome, Decision::Outcome::Denied);
    const Boost boost = gq::test::budgetBoost(BudgetScope::User, QStringLiteral("bob"), QStringLiteral("4"),
                                              now - 60, now + 3600);
    auto added = a.addBoost(boost);
    QVERIFY(added);
    QCOMPARE(a.check(bob, team, req, now)->outcome, Decision::Outcome::Allowed);
    expectSame(now);
    QVERIFY(*a.setBoostState(added->id, Boost::State::Revoked));
    QCOMPARE(a.check(bob, team, req, now)->outcome, Decision::Outcome::Denied);
    // A rolled-back transaction of our own leaves nothing behind in the cache.
    {
        QSqlQuery q(a.database());
        QVERIFY(q.exec(QStringLiteral("BEGIN")));
        QVERIFY(q.exec(QStringLiteral("UPDATE budgets SET limit_gpu_hours = 100")));
        QCOMPARE(a.check(bob, team, req, now)->limit, 100.0); // sees its own transaction
        QVERIFY(q.exec(QStringLiteral("ROLLBACK")));
    }
    QCOMPARE(a.check(bob, team, req, now)->limit, 2.0);
    QCOMPARE(*a.deleteBudget(BudgetScope::User, bob), 1);
    QCOMPARE(a.check(bob, team, req, now)->hasBudget, false);
    expectSame(now);
}

void TestUsageStoreBudgets::cachedCheckRollsOver() {
    auto cachedStore = openStore(true);
    auto other = openStore();
    QVERIFY(cachedStore && other);
    UsageStore &a = *cachedStore;
    const QString carol = QStringLiteral("carol"), team = QStringLiteral("team-c");
    const qint64 day = t("2026-03-10T00:00:00Z");
    // Yesterday evening's job runs on across midnight; another closed one today.
    QVERIFY(a.upsertInterval(mk(team, carol, "1", 1, day - 2 * 3600, std::nullopt)));
    QVERIFY(a.upsertInterval(mk(team, carol, "2", 2, day + 3600, day + 2 * 3600)));
    Budget b;
    b.subject = carol;
    b.limitGpuHours = 30;
    QVERIFY(a.setBudget(b));
    const AdmissionRequest req{AdmissionRequest::Kind::NewJob, 1, 1};
    QTRY_COMPARE_WITH_TIMEOUT(
        (void(a.check(carol, team, req, day + 3 * 3600)), a.checkCacheStats().fromCache > 0), true, 5000);
    QCOMPARE(a.check(carol, team, req, day + 3 * 3600)->used, 5.0); // 3 h running + 2 closed
    const auto before = a.checkCacheStats();
    QCOMPARE(a.check(carol, team, req, day + 23 * 3600)->used, 25.0);
    QCOMPARE(a.checkCacheStats().reads, before.reads);
    // The next day: the cached day no longer contains now, so it is read again.
    auto next = a.check(carol, team, req, day + 25 * 3600);
    QCOMPARE(next->used, 1.0);
    QCOMPARE(next->period.start, day + 24 * 3600);
    QCOMPARE(a.checkCacheStats().reads, before.reads + 1);
    // Asking about the past reads again too (boosts read then may have expired since).
    QCOMPARE(a.check(carol, team, req, day + 3 * 3600)->used, 5.0);
    QCOMPARE(a.checkCacheStats().reads, before.reads + 2);
    QString why;
    QVERIFY2(sameDecision(*a.check(carol, team, req, day + 3 * 3600),
                          *other->check(carol, team, req, day + 3 * 3600), &why),
             qPrintable(why));
}

void TestUsageStoreBudgets::cachedCheckMatchesUncachedAndNaive() {
    auto cachedStore = openStore(true);
    auto other = openStore();
    QVERIFY(cachedStore && other);
    UsageStore &a = *cachedStore;
    QRandomGenerator rng(20261130);
    const QStringList users{QStringLiteral("u0"), QStringLiteral("u1"), QStringLiteral("u2"),
                            QStringLiteral("u3")};
    const QStringList namespaces{QStringLiteral("n0"), QStringLiteral("n1")};
    const QStringList zones{QStringLiteral("UTC"), QStringLiteral("Europe/Berlin"),
                            QStringLiteral("Asia/Kolkata"), QStringLiteral("America/New_York")};
    const QStringList resources{QStringLiteral("nvidia.com/gpu"), QStringLiteral("nvidia.com/mig-1g.10gb")};
    const qint64 base = t("2026-03-27T00:00:00Z"); // Europe/Berlin changes to summer time on the 29th
    int uid = 0;
    auto randomInterval = [&](qint64 around, bool mayRun) {
        const QString user = users[rng.bounded(qsizetype(users.size()))];
        const QString ns = namespaces[rng.bounded(qsizetype(namespaces.size()))];
        const qint64 start = around - rng.bounded(5 * 86400);
        std::optional<qint64> end = start + 60 + rng.bounded(30 * 3600);
        if (mayRun && rng.bounded(6) == 0)
            end.reset();
        return mk(ns, user, QString::number(++uid), 1 + rng.bounded(4), start, end,
                  resources[rng.bounded(qsizetype(resources.size()))]);
    };
    std::vector<UsageInterval> rows;
    for (int i = 0; i < 400; ++i)
        rows.push_back(randomInterval(base, true));
    QVERIFY(other->insertBulk(rows));
    const Period periods[3] = {Period::Day, Period::Week, Period::Month};
    for (const QString &u : users) {
        Budget b;
        b.subject = u;
        b.period = periods[rng.bounded(3)];
        b.limitGpuHours = 20 + rng.bounded(400);
        b.graceSeconds = rng.bounded(2) * 900;
        b.tz = zones[rng.bounded(qsizetype(zones.size()))];
        QVERIFY(other->setBudget(b));
        if (rng.bounded(2)) {
            b.period = b.period == Period::Day ? Period::Month : Period::Day;
            b.tz = zones[rng.bounded(qsizetype(zones.size()))];
            QVERIFY(other->setBudget(b));
        }
    }
    for (const QString &n : namespaces) {
        Budget b;
        b.scope = BudgetScope::Namespace;
        b.subject = n;
        b.period = periods[rng.bounded(3)];
        b.limitGpuHours = 100 + rng.bounded(800);
        b.tz = zones[rng.bounded(qsizetype(zones.size()))];
        QVERIFY(other->setBudget(b));
    }
    const Boost boost = gq::test::budgetBoost(BudgetScope::User, QStringLiteral("u1"), QStringLiteral("50"),
                                              base + 6 * 3600, base + 30 * 3600);
    QVERIFY(other->addBoost(boost));

    int compared = 0, fromCache = 0;
    qint64 now = base;
    for (int step = 0; step < 60; ++step) {
        now += rng.bounded(4 * 3600);
        // Now and then a write, by us or by the other connection.
        const int w = rng.bounded(10);
        if (w == 0) {
            QVERIFY(a.upsertInterval(randomInterval(now, true)));
        } else if (w == 1) {
            const auto changesBefore = a.checkCacheStats().changes;
            QVERIFY(other->upsertInterval(randomInterval(now, true)));
            if (test::usePostgres()) {
                // Wait for the notification so the comparison below is deterministic.
                QTRY_VERIFY_WITH_TIMEOUT(
                    (void(a.check(users[0], {}, {}, now)), a.checkCacheStats().changes > changesBefore),
                    5000);
            } else {
                QVERIFY(a.check(users[0], {}, {}, now));
                QVERIFY(a.checkCacheStats().changes > changesBefore);
            }
        }
        for (const QString &u : users)
            for (int k = 0; k <= namespaces.size(); ++k) {
                const QString ns = k < namespaces.size() ? namespaces[k] : QString();
                const AdmissionRequest req{rng.bounded(3) ? AdmissionRequest::Kind::NewJob
                                                          : AdmissionRequest::Kind::Running,
                                           double(rng.bounded(4)), double(rng.bounded(10))};
                const qint64 cachedBefore = a.checkCacheStats().fromCache;
                auto mine = a.check(u, ns, req, now);
                auto theirs = other->check(u, ns, req, now);
                QVERIFY2(mine && theirs, "check failed");
                fromCache += int(a.checkCacheStats().fromCache - cachedBefore);
                QString why;
                QVERIFY2(sameDecision(*mine, *theirs, &why),
                         qPrintable(QStringLiteral("%1/%2 at %3: %4").arg(u, ns).arg(now).arg(why)));
                if (mine->hasBudget) {
                    auto naive =
                        other->usedGpuHoursNaive(mine->budget.scope, mine->budget.subject, mine->period, now);
                    QVERIFY(naive);
                    QVERIFY2(std::abs(*naive - mine->used) <= 1e-6 * std::max(1.0, *naive),
                             qPrintable(QStringLiteral("naive %1 vs cached %2").arg(*naive).arg(mine->used)));
                }
                ++compared;
            }
    }
    QCOMPARE(compared, 60 * 4 * 3);
    // The comparison must have exercised the cache, not only fresh reads.
    QVERIFY2(fromCache > compared / 3, qPrintable(QString::number(fromCache)));
}

QTEST_GUILESS_MAIN(TestUsageStoreBudgets)
#include "tst_usagestore_budgets.moc"
