// BulkLoader's tables without their keys (PostgreSQL, huge loads: the intervals, and
// the rollup tables that were empty); see bulkloader.h.
#include "core/usage/bulkloader.h"

#include "core/usage/pgcopy.h"
#include "core/usage/rollups.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usageschema.h"

#include <QSqlQuery>

namespace gq {

Result<void> BulkLoader::takePlainRollups(UsageStore::BulkLoad &load) {
    if (!m_conn.isPostgres() || !copier())
        return {};
    for (int t = 0; t < 4; ++t) {
        const RollupTable &tab = kRollupTables[t];
        const QString name = QString::fromLatin1(tab.name);
        // Dropping the table's secondary index already locked it (ACCESS EXCLUSIVE)
        // until commit, so no other session can add a row between here and there.
        QSqlQuery q(m_conn.database());
        if (auto r = m_conn.execSql(q, QStringLiteral("SELECT 1 FROM %1 LIMIT 1").arg(name)); !r)
            return r;
        const bool empty = !q.next();
        q.finish();
        if (!empty)
            continue;
        QSqlQuery c(m_conn.database());
        if (auto r = m_conn.execSql(c, QStringLiteral("SELECT conname FROM pg_constraint WHERE conrelid = "
                                                      "CAST('%1' AS regclass) AND contype = 'p'")
                                           .arg(name));
            !r)
            return r;
        const QString key = c.next() ? c.value(0).toString() : QString();
        c.finish();
        if (key.isEmpty())
            continue;
        QSqlQuery d(m_conn.database());
        if (auto r =
                m_conn.execSql(d, QStringLiteral("ALTER TABLE %1 DROP CONSTRAINT \"%2\"").arg(name, key));
            !r)
            return r;
        load.m_plainRollups |= 1u << t;
    }
    return {};
}

Result<void> BulkLoader::takeIntervalKeys(UsageStore::BulkLoad &load) {
    if (!m_conn.isPostgres() || !copier())
        return {};
    // Dropping the secondary indexes already locked the table (ACCESS EXCLUSIVE).
    QSqlQuery c(m_conn.database());
    if (auto r =
            m_conn.execSql(c, QStringLiteral("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                                             "WHERE conrelid = CAST('usage_intervals' AS regclass) AND "
                                             "contype IN ('p', 'u') ORDER BY contype, conname"));
        !r)
        return r;
    QStringList names;
    while (c.next()) {
        names << c.value(0).toString();
        load.m_intervalKeys
            << QStringLiteral("ADD CONSTRAINT \"%1\" %2").arg(names.back(), c.value(1).toString());
    }
    c.finish();
    for (const QString &name : names) {
        QSqlQuery d(m_conn.database());
        if (auto r = m_conn.execSql(
                d, QStringLiteral("ALTER TABLE usage_intervals DROP CONSTRAINT \"%1\"").arg(name));
            !r)
            return r;
    }
    return {};
}

RollupWriter::PlainTables BulkLoader::plainTables(const UsageStore::BulkLoad &load) const {
    return {m_copy.get(), load.m_plainRollups};
}

Result<void> BulkLoader::restoreIntervalKeys(UsageStore::BulkLoad &load, bool withIndexes) {
    if (!load.m_intervalKeys.isEmpty()) {
        QSqlQuery q(m_conn.database());
        if (auto r = m_conn.execSql(q, QStringLiteral("ALTER TABLE usage_intervals %1")
                                           .arg(load.m_intervalKeys.join(QStringLiteral(", "))));
            !r)
            return r;
        load.m_intervalKeys.clear();
    }
    if (withIndexes && load.m_droppedIndexes && !load.m_intervalIndexesBack) {
        if (auto r = setSecondaryIndexes(m_conn, true, IndexGroup::Intervals); !r)
            return r;
        load.m_intervalIndexesBack = true;
    }
    return {};
}

Result<void> BulkLoader::restorePlainRollups(UsageStore::BulkLoad &load) {
    if (auto r = restoreIntervalKeys(load, false); !r)
        return r;
    if (!load.m_plainRollups)
        return {};
    // Written once, the rows are in key order (RollupWriter::copyRows): one process
    // reads them presorted faster than parallel workers sort their parts.
    const bool presorted = load.m_rollupWrites <= 1;
    QString parallelWorkers;
    if (presorted) {
        QSqlQuery w(m_conn.database());
        if (auto r = m_conn.execSql(
                w, QStringLiteral("SELECT current_setting('max_parallel_maintenance_workers')"));
            !r)
            return r;
        const int configured = w.next() ? w.value(0).toInt() : 2;
        parallelWorkers = QString::number(configured);
        w.finish();
        if (auto r = m_conn.execSql(w, QStringLiteral("SET LOCAL max_parallel_maintenance_workers = %1")
                                           .arg(std::min(configured, 1)));
            !r)
            return r;
    }
    for (int t = 0; t < 4; ++t) {
        if (!(load.m_plainRollups & (1u << t)))
            continue;
        const RollupTable &tab = kRollupTables[t];
        const QString name = QString::fromLatin1(tab.name);
        const QString cols =
            QStringLiteral("%1, %2").arg(QLatin1String(tab.subjectColumn), QLatin1String(tab.timeColumn));
        QSqlQuery q(m_conn.database());
        if (load.m_rollupWrites > 1) {
            // Partial flushes may have written a cell more than once: the table holds
            // only this load's cells, so summing them per key is what the upserts did.
            for (const QString &sql :
                 {QStringLiteral("CREATE TEMP TABLE gq_rollup_merge ON COMMIT DROP AS SELECT %2, "
                                 "SUM(gpu_seconds) AS gpu_seconds FROM %1 GROUP BY %2")
                      .arg(name, cols),
                  QStringLiteral("TRUNCATE %1").arg(name),
                  QStringLiteral("INSERT INTO %1 (%2, gpu_seconds) SELECT %2, gpu_seconds FROM "
                                 "gq_rollup_merge")
                      .arg(name, cols),
                  QStringLiteral("DROP TABLE gq_rollup_merge")})
                if (auto r = m_conn.execSql(q, sql); !r)
                    return r;
        }
        if (auto r = m_conn.execSql(q, QStringLiteral("ALTER TABLE %1 ADD PRIMARY KEY (%2)").arg(name, cols));
            !r)
            return r;
    }
    if (presorted) {
        QSqlQuery q(m_conn.database());
        if (auto r = m_conn.execSql(
                q, QStringLiteral("SET LOCAL max_parallel_maintenance_workers = %1").arg(parallelWorkers));
            !r)
            return r;
    }
    load.m_plainRollups = 0;
    return {};
}

} // namespace gq
