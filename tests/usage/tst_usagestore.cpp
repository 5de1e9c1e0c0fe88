#include "auditlog.h"
#include "usage/usagebackend.h"
#include "usagestore.h"
#include "usagetestdata.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <limits>
#include <map>
#include <thread>

using namespace gq;

// One suite, two backends: run twice, GQ_TEST_BACKEND=sqlite (SQLite file in a
// temporary directory) and GQ_TEST_BACKEND=postgres (PostgreSQL from GQ_TEST_PG_URL, one fresh schema per
// test function, dropped afterwards); see usage/usagebackend.h.
class TestUsageStore : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();

    void migratesAndReportsVersion();
    void migratesV3ToV4NodeAndModel();
    void migratesV5ToV6ModelWeight();
    void refusesNewerSchema();
    void refusesForeignDatabase();
    void urlErrors();
    void unreachable();
    void upsertIsIdempotentAndMovesRollups();
    void rejectsBadIntervals();
    void seriesMatchesBruteForce_data();
    void seriesMatchesBruteForce();
    void topUsersAndRunning();
    void rollupRebuildRepairs();
    void bulkLoadAcrossChunks();
    void hugeLoadWritesRollupsInParts();
    void budgetsCrud();
    void admissionCheck();
    void gpuModelWeightsCountForBudgets_data();
    void gpuModelWeightsCountForBudgets();
    void csvImportExport();
    void csvBadRowRollsBack();
    void auditChain();
    void auditTamperDetected();
    void worksOnWorkerThreads();
    void upgradesFromV1();
    void cachedCheckSeesOtherConnections();
    void cachedCheckSeesOwnWritesAtOnce();
    void cachedCheckRollsOver();
    void cachedCheckMatchesUncachedAndNaive();
    void lockedDatabase();      // SQLite
    void lockedTableTimesOut(); // PostgreSQL
    void readOnlyNeitherCreatesNorMigrates();

private:
    std::unique_ptr<UsageStore> openStore(bool cacheChecks = false);
    void rawExec(UsageStore &store, const QString &sql);
    bool tamperWith(const QString &sql);

    test::UsageTestBackend m_backend{"gq_t"};
    QString m_url;
};

static qint64 t(const char *s) {
    return *parseInstant(QString::fromLatin1(s));
}

static UsageInterval mk(const QString &ns, const QString &user, const QString &uid, int gpus, qint64 start,
                        std::optional<qint64> end,
                        const QString &resource = QStringLiteral("nvidia.com/gpu")) {
    // The shared test interval, on this suite's cluster and with the uid as given.
    UsageInterval u = gq::test::interval(ns, user, QStringLiteral("pod-") + uid, gpus, start, end);
    u.cluster = QStringLiteral("prod");
    u.podUid = uid;
    u.resource = resource;
    return u;
}

void TestUsageStore::initTestCase() {
    GQ_PREPARE_USAGE_BACKEND(m_backend);
}

void TestUsageStore::init() {
    m_url = m_backend.freshUrl();
}

void TestUsageStore::cleanup() {
    const QString err = m_backend.dropSchemas();
    QVERIFY2(err.isEmpty(), qPrintable(err));
}

std::unique_ptr<UsageStore> TestUsageStore::openStore(bool cacheChecks) {
    UsageStore::Options options;
    options.cacheChecks = cacheChecks;
    auto s = UsageStore::open(m_url, options);
    if (!s) {
        qWarning("open failed: %s", qPrintable(s.error().message));
        return {};
    }
    return std::move(*s);
}

void TestUsageStore::rawExec(UsageStore &store, const QString &sql) {
    QSqlQuery q(store.database());
    if (!q.exec(sql))
        qWarning("%s: %s", qPrintable(sql), qPrintable(q.lastError().text()));
}

// Opens a fresh store and runs `sql` on it behind its back; false if it did not open.
bool TestUsageStore::tamperWith(const QString &sql) {
    auto s = openStore();
    if (!s)
        return false;
    rawExec(*s, sql);
    return true;
}

void TestUsageStore::migratesAndReportsVersion() {
    {
        auto s = openStore();
        QVERIFY(s);
        QCOMPARE(*s->schemaVersion(), UsageStore::kSchemaVersion);
        QCOMPARE(*s->intervalCount(), qint64(0));
        QVERIFY(s->upsertInterval(mk("a", "u", "1", 1, 0, 3600)));
    }
    auto again = openStore(); // re-open: no second migration, data kept
    QVERIFY(again);
    QCOMPARE(*again->schemaVersion(), UsageStore::kSchemaVersion);
    QCOMPARE(*again->intervalCount(), qint64(1));
    QSqlQuery q(again->database());
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM schema_version")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), UsageStore::kSchemaVersion); // one row per migration, once
}

// A v3 database (no node / gpu_model columns, no idle_spans) gains them on open; old
// rows read '' and a new upsert stores where it ran.
void TestUsageStore::migratesV3ToV4NodeAndModel() {
    {
        auto s = openStore();
        QVERIFY(s);
        QVERIFY(s->upsertInterval(mk("a", "u", "1", 1, 0, 3600)));
        rawExec(*s, QStringLiteral("DROP TABLE idle_spans"));
        rawExec(*s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN node"));
        rawExec(*s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN gpu_model"));
        // v5 (the alert ledger) came after: back to a real v3 database.
        rawExec(*s, QStringLiteral("DROP TABLE alert_deliveries"));
        rawExec(*s, QStringLiteral("DROP TABLE alerts"));
        // v6 (GPU model weights) neither.
        rawExec(*s, QStringLiteral("DROP INDEX usage_intervals_model_user"));
        rawExec(*s, QStringLiteral("DROP INDEX usage_intervals_model_ns"));
        rawExec(*s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN model_weight"));
        rawExec(*s, QStringLiteral("DELETE FROM schema_version WHERE version >= 4"));
    }
    auto s = openStore();
    QVERIFY(s);
    QCOMPARE(*s->schemaVersion(), kUsageSchemaVersion);
    UsageInterval iv = mk("a", "u", "2", 2, 0, 7200);
    iv.node = QStringLiteral("gpu-node-1");
    iv.gpuModel = QStringLiteral("NVIDIA H100 80GB HBM3");
    QVERIFY(s->upsertInterval(iv));
    QCOMPARE(*s->upsertInterval(iv), UsageStore::UpsertOutcome::Unchanged);
    iv.gpuModel = QStringLiteral("Tesla T4"); // a changed model replaces the row
    QCOMPARE(*s->upsertInterval(iv), UsageStore::UpsertOutcome::Updated);
    QSqlQuery q(s->database());
    QVERIFY(q.exec(QStringLiteral("SELECT pod_uid, node, gpu_model FROM usage_intervals ORDER BY pod_uid")));
    QVERIFY(q.next());
    QCOMPARE(q.value(1).toString(), QString());
    QVERIFY(q.next());
    QCOMPARE(q.value(1).toString(), QStringLiteral("gpu-node-1"));
    QCOMPARE(q.value(2).toString(), QStringLiteral("Tesla T4"));
    QVERIFY(q.exec(QStringLiteral("INSERT INTO idle_spans (ns, pod_name, node, gpu_uuid, start_s, end_s, "
                                  "wasted_gpu_seconds) VALUES ('a', 'p', 'n', 'GPU-1', 0, 60, 60)")));
}

void TestUsageStore::migratesV5ToV6ModelWeight() {
    {
        auto s = openStore();
        QVERIFY(s);
        QVERIFY(s->upsertInterval(mk("a", "u", "1", 1, 0, 3600)));
        rawExec(*s, QStringLiteral("DROP INDEX usage_intervals_model_user"));
        rawExec(*s, QStringLiteral("DROP INDEX usage_intervals_model_ns"));
        rawExec(*s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN model_weight"));
        rawExec(*s, QStringLiteral("DELETE FROM schema_version WHERE version >= 6"));
        QCOMPARE(*s->schemaVersion(), 5);
    }
    UsageStore::Options o;
    o.weights.setModel(QStringLiteral("NVIDIA H100 80GB HBM3"), 2);
    auto s = UsageStore::open(m_url, o);
    QVERIFY2(s, qPrintable(s ? QString() : s.error().toString()));
    QCOMPARE(*(*s)->schemaVersion(), kUsageSchemaVersion);
    UsageInterval iv = mk("a", "u", "2", 1, 0, 3600);
    iv.gpuModel = QStringLiteral("NVIDIA H100 80GB HBM3");
    QVERIFY((*s)->upsertInterval(iv));
    QSqlQuery q((*s)->database());
    QVERIFY(
        q.exec(QStringLiteral("SELECT pod_uid, weight, model_weight FROM usage_intervals ORDER BY pod_uid")));
    QVERIFY(q.next());
    QCOMPARE(q.value(2).toDouble(), 1.0); // a row from before v6 counts 1
    QVERIFY(q.next());
    QCOMPARE(q.value(1).toDouble(), 1.0); // the resource weight stays raw
    QCOMPARE(q.value(2).toDouble(), 2.0);
}

void TestUsageStore::refusesNewerSchema() {
    QVERIFY(tamperWith(QStringLiteral("INSERT INTO schema_version (version, applied_at) VALUES (99, 0)")));
    auto r = UsageStore::open(m_url);
    QVERIFY(!r);
    QCOMPARE(r.error().kind, Error::Kind::Schema);
    QVERIFY2(r.error().message.contains(QStringLiteral("schema version 99")), qPrintable(r.error().message));
    QVERIFY(r.error().message.contains(QStringLiteral("upgrade gpuquota")));
}

void TestUsageStore::refusesForeignDatabase() {
    QVERIFY(tamperWith(QStringLiteral("DROP TABLE schema_version")));
    auto r = UsageStore::open(m_url);
    QVERIFY(!r);
    QCOMPARE(r.error().kind, Error::Kind::Schema);
    QVERIFY(r.error().message.contains(QStringLiteral("not a gpuquota database")));
}

void TestUsageStore::urlErrors() {
    auto pw = UsageStore::open(QStringLiteral("postgresql://gq:secret@127.0.0.1:5432/db"));
    QVERIFY(!pw);
    QCOMPARE(pw.error().kind, Error::Kind::Usage);
    QVERIFY(pw.error().message.contains(QStringLiteral("PGPASSWORD")));
    QVERIFY(!pw.error().message.contains(QStringLiteral("secret")));
    auto scheme = UsageStore::open(QStringLiteral("mysql://root:hunter2@db/x"));
    QVERIFY(!scheme);
    QVERIFY(!scheme.error().message.contains(QStringLiteral("hunter2")));
    QVERIFY(!UsageStore::open(QStringLiteral("postgresql://gq@127.0.0.1:5432/db?schema=x;drop")));
    auto u = DbUrl::parse(QStringLiteral("postgresql://gq@db.example:6543/usage?schema=s1&sslmode=require"));
    QVERIFY(u);
    QCOMPARE(u->host, QStringLiteral("db.example"));
    QCOMPARE(u->port, 6543);
    QCOMPARE(u->user, QStringLiteral("gq"));
    QCOMPARE(u->database, QStringLiteral("usage"));
    QCOMPARE(u->schema, QStringLiteral("s1"));
    QCOMPARE(u->display(), QStringLiteral("postgresql://gq@db.example:6543/usage?schema=s1"));
    QCOMPARE(DbUrl::parse(QStringLiteral("sqlite:///var/lib/x.db"))->path, QStringLiteral("/var/lib/x.db"));
}

void TestUsageStore::unreachable() {
    if (test::usePostgres()) {
        // A port nobody listens on (port 1 needs root to bind; nothing does here).
        auto r = UsageStore::open(QStringLiteral("postgresql://gq@127.0.0.1:1/gq_test?connect_timeout=2"));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::Database);
        QCOMPARE(r.error().reason, QStringLiteral("Unreachable"));
        QVERIFY2(r.error().message.contains(QStringLiteral("cannot connect to PostgreSQL at 127.0.0.1:1")),
                 qPrintable(r.error().message));
    } else {
        auto r = UsageStore::open(QStringLiteral("sqlite:///nonexistent-dir-gq/sub/usage.db"));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::Database);
        QVERIFY(r.error().message.contains(QStringLiteral("/nonexistent-dir-gq/sub/usage.db")));
    }
}

void TestUsageStore::upsertIsIdempotentAndMovesRollups() {
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

void TestUsageStore::rejectsBadIntervals() {
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

void TestUsageStore::seriesMatchesBruteForce_data() {
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
void TestUsageStore::seriesMatchesBruteForce() {
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
void TestUsageStore::rollupRebuildRepairs() {
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
void TestUsageStore::bulkLoadAcrossChunks() {
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
    // The store is usable afterwards.
    QCOMPARE(*s->upsertInterval(mk("n", "u", "new-2", 1, t0, t0 + 60)), UsageStore::UpsertOutcome::Inserted);
}

// A huge load into empty rollup tables (PostgreSQL COPYs the cells into them without
// their primary key) that writes its rollups in several parts, some cells in more
// than one: the same rollups as a rebuild, every key back; then a second huge load
// onto the filled tables (upserts) adds to them correctly.
void TestUsageStore::hugeLoadWritesRollupsInParts() {
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
        auto check = s->rebuildRollups();
        QVERIFY2(check, check ? "" : qPrintable(check.error().message));
        for (const auto &tr : check->tables)
            QVERIFY2(!tr.added && !tr.changed && !tr.removed,
                     qPrintable(QStringLiteral("round %1, %2: %3 added, %4 changed, %5 removed")
                                    .arg(round)
                                    .arg(tr.table)
                                    .arg(tr.added)
                                    .arg(tr.changed)
                                    .arg(tr.removed)));
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

void TestUsageStore::topUsersAndRunning() {
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

void TestUsageStore::budgetsCrud() {
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

void TestUsageStore::admissionCheck() {
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

void TestUsageStore::gpuModelWeightsCountForBudgets_data() {
    QTest::addColumn<bool>("cacheChecks");
    QTest::newRow("uncached") << false;
    QTest::newRow("kept inputs") << true;
}

// An H100 (weight 2) held for 1 h counts 2 weighted GPU-h against a budget and 1 raw;
// a model without a weight counts 1. Budgets (status, admission check) are weighted,
// usage and rollups stay raw; the factor is the one stored with each row.
void TestUsageStore::gpuModelWeightsCountForBudgets() {
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

void TestUsageStore::csvImportExport() {
    auto s = openStore();
    QVERIFY(s);
    QFile f(QStringLiteral(GQ_TEST_FIXTURES "/usage/intervals.csv"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    auto r = s->importCsv(f);
    QVERIFY2(r, r ? "" : qPrintable(r.error().toString()));
    QCOMPARE(r->rows, 4);
    QCOMPARE(r->inserted, 4);
    f.seek(0);
    auto again = s->importCsv(f);
    QCOMPARE(again->unchanged, 4);
    QCOMPARE(again->inserted, 0);
    QCOMPARE(*s->intervalCount(), qint64(4));

    QBuffer out;
    out.open(QIODevice::WriteOnly);
    QCOMPARE(*s->exportCsv(out), qint64(4));
    const QString text = QString::fromUtf8(out.data());
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5);
    QCOMPARE(lines[0], QStringLiteral("cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end"));
    QCOMPARE(lines[1], QStringLiteral("prod,team-a,bob,uid-b1,notebook-b1,nvidia.com/mig-1g.10gb,7,"
                                      "2026-03-28T22:00:00Z,2026-03-29T01:00:00Z"));
    QCOMPARE(lines[3], QStringLiteral("prod,team-a,alice,uid-a2,\"train, quoted\",nvidia.com/gpu,1,"
                                      "2026-03-29T01:00:00Z,2026-03-29T03:00:00Z"));
    QCOMPARE(lines[4],
             QStringLiteral("prod,team-b,team-b,uid-c1,batch-c1,nvidia.com/gpu,4,2026-03-29T10:00:00Z,"));

    // Round trip: the export imports into a fresh database unchanged.
    m_url = m_backend.freshUrl();
    auto s2 = openStore();
    QVERIFY(s2);
    QBuffer in(&out.buffer());
    in.open(QIODevice::ReadOnly);
    QCOMPARE(s2->importCsv(in)->inserted, 4);
    // Time-filtered export: only what overlaps [01:30, 02:00).
    QBuffer part;
    part.open(QIODevice::WriteOnly);
    QCOMPARE(*s2->exportCsv(part, t("2026-03-29T01:30:00Z"), t("2026-03-29T02:00:00Z")), qint64(2));

    // Mixed: alice 2x2h + 1x2h, bob 7 slices of 1/7 for 3 h: 3 GPU-h (2 of them on 29th).
    auto used = s2->usedGpuHours(BudgetScope::User, QStringLiteral("bob"),
                                 TimeRange{t("2026-03-29T00:00:00Z"), t("2026-03-30T00:00:00Z")},
                                 t("2026-03-30T00:00:00Z"));
    QVERIFY(qAbs(*used - 1.0) < 1e-9);
}

void TestUsageStore::csvBadRowRollsBack() {
    auto s = openStore();
    QVERIFY(s);
    QFile f(QStringLiteral(GQ_TEST_FIXTURES "/usage/bad_row.csv"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    auto r = s->importCsv(f);
    QVERIFY(!r);
    QCOMPARE(r.error().line, 4);
    QCOMPARE(r.error().field, QStringLiteral("end"));
    QVERIFY(r.error().message.contains(QStringLiteral("reversed")));
    QCOMPARE(*s->intervalCount(), qint64(0));
    QCOMPARE(s->topUsers(0, t("2030-01-01T00:00:00Z"), 10, 0)->size(), size_t(0)); // rollups rolled back too

    QBuffer header;
    header.setData("cluster,ns,user\nx,y,z\n");
    header.open(QIODevice::ReadOnly);
    auto h = s->importCsv(header);
    QVERIFY(!h);
    QCOMPARE(h.error().line, 1);
    QBuffer fields;
    fields.setData("cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n\nx,y\n");
    fields.open(QIODevice::ReadOnly);
    auto fe = s->importCsv(fields);
    QVERIFY(!fe);
    QCOMPARE(fe.error().line, 3);
    QVERIFY(fe.error().message.contains(QStringLiteral("expected 9 fields, got 2")));
    QBuffer when;
    when.setData("cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n"
                 "c,n,u,p,q,nvidia.com/gpu,1,2026-03-29 00:00,\n");
    when.open(QIODevice::ReadOnly);
    auto we = s->importCsv(when);
    QVERIFY(!we);
    QCOMPARE(we.error().line, 2);
    QCOMPARE(we.error().field, QStringLiteral("start"));
}

void TestUsageStore::auditChain() {
    auto s = openStore();
    QVERIFY(s);
    ManualClock clock(t("2026-03-29T10:00:00Z"));
    AuditLog log(*s, clock);
    auto e1 = log.append(QStringLiteral("alice"), QStringLiteral("quota.apply"), QStringLiteral("team-a/gpu"),
                         QStringLiteral("4"), QStringLiteral("8"), QStringLiteral("deadline"));
    QVERIFY(e1);
    QCOMPARE(e1->seq, qint64(1));
    QCOMPARE(e1->prevHash, QString(64, QLatin1Char('0')));
    QCOMPARE(e1->at, clock.nowSecs());
    clock.advance(60);
    auto e2 =
        log.append(QStringLiteral("bob"), QStringLiteral("boost.grant"), QStringLiteral("budget/user/carol"),
                   {}, QStringLiteral("+10"), QStringLiteral("ünïcode ✓"));
    QVERIFY(e2);
    QCOMPARE(e2->prevHash, e1->hash);
    QCOMPARE(e2->hash, e2->computeHash());
    QVERIFY(log.append(QStringLiteral("alice"), QStringLiteral("quota.apply"), QStringLiteral("team-a/gpu"),
                       QStringLiteral("8"), QStringLiteral("4"), QStringLiteral("revert")));
    auto ok = log.verifyChain();
    QVERIFY(ok);
    QVERIFY(ok->ok);
    QCOMPARE(ok->checked, qint64(3));
    auto filtered = log.list(AuditLog::Filter{QStringLiteral("team-a/gpu"), {}, 0, 0, 10});
    QCOMPARE(filtered->size(), 2);
    QCOMPARE(filtered->at(0).seq, qint64(3)); // newest first
    QCOMPARE(log.list()->at(1).note, QStringLiteral("ünïcode ✓"));

    // Append-only: the database itself refuses.
    QSqlQuery q(s->database());
    QVERIFY(!q.exec(QStringLiteral("UPDATE audit_log SET note = 'x' WHERE seq = 1")));
    QVERIFY2(q.lastError().text().contains(QStringLiteral("append-only")), qPrintable(q.lastError().text()));
    QVERIFY(!q.exec(QStringLiteral("DELETE FROM audit_log WHERE seq = 2")));
    QCOMPARE(log.list()->size(), 3);
    auto bad = log.append({}, QStringLiteral("x"), {}, {}, {}, {});
    QVERIFY(!bad);
    QCOMPARE(bad.error().field, QStringLiteral("actor"));
}

void TestUsageStore::auditTamperDetected() {
    auto s = openStore();
    QVERIFY(s);
    AuditLog log(*s);
    for (int i = 0; i < 4; ++i)
        QVERIFY(
            log.append(QStringLiteral("a"), QStringLiteral("act"), QStringLiteral("t%1").arg(i), {}, {}, {}));
    // Someone with raw database access disables the guard and edits row 2.
    if (test::usePostgres()) {
        rawExec(*s, QStringLiteral("ALTER TABLE audit_log DISABLE TRIGGER USER"));
    } else {
        rawExec(*s, QStringLiteral("DROP TRIGGER audit_log_no_update"));
        rawExec(*s, QStringLiteral("DROP TRIGGER audit_log_no_delete"));
    }
    rawExec(*s, QStringLiteral("UPDATE audit_log SET after_text = '999' WHERE seq = 2"));
    auto r = log.verifyChain();
    QVERIFY(r);
    QVERIFY(!r->ok);
    QCOMPARE(r->firstBadSeq, qint64(2));
    QVERIFY(r->problem.contains(QStringLiteral("content changed")));
    // Deleting a row in the middle is caught too.
    rawExec(*s, QStringLiteral("UPDATE audit_log SET after_text = '' WHERE seq = 2"));
    QVERIFY(log.verifyChain()->ok);
    rawExec(*s, QStringLiteral("DELETE FROM audit_log WHERE seq = 3"));
    auto gap = log.verifyChain();
    QVERIFY(!gap->ok);
    QCOMPARE(gap->firstBadSeq, qint64(4));
}

void TestUsageStore::worksOnWorkerThreads() {
    { QVERIFY(openStore()); } // migrate once up front
    const QString url = m_url;
    std::atomic<int> failures{0};
    auto worker = [&](int k) {
        auto s = UsageStore::open(url); // its own connection, on this thread
        if (!s) {
            ++failures;
            return;
        }
        for (int i = 0; i < 20; ++i)
            if (!(*s)->upsertInterval(mk("ns", QStringLiteral("w%1").arg(k),
                                         QStringLiteral("%1-%2").arg(k).arg(i), 1, i * 3600,
                                         i * 3600 + 1800)))
                ++failures;
        AuditLog log(**s);
        for (int i = 0; i < 10; ++i)
            if (!log.append(QStringLiteral("w%1").arg(k), QStringLiteral("x"), {}, {}, {}, {}))
                ++failures;
    };
    std::thread a(worker, 1), b(worker, 2);
    a.join();
    b.join();
    QCOMPARE(failures.load(), 0);
    auto s = openStore();
    QCOMPARE(*s->intervalCount(), qint64(40));
    auto chain = AuditLog(*s).verifyChain();
    QVERIFY(chain->ok); // concurrent appenders did not fork the chain
    QCOMPARE(chain->checked, qint64(20));
    QCOMPARE(*s->usedGpuHours(BudgetScope::User, QStringLiteral("w1"), TimeRange{0, 86400}, 86400), 10.0);
}

void TestUsageStore::lockedDatabase() {
    if (test::usePostgres())
        QSKIP("SQLite's busy timeout; PostgreSQL's lock_timeout is lockedTableTimesOut");
    { QVERIFY(openStore()); }
    UsageStore::Options quick;
    quick.busyTimeoutMs = 200;
    auto holder = UsageStore::open(m_url);
    auto victim = UsageStore::open(m_url, quick);
    QVERIFY(holder && victim);
    QSqlQuery q((*holder)->database());
    QVERIFY(q.exec(QStringLiteral("BEGIN IMMEDIATE")));
    auto r = (*victim)->upsertInterval(mk("a", "u", "1", 1, 0, 10));
    QVERIFY(!r);
    QCOMPARE(r.error().kind, Error::Kind::Database);
    QCOMPARE(r.error().reason, QStringLiteral("Locked"));
    QVERIFY2(r.error().message.contains(QStringLiteral("locked by another writer")),
             qPrintable(r.error().message));
    QVERIFY(q.exec(QStringLiteral("ROLLBACK")));
    QVERIFY((*victim)->upsertInterval(mk("a", "u", "1", 1, 0, 10)));
}

// Another session holding ACCESS EXCLUSIVE locks: import, check, export and open give
// up after lock_timeout (or statement_timeout) with an error naming the lock.
void TestUsageStore::lockedTableTimesOut() {
    if (!test::usePostgres())
        QSKIP("PostgreSQL's lock_timeout; SQLite's busy timeout is lockedDatabase");
    auto holder = UsageStore::open(m_url);
    QVERIFY2(holder, qPrintable(holder ? QString() : holder.error().toString()));
    const QString quickUrl = m_url + QStringLiteral("&lock_timeout=1s");
    auto victim = UsageStore::open(quickUrl);
    QVERIFY2(victim, qPrintable(victim ? QString() : victim.error().toString()));
    Budget b;
    b.subject = QStringLiteral("alice");
    b.limitGpuHours = 8;
    QVERIFY((*victim)->setBudget(b));
    auto stubborn = UsageStore::open(m_url + QStringLiteral("&lock_timeout=0&statement_timeout=1s"));
    QVERIFY(stubborn);

    QSqlQuery q((*holder)->database());
    QVERIFY(q.exec(QStringLiteral("BEGIN")));
    QVERIFY2(
        q.exec(QStringLiteral("LOCK TABLE usage_intervals, rollup_ns_hour, rollup_user_hour, rollup_ns_day, "
                              "rollup_user_day, budgets, boosts, store_settings, schema_version IN ACCESS "
                              "EXCLUSIVE MODE")),
        qPrintable(q.lastError().text()));

    QElapsedTimer timer;
    auto expectLocked = [&](const Error &e, const char *timeout) -> QString {
        const qint64 ms = timer.elapsed();
        if (ms < 900 || ms > 4000)
            return QStringLiteral("gave up after %1 ms, expected about 1000").arg(ms);
        if (!e.message.contains(QStringLiteral("locked by another session")) ||
            !e.message.contains(QLatin1String(timeout)))
            return QStringLiteral("message does not name the lock and %1: %2")
                .arg(QLatin1String(timeout), e.message);
        return {};
    };
    const QByteArray csv = "cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n"
                           "prod,ml,alice,u1,nb,nvidia.com/gpu,1,2026-05-04T08:00:00Z,2026-05-04T11:30:00Z\n";
    QBuffer in;
    in.setData(csv);
    QVERIFY(in.open(QIODevice::ReadOnly));
    timer.start();
    auto imported = (*victim)->importCsv(in);
    QVERIFY(!imported);
    QString why = expectLocked(imported.error(), "lock_timeout 1s");
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QCOMPARE(imported.error().reason, QStringLiteral("Locked"));

    const AdmissionRequest job{AdmissionRequest::Kind::NewJob, 1, 1};
    const qint64 now = 1777881600; // 2026-05-04
    timer.start();
    auto checked = (*victim)->check(QStringLiteral("alice"), {}, job, now);
    QVERIFY(!checked);
    why = expectLocked(checked.error(), "lock_timeout 1s");
    QVERIFY2(why.isEmpty(), qPrintable(why));

    QBuffer out;
    QVERIFY(out.open(QIODevice::WriteOnly));
    timer.start();
    auto exported = (*victim)->exportCsv(out);
    QVERIFY(!exported);
    why = expectLocked(exported.error(), "lock_timeout 1s");
    QVERIFY2(why.isEmpty(), qPrintable(why));

    timer.start();
    auto opened = UsageStore::open(quickUrl);
    QVERIFY(!opened);
    why = expectLocked(opened.error(), "lock_timeout 1s");
    QVERIFY2(why.isEmpty(), qPrintable(why));

    // Without a lock timeout the statement timeout ends the wait.
    timer.start();
    auto slow = (*stubborn)->check(QStringLiteral("alice"), {}, job, now);
    QVERIFY(!slow);
    why = expectLocked(slow.error(), "statement_timeout 1s");
    QVERIFY2(why.isEmpty(), qPrintable(why));

    QVERIFY(q.exec(QStringLiteral("ROLLBACK")));
    QVERIFY((*victim)->check(QStringLiteral("alice"), {}, job, now));
}

// Reading only: nothing is created, an older schema is named, a current one is read.
void TestUsageStore::readOnlyNeitherCreatesNorMigrates() {
    UsageStore::Options ro;
    ro.readOnly = true;
    auto missing = UsageStore::open(m_url, ro);
    QVERIFY(!missing);
    QVERIFY2(missing.error().message.contains(QStringLiteral("does not create")),
             qPrintable(missing.error().message));
    {
        auto w = openStore();
        QVERIFY(w);
        QVERIFY(w->upsertInterval(mk("a", "u", "1", 1, 0, 3600)));
        rawExec(*w, QStringLiteral("DELETE FROM schema_version WHERE version = %1").arg(kUsageSchemaVersion));
        auto old = UsageStore::open(m_url, ro);
        QVERIFY(!old);
        QCOMPARE(old.error().kind, Error::Kind::Schema);
        QVERIFY2(old.error().message.contains(QStringLiteral("older than this gpuquota")),
                 qPrintable(old.error().message));
        rawExec(*w, QStringLiteral("INSERT INTO schema_version (version, applied_at) VALUES (%1, 0)")
                        .arg(kUsageSchemaVersion));
    }
    auto s = UsageStore::open(m_url, ro);
    QVERIFY2(s, qPrintable(s ? QString() : s.error().toString()));
    QCOMPARE(*(*s)->intervalCount(), qint64(1));
    QVERIFY((*s)->check(QStringLiteral("u"), QStringLiteral("a"),
                        AdmissionRequest{AdmissionRequest::Kind::NewJob, 1, 1}, 7200));
    QVERIFY(!(*s)->upsertInterval(mk("a", "u", "2", 1, 0, 3600)));
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

void TestUsageStore::upgradesFromV1() {
    {
        auto s = openStore();
        QVERIFY(s);
        QVERIFY(s->upsertInterval(mk("a", "u", "1", 1, 0, 3600)));
        // Back to what a v1 build left behind.
        if (test::usePostgres()) {
            for (const char *table : {"usage_intervals", "budgets", "boosts", "rollup_ns_hour",
                                      "rollup_user_hour", "rollup_ns_day", "rollup_user_day"})
                rawExec(*s, QStringLiteral("DROP TRIGGER %1_notify ON %1").arg(QLatin1String(table)));
            rawExec(*s, QStringLiteral("DROP FUNCTION gpuquota_notify_usage()"));
        }
        // The v1 boosts table, with a boost in each old state that maps to a new one.
        rawExec(*s, QStringLiteral("DROP TABLE boosts"));
        rawExec(*s, QStringLiteral(
                        "CREATE TABLE boosts (id %1, target TEXT NOT NULL, delta TEXT NOT NULL,"
                        " start_s BIGINT NOT NULL, expiry_s BIGINT NOT NULL, note TEXT NOT NULL DEFAULT '',"
                        " actor TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('pending', 'applied',"
                        " 'reverted', 'cancelled')), CHECK (expiry_s > start_s))")
                        .arg(test::usePostgres()
                                 ? QStringLiteral("BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
                                 : QStringLiteral("INTEGER PRIMARY KEY AUTOINCREMENT")));
        for (const char *state : {"pending", "applied", "reverted", "cancelled"})
            rawExec(*s,
                    QStringLiteral("INSERT INTO boosts (target, delta, start_s, expiry_s, note, actor, state)"
                                   " VALUES ('budget/user/alice', '2', 0, 7200, 'old', 'admin', '%1')")
                        .arg(QLatin1String(state)));
        // v4's additions (node, gpu_model, idle_spans) did not exist in v1 either.
        rawExec(*s, QStringLiteral("DROP TABLE idle_spans"));
        rawExec(*s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN node"));
        rawExec(*s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN gpu_model"));
        // v5's alert ledger did not exist either.
        rawExec(*s, QStringLiteral("DROP TABLE alert_deliveries"));
        rawExec(*s, QStringLiteral("DROP TABLE alerts"));
        // v6 (GPU model weights) neither.
        rawExec(*s, QStringLiteral("DROP INDEX usage_intervals_model_user"));
        rawExec(*s, QStringLiteral("DROP INDEX usage_intervals_model_ns"));
        rawExec(*s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN model_weight"));
        rawExec(*s, QStringLiteral("DELETE FROM schema_version WHERE version >= 2"));
        QCOMPARE(*s->schemaVersion(), 1);
    }
    auto s = openStore();
    QVERIFY(s);
    QCOMPARE(*s->schemaVersion(), kUsageSchemaVersion);
    {
        auto boosts = s->boosts();
        QVERIFY(boosts);
        QCOMPARE(boosts->size(), 4);
        QCOMPARE(boosts->at(0).state, Boost::State::Scheduled);
        QCOMPARE(boosts->at(1).state, Boost::State::Active);
        QCOMPARE(boosts->at(2).state, Boost::State::Expired);
        QCOMPARE(boosts->at(3).state, Boost::State::Revoked);
        QCOMPARE(boosts->at(3).note, QStringLiteral("old"));
        // New ids continue after the copied ones.
        auto added = s->addBoost(
            gq::test::budgetBoost(BudgetScope::User, QStringLiteral("bob"), QStringLiteral("1"), 0, 60));
        QVERIFY2(added, added ? "" : qPrintable(added.error().message));
        QCOMPARE(added->id, qint64(5));
    }
    QCOMPARE(*s->intervalCount(), qint64(1));
    if (test::usePostgres()) {
        QSqlQuery q(s->database());
        QVERIFY(
            q.exec(QStringLiteral("SELECT COUNT(*) FROM pg_trigger t JOIN pg_class c ON t.tgrelid = c.oid "
                                  "JOIN pg_namespace n ON c.relnamespace = n.oid WHERE n.nspname = "
                                  "current_schema() AND t.tgname LIKE '%notify'")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 7);
    }
}

void TestUsageStore::cachedCheckSeesOtherConnections() {
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

void TestUsageStore::cachedCheckSeesOwnWritesAtOnce() {
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

void TestUsageStore::cachedCheckRollsOver() {
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

void TestUsageStore::cachedCheckMatchesUncachedAndNaive() {
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

QTEST_GUILESS_MAIN(TestUsageStore)
#include "tst_usagestore.moc"
