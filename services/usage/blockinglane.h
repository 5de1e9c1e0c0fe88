#pragma once

#include "core/domain/result.h"
#include "core/jobs/jobtracker.h"
#include "core/usage/usagestore.h"
#include "services/usage/storeworker.h"
#include "services/usage/usagedatabase.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace gq {

// A UsageLane for callers with no event loop to return to (the controller's HTTP
// handler threads): run() hands the job to the lane's thread through a JobTracker of
// the caller's own and waits for the answer with a JobWait, so the store stays on the
// thread that opened it and jobs run there in order. What the lane keeps (UsageLane's
// opener constructor): the store is opened by the first job, not before; a job's
// Database error drops it (a lost PostgreSQL connection is not repaired in place) and
// the next job opens a new one; after a failed open, jobs fail at once with that error
// for reopenMs instead of each waiting out a connect. Closed on its thread when the
// lane goes (after every job already handed to it). run() is safe from any number of
// threads at once; never from the lane's own.
class BlockingLane final {
public:
    BlockingLane(StoreWorker::Opener open, const QString &threadName, int reopenMs = 1000)
        : m_lane(std::make_unique<UsageLane>(new StoreWorker, threadName, std::move(open), reopenMs)) {}
    Q_DISABLE_COPY_MOVE(BlockingLane)

    // Runs `job` on the lane's thread with its store and waits for the answer.
    template <typename T> Result<T> run(std::function<Result<T>(UsageStore &)> job) const {
        Waiter &w = waiter();
        std::optional<Result<T>> answer;
        w.jobs.runOn(
            m_lane->worker(),
            [lane = m_lane->worker(), job = std::move(job)] { return lane->withStore(job); },
            [&answer](Result<T> r) { answer.emplace(std::move(r)); });
        w.wait.until([&answer] { return answer.has_value(); });
        return std::move(*answer);
    }

private:
    // The calling thread's receiver, tracker and wait, made once per thread and kept
    // (a review per request on the webhook's hot path: #24's benchmark). Each run()
    // waits for its own answer before it returns, so no answer of an earlier call is
    // still out when the next one starts on the same thread.
    struct Waiter {
        QObject receiver; // on the calling thread: where the answers are delivered
        JobTracker jobs{&receiver};
        JobWait wait;
    };
    static Waiter &waiter() {
        thread_local Waiter w;
        return w;
    }
    std::unique_ptr<UsageLane> m_lane;
};

} // namespace gq
