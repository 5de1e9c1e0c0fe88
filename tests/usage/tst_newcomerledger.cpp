// The newcomer allowance in the store (core/usage/newcomerledger.h) on both backends: the
// policy, users first seen after it, the admission check admitting a newcomer over the
// plain budget and denying once the allowance has ended (fake clock), x FACTOR and
// unlimited, the audit of each start and end exactly once also with two replicas
// sweeping at the same time, an admin's add and early end, and `gpuquota budget status`
// / `budget newcomer` of the real binary showing it.
#include "core/usage/auditlog.h"
#include "tests/clirun.h"
#include "core/usage/newcomerledger.h"
#include "tests/usage/usagebackend.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QThread>

#include <latch>

using namespace gq;
using namespace gq::test;

class TestNewcomerLedger : public QObject {
    Q_OBJECT

private:
    UsageTestBackend m_backend{"gq_newcomer"};
    QString m_url;
    std::unique_ptr<UsageStore> m_store;
    ManualClock m_clock{utc(1, 0)};

    const QString nina = QStringLiteral("nina");
    static AdmissionRequest job(double gpus, double hours) {
        return AdmissionRequest{AdmissionRequest::Kind::NewJob, gpus, hours};
    }
    int entries(const char *action) {
        AuditLog log(*m_store);
        AuditLog::Filter f;
        f.action = QLatin1String(action);
        auto list = log.list(f);
        return list ? int(list->size()) : -1;
    }
    // Policy at 03-01 00:00 UTC; nina (8 GPU-h a day) first runs 1 GPU 03-02 09:00-10:00.
    void seed(const char *policy) {
        NewcomerLedger ledger(*m_store, m_clock);
        QVERIFY(ledger.setPolicy(*NewcomerPolicy::parse(QLatin1String(policy)), QStringLiteral("admin"),
                                 QStringLiteral("first week for newcomers")));
        QVERIFY(m_store->setBudget(budget(BudgetScope::User, nina, 8)));
        QVERIFY(m_store->upsertInterval(
            interval(QStringLiteral("ml"), nina, QStringLiteral("n1"), 1, utc(2, 9), utc(2, 10))));
    }

private slots:
    void initTestCase() { GQ_PREPARE_USAGE_BACKEND(m_backend); }
    void init() {
        m_clock.set(utc(1, 0));
        m_url = m_backend.freshUrl();
        UsageStore::Options o;
        o.cacheChecks = true; // the webhook's store: kept inputs must see the allowance end
        auto s = UsageStore::open(m_url, o);
        QVERIFY2(s, qPrintable(s ? QString() : s.error().toString()));
        m_store = std::move(*s);
        QCOMPARE(*m_store->schemaVersion(), kUsageSchemaVersion);
    }
    void cleanup() {
        m_store.reset();
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }

    void admitsOverThePlainBudgetThenDenies() {
        seed("7d:x3");
        NewcomerLedger ledger(*m_store, m_clock);
        // Before any sweep nina is a newcomer already: her first interval is after the policy.
        auto early = m_store->check(nina, QString(), job(4, 4), utc(2, 11));
        QVERIFY2(early, qPrintable(early ? QString() : early.error().toString()));
        QCOMPARE(early->outcome, Decision::Outcome::Allowed);
        QCOMPARE(early->newcomerUntil, utc(9, 0));
        QCOMPARE(entries("budget.newcomer.start"), 0); // the sweep audits it
        m_clock.set(utc(2, 10, 30));
        auto swept = ledger.sweep();
        QVERIFY2(swept, qPrintable(swept ? QString() : swept.error().toString()));
        QCOMPARE(swept->added, 1);
        QCOMPARE(swept->started, 1);
        // 16 GPU-h more than 1 used: over 8, within 3 x 8.
        auto d = m_store->check(nina, QString(), job(4, 4), utc(2, 11));
        QVERIFY(d);
        QCOMPARE(d->outcome, Decision::Outcome::Allowed);
        QCOMPARE(d->limit, 24.0);
        QCOMPARE(d->newcomerUntil, utc(9, 0)); // the first 7 days from 03-02, whole
        QCOMPARE(newcomerText(*d), QStringLiteral("newcomer allowance until 03-08"));
        auto lastDay = m_store->check(nina, QString(), job(4, 4), utc(8, 23, 59));
        QVERIFY(lastDay);
        QCOMPARE(lastDay->outcome, Decision::Outcome::Allowed);
        // Ended by itself: the same job is over the plain budget again.
        auto after = m_store->check(nina, QString(), job(4, 4), utc(9, 0));
        QVERIFY(after);
        QCOMPARE(after->outcome, Decision::Outcome::Denied);
        QCOMPARE(after->newcomerUntil, 0);
        QCOMPARE(after->limit, 8.0);
        // The status reads the same.
        auto status = m_store->budgetStatus(BudgetScope::User, nina, utc(3, 12));
        QVERIFY(status && status->size() == 1);
        QCOMPARE(status->first().limit, 24.0);
        QCOMPARE(status->first().allowanceLimit, 24.0);
        QCOMPARE(status->first().budget.limitGpuHours, 8.0);
        // The end is audited by the first sweep after it, once.
        m_clock.set(utc(9, 0, 1));
        swept = ledger.sweep();
        QVERIFY(swept);
        QCOMPARE(swept->ended, 1);
        swept = ledger.sweep();
        QVERIFY(swept);
        QCOMPARE(swept->started + swept->ended + swept->added, 0);
        QCOMPARE(entries("budget.newcomer.start"), 1);
        QCOMPARE(entries("budget.newcomer.end"), 1);
        QCOMPARE(entries("budget.newcomer.policy"), 1);
        AuditLog log(*m_store);
        auto chain = log.verifyChain();
        QVERIFY(chain && chain->ok);
    }

    void unlimitedAllowsAnything() {
        seed("3d:unlimited");
        m_clock.set(utc(2, 10, 30));
        QVERIFY(NewcomerLedger(*m_store, m_clock).sweep());
        // Running 4 GPUs from 10:00: 41 GPU-h used by 20:00, over 8 with no grace.
        QVERIFY(m_store->upsertInterval(
            interval(QStringLiteral("ml"), nina, QStringLiteral("n2"), 4, utc(2, 10), std::nullopt)));
        auto status = m_store->budgetStatus(BudgetScope::User, nina, utc(2, 20));
        QVERIFY(status && status->size() == 1);
        const Decision &d = status->first();
        QVERIFY(d.unlimited);
        QVERIFY(!d.overLimit());
        QCOMPARE(d.outcome, Decision::Outcome::Allowed);
        QCOMPARE(newcomerText(d), QStringLiteral("newcomer allowance until 03-04"));
        auto big = m_store->check(nina, QString(), job(8, 100), utc(2, 20));
        QVERIFY(big);
        QVERIFY(big->allowed());
        // After 3 days: over the plain budget.
        auto later = m_store->budgetStatus(BudgetScope::User, nina, utc(5, 12));
        QVERIFY(later && later->size() == 1);
        QVERIFY(!later->first().unlimited);
        QVERIFY(later->first().overLimit());
    }

    void usersSeenBeforeThePolicyAreNoNewcomers() {
        const QString olga = QStringLiteral("olga");
        const QString ulf = QStringLiteral("ulf");
        QVERIFY(m_store->upsertInterval(
            interval(QStringLiteral("ml"), olga, QStringLiteral("o"), 1, utc(1, 0) - 3600, utc(1, 0) - 60)));
        seed("7d:x3");
        QVERIFY(m_store->setBudget(budget(BudgetScope::User, olga, 8)));
        // olga again, and ulf twice: the first interval ever counts, not the latest.
        QVERIFY(m_store->upsertInterval(
            interval(QStringLiteral("ml"), olga, QStringLiteral("o2"), 1, utc(2, 9), utc(2, 10))));
        QVERIFY(m_store->upsertInterval(
            interval(QStringLiteral("ml"), ulf, QStringLiteral("u1"), 1, utc(1, 6), utc(1, 7))));
        QVERIFY(m_store->upsertInterval(
            interval(QStringLiteral("ml"), ulf, QStringLiteral("u2"), 1, utc(2, 9), utc(2, 10))));
        // Before the sweep too, olga is judged on the plain budget.
        auto plain = m_store->check(olga, QString(), job(4, 4), utc(2, 11));
        QVERIFY(plain);
        QCOMPARE(plain->outcome, Decision::Outcome::Denied);
        QCOMPARE(plain->newcomerUntil, 0);
        m_clock.set(utc(2, 12));
        auto swept = NewcomerLedger(*m_store, m_clock).sweep();
        QVERIFY(swept);
        QCOMPARE(swept->added, 2); // nina and ulf, in one statement
        auto list = NewcomerLedger(*m_store, m_clock).list();
        QVERIFY(list && list->size() == 2);
        QCOMPARE(list->at(0).user, nina);
        QCOMPARE(list->at(0).since, utc(2, 9));
        QCOMPARE(list->at(1).user, ulf);
        QCOMPARE(list->at(1).since, utc(1, 6));
        QCOMPARE(list->at(1).until, utc(8, 0));
    }

    // Issue 30: a brand-new user's first pod, before they have any interval and before any
    // sweep, is judged under the allowance from now (the kept inputs of the webhook's
    // store too); the sweep then records them from their first interval and audits the
    // start once; an admin can end a not yet swept allowance (start and end audited).
    void firstJobBeforeAnySweep() {
        seed("7d:x3");
        const QString pia = QStringLiteral("pia");
        const QString tom = QStringLiteral("tom");
        for (const QString &u : {pia, tom})
            QVERIFY(m_store->setBudget(budget(BudgetScope::User, u, 8)));
        auto first = m_store->check(pia, QString(), job(4, 4), utc(3, 10)); // 16 > 8, <= 24
        QVERIFY2(first, qPrintable(first ? QString() : first.error().toString()));
        QCOMPARE(first->outcome, Decision::Outcome::Allowed);
        QCOMPARE(first->limit, 24.0);
        QCOMPARE(first->newcomerUntil, utc(10, 0));
        QCOMPARE(newcomerText(*first), QStringLiteral("newcomer allowance until 03-09"));
        auto status = m_store->budgetStatus(BudgetScope::User, pia, utc(3, 10));
        QVERIFY(status && status->size() == 1);
        QCOMPARE(status->first().allowanceLimit, 24.0);
        QCOMPARE(status->first().newcomerUntil, utc(10, 0));
        auto tooMuch = m_store->check(pia, QString(), job(8, 4), utc(3, 10)); // 32 > 24
        QVERIFY(tooMuch);
        QCOMPARE(tooMuch->outcome, Decision::Outcome::Denied);
        QCOMPARE(entries("budget.newcomer.start"), 0);
        // The pod runs; the sweep records pia from it, once.
        QVERIFY(m_store->upsertInterval(
            interval(QStringLiteral("ml"), pia, QStringLiteral("p1"), 4, utc(3, 10, 1), std::nullopt)));
        m_clock.set(utc(3, 11));
        NewcomerLedger ledger(*m_store, m_clock);
        auto swept = ledger.sweep();
        QVERIFY(swept);
        QCOMPARE(swept->added, 2); // pia and nina
        QCOMPARE(swept->started, 2);
        QCOMPARE(entries("budget.newcomer.start"), 2);
        auto list = ledger.list();
        QVERIFY(list && list->size() == 2);
        QCOMPARE(list->first().user, pia);
        QCOMPARE(list->first().since, utc(3, 10, 1));
        QVERIFY(!list->first().provisional);
        auto after = m_store->check(pia, QString(), job(1, 1), utc(3, 11));
        QVERIFY(after && after->allowed());
        QCOMPARE(after->newcomerUntil, utc(10, 0));
        // tom, never seen and never swept: the admin's early end records and ends it.
        m_clock.set(utc(3, 12));
        auto ended = ledger.end(tom, QStringLiteral("admin"), QStringLiteral("a contractor"));
        QVERIFY2(ended, qPrintable(ended ? QString() : ended.error().toString()));
        QCOMPARE(ended->since, utc(3, 12));
        QCOMPARE(ended->endedAt, utc(3, 12));
        QCOMPARE(entries("budget.newcomer.start"), 3);
        QCOMPARE(entries("budget.newcomer.end"), 1);
        auto plain = m_store->check(tom, QString(), job(4, 4), utc(3, 13));
        QVERIFY(plain);
        QCOMPARE(plain->outcome, Decision::Outcome::Denied);
        AuditLog log(*m_store);
        auto chain = log.verifyChain();
        QVERIFY(chain && chain->ok);
    }

    void auditedOnceWithTwoReplicas() {
        seed("7d:x3");
        // Two controllers on the same database sweep at the same instant, at the start
        // and again after the end.
        for (const qint64 t : {utc(2, 10, 30), utc(9, 0, 30)}) {
            m_clock.set(t);
            std::latch go(2);
            int written[2] = {-1, -1};
            QString errors[2];
            std::unique_ptr<QThread> threads[2];
            for (int k = 0; k < 2; ++k) {
                threads[k].reset(QThread::create([&, k] {
                    auto s = UsageStore::open(m_url);
                    if (!s) {
                        errors[k] = s.error().toString();
                        go.count_down();
                        return;
                    }
                    go.arrive_and_wait();
                    auto r = NewcomerLedger(**s, m_clock).sweep(QStringLiteral("controller-%1").arg(k));
                    if (!r)
                        errors[k] = r.error().toString();
                    else
                        written[k] = r->started + r->ended;
                }));
                threads[k]->start();
            }
            for (auto &th : threads)
                QVERIFY(th->wait(60000));
            QVERIFY2(errors[0].isEmpty() && errors[1].isEmpty(), qPrintable(errors[0] + errors[1]));
            QCOMPARE(written[0] + written[1], 1);
        }
        QCOMPARE(entries("budget.newcomer.start"), 1);
        QCOMPARE(entries("budget.newcomer.end"), 1);
    }

    void earlyEnd() {
        seed("7d:x3");
        m_clock.set(utc(2, 10, 30));
        NewcomerLedger ledger(*m_store, m_clock);
        QVERIFY(ledger.sweep());
        m_clock.set(utc(4, 12));
        auto noNote = ledger.end(nina, QStringLiteral("admin"), QString());
        QVERIFY(!noNote);
        QCOMPARE(noNote.error().field, QStringLiteral("note"));
        auto ended = ledger.end(nina, QStringLiteral("admin"), QStringLiteral("moved to the paid tier"));
        QVERIFY2(ended, qPrintable(ended ? QString() : ended.error().toString()));
        QCOMPARE(ended->endedAt, utc(4, 12));
        auto d = m_store->check(nina, QString(), job(4, 4), utc(4, 12, 1));
        QVERIFY(d);
        QCOMPARE(d->outcome, Decision::Outcome::Denied);
        QCOMPARE(d->newcomerUntil, 0);
        auto before = m_store->check(nina, QString(), job(4, 4), utc(4, 11));
        QVERIFY(before && before->allowed()); // as of before the end: still in force
        auto again = ledger.end(nina, QStringLiteral("admin"), QStringLiteral("moved to the paid tier"));
        QVERIFY(!again);
        QCOMPARE(again.error().kind, Error::Kind::NotFound);
        m_clock.set(utc(9, 1));
        auto swept = ledger.sweep();
        QVERIFY(swept);
        QCOMPARE(swept->ended, 0); // the early end was its end
        AuditLog log(*m_store);
        AuditLog::Filter f;
        f.action = QStringLiteral("budget.newcomer.end");
        auto list = log.list(f);
        QVERIFY(list && list->size() == 1);
        QCOMPARE(list->first().note, QStringLiteral("moved to the paid tier"));
        QCOMPARE(list->first().actor, QStringLiteral("admin"));
        QCOMPARE(list->first().target, QStringLiteral("budget/user/nina"));
    }

    void adminAdds() {
        NewcomerLedger ledger(*m_store, m_clock);
        auto noPolicy = ledger.add(QStringLiteral("pia"), QStringLiteral("admin"), QString());
        QVERIFY(!noPolicy);
        QCOMPARE(noPolicy.error().kind, Error::Kind::Invalid);
        seed("7d:x3");
        m_clock.set(utc(3, 15));
        auto added =
            ledger.add(QStringLiteral("pia"), QStringLiteral("admin"), QStringLiteral("joined today"));
        QVERIFY2(added, qPrintable(added ? QString() : added.error().toString()));
        QCOMPARE(added->since, utc(3, 15));
        QCOMPARE(added->until, utc(10, 0));
        QCOMPARE(entries("budget.newcomer.start"), 1);
        auto twice = ledger.add(QStringLiteral("pia"), QStringLiteral("admin"), QString());
        QVERIFY(!twice);
        QCOMPARE(twice.error().kind, Error::Kind::Conflict);
        auto swept = ledger.sweep(); // nina's first interval: one more start, pia's not again
        QVERIFY(swept);
        QCOMPARE(swept->started, 1);
        QCOMPARE(entries("budget.newcomer.start"), 2);
    }

    void cliShowsIt() {
        seed("7d:x3");
        m_clock.set(utc(2, 10, 30));
        QVERIFY(NewcomerLedger(*m_store, m_clock).sweep());
        m_store.reset(); // the CLI's own connection from here
        const QString bin = gpuquotaBinary();
        auto run = [&](const QStringList &args) { return runCli(bin, args); };
        CliRun r =
            run({QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_url,
                 QStringLiteral("--user"), nina, QStringLiteral("--now"),
                 QStringLiteral("2026-03-03T12:00:00Z"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QJsonObject b = QJsonDocument::fromJson(r.out.toUtf8())
                            .object()
                            .value(QStringLiteral("budgets"))
                            .toArray()
                            .first()
                            .toObject();
        QCOMPARE(b.value(QStringLiteral("newcomerUntil")).toString(), QStringLiteral("2026-03-09T00:00:00Z"));
        QCOMPARE(b.value(QStringLiteral("newcomer")).toString(),
                 QStringLiteral("newcomer allowance until 03-08"));
        QCOMPARE(b.value(QStringLiteral("limit")).toDouble(), 24.0);
        QCOMPARE(b.value(QStringLiteral("budget_limit")).toDouble(), 8.0);
        QCOMPARE(b.value(QStringLiteral("boost")).toDouble(), 0.0);
        r = run({QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_url,
                 QStringLiteral("--user"), nina, QStringLiteral("--now"),
                 QStringLiteral("2026-03-03T12:00:00Z")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("newcomer allowance until 03-08")), qPrintable(r.out));
        r = run({QStringLiteral("budget"), QStringLiteral("newcomer"), QStringLiteral("list"),
                 QStringLiteral("--db"), m_url, QStringLiteral("--now"),
                 QStringLiteral("2026-03-03T12:00:00Z")});
        QVERIFY2(r.code == 0 && r.out.contains(QStringLiteral("active")), qPrintable(r.out + r.err));
        r = run({QStringLiteral("budget"), QStringLiteral("newcomer"), QStringLiteral("end"), nina,
                 QStringLiteral("--db"), m_url, QStringLiteral("--note"), QStringLiteral("asked to stop"),
                 QStringLiteral("--now"), QStringLiteral("2026-03-03T12:00:00Z")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = run({QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_url,
                 QStringLiteral("--user"), nina, QStringLiteral("--now"),
                 QStringLiteral("2026-03-03T13:00:00Z"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        b = QJsonDocument::fromJson(r.out.toUtf8())
                .object()
                .value(QStringLiteral("budgets"))
                .toArray()
                .first()
                .toObject();
        QVERIFY(b.value(QStringLiteral("newcomerUntil")).isNull());
        QCOMPARE(b.value(QStringLiteral("limit")).toDouble(), 8.0);
        r = run({QStringLiteral("budget"), QStringLiteral("newcomer"), QStringLiteral("end"), nina,
                 QStringLiteral("--db"), m_url});
        QCOMPARE(r.code, 2); // no note
        QVERIFY2(r.err.contains(QStringLiteral("note")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestNewcomerLedger)
#include "tst_newcomerledger.moc"
