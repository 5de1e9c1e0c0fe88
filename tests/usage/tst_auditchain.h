#pragma once

#include "core/usage/auditlog.h"
#include "core/usage/auditverifier.h"
#include "tests/clirun.h"
#include "core/usage/timewindow.h"
#include "tests/usage/usagebackend.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagestore.h"

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
    using Run = gq::test::CliRun;
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
