#include "usage/usagestoresuite.h"

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

QTEST_GUILESS_MAIN(TestUsageStoreReplicas)
#include "tst_usagestore_replicas.moc"
