// BoostRequestLedger (core/usage/boostrequests.h) on both backends: the schema v7 step,
// submit with the grant's note rule, pending first, approve granting a budget boost
// (as asked, or with the admin's hours and end) in the same transaction, deny, withdraw
// by the requester only, expiry of requests nobody decided, no self-approval, and every
// step in the audit chain.
#include "core/usage/auditlog.h"
#include "core/usage/boostledger.h"
#include "core/usage/boostrequests.h"
#include "tests/usage/usagebackend.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QTest>

using namespace gq;
using namespace gq::test;

namespace {
constexpr qint64 kT0 = 1796600000; // 2026-12-06T...Z
}

class TestBoostRequests : public QObject {
    Q_OBJECT

private:
    UsageTestBackend m_backend{"gq_boostreq"};
    std::unique_ptr<UsageStore> m_store;
    ManualClock m_clock{kT0};

    BoostRequest ask(const char *requester, const char *subject, double hours, qint64 until,
                     const char *note = "paper deadline on Friday") {
        BoostRequest r;
        r.requester = QLatin1String(requester);
        r.scope = BudgetScope::User;
        r.subject = QLatin1String(subject);
        r.hours = hours;
        r.until = until;
        r.note = QLatin1String(note);
        return r;
    }
    double limit(const char *user) {
        auto s = m_store->budgetStatus(BudgetScope::User, QLatin1String(user), m_clock.nowSecs());
        return s && !s->isEmpty() ? s->first().limit : -1;
    }

private slots:
    void initTestCase() { GQ_PREPARE_USAGE_BACKEND(m_backend); }
    void init() {
        m_clock.set(kT0);
        auto s = UsageStore::open(m_backend.freshUrl());
        QVERIFY2(s, qPrintable(s ? QString() : s.error().toString()));
        m_store = std::move(*s);
        QVERIFY(*m_store->schemaVersion() >= 8);
        QVERIFY(m_store->setBudget(
            budget(BudgetScope::User, QStringLiteral("alice"), 8, 0, QStringLiteral("UTC"))));
    }
    void cleanup() {
        m_store.reset();
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }

    void submitChecksInput_data() {
        QTest::addColumn<double>("hours");
        QTest::addColumn<qint64>("until");
        QTest::addColumn<QString>("note");
        QTest::addColumn<QString>("field");
        QTest::newRow("short note") << 2.0 << kT0 + 3600 << "too short"
                                    << "note";
        QTest::newRow("zero hours") << 0.0 << kT0 + 3600 << "paper deadline"
                                    << "add-hours";
        QTest::newRow("negative hours") << -1.0 << kT0 + 3600 << "paper deadline"
                                        << "add-hours";
        QTest::newRow("end passed") << 2.0 << kT0 << "paper deadline"
                                    << "until";
    }
    void submitChecksInput() {
        QFETCH(double, hours);
        QFETCH(qint64, until);
        QFETCH(QString, note);
        QFETCH(QString, field);
        BoostRequestLedger ledger(*m_store, m_clock);
        auto r = ledger.submit(ask("alice", "alice", hours, until, qPrintable(note)));
        QVERIFY(!r);
        QCOMPARE(r.error().field, field);
        QVERIFY(ledger.list({})->isEmpty());
    }

    void approveAsAskedAndChanged() {
        BoostRequestLedger ledger(*m_store, m_clock);
        auto a = ledger.submit(ask("alice", "alice", 4, kT0 + 6 * 3600));
        QVERIFY2(a, qPrintable(a ? QString() : a.error().toString()));
        QCOMPARE(a->state, BoostRequest::State::Pending);
        QCOMPARE(a->createdAt, kT0);
        auto b = ledger.submit(ask("alice", "alice", 2, kT0 + 3600));
        QVERIFY(b);
        m_clock.advance(600);
        // Nobody decides their own request (nor one for their own user budget).
        auto self = ledger.approve(a->id, {QStringLiteral("alice"), QStringLiteral("self approval"), 0, 0});
        QVERIFY(!self);
        QCOMPARE(self.error().kind, Error::Kind::Forbidden);
        QCOMPARE(limit("alice"), 8.0);
        auto ok = ledger.approve(a->id, {QStringLiteral("admin"), QStringLiteral("for the deadline"), 0, 0});
        QVERIFY2(ok, qPrintable(ok ? QString() : ok.error().toString()));
        QCOMPARE(ok->state, BoostRequest::State::Approved);
        QCOMPARE(ok->decidedAt, kT0 + 600);
        auto boost = BoostLedger(*m_store).find(ok->boostId);
        QVERIFY(boost);
        QCOMPARE(boost->delta, QStringLiteral("4"));
        QCOMPARE(boost->start, kT0 + 600);
        QCOMPARE(boost->expiry, kT0 + 6 * 3600);
        QCOMPARE(boost->actor, QStringLiteral("admin"));
        QCOMPARE(boost->note, QStringLiteral("for the deadline"));
        // Changed by the admin: 1.5 hours until a later end.
        auto changed = ledger.approve(
            b->id, {QStringLiteral("admin"), QStringLiteral("less, but longer"), 1.5, kT0 + 7200});
        QVERIFY(changed);
        QCOMPARE(changed->hours, 1.5);
        QCOMPARE(changed->until, kT0 + 7200);
        QCOMPARE(BoostLedger(*m_store).find(changed->boostId)->delta, QStringLiteral("1.5"));
        // Decided once.
        auto again = ledger.deny(b->id, QStringLiteral("changed my mind"), QStringLiteral("admin"));
        QVERIFY(!again);
        QCOMPARE(again.error().kind, Error::Kind::Invalid);
    }

    void denyWithdrawExpire() {
        BoostRequestLedger ledger(*m_store, m_clock);
        const qint64 a = ledger.submit(ask("alice", "alice", 1, kT0 + 3600))->id;
        const qint64 b = ledger.submit(ask("alice", "alice", 1, kT0 + 3600))->id;
        const qint64 c = ledger.submit(ask("alice", "alice", 1, kT0 + 3600))->id;
        const qint64 d = ledger.submit(ask("alice", "alice", 1, kT0 + 7200))->id;
        QVERIFY(ledger.deny(a, QStringLiteral("use the night window"), QStringLiteral("admin")));
        auto notYours = ledger.withdraw(b, QStringLiteral("not my request"), QStringLiteral("bob"));
        QVERIFY(!notYours);
        QCOMPARE(notYours.error().kind, Error::Kind::Forbidden);
        QVERIFY(ledger.withdraw(b, QStringLiteral("finished without it"), QStringLiteral("alice")));
        // Pending first, then newest first.
        auto listed = ledger.list({});
        QVERIFY(listed);
        QList<qint64> order;
        for (const BoostRequest &r : *listed)
            order << r.id;
        QCOMPARE(order, (QList<qint64>{d, c, b, a}));
        BoostRequestLedger::Filter pending;
        pending.state = BoostRequest::State::Pending;
        QCOMPARE(ledger.list(pending)->size(), 2);
        // One hour later c has ended undecided: expired, and no longer approvable.
        m_clock.advance(3600);
        QCOMPARE(ledger.list(pending)->size(), 1);
        QCOMPARE(ledger.find(c)->state, BoostRequest::State::Expired);
        auto late = ledger.approve(c, {QStringLiteral("admin"), QStringLiteral("too late now"), 0, 0});
        QVERIFY(!late);
        QCOMPARE(ledger.find(a)->state, BoostRequest::State::Denied);
        QCOMPARE(ledger.find(a)->decisionNote, QStringLiteral("use the night window"));
        QCOMPARE(ledger.find(b)->state, BoostRequest::State::Withdrawn);
        QCOMPARE(limit("alice"), 8.0);
    }

    void auditedInTheChain() {
        BoostRequestLedger ledger(*m_store, m_clock);
        const qint64 a = ledger.submit(ask("alice", "alice", 3, kT0 + 3600))->id;
        QVERIFY(ledger.approve(a, {QStringLiteral("admin"), QStringLiteral("for the deadline"), 0, 0}));
        const qint64 b = ledger.submit(ask("alice", "alice", 3, kT0 + 60))->id;
        m_clock.advance(120);
        QCOMPARE(*ledger.expireDue(), 1);
        Q_UNUSED(b);
        AuditLog log(*m_store);
        auto entries = log.list();
        QVERIFY(entries);
        QStringList actions;
        for (const AuditEntry &e : *entries)
            actions.prepend(e.action);
        QCOMPARE(actions,
                 (QStringList{QStringLiteral("boost.request"), QStringLiteral("boost.grant"),
                              QStringLiteral("boost.request.approve"), QStringLiteral("boost.request"),
                              QStringLiteral("boost.request.expire")}));
        QCOMPARE(entries->first().target, QStringLiteral("budget/user/alice"));
        auto verified = log.verifyChain();
        QVERIFY(verified);
        QVERIFY(verified->ok);
    }
};

QTEST_GUILESS_MAIN(TestBoostRequests)
#include "tst_boostrequests.moc"
