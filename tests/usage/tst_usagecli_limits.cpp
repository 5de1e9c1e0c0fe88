// The usage CLI suite (tst_usagecli.h), part two: huge ranges, a read-only file system,
// audited changes, bad rows and import limits, formula cells in exports.

#include "tests/usage/tst_usagecli.h"

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
    QCOMPARE(missing.code, 1);
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
