#pragma once

#include "core/domain/clock.h"
#include "core/domain/result.h"
#include "core/jobs/jobtracker.h"
#include "core/usage/ledger.h"
#include "core/usage/usagestore.h"
#include "services/controller/intervalspool.h"

#include <QObject>
#include <QTimer>

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace gq {

class LedgerProbe;
class StoreWorker;
class UsageLane;

// Where the controller's interval states go: the usage database when it answers,
// else the spool (IntervalSpool), replayed in order once the database is back. While
// anything is spooled new states are spooled behind it, so the database always sees
// the states in the order they happened. When neither takes a state (the database
// away and the spool's disk full), the state is held in memory, in order, and written
// first to whichever works again (the spool is tried on every retry): nothing is lost
// while the process lives, and readiness says what is held since when. Lives on one
// thread (the store's rule); the counters are atomics so health and metrics handlers
// on server threads read them.
class LedgerWriter final : public QObject {
    Q_OBJECT
public:
    LedgerWriter(QString databaseUrl, UsageStore::Options options, QString spoolDirectory,
                 QObject *parent = nullptr);
    ~LedgerWriter() override;

    // What "now" is for the write and failure times below. Default: the system clock.
    // Before start(); `clock` must outlive this object.
    void setClock(const Clock *clock) { m_clock = clock; }
    [[nodiscard]] const Clock &clock() const { return *m_clock; }
    // Opens the database (and replays the spool); on failure retries every retryMs.
    void start(int retryMs = 2000);
    // Writes (or spools) one interval state: open (no end) or closed.
    void submit(const UsageInterval &iv);
    // Sets the end of a stored open row and nothing else (iv.end must be set).
    void close(const UsageInterval &iv);
    // Between these, states that would go straight to the database are collected;
    // endBatch() hands them to a usage lane of their own (a JobTracker job; the
    // recorder's first sync: the event loop goes on at once), which writes them on a
    // connection of its own, opened for the batch and closed after it, in transactions
    // of kBatchRows. States submitted meanwhile wait behind the batch, in
    // order, and are written after it. A chunk that fails is spooled with everything
    // after it, in order, as single writes would have been; so is what is left when the
    // writer is destroyed before the batch is done.
    void beginBatch();
    void endBatch();
    static constexpr std::size_t kBatchRows = 256; // PostgreSQL: one advisory lock per row
    // States of the batch not yet written, plus those waiting behind it (0: no batch).
    [[nodiscard]] qint64 batchPending() const { return m_batchPending.load(); }
    // The heartbeat: every open row of `cluster` by `source` was seen running at `now`
    // (UsageStore::markIntervalsSeen). Only while the database answers and nothing is
    // spooled; never spooled itself.
    void markSeen(const QString &cluster, const QString &source, qint64 now);
    // The open intervals the database holds for `cluster` written by `source`. Only
    // while databaseAvailable() and the spool is empty (else the answer is stale).
    [[nodiscard]] Result<std::vector<UsageInterval>> openIntervals(const QString &cluster,
                                                                   const QString &source);

    // False also while the probe finds the database silent (LedgerProbe), although
    // this thread may still wait in a statement on the dead connection.
    [[nodiscard]] bool databaseAvailable() const { return m_available.load() && !m_probeDown.load(); }
    [[nodiscard]] bool spoolWritable() const { return m_spoolWritable.load(); }
    [[nodiscard]] qint64 spoolDepth() const { return m_spoolDepth.load(); }
    [[nodiscard]] qint64 lastDatabaseWrite() const { return m_lastWrite.load(); } // epoch s, 0: never
    [[nodiscard]] qint64 written() const { return m_written.load(); }             // states stored
    [[nodiscard]] qint64 spooled() const { return m_spooledTotal.load(); }        // states spooled
    // States neither the database nor the spool could take, held in memory.
    [[nodiscard]] qint64 held() const { return m_heldCount.load(); }
    [[nodiscard]] qint64 heldSince() const { return m_heldSince.load(); } // epoch s, 0: none held
    // States dropped because more than kMaxHeld were held: lost for good.
    [[nodiscard]] qint64 lost() const { return m_lostTotal.load(); }
    // When a state last found nothing to persist it (epoch s, 0: never): readiness
    // waits a while after it, so a filling disk does not make it flap.
    [[nodiscard]] qint64 lastPersistFailure() const { return m_lastPersistFailure.load(); }
    static constexpr std::size_t kMaxHeld = 500000;
    static constexpr int kPingIntervalMs = 10 * 1000;
    // How long a ping waits for the database's answer before it counts as unavailable.
    static constexpr int kPingTimeoutMs = 5 * 1000;
    // Spool entries a replay found torn or unreadable and skipped (each is logged).
    [[nodiscard]] qint64 spoolSkipped() const { return m_spoolSkipped.load(); }
    [[nodiscard]] QString lastError() const;
    // The open store, for hook points that read the same database on this thread
    // (enforcement, alerts); nullptr while the database is down.
    [[nodiscard]] UsageStore *store() const { return m_store.get(); }

Q_SIGNALS:
    // The database answers again (or for the first time) and the spool is replayed.
    void databaseReady();
    void databaseLost(const gq::Error &error);

private:
    bool connect();
    bool replay();
    void fail(const Error &error);
    void spool(const SpoolEntry &entry);
    void hold(const SpoolEntry &entry, const Error &why);
    bool drainHeldToSpool();
    bool writeHeld();
    void write(const SpoolEntry &entry);
    Result<void> apply(const SpoolEntry &entry);
    static Result<void> applyTo(UsageStore &store, const SpoolEntry &entry);
    struct BatchJob;
    // On the batch lane: writes the job's states in chunks until `token` is cancelled
    // (see endBatch); the error that stopped it early, if any.
    std::optional<Error> runBatch(StoreWorker &worker, BatchJob &job, const JobToken &token);
    // Back on this thread: what the batch did not write is spooled, then what waited.
    void finishBatch(const std::shared_ptr<BatchJob> &job, const std::optional<Error> &error);
    // PostgreSQL: a probe (LedgerProbe) asks the database every kPingIntervalMs, bounded
    // by kPingTimeoutMs. A silent network cut then shows in readiness even while this
    // thread waits in a statement on the dead connection (until the kernel's
    // tcp_user_timeout ends it); this thread is told to drop its connection too (fail(),
    // delivered by m_jobs).
    void startProbe();
    bool probed(const Result<void> &r);

    QString m_url;
    UsageStore::Options m_options;
    IntervalSpool m_spool;
    std::unique_ptr<UsageStore> m_store;
    QTimer m_retry;
    QTimer m_ping;
    QString m_lastError;
    std::atomic<bool> m_available{false};
    std::atomic<bool> m_spoolWritable{true};
    std::atomic<qint64> m_spoolDepth{0};
    std::atomic<qint64> m_lastWrite{0};
    const Clock *m_clock = &Clock::system();
    std::atomic<qint64> m_written{0};
    std::atomic<qint64> m_spooledTotal{0};
    std::unique_ptr<LedgerProbe> m_probe;
    std::atomic<bool> m_probeDown{false};
    std::deque<SpoolEntry> m_held;
    bool m_batching = false;
    std::vector<SpoolEntry> m_batch;
    std::shared_ptr<BatchJob> m_inFlight;   // the batch being written, null when none
    std::deque<SpoolEntry> m_afterBatch;    // submitted while it is written, in order
    std::unique_ptr<UsageLane> m_batchLane; // opened at the first batch
    std::atomic<qint64> m_batchPending{0};
    std::atomic<qint64> m_heldCount{0};
    std::atomic<qint64> m_heldSince{0};
    std::atomic<qint64> m_lostTotal{0};
    std::atomic<qint64> m_lastPersistFailure{0};
    std::atomic<qint64> m_spoolSkipped{0};
    mutable std::mutex m_errorMutex;
    JobTracker m_jobs{this}; // last: the batch and the probe stop before the rest goes
};

} // namespace gq
