#include "dburl.h"
#include "usagebackend.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include "auditlog.h"
#include "usagestore.h"

#include <cerrno>
#include <cstring>
#include <pwd.h>
#include <sys/mount.h>
#include <unistd.h>

// The usage verbs of the real `gpuquota` binary (GQ_BIN_DIR) against a temporary
// SQLite database: what a user types, what they see, and the exit codes. The import
// checks at the end run on the suite's backend (built twice: SQLite and PostgreSQL).
class TestUsageCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void importIsIdempotent();
    void badRowImportsNothing();
    void usageCsvAcrossDst();
    void usageJsonAndTable();
    void checkDesignExample();
    void checkExitCodes();
    void budgetLifecycle();
    void exportRoundTrip();
    void rollupRebuild();
    void hugeRangeAnswersQuickly_data();
    void hugeRangeAnswersQuickly();
    void readsFromReadOnlyFileSystem();
    void changesAreAudited();
    void importRejectsBadRows_data();
    void importRejectsBadRows();
    void importLimitsAreConfigurable();
    void importUpdatesAndRepeats();
    void exportQuotesFormulaCells();
    void badRowNearTheEndIsFoundBeforeWriting();

private:
    struct Run {
        int code = -1;
        QString out;
        QString err;
    };
    Run gq(const QStringList &args, const QByteArray &stdinData = {});
    QString db() const { return QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("cli.db")); }

    QString writeFile(const QString &name, const QByteArray &data) const;
    QString exportOf(const QString &url);

    QTemporaryDir m_dir;
    QString m_bin;
    gq::test::UsageTestBackend m_backend{"gq_cli"};
};

static const QString kFixtures = QStringLiteral(GQ_TEST_FIXTURES "/usage/");

void TestUsageCli::initTestCase() {
    QVERIFY(m_dir.isValid());
    GQ_PREPARE_USAGE_BACKEND(m_backend);
    m_bin = qEnvironmentVariable("GQ_BIN_DIR", QStringLiteral(GQ_BINARY_DIR "/bin")) +
            QStringLiteral("/gpuquota");
    QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
    const Run r = gq({QStringLiteral("import"), QStringLiteral("--db"), db(),
                      kFixtures + QStringLiteral("intervals.csv")});
    QCOMPARE(r.code, 0);
}

void TestUsageCli::cleanupTestCase() {
    const QString err = m_backend.dropSchemas();
    QVERIFY2(err.isEmpty(), qPrintable(err));
}

QString TestUsageCli::writeFile(const QString &name, const QByteArray &data) const {
    QFile f(m_dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size())
        return {};
    return f.fileName();
}

QString TestUsageCli::exportOf(const QString &url) {
    const Run e = gq({QStringLiteral("export"), QStringLiteral("--db"), url});
    return e.code == 0 ? e.out : QStringLiteral("export failed: ") + e.err;
}

TestUsageCli::Run TestUsageCli::gq(const QStringList &args, const QByteArray &stdinData) {
    QProcess p;
    p.start(m_bin, args);
    if (!p.waitForStarted(10000))
        return {};
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000))
        return {};
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
               QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

void TestUsageCli::importIsIdempotent() {
    const Run r = gq({QStringLiteral("import"), QStringLiteral("--db"), db(),
                      kFixtures + QStringLiteral("intervals.csv")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(QStringLiteral("imported 4 rows")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("0 new, 0 updated, 4 unchanged")));
}

void TestUsageCli::badRowImportsNothing() {
    const QString other = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("bad.db"));
    const Run r = gq(
        {QStringLiteral("import"), QStringLiteral("--db"), other, kFixtures + QStringLiteral("bad_row.csv")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(QStringLiteral("bad_row.csv:4: end: reversed interval")), qPrintable(r.err));
    QVERIFY(r.err.contains(QStringLiteral("nothing imported")));
    const Run e = gq({QStringLiteral("export"), QStringLiteral("--db"), other});
    QCOMPARE(e.code, 0);
    QCOMPARE(e.out, QStringLiteral("cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n"));
    const Run missing =
        gq({QStringLiteral("import"), QStringLiteral("--db"), other, QStringLiteral("/nonexistent.csv")});
    QCOMPARE(missing.code, 1);
    QVERIFY(missing.err.contains(QStringLiteral("cannot open /nonexistent.csv")));
}

void TestUsageCli::usageCsvAcrossDst() {
    // 2026-03-29 is 23 hours long in Berlin; bob's MIG job (7 x 1/7 GPU) crosses midnight
    // and team-b's pod (no user in the CSV: charged to its namespace) is still running.
    const Run r = gq({QStringLiteral("usage"), QStringLiteral("--db"), db(), QStringLiteral("--by"),
                      QStringLiteral("user"), QStringLiteral("--period"), QStringLiteral("day"),
                      QStringLiteral("--from"), QStringLiteral("2026-03-28T00:00:00+01:00"),
                      QStringLiteral("--to"), QStringLiteral("2026-03-30T00:00:00+02:00"),
                      QStringLiteral("--tz"), QStringLiteral("Europe/Berlin"), QStringLiteral("--now"),
                      QStringLiteral("2026-03-29T12:00:00Z"), QStringLiteral("-o"), QStringLiteral("csv")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QStringLiteral("bucket_start,subject,gpu_hours\n"
                                   "2026-03-28T00:00:00+01:00,bob,1.0000\n"
                                   "2026-03-29T00:00:00+01:00,alice,6.0000\n"
                                   "2026-03-29T00:00:00+01:00,bob,2.0000\n"
                                   "2026-03-29T00:00:00+01:00,team-b,8.0000\n"));
    const Run hourly =
        gq({QStringLiteral("usage"), QStringLiteral("--db"), db(), QStringLiteral("--by"),
            QStringLiteral("namespace"), QStringLiteral("--period"), QStringLiteral("hour"),
            QStringLiteral("--from"), QStringLiteral("2026-03-29T00:00:00Z"), QStringLiteral("--to"),
            QStringLiteral("2026-03-29T02:00:00Z"), QStringLiteral("--tz"), QStringLiteral("Europe/Berlin"),
            QStringLiteral("--now"), QStringLiteral("2026-03-29T12:00:00Z"), QStringLiteral("-o"),
            QStringLiteral("csv")});
    QCOMPARE(hourly.code, 0);
    // 01:00 CET is followed by 03:00 CEST: the spring-forward gap.
    QCOMPARE(hourly.out, QStringLiteral("bucket_start,subject,gpu_hours\n"
                                        "2026-03-29T01:00:00+01:00,team-a,2.0000\n"
                                        "2026-03-29T03:00:00+02:00,team-a,3.0000\n"));
}

void TestUsageCli::usageJsonAndTable() {
    const QStringList base{QStringLiteral("usage"),
                           QStringLiteral("--db"),
                           db(),
                           QStringLiteral("--by"),
                           QStringLiteral("namespace"),
                           QStringLiteral("--period"),
                           QStringLiteral("month"),
                           QStringLiteral("--from"),
                           QStringLiteral("2026-03-01T00:00:00Z"),
                           QStringLiteral("--to"),
                           QStringLiteral("2026-04-01T00:00:00Z"),
                           QStringLiteral("--now"),
                           QStringLiteral("2026-03-29T12:00:00Z")};
    const Run j = gq(base + QStringList{QStringLiteral("-o"), QStringLiteral("json")});
    QCOMPARE(j.code, 0);
    const QJsonObject doc = QJsonDocument::fromJson(j.out.toUtf8()).object();
    const QJsonArray rows = doc.value(QStringLiteral("rows")).toArray();
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows[0].toObject().value(QStringLiteral("subject")).toString(), QStringLiteral("team-a"));
    QCOMPARE(rows[0].toObject().value(QStringLiteral("bucket_start")).toString(),
             QStringLiteral("2026-03-01T00:00:00Z"));
    QVERIFY(qAbs(rows[0].toObject().value(QStringLiteral("gpu_hours")).toDouble() - 9.0) < 1e-9);
    QVERIFY(qAbs(rows[1].toObject().value(QStringLiteral("gpu_hours")).toDouble() - 8.0) < 1e-9);
    const Run t = gq(base);
    QCOMPARE(t.code, 0);
    QVERIFY2(t.out.contains(QStringLiteral("total: 17.00 GPU-h")), qPrintable(t.out));
    const Run bad =
        gq({QStringLiteral("usage"), QStringLiteral("--db"), db(), QStringLiteral("--period"),
            QStringLiteral("fortnight"), QStringLiteral("--from"), QStringLiteral("2026-03-01T00:00:00Z"),
            QStringLiteral("--to"), QStringLiteral("2026-04-01T00:00:00Z")});
    QCOMPARE(bad.code, 2);
    QVERIFY(bad.err.contains(QStringLiteral("fortnight")));
}

void TestUsageCli::checkDesignExample() {
    // Used 3.5 GPU-h today, limit 8, 1 GPU x 4 h -> allowed (7.5 <= 8).
    const QString dbUrl = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("design.db"));
    const QByteArray csv = "cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n"
                           "prod,ml,carol,u1,nb,nvidia.com/gpu,1,2026-05-04T08:00:00Z,2026-05-04T11:30:00Z\n";
    QCOMPARE(gq({QStringLiteral("import"), QStringLiteral("--db"), dbUrl, QStringLiteral("-")}, csv).code, 0);
    QCOMPARE(gq({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), dbUrl,
                 QStringLiteral("--user"), QStringLiteral("carol"), QStringLiteral("--period"),
                 QStringLiteral("day"), QStringLiteral("--limit"), QStringLiteral("8")})
                 .code,
             0);
    const QStringList check{
        QStringLiteral("check"),  QStringLiteral("--db"),  dbUrl,
        QStringLiteral("--user"), QStringLiteral("carol"), QStringLiteral("--gpus"),
        QStringLiteral("1"),      QStringLiteral("--now"), QStringLiteral("2026-05-04T12:00:00Z"),
        QStringLiteral("--hours")};
    const Run ok = gq(check + QStringList{QStringLiteral("4")});
    QCOMPARE(ok.code, 0);
    QCOMPARE(ok.out.section(QLatin1Char('\n'), 0, 0), QStringLiteral("Allowed: 4.00 GPU-h ≤ 4.50 available"));
    const Run no = gq(check + QStringList{QStringLiteral("5")});
    QCOMPARE(no.code, 1);
    QCOMPARE(no.out.section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("Denied: need 5.00 GPU-h, only 4.50 left (limit 8.00 per day)"));
    // The next day the budget is fresh again.
    const Run tomorrow =
        gq({QStringLiteral("check"), QStringLiteral("--db"), dbUrl, QStringLiteral("--user"),
            QStringLiteral("carol"), QStringLiteral("--gpus"), QStringLiteral("2"), QStringLiteral("--hours"),
            QStringLiteral("4"), QStringLiteral("--now"), QStringLiteral("2026-05-05T00:00:00Z"),
            QStringLiteral("-o"), QStringLiteral("json")});
    QCOMPARE(tomorrow.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(tomorrow.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("decision")).toString(), QStringLiteral("allowed"));
    QCOMPARE(o.value(QStringLiteral("used")).toDouble(), 0.0);
}

void TestUsageCli::checkExitCodes() {
    const Run noDb =
        gq({QStringLiteral("check"), QStringLiteral("--user"), QStringLiteral("a"), QStringLiteral("--gpus"),
            QStringLiteral("1"), QStringLiteral("--hours"), QStringLiteral("1")});
    QCOMPARE(noDb.code, 2);
    QVERIFY(noDb.err.contains(QStringLiteral("--db URL is required")));
    const Run unreachable = gq({QStringLiteral("check"), QStringLiteral("--db"),
                                QStringLiteral("postgresql://gq@127.0.0.1:1/x?connect_timeout=2"),
                                QStringLiteral("--user"), QStringLiteral("a"), QStringLiteral("--gpus"),
                                QStringLiteral("1"), QStringLiteral("--hours"), QStringLiteral("1")});
    QCOMPARE(unreachable.code, 2);
    QVERIFY2(unreachable.err.contains(QStringLiteral("cannot connect to PostgreSQL")),
             qPrintable(unreachable.err));
    const Run password = gq({QStringLiteral("check"), QStringLiteral("--db"),
                             QStringLiteral("postgresql://gq:s3cret@127.0.0.1:1/x"), QStringLiteral("--user"),
                             QStringLiteral("a"), QStringLiteral("--gpus"), QStringLiteral("1"),
                             QStringLiteral("--hours"), QStringLiteral("1")});
    QCOMPARE(password.code, 2);
    QVERIFY(!password.err.contains(QStringLiteral("s3cret")));
    const Run badGpus = gq({QStringLiteral("check"), QStringLiteral("--db"), db(), QStringLiteral("--user"),
                            QStringLiteral("a"), QStringLiteral("--gpus"), QStringLiteral("many"),
                            QStringLiteral("--hours"), QStringLiteral("1")});
    QCOMPARE(badGpus.code, 2);
    QVERIFY(badGpus.err.contains(QStringLiteral("--gpus")));
    const Run noBudget = gq({QStringLiteral("check"), QStringLiteral("--db"), db(), QStringLiteral("--user"),
                             QStringLiteral("nobody"), QStringLiteral("--gpus"), QStringLiteral("8"),
                             QStringLiteral("--hours"), QStringLiteral("100")});
    QCOMPARE(noBudget.code, 0);
    QVERIFY(noBudget.out.contains(QStringLiteral("no GPU-hour budget applies")));
}

void TestUsageCli::budgetLifecycle() {
    const QStringList dbArg{QStringLiteral("--db"), db()};
    const Run set =
        gq(QStringList{QStringLiteral("budget"), QStringLiteral("set")} + dbArg +
           QStringList{QStringLiteral("--namespace"), QStringLiteral("team-a"), QStringLiteral("--period"),
                       QStringLiteral("week"), QStringLiteral("--limit"), QStringLiteral("100"),
                       QStringLiteral("--grace"), QStringLiteral("30m"), QStringLiteral("--tz"),
                       QStringLiteral("Europe/Berlin")});
    QCOMPARE(set.code, 0);
    QCOMPARE(set.out, QStringLiteral(
                          "budget set: namespace team-a 100.00 GPU-h per week (Europe/Berlin, grace 30m)\n"));
    const Run list = gq(QStringList{QStringLiteral("budget"), QStringLiteral("list")} + dbArg +
                        QStringList{QStringLiteral("--now"), QStringLiteral("2026-03-29T12:00:00Z")});
    QCOMPARE(list.code, 0);
    // Week of Mon 2026-03-23 in Berlin: alice 6 + bob 3 = 9 GPU-h.
    QVERIFY2(list.out.contains(
                 QRegularExpression(QStringLiteral("namespace +team-a +week +100.00 +30m +Europe/Berlin "
                                                   "+9.00 +91.00 +allowed"))),
             qPrintable(list.out));
    const Run bad =
        gq(QStringList{QStringLiteral("budget"), QStringLiteral("set")} + dbArg +
           QStringList{QStringLiteral("--user"), QStringLiteral("x"), QStringLiteral("--namespace"),
                       QStringLiteral("y"), QStringLiteral("--limit"), QStringLiteral("1")});
    QCOMPARE(bad.code, 2);
    const Run badTz =
        gq(QStringList{QStringLiteral("budget"), QStringLiteral("set")} + dbArg +
           QStringList{QStringLiteral("--user"), QStringLiteral("x"), QStringLiteral("--limit"),
                       QStringLiteral("1"), QStringLiteral("--tz"), QStringLiteral("Moon/Base")});
    QCOMPARE(badTz.code, 2);
    QVERIFY(badTz.err.contains(QStringLiteral("tz: unknown time zone 'Moon/Base'")));
    const QStringList del = QStringList{QStringLiteral("budget"), QStringLiteral("delete")} + dbArg +
                            QStringList{QStringLiteral("--namespace"), QStringLiteral("team-a")};
    QCOMPARE(gq(del).code, 0);
    const Run again = gq(del);
    QCOMPARE(again.code, 1);
    QVERIFY(again.err.contains(QStringLiteral("no budget for namespace team-a")));
}

void TestUsageCli::exportRoundTrip() {
    const Run e = gq({QStringLiteral("export"), QStringLiteral("--db"), db(), QStringLiteral("--from"),
                      QStringLiteral("2026-03-29T00:00:00Z"), QStringLiteral("--to"),
                      QStringLiteral("2026-03-29T01:00:00Z")});
    QCOMPARE(e.code, 0);
    QCOMPARE(e.out, QStringLiteral(
                        "cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n"
                        "prod,team-a,bob,uid-b1,notebook-b1,nvidia.com/mig-1g.10gb,7,2026-03-28T22:00:00Z,"
                        "2026-03-29T01:00:00Z\n"
                        "prod,team-a,alice,uid-a1,train-a1,nvidia.com/gpu,2,2026-03-29T00:30:00Z,"
                        "2026-03-29T02:30:00Z\n"));
    const QString copy = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("copy.db"));
    const Run all = gq({QStringLiteral("export"), QStringLiteral("--db"), db()});
    const Run imp =
        gq({QStringLiteral("import"), QStringLiteral("--db"), copy, QStringLiteral("-")}, all.out.toUtf8());
    QCOMPARE(imp.code, 0);
    QVERIFY(imp.out.contains(QStringLiteral("4 new")));
    QCOMPARE(gq({QStringLiteral("export"), QStringLiteral("--db"), copy}).out, all.out);
}

// `gpuquota rollup rebuild`: damaged rollups (through SQL) change what `usage` shows;
// the rebuild reports the repair and `usage` shows the original figures again.
void TestUsageCli::rollupRebuild() {
    const QString url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("rollup.db"));
    Run r = gq({QStringLiteral("demo-data"), QStringLiteral("--db"), url, QStringLiteral("--users"),
                QStringLiteral("12"), QStringLiteral("--namespaces"), QStringLiteral("3"),
                QStringLiteral("--days"), QStringLiteral("5"), QStringLiteral("--seed"), QStringLiteral("9"),
                QStringLiteral("--end"), QStringLiteral("2026-04-03T00:00:00Z")});
    QCOMPARE(r.code, 0);
    const QStringList usage{QStringLiteral("usage"),
                            QStringLiteral("--db"),
                            url,
                            QStringLiteral("--by"),
                            QStringLiteral("namespace"),
                            QStringLiteral("--period"),
                            QStringLiteral("day"),
                            QStringLiteral("--from"),
                            QStringLiteral("2026-03-29T00:00:00Z"),
                            QStringLiteral("--to"),
                            QStringLiteral("2026-04-03T00:00:00Z"),
                            QStringLiteral("--now"),
                            QStringLiteral("2026-04-03T00:00:00Z"),
                            QStringLiteral("-o"),
                            QStringLiteral("csv")};
    const Run before = gq(usage);
    QCOMPARE(before.code, 0);
    QVERIFY2(before.out.count(QLatin1Char('\n')) > 5, qPrintable(before.out));

    const Run healthy =
        gq({QStringLiteral("rollup"), QStringLiteral("rebuild"), QStringLiteral("--db"), url});
    QCOMPARE(healthy.code, 0);
    QVERIFY2(healthy.out.contains(QStringLiteral("nothing to change")), qPrintable(healthy.out));

    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("damage"));
        db.setDatabaseName(m_dir.filePath(QStringLiteral("rollup.db")));
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY2(q.exec(QStringLiteral("DELETE FROM rollup_ns_day WHERE day_s >= 1774915200")),
                 qPrintable(q.lastError().text())); // from 2026-03-31
        QVERIFY(q.exec(QStringLiteral("UPDATE rollup_ns_hour SET gpu_seconds = gpu_seconds * 2")));
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("damage"));
    const Run damaged = gq(usage);
    QCOMPARE(damaged.code, 0);
    QVERIFY(damaged.out != before.out);

    const Run fix = gq({QStringLiteral("rollup"), QStringLiteral("rebuild"), QStringLiteral("--db"), url,
                        QStringLiteral("-o"), QStringLiteral("json")});
    QCOMPARE(fix.code, 0);
    const QJsonObject doc = QJsonDocument::fromJson(fix.out.toUtf8()).object();
    QCOMPARE(doc.value(QStringLiteral("changed")).toBool(), true);
    QMap<QString, QJsonObject> tables;
    for (const auto &t : doc.value(QStringLiteral("tables")).toArray())
        tables.insert(t.toObject().value(QStringLiteral("table")).toString(), t.toObject());
    QVERIFY(tables.value(QStringLiteral("rollup_ns_day")).value(QStringLiteral("added")).toInt() > 0);
    QVERIFY(tables.value(QStringLiteral("rollup_ns_hour")).value(QStringLiteral("changed")).toInt() > 0);
    QCOMPARE(tables.value(QStringLiteral("rollup_user_day")).value(QStringLiteral("changed")).toInt(), 0);

    const Run after = gq(usage);
    QCOMPARE(after.code, 0);
    QCOMPARE(after.out, before.out);
    const Run table = gq({QStringLiteral("rollup"), QStringLiteral("rebuild"), QStringLiteral("--db"), url});
    QCOMPARE(table.code, 0);
    QVERIFY2(table.out.contains(QStringLiteral("rollup_ns_hour")) &&
                 table.out.contains(QStringLiteral("nothing to change")),
             qPrintable(table.out));

    QCOMPARE(gq({QStringLiteral("rollup")}).code, 2);
    QCOMPARE(gq({QStringLiteral("rollup"), QStringLiteral("rebuild")}).code, 2);
    QCOMPARE(gq({QStringLiteral("rollup"), QStringLiteral("rebuild"), QStringLiteral("--db"), url,
                 QStringLiteral("-o"), QStringLiteral("xml")})
                 .code,
             2);
}

// Ten thousand years: refused (or, for months, answered) at once, never built bucket
// by bucket.
void TestUsageCli::hugeRangeAnswersQuickly_data() {
    QTest::addColumn<QString>("period");
    QTest::addColumn<QString>("tz");
    QTest::addColumn<bool>("refused");
    for (const char *tz : {"UTC", "Europe/Berlin", "Asia/Kolkata"}) {
        for (const char *p : {"hour", "day", "week"})
            QTest::addRow("%s %s", p, tz) << QString::fromLatin1(p) << QString::fromLatin1(tz) << true;
        QTest::addRow("month %s", tz) << QStringLiteral("month") << QString::fromLatin1(tz) << false;
    }
}

void TestUsageCli::hugeRangeAnswersQuickly() {
    QFETCH(QString, period);
    QFETCH(QString, tz);
    QFETCH(bool, refused);
    QElapsedTimer timer;
    timer.start();
    const Run r =
        gq({QStringLiteral("usage"), QStringLiteral("--db"), db(), QStringLiteral("--period"), period,
            QStringLiteral("--tz"), tz, QStringLiteral("--from"), QStringLiteral("0001-01-01T00:00:00Z"),
            QStringLiteral("--to"), QStringLiteral("9999-12-31T00:00:00Z")});
    const qint64 ms = timer.elapsed();
    QVERIFY2(ms < 2000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
    if (refused) {
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--from/--to")) && r.err.contains(QStringLiteral("--period")),
                 qPrintable(r.err));
    } else {
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(QStringLiteral("total: ")), qPrintable(r.out));
    }
}

// A database on a read-only file system (a read-only tmpfs as root, a directory without
// write permission otherwise) can still be read by the reading verbs.
void TestUsageCli::readsFromReadOnlyFileSystem() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString ro = dir.filePath(QStringLiteral("ro"));
    QVERIFY(QDir().mkdir(ro));
    const bool root = geteuid() == 0;
    if (root && mount("gq-ro", ro.toLocal8Bit().constData(), "tmpfs", 0, "size=16m") != 0) {
        const QString why =
            QStringLiteral("cannot mount a tmpfs on %1: %2").arg(ro, QString::fromLocal8Bit(strerror(errno)));
        if (qEnvironmentVariable("CI") == QLatin1String("true"))
            QFAIL(qPrintable(why));
        QSKIP(qPrintable(why));
    }
    auto unmount = qScopeGuard([&] {
        if (root)
            umount2(ro.toLocal8Bit().constData(), MNT_DETACH);
        else
            QFile::setPermissions(ro, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    });
    const QString url = QStringLiteral("sqlite://") + ro + QStringLiteral("/usage.db");
    QCOMPARE(gq({QStringLiteral("import"), QStringLiteral("--db"), url,
                 kFixtures + QStringLiteral("intervals.csv")})
                 .code,
             0);
    if (root)
        QVERIFY2(mount("gq-ro", ro.toLocal8Bit().constData(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr) == 0,
                 strerror(errno));
    else
        QVERIFY(QFile::setPermissions(ro, QFile::ReadOwner | QFile::ExeOwner));
    QFile probe(ro + QStringLiteral("/probe"));
    QVERIFY2(!probe.open(QIODevice::WriteOnly), "the directory is still writable");

    const Run usage = gq({QStringLiteral("usage"), QStringLiteral("--db"), url, QStringLiteral("--from"),
                          QStringLiteral("2026-03-28T00:00:00Z"), QStringLiteral("--to"),
                          QStringLiteral("2026-03-31T00:00:00Z")});
    QVERIFY2(usage.code == 0, qPrintable(usage.err));
    QVERIFY2(usage.out.contains(QStringLiteral("total: ")), qPrintable(usage.out));
    const Run check = gq({QStringLiteral("check"), QStringLiteral("--db"), url, QStringLiteral("--user"),
                          QStringLiteral("alice"), QStringLiteral("--gpus"), QStringLiteral("1"),
                          QStringLiteral("--hours"), QStringLiteral("1")});
    QVERIFY2(check.code == 0, qPrintable(check.err));
    const Run exported = gq({QStringLiteral("export"), QStringLiteral("--db"), url});
    QVERIFY2(exported.code == 0, qPrintable(exported.err));
    QCOMPARE(exported.out.count(QLatin1Char('\n')), 5);
    // The audit verbs that only read (the import above wrote one entry).
    const Run listed = gq({QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--db"), url,
                           QStringLiteral("-o"), QStringLiteral("csv")});
    QVERIFY2(listed.code == 0, qPrintable(listed.err));
    QVERIFY2(listed.out.contains(QStringLiteral(",usage.import,")), qPrintable(listed.out));
    const Run verified = gq({QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--db"), url});
    QVERIFY2(verified.code == 0, qPrintable(verified.err));
    QVERIFY2(verified.out.startsWith(QStringLiteral("intact: 1 entry")), qPrintable(verified.out));
    const QString cpFile = m_dir.filePath(QStringLiteral("ro-audit.checkpoint"));
    const Run checkpoint = gq({QStringLiteral("audit"), QStringLiteral("checkpoint"), QStringLiteral("--db"),
                               url, QStringLiteral("--out"), cpFile});
    QVERIFY2(checkpoint.code == 0, qPrintable(checkpoint.err));
    QVERIFY2(checkpoint.out.startsWith(QStringLiteral("checkpoint 1:")), qPrintable(checkpoint.out));
    const Run missing = gq({QStringLiteral("check"), QStringLiteral("--db"),
                            QStringLiteral("sqlite://") + ro + QStringLiteral("/none.db"),
                            QStringLiteral("--user"), QStringLiteral("alice"), QStringLiteral("--gpus"),
                            QStringLiteral("1"), QStringLiteral("--hours"), QStringLiteral("1")});
    QCOMPARE(missing.code, 2);
    QVERIFY2(missing.err.contains(QStringLiteral("does not exist")), qPrintable(missing.err));
}

// budget set, budget delete and import each append one audit entry naming the actor.
void TestUsageCli::changesAreAudited() {
    const QString url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("audit.db"));
    QCOMPARE(gq({QStringLiteral("import"), QStringLiteral("--db"), url, QStringLiteral("--actor"),
                 QStringLiteral("loader"), kFixtures + QStringLiteral("intervals.csv")})
                 .code,
             0);
    QCOMPARE(gq({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), url,
                 QStringLiteral("--user"), QStringLiteral("alice"), QStringLiteral("--limit"),
                 QStringLiteral("8"), QStringLiteral("--actor"), QStringLiteral("admin@example.com"),
                 QStringLiteral("--note"), QStringLiteral("ticket 42")})
                 .code,
             0);
    QCOMPARE(gq({QStringLiteral("budget"), QStringLiteral("delete"), QStringLiteral("--db"), url,
                 QStringLiteral("--user"), QStringLiteral("alice")})
                 .code,
             0);
    auto store = gq::UsageStore::open(url);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    gq::AuditLog log(**store);
    auto entries = log.list();
    QVERIFY(entries);
    QCOMPARE(entries->size(), 3);
    const gq::AuditEntry &del = entries->at(0), &set = entries->at(1), &imp = entries->at(2); // newest first
    QCOMPARE(imp.action, QStringLiteral("usage.import"));
    QCOMPARE(imp.actor, QStringLiteral("loader"));
    QVERIFY2(imp.after.contains(QStringLiteral("4 rows")), qPrintable(imp.after));
    QCOMPARE(set.action, QStringLiteral("budget.set"));
    QCOMPARE(set.actor, QStringLiteral("admin@example.com"));
    QCOMPARE(set.target, QStringLiteral("budget/user/alice"));
    QCOMPARE(set.note, QStringLiteral("ticket 42"));
    QVERIFY(set.before.isEmpty());
    QVERIFY2(set.after.contains(QStringLiteral("\"limit\":8")), qPrintable(set.after));
    QCOMPARE(del.action, QStringLiteral("budget.delete"));
    const passwd *pw = getpwuid(geteuid());
    QVERIFY(pw);
    QCOMPARE(del.actor, QString::fromLocal8Bit(pw->pw_name)); // no --actor: the OS user
    QCOMPARE(del.before, set.after);
    QVERIFY(del.after.isEmpty());
    QVERIFY((*store)->budgets()->isEmpty());
    QVERIFY(log.verifyChain()->ok);
}

// --- import checks (hardening): each bad row is refused before anything is written,
// with its line, and the same message on both backends.

static const QByteArray kHeader = "cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n";
static const QByteArray kGoodRow =
    "prod,ml,carol,u0,nb,nvidia.com/gpu,1,2026-05-04T08:00:00Z,2026-05-04T09:00:00Z\n";

void TestUsageCli::importRejectsBadRows_data() {
    QTest::addColumn<QByteArray>("row");
    QTest::addColumn<QString>("message");
    QTest::newRow("start before 2000")
        << QByteArray("prod,ml,a,u1,p,nvidia.com/gpu,1,1999-12-31T23:00:00Z,2000-01-01T01:00:00Z")
        << QStringLiteral("rows.csv:3: start: 1999-12-31T23:00:00Z is before the earliest accepted start "
                          "2000-01-01T00:00:00Z");
    QTest::newRow("year 1")
        << QByteArray("prod,ml,a,u1,p,nvidia.com/gpu,1,0001-01-01T00:00:00Z,2026-01-01T00:00:00Z")
        << QStringLiteral("rows.csv:3: start: 0001-01-01T00:00:00Z is before the earliest accepted start");
    QTest::newRow("50 years")
        << QByteArray("prod,ml,a,u1,p,nvidia.com/gpu,1,2001-01-01T00:00:00Z,2051-01-01T00:00:00Z")
        << QStringLiteral(
               "rows.csv:3: end: the interval lasts 18262d, longer than the longest accepted 366d");
    QTest::newRow("open, running since year 1")
        << QByteArray("prod,ml,a,u1,p,nvidia.com/gpu,1,0001-01-01T00:00:00Z,")
        << QStringLiteral("rows.csv:3: start: 0001-01-01T00:00:00Z is before");
    QTest::newRow("invalid UTF-8")
        << QByteArray("prod,ml,jos\xe9,u1,p,nvidia.com/gpu,1,2026-05-04T08:00:00Z,2026-05-04T09:00:00Z")
        << QStringLiteral("rows.csv:3: invalid UTF-8 (byte 0xe9 at column 12)");
    QTest::newRow("overlong UTF-8")
        << QByteArray("prod,ml,a\xc0\xaf,u1,p,nvidia.com/gpu,1,2026-05-04T08:00:00Z,2026-05-04T09:00:00Z")
        << QStringLiteral("rows.csv:3: invalid UTF-8 (byte 0xc0 at column 10)");
    QTest::newRow("NUL in user")
        << (QByteArray("prod,ml,a") + '\0' +
            QByteArray("b,u1,p,nvidia.com/gpu,1,2026-05-04T08:00:00Z,2026-05-04T09:00:00Z"))
        << QStringLiteral("rows.csv:3: user: contains the control character U+0000 at position 2");
    QTest::newRow("control in namespace")
        << QByteArray("prod,m\x01l,a,u1,p,nvidia.com/gpu,1,2026-05-04T08:00:00Z,2026-05-04T09:00:00Z")
        << QStringLiteral("rows.csv:3: namespace: contains the control character U+0001 at position 2");
    QTest::newRow("tab inside pod_uid")
        << QByteArray("prod,ml,a,u\t1,p,nvidia.com/gpu,1,2026-05-04T08:00:00Z,2026-05-04T09:00:00Z")
        << QStringLiteral("rows.csv:3: pod_uid: contains the control character U+0009 at position 2");
    QTest::newRow("C1 control in pod_name")
        << QByteArray("prod,ml,a,u1,p\xc2\x85q,nvidia.com/gpu,1,2026-05-04T08:00:00Z,2026-05-04T09:00:00Z")
        << QStringLiteral("rows.csv:3: pod_name: contains the control character U+0085 at position 2");
    QTest::newRow("newline in a quoted cluster")
        << QByteArray("\"pr\nod\",ml,a,u1,p,nvidia.com/gpu,1,2026-05-04T08:00:00Z,2026-05-04T09:00:00Z")
        << QStringLiteral("rows.csv:3: cluster: contains the control character U+000A at position 3");
}

void TestUsageCli::importRejectsBadRows() {
    QFETCH(QByteArray, row);
    QFETCH(QString, message);
    const QString url = m_backend.freshUrl();
    const QString path = writeFile(QStringLiteral("rows.csv"), kHeader + kGoodRow + row + '\n' + kGoodRow);
    QElapsedTimer timer;
    timer.start();
    const Run r = gq({QStringLiteral("import"), QStringLiteral("--db"), url, path});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("(nothing imported)")), qPrintable(r.err));
    QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(exportOf(url), QString::fromUtf8(kHeader));
}

void TestUsageCli::importLimitsAreConfigurable() {
    const QString url = m_backend.freshUrl();
    const QString path =
        writeFile(QStringLiteral("limits.csv"),
                  kHeader + "prod,ml,a,u1,p,nvidia.com/gpu,1,1995-01-01T00:00:00Z,1995-01-03T00:00:00Z\n");
    const QStringList base{QStringLiteral("import"), QStringLiteral("--db"), url};
    const Run early = gq(
        base + QStringList{QStringLiteral("--earliest-start"), QStringLiteral("1995-01-02T00:00:00Z"), path});
    QCOMPARE(early.code, 1);
    QVERIFY2(
        early.err.contains(QStringLiteral("limits.csv:2: start: 1995-01-01T00:00:00Z is before the earliest "
                                          "accepted start 1995-01-02T00:00:00Z")),
        qPrintable(early.err));
    const Run longer =
        gq(base + QStringList{QStringLiteral("--earliest-start"), QStringLiteral("1990-01-01T00:00:00Z"),
                              QStringLiteral("--max-interval"), QStringLiteral("36h"), path});
    QCOMPARE(longer.code, 1);
    QVERIFY2(longer.err.contains(QStringLiteral(
                 "limits.csv:2: end: the interval lasts 2d, longer than the longest accepted 1d12h")),
             qPrintable(longer.err));
    const Run ok =
        gq(base + QStringList{QStringLiteral("--earliest-start"), QStringLiteral("1990-01-01T00:00:00Z"),
                              QStringLiteral("--max-interval"), QStringLiteral("2d"), path});
    QCOMPARE(ok.code, 0);
    QVERIFY2(ok.out.contains(QStringLiteral("1 new")), qPrintable(ok.out));
    const Run badFlag =
        gq(base + QStringList{QStringLiteral("--max-interval"), QStringLiteral("soon"), path});
    QCOMPARE(badFlag.code, 2);
}

// Re-import through the bulk path stays idempotent: equal rows are unchanged, changed
// ones replace the stored row (rollups move with them), a key repeated in the file
// ends as its last row.
void TestUsageCli::importUpdatesAndRepeats() {
    const QString url = m_backend.freshUrl();
    const QStringList imp{QStringLiteral("import"), QStringLiteral("--db"), url};
    QCOMPARE(gq(imp + QStringList{kFixtures + QStringLiteral("intervals.csv")}).code, 0);
    const QString changed = writeFile(
        QStringLiteral("changed.csv"),
        kHeader +
            "prod,team-a,alice,uid-a1,train-a1,nvidia.com/gpu,2,2026-03-29T00:30:00Z,2026-03-29T01:30:00Z\n"
            "prod,team-a,bob,uid-b1,notebook-b1,nvidia.com/mig-1g.10gb,7,2026-03-28T22:00:00Z,"
            "2026-03-29T01:00:00Z\n"
            "prod,team-c,dan,uid-d1,x,nvidia.com/gpu,1,2026-03-29T00:00:00Z,2026-03-29T05:00:00Z\n"
            "prod,team-c,dan,uid-d1,x,nvidia.com/gpu,1,2026-03-29T00:00:00Z,2026-03-29T02:00:00Z\n");
    const Run r = gq(imp + QStringList{changed});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(QStringLiteral("imported 4 rows")) &&
                 r.out.contains(QStringLiteral("1 new, 2 updated, 1 unchanged")),
             qPrintable(r.out));
    const Run u = gq({QStringLiteral("usage"), QStringLiteral("--db"), url, QStringLiteral("--by"),
                      QStringLiteral("user"), QStringLiteral("--period"), QStringLiteral("day"),
                      QStringLiteral("--from"), QStringLiteral("2026-03-29T00:00:00Z"),
                      QStringLiteral("--to"), QStringLiteral("2026-03-30T00:00:00Z"), QStringLiteral("--now"),
                      QStringLiteral("2026-03-29T12:00:00Z"), QStringLiteral("-o"), QStringLiteral("csv")});
    QCOMPARE(u.code, 0);
    // alice: 1 h x 2 + 2 h x 1; bob: 1 h x 7/7; dan: 2 h (the file's last row for uid-d1).
    QVERIFY2(u.out.contains(QStringLiteral("2026-03-29T00:00:00Z,alice,4.0000\n")), qPrintable(u.out));
    QVERIFY2(u.out.contains(QStringLiteral("2026-03-29T00:00:00Z,bob,1.0000\n")), qPrintable(u.out));
    QVERIFY2(u.out.contains(QStringLiteral("2026-03-29T00:00:00Z,dan,2.0000\n")), qPrintable(u.out));
    const Run again = gq(imp + QStringList{QStringLiteral("-")}, exportOf(url).toUtf8());
    QCOMPARE(again.code, 0);
    QVERIFY2(again.out.contains(QStringLiteral("0 new, 0 updated, 5 unchanged")), qPrintable(again.out));
}

// OWASP CSV injection: a cell starting with = + - @ (after any single quotes) is
// exported as "'..." so a spreadsheet shows text; import takes that quote off again
// (''=p is the name '=p), so export -> import -> export is exact.
void TestUsageCli::exportQuotesFormulaCells() {
    const QString url = m_backend.freshUrl();
    const QByteArray csv = kHeader + "@cl,-ns,\"=HYPERLINK(\"\"http://x\"\")\",+u1,''=p,nvidia.com/gpu,1,"
                                     "2026-05-04T08:00:00Z,2026-05-04T09:00:00Z\n";
    const Run imp = gq({QStringLiteral("import"), QStringLiteral("--db"), url, QStringLiteral("-")}, csv);
    QCOMPARE(imp.code, 0);
    const QString out = exportOf(url);
    QCOMPARE(out, QString::fromUtf8(kHeader) +
                      QStringLiteral("\"'@cl\",\"'-ns\",\"'=HYPERLINK(\"\"http://x\"\")\",\"'+u1\",\"''=p\","
                                     "nvidia.com/gpu,1,2026-05-04T08:00:00Z,2026-05-04T09:00:00Z\n"));
    const QString copy = m_backend.freshUrl();
    QCOMPARE(
        gq({QStringLiteral("import"), QStringLiteral("--db"), copy, QStringLiteral("-")}, out.toUtf8()).code,
        0);
    QCOMPARE(exportOf(copy), out);
}

// The whole file is checked before anything is written: a bad row near the end of a
// large file is reported while another connection holds the write lock (which the old
// row-by-row import ran into first), and the stored rows stay as they were.
void TestUsageCli::badRowNearTheEndIsFoundBeforeWriting() {
    const QString url = m_backend.freshUrl();
    QCOMPARE(
        gq({QStringLiteral("import"), QStringLiteral("--db"), url, QStringLiteral("-")}, kHeader + kGoodRow)
            .code,
        0);
    constexpr int kRows = 200000;
    QByteArray csv = kHeader;
    csv.reserve(kRows * 100);
    for (int i = 0; i < kRows; ++i) {
        const qint64 start = 1767225600 + qint64(i) * 60; // from 2026-01-01
        const bool bad = i == kRows - 2;
        csv += "prod,team-" + QByteArray::number(i % 20) + ",user-" + QByteArray::number(i % 200) + ",uid-" +
               QByteArray::number(i) + ",job,nvidia.com/gpu,1," +
               QDateTime::fromSecsSinceEpoch(start, Qt::UTC).toString(Qt::ISODate).toLatin1() + ',' +
               QDateTime::fromSecsSinceEpoch(bad ? start - 60 : start + 3600, Qt::UTC)
                   .toString(Qt::ISODate)
                   .toLatin1() +
               '\n';
    }
    const QString path = writeFile(QStringLiteral("big.csv"), csv);
    QVERIFY(!path.isEmpty());

    const auto parsed = gq::DbUrl::parse(url);
    QVERIFY(parsed);
    {
        const bool pg = parsed->driver == gq::DbUrl::Driver::Postgres;
        QSqlDatabase holder = QSqlDatabase::addDatabase(
            pg ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"), QStringLiteral("holder"));
        if (pg) {
            holder.setHostName(parsed->host);
            holder.setPort(parsed->port);
            holder.setUserName(parsed->user);
            holder.setDatabaseName(parsed->database);
        } else {
            holder.setDatabaseName(parsed->path);
        }
        QVERIFY2(holder.open(), qPrintable(holder.lastError().text()));
        QSqlQuery q(holder);
        if (pg) {
            QVERIFY(q.exec(QStringLiteral("SET search_path TO \"%1\"").arg(parsed->schema)));
            QVERIFY(q.exec(QStringLiteral("BEGIN")));
            QVERIFY2(q.exec(QStringLiteral("LOCK TABLE usage_intervals IN EXCLUSIVE MODE")),
                     qPrintable(q.lastError().text()));
        } else {
            QVERIFY2(q.exec(QStringLiteral("BEGIN IMMEDIATE")), qPrintable(q.lastError().text()));
        }
        QElapsedTimer timer;
        timer.start();
        const Run r = gq({QStringLiteral("import"), QStringLiteral("--db"), url, path});
        const qint64 ms = timer.elapsed();
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("big.csv:%1: end: reversed interval").arg(kRows)),
                 qPrintable(r.err));
        QVERIFY2(ms < 30000, qPrintable(QString::number(ms)));
        qInfo("bad row at line %d of %d found after %lld ms", kRows, kRows + 1, ms);
        QVERIFY(q.exec(QStringLiteral("ROLLBACK")));
        q.finish();
        holder.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("holder"));
    QCOMPARE(exportOf(url), QString::fromUtf8(kHeader + kGoodRow));
}

QTEST_GUILESS_MAIN(TestUsageCli)
#include "tst_usagecli.moc"
