#pragma once

#include "tests/clirun.h"
#include "core/usage/dburl.h"
#include "tests/usage/usagebackend.h"

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

#include "core/usage/auditlog.h"
#include "core/usage/usagestore.h"

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
    void checkOnALockedDatabaseIsARuntimeError();
    void budgetSubcommandsHaveHelp();

private:
    using Run = gq::test::CliRun;
    Run gq(const QStringList &args, const QByteArray &stdinData = {});
    QString db() const { return QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("cli.db")); }

    QString writeFile(const QString &name, const QByteArray &data) const;
    QString exportOf(const QString &url);

    QTemporaryDir m_dir;
    QString m_bin;
    gq::test::UsageTestBackend m_backend{"gq_cli"};
};

inline const QString kFixtures = QStringLiteral(GQ_TEST_FIXTURES "/usage/");
