// The audit chain suite (tst_auditchain.h), part two: checkpoints and keys, the
// published head, the legacy table, appends inside a caller's transaction, list
// filters and CSV cells.

#include "tests/usage/tst_auditchain.h"

void TestAuditChain::forgedCheckpointRejected() {
    auto s = openStore();
    QVERIFY(s);
    writeFive(*s);
    unguard(*s);
    raw(*s, QStringLiteral("DELETE FROM audit_log WHERE seq >= 4"));
    // The writer also rewrites the checkpoint to match the shortened table...
    AuditCheckpoint forged = *AuditLog(*s, AuditSigning{}, m_clock).checkpoint();
    QVERIFY(!forged.isSigned());
    QVERIFY(AuditCheckpoint::writeFile(checkpointFile(), forged, false));
    auto r = AuditLog(*s, signing(), m_clock).verifyChain(checkpointAnchor());
    QVERIFY(!r->ok);
    QCOMPARE(r->status, AuditChainReport::Status::BadAnchor);
    QVERIFY2(r->problem.contains(QStringLiteral("not signed")), qPrintable(r->problem));
    // ...or edits the signed one's count: the signature no longer matches.
    writeFive(*s); // back to a signed checkpoint (entries 4-8 appended)
    auto signedCp = AuditCheckpoint::readFile(checkpointFile());
    QVERIFY(signedCp && signedCp->isSigned());
    AuditCheckpoint edited = *signedCp;
    edited.count = 3;
    edited.head = AuditLog(*s, AuditSigning{}).list()->at(5).hash; // entry 3's hash, newest first
    QVERIFY(AuditCheckpoint::writeFile(checkpointFile(), edited, false));
    const Run run = gq(verifyArgs());
    QCOMPARE(run.code, 1);
    QVERIFY2(run.out.startsWith(QStringLiteral("bad-anchor: ")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("signature does not match")), qPrintable(run.out));
}

void TestAuditChain::wrongKeyIsNotTampering() {
    auto s = openStore();
    QVERIFY(s);
    writeFive(*s);
    AuditSigning other;
    other.key = *AuditKey::fromSecret("a different key, long enough");
    auto r = AuditLog(*s, other, m_clock).verifyChain(checkpointAnchor());
    QVERIFY(!r->ok);
    QCOMPARE(r->status, AuditChainReport::Status::BadAnchor);
    QVERIFY2(r->problem.contains(QStringLiteral("another key")), qPrintable(r->problem));
    QVERIFY(!AuditKey::fromSecret("short"));
}

void TestAuditChain::publishedHeadAnchors() {
    auto s = openStore();
    QVERIFY(s);
    AuditLog log(*s, AuditSigning{}, m_clock); // no key, no checkpoint file: only the head
    for (int i = 0; i < 4; ++i)
        QVERIFY(log.append(QStringLiteral("alice"), QStringLiteral("quota.apply"),
                           QStringLiteral("team-a/ResourceQuota/q"), {}, QString::number(i), {}));
    const QString published = log.head()->toText(); // what gpuquota.io/audit-head carries
    QVERIFY(published.startsWith(QStringLiteral("4:")));
    QCOMPARE(AuditHead::parse(published)->count, qint64(4));
    QVERIFY(!AuditHead::parse(QStringLiteral("4:xyz")));
    unguard(*s);
    raw(*s, QStringLiteral("DELETE FROM audit_log WHERE seq = 4"));
    const Run run = gq({QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--db"), m_url,
                        QStringLiteral("--head"), published});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.out.contains(QStringLiteral("first missing entry: 4")), qPrintable(run.out));
    const Run bad = gq({QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--db"), m_url,
                        QStringLiteral("--head"), QStringLiteral("nonsense")});
    QCOMPARE(bad.code, 2);
}

void TestAuditChain::legacyTableMigratesAndStaysValid() {
    {
        auto s = openStore();
        QVERIFY(s);
        AuditLog log(*s, AuditSigning{}, m_clock);
        for (int i = 0; i < 3; ++i)
            QVERIFY(log.append(QStringLiteral("alice"), QStringLiteral("quota.apply"), QStringLiteral("t"),
                               {}, QString::number(i), {}));
        // A database from before the MAC column.
        raw(*s, QStringLiteral("ALTER TABLE audit_log DROP COLUMN mac"));
    }
    auto s = openStore(); // migrates again
    QVERIFY(s);
    auto listed = AuditLog(*s, AuditSigning{}).list();
    QVERIFY(listed);
    QCOMPARE(listed->size(), 3);
    QVERIFY(listed->first().mac.isEmpty());
    auto keyed = AuditLog(*s, signing(), m_clock).verifyChain();
    QVERIFY(keyed->ok);
    QCOMPARE(keyed->keyedFrom, qint64(0));
    // Signing starts with the next entry; the old ones are covered by its hash.
    AuditLog log(*s, signing(), m_clock);
    QVERIFY(
        log.append(QStringLiteral("bob"), QStringLiteral("quota.apply"), QStringLiteral("t"), {}, {}, {}));
    QCOMPARE(AuditCheckpoint::readFile(checkpointFile())->keyedFrom, qint64(4));
    auto r = log.verifyChain(checkpointAnchor());
    QVERIFY2(r->ok, qPrintable(r->problem));
    QCOMPARE(r->keyedFrom, qint64(4));
    rewriteWithRecomputedHashes(*s, 2, false); // an old, unsigned entry: the MAC of 4 shows it
    auto broken = log.verifyChain(checkpointAnchor());
    QVERIFY(!broken->ok);
    QCOMPARE(broken->firstBadSeq, qint64(4));
}

void TestAuditChain::checkpointNeverMovesBackwards() {
    AuditCheckpoint newer;
    newer.count = 7;
    newer.head = QString(64, QLatin1Char('a'));
    QVERIFY(AuditCheckpoint::writeFile(checkpointFile(), newer));
    AuditCheckpoint older = newer;
    older.count = 6;
    older.head = QString(64, QLatin1Char('b'));
    QVERIFY(AuditCheckpoint::writeFile(checkpointFile(), older)); // a slower writer
    QCOMPARE(AuditCheckpoint::readFile(checkpointFile())->count, qint64(7));
    QVERIFY(AuditCheckpoint::writeFile(checkpointFile(), older, false)); // an explicit export
    QCOMPARE(AuditCheckpoint::readFile(checkpointFile())->count, qint64(6));
    QFile f(checkpointFile());
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write("{\"format\": \"something else\"}");
    f.close();
    auto bad = AuditCheckpoint::readFile(checkpointFile());
    QVERIFY(!bad);
    QCOMPARE(bad.error().kind, Error::Kind::Parse);
}

void TestAuditChain::unreadableKeyRefusesToAppend() {
    auto s = openStore();
    QVERIFY(s);
    qputenv("GQ_AUDIT_KEY_FILE", m_dir.filePath(QStringLiteral("no-such.key")).toLocal8Bit());
    AuditLog log(*s, m_clock); // the environment's signing, as the console's
    qunsetenv("GQ_AUDIT_KEY_FILE");
    auto e =
        log.append(QStringLiteral("alice"), QStringLiteral("quota.apply"), QStringLiteral("t"), {}, {}, {});
    QVERIFY(!e);
    QCOMPARE(e.error().kind, Error::Kind::Io);
    QVERIFY(!e.error().message.contains(QStringLiteral("4f2a9c")));
    QCOMPARE(log.list()->size(), 0);
    // With a readable one, the environment signs and checkpoints.
    qputenv("GQ_AUDIT_KEY_FILE", keyFile().toLocal8Bit());
    qputenv("GQ_AUDIT_CHECKPOINT", checkpointFile().toLocal8Bit());
    AuditLog envLog(*s, m_clock);
    qunsetenv("GQ_AUDIT_KEY_FILE");
    qunsetenv("GQ_AUDIT_CHECKPOINT");
    auto signedEntry = envLog.append(QStringLiteral("alice"), QStringLiteral("quota.apply"),
                                     QStringLiteral("t"), {}, {}, {});
    QVERIFY(signedEntry);
    QVERIFY(!signedEntry->mac.isEmpty());
    QCOMPARE(gq(verifyArgs()).code, 0);
}

void TestAuditChain::checkpointFailureSaysEntryRecorded() {
    auto s = openStore();
    QVERIFY(s);
    AuditSigning sig = signing();
    sig.checkpointPath = m_dir.filePath(QStringLiteral("no-such-dir/audit.checkpoint"));
    AuditLog log(*s, sig, m_clock);
    auto e =
        log.append(QStringLiteral("alice"), QStringLiteral("quota.apply"), QStringLiteral("t"), {}, {}, {});
    QVERIFY(!e);
    QCOMPARE(e.error().kind, Error::Kind::Io);
    QVERIFY2(e.error().message.startsWith(QStringLiteral("audit entry 1 was recorded, but")),
             qPrintable(e.error().message));
    QCOMPARE(log.list()->size(), 1); // the entry stands; only the checkpoint is behind
    QVERIFY(log.verifyChain()->ok);
}

// An append inside a caller's transaction (a boost grant records the boost and its
// entry together) writes the checkpoint only when that transaction commits: rolled
// back, the checkpoint must not claim an entry the table never got.
void TestAuditChain::checkpointWaitsForTheOuterCommit() {
    auto s = openStore();
    QVERIFY(s);
    AuditLog log(*s, signing(), m_clock);
    auto append = [&](const QString &note) {
        return log.append(QStringLiteral("alice"), QStringLiteral("boost.grant"),
                          QStringLiteral("budget/user/bob"), {}, QStringLiteral("{}"), note);
    };
    QVERIFY(append(QStringLiteral("first")));
    QCOMPARE(AuditCheckpoint::readFile(checkpointFile())->count, qint64(1));
    {
        UsageTx tx = s->transaction();
        QVERIFY(tx.begin());
        QVERIFY(append(QStringLiteral("rolled back")));
        QCOMPARE(AuditCheckpoint::readFile(checkpointFile())->count, qint64(1)); // not before the commit
    }                                                                            // no commit: rolled back
    QCOMPARE(log.list()->size(), 1);
    QCOMPARE(AuditCheckpoint::readFile(checkpointFile())->count, qint64(1));
    const Run intact = gq(verifyArgs());
    QVERIFY2(intact.code == 0, qPrintable(intact.out));
    {
        UsageTx tx = s->transaction();
        QVERIFY(tx.begin());
        QVERIFY(append(QStringLiteral("committed")));
        QVERIFY(tx.commit());
    }
    QCOMPARE(AuditCheckpoint::readFile(checkpointFile())->count, qint64(2));
    QCOMPARE(gq(verifyArgs()).code, 0);
}

void TestAuditChain::listFilters() {
    auto s = openStore();
    QVERIFY(s);
    writeFive(*s);
    const QStringList base{QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--db"), m_url};
    const Run all = gq(base);
    QCOMPARE(all.code, 0);
    QVERIFY2(all.out.contains(QStringLiteral("5 entries")), qPrintable(all.out));
    QVERIFY(all.out.indexOf(QStringLiteral("change 1")) < all.out.indexOf(QStringLiteral("change 5")));

    const Run bob = gq(base + QStringList{QStringLiteral("--actor"), QStringLiteral("bob"),
                                          QStringLiteral("-o"), QStringLiteral("json")});
    QCOMPARE(bob.code, 0);
    const QJsonArray bobRows =
        QJsonDocument::fromJson(bob.out.toUtf8()).object().value(QStringLiteral("entries")).toArray();
    QCOMPARE(bobRows.size(), 2);
    QCOMPARE(bobRows.at(0).toObject().value(QStringLiteral("seq")).toInteger(), 2);
    QCOMPARE(bobRows.at(1).toObject().value(QStringLiteral("seq")).toInteger(), 4);

    const Run teamA = gq(base + QStringList{QStringLiteral("--namespace"), QStringLiteral("team-a"),
                                            QStringLiteral("-o"), QStringLiteral("csv")});
    QCOMPARE(teamA.code, 0);
    const QStringList lines = teamA.out.trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 3); // header + entries 1 and 3
    QVERIFY(lines.at(0).startsWith(QStringLiteral("seq,at,actor,action,target")));
    QVERIFY(lines.at(1).startsWith(QStringLiteral("1,")));
    QVERIFY(lines.at(2).startsWith(QStringLiteral("3,")));

    const Run budget = gq(base + QStringList{QStringLiteral("--action"), QStringLiteral("budget.set")});
    QVERIFY2(budget.out.contains(QStringLiteral("1 entry")), qPrintable(budget.out));
    QVERIFY(budget.out.contains(QStringLiteral("budget/user/carol")));

    // Entries are one hour apart from 10:00: [11:00, 13:00) holds entries 2 and 3.
    const Run window = gq(base + QStringList{QStringLiteral("--from"), QStringLiteral("2026-04-01T11:00:00Z"),
                                             QStringLiteral("--to"), QStringLiteral("2026-04-01T13:00:00Z"),
                                             QStringLiteral("-o"), QStringLiteral("json")});
    const QJsonArray windowRows =
        QJsonDocument::fromJson(window.out.toUtf8()).object().value(QStringLiteral("entries")).toArray();
    QCOMPARE(windowRows.size(), 2);
    QCOMPARE(windowRows.at(0).toObject().value(QStringLiteral("seq")).toInteger(), 2);

    QCOMPARE(gq(base + QStringList{QStringLiteral("-o"), QStringLiteral("yaml")}).code, 2);
    QCOMPARE(gq({QStringLiteral("audit"), QStringLiteral("list")}).code, 2); // --db is required
    QCOMPARE(gq({QStringLiteral("audit"), QStringLiteral("frobnicate")}).code, 2);
}

// `audit list -o csv` (and the console's Export CSV, the same auditCsv()): a value a
// spreadsheet would run as a formula is written as quoted text (OWASP), whoever typed it.
void TestAuditChain::csvCellsCannotRunFormulas() {
    auto s = openStore();
    QVERIFY(s);
    AuditLog log(*s, AuditSigning{}, m_clock);
    QVERIFY(log.append(QStringLiteral("=cmd|' /C calc'!A0"), QStringLiteral("quota.apply"),
                       QStringLiteral("team-a/ResourceQuota/q"), QStringLiteral("-4"), QStringLiteral("+4"),
                       QStringLiteral("@SUM(1+1)")));
    QVERIFY(log.append(QStringLiteral("alice"), QStringLiteral("quota.apply"),
                       QStringLiteral("team-a/ResourceQuota/q"), QStringLiteral("4"), QStringLiteral("8"),
                       QStringLiteral("\t=HYPERLINK(\"http://x\")")));
    const Run r = gq({QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--db"), m_url,
                      QStringLiteral("-o"), QStringLiteral("csv")});
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY2(
        lines.at(1).contains(QStringLiteral(
            ",\"'=cmd|' /C calc'!A0\",quota.apply,team-a/ResourceQuota/q,\"'-4\",\"'+4\",\"'@SUM(1+1)\",")),
        qPrintable(lines.at(1)));
    QVERIFY2(lines.at(2).contains(QStringLiteral(",alice,quota.apply,team-a/ResourceQuota/q,4,8,"
                                                 "\"'\t=HYPERLINK(\"\"http://x\"\")\",")),
             qPrintable(lines.at(2)));
}
