#pragma once

#include "core/domain/error.h"
#include "core/usage/auditlog.h"
#include "core/usage/usagestore.h"

#include <QDeadlineTimer>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace gq {

class UsageTarget;

// The database side of a service, living on its lane's thread (see UsageLane): the
// store, and the audit log over it where the service writes one. UsageService derives
// its worker from it to add what only it needs.
class StoreWorker : public QObject {
public:
    // Opens a store for a lane that is not a UsageDatabase's (the controller's, whose
    // options and URL are its own); called on the lane's thread.
    using Opener = std::function<Result<std::unique_ptr<UsageStore>>()>;

    std::unique_ptr<UsageStore> store;
    std::unique_ptr<AuditLog> audit; // only for a lane made withAudit

    // On the worker's thread, first in every job: the store, opened here on first use
    // and again after the database's URL or password changed (the children go first:
    // they may hold the old store). The error every job reports while nothing can be
    // opened (no URL yet, closed, or the open failed).
    [[nodiscard]] Result<void> ready();
    // On the worker's thread: connects now (again), for a service's open(); undoes close().
    [[nodiscard]] Result<void> open();
    // On the worker's thread: the worker's children first (they may use the store), then
    // the audit log and the store; ready() refuses until the next open().
    void close();
    // On the worker's thread, after a job failed with a Database error: the connection
    // may be broken for good (a restarted server) and is not repaired in place; the
    // store goes (the children first) and the next job opens a new one.
    void drop();
    // On the worker's thread: `job(*store)` once ready(), and drop() after its Database
    // error; `job` returns a Result.
    template <typename Job> auto withStore(const Job &job) -> decltype(job(std::declval<UsageStore &>())) {
        if (auto r = ready(); !r)
            return r.error();
        auto r = job(*store);
        if (!r && r.error().kind == Error::Kind::Database)
            drop();
        return r;
    }

private:
    friend class UsageLane;
    // Before the worker moves to its thread.
    void connectTo(std::shared_ptr<UsageTarget> target, const UsageStore::Options &options, bool withAudit);
    void openWith(Opener open, int reopenMs);
    [[nodiscard]] Result<void> readyFromOpener();
    void release();

    std::shared_ptr<UsageTarget> m_target;
    UsageStore::Options m_options;
    bool m_withAudit = false;
    bool m_closed = false;
    quint64 m_epoch = 0;   // the target's epoch the store was last opened at
    bool m_failed = false; // that open failed (retried by open(), or a new epoch)
    // A lane with an opener (openWith) instead of a target: after a failed open, every
    // job fails at once with its error until reopenMs passed, then the next one retries.
    bool m_hasOpener = false;
    Opener m_opener;
    int m_reopenMs = 1000;
    std::optional<Error> m_lastFailure;
    QDeadlineTimer m_retryAt;
};

} // namespace gq
