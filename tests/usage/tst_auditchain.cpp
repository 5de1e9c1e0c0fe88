// The audit chain suite (tst_auditchain.h), part one: the fixture, the verifier alone,
// and tampering with the rows (edits, deletions, truncation, recomputed hashes).

#include "tests/usage/tst_auditchain.h"

void TestAuditChain::initTestCase() {
    GQ_PREPARE_USAGE_BACKEND(m_backend);
    QVERIFY(m_dir.isValid());
    m_bin = gq::test::gpuquotaBinary();
    QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
    // The environment must not sign the entries of the "no key" cases behind their back.
    qunsetenv("GQ_AUDIT_KEY_FILE");
    qunsetenv("GQ_AUDIT_CHECKPOINT");
}

void TestAuditChain::init() {
    m_url = m_backend.freshUrl();
    m_clock.set(*parseInstant(QStringLiteral("2026-04-01T09:00:00Z")));
    QFile key(keyFile());
    QVERIFY(key.open(QIODevice::WriteOnly | QIODevice::Truncate));
    key.write("4f2a9c1e8b7d6a5f3e2d1c0b9a8f7e6d5c4b3a29181716151413121110090807\n");
    key.close();
    QFile::remove(checkpointFile());
}

void TestAuditChain::cleanup() {
    const QString err = m_backend.dropSchemas();
    QVERIFY2(err.isEmpty(), qPrintable(err));
}

TestAuditChain::Run TestAuditChain::gq(const QStringList &args) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("GQ_AUDIT_KEY_FILE"));
    env.remove(QStringLiteral("GQ_AUDIT_CHECKPOINT"));
    return gq::test::runCli(m_bin, args, env);
}

std::unique_ptr<UsageStore> TestAuditChain::openStore() {
    auto s = UsageStore::open(m_url);
    if (!s) {
        qWarning("open failed: %s", qPrintable(s.error().message));
        return {};
    }
    return std::move(*s);
}

AuditSigning TestAuditChain::signing(bool withKey) const {
    AuditSigning s;
    if (withKey)
        s.key = *AuditKey::fromFile(keyFile());
    s.checkpointPath = checkpointFile();
    return s;
}

void TestAuditChain::writeFive(UsageStore &store) {
    AuditLog log(store, signing(), m_clock);
    const QStringList targets{QStringLiteral("team-a/ResourceQuota/gpu-quota"),
                              QStringLiteral("team-b/ResourceQuota/gpu-quota"),
                              QStringLiteral("team-a/LimitRange/limits"), QStringLiteral("budget/user/carol"),
                              QStringLiteral("team-b/ResourceQuota/gpu-quota")};
    for (int i = 0; i < targets.size(); ++i) {
        m_clock.advance(3600);
        auto e =
            log.append(i % 2 ? QStringLiteral("bob") : QStringLiteral("alice"),
                       i == 3 ? QStringLiteral("budget.set") : QStringLiteral("quota.apply"), targets.at(i),
                       QString::number(i), QString::number(i + 1), QStringLiteral("change %1").arg(i + 1));
        QVERIFY2(e, e ? "" : qPrintable(e.error().message));
    }
}

void TestAuditChain::raw(UsageStore &store, const QString &sql) {
    QSqlQuery q(store.database());
    QVERIFY2(q.exec(sql), qPrintable(sql + QStringLiteral(": ") + q.lastError().text()));
}

void TestAuditChain::unguard(UsageStore &store) {
    // Someone with raw database access switches the append-only guard off.
    if (test::usePostgres()) {
        raw(store, QStringLiteral("ALTER TABLE audit_log DISABLE TRIGGER USER"));
    } else {
        raw(store, QStringLiteral("DROP TRIGGER IF EXISTS audit_log_no_update"));
        raw(store, QStringLiteral("DROP TRIGGER IF EXISTS audit_log_no_delete"));
    }
}

void TestAuditChain::rewriteWithRecomputedHashes(UsageStore &store, qint64 seq, bool clearMacs) {
    unguard(store);
    auto listed = AuditLog(store, AuditSigning{}).list();
    QVERIFY(listed);
    QList<AuditEntry> entries = *listed;
    std::sort(entries.begin(), entries.end(), [](const auto &a, const auto &b) { return a.seq < b.seq; });
    QString prev = seq > 1 ? entries.at(seq - 2).hash : QString(64, QLatin1Char('0'));
    for (AuditEntry e : entries) {
        if (e.seq < seq)
            continue;
        if (e.seq == seq)
            e.after = QStringLiteral("999");
        e.prevHash = prev;
        e.hash = e.computeHash();
        prev = e.hash;
        QSqlQuery q(store.database());
        QVERIFY(q.prepare(QStringLiteral(
            "UPDATE audit_log SET after_text = ?, prev_hash = ?, hash = ?, mac = ? WHERE seq = ?")));
        q.addBindValue(e.after);
        q.addBindValue(e.prevHash);
        q.addBindValue(e.hash);
        q.addBindValue(clearMacs ? QStringLiteral("") : e.mac);
        q.addBindValue(e.seq);
        QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
    }
}

AuditAnchor TestAuditChain::checkpointAnchor() const {
    AuditAnchor a;
    auto cp = AuditCheckpoint::readFile(checkpointFile());
    if (cp)
        a.checkpoint = *cp;
    else
        qWarning("%s", qPrintable(cp.error().message));
    return a;
}

QStringList TestAuditChain::verifyArgs(bool withKey, bool withCheckpoint) const {
    QStringList args{QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--db"), m_url};
    if (withKey)
        args << QStringLiteral("--key-file") << keyFile();
    if (withCheckpoint)
        args << QStringLiteral("--checkpoint") << checkpointFile();
    return args;
}

// The verifier alone, on chains built in memory: what each kind of tampering is
// reported as, with the key and a signed checkpoint of the untouched chain.
enum class Tamper { None, Edit, DropMiddle, DropLast, DropAll, EditRecompute, StripMacs };
Q_DECLARE_METATYPE(Tamper)

void TestAuditChain::verifierSpec_data() {
    QTest::addColumn<Tamper>("tamper");
    QTest::addColumn<AuditChainReport::Status>("status");
    QTest::addColumn<qint64>("firstBad");
    QTest::addColumn<qint64>("firstMissing");
    using S = AuditChainReport::Status;
    QTest::newRow("intact") << Tamper::None << S::Intact << qint64(0) << qint64(0);
    QTest::newRow("entry 2 edited") << Tamper::Edit << S::Rewritten << qint64(2) << qint64(0);
    QTest::newRow("entry 2 deleted") << Tamper::DropMiddle << S::Deleted << qint64(3) << qint64(2);
    QTest::newRow("entry 4 deleted") << Tamper::DropLast << S::Truncated << qint64(4) << qint64(4);
    QTest::newRow("all deleted") << Tamper::DropAll << S::Truncated << qint64(1) << qint64(1);
    QTest::newRow("entry 2 edited, hashes recomputed")
        << Tamper::EditRecompute << S::Rewritten << qint64(2) << qint64(0);
    QTest::newRow("... and MACs stripped") << Tamper::StripMacs << S::Rewritten << qint64(2) << qint64(0);
}

void TestAuditChain::verifierSpec() {
    QFETCH(Tamper, tamper);
    QFETCH(AuditChainReport::Status, status);
    QFETCH(qint64, firstBad);
    QFETCH(qint64, firstMissing);
    const std::optional<AuditKey> key = AuditKey::fromSecret("0123456789abcdef0123456789abcdef").value();
    QList<AuditEntry> chain;
    QString prev(64, QLatin1Char('0'));
    for (qint64 seq = 1; seq <= 4; ++seq) {
        AuditEntry e;
        e.seq = seq;
        e.at = 1000 * seq;
        e.actor = QStringLiteral("alice");
        e.action = QStringLiteral("quota.apply");
        e.after = QString::number(seq);
        e.prevHash = prev;
        e.hash = e.computeHash();
        e.mac = e.computeMac(*key);
        prev = e.hash;
        chain << e;
    }
    AuditCheckpoint cp;
    cp.count = 4;
    cp.head = prev;
    cp.keyedFrom = 1;
    cp.sign(*key);
    auto recomputeFrom = [&](int index, bool strip) {
        QString p = index > 0 ? chain[index - 1].hash : QString(64, QLatin1Char('0'));
        for (int i = index; i < chain.size(); ++i) {
            chain[i].prevHash = p;
            chain[i].hash = chain[i].computeHash();
            if (strip)
                chain[i].mac.clear();
            p = chain[i].hash;
        }
    };
    switch (tamper) {
    case Tamper::None: break;
    case Tamper::Edit: chain[1].after = QStringLiteral("99"); break;
    case Tamper::DropMiddle: chain.removeAt(1); break;
    case Tamper::DropLast: chain.removeLast(); break;
    case Tamper::DropAll: chain.clear(); break;
    case Tamper::EditRecompute:
    case Tamper::StripMacs:
        chain[1].after = QStringLiteral("99");
        recomputeFrom(1, tamper == Tamper::StripMacs);
        break;
    }
    AuditAnchor anchor;
    anchor.checkpoint = cp;
    AuditChainVerifier v(key, anchor);
    for (const AuditEntry &e : std::as_const(chain))
        if (!v.add(e))
            break;
    const AuditChainReport r = v.finish();
    QCOMPARE(r.status, status);
    QCOMPARE(r.ok, status == AuditChainReport::Status::Intact);
    QCOMPARE(r.firstBadSeq, firstBad);
    QCOMPARE(r.firstMissingSeq, firstMissing);
    QCOMPARE(r.problem.isEmpty(), r.ok);
}

void TestAuditChain::intactWithKeyAndCheckpoint() {
    auto s = openStore();
    QVERIFY(s);
    writeFive(*s);
    auto cp = AuditCheckpoint::readFile(checkpointFile());
    QVERIFY2(cp, cp ? "" : qPrintable(cp.error().message));
    QCOMPARE(cp->count, qint64(5));
    QCOMPARE(cp->keyedFrom, qint64(1));
    QVERIFY(cp->isSigned());
    QCOMPARE(cp->at, m_clock.nowSecs());
    QCOMPARE(cp->head, AuditLog(*s, AuditSigning{}).head()->hash);

    AuditLog log(*s, signing(), m_clock);
    auto r = log.verifyChain(checkpointAnchor());
    QVERIFY(r);
    QVERIFY2(r->ok, qPrintable(r->problem));
    QCOMPARE(r->status, AuditChainReport::Status::Intact);
    QCOMPARE(r->checked, qint64(5));
    QCOMPARE(r->keyedFrom, qint64(1));
    QVERIFY(r->macsChecked);
    QCOMPARE(r->anchoredUpTo, qint64(5));
    QVERIFY2(r->notes.isEmpty(), qPrintable(r->notes.join(QLatin1Char('\n'))));

    const Run run = gq(verifyArgs());
    QCOMPARE(run.code, 0);
    QVERIFY2(run.out.contains(QStringLiteral("intact: 5 entries, head 5:") + cp->head), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("MACs verified from entry 1")), qPrintable(run.out));
    QVERIFY2(!run.out.contains(QStringLiteral("note:")), qPrintable(run.out));
    // Without the key and the checkpoint it still passes, and says what it could not prove.
    const Run bare = gq(verifyArgs(false, false));
    QCOMPARE(bare.code, 0);
    QVERIFY2(bare.out.contains(QStringLiteral("note: no key given")), qPrintable(bare.out));
    QVERIFY2(bare.out.contains(QStringLiteral("note: no checkpoint given")), qPrintable(bare.out));
}

void TestAuditChain::modifiedRowNamed() {
    auto s = openStore();
    QVERIFY(s);
    writeFive(*s);
    unguard(*s);
    raw(*s, QStringLiteral("UPDATE audit_log SET note = 'nothing to see' WHERE seq = 3"));
    auto r = AuditLog(*s, signing(), m_clock).verifyChain(checkpointAnchor());
    QVERIFY(r);
    QVERIFY(!r->ok);
    QCOMPARE(r->status, AuditChainReport::Status::Rewritten);
    QCOMPARE(r->firstBadSeq, qint64(3));
    QVERIFY2(r->problem.contains(QStringLiteral("content changed")), qPrintable(r->problem));
    // Found with neither key nor checkpoint too: the plain chain catches a naive edit.
    QCOMPARE(AuditLog(*s, AuditSigning{}).verifyChain()->firstBadSeq, qint64(3));

    const Run run = gq(verifyArgs());
    QCOMPARE(run.code, 1);
    QVERIFY2(run.out.contains(QStringLiteral("first broken entry: 3")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("content changed")), qPrintable(run.out));
}

void TestAuditChain::deletedMiddleRow() {
    auto s = openStore();
    QVERIFY(s);
    writeFive(*s);
    unguard(*s);
    raw(*s, QStringLiteral("DELETE FROM audit_log WHERE seq = 3"));
    auto r = AuditLog(*s, signing(), m_clock).verifyChain(checkpointAnchor());
    QVERIFY(!r->ok);
    QCOMPARE(r->status, AuditChainReport::Status::Deleted);
    QCOMPARE(r->firstMissingSeq, qint64(3));
    QCOMPARE(r->firstBadSeq, qint64(4));
    QVERIFY2(r->problem.contains(QStringLiteral("entry 3 is missing")), qPrintable(r->problem));

    const Run run = gq(verifyArgs());
    QCOMPARE(run.code, 1);
    QVERIFY2(run.out.startsWith(QStringLiteral("deleted: ")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("first missing entry: 3")), qPrintable(run.out));
}

void TestAuditChain::truncatedTailAgainstCheckpoint() {
    auto s = openStore();
    QVERIFY(s);
    writeFive(*s);
    unguard(*s);
    raw(*s, QStringLiteral("DELETE FROM audit_log WHERE seq >= 4"));
    // The table alone is a valid shorter chain: that is why the anchor exists.
    auto alone = AuditLog(*s, signing(), m_clock).verifyChain();
    QVERIFY(alone->ok);
    QVERIFY(alone->notes.join(QLatin1Char(' ')).contains(QStringLiteral("no checkpoint given")));

    auto r = AuditLog(*s, signing(), m_clock).verifyChain(checkpointAnchor());
    QVERIFY(!r->ok);
    QCOMPARE(r->status, AuditChainReport::Status::Truncated);
    QCOMPARE(r->firstMissingSeq, qint64(4));
    QCOMPARE(r->firstBadSeq, qint64(4));
    QVERIFY2(r->problem.contains(QStringLiteral("entries 4-5 were deleted")), qPrintable(r->problem));

    const Run run = gq(verifyArgs());
    QCOMPARE(run.code, 1);
    QVERIFY2(run.out.startsWith(QStringLiteral("truncated: ")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("first missing entry: 4")), qPrintable(run.out));
    // An unsigned reading of the same checkpoint (no key) still sees the truncation.
    const Run keyless = gq(verifyArgs(false, true));
    QCOMPARE(keyless.code, 1);
    QVERIFY2(keyless.out.contains(QStringLiteral("first missing entry: 4")), qPrintable(keyless.out));
}

void TestAuditChain::allEntriesDeleted() {
    auto s = openStore();
    QVERIFY(s);
    writeFive(*s);
    unguard(*s);
    raw(*s, QStringLiteral("DELETE FROM audit_log"));
    auto r = AuditLog(*s, signing(), m_clock).verifyChain(checkpointAnchor());
    QVERIFY(!r->ok);
    QCOMPARE(r->status, AuditChainReport::Status::Truncated);
    QCOMPARE(r->firstMissingSeq, qint64(1));
    QCOMPARE(r->checked, qint64(0));
    QVERIFY2(r->problem.contains(QStringLiteral("all 5 entries were deleted")), qPrintable(r->problem));

    const Run run = gq(verifyArgs());
    QCOMPARE(run.code, 1);
    QVERIFY2(run.out.contains(QStringLiteral("first missing entry: 1")), qPrintable(run.out));
    // Deleting the checkpoint as well does not make the empty table pass either.
    QVERIFY(QFile::remove(checkpointFile()));
    QVERIFY(QFile::exists(keyFile()));
    const Run gone = gq(verifyArgs());
    QCOMPARE(gone.code, 0); // nothing left to anchor: an empty table with no checkpoint is a new log
    writeFive(*s);          // ...but once entries exist, a missing checkpoint is an alarm
    QVERIFY(QFile::remove(checkpointFile()));
    const Run missing = gq(verifyArgs());
    QCOMPARE(missing.code, 1);
    QVERIFY2(missing.err.contains(QStringLiteral("does not exist")), qPrintable(missing.err));
}

void TestAuditChain::recomputedRewriteNeedsTheKey() {
    auto s = openStore();
    QVERIFY(s);
    writeFive(*s);
    rewriteWithRecomputedHashes(*s, 2, false);
    // Plain SHA-256 cannot tell: this is the limit of a keyless chain without an anchor.
    auto plain = AuditLog(*s, AuditSigning{}).verifyChain();
    QVERIFY(plain->ok);
    QVERIFY(plain->notes.join(QLatin1Char(' ')).contains(QStringLiteral("no key given")));
    // The checkpoint's head alone (no key) shows that something at or before entry 5 changed.
    auto headOnly = AuditLog(*s, AuditSigning{}).verifyChain(checkpointAnchor());
    QVERIFY(!headOnly->ok);
    QCOMPARE(headOnly->firstBadSeq, qint64(5));
    // The key names the entry that was rewritten, with or without the checkpoint.
    for (bool withCheckpoint : {false, true}) {
        auto r =
            AuditLog(*s, signing(), m_clock).verifyChain(withCheckpoint ? checkpointAnchor() : AuditAnchor{});
        QVERIFY(!r->ok);
        QCOMPARE(r->status, AuditChainReport::Status::Rewritten);
        QCOMPARE(r->firstBadSeq, qint64(2));
        QVERIFY2(r->problem.contains(QStringLiteral("MAC mismatch")), qPrintable(r->problem));
    }

    const Run run = gq(verifyArgs(true, false));
    QCOMPARE(run.code, 1);
    QVERIFY2(run.out.contains(QStringLiteral("first broken entry: 2")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("MAC mismatch")), qPrintable(run.out));
    const Run json = gq(verifyArgs() << QStringLiteral("-o") << QStringLiteral("json"));
    QCOMPARE(json.code, 1);
    const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("rewritten"));
    QCOMPARE(o.value(QStringLiteral("firstBadSeq")).toInteger(), 2);
}

void TestAuditChain::strippedMacsDetected() {
    auto s = openStore();
    QVERIFY(s);
    writeFive(*s);
    rewriteWithRecomputedHashes(*s, 3, true);
    auto r = AuditLog(*s, signing(), m_clock).verifyChain();
    QVERIFY(!r->ok);
    QCOMPARE(r->firstBadSeq, qint64(3));
    QVERIFY2(r->problem.contains(QStringLiteral("MAC was removed")), qPrintable(r->problem));

    // Everything rewritten and stripped from the first entry on: only the signed
    // checkpoint (which says entries are signed from entry 1) can tell.
    rewriteWithRecomputedHashes(*s, 1, true);
    auto noAnchor = AuditLog(*s, signing(), m_clock).verifyChain();
    QVERIFY(noAnchor->ok);
    QVERIFY(noAnchor->notes.join(QLatin1Char(' ')).contains(QStringLiteral("no entry carries a MAC")));
    auto anchored = AuditLog(*s, signing(), m_clock).verifyChain(checkpointAnchor());
    QVERIFY(!anchored->ok);
    QCOMPARE(anchored->firstBadSeq, qint64(1));
    const Run run = gq(verifyArgs());
    QCOMPARE(run.code, 1);
    QVERIFY2(run.out.contains(QStringLiteral("first broken entry: 1")), qPrintable(run.out));
}

QTEST_GUILESS_MAIN(TestAuditChain)
