#include "tests/usage/usagestoresuite.h"

#include "core/usage/boostledger.h"
#include "core/usage/boostrequests.h"
#include "core/usage/storeconnection.h"
#include "core/usage/usageconnection.h"

#include <QSqlQuery>
#include <QTest>
#include <QThread>

#include <atomic>
#include <vector>

using namespace gq;

// Every controller replica records the pods it sees (services/controller/usagerecorder):
// two replicas write the same rows at the same moment. Whatever the interleaving, each
// row is counted once: no write fails on the unique key, and the rollups equal what a
// rebuild from the intervals gives. Runs on SQLite and on PostgreSQL (the shared store
// of replicas).
class TestUsageStoreReplicas : public test::UsageStoreSuite {
    Q_OBJECT
public:
    TestUsageStoreReplicas()
        : UsageStoreSuite("gq_usrp") {}

private slots:
    void twoWritersCountEachRowOnce();
    void heartbeatMovesOnlyOpenRowsForward();
    void heartbeatAnnouncesNoChange();
    void insertedIdIsThisWritersOwn();
};

namespace {

// One replica: its own connection (opened in its thread), the pods' states in order:
// each pod opened, then closed, as the recorder submits them.
class Replica : public QThread {
public:
    Replica(QString url, std::vector<UsageInterval> states)
        : m_url(std::move(url))
        , m_states(std::move(states)) {}
    QStringList errors;

protected:
    void run() override {
        auto store = UsageStore::open(m_url);
        if (!store) {
            errors << store.error().message;
            return;
        }
        for (const UsageInterval &iv : m_states)
            if (auto r = (*store)->upsertInterval(iv); !r)
                errors << r.error().message;
    }

private:
    QString m_url;
    std::vector<UsageInterval> m_states;
};

} // namespace

void TestUsageStoreReplicas::twoWritersCountEachRowOnce() {
    auto s = openStore(); // the schema, before the replicas
    QVERIFY(s);
    const qint64 day = t("2026-03-10T00:00:00Z");
    constexpr int kPods = 150;
    std::vector<UsageInterval> states;
    for (int i = 0; i < kPods; ++i) {
        UsageInterval open = mk(QStringLiteral("team-%1").arg(i % 3), QStringLiteral("u%1").arg(i % 7),
                                QStringLiteral("uid-%1").arg(i), 1 + i % 4, day + i * 60, std::nullopt);
        UsageInterval closed = open;
        closed.end = open.start + 3600 + i * 7; // across hour boundaries
        states.push_back(open);
        states.push_back(closed);
    }
    Replica a(m_url, states);
    Replica b(m_url, states);
    a.start();
    b.start();
    QVERIFY(a.wait(120000));
    QVERIFY(b.wait(120000));
    QVERIFY2(a.errors.isEmpty(), qPrintable(a.errors.join(u'\n')));
    QVERIFY2(b.errors.isEmpty(), qPrintable(b.errors.join(u'\n')));

    QCOMPARE(*s->intervalCount(), qint64(kPods));
    double expected = 0;
    for (int i = 0; i < kPods; ++i)
        expected += (1 + i % 4) * (3600 + i * 7) / 3600.0;
    double used = 0;
    for (int n = 0; n < 3; ++n) {
        auto h = s->usedGpuHours(BudgetScope::Namespace, QStringLiteral("team-%1").arg(n),
                                 TimeRange{day, day + 3 * 86400}, day + 3 * 86400);
        QVERIFY(h);
        used += *h;
    }
    QVERIFY2(qAbs(used - expected) < 1e-6, qPrintable(QStringLiteral("%1 vs %2").arg(used).arg(expected)));
    // The rollups are what the intervals say: nothing counted twice on a race.
    auto rebuild = s->rebuildRollups();
    QVERIFY(rebuild);
    QVERIFY(!rebuild->changedAnything());
}

// The recorders' heartbeat (#31 item 4, schema v7): every replica marks the open rows of
// its cluster and source as seen; a later mark wins, an earlier one (a replica whose
// clock lags) changes nothing, closed rows and other clusters are not touched; an
// estimated close reads back as such and moves the rollups like any close.
void TestUsageStoreReplicas::heartbeatMovesOnlyOpenRowsForward() {
    auto s = openStore();
    QVERIFY(s);
    const qint64 day = t("2026-03-10T00:00:00Z");
    UsageInterval a = mk("team-a", "alice", "h1", 2, day, std::nullopt);
    a.seen = day + 10; // a new row's first heartbeat, from its insert
    UsageInterval b = mk("team-a", "bob", "h2", 1, day, day + 600);
    UsageInterval other = mk("team-b", "carol", "h3", 1, day, std::nullopt);
    other.cluster = QStringLiteral("elsewhere");
    for (const UsageInterval &iv : {a, b, other})
        QVERIFY(s->upsertInterval(iv));
    auto seen = [&](const QString &cluster, const QString &uid) -> std::optional<qint64> {
        auto rows = s->intervals(0, day + 86400, day + 86400);
        for (const UsageInterval &iv : *rows)
            if (iv.cluster == cluster && iv.podUid == uid)
                return iv.seen;
        return std::nullopt;
    };
    QCOMPARE(seen(QStringLiteral("prod"), QStringLiteral("h1")), std::optional<qint64>(day + 10));
    QCOMPARE(*s->markIntervalsSeen(QStringLiteral("prod"), a.source, day + 100), qint64(1));
    QCOMPARE(*s->markIntervalsSeen(QStringLiteral("prod"), a.source, day + 100), qint64(0)); // a 2nd replica
    QCOMPARE(*s->markIntervalsSeen(QStringLiteral("prod"), a.source, day + 90), qint64(0)); // a lagging clock
    QCOMPARE(seen(QStringLiteral("prod"), QStringLiteral("h1")), std::optional<qint64>(day + 100));
    QCOMPARE(seen(QStringLiteral("prod"), QStringLiteral("h2")), std::optional<qint64>()); // closed
    QCOMPARE(seen(QStringLiteral("elsewhere"), QStringLiteral("h3")), std::optional<qint64>());
    QVERIFY(*s->closeInterval(a.cluster, a.podUid, a.resource, a.start, day + 100, true));
    auto rows = s->intervals(0, day + 86400, day + 86400);
    QVERIFY(rows);
    for (const UsageInterval &iv : *rows)
        QCOMPARE(iv.endEstimated, iv.podUid == QLatin1String("h1"));
    auto used =
        s->usedGpuHours(BudgetScope::User, QStringLiteral("alice"), TimeRange{day, day + 86400}, day + 86400);
    QVERIFY(used && qAbs(*used - 200.0 / 3600) < 1e-9);
    // An upsert that says the same end, now seen, clears the flag (a replica that watched).
    UsageInterval exact = a;
    exact.end = day + 100;
    exact.seen.reset();
    QCOMPARE(*s->upsertInterval(exact), UsageStore::UpsertOutcome::Updated);
    rows = s->intervals(0, day + 86400, day + 86400);
    for (const UsageInterval &iv : *rows)
        QVERIFY(!iv.endEstimated);
}

// PostgreSQL announces writes to the intervals (NOTIFY gpuquota_usage) so kept admission
// checks drop themselves; the heartbeat, an UPDATE of seen_s alone, must not. The channel
// is shared by every schema of the test database, so the trigger itself is read.
void TestUsageStoreReplicas::heartbeatAnnouncesNoChange() {
    auto s = openStore();
    QVERIFY(s);
    if (!s->isPostgres())
        return; // SQLite has no notifications (readers compare PRAGMA data_version)
    QSqlQuery q(s->database());
    QVERIFY(q.exec(
        QStringLiteral("SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t WHERE t.tgname = "
                       "'usage_intervals_notify' AND t.tgrelid = CAST('usage_intervals' AS regclass)")));
    QVERIFY(q.next());
    const QString def = q.value(0).toString();
    QVERIFY2(def.contains(QLatin1String("UPDATE OF")) && def.contains(QLatin1String("end_s")) &&
                 def.contains(QLatin1String("INSERT")) && def.contains(QLatin1String("DELETE")),
             qPrintable(def));
    QVERIFY2(!def.contains(QLatin1String("seen_s")), qPrintable(def));
}

// A grant or a boost request reads back the id its own INSERT gave the row. With two
// writers on PostgreSQL, another's row committed between our INSERT and that read has a
// higher id: reading MAX(id) took it for ours (a console granting while a replica
// stores a request). SQLite serialises writers, so there the read is checked alone.
void TestUsageStoreReplicas::insertedIdIsThisWritersOwn() {
    auto a = openStore();
    auto b = openStore();
    QVERIFY(a && b);
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    auto insert = [now](UsageConnection &conn, const QString &who) {
        QSqlQuery q(conn.database());
        QVERIFY(conn.prepare(q, QStringLiteral("INSERT INTO boost_requests (requester, scope, subject, hours,"
                                               " until_s, note, created_s, state) VALUES (?, 'user', ?, 1, ?,"
                                               " 'a note long enough', ?, 'pending')")));
        q.addBindValue(who);
        q.addBindValue(who);
        q.addBindValue(now + 3600);
        q.addBindValue(now);
        QVERIFY(conn.exec(q, QStringLiteral("test insert")));
    };
    {
        UsageConnection &mine = storeConnection(*a);
        UsageTx tx(mine);
        QVERIFY(tx.begin());
        insert(mine, QStringLiteral("alice"));
        if (a->isPostgres()) // the other writer commits while our transaction is open
            insert(storeConnection(*b), QStringLiteral("bob"));
        auto id = mine.lastInsertedId(QStringLiteral("boost_requests"));
        QVERIFY2(id, id ? "" : qPrintable(id.error().message));
        QSqlQuery q(mine.database());
        QVERIFY(q.exec(QStringLiteral("SELECT requester FROM boost_requests WHERE id = %1").arg(*id)));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("alice"));
        QVERIFY(tx.commit());
    }
    // The ledgers' own inserts report the row they stored.
    BoostRequest r;
    r.requester = QStringLiteral("carol");
    r.subject = QStringLiteral("carol");
    r.hours = 2;
    r.until = now + 7200;
    r.note = QStringLiteral("need it for the paper deadline");
    auto stored = BoostRequestLedger(*a).submit(r);
    QVERIFY2(stored, stored ? "" : qPrintable(stored.error().message));
    auto found = BoostRequestLedger(*b).find(stored->id);
    QVERIFY(found);
    QCOMPARE(found->requester, QStringLiteral("carol"));
}

QTEST_GUILESS_MAIN(TestUsageStoreReplicas)
#include "tst_usagestore_replicas.moc"
