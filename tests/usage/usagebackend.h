#pragma once

// The usage database behind a suite that runs twice (gq_add_backend_test in
// tests/CMakeLists.txt): GQ_TEST_BACKEND=sqlite gives a SQLite file in a temporary
// directory, GQ_TEST_BACKEND=postgres a PostgreSQL from GQ_TEST_PG_URL with one fresh
// schema per freshUrl(), dropped by dropSchemas().
//
//     UsageTestBackend m_backend{"gq_t"};
//     void initTestCase() { GQ_PREPARE_USAGE_BACKEND(m_backend); }
//     void init() { m_url = m_backend.freshUrl(); }
//     void cleanup() { const QString err = m_backend.dropSchemas(); QVERIFY2(err.isEmpty(), ...); }

#include "core/usage/dburl.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

namespace gq::test {

// Which database this run of a two-backend suite uses. One binary serves both runs, so
// the suite is compiled once.
[[nodiscard]] inline bool usePostgres() {
    return qEnvironmentVariable("GQ_TEST_BACKEND") == QLatin1String("postgres");
}

// The PostgreSQL URL `base` with its objects in `schema`.
[[nodiscard]] inline QString withPgSchema(const QString &base, const QString &schema) {
    return base +
           (base.contains(QLatin1Char('?')) ? QStringLiteral("&schema=") : QStringLiteral("?schema=")) +
           schema;
}

// Drops `schemas` (and all in them) from the PostgreSQL database at `base`; empty on
// success, else the first error. A plain connection, not a UsageStore: opening a store
// would migrate (create tables in) the public schema of the shared test database.
[[nodiscard]] inline QString dropPgSchemas(const QString &base, const QStringList &schemas,
                                           const QString &connectionName) {
    const auto url = DbUrl::parse(base);
    if (!url)
        return url.error().toString();
    QString err;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connectionName);
        db.setHostName(url->host);
        db.setPort(url->port);
        db.setUserName(url->user);
        db.setDatabaseName(url->database);
        if (!db.open()) {
            err = db.lastError().text();
        } else {
            QSqlQuery q(db);
            for (const QString &s : schemas)
                if (!q.exec(QStringLiteral("DROP SCHEMA IF EXISTS \"%1\" CASCADE").arg(s)) && err.isEmpty())
                    err = q.lastError().text();
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(connectionName);
    return err;
}

// Lifts the audit log's append-only guard, as someone with raw database access could:
// for the tests of tamper detection. False when a statement fails.
[[nodiscard]] inline bool unguardAuditLog(const QSqlDatabase &db) {
    QSqlQuery q(db);
    if (usePostgres())
        return q.exec(QStringLiteral("ALTER TABLE audit_log DISABLE TRIGGER USER"));
    return q.exec(QStringLiteral("DROP TRIGGER audit_log_no_update")) &&
           q.exec(QStringLiteral("DROP TRIGGER audit_log_no_delete"));
}

class UsageTestBackend {
public:
    enum class Readiness { Ready, Fail, Skip };
    struct Status {
        Readiness readiness;
        const char *message;
    };

    // schemaPrefix names the PostgreSQL schemas, so that a leftover one says which
    // suite made it.
    explicit UsageTestBackend(const char *schemaPrefix)
        : m_prefix(QLatin1String(schemaPrefix)) {}

    // For initTestCase, through GQ_PREPARE_USAGE_BACKEND. Without GQ_TEST_PG_URL the
    // PostgreSQL suite fails under CI=true (CI must not pass by skipping it) and skips
    // elsewhere.
    [[nodiscard]] Status prepare() {
        if (!m_dir.isValid())
            return {Readiness::Fail, "cannot create a temporary directory"};
        if (!usePostgres())
            return {Readiness::Ready, ""};
        m_pgBase = qEnvironmentVariable("GQ_TEST_PG_URL");
        if (m_pgBase.isEmpty()) {
            if (qEnvironmentVariable("CI") == QLatin1String("true"))
                return {Readiness::Fail,
                        "CI=true but GQ_TEST_PG_URL is not set: the PostgreSQL suite must run "
                        "in CI (scripts/start-services.sh exports it)"};
            return {Readiness::Skip,
                    "GQ_TEST_PG_URL not set (source scripts/start-services.sh to run against PostgreSQL)"};
        }
        return {Readiness::Ready, ""};
    }

    // A database no other call has handed out.
    QString freshUrl() {
        ++m_counter;
        if (!usePostgres())
            return QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage-%1.db").arg(m_counter));
        const QString schema = m_prefix + QStringLiteral("%1_%2_%3")
                                              .arg(QCoreApplication::applicationPid())
                                              .arg(QRandomGenerator::global()->bounded(1000000))
                                              .arg(m_counter);
        m_schemas << schema;
        return withPgSchema(m_pgBase, schema);
    }

    // Drops every schema freshUrl() handed out so far; empty on success, else why not.
    // SQLite files go with the temporary directory.
    QString dropSchemas() {
        if (m_pgBase.isEmpty() || m_schemas.isEmpty())
            return {};
        const QString err = dropPgSchemas(m_pgBase, m_schemas, QStringLiteral("gq-test-admin"));
        m_schemas.clear();
        return err;
    }

private:
    QTemporaryDir m_dir;
    QString m_prefix;
    QString m_pgBase;
    QStringList m_schemas;
    int m_counter = 0;
};

} // namespace gq::test

// QFAIL and QSKIP return from the test function, so they stand here, not in prepare().
#define GQ_PREPARE_USAGE_BACKEND(backend)                                                                    \
    do {                                                                                                     \
        const ::gq::test::UsageTestBackend::Status gqBackendStatus_ = (backend).prepare();                   \
        if (gqBackendStatus_.readiness == ::gq::test::UsageTestBackend::Readiness::Fail)                     \
            QFAIL(gqBackendStatus_.message);                                                                 \
        if (gqBackendStatus_.readiness == ::gq::test::UsageTestBackend::Readiness::Skip)                     \
            QSKIP(gqBackendStatus_.message);                                                                 \
    } while (false)
