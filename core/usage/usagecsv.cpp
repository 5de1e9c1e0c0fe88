#include "core/usage/usagecsv.h"

#include "core/domain/csvfield.h"
#include "core/usage/bulkloader.h"
#include "core/usage/csvreader.h"
#include "core/usage/intervalqueries.h"
#include "core/usage/intervalwriter.h"
#include "core/usage/phasetimes.h"
#include "core/usage/usageconnection.h"

#include <QElapsedTimer>
#include <QIODevice>
#include <QScopeGuard>
#include <QSqlQuery>
#include <QTemporaryFile>
#include <QTextStream>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>

namespace gq {

namespace {

const char kCsvHeader[] = "cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end";
// Rows per bulk statement (and per key lookup when merging).
constexpr size_t kChunkRows = 20000;
// Rollup cells an import keeps before writing them (16-byte slots of flat tables,
// 21-43 bytes a cell, so up to ~340 MB; as many as bulk loads). A 1 M-row year of
// history has about 5.5 M, so it is written once, in key order.
constexpr size_t kImportRollupCells = 8000000;

// Rows whose keys repeat in the file: the later one replaces the earlier, so they go
// through the single-row upsert in file order (a third read) rather than the bulk path.
// Keys are compared by a 64-bit hash; a collision only sends a row the slow way.
size_t keyHash(const UsageInterval &iv) {
    return qHashMulti(0x9e3779b97f4a7c15ULL, iv.cluster, iv.podUid, iv.resource, iv.start);
}

// Reads the header, then hands each row to `fn` (returning Result<void>) until the file
// ends or either side fails. The three passes of an import read the file this way.
template <typename Fn> Result<void> forEachRow(UsageCsvParser &parser, const QString &source, Fn fn) {
    if (auto r = parser.readHeader(); !r)
        return r.error();
    UsageInterval iv;
    for (;;) {
        auto more = parser.next(iv, source);
        if (!more)
            return more.error();
        if (!*more)
            return {};
        if (auto r = fn(iv); !r)
            return r.error();
    }
}

struct Scan {
    qint64 rows = 0;
    qint64 minStart = 0;
    qint64 maxStart = 0;
    std::vector<size_t> repeated; // sorted key hashes seen more than once
};

Result<Scan> scanFile(QIODevice &in, QIODevice *spool, const UsageStore::ImportOptions &options,
                      const CsvRowLimits &limits) {
    UsageCsvParser parser(in, limits, spool);
    Scan scan;
    std::vector<size_t> hashes;
    if (auto r = forEachRow(parser, options.source,
                            [&](const UsageInterval &iv) -> Result<void> {
                                hashes.push_back(keyHash(iv));
                                scan.minStart = scan.rows ? std::min(scan.minStart, iv.start) : iv.start;
                                scan.maxStart = scan.rows ? std::max(scan.maxStart, iv.start) : iv.start;
                                ++scan.rows;
                                return {};
                            });
        !r)
        return r.error();
    std::sort(hashes.begin(), hashes.end());
    for (size_t i = 1; i < hashes.size(); ++i)
        if (hashes[i] == hashes[i - 1] && (scan.repeated.empty() || scan.repeated.back() != hashes[i]))
            scan.repeated.push_back(hashes[i]);
    return scan;
}

// Whether any stored row could have the key of an imported one (keys include start).
Result<bool> anyStoredBetween(UsageConnection &conn, qint64 from, qint64 to) {
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(q, QStringLiteral("SELECT 1 FROM usage_intervals WHERE start_s >= ? AND "
                                                "start_s <= ? LIMIT 1"));
        !r)
        return r.error();
    q.addBindValue(from);
    q.addBindValue(to);
    if (auto r = conn.exec(q, QStringLiteral("looking for stored intervals")); !r)
        return r.error();
    return q.next();
}

bool isRepeated(const std::vector<size_t> &repeated, const UsageInterval &iv) {
    return !repeated.empty() && std::binary_search(repeated.begin(), repeated.end(), keyHash(iv));
}

// The import's main pass: every row not repeated in the file goes to the bulk load in
// chunks (looked up first when `merging`: the file's time range holds stored rows).
Result<void> loadRows(QIODevice &src, const CsvRowLimits &limits, const QString &source, BulkLoader &bulk,
                      UsageStore::BulkLoad &load, bool merging, const std::vector<size_t> &repeated,
                      BulkLoader::MergeCounts &counts) {
    UsageCsvParser parser(src, limits);
    std::vector<UsageInterval> chunk;
    chunk.reserve(kChunkRows);
    QElapsedTimer pass;
    pass.start();
    const qint64 passCpu = PhaseTimes::cpuNow();
    qint64 flushNs = 0, flushCpu = 0;
    auto flush = [&]() -> Result<void> {
        QElapsedTimer t;
        t.start();
        const qint64 cpu = PhaseTimes::cpuNow();
        const auto timed = qScopeGuard([&] {
            flushNs += t.nsecsElapsed();
            flushCpu += PhaseTimes::cpuNow() - cpu;
        });
        Result<void> r;
        if (merging) {
            r = bulk.merge(load, chunk, counts);
        } else {
            r = load.add(chunk);
            counts.inserted += qint64(chunk.size());
        }
        chunk.clear();
        return r;
    };
    if (auto r = forEachRow(parser, source,
                            [&](const UsageInterval &iv) -> Result<void> {
                                if (isRepeated(repeated, iv))
                                    return {};
                                chunk.push_back(iv);
                                return chunk.size() == kChunkRows ? flush() : Result<void>{};
                            });
        !r)
        return r.error();
    PhaseTimes::instance().add(PhaseTimes::Parse, pass.nsecsElapsed() - flushNs,
                               PhaseTimes::cpuNow() - passCpu - flushCpu);
    if (!chunk.empty())
        if (auto r = flush(); !r)
            return r.error();
    return {};
}

// The rows whose key the file repeats, one upsert each in file order (the last wins).
Result<void> upsertRepeated(QIODevice &src, const CsvRowLimits &limits, const QString &source,
                            IntervalWriter &writer, const std::vector<size_t> &repeated,
                            UsageStore::ImportStats &stats) {
    using UpsertOutcome = UsageStore::UpsertOutcome;
    UsageCsvParser parser(src, limits);
    if (auto r = forEachRow(parser, source,
                            [&](const UsageInterval &iv) -> Result<void> {
                                if (!isRepeated(repeated, iv))
                                    return {};
                                auto outcome = writer.upsertInTx(iv);
                                if (!outcome) {
                                    Error e = outcome.error();
                                    e.line = parser.line();
                                    return e;
                                }
                                switch (*outcome) {
                                case UpsertOutcome::Inserted: ++stats.inserted; break;
                                case UpsertOutcome::Updated: ++stats.updated; break;
                                case UpsertOutcome::Unchanged: ++stats.unchanged; break;
                                }
                                return {};
                            });
        !r)
        return r.error();
    return {};
}

} // namespace

Result<UsageStore::ImportStats> importUsageCsv(UsageConnection &conn, IntervalWriter &writer,
                                               BulkLoader &bulk, QIODevice &in,
                                               const UsageStore::ImportOptions &options) {
    const CsvRowLimits limits{options.earliestStart, options.longestInterval};
    // First read: parse and check everything, write nothing. A pipe cannot be read
    // twice, so it is spooled to a temporary file on the way.
    std::unique_ptr<QTemporaryFile> spool;
    if (in.isSequential()) {
        spool = std::make_unique<QTemporaryFile>();
        if (!spool->open())
            return Error::make(
                Error::Kind::Io,
                QStringLiteral("cannot create a temporary file: %1").arg(spool->errorString()));
    }
    const qint64 startPos = in.pos();
    const auto printPhases = qScopeGuard([] { PhaseTimes::instance().print(); });
    std::optional<PhaseTimes::Scope> phase(std::in_place, PhaseTimes::Scan);
    auto scan = scanFile(in, spool.get(), options, limits);
    phase.reset();
    if (!scan)
        return scan.error();
    QIODevice &src = spool ? static_cast<QIODevice &>(*spool) : in;
    auto rewind = [&]() -> Result<void> {
        if (!src.seek(spool ? 0 : startPos))
            return Error::make(
                Error::Kind::Io,
                QStringLiteral("cannot read the CSV a second time: %1").arg(src.errorString()));
        return {};
    };

    UsageStore::ImportStats stats;
    auto merging = scan->rows ? anyStoredBetween(conn, scan->minStart, scan->maxStart) : Result<bool>(false);
    if (!merging)
        return merging.error();
    // A load into rows of its own time range may hit stored keys: each chunk is looked
    // up first. Otherwise every row is new and goes straight in (indexes rebuilt at the
    // end when the load is large).
    bulk.setRollupCellLimit(kImportRollupCells);
    const auto restoreLimit = qScopeGuard([&bulk] { bulk.setRollupCellLimit(0); });
    auto load = bulk.begin(*merging ? 0 : scan->rows);
    if (!load)
        return load.error();
    // Every row was checked above, so the server may store them while the file is read on.
    if (!*merging)
        (*load)->streamIntervals();
    BulkLoader::MergeCounts counts;
    if (auto r = rewind(); !r)
        return r.error();
    if (auto r = loadRows(src, limits, options.source, bulk, **load, *merging, scan->repeated, counts); !r)
        return r.error();
    stats.inserted = int(counts.inserted);
    stats.updated = int(counts.updated);
    stats.unchanged = int(counts.unchanged);
    if (!scan->repeated.empty()) {
        // The single-row upserts below need every key the load may have dropped.
        if (auto r = (*load)->restoreKeys(); !r)
            return r.error();
        if (auto r = rewind(); !r)
            return r.error();
        if (auto r = upsertRepeated(src, limits, options.source, writer, scan->repeated, stats); !r)
            return r.error();
    }
    if (auto r = (*load)->finish(); !r)
        return r.error();
    stats.rows = int(scan->rows);
    return stats;
}

Result<qint64> exportUsageCsv(const UsageConnection &conn, QIODevice &out, std::optional<qint64> from,
                              std::optional<qint64> to) {
    QSqlQuery q(conn.database());
    q.setForwardOnly(true);
    if (from || to) {
        if (auto r = conn.prepare(
                q, QStringLiteral("SELECT %1 FROM usage_intervals WHERE start_s < ? AND "
                                  "(end_s IS NULL OR end_s > ?) ORDER BY start_s, cluster, pod_uid, "
                                  "resource")
                       .arg(QLatin1String(kIntervalColumns)));
            !r)
            return r.error();
        q.addBindValue(to.value_or(std::numeric_limits<qint64>::max()));
        q.addBindValue(from.value_or(std::numeric_limits<qint64>::min()));
        if (auto r = conn.exec(q, QStringLiteral("reading intervals")); !r)
            return r.error();
    } else {
        if (auto r = conn.execSql(
                q, QStringLiteral("SELECT %1 FROM usage_intervals ORDER BY start_s, cluster, pod_uid, "
                                  "resource")
                       .arg(QLatin1String(kIntervalColumns)));
            !r)
            return r.error();
    }
    QTextStream ts(&out);
    ts.setEncoding(QStringConverter::Utf8);
    ts << kCsvHeader << '\n';
    qint64 n = 0;
    while (q.next()) {
        const UsageInterval iv = intervalFromRow(q);
        ts << csvField(iv.cluster) << ',' << csvField(iv.ns) << ',' << csvField(iv.user) << ','
           << csvField(iv.podUid) << ',' << csvField(iv.podName) << ',' << csvField(iv.resource) << ','
           << iv.gpus << ',' << formatInstantUtc(iv.start) << ','
           << (iv.end ? formatInstantUtc(*iv.end) : QString()) << '\n';
        ++n;
    }
    errno = 0;
    ts.flush();
    if (ts.status() != QTextStream::Ok) {
        // The system's reason ("No space left on device"), not just that it failed.
        const QString why = errno ? QString::fromLocal8Bit(std::strerror(errno)) : out.errorString();
        return Error::make(Error::Kind::Io, QStringLiteral("writing the CSV failed: %1").arg(why));
    }
    return n;
}

} // namespace gq
