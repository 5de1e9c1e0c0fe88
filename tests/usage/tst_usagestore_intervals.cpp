#include "tests/usage/usagestoresuite.h"

#include <QBuffer>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <limits>
#include <map>

using namespace gq;

// Intervals in and GPU-hours out: upserts, the series against a brute-force sweep,
// the rollups and their repair, bulk loads, the top users and what runs now.
// Runs twice, on SQLite and on PostgreSQL (usage/usagebackend.h); the fixture is
// usage/usagestoresuite.h.
class TestUsageStoreIntervals : public test::UsageStoreSuite {
    Q_OBJECT
public:
    TestUsageStoreIntervals()
        : UsageStoreSuite("gq_usiv") {}

private slots:
    void upsertIsIdempotentAndMovesRollups();
    void rejectsBadIntervals();
    void seriesMatchesBruteForce_data();
    void seriesMatchesBruteForce();
    void topUsersAndRunning();
    void rollupRebuildRepairs();
    void bulkLoadAcrossChunks();
    void hugeLoadWritesRollupsInParts();
    void hugeImportWithRepeatedKeys();
};

void TestUsageStoreIntervals::upsertIsIdempotentAndMovesRollups() {
    auto s = openStore();
    QVERIFY(s);
    const qint64 day = t("2026-03-10T00:00:00Z");
    const QTimeZone utc = *parseZone(QStringLiteral("UTC"));
    UsageInterval open = mk("team-a", "alice", "p1", 2, day + 3600, std::nullopt);
    QCOMPARE(*s->upsertInterval(open), UsageStore::UpsertOutcome::Inserted);
    QCOMPARE(*s->upsertInterval(open), UsageStore::UpsertOutcome::Unchanged);
    // Running: counted up to now from the running set, not from rollups.
    auto series = s->gpuHoursSeries(GroupBy::User, Period::Day, day, day + 86400, utc, day + 4 * 3600);
    QVERIFY(series);
    QCOMPARE(series->size(), size_t(1));
    QCOMPARE(series->at(0).gpuHours, 6.0);
    // Closing it through an upsert with an end: now in the rollups.
    UsageInterval closed = open;
    closed.end = day + 3 * 3600;
    QCOMPARE(*s->upsertInterval(closed), UsageStore::UpsertOutcome::Updated);
    series = s->gpuHoursSeries(GroupBy::User, Period::Day, day, day + 86400, utc, day + 10 * 3600);
    QCOMPARE(series->at(0).gpuHours, 4.0);
    QCOMPARE(*s->upsertInterval(closed), UsageStore::UpsertOutcome::Unchanged);
    // Moving it to another user subtracts from the first.
    UsageInterval moved = closed;
    moved.user = QStringLiteral("bob");
    QCOMPARE(*s->upsertInterval(moved), UsageStore::UpsertOutcome::Updated);
    series = s->gpuHoursSeries(GroupBy::User, Period::Day, day, day + 86400, utc, day + 10 * 3600);
    QCOMPARE(series->size(), size_t(1));
    QCOMPARE(series->at(0).subject, QStringLiteral("bob"));
    QCOMPARE(series->at(0).gpuHours, 4.0);
    // closeInterval on an open row.
    UsageInterval other =
        mk("team-a", "alice", "p2", 1, day, std::nullopt, QStringLiteral("nvidia.com/mig-1g.10gb"));
    QVERIFY(s->upsertInterval(other));
    QCOMPARE(*s->closeInterval(other.cluster, other.podUid, other.resource, other.start, day + 7 * 3600),
             true);
    QCOMPARE(*s->closeInterval(other.cluster, other.podUid, other.resource, other.start, day + 7 * 3600),
             false);
    auto used =
        s->usedGpuHours(BudgetScope::User, QStringLiteral("alice"), TimeRange{day, day + 86400}, day + 86400);
    QVERIFY(qAbs(*used - 1.0) < 1e-9); // 7 h of a 1/7 slice
    QCOMPARE(*s->intervalCount(), qint64(2));
}

void TestUsageStoreIntervals::rejectsBadIntervals() {
    auto s = openStore();
    QVERIFY(s);
    auto zero = s->upsertInterval(mk("a", "u", "1", 1, 100, 100));
    QVERIFY(!zero);
    QCOMPARE(zero.error().field, QStringLiteral("end"));
    auto rev = s->upsertInterval(mk("a", "u", "1", 1, 100, 50));
    QVERIFY(!rev);
    QVERIFY(!s->closeInterval(QStringLiteral("prod"), QStringLiteral("1"), QStringLiteral("nvidia.com/gpu"),
                              100, 90));
    auto bulk = s->insertBulk({mk("a", "u", "1", 1, 0, 10), mk("a", "u", "2", 0, 0, 10)});
    QVERIFY(!bulk);
    QCOMPARE(bulk.error().field, QStringLiteral("gpus"));
    QCOMPARE(*s->intervalCount(), qint64(0)); // the bulk transaction rolled back
}

void TestUsageStoreIntervals::seriesMatchesBruteForce_data() {
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QString>("period");
    QTest::addColumn<QString>("by");
    QTest::addColumn<QString>("base");
    QTest::addColumn<quint32>("seed");
    QTest::addColumn<QString>("rollupZone"); // the store's daily-rollup zone
    QTest::newRow("berlin day spring") << "Europe/Berlin"
                                       << "day"
                                       << "user"
                                       << "2026-03-26T00:00:00Z" << 11u << QString();
    QTest::newRow("berlin hour autumn") << "Europe/Berlin"
                                        << "hour"
                                        << "namespace"
                                        << "2026-10-24T00:00:00Z" << 12u << QString();
    QTest::newRow("new york week spring") << "America/New_York"
                                          << "week"
                                          << "namespace"
                                          << "2026-03-04T00:00:00Z" << 13u << QString();
    QTest::newRow("new york day autumn") << "America/New_York"
                                         << "day"
                                         << "user"
                                         << "2026-10-29T00:00:00Z" << 14u << QStringLiteral("UTC");
    QTest::newRow("utc month over leap feb") << "UTC"
                                             << "month"
                                             << "user"
                                             << "2028-02-24T00:00:00Z" << 15u << QString();
    QTest::newRow("kolkata day (exact path)") << "Asia/Kolkata"
                                              << "day"
                                              << "namespace"
                                              << "2026-05-01T00:00:00Z" << 16u << QString();
}

// Randomized intervals (some inserted one by one, some in bulk, some closed later,
// some still running), queried through the rollups and compared with a sweep over
// every second of the range.
void TestUsageStoreIntervals::seriesMatchesBruteForce() {
    QFETCH(QString, zone);
    QFETCH(QString, period);
    QFETCH(QString, by);
    QFETCH(QString, base);
    QFETCH(quint32, seed);
    QFETCH(QString, rollupZone);
    UsageStore::Options options;
    options.rollupZone = rollupZone.isEmpty() ? zone : rollupZone;
    auto opened = UsageStore::open(m_url, options);
    QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
    auto &s = *opened;
    QCOMPARE(s->rollupZone(), options.rollupZone);
    const QTimeZone tz = *parseZone(zone);
    const Period p = *parsePeriod(period);
    const GroupBy g = *parseGroupBy(by);
    const qint64 t0 = *parseInstant(base);
    const qint64 span = 8 * 86400;
    QRandomGenerator rng(seed);
    const QStringList resources{QStringLiteral("nvidia.com/gpu"), QStringLiteral("nvidia.com/mig-1g.10gb"),
                                QStringLiteral("nvidia.com/mig-2g.20gb")};
    std::vector<UsageInterval> all, bulk;
    for (int i = 0; i < 80; ++i) {
        UsageInterval u =
            mk(QStringLiteral("ns-%1").arg(rng.bounded(3)), QStringLiteral("user-%1").arg(rng.bounded(4)),
               QString::number(i), 1 + int(rng.bounded(8)), t0 + qint64(rng.bounded(int(span))), std::nullopt,
               resources[rng.bounded(resources.size())]);
        if (rng.bounded(6) != 0)
            u.end = u.start + 1 + qint64(rng.bounded(30 * 3600));
        all.push_back(u);
    }
    for (size_t i = 0; i < all.size(); ++i) {
        if (i % 3 == 0) {
            bulk.push_back(all[i]);
        } else if (i % 3 == 1 && all[i].end) { // insert open, close later
            UsageInterval open = all[i];
            open.end.reset();
            QVERIFY(s->upsertInterval(open));
            QVERIFY(*s->closeInterval(open.cluster, open.podUid, open.resource, open.start, *all[i].end));
        } else {
            QVERIFY(s->upsertInterval(all[i]));
        }
    }
    QCOMPARE(*s->insertBulk(bulk), qint64(bulk.size()));
    // Query whole local days inside the generated span.
    const qint64 from = periodContaining(t0 + 86400, Period::Day, tz).start;
    const qint64 to = periodContaining(t0 + 6 * 86400, Period::Day, tz).start;
    const qint64 now = t0 + 5 * 86400 + 1234;

    // Prove which rollups answer: drop the other kind before querying.
    const bool dailyRollups = options.rollupZone == zone && p != Period::Hour;
    rawExec(*s, dailyRollups ? QStringLiteral("DELETE FROM rollup_ns_hour")
                             : QStringLiteral("DELETE FROM rollup_ns_day"));
    rawExec(*s, dailyRollups ? QStringLiteral("DELETE FROM rollup_user_hour")
                             : QStringLiteral("DELETE FROM rollup_user_day"));
    auto series = s->gpuHoursSeries(g, p, from, to, tz, now);
    QVERIFY2(series, series ? "" : qPrintable(series.error().message));
    std::map<std::pair<qint64, QString>, double> got;
    for (const auto &pt : *series)
        got[{pt.bucketStart, pt.subject}] += pt.gpuHours;

    // Brute force: sweep every second, keep the active weight per subject.
    const ResourceWeights w;
    std::multimap<qint64, std::pair<QString, double>> events;
    for (const UsageInterval &u : all) {
        const qint64 e = u.end ? *u.end : now;
        if (e <= u.start)
            continue;
        const QString subj = g == GroupBy::User ? u.user : u.ns;
        events.emplace(u.start, std::make_pair(subj, u.gpus * w.weight(u.resource)));
        events.emplace(e, std::make_pair(subj, -u.gpus * w.weight(u.resource)));
    }
    QMap<QString, double> active;
    std::map<std::pair<qint64, QString>, double> want;
    auto ev = events.begin();
    for (; ev != events.end() && ev->first < from; ++ev)
        active[ev->second.first] += ev->second.second;
    qint64 bucket = 0;
    for (qint64 sec = from; sec < to; ++sec) {
        for (; ev != events.end() && ev->first == sec; ++ev)
            active[ev->second.first] += ev->second.second;
        if (sec == from || sec % 60 == 0) {
            // Independent bucket lookup: the local calendar through QDateTime.
            const QDateTime local = QDateTime::fromSecsSinceEpoch(sec, tz);
            QDate d = local.date();
            if (p == Period::Week)
                d = d.addDays(1 - d.dayOfWeek());
            if (p == Period::Month)
                d = QDate(d.year(), d.month(), 1);
            bucket = p == Period::Hour ? sec - (sec + local.offsetFromUtc()) % 3600
                                       : d.startOfDay(tz).toSecsSinceEpoch();
        }
        for (auto a = active.cbegin(); a != active.cend(); ++a)
            if (a.value() > 1e-12)
                want[{bucket, a.key()}] += a.value() / 3600.0;
    }
    QVERIFY(!want.empty());
    for (const auto &[key, hours] : want) {
        const double g2 = got.count(key) ? got.at(key) : 0.0;
        QVERIFY2(qAbs(g2 - hours) < 1e-6, qPrintable(QStringLiteral("%1 %2: store %3, brute force %4")
                                                         .arg(formatInstant(key.first, tz), key.second)
                                                         .arg(g2)
                                                         .arg(hours)));
    }
    for (const auto &[key, hours] : got)
        QVERIFY2(want.count(key) || hours < 1e-9, qPrintable(formatInstant(key.first, tz)));
}

void TestUsageStoreIntervals::topUsersAndRunning() {
    auto s = openStore();
    QVERIFY(s);
    const qint64 d = t("2026-06-01T00:00:00Z");
    QVERIFY(s->insertBulk({mk("a", "alice", "1", 4, d, d + 3600), mk("a", "bob", "2", 1, d, d + 7200),
                           mk("b", "carol", "3", 8, d + 3600, std::nullopt)}));
    auto top = s->topUsers(d, d + 86400, 2, d + 2 * 3600);
    QVERIFY(top);
    QCOMPARE(top->size(), size_t(2));
    QCOMPARE(top->at(0).first, QStringLiteral("carol"));
    QCOMPARE(top->at(0).second, 8.0);
    QCOMPARE(top->at(1).first, QStringLiteral("alice"));
    auto running = s->runningNow(d + 2 * 3600);
    QVERIFY(running);
    QCOMPARE(running->size(), size_t(1));
    QCOMPARE(running->at(0).user, QStringLiteral("carol"));
    QCOMPARE(running->at(0).podName, QStringLiteral("pod-3"));
    QCOMPARE(*s->runningGpus(BudgetScope::Namespace, QStringLiteral("b"), d + 7200), 8.0);
    QCOMPARE(s->runningNow(d)->size(), size_t(0)); // not started yet at d
}

// Brute force for the rollup tests: every interval summed per day and namespace (or
// user) by the pure ledger function, independent of the rollup tables.
static std::map<std::pair<qint64, QString>, double> chartFromRaw(UsageStore &s, GroupBy by, qint64 from,
                                                                 qint64 to, const QTimeZone &tz, qint64 now) {
    std::map<std::pair<qint64, QString>, double> out;
    auto all =
        s.intervals(std::numeric_limits<qint64>::min() / 2, std::numeric_limits<qint64>::max() / 2, now);
    if (!all)
        return out;
    const auto m = gpuHoursByPeriod(*all, by, from, to, Period::Day, tz, now, s.weights());
    for (auto b = m.cbegin(); b != m.cend(); ++b)
        for (auto v = b->cbegin(); v != b->cend(); ++v)
            if (v.value() > 1e-12)
                out[{b.key(), v.key()}] = v.value();
    return out;
}

static std::map<std::pair<qint64, QString>, double>
chartFromStore(UsageStore &s, GroupBy by, Period p, qint64 from, qint64 to, const QTimeZone &tz, qint64 now) {
    std::map<std::pair<qint64, QString>, double> out;
    auto series = s.gpuHoursSeries(by, p, from, to, tz, now);
    if (series)
        for (const auto &pt : *series)
            out[{pt.bucketStart, pt.subject}] += pt.gpuHours;
    return out;
}

static QString chartDiff(const std::map<std::pair<qint64, QString>, double> &got,
                         const std::map<std::pair<qint64, QString>, double> &want) {
    for (const auto &[k, v] : want) {
        const double g = got.count(k) ? got.at(k) : 0.0;
        if (qAbs(g - v) > 1e-6)
            return QStringLiteral("%1 %2: store %3, raw %4").arg(k.first).arg(k.second).arg(g).arg(v);
    }
    for (const auto &[k, v] : got)
        if (!want.count(k) && v > 1e-6)
            return QStringLiteral("%1 %2: store %3, raw nothing").arg(k.first).arg(k.second).arg(v);
    return {};
}

// Damaged rollups (rows deleted, values altered, stray rows) make the chart wrong;
// rebuildRollups() repairs exactly that, after which the chart equals the answer
// from the raw intervals again, through the daily and the hourly rollups.
void TestUsageStoreIntervals::rollupRebuildRepairs() {
    UsageStore::Options options;
    options.rollupZone = QStringLiteral("Europe/Berlin");
    auto opened = UsageStore::open(m_url, options);
    QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
    auto &s = *opened;
    const QTimeZone tz = *parseZone(options.rollupZone);
    const qint64 t0 = t("2026-03-25T00:00:00Z"); // across the spring DST change
    QRandomGenerator rng(77);
    std::vector<UsageInterval> bulk;
    qint64 openCount = 0;
    for (int i = 0; i < 120; ++i) {
        UsageInterval u =
            mk(QStringLiteral("ns-%1").arg(rng.bounded(4)), QStringLiteral("user-%1").arg(rng.bounded(6)),
               QString::number(i), 1 + int(rng.bounded(8)), t0 + qint64(rng.bounded(6 * 86400)), std::nullopt,
               rng.bounded(3) == 0 ? QStringLiteral("nvidia.com/mig-1g.10gb")
                                   : QStringLiteral("nvidia.com/gpu"));
        if (rng.bounded(8) != 0)
            u.end = u.start + 60 + qint64(rng.bounded(40 * 3600));
        else
            ++openCount;
        if (i % 2)
            bulk.push_back(u);
        else
            QVERIFY(s->upsertInterval(u));
    }
    QVERIFY(s->insertBulk(bulk));
    // An interval replaced (moved to another user) leaves zero rows behind: not damage.
    UsageInterval moved = mk(QStringLiteral("ns-0"), QStringLiteral("user-0"), QStringLiteral("m"), 2,
                             t0 + 86400, t0 + 86400 + 5 * 3600);
    QVERIFY(s->upsertInterval(moved));
    moved.user = QStringLiteral("user-9");
    QCOMPARE(*s->upsertInterval(moved), UsageStore::UpsertOutcome::Updated);

    const qint64 from = periodContaining(t0, Period::Day, tz).start;
    const qint64 to = periodContaining(t0 + 8 * 86400, Period::Day, tz).start;
    const qint64 now = t0 + 5 * 86400 + 777;
    const auto wantNs = chartFromRaw(*s, GroupBy::Namespace, from, to, tz, now);
    const auto wantUser = chartFromRaw(*s, GroupBy::User, from, to, tz, now);
    QVERIFY(!wantNs.empty());
    QCOMPARE(chartDiff(chartFromStore(*s, GroupBy::Namespace, Period::Day, from, to, tz, now), wantNs),
             QString());

    // A healthy database: nothing to change.
    auto clean = s->rebuildRollups();
    QVERIFY2(clean, clean ? "" : qPrintable(clean.error().message));
    QVERIFY(!clean->changedAnything());
    QCOMPARE(clean->tables.size(), 4);
    QCOMPARE(clean->intervals, *s->intervalCount() - openCount);

    // Damage every table.
    rawExec(*s, QStringLiteral("DELETE FROM rollup_ns_day WHERE ns = 'ns-1'"));
    rawExec(*s, QStringLiteral(
                    "UPDATE rollup_user_day SET gpu_seconds = gpu_seconds * 3 WHERE user_name = 'user-2'"));
    rawExec(*s, QStringLiteral("DELETE FROM rollup_ns_hour WHERE ns = 'ns-2'"));
    rawExec(*s,
            QStringLiteral("UPDATE rollup_user_hour SET gpu_seconds = gpu_seconds + 3600 WHERE user_name = "
                           "'user-3'"));
    QSqlQuery stray(s->database());
    QVERIFY(stray.prepare(
        QStringLiteral("INSERT INTO rollup_ns_hour (ns, hour_s, gpu_seconds) VALUES (?, ?, ?)")));
    stray.addBindValue(QStringLiteral("ns-ghost"));
    stray.addBindValue(from + 7200);
    stray.addBindValue(36000.0);
    QVERIFY2(stray.exec(), qPrintable(stray.lastError().text()));
    stray.finish();
    QVERIFY(
        !chartDiff(chartFromStore(*s, GroupBy::Namespace, Period::Day, from, to, tz, now), wantNs).isEmpty());
    QVERIFY(
        !chartDiff(chartFromStore(*s, GroupBy::User, Period::Day, from, to, tz, now), wantUser).isEmpty());

    auto repaired = s->rebuildRollups();
    QVERIFY2(repaired, repaired ? "" : qPrintable(repaired.error().message));
    QVERIFY(repaired->changedAnything());
    QMap<QString, UsageStore::RollupTableReport> by;
    for (const auto &tr : repaired->tables)
        by.insert(tr.table, tr);
    QVERIFY(by.value(QStringLiteral("rollup_ns_day")).added > 0);
    QVERIFY(by.value(QStringLiteral("rollup_user_day")).changed > 0);
    QVERIFY(by.value(QStringLiteral("rollup_ns_hour")).added > 0);
    QCOMPARE(by.value(QStringLiteral("rollup_ns_hour")).removed, qint64(1));
    QVERIFY(qAbs(by.value(QStringLiteral("rollup_ns_hour")).maxAbsDiffGpuHours - 10.0) < 1e-9 ||
            by.value(QStringLiteral("rollup_ns_hour")).maxAbsDiffGpuHours > 10.0);
    QVERIFY(by.value(QStringLiteral("rollup_user_hour")).changed > 0);
    QVERIFY(by.value(QStringLiteral("rollup_user_hour")).maxAbsDiffGpuHours >= 1.0 - 1e-9);

    // Daily path (zone = rollup zone) and hourly path (UTC days) both agree with raw.
    QCOMPARE(chartDiff(chartFromStore(*s, GroupBy::Namespace, Period::Day, from, to, tz, now), wantNs),
             QString());
    QCOMPARE(chartDiff(chartFromStore(*s, GroupBy::User, Period::Day, from, to, tz, now), wantUser),
             QString());
    const QTimeZone utc = *parseZone(QStringLiteral("UTC"));
    const qint64 uf = periodContaining(t0, Period::Day, utc).start, ut = uf + 8 * 86400;
    QCOMPARE(chartDiff(chartFromStore(*s, GroupBy::Namespace, Period::Day, uf, ut, utc, now),
                       chartFromRaw(*s, GroupBy::Namespace, uf, ut, utc, now)),
             QString());
    QCOMPARE(chartDiff(chartFromStore(*s, GroupBy::User, Period::Day, uf, ut, utc, now),
                       chartFromRaw(*s, GroupBy::User, uf, ut, utc, now)),
             QString());
    auto again = s->rebuildRollups();
    QVERIFY(again);
    QVERIFY(!again->changedAnything());
}

// A load fed in chunks (one transaction), including the index drop/rebuild of huge
// loads (forced through the hint), equals the same rows inserted one by one; a
// failing chunk rolls all chunks back.
void TestUsageStoreIntervals::bulkLoadAcrossChunks() {
    auto s = openStore();
    QVERIFY(s);
    const qint64 t0 = t("2026-05-04T00:00:00Z");
    QRandomGenerator rng(5);
    std::vector<std::vector<UsageInterval>> chunks(3);
    for (int i = 0; i < 300; ++i) {
        UsageInterval u = mk(QStringLiteral("ns-%1").arg(rng.bounded(3)),
                             QStringLiteral("u\"%1\\\\,'{x}").arg(rng.bounded(5)), QString::number(i),
                             1 + int(rng.bounded(4)), t0 + qint64(rng.bounded(3 * 86400)), std::nullopt);
        if (rng.bounded(10) != 0)
            u.end = u.start + 1 + qint64(rng.bounded(20 * 3600));
        chunks[size_t(i % 3)].push_back(u);
    }
    {
        auto load = s->beginBulk(5'000'000); // pretend huge: secondary indexes dropped and rebuilt
        QVERIFY2(load, load ? "" : qPrintable(load.error().message));
        for (const auto &c : chunks)
            QVERIFY(*load && (*load)->add(c));
        auto n = (*load)->finish();
        QVERIFY2(n, n ? "" : qPrintable(n.error().message));
        QCOMPARE(*n, qint64(300));
    }
    QCOMPARE(*s->intervalCount(), qint64(300));
    // Every secondary index is back.
    QSqlQuery q(s->database());
    QVERIFY(q.exec(s->isPostgres() ? QStringLiteral("SELECT COUNT(*) FROM pg_indexes WHERE schemaname = "
                                                    "current_schema() AND indexname LIKE '%by_%'")
                                   : QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' "
                                                    "AND name LIKE '%by_%'")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 4);
    q.finish();
    // Text with quotes, backslashes, commas and braces survived (PostgreSQL array literals).
    auto rows = s->intervals(t0 - 86400, t0 + 5 * 86400, t0 + 5 * 86400);
    QVERIFY(rows);
    QCOMPARE(rows->size(), size_t(300));
    QVERIFY(rows->front().user.startsWith(QStringLiteral("u\"")));
    QVERIFY(rows->front().user.endsWith(QStringLiteral("\\\\,'{x}")));
    const QTimeZone utc = *parseZone(QStringLiteral("UTC"));
    const qint64 now = t0 + 5 * 86400;
    QCOMPARE(chartDiff(chartFromStore(*s, GroupBy::User, Period::Day, t0, t0 + 4 * 86400, utc, now),
                       chartFromRaw(*s, GroupBy::User, t0, t0 + 4 * 86400, utc, now)),
             QString());
    auto clean = s->rebuildRollups();
    QVERIFY(clean && !clean->changedAnything());

    // A duplicate in the second chunk: nothing of the load stays.
    {
        auto load = s->beginBulk();
        QVERIFY(load);
        std::vector<UsageInterval> fresh{mk("n", "u", "new-1", 1, t0, t0 + 60)};
        QVERIFY((*load)->add(fresh));
        auto dup = (*load)->add({chunks[0].front()});
        QVERIFY(!dup);
        QVERIFY(!(*load)->finish());
    }
    QCOMPARE(*s->intervalCount(), qint64(300));
    // Streamed (PostgreSQL's one COPY for all chunks): the duplicate may surface only at
    // finish(), with the server's reason; again nothing stays.
    {
        auto load = s->beginBulk();
        QVERIFY(load);
        (*load)->streamIntervals();
        QVERIFY((*load)->add({mk("n", "u", "new-3", 1, t0, t0 + 60)}));
        auto dup = (*load)->add({chunks[0].front()});
        auto done = dup ? (*load)->finish() : Result<qint64>(dup.error());
        QVERIFY(!done);
        QVERIFY2(done.error().message.contains(QLatin1String("duplicate"), Qt::CaseInsensitive) ||
                     done.error().message.contains(QLatin1String("UNIQUE")),
                 qPrintable(done.error().message));
    }
    QCOMPARE(*s->intervalCount(), qint64(300));
    // The store is usable afterwards.
    QCOMPARE(*s->upsertInterval(mk("n", "u", "new-2", 1, t0, t0 + 60)), UsageStore::UpsertOutcome::Inserted);
}

// A huge load into empty rollup tables (PostgreSQL COPYs the cells into them without
// their primary key) that writes its rollups in several parts, some cells in more
// than one: the same rollups as a rebuild, every key back; then a second huge load
// onto the filled tables (upserts) adds to them correctly.
void TestUsageStoreIntervals::hugeLoadWritesRollupsInParts() {
    auto s = openStore();
    QVERIFY(s);
    s->setBulkRollupCellLimit(40);
    const qint64 t0 = t("2026-05-04T00:00:00Z");
    QRandomGenerator rng(9);
    auto rows = [&](int from, int n) {
        std::vector<UsageInterval> out;
        for (int i = from; i < from + n; ++i)
            out.push_back(mk(QStringLiteral("ns-%1").arg(rng.bounded(3)),
                             QStringLiteral("u%1").arg(rng.bounded(4)), QString::number(i),
                             1 + int(rng.bounded(3)), t0 + qint64(rng.bounded(2 * 86400)),
                             t0 + 2 * 86400 + qint64(rng.bounded(3 * 3600))));
        return out;
    };
    for (int round = 0; round < 2; ++round) {
        auto load = s->beginBulk(5'000'000);
        QVERIFY2(load, load ? "" : qPrintable(load.error().message));
        for (int c = 0; c < 4; ++c)
            QVERIFY(*load && (*load)->add(rows(round * 1000 + c * 50, 50)));
        auto n = (*load)->finish();
        QVERIFY2(n, n ? "" : qPrintable(n.error().message));
        QCOMPARE(*n, qint64(200));
        verifyRollupsExact(*s, round);
        if (QTest::currentTestFailed())
            return;
        if (s->isPostgres()) {
            QSqlQuery q(s->database());
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM pg_constraint WHERE contype = 'p' AND "
                                          "connamespace = CAST(current_schema() AS regnamespace) AND "
                                          "CAST(conrelid AS regclass)::text LIKE 'rollup_%'")));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), 4);
        }
    }
    QCOMPARE(*s->intervalCount(), qint64(400));
    // A cell upsert after the load finds the key again.
    QCOMPARE(*s->upsertInterval(mk("ns-0", "u0", "after", 1, t0, t0 + 60)),
             UsageStore::UpsertOutcome::Inserted);
}

// An import big enough for the huge path (made small here) into an empty database,
// with keys the file repeats: the repeats go through single-row upserts after the
// bulk part, which need the rollup keys PostgreSQL drops for huge loads. The later
// row wins, the counts say what happened, and the rollups match a rebuild.
void TestUsageStoreIntervals::hugeImportWithRepeatedKeys() {
    auto s = openStore();
    QVERIFY(s);
    s->setBulkHugeLoadFrom(10);
    QByteArray csv = "cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n";
    auto row = [](int pod, const char *end) {
        return QStringLiteral("prod,ns-%1,u%2,uid-%3,p,nvidia.com/gpu,%4,2026-05-04T%5:00:00Z,"
                              "2026-05-04T%6:00:00Z\n")
            .arg(pod % 3)
            .arg(pod % 4)
            .arg(pod)
            .arg(1 + pod % 2)
            .arg(pod % 10, 2, 10, QLatin1Char('0'))
            .arg(QLatin1String(end))
            .toUtf8();
    };
    for (int pod = 0; pod < 40; ++pod)
        csv += row(pod, "12");
    csv += row(5, "15");  // replaces pod 5's row: updated
    csv += row(12, "12"); // equal to pod 12's row: unchanged
    QBuffer in(&csv);
    QVERIFY(in.open(QIODevice::ReadOnly));
    auto r = s->importCsv(in);
    QVERIFY2(r, r ? "" : qPrintable(r.error().toString()));
    QCOMPARE(r->rows, 42);
    QCOMPARE(r->inserted, 40);
    QCOMPARE(r->updated, 1);
    QCOMPARE(r->unchanged, 1);
    QCOMPARE(*s->intervalCount(), qint64(40));
    const qint64 t0 = t("2026-05-04T00:00:00Z");
    auto rows = s->intervals(t0, t0 + 86400, t0 + 86400);
    QVERIFY(rows);
    int fives = 0;
    for (const UsageInterval &iv : *rows)
        if (iv.podUid == QLatin1String("uid-5")) {
            ++fives;
            QCOMPARE(iv.end.value_or(0), t("2026-05-04T15:00:00Z"));
        }
    QCOMPARE(fives, 1);
    auto check = s->rebuildRollups();
    QVERIFY2(check, check ? "" : qPrintable(check.error().message));
    QVERIFY(!check->changedAnything());
}

QTEST_GUILESS_MAIN(TestUsageStoreIntervals)
#include "tst_usagestore_intervals.moc"
