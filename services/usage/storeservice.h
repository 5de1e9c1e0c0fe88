#pragma once

#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"
#include "core/usage/usagestore.h"

#include <QObject>

#include <memory>

namespace gq {

class Clock;
class StoreWorker;
class UsageDatabase;
class UsageLane;

// A service over the usage database: a lane of the console's UsageDatabase (a thread
// with a UsageStore of its own: a store belongs to the thread that opened it, and no page
// waits behind another's queries), the clock that says what "now" is, and one JobTracker
// that brings the answers back as signals. BoostService, BudgetService and UsageService
// add their jobs. Without a database given, the service makes one of its own.
class StoreService : public QObject {
    Q_OBJECT
public:
    ~StoreService() override;

    // Points the database at `url` (every lane follows at its next job) and connects this
    // service's lane now; opened() or failed() follows.
    // `password`: PostgreSQL's, from the keychain (empty: PGPASSWORD / ~/.pgpass).
    void open(const QString &url, const QString &password = {});
    [[nodiscard]] bool isOpen() const { return m_open; }
    // What "now" is; must outlive this object and be safe to read from another thread.
    void setClock(const Clock *clock) { m_clock = clock; }
    [[nodiscard]] const Clock &clock() const { return *m_clock; }

signals:
    void opened();
    void failed(const gq::Error &error);

protected:
    // `worker` (owned from here on) lives on a lane of `database` (null: one of its own)
    // named `threadName`; its store opens with `options` and, with `withAudit`, an audit
    // log over it.
    StoreService(StoreWorker *worker, const QString &threadName, const UsageStore::Options &options,
                 bool withAudit, UsageDatabase *database, QObject *parent);
    // After opened(), on this object's thread.
    virtual void whenOpened() {}
    // Nothing still out is delivered any more, and the store is closed on its thread and
    // the lane stopped. A derived class calls it first in its destructor, before its
    // own members go; again, it does nothing.
    void shutDown();

    StoreWorker *const m_worker;
    const Clock *m_clock;
    bool m_open = false;
    JobTracker m_jobs{this};

private:
    UsageDatabase *m_database; // the given one, or a child of this object
    std::unique_ptr<UsageLane> m_lane;
};

} // namespace gq
