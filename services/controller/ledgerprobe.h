#pragma once

#include "core/domain/result.h"
#include "core/jobs/jobtracker.h"
#include "core/jobs/workerthread.h"
#include "core/usage/dburl.h"

#include <QObject>

#include <functional>
#include <memory>

namespace gq {

class UsageConnection;

// The LedgerWriter's probe (PostgreSQL): asks the database at once and then every
// intervalMs, each answer bounded by timeoutMs, on a connection and a thread of its
// own, so a silent network cut shows even while the writer's thread waits in a
// statement on its dead connection. Each probe is a slice on the probe's thread that
// queues the next one there (a timer) while its JobToken is live: the owner's
// JobTracker::cancel() (or its destruction) stops them. The connection is opened,
// used and closed on the probe's thread; a probe that failed drops it and the next
// opens a new one.
class LedgerProbe final {
public:
    // Each probe's answer, on the probe's thread (must not block).
    using Report = std::function<void(const Result<void> &)>;

    LedgerProbe(DbUrl url, int intervalMs, int timeoutMs);
    ~LedgerProbe();
    Q_DISABLE_COPY_MOVE(LedgerProbe)

    // Starts the probes; they stop once `token` is cancelled.
    void start(const JobToken &token, Report report);
    // Waits for a probe in progress, closes the connection on its thread and stops the
    // thread; again, it does nothing. Cancel the token first.
    void shutDown();

private:
    class Worker;
    Worker *const m_worker;
    WorkerThread m_thread;
};

} // namespace gq
