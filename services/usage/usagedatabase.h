#pragma once

#include "core/domain/error.h"
#include "core/jobs/workerthread.h"
#include "core/usage/usagestore.h"
#include "services/usage/storeworker.h"

#include <QMutex>
#include <QObject>
#include <QString>

#include <memory>

namespace gq {

// Where a UsageDatabase's lanes connect. Shared by the database and its lanes, so a lane
// may outlive the database object (QObject children go in creation order); any thread.
class UsageTarget final {
public:
    struct Snapshot {
        QString url;       // empty: nothing to open
        QString password;  // PostgreSQL's, from the keychain (empty: PGPASSWORD / ~/.pgpass)
        quint64 epoch = 0; // moves on whenever url or password change
    };
    // The same URL and password again change nothing (no lane reconnects).
    void set(const QString &url, const QString &password);
    [[nodiscard]] Snapshot get() const;

private:
    mutable QMutex m_mutex;
    Snapshot m_now; // guarded by m_mutex
};

// A worker thread of a UsageDatabase with its one connection (a StoreWorker): opened
// lazily on that thread by the first job that needs it (StoreWorker::ready()), reused by
// every later job, reopened when the database's URL or password changed, and closed on
// that thread when the lane goes. Jobs reach it through the owner's JobTracker:
// `m_jobs.runOn(lane->worker(), work, deliver)` (a cancelled or superseded job sees it
// through its JobToken and its late answer is dropped).
class UsageLane final {
public:
    UsageLane(std::shared_ptr<UsageTarget> target, StoreWorker *worker, const QString &threadName,
              const UsageStore::Options &options, bool withAudit);
    // A lane whose store `open` makes (the controller's: a URL and options of its own, not
    // a UsageDatabase's): opened by the first job, dropped after a job's Database error
    // (StoreWorker::drop()) and opened again by the next; after a failed open, jobs fail
    // at once with its error for `reopenMs` (StoreWorker::ready()).
    UsageLane(StoreWorker *worker, const QString &threadName, StoreWorker::Opener open, int reopenMs);
    ~UsageLane();
    Q_DISABLE_COPY_MOVE(UsageLane)

    // Lives on the lane's thread; owned by the lane.
    [[nodiscard]] StoreWorker *worker() const { return m_worker; }
    // Closes the connection on its thread (the worker's children first) and stops the
    // thread; again, it does nothing. The owner calls it before its jobs' state goes.
    void shutDown();

private:
    StoreWorker *const m_worker;
    WorkerThread m_thread;
};

// The console's one way to the usage database: it owns the URL and the password, and
// each service takes a lane from it (a thread with one connection of its own, so no page
// waits behind another's queries). open() moves every lane to the new database at its
// next job; the services report opened()/failed() for their own lane.
class UsageDatabase final : public QObject {
    Q_OBJECT
public:
    explicit UsageDatabase(QObject *parent = nullptr);

    // "sqlite:///abs/path.db", "postgresql://..."; `password`: PostgreSQL's, from the
    // keychain (empty: PGPASSWORD / ~/.pgpass).
    void open(const QString &url, const QString &password = {}) { m_target->set(url, password); }
    [[nodiscard]] QString url() const { return m_target->get().url; }

    // A new lane for `worker` (owned by the lane from here on) on a thread named
    // `threadName`; its store opens with `options` and, with `withAudit`, an audit log.
    [[nodiscard]] std::unique_ptr<UsageLane> lane(StoreWorker *worker, const QString &threadName,
                                                  const UsageStore::Options &options = {},
                                                  bool withAudit = false) const;

private:
    const std::shared_ptr<UsageTarget> m_target;
};

} // namespace gq
