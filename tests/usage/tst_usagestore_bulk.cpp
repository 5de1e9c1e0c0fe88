#include "tests/usage/usagestoresuite.h"

#include <QBuffer>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTest>

#include <cmath>

using namespace gq;

// Bulk loads of multi-hour intervals in chunks large enough that their rollup cells are
// gathered on a helper thread and each table's cells are ordered while another is
// written (PostgreSQL: binary COPY into rollup tables without their key). The rollups
// must be exact: equal to a rebuild from the raw rows and, per table, to the sum of
// GPU-seconds the rows hold. Runs on SQLite and PostgreSQL (usage/usagebackend.h).
class TestUsageStoreBulk : public test::UsageStoreSuite {
    Q_OBJECT
public:
    TestUsageStoreBulk()
        : UsageStoreSuite("gq_usbk") {}

private slots:
    void largeChunksAreExact();
    void hugeLoadKeepsIntervalKeys();
    void gatherOverlapsNextChunk();
    void largeImportIntoEmptyStoreReadsOnce();
    void largeImportWithABadRowStoresNothing();
    void largeImportWithARepeatedKeyUpsertsIt();
    void migratesV9ToV10ByTimeIndexes();
};

namespace {

// `n` multi-hour intervals (1-30 h on 1-8 GPUs, a few starting mid-hour) of 40 users in
// 7 namespaces over 20 days; names with quotes, tabs, backslashes and non-ASCII text.
std::vector<UsageInterval> longRows(QRandomGenerator &rng, int from, int n, qint64 t0) {
    std::vector<UsageInterval> out;
    out.reserve(size_t(n));
    for (int i = from; i < from + n; ++i) {
        UsageInterval u;
        u.cluster = QStringLiteral("prod");
        u.ns = QStringLiteral("ns-%1\t\"\\").arg(rng.bounded(7));
        u.user = QStringLiteral("用户-%1'").arg(rng.bounded(40));
        u.podUid = QStringLiteral("uid-%1").arg(i);
        u.podName = QStringLiteral("train-%1").arg(i);
        u.resource = QStringLiteral("nvidia.com/gpu");
        u.gpus = 1 + int(rng.bounded(8));
        u.start = t0 + qint64(rng.bounded(20 * 24)) * 3600 + (i % 5 == 0 ? qint64(rng.bounded(3600)) : 0);
        u.end = u.start + 3600 + qint64(rng.bounded(29 * 3600));
        out.push_back(u);
    }
    return out;
}

// One bulk load of `chunks` chunks of 3,000 long rows (pods from `firstPod`; `huge`: a
// hint that drops the indexes), adding their GPU-seconds to `expected`; then every rollup
// table must sum to it. Fails the running test otherwise.
void loadChunksSummingTo(UsageStore &s, QRandomGenerator &rng, int firstPod, int chunks, qint64 t0, bool huge,
                         double &expected) {
    auto load = s.beginBulk(huge ? 5'000'000 : 0);
    QVERIFY2(load, load ? "" : qPrintable(load.error().message));
    for (int c = 0; c < chunks; ++c) {
        const std::vector<UsageInterval> chunk = longRows(rng, firstPod + c * 3000, 3000, t0);
        for (const UsageInterval &iv : chunk)
            expected += double(iv.gpus) * double(*iv.end - iv.start);
        auto added = (*load)->add(chunk);
        QVERIFY2(added, added ? "" : qPrintable(added.error().message));
    }
    auto n = (*load)->finish();
    QVERIFY2(n, n ? "" : qPrintable(n.error().message));
    QCOMPARE(*n, qint64(chunks) * 3000);
    for (const char *table : {"rollup_ns_hour", "rollup_user_hour", "rollup_ns_day", "rollup_user_day"}) {
        QSqlQuery q(s.database());
        QVERIFY(q.exec(QStringLiteral("SELECT SUM(gpu_seconds) FROM %1").arg(QLatin1String(table))));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toDouble(), expected);
    }
}

} // namespace

// A huge load (indexes dropped; on PostgreSQL the rollup keys too) into an empty store,
// then an ordinary load onto the filled tables (upserts), each in chunks of 3,000 rows.
void TestUsageStoreBulk::largeChunksAreExact() {
    auto s = openStore();
    QVERIFY(s);
    const qint64 t0 = t("2026-03-01T00:00:00Z");
    QRandomGenerator rng(31);
    double expected = 0; // GPU-seconds of every stored row (integers: exact in a double)
    for (int round = 0; round < 2; ++round) {
        loadChunksSummingTo(*s, rng, round * 10000, 3, t0, round == 0, expected);
        if (QTest::currentTestFailed())
            return;
        verifyRollupsExact(*s, round);
        if (QTest::currentTestFailed())
            return;
    }
    QCOMPARE(*s->intervalCount(), qint64(18000));
    // Names came back as written (binary COPY sends them as they are).
    QSqlQuery q(s->database());
    QVERIFY(
        q.exec(QStringLiteral("SELECT (SELECT COUNT(DISTINCT user_name) FROM rollup_user_day), (SELECT "
                              "MIN(user_name) FROM rollup_user_hour), (SELECT MIN(ns) FROM rollup_ns_day)")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 40);
    QCOMPARE(q.value(1).toString(), QStringLiteral("用户-0'"));
    QCOMPARE(q.value(2).toString(), QStringLiteral("ns-0\t\"\\"));
}

// PostgreSQL drops the intervals' primary and unique keys for a huge load and adds
// them back at its end: a key the load repeats fails the load there (SQLite: at once)
// and stores nothing; a good load leaves both keys in place, and an upsert of a loaded
// row finds it.
void TestUsageStoreBulk::hugeLoadKeepsIntervalKeys() {
    auto s = openStore();
    QVERIFY(s);
    const qint64 t0 = t("2026-03-01T00:00:00Z");
    auto keys = [&s]() {
        QSqlQuery q(s->database());
        if (!s->isPostgres())
            return 2;
        if (!q.exec(
                QStringLiteral("SELECT COUNT(*) FROM pg_constraint WHERE conrelid = CAST('usage_intervals' "
                               "AS regclass) AND contype IN ('p', 'u')")) ||
            !q.next())
            return -1;
        return q.value(0).toInt();
    };
    {
        auto load = s->beginBulk(5'000'000);
        QVERIFY(load);
        auto added = (*load)->add({mk("a", "u", "1", 1, t0, t0 + 3600), mk("a", "u", "2", 1, t0, t0 + 60),
                                   mk("b", "v", "1", 2, t0, t0 + 7200)});
        auto n = added ? (*load)->finish() : Result<qint64>(added.error());
        QVERIFY(!n);
        QVERIFY2(n.error().message.contains(QLatin1String("usage_intervals")), qPrintable(n.error().message));
    }
    QCOMPARE(*s->intervalCount(), qint64(0));
    QCOMPARE(keys(), 2);
    auto load = s->beginBulk(5'000'000);
    QVERIFY(load);
    QVERIFY((*load)->add({mk("a", "u", "1", 1, t0, t0 + 3600), mk("a", "u", "2", 1, t0, t0 + 60)}));
    auto n = (*load)->finish();
    QVERIFY2(n, n ? "" : qPrintable(n.error().message));
    QCOMPARE(keys(), 2);
    QCOMPARE(*s->upsertInterval(mk("a", "u", "1", 1, t0, t0 + 3600)), UsageStore::UpsertOutcome::Unchanged);
    QCOMPARE(*s->upsertInterval(mk("a", "u", "2", 1, t0, t0 + 120)), UsageStore::UpsertOutcome::Updated);
    QCOMPARE(*s->intervalCount(), qint64(2));
    verifyRollupsExact(*s, 0);
}

// A chunk's rollup cells are gathered on a helper thread while the next chunk is
// added, and a small cell limit makes the load write them in parts between chunks: the
// rollups still match a rebuild and the rows' GPU-seconds. A bad row in a later chunk,
// added while the previous chunk is still being gathered, fails the load and stores
// nothing.
void TestUsageStoreBulk::gatherOverlapsNextChunk() {
    auto s = openStore();
    QVERIFY(s);
    s->setBulkRollupCellLimit(20000);
    const qint64 t0 = t("2026-04-01T00:00:00Z");
    QRandomGenerator rng(7);
    {
        auto load = s->beginBulk(5'000'000);
        QVERIFY(load);
        QVERIFY((*load)->add(longRows(rng, 0, 3000, t0)));
        std::vector<UsageInterval> bad = longRows(rng, 3000, 3000, t0);
        bad[1234].end = bad[1234].start - 60; // ends before it starts
        auto added = (*load)->add(bad);
        QVERIFY(!added);
        QVERIFY2(added.error().message.contains(QLatin1String("interval 4234")),
                 qPrintable(added.error().message));
    }
    QCOMPARE(*s->intervalCount(), qint64(0));
    double expected = 0;
    loadChunksSummingTo(*s, rng, 10000, 4, t0, true, expected);
    if (QTest::currentTestFailed())
        return;
    verifyRollupsExact(*s, 0);
}

namespace {
// A usage CSV of `n` multi-hour rows (pods from `firstPod`), row `badRow` (0-based) with
// a GPU count that is not a number.
QByteArray longCsv(int firstPod, int n, int badRow = -1) {
    QByteArray csv = "cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n";
    for (int i = 0; i < n; ++i) {
        const int pod = firstPod + i;
        csv += QStringLiteral("prod,ns-%1,u%2,uid-%3,train-%3,nvidia.com/gpu,%4,2026-05-%5T%6:10:00Z,"
                              "2026-05-%7T%8:00:00Z\n")
                   .arg(pod % 5)
                   .arg(pod % 11)
                   .arg(pod)
                   .arg(i == badRow ? QStringLiteral("two") : QString::number(1 + pod % 4))
                   .arg(1 + pod % 20, 2, 10, QLatin1Char('0'))
                   .arg(pod % 24, 2, 10, QLatin1Char('0'))
                   .arg(2 + pod % 20, 2, 10, QLatin1Char('0'))
                   .arg((pod * 7) % 24, 2, 10, QLatin1Char('0'))
                   .toUtf8();
    }
    return csv;
}

Result<UsageStore::ImportStats> importBytes(UsageStore &s, QByteArray csv) {
    QBuffer in(&csv);
    in.open(QIODevice::ReadOnly);
    return s.importCsv(in);
}
} // namespace

// A file big enough for a huge load (made small here) into a store without intervals
// is read once, each chunk loaded as it is read: every row is stored with exact
// rollups and every key back. A second file into the now filled store (read twice,
// looked up) and the first file again count what they changed.
void TestUsageStoreBulk::largeImportIntoEmptyStoreReadsOnce() {
    auto s = openStore();
    QVERIFY(s);
    s->setBulkHugeLoadFrom(50);
    auto first = importBytes(*s, longCsv(0, 600));
    QVERIFY2(first, first ? "" : qPrintable(first.error().toString()));
    QCOMPARE(first->rows, 600);
    QCOMPARE(first->inserted, 600);
    QCOMPARE(*s->intervalCount(), qint64(600));
    verifyRollupsExact(*s, 0);
    if (QTest::currentTestFailed())
        return;
    auto second = importBytes(*s, longCsv(500, 300));
    QVERIFY2(second, second ? "" : qPrintable(second.error().toString()));
    QCOMPARE(second->inserted, 200);
    QCOMPARE(second->unchanged, 100);
    auto again = importBytes(*s, longCsv(0, 600));
    QVERIFY2(again, again ? "" : qPrintable(again.error().toString()));
    QCOMPARE(again->unchanged, 600);
    QCOMPARE(*s->intervalCount(), qint64(800));
    verifyRollupsExact(*s, 1);
}

// Read once, a bad row late in the file fails the import with the check's error,
// naming its line, after earlier chunks went to the database: nothing of it stays,
// and the good file then imports.
void TestUsageStoreBulk::largeImportWithABadRowStoresNothing() {
    auto s = openStore();
    QVERIFY(s);
    s->setBulkHugeLoadFrom(50);
    auto bad = importBytes(*s, longCsv(0, 25000, 24000));
    QVERIFY(!bad);
    QCOMPARE(bad.error().line, 24002);
    QVERIFY2(bad.error().toString().contains(QLatin1String("gpus")), qPrintable(bad.error().toString()));
    QCOMPARE(*s->intervalCount(), qint64(0));
    QSqlQuery q(s->database());
    QVERIFY(q.exec(QStringLiteral("SELECT (SELECT COUNT(*) FROM rollup_user_hour) + (SELECT COUNT(*) FROM "
                                  "rollup_ns_day)")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 0);
    q.finish();
    auto good = importBytes(*s, longCsv(0, 25000));
    QVERIFY2(good, good ? "" : qPrintable(good.error().toString()));
    QCOMPARE(good->inserted, 25000);
    verifyRollupsExact(*s, 0);
}

// A key the large file repeats within its first chunk: SQLite's kept unique key refuses
// the load there while the check still reads the rest of the file (it must read on to
// tell), PostgreSQL's check finds it. The import is done in two passes instead, the
// later row replacing the earlier.
void TestUsageStoreBulk::largeImportWithARepeatedKeyUpsertsIt() {
    auto s = openStore();
    QVERIFY(s);
    s->setBulkHugeLoadFrom(50);
    const QByteArray file = longCsv(0, 100000);
    const qsizetype cut = file.indexOf("\nprod,ns-0,u1,uid-100,") + 1;
    QByteArray again = file.mid(file.indexOf("prod,ns-0,u10,uid-10,"));
    again = again.left(again.indexOf('\n'));
    again = again.left(again.lastIndexOf(',') + 1) + "2026-06-30T00:00:00Z\n"; // pod 10, ending later
    const QByteArray csv = file.left(cut) + again + file.mid(cut);
    auto r = importBytes(*s, csv);
    QVERIFY2(r, r ? "" : qPrintable(r.error().toString()));
    QCOMPARE(r->rows, 100001);
    QCOMPARE(r->inserted, 100000);
    QCOMPARE(r->updated, 1);
    QCOMPARE(*s->intervalCount(), qint64(100000));
    const qint64 t0 = t("2026-05-01T00:00:00Z");
    auto rows = s->intervals(t0, t0 + 61 * 86400, t0 + 61 * 86400);
    QVERIFY(rows);
    int tens = 0;
    for (const UsageInterval &iv : *rows)
        if (iv.podUid == QLatin1String("uid-10")) {
            ++tens;
            QCOMPARE(iv.end.value_or(0), t("2026-06-30T00:00:00Z"));
        }
    QCOMPARE(tens, 1);
    verifyRollupsExact(*s, 0);
}

// A v9 database (by-time indexes keyed on time, subject and GPU-seconds) is migrated:
// PostgreSQL's key on the time alone and INCLUDE the rest, SQLite's stay; the rows
// and rollups are kept, a huge load rebuilds the indexes in their current form, and
// a day's chart still reads them.
void TestUsageStoreBulk::migratesV9ToV10ByTimeIndexes() {
    const qint64 t0 = t("2026-03-01T00:00:00Z");
    auto definition = [](UsageStore &s, const char *index) {
        QSqlQuery q(s.database());
        const QString sql = s.isPostgres()
                                ? QStringLiteral("SELECT pg_get_indexdef(CAST('%1' AS regclass))")
                                : QStringLiteral("SELECT sql FROM sqlite_master WHERE name = '%1'");
        return q.exec(sql.arg(QLatin1String(index))) && q.next() ? q.value(0).toString() : QString();
    };
    const char *const indexes[][3] = {
        {"rollup_ns_hour_by_hour", "rollup_ns_hour", "hour_s, ns"},
        {"rollup_user_hour_by_hour", "rollup_user_hour", "hour_s, user_name"},
        {"rollup_ns_day_by_day", "rollup_ns_day", "day_s, ns"},
        {"rollup_user_day_by_day", "rollup_user_day", "day_s, user_name"},
    };
    {
        auto s = openStore();
        QVERIFY(s);
        QVERIFY(s->upsertInterval(mk("a", "u", "1", 2, t0, t0 + 5400)));
        for (const auto &ix : indexes) {
            rawExec(*s, QStringLiteral("DROP INDEX %1").arg(QLatin1String(ix[0])));
            rawExec(*s, QStringLiteral("CREATE INDEX %1 ON %2 (%3, gpu_seconds)")
                            .arg(QLatin1String(ix[0]), QLatin1String(ix[1]), QLatin1String(ix[2])));
        }
        rawExec(*s, QStringLiteral("DELETE FROM schema_version WHERE version > 9"));
        QCOMPARE(*s->schemaVersion(), 9);
    }
    auto s = openStore();
    QVERIFY(s);
    QCOMPARE(*s->schemaVersion(), kUsageSchemaVersion);
    auto check = [&]() {
        for (const auto &ix : indexes) {
            const QString def = definition(*s, ix[0]);
            const QString want = s->isPostgres()
                                     ? QStringLiteral("(%1) INCLUDE (%2, gpu_seconds)")
                                           .arg(QString::fromLatin1(ix[2]).section(QLatin1String(", "), 0, 0),
                                                QString::fromLatin1(ix[2]).section(QLatin1String(", "), 1))
                                     : QStringLiteral("(%1, gpu_seconds)").arg(QLatin1String(ix[2]));
            QVERIFY2(def.contains(want), qPrintable(def));
        }
    };
    check();
    if (QTest::currentTestFailed())
        return;
    auto load = s->beginBulk(5'000'000);
    QVERIFY(load);
    QVERIFY((*load)->add({mk("b", "v", "2", 1, t0 + 3600, t0 + 7200)}));
    QVERIFY((*load)->finish());
    check();
    auto series =
        s->gpuHoursSeries(GroupBy::Namespace, Period::Hour, t0, t0 + 86400, QTimeZone::utc(), t0 + 86400);
    QVERIFY2(series, series ? "" : qPrintable(series.error().message));
    double a = 0, b = 0;
    for (const auto &p : *series)
        (p.subject == QLatin1String("a") ? a : b) += p.gpuHours;
    QCOMPARE(a, 3.0);
    QCOMPARE(b, 1.0);
    verifyRollupsExact(*s, 0);
}

QTEST_GUILESS_MAIN(TestUsageStoreBulk)
#include "tst_usagestore_bulk.moc"
