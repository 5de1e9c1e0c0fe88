#include "auditlog.h"
#include "auditverifier.h"
#include "timewindow.h"
#include "usage/usagebackend.h"
#include "usageconnection.h"
#include "usagestore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace gq;

// The audit chain against someone who can write the database: edits, deleted rows,
// deleted last rows, an emptied table, and edits with every later hash recomputed.
// Each case is checked through AuditLog and through the real `gpuquota audit` binary,
// on SQLite and PostgreSQL.
class TestAuditChain : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();

    void verifierSpec_data();
    void verifierSpec();
    void intactWithKeyAndCheckpoint();
    void modifiedRowNamed();
    void deletedMiddleRow();
    void truncatedTailAgainstCheckpoint();
    void allEntriesDeleted();
    void recomputedRewriteNeedsTheKey();
    void strippedMacsDetected();
    void forgedCheckpointRejected();
    void wrongKeyIsNotTampering();
    void publishedHeadAnchors();
    void legacyTableMigratesAndStaysValid();
    void checkpointNeverMovesBackwards();
    void unreadableKeyRefusesToAppend();
    void checkpointFailureSaysEntryRecorded();
    void checkpointWaitsForTheOuterCommit();
    void listFilters();
    void csvCellsCannotRunFormulas();

private:
    struct Run {
        int code = -1;
        QString out;
        QString err;
    };
    Run gq(const QStringList &args);
    std::unique_ptr<UsageStore> openStore();
    AuditSigning signing(bool withKey = true) const;
    // Five entries by alice/bob in two namespaces, written with the key and checkpoint.
    void writeFive(UsageStore &store);
    void unguard(UsageStore &store);
    void raw(UsageStore &store, const QString &sql);
    // Sets entry `seq`'s after_text and recomputes its hash and every later one, as
    // someone without the key would; MACs are left alone (or cleared).
    void rewriteWithRecomputedHashes(UsageStore &store, qint64 seq, bool clearMacs);
    QString keyFile() const { return m_dir.filePath(QStringLiteral("audit.key")); }
    QString checkpointFile() const { return m_dir.filePath(QStringLiteral("audit.checkpoint")); }
    [[nodiscard]] AuditAnchor checkpointAnchor() const;
    QStringList verifyArgs(bool withKey = true, bool withCheckpoint = true) const;

    test::UsageTestBackend m_backend{"gq_ac"};
    QTemporaryDir m_dir;
    QString m_url;
    QString m_bin;
    ManualClock m_clock{*parseInstant(QStringLiteral("2026-04-01T09:00:00Z"))};
};

void TestAuditChain::initTestCase() {
    GQ_PREPARE_USAGE_BACKEND(m_backend);
    QVERIFY(m_dir.isValid());
    m_bin = qEnvironmentVariable("GQ_BIN_DIR", QStringLiteral(GQ_BINARY_DIR "/bin")) +
            QStringLiteral("/gpuquota");
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
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("GQ_AUDIT_KEY_FILE"));
    env.remove(QStringLiteral("GQ_AUDIT_CHECKPOINT"));
    p.setProcessEnvironment(env);
    p.start(m_bin, args);
    if (!p.waitForStarted(10000) || !p.waitForFinished(60000))
        return {};
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
               QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
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
        UsageTx tx(s->connection());
        QVERIFY(tx.begin());
        QVERIFY(append(QStringLiteral("rolled back")));
        QCOMPARE(AuditCheckpoint::readFile(checkpointFile())->count, qint64(1)); // not before the commit
    }                                                                            // no commit: rolled back
    QCOMPARE(log.list()->size(), 1);
    QCOMPARE(AuditCheckpoint::readFile(checkpointFile())->count, qint64(1));
    const Run intact = gq(verifyArgs());
    QVERIFY2(intact.code == 0, qPrintable(intact.out));
    {
        UsageTx tx(s->connection());
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

QTEST_GUILESS_MAIN(TestAuditChain)
#include "tst_auditchain.moc"
