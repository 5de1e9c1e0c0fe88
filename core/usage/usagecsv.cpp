#include "core/usage/usagecsv.h"

#include "core/domain/csvfield.h"
#include "core/usage/bulkloader.h"
#include "core/usage/csvreader.h"
#include "core/usage/intervalqueries.h"
#include "core/usage/intervalwriter.h"
#include "core/usage/phasetimes.h"
#include "core/usage/usageconnection.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QFile>
#include <QIODevice>
#include <QScopeGuard>
#include <QSqlQuery>
#include <QTemporaryFile>
#include <QTextStream>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <future>
#include <limits>
#include <memory>
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
                      const CsvRowLimits &limits, const std::atomic<bool> *stop = nullptr) {
    UsageCsvParser parser(in, limits, spool);
    Scan scan;
    std::vector<size_t> hashes;
    if (auto r = forEachRow(parser, options.source,
                            [&](const UsageInterval &iv) -> Result<void> {
                                if (stop && (scan.rows & 1023) == 0 && stop->load())
                                    return Error::make(Error::Kind::Cancelled,
                                                       QStringLiteral("the check was stopped"));
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

// Back to `pos` for another read of the file.
Result<void> seekBack(QIODevice &in, qint64 pos) {
    if (!in.seek(pos))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot read the CSV a second time: %1").arg(in.errorString()));
    return {};
}

bool isRepeated(const std::vector<size_t> &repeated, const UsageInterval &iv) {
    return !repeated.empty() && std::binary_search(repeated.begin(), repeated.end(), keyHash(iv));
}

// The import's main pass: every row not repeated in the file goes to the bulk load in
// chunks (looked up first when `merging`: the file's time range holds stored rows).
Result<void> loadRows(QIODevice &src, const CsvRowLimits &limits, const QString &source, BulkLoader &bulk,
                      UsageStore::BulkLoad &load, bool merging, const std::vector<size_t> &repeated,
                      BulkLoader::MergeCounts &counts, const std::function<Result<void>()> &checkpoint = {}) {
    UsageCsvParser parser(src, limits);
    std::vector<UsageInterval> chunk;
    chunk.reserve(kChunkRows);
    QElapsedTimer pass;
    pass.start();
    const qint64 passCpu = PhaseTimes::cpuNow();
    qint64 flushNs = 0, flushCpu = 0;
    auto flush = [&]() -> Result<void> {
        if (checkpoint)
            if (auto r = checkpoint(); !r)
                return r;
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

// Opens a second reader of `in` at its position, for a check beside the load: the same
// file opened again, or the same bytes of a buffer. Null for other devices (pipes).
std::function<std::unique_ptr<QIODevice>()> secondReader(QIODevice &in) {
    const qint64 at = in.pos();
    if (auto *file = qobject_cast<QFile *>(&in); file && !file->fileName().isEmpty() && !in.isSequential())
        return [name = file->fileName(), at]() -> std::unique_ptr<QIODevice> {
            auto f = std::make_unique<QFile>(name);
            if (!f->open(QIODevice::ReadOnly) || !f->seek(at))
                return nullptr;
            return f;
        };
    if (auto *buffer = qobject_cast<QBuffer *>(&in))
        return [data = buffer->data(), at]() -> std::unique_ptr<QIODevice> {
            auto b = std::make_unique<QBuffer>();
            b->setData(data);
            if (!b->open(QIODevice::ReadOnly) || !b->seek(at))
                return nullptr;
            return b;
        };
    return {};
}

// A large file into a database without intervals (a first import of history): nothing
// stored can share a key with it, so each chunk goes to the bulk load as soon as it is
// read, while a helper thread checks the whole file ahead of it (#31 item 7: neither
// PostgreSQL nor SQLite's writes wait for that check). It is all one transaction:
// when the check finds a bad row, the load stops at its next chunk and is rolled back,
// with the check's error (a bad row at line 500,002 is still reported within a
// second). Keys the file repeats need the upserts of the two-pass import: the load is
// rolled back and nullopt returned, as when the file is small, cannot be read twice or
// the database holds intervals.
Result<std::optional<UsageStore::ImportStats>> importOnce(UsageConnection &conn, BulkLoader &bulk,
                                                          QIODevice &in,
                                                          const UsageStore::ImportOptions &options,
                                                          const CsvRowLimits &limits) {
    using Stats = std::optional<UsageStore::ImportStats>;
    // No row of the CSV is shorter than this; a file that may hold fewer rows than a
    // huge load is imported in two passes.
    constexpr qint64 kMinRowBytes = 64;
    const qint64 bytes = in.isSequential() ? 0 : in.size() - in.pos();
    auto openReader = secondReader(in);
    if (bytes < bulk.hugeLoadFrom() * kMinRowBytes || !openReader)
        return Stats();
    auto stored =
        anyStoredBetween(conn, std::numeric_limits<qint64>::min(), std::numeric_limits<qint64>::max());
    if (!stored)
        return stored.error();
    if (*stored)
        return Stats();
    const qint64 startPos = in.pos();
    auto load = bulk.begin(std::max(bulk.hugeLoadFrom(), bytes / kMinRowBytes));
    if (!load)
        return load.error();
    (*load)->streamIntervals();
    std::atomic<bool> stop{false};
    auto check = std::async(std::launch::async, [&]() -> Result<Scan> {
        std::unique_ptr<QIODevice> reader = openReader();
        if (!reader)
            return Error::make(Error::Kind::Io, QStringLiteral("cannot read the CSV a second time"));
        return scanFile(*reader, nullptr, options, limits, &stop);
    });
    std::optional<Result<Scan>> checked;
    auto checkpoint = [&]() -> Result<void> {
        if (!checked && check.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
            checked = check.get();
        return checked && !*checked ? Result<void>(checked->error()) : Result<void>{};
    };
    BulkLoader::MergeCounts counts;
    auto loaded = loadRows(in, limits, options.source, bulk, **load, false, {}, counts, checkpoint);
    // A load that failed on a bad row need not wait for the check to read on; one that
    // failed in the database may have met a repeated key (SQLite keeps the unique key
    // during the load), which only the whole check can tell.
    stop = !loaded && loaded.error().kind != Error::Kind::Database;
    if (!checked)
        checked = check.get();
    const Result<Scan> &scan = *checked;
    if (scan && !scan->repeated.empty()) {
        load->reset(); // rolls back: the two passes upsert the repeats
        if (auto r = seekBack(in, startPos); !r)
            return r.error();
        return Stats();
    }
    // The check's error is the file's first bad row (the load may have stopped at a
    // later one); a failure of the load itself comes after.
    if (!scan && scan.error().kind != Error::Kind::Cancelled)
        return scan.error();
    if (!loaded)
        return loaded.error();
    if (!scan)
        return scan.error();
    if (auto r = (*load)->finish(); !r)
        return r.error();
    UsageStore::ImportStats stats;
    stats.rows = int((*checked)->rows);
    stats.inserted = int(counts.inserted);
    return Stats(stats);
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
    const auto printPhases = qScopeGuard([] { PhaseTimes::instance().print(); });
    bulk.setRollupCellLimit(kImportRollupCells);
    const auto restoreLimit = qScopeGuard([&bulk] { bulk.setRollupCellLimit(0); });
    auto once = importOnce(conn, bulk, in, options, limits);
    if (!once)
        return once.error();
    if (*once)
        return **once;
    const qint64 startPos = in.pos();
    std::optional<PhaseTimes::Scope> phase(std::in_place, PhaseTimes::Scan);
    auto scan = scanFile(in, spool.get(), options, limits);
    phase.reset();
    if (!scan)
        return scan.error();
    QIODevice &src = spool ? static_cast<QIODevice &>(*spool) : in;
    auto rewind = [&]() { return seekBack(src, spool ? 0 : startPos); };

    UsageStore::ImportStats stats;
    auto merging = scan->rows ? anyStoredBetween(conn, scan->minStart, scan->maxStart) : Result<bool>(false);
    if (!merging)
        return merging.error();
    // A load into rows of its own time range may hit stored keys: each chunk is looked
    // up first. Otherwise every row is new and goes straight in (indexes rebuilt at the
    // end when the load is large).
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
