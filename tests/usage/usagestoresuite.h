#pragma once

// What the UsageStore suites share (tst_usagestore_intervals, tst_usagestore_budgets,
// tst_usagestore_schema): one fresh database per test function on the run's backend
// (usage/usagebackend.h), ways to open it and to change it behind the store's back, and
// the suites' instant and interval helpers. Each suite derives from UsageStoreSuite and
// lists this header among its SOURCES, so that moc sees the fixture slots.

#include "core/usage/usagestore.h"
#include "tests/usage/usagebackend.h"
#include "tests/usagetestdata.h"

#include <QObject>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <memory>
#include <optional>

namespace gq::test {

class UsageStoreSuite : public QObject {
    Q_OBJECT
protected:
    // schemaPrefix names the suite's PostgreSQL schemas (see UsageTestBackend).
    explicit UsageStoreSuite(const char *schemaPrefix)
        : m_backend(schemaPrefix) {}

    // An RFC 3339 instant in seconds.
    static qint64 t(const char *s) { return *parseInstant(QString::fromLatin1(s)); }

    static UsageInterval mk(const QString &ns, const QString &user, const QString &uid, int gpus,
                            qint64 start, std::optional<qint64> end,
                            const QString &resource = QStringLiteral("nvidia.com/gpu")) {
        // The shared test interval, on this suite's cluster and with the uid as given.
        UsageInterval u = gq::test::interval(ns, user, QStringLiteral("pod-") + uid, gpus, start, end);
        u.cluster = QStringLiteral("prod");
        u.podUid = uid;
        u.resource = resource;
        return u;
    }

    // Rebuilds the rollups from the intervals and fails the test, naming the round and
    // the table, when that changed any cell: what the loads wrote was exact.
    static void verifyRollupsExact(UsageStore &s, int round) {
        auto check = s.rebuildRollups();
        QVERIFY2(check, check ? "" : qPrintable(check.error().message));
        for (const auto &tr : check->tables)
            QVERIFY2(!tr.added && !tr.changed && !tr.removed,
                     qPrintable(QStringLiteral("round %1, %2: %3 added, %4 changed, %5 removed")
                                    .arg(round)
                                    .arg(tr.table)
                                    .arg(tr.added)
                                    .arg(tr.changed)
                                    .arg(tr.removed)));
    }

    std::unique_ptr<UsageStore> openStore(bool cacheChecks = false) {
        UsageStore::Options options;
        options.cacheChecks = cacheChecks;
        auto s = UsageStore::open(m_url, options);
        if (!s) {
            qWarning("open failed: %s", qPrintable(s.error().message));
            return {};
        }
        return std::move(*s);
    }

    static void rawExec(UsageStore &store, const QString &sql) {
        QSqlQuery q(store.database());
        if (!q.exec(sql))
            qWarning("%s: %s", qPrintable(sql), qPrintable(q.lastError().text()));
    }

    // Opens a fresh store and runs `sql` on it behind its back; false if it did not open.
    bool tamperWith(const QString &sql) {
        auto s = openStore();
        if (!s)
            return false;
        rawExec(*s, sql);
        return true;
    }

    UsageTestBackend m_backend;
    QString m_url; // this test function's database

private slots:
    void initTestCase() { GQ_PREPARE_USAGE_BACKEND(m_backend); }
    void init() { m_url = m_backend.freshUrl(); }
    void cleanup() {
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }
};

} // namespace gq::test
