// The usage CLI suite (tst_usagecli.h), part three (issue 31 item 16): `check` on a
// database another session holds locked ends as a runtime failure (exit 1, like every
// other verb), not as a usage error (2); `budget set|delete --help` print the help.

#include "tests/usage/tst_usagecli.h"

void TestUsageCli::checkOnALockedDatabaseIsARuntimeError() {
    const QString url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("locked.db"));
    QCOMPARE(gq({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), url,
                 QStringLiteral("--user"), QStringLiteral("alice"), QStringLiteral("--limit"),
                 QStringLiteral("8")})
                 .code,
             0);
    const auto parsed = gq::DbUrl::parse(url);
    QVERIFY(parsed);
    {
        // Exclusive locking mode: even WAL readers wait, then time out.
        QSqlDatabase holder = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("locker"));
        holder.setDatabaseName(parsed->path);
        QVERIFY2(holder.open(), qPrintable(holder.lastError().text()));
        QSqlQuery q(holder);
        QVERIFY2(q.exec(QStringLiteral("PRAGMA locking_mode = EXCLUSIVE")), qPrintable(q.lastError().text()));
        QVERIFY2(q.exec(QStringLiteral("BEGIN EXCLUSIVE")), qPrintable(q.lastError().text()));
        QVERIFY2(q.exec(QStringLiteral("DELETE FROM budgets WHERE 0")), qPrintable(q.lastError().text()));
        const Run r = gq({QStringLiteral("check"), QStringLiteral("--db"), url, QStringLiteral("--user"),
                          QStringLiteral("alice"), QStringLiteral("--gpus"), QStringLiteral("1"),
                          QStringLiteral("--hours"), QStringLiteral("1")});
        QVERIFY2(r.code == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(r.err)));
        QVERIFY2(r.err.contains(QStringLiteral("lock"), Qt::CaseInsensitive), qPrintable(r.err));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out)); // no decision printed
        QVERIFY(q.exec(QStringLiteral("ROLLBACK")));
        q.finish();
        holder.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("locker"));
}

void TestUsageCli::budgetSubcommandsHaveHelp() {
    for (const char *sub : {"set", "delete", "list"}) {
        for (const char *flag : {"--help", "-h"}) {
            const Run r = gq({QStringLiteral("budget"), QLatin1String(sub), QLatin1String(flag)});
            QVERIFY2(r.code == 0, qPrintable(QStringLiteral("budget %1 %2: exit %3: %4")
                                                 .arg(QLatin1String(sub), QLatin1String(flag))
                                                 .arg(r.code)
                                                 .arg(r.err)));
            QVERIFY2(r.out.contains(QStringLiteral("gpuquota budget set")), qPrintable(r.out));
            QVERIFY2(!r.err.contains(QStringLiteral("needs a value")), qPrintable(r.err));
        }
    }
    // After other flags too.
    const Run late = gq({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--user"),
                         QStringLiteral("alice"), QStringLiteral("--help")});
    QCOMPARE(late.code, 0);
}
