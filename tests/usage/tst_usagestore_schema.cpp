#include "core/usage/auditlog.h"
#include "tests/usage/usagestoresuite.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <atomic>
#include <thread>

using namespace gq;

// The database itself: schema versions and migrations, opening and its errors,
// read-only use, locks and worker threads, CSV import and export, the audit chain.
// Runs twice, on SQLite and on PostgreSQL (usage/usagebackend.h); the fixture is
// usage/usagestoresuite.h.
class TestUsageStoreSchema : public test::UsageStoreSuite {
    Q_OBJECT
public:
    TestUsageStoreSchema()
        : UsageStoreSuite("gq_usschema") {}

private slots:
    void migratesAndReportsVersion();
    void migratesV3ToV4NodeAndModel();
    void migratesV5ToV6ModelWeight();
    void migratesV6ToV7SeenAndEstimated();
    void refusesNewerSchema();
    void refusesForeignDatabase();
    void urlErrors();
    void unreachable();
    void csvImportExport();
    void csvBadRowRollsBack();
    void auditChain();
    void auditTamperDetected();
    void worksOnWorkerThreads();
    void upgradesFromV1();
    void lockedDatabase();      // SQLite
    void lockedTableTimesOut(); // PostgreSQL
    void readOnlyNeitherCreatesNorMigrates();

private:
    static void undoMigrationsAfter(UsageStore &s, int version);
};

// Takes `s` back to schema `version` (at least 1) by undoing the later migrations
// that the tests rely on: v4's node, gpu_model and idle_spans, v5's alert ledger, v6's
// model weights, v7's seen_s and end_estimated, v8's boost requests; their schema_version
// rows go too.
void TestUsageStoreSchema::undoMigrationsAfter(UsageStore &s, int version) {
    if (version < 7) {
        if (s.isPostgres())
            for (const char *sql :
                 {"DROP TRIGGER usage_intervals_notify ON usage_intervals",
                  "CREATE TRIGGER usage_intervals_notify AFTER INSERT OR UPDATE OR DELETE OR "
                  "TRUNCATE ON usage_intervals FOR EACH STATEMENT EXECUTE FUNCTION "
                  "gpuquota_notify_usage()"})
                rawExec(s, QString::fromLatin1(sql));
        rawExec(s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN seen_s"));
        rawExec(s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN end_estimated"));
    }
    if (version < 4) {
        rawExec(s, QStringLiteral("DROP TABLE idle_spans"));
        rawExec(s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN node"));
        rawExec(s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN gpu_model"));
    }
    if (version < 5) {
        rawExec(s, QStringLiteral("DROP TABLE alert_deliveries"));
        rawExec(s, QStringLiteral("DROP TABLE alerts"));
    }
    if (version < 6) {
        rawExec(s, QStringLiteral("DROP INDEX usage_intervals_model_user"));
        rawExec(s, QStringLiteral("DROP INDEX usage_intervals_model_ns"));
        rawExec(s, QStringLiteral("ALTER TABLE usage_intervals DROP COLUMN model_weight"));
    }
    if (version < 9) {
        if (s.isPostgres())
            rawExec(s, QStringLiteral("DROP TRIGGER IF EXISTS store_settings_notify ON store_settings"));
        rawExec(s, QStringLiteral("DROP TABLE newcomers"));
    }
    if (version < 8)
        rawExec(s, QStringLiteral("DROP TABLE boost_requests"));
    rawExec(s, QStringLiteral("DELETE FROM schema_version WHERE version > %1").arg(version));
}

void TestUsageStoreSchema::migratesAndReportsVersion() {
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
void TestUsageStoreSchema::migratesV3ToV4NodeAndModel() {
    {
        auto s = openStore();
        QVERIFY(s);
        QVERIFY(s->upsertInterval(mk("a", "u", "1", 1, 0, 3600)));
        undoMigrationsAfter(*s, 3);
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

// A v6 database gains the heartbeat and the estimated-end flag: old rows read neither.
void TestUsageStoreSchema::migratesV6ToV7SeenAndEstimated() {
    {
        auto s = openStore();
        QVERIFY(s);
        QVERIFY(s->upsertInterval(mk("a", "u", "1", 1, 0, std::nullopt)));
        undoMigrationsAfter(*s, 6);
        QCOMPARE(*s->schemaVersion(), 6);
    }
    auto s = openStore();
    QVERIFY(s);
    QCOMPARE(*s->schemaVersion(), kUsageSchemaVersion);
    auto rows = s->runningNow(100);
    QVERIFY(rows);
    QCOMPARE(rows->size(), size_t(1));
    QVERIFY(!rows->at(0).seen);
    QVERIFY(!rows->at(0).endEstimated);
    const UsageInterval &iv = rows->at(0);
    QCOMPARE(*s->markIntervalsSeen(iv.cluster, iv.source, 50), qint64(1));
    QVERIFY(*s->closeInterval(iv.cluster, iv.podUid, iv.resource, iv.start, 50, true));
    auto all = s->intervals(0, 100, 100);
    QVERIFY(all && all->size() == 1 && all->at(0).endEstimated && all->at(0).seen == 50);
}

void TestUsageStoreSchema::migratesV5ToV6ModelWeight() {
    {
        auto s = openStore();
        QVERIFY(s);
        QVERIFY(s->upsertInterval(mk("a", "u", "1", 1, 0, 3600)));
        undoMigrationsAfter(*s, 5);
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

void TestUsageStoreSchema::upgradesFromV1() {
    {
        auto s = openStore();
        QVERIFY(s);
        QVERIFY(s->upsertInterval(mk("a", "u", "1", 1, 0, 3600)));
        // Back to what a v1 build left behind.
        if (test::usePostgres()) {
            for (const char *table :
                 {"usage_intervals", "budgets", "boosts", "rollup_ns_hour", "rollup_user_hour",
                  "rollup_ns_day", "rollup_user_day", "boost_requests", "newcomers", "store_settings"})
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
        // v4's additions (node, gpu_model, idle_spans), v5's alert ledger and v6's model
        // weights did not exist in v1 either.
        undoMigrationsAfter(*s, 1);
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
        QCOMPARE(q.value(0).toInt(), 10); // the seven tables of v2, v8's boost_requests, v9's two
    }
}

void TestUsageStoreSchema::refusesNewerSchema() {
    QVERIFY(tamperWith(QStringLiteral("INSERT INTO schema_version (version, applied_at) VALUES (99, 0)")));
    auto r = UsageStore::open(m_url);
    QVERIFY(!r);
    QCOMPARE(r.error().kind, Error::Kind::Schema);
    QVERIFY2(r.error().message.contains(QStringLiteral("schema version 99")), qPrintable(r.error().message));
    QVERIFY(r.error().message.contains(QStringLiteral("upgrade gpuquota")));
}

void TestUsageStoreSchema::refusesForeignDatabase() {
    QVERIFY(tamperWith(QStringLiteral("DROP TABLE schema_version")));
    auto r = UsageStore::open(m_url);
    QVERIFY(!r);
    QCOMPARE(r.error().kind, Error::Kind::Schema);
    QVERIFY(r.error().message.contains(QStringLiteral("not a gpuquota database")));
}

void TestUsageStoreSchema::urlErrors() {
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

void TestUsageStoreSchema::unreachable() {
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

// Reading only: nothing is created, an older schema is named, a current one is read.
void TestUsageStoreSchema::readOnlyNeitherCreatesNorMigrates() {
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

void TestUsageStoreSchema::lockedDatabase() {
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
void TestUsageStoreSchema::lockedTableTimesOut() {
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

void TestUsageStoreSchema::worksOnWorkerThreads() {
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

void TestUsageStoreSchema::csvImportExport() {
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

void TestUsageStoreSchema::csvBadRowRollsBack() {
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

void TestUsageStoreSchema::auditChain() {
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

void TestUsageStoreSchema::auditTamperDetected() {
    auto s = openStore();
    QVERIFY(s);
    AuditLog log(*s);
    for (int i = 0; i < 4; ++i)
        QVERIFY(
            log.append(QStringLiteral("a"), QStringLiteral("act"), QStringLiteral("t%1").arg(i), {}, {}, {}));
    // Someone with raw database access disables the guard and edits row 2.
    QVERIFY(test::unguardAuditLog(s->database()));
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

QTEST_GUILESS_MAIN(TestUsageStoreSchema)
#include "tst_usagestore_schema.moc"
