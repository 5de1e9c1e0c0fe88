#include "core/usage/bulkloader.h"

#include "core/usage/bulkstatements.h"
#include "core/usage/intervalqueries.h"
#include "core/usage/pgcopy.h"
#include "core/usage/phasetimes.h"
#include "core/usage/rollups.h"
#include "core/usage/rollupwriter.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usageschema.h"

#include <QSqlQuery>

#include <algorithm>
#include <future>
#include <memory>
#include <optional>
#include <system_error>

namespace gq {

namespace {
// SQLite: one native single-row statement per batch (see SqliteStatement); PostgreSQL
// gets one array per column, so only the statement text size bounds a batch.
constexpr int kSqliteBulkIntervalRows = 16; // x 11 columns, one multi-row statement
constexpr int kPgBulkIntervalRows = 20000;
// A bulk load of at least this many rows rebuilds secondary indexes afterwards (when
// the table holds fewer rows than the load): building them from sorted rows at the end
// beats keeping them in step with the inserts, above all the rollup tables' by-time
// indexes that multi-hour intervals hit in random order (#31 item 7).
constexpr qint64 kDropIndexesFrom = 100000;
// SQLite's worker threads for the external sorts of those index builds.
constexpr int kSqliteSortThreads = 2;
// Partial rollup flush of a bulk load beyond this many cells (~50 bytes each).
constexpr size_t kMaxRollupCells = 8000000;

// ResourceWeights::weight() matches a regular expression per call; the rows of a load
// mostly repeat one resource.
class WeightCache {
public:
    explicit WeightCache(const ResourceWeights &weights)
        : m_weights(weights) {}
    double operator()(const QString &resource) {
        if (!m_known || resource != m_resource) {
            m_resource = resource;
            m_weight = m_weights.weight(resource);
            m_known = true;
        }
        return m_weight;
    }

private:
    const ResourceWeights &m_weights;
    QString m_resource;
    double m_weight = 1.0;
    bool m_known = false;
};
} // namespace

BulkLoader::BulkLoader(UsageConnection &conn, const ResourceWeights &weights, DayIndex &days,
                       RollupWriter &rollups)
    : m_conn(conn)
    , m_weights(weights)
    , m_days(days)
    , m_rollups(rollups)
    , m_maxRollupCells(kMaxRollupCells)
    , m_hugeLoadFrom(kDropIndexesFrom) {}

BulkLoader::~BulkLoader() = default;

void BulkLoader::setRollupCellLimit(size_t cells) {
    m_maxRollupCells = cells ? cells : kMaxRollupCells;
}

void BulkLoader::setHugeLoadFrom(qint64 rows) {
    m_hugeLoadFrom = rows > 0 ? rows : kDropIndexesFrom;
}

Result<qint64> BulkLoader::insert(const std::vector<UsageInterval> &intervals) {
    auto load = begin(qint64(intervals.size()));
    if (!load)
        return load.error();
    if (auto r = (*load)->add(intervals); !r)
        return r.error();
    return (*load)->finish();
}

Result<std::unique_ptr<UsageStore::BulkLoad>> BulkLoader::begin(qint64 expectedRows) {
    m_conn.assertThread();
    if (m_active)
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("a bulk load is already running on this store"));
    std::unique_ptr<UsageStore::BulkLoad> load(new UsageStore::BulkLoad(*this));
    load->m_tx = std::make_unique<UsageTx>(m_conn);
    if (auto r = load->m_tx->begin(); !r)
        return r.error();
    m_active = true;
    QSqlQuery q(m_conn.database());
    if (m_conn.isPostgres()) {
        // Durability of this one commit is not worth a synchronous WAL flush wait.
        if (auto r = m_conn.execSql(q, QStringLiteral("SET LOCAL synchronous_commit = off")); !r)
            return r.error();
    } else {
        // A larger page cache for the load (256 MiB), and helper threads for the sorts
        // of the index builds at its end; both restored when it ends.
        if (auto r = m_conn.execSql(q, QStringLiteral("PRAGMA cache_size = -262144")); !r)
            return r.error();
        if (auto r = m_conn.execSql(q, QStringLiteral("PRAGMA threads = %1").arg(kSqliteSortThreads)); !r)
            return r.error();
    }
    if (expectedRows >= m_hugeLoadFrom) {
        // Only when the load dominates what is there: rebuilding the indexes of a large
        // table for a comparatively small load would cost more than it saves.
        QSqlQuery c(m_conn.database());
        if (auto r = m_conn.prepare(
                c, QStringLiteral("SELECT COUNT(*) FROM (SELECT 1 FROM usage_intervals LIMIT ?) t"));
            !r)
            return r.error();
        c.addBindValue(expectedRows + 1);
        if (auto r = m_conn.exec(c, QStringLiteral("counting intervals")); !r)
            return r.error();
        const qint64 existing = c.next() ? c.value(0).toLongLong() : 0;
        c.finish();
        if (existing <= expectedRows) {
            if (m_conn.isPostgres()) {
                // Index builds at finish() sort millions of entries; the default 64 MB
                // spills them to disk in many runs.
                QSqlQuery m(m_conn.database());
                if (auto r = m_conn.execSql(m, QStringLiteral("SET LOCAL maintenance_work_mem = '512MB'"));
                    !r)
                    return r.error();
            }
            if (auto r = setSecondaryIndexes(m_conn, false); !r)
                return r.error();
            load->m_droppedIndexes = true;
            if (auto r = takePlainRollups(*load); !r)
                return r.error();
            if (auto r = takeIntervalKeys(*load); !r)
                return r.error();
        }
    }
    return load;
}

// What the helper thread needs of a chunk's rows, owned: the caller reuses its chunk.
struct UsageStore::BulkLoad::Gathering {
    struct Row {
        QString ns, user;
        qint64 start = 0, end = 0;
        double gpuWeight = 0;
    };
    std::vector<Row> rows;
    std::future<bool> done;
};

UsageStore::BulkLoad::BulkLoad(BulkLoader &loader)
    : m_loader(loader)
    , m_acc(std::make_unique<RollupAccumulator>(loader.m_days)) {}

UsageStore::BulkLoad::~BulkLoad() {
    if (m_gathering && m_gathering->done.valid())
        m_gathering->done.wait(); // it refers to the accumulator
    if (!m_done) {
        m_loader.abortStream();
        m_tx.reset(); // rolls back, including dropped indexes
        if (!m_loader.m_conn.isPostgres()) {
            QSqlQuery q(m_loader.m_conn.database());
            q.exec(QStringLiteral("PRAGMA cache_size = -65536"));
            q.exec(QStringLiteral("PRAGMA threads = 0"));
        }
    }
    m_loader.m_active = false;
}

Result<void> UsageStore::BulkLoad::settle() {
    if (!m_gathering || !m_gathering->done.valid())
        return {};
    PhaseTimes::Scope phase(PhaseTimes::Rollups);
    const bool gathered = m_gathering->done.get();
    m_gathering->rows.clear();
    if (!gathered) {
        m_failed = true;
        return Error::make(Error::Kind::Invalid, QStringLiteral("more than 16 million distinct subjects"),
                           QStringLiteral("user"));
    }
    // Bound the client's memory on very large loads; the rollups stay in this
    // transaction either way (a partial flush adds to the stored cells).
    if (m_acc->size() > m_loader.m_maxRollupCells) {
        PhaseTimes::Scope write(PhaseTimes::RollupWrite);
        if (auto r = writeRollups(); !r) {
            m_failed = true;
            return r;
        }
    }
    return {};
}

Result<void> UsageStore::BulkLoad::add(const std::vector<UsageInterval> &chunk) {
    if (m_done || m_failed)
        return Error::make(Error::Kind::Internal, QStringLiteral("the bulk load has already ended"));
    if (auto r = settle(); !r)
        return r;
    std::optional<PhaseTimes::Scope> phase(std::in_place, PhaseTimes::Rollups);
    if (!m_gathering)
        m_gathering = std::make_unique<Gathering>();
    // Each closed row's GPU weight is computed here: ResourceWeights matches a regular
    // expression, which the helper thread below should not share.
    std::vector<Gathering::Row> &rows = m_gathering->rows;
    rows.reserve(chunk.size());
    WeightCache weightOf(m_loader.m_weights);
    for (size_t k = 0; k < chunk.size(); ++k) {
        const UsageInterval &iv = chunk[k];
        if (auto v = validateInterval(iv); !v) {
            m_failed = true;
            rows.clear();
            Error e = v.error();
            e.message = QStringLiteral("interval %1: %2").arg(m_added + qint64(k)).arg(e.message);
            return e;
        }
        if (iv.end)
            rows.push_back({iv.ns, iv.user, iv.start, *iv.end, iv.gpus * weightOf(iv.resource)});
    }
    // The rollup cells are gathered on a helper thread while this one writes the rows
    // and the caller reads its next chunk (#31 item 7: on two cores the cells cost
    // little wall time); settle() joins it. Until then only that thread touches the
    // accumulator and its DayIndex (the store is not used otherwise during a load).
    // Small chunks are gathered by settle().
    RollupAccumulator &acc = *m_acc;
    auto gather = [&rows, &acc]() {
        for (const Gathering::Row &r : rows)
            if (!acc.add(r.ns, r.user, r.start, r.end, r.gpuWeight))
                return false;
        return true;
    };
    constexpr size_t kThreadFrom = 2000;
    if (rows.size() >= kThreadFrom) {
        try {
            m_gathering->done = std::async(std::launch::async, gather);
        } catch (const std::system_error &) {
            // No thread to be had (resource limits): settle() gathers on this one.
        }
    }
    if (!m_gathering->done.valid())
        m_gathering->done = std::async(std::launch::deferred, gather);
    phase.emplace(PhaseTimes::Intervals);
    if (auto written = m_loader.writeIntervals(chunk, 0, chunk.size(), m_streaming); !written) {
        m_failed = true;
        return written;
    }
    m_added += qint64(chunk.size());
    return {};
}

Result<void> UsageStore::BulkLoad::writeRollups(bool last) {
    if (auto r = m_loader.endStream(); !r)
        return r;
    ++m_rollupWrites;
    RollupWriter::PlainTables plain = m_loader.plainTables(*this);
    std::optional<RollupWriter::OrderedCells> ordered;
    if (last && m_rollupWrites == 1 && plain.copy && plain.tables) {
        auto o = m_loader.m_rollups.orderPlain(*m_acc, plain.tables,
                                               [this] { return m_loader.restoreIntervalKeys(*this, true); });
        if (!o)
            return o.error();
        ordered = std::move(*o);
        plain.ordered = &*ordered;
    }
    if (auto r = m_loader.m_rollups.write(*m_acc, RollupWriter::Mode::Add, plain); !r)
        return r;
    m_acc->clear();
    return {};
}

Result<void> UsageStore::BulkLoad::restoreKeys() {
    if (m_done || m_failed)
        return Error::make(Error::Kind::Internal, QStringLiteral("the bulk load has already ended"));
    if (auto r = settle(); !r)
        return r;
    PhaseTimes::Scope phase(PhaseTimes::RollupWrite);
    // Without dropped keys only the open COPY needs ending.
    auto r = m_plainRollups ? writeRollups() : m_loader.endStream();
    if (r)
        r = m_loader.restorePlainRollups(*this);
    if (!r)
        m_failed = true;
    return r;
}

Result<qint64> UsageStore::BulkLoad::finish() {
    if (m_done || m_failed)
        return Error::make(Error::Kind::Internal, QStringLiteral("the bulk load has already ended"));
    if (auto r = settle(); !r)
        return r.error();
    m_failed = true; // until everything below succeeded
    std::optional<PhaseTimes::Scope> phase(std::in_place, PhaseTimes::Intervals);
    if (auto r = m_loader.endStream(); !r)
        return r.error();
    phase.emplace(PhaseTimes::RollupWrite);
    if (auto r = writeRollups(true); !r)
        return r.error();
    phase.emplace(PhaseTimes::Indexes);
    if (auto r = m_loader.restorePlainRollups(*this); !r)
        return r.error();
    if (m_droppedIndexes)
        if (auto r = setSecondaryIndexes(m_loader.m_conn, true,
                                         m_intervalIndexesBack ? IndexGroup::Rollups : IndexGroup::All);
            !r)
            return r.error();
    phase.emplace(PhaseTimes::Commit);
    if (auto r = m_tx->commit(); !r)
        return r.error();
    phase.reset();
    m_tx.reset();
    m_done = true;
    m_failed = false;
    if (!m_loader.m_conn.isPostgres()) {
        QSqlQuery q(m_loader.m_conn.database());
        q.exec(QStringLiteral("PRAGMA cache_size = -65536"));
        q.exec(QStringLiteral("PRAGMA threads = 0"));
    }
    return m_added;
}

void UsageStore::BulkLoad::streamIntervals() {
    m_streaming = true;
}

Result<void> BulkLoader::endStream() {
    return m_copy && m_copy->isOpen() ? m_copy->end() : Result<void>{};
}

void BulkLoader::abortStream() {
    if (m_copy && m_copy->isOpen())
        m_copy->abort();
}

Result<void> BulkLoader::copyIntervals(const std::vector<UsageInterval> &rows, size_t from, size_t to,
                                       bool stream) {
    static const QByteArray sql =
        QByteArrayLiteral("COPY usage_intervals (") + kIntervalColumns + QByteArrayLiteral(") FROM STDIN");
    QByteArray data;
    data.reserve(qsizetype(to - from) * 128);
    WeightCache weightOf(m_weights);
    for (size_t k = from; k < to; ++k) {
        const UsageInterval &iv = rows[k];
        for (const QString *t : {&iv.cluster, &iv.ns, &iv.user, &iv.podUid, &iv.podName, &iv.resource}) {
            PgCopy::appendText(data, *t);
            data += '\t';
        }
        PgCopy::appendNumber(data, qint64(iv.gpus));
        data += '\t';
        PgCopy::appendNumber(data, weightOf(iv.resource));
        data += '\t';
        PgCopy::appendNumber(data, iv.start);
        data += '\t';
        if (iv.end)
            PgCopy::appendNumber(data, *iv.end);
        else
            data += "\\N";
        data += '\t';
        PgCopy::appendText(data, iv.source);
        data += '\n';
    }
    if (!stream)
        return m_copy->copy(sql, data);
    if (!m_copy->isOpen())
        if (auto r = m_copy->start(sql); !r)
            return r;
    return m_copy->put(data);
}

PgCopy *BulkLoader::copier() {
    if (m_conn.isPostgres() && !m_copyProbed) {
        m_copyProbed = true;
        m_copy = PgCopy::create(m_conn);
        if (!m_copy)
            qWarning("gpuquota: the PostgreSQL driver's libpq.so.5 is not reachable; bulk loads use INSERT");
    }
    return m_copy.get();
}

Result<void> BulkLoader::writeIntervals(const std::vector<UsageInterval> &rows, size_t from, size_t to,
                                        bool stream) {
    if (!m_conn.isPostgres())
        return insertIntervalsSqlite(rows, from, to);
    if (copier())
        return from < to ? copyIntervals(rows, from, to, stream) : Result<void>{};
    return insertIntervalsUnnest(rows, from, to);
}

// PostgreSQL without COPY: kPgBulkIntervalRows rows per INSERT … SELECT FROM unnest(arrays).
Result<void> BulkLoader::insertIntervalsUnnest(const std::vector<UsageInterval> &rows, size_t from,
                                               size_t to) {
    const QString head =
        QStringLiteral("INSERT INTO usage_intervals (%1) ").arg(QLatin1String(kIntervalColumns));
    WeightCache weightOf(m_weights);
    while (from < to) {
        const size_t n = std::min<size_t>(size_t(kPgBulkIntervalRows), to - from);
        auto q =
            m_conn.cached(head + QStringLiteral("SELECT * FROM unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[]), "
                                                "CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), "
                                                "CAST(? AS TEXT[]), CAST(? AS INTEGER[]), "
                                                "CAST(? AS DOUBLE PRECISION[]), CAST(? AS BIGINT[]), "
                                                "CAST(? AS BIGINT[]), CAST(? AS TEXT[]))"));
        if (!q)
            return q.error();
        QString cols[11];
        for (QString &c : cols) {
            c.reserve(qsizetype(n) * 24);
            c += QLatin1Char('{');
        }
        for (size_t k = from; k < from + n; ++k) {
            const UsageInterval &iv = rows[k];
            if (k != from)
                for (QString &c : cols)
                    c += QLatin1Char(',');
            appendPgText(cols[0], iv.cluster);
            appendPgText(cols[1], iv.ns);
            appendPgText(cols[2], iv.user);
            appendPgText(cols[3], iv.podUid);
            appendPgText(cols[4], iv.podName);
            appendPgText(cols[5], iv.resource);
            cols[6] += QString::number(iv.gpus);
            cols[7] += QString::number(weightOf(iv.resource), 'g', 17);
            cols[8] += QString::number(iv.start);
            cols[9] += iv.end ? QString::number(*iv.end) : QStringLiteral("NULL");
            appendPgText(cols[10], iv.source);
        }
        for (int c = 0; c < 11; ++c) {
            cols[c] += QLatin1Char('}');
            (*q)->bindValue(c, cols[c]);
        }
        auto r = m_conn.exec(**q, QStringLiteral("bulk-inserting intervals"));
        (*q)->finish();
        if (!r)
            return r;
        from += n;
    }
    return {};
}

Result<void> BulkLoader::insertIntervalsSqlite(const std::vector<UsageInterval> &rows, size_t from,
                                               size_t to) {
    const QString head =
        QStringLiteral("INSERT INTO usage_intervals (%1) ").arg(QLatin1String(kIntervalColumns));
    // SQLite: two prepared statements for all rows, kSqliteBulkIntervalRows rows at a
    // time and one for the rest (a prepare costs as much as a few dozen inserts, a
    // step per row much of an insert); text bound as UTF-8 from buffers reused across
    // batches.
    std::unique_ptr<SqliteStatement> many, one;
    QByteArray scratch[kSqliteBulkIntervalRows][7];
    auto prepare = [&](int rows) -> Result<void> {
        sqlite3 *h = m_conn.sqliteHandle();
        if (!h)
            return Error::make(Error::Kind::Internal, QStringLiteral("no native SQLite handle"));
        QString values = QStringLiteral("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        for (int i = 1; i < rows; ++i)
            values += QStringLiteral(", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        const QByteArray sql = (head + QStringLiteral("VALUES ") + values).toUtf8();
        auto &st = rows == 1 ? one : many;
        st = std::make_unique<SqliteStatement>(h, sql.constData());
        if (!st->ok())
            return Error::make(Error::Kind::Database,
                               QStringLiteral("preparing a statement: %1").arg(st->error()));
        return {};
    };
    WeightCache weightOf(m_weights);
    while (from < to) {
        const size_t n = std::min<size_t>(size_t(kSqliteBulkIntervalRows), to - from);
        const bool batch = n == size_t(kSqliteBulkIntervalRows);
        if (!(batch ? many : one))
            if (auto r = prepare(batch ? kSqliteBulkIntervalRows : 1); !r)
                return r;
        const int rowsHere = batch ? int(n) : 1;
        SqliteStatement &st = batch ? *many : *one;
        for (size_t k = from; k < from + n; k += size_t(rowsHere)) {
            for (int i = 0; i < rowsHere; ++i) {
                const UsageInterval &iv = rows[k + size_t(i)];
                QByteArray *buf = scratch[i];
                const int p = i * 11;
                st.text(p + 1, iv.cluster, buf[0]);
                st.text(p + 2, iv.ns, buf[1]);
                st.text(p + 3, iv.user, buf[2]);
                st.text(p + 4, iv.podUid, buf[3]);
                st.text(p + 5, iv.podName, buf[4]);
                st.text(p + 6, iv.resource, buf[5]);
                st.integer(p + 7, iv.gpus);
                st.real(p + 8, weightOf(iv.resource));
                st.integer(p + 9, iv.start);
                if (iv.end)
                    st.integer(p + 10, *iv.end);
                else
                    st.null(p + 10);
                st.text(p + 11, iv.source, buf[6]);
            }
            if (!st.step())
                return Error::make(Error::Kind::Database, QStringLiteral("bulk-inserting intervals %1-%2: %3")
                                                              .arg(k)
                                                              .arg(k + size_t(rowsHere) - 1)
                                                              .arg(st.error()));
        }
        from += n;
    }
    return {};
}

} // namespace gq
