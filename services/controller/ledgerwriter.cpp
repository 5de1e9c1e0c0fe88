#include "services/controller/ledgerwriter.h"

#include "services/controller/ledgerprobe.h"
#include "services/usage/usagedatabase.h"

#include <QLoggingCategory>

#include <algorithm>
#include <limits>
#include <mutex>
#include <optional>
#include <utility>

Q_LOGGING_CATEGORY(lcLedger, "gq.controller.ledger")

namespace gq {

LedgerWriter::LedgerWriter(QString databaseUrl, UsageStore::Options options, QString spoolDirectory,
                           QObject *parent)
    : QObject(parent)
    , m_url(std::move(databaseUrl))
    , m_options(std::move(options))
    , m_spool(std::move(spoolDirectory)) {
    m_spoolDepth = m_spool.depth();
    m_spoolWritable = m_spool.writable();
    m_retry.setSingleShot(false);
    // A quiet cluster writes nothing for hours: ask the database now and then, so an
    // outage shows in /readyz and raises its alert without waiting for a pod.
    m_ping.setInterval(kPingIntervalMs);
    QObject::connect(&m_ping, &QTimer::timeout, this, [this] {
        if (!m_store || !m_available.load())
            return;
        // Bounded: a silent network cut must not leave the ping (and readiness) waiting.
        if (auto r = m_store->ping(kPingTimeoutMs); !r)
            fail(r.error());
    });
    QObject::connect(&m_retry, &QTimer::timeout, this, [this] {
        if (connect())
            m_retry.stop();
        else if (!m_held.empty())
            drainHeldToSpool(); // the disk may have room again: the spool survives a restart
    });
}

// A batch handed to the batch lane (see endBatch).
struct LedgerWriter::BatchJob {
    std::vector<SpoolEntry> entries;
    std::atomic<std::size_t> done{0}; // written and committed, from the front
};

LedgerWriter::~LedgerWriter() {
    m_jobs.cancel(); // the probe's slices and the batch stop; their answers are dropped
    if (m_probe)
        m_probe->shutDown();
    if (m_batchLane)
        m_batchLane->shutDown(); // a batch stops after its current chunk
    if (!m_inFlight)
        return;
    // Shutting down mid-batch: nothing it had not written yet is dropped, it goes to the
    // spool (replayed at the next start), followed by what waited behind it.
    const std::shared_ptr<BatchJob> job = std::exchange(m_inFlight, nullptr);
    for (std::size_t i = job->done.load(); i < job->entries.size(); ++i)
        spool(job->entries[i]);
    for (const SpoolEntry &entry : std::exchange(m_afterBatch, {}))
        spool(entry);
}

void LedgerWriter::startProbe() {
    auto url = DbUrl::parse(m_url);
    if (m_probe || !url || url->driver != DbUrl::Driver::Postgres)
        return;
    url->password = m_options.password;
    m_probe = std::make_unique<LedgerProbe>(*url, kPingIntervalMs, kPingTimeoutMs);
    m_probe->start(m_jobs.token(), [this, lost = m_jobs.deliverer<Error>(
                                              [this](const Error &e) { fail(e); })](const Result<void> &r) {
        if (probed(r))
            lost(r.error());
    });
}

// On the probe's thread: readiness follows at once. True when the database just went
// silent while the writer thought it available: its own connection is to be dropped
// on its thread (fail()), when it gets there.
bool LedgerWriter::probed(const Result<void> &r) {
    if (r) {
        m_probeDown = false;
        return false;
    }
    if (m_probeDown.exchange(true) || !m_available.load())
        return false;
    qCWarning(lcLedger) << "usage database probe:" << r.error().toString();
    return true;
}

void LedgerWriter::start(int retryMs) {
    m_retry.setInterval(retryMs);
    m_ping.start();
    startProbe();
    if (!connect())
        m_retry.start();
}

QString LedgerWriter::lastError() const {
    std::lock_guard lock(m_errorMutex);
    return m_lastError;
}

bool LedgerWriter::connect() {
    if (!m_store) {
        auto store = UsageStore::open(m_url, m_options);
        if (!store) {
            fail(store.error());
            return false;
        }
        m_store = std::move(*store);
    }
    if (!replay() || !writeHeld())
        return false;
    m_probeDown = false; // it answers this thread: the probe's last miss is old news
    const bool wasAvailable = m_available.exchange(true);
    {
        std::lock_guard lock(m_errorMutex);
        m_lastError.clear();
    }
    if (!wasAvailable) {
        qCInfo(lcLedger) << "usage database available:" << m_store->url().display();
        Q_EMIT databaseReady();
    }
    return true;
}

// Replays the spool in order. On a failure part-way the spool stays whole: the rows
// already written are written again next time, which the upsert makes harmless.
bool LedgerWriter::replay() {
    qint64 skipped = 0; // torn entries, each logged by the spool
    auto pending = m_spool.readAll(&skipped);
    if (!pending) {
        fail(pending.error());
        return false;
    }
    if (pending->empty())
        return true;
    for (const SpoolEntry &entry : *pending) {
        auto r = apply(entry);
        if (!r && r.error().kind != Error::Kind::Invalid) {
            fail(r.error());
            return false;
        }
        if (!r)
            qCWarning(lcLedger) << "spooled interval dropped:" << r.error().toString();
    }
    if (auto r = m_spool.clear(); !r) {
        fail(r.error());
        return false;
    }
    m_spoolSkipped += skipped;
    if (skipped > 0)
        qCWarning(lcLedger) << "replayed" << pending->size() << "spooled interval states;" << skipped
                            << "torn or unreadable spool entries skipped";
    else
        qCInfo(lcLedger) << "replayed" << pending->size() << "spooled interval states";
    m_written += static_cast<qint64>(pending->size());
    m_lastWrite = m_clock->nowSecs();
    m_spoolDepth = 0;
    return true;
}

void LedgerWriter::fail(const Error &error) {
    QString previous;
    {
        std::lock_guard lock(m_errorMutex);
        previous = std::exchange(m_lastError, error.toString());
    }
    // The connection may be broken for good (a restarted server): open a new one.
    m_store.reset();
    if (m_available.exchange(false)) {
        qCWarning(lcLedger) << "usage database unavailable, spooling:" << error.toString();
        Q_EMIT databaseLost(error);
    } else if (previous != error.toString()) {
        // Never available yet (a wrong password at start), or failing for a new reason.
        qCWarning(lcLedger) << "usage database unavailable, spooling until it answers:" << error.toString();
    }
    if (!m_retry.isActive())
        m_retry.start();
}

Result<void> LedgerWriter::apply(const SpoolEntry &entry) {
    return applyTo(*m_store, entry);
}

Result<void> LedgerWriter::applyTo(UsageStore &store, const SpoolEntry &entry) {
    if (entry.closeOnly) {
        if (!entry.iv.end)
            return Error::make(Error::Kind::Invalid, QStringLiteral("a close without an end"),
                               QStringLiteral("end"));
        auto r = store.closeInterval(entry.iv.cluster, entry.iv.podUid, entry.iv.resource, entry.iv.start,
                                     *entry.iv.end, entry.iv.endEstimated);
        if (!r)
            return r.error();
        return {};
    }
    auto r = store.upsertInterval(entry.iv);
    if (!r)
        return r.error();
    return {};
}

void LedgerWriter::spool(const SpoolEntry &entry) {
    if (!m_held.empty() && !drainHeldToSpool()) {
        hold(entry, Error::make(Error::Kind::Io, QStringLiteral("the spool is not writable")));
        return;
    }
    if (auto r = m_spool.append(entry); !r) {
        hold(entry, r.error());
        return;
    }
    m_spoolWritable = true;
    m_spoolDepth = m_spool.depth();
    ++m_spooledTotal;
}

// Nothing can persist the state now: keep it, in order, and say so loudly once;
// readiness turns false. Beyond kMaxHeld the oldest goes: that loss is counted.
void LedgerWriter::hold(const SpoolEntry &entry, const Error &why) {
    m_spoolWritable = false;
    m_lastPersistFailure = m_clock->nowSecs();
    if (m_held.empty()) {
        m_heldSince = m_clock->nowSecs();
        qCCritical(lcLedger) << "database down and spool not writable: holding interval states in memory"
                             << "until either can take them:" << why.toString();
    }
    if (m_held.size() >= kMaxHeld) {
        m_held.pop_front();
        if (++m_lostTotal % 1000 == 1)
            qCCritical(lcLedger) << "interval states LOST (more than" << kMaxHeld
                                 << "held in memory):" << m_lostTotal.load() << "so far";
    }
    m_held.push_back(entry);
    m_heldCount = qint64(m_held.size());
}

// Moves the held states, oldest first, behind what the spool holds. False when the
// spool still refuses one (the rest stay held).
bool LedgerWriter::drainHeldToSpool() {
    const std::size_t before = m_held.size();
    while (!m_held.empty()) {
        if (auto r = m_spool.append(m_held.front()); !r)
            break;
        m_held.pop_front();
        ++m_spooledTotal;
    }
    m_heldCount = qint64(m_held.size());
    m_spoolDepth = m_spool.depth();
    if (!m_held.empty())
        return false;
    m_spoolWritable = true;
    m_heldSince = 0;
    if (before > 0)
        qCInfo(lcLedger) << "the spool took the" << before << "interval states held in memory";
    return true;
}

// After the spool's replay: the held states are newer than anything spooled.
bool LedgerWriter::writeHeld() {
    const std::size_t before = m_held.size();
    while (!m_held.empty()) {
        auto r = apply(m_held.front());
        if (!r && r.error().kind != Error::Kind::Invalid) {
            m_heldCount = qint64(m_held.size());
            fail(r.error());
            return false;
        }
        m_held.pop_front();
        ++m_written;
    }
    m_heldCount = 0;
    m_heldSince = 0;
    if (before > 0)
        qCInfo(lcLedger) << "wrote the" << before << "interval states held in memory";
    return true;
}

void LedgerWriter::submit(const UsageInterval &iv) {
    write(SpoolEntry{iv, false});
}

void LedgerWriter::close(const UsageInterval &iv) {
    write(SpoolEntry{iv, true});
}

void LedgerWriter::beginBatch() {
    m_batching = true;
}

void LedgerWriter::endBatch() {
    m_batching = false;
    if (m_batch.empty())
        return;
    auto job = std::make_shared<BatchJob>();
    job->entries.swap(m_batch);
    m_batchPending = qint64(job->entries.size());
    m_inFlight = job;
    if (!m_batchLane) // a connection of the batch's own: the writer's stays on its thread
        m_batchLane = std::make_unique<UsageLane>(
            new StoreWorker, QStringLiteral("gq-ledger-batch"),
            [url = m_url, options = m_options] { return UsageStore::open(url, options); }, 0);
    m_jobs.runOn(
        m_batchLane->worker(),
        [this, w = m_batchLane->worker(), job](const JobToken &token) { return runBatch(*w, *job, token); },
        [this, job](const std::optional<Error> &error) { finishBatch(job, error); });
}

std::optional<Error> LedgerWriter::runBatch(StoreWorker &worker, BatchJob &job, const JobToken &token) {
    if (token.isCancelled()) // shut down before it began: all of it goes to the spool
        return std::nullopt;
    if (auto opened = worker.open(); !opened)
        return opened.error();
    std::optional<Error> error;
    const std::size_t total = job.entries.size();
    std::size_t done = 0;
    while (done < total && !token.isCancelled()) {
        const std::size_t to = std::min(total, done + kBatchRows);
        Result<void> r = worker.store->inTransaction([&]() -> Result<void> {
            for (std::size_t i = done; i < to; ++i) {
                auto one = applyTo(*worker.store, job.entries[i]);
                if (!one && one.error().kind != Error::Kind::Invalid)
                    return one;
                if (!one)
                    qCWarning(lcLedger) << "interval not recorded:" << one.error().toString();
            }
            return {};
        });
        if (!r) { // rolled back: the whole chunk goes to the spool
            error = r.error();
            break;
        }
        m_written += qint64(to - done);
        m_lastWrite = m_clock->nowSecs();
        m_batchPending -= qint64(to - done);
        done = to;
        job.done = done;
    }
    worker.close(); // the batch's connection ends with it, as it began with it
    return error;
}

void LedgerWriter::finishBatch(const std::shared_ptr<BatchJob> &job, const std::optional<Error> &error) {
    m_inFlight.reset();
    const std::size_t done = job->done.load(); // counted as written by the batch lane
    if (error)
        fail(*error);
    for (std::size_t i = done; i < job->entries.size(); ++i)
        write(job->entries[i]); // to the spool when the batch failed
    for (const SpoolEntry &entry : std::exchange(m_afterBatch, {}))
        write(entry);
    m_batchPending = 0;
}

void LedgerWriter::write(const SpoolEntry &entry) {
    if (m_inFlight) { // behind the batch, in order
        m_afterBatch.push_back(entry);
        ++m_batchPending;
        return;
    }
    if (!m_available.load() || m_spool.depth() > 0 || !m_held.empty()) {
        spool(entry);
        return;
    }
    if (m_batching) {
        m_batch.push_back(entry);
        return;
    }
    auto r = apply(entry);
    if (r) {
        ++m_written;
        m_lastWrite = m_clock->nowSecs();
        return;
    }
    if (r.error().kind == Error::Kind::Invalid) {
        qCWarning(lcLedger) << "interval not recorded:" << r.error().toString();
        return;
    }
    fail(r.error());
    spool(entry);
}

void LedgerWriter::markSeen(const QString &cluster, const QString &source, qint64 now) {
    // Only straight to the database: a heartbeat spooled would say "seen" late.
    if (!m_store || !m_available.load() || m_spool.depth() > 0 || !m_held.empty() || m_inFlight)
        return;
    auto r = m_store->markIntervalsSeen(cluster, source, now);
    if (!r && r.error().kind != Error::Kind::Invalid)
        fail(r.error());
}

Result<std::vector<UsageInterval>> LedgerWriter::openIntervals(const QString &cluster,
                                                               const QString &source) {
    if (!m_store || !m_available.load())
        return Error::make(Error::Kind::Database, QStringLiteral("the usage database is not available"));
    auto running = m_store->runningNow(std::numeric_limits<qint64>::max() / 4);
    if (!running) {
        fail(running.error());
        return running.error();
    }
    std::vector<UsageInterval> out;
    for (const UsageInterval &iv : *running)
        if (iv.cluster == cluster && iv.source == source)
            out.push_back(iv);
    return out;
}

} // namespace gq
