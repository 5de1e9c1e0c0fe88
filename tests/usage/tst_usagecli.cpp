// The usage CLI suite (tst_usagecli.h), part one: import, usage, check, budgets, export
// and the rollup rebuild.

#include "tests/usage/tst_usagecli.h"

void TestUsageCli::initTestCase() {
    QVERIFY(m_dir.isValid());
    GQ_PREPARE_USAGE_BACKEND(m_backend);
    m_bin = gq::test::gpuquotaBinary();
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
    return gq::test::runCli(m_bin, args, QProcessEnvironment::systemEnvironment(), 60000, stdinData);
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
    QCOMPARE(unreachable.code, 1); // a runtime failure, not a usage error (issue 31 item 16)
    QVERIFY2(unreachable.err.contains(QStringLiteral("cannot connect to PostgreSQL")),
             qPrintable(unreachable.err));
    const Run password = gq({QStringLiteral("check"), QStringLiteral("--db"),
                             QStringLiteral("postgresql://gq:s3cret@127.0.0.1:1/x"), QStringLiteral("--user"),
                             QStringLiteral("a"), QStringLiteral("--gpus"), QStringLiteral("1"),
                             QStringLiteral("--hours"), QStringLiteral("1")});
    QCOMPARE(password.code, 2); // a password in the URL is a usage error
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

QTEST_GUILESS_MAIN(TestUsageCli)
