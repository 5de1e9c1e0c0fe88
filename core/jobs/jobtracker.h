#pragma once

#include <QFuture>
#include <QMetaObject>
#include <QMutex>
#include <QObject>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace gq {

namespace jobdetail {
struct State {
    explicit State(QObject *r)
        : receiver(r) {}
    mutable QMutex mutex;
    QObject *receiver;      // guarded by mutex; null once the tracker is gone
    quint64 generation = 0; // guarded by mutex, like receiver
    [[nodiscard]] bool current(quint64 gen) const {
        QMutexLocker lock(&mutex);
        return receiver && generation == gen;
    }
};
// Hands `fn` to the receiver's thread: to a JobWait running there, else to its event loop.
void deliver(QObject *receiver, std::function<void()> fn);
} // namespace jobdetail

// What a job sees of its tracker: isCancelled() turns true once its result would be
// dropped (the tracker's cancel(), or the tracker destroyed with its receiver). A long
// job checks it between steps and returns early; whatever it returns then is dropped.
// Cheap (one uncontended lock); copy it freely, to any thread.
class JobToken final {
public:
    JobToken() = default; // never cancelled: for calling a job's code outside a tracker
    [[nodiscard]] bool isCancelled() const { return m_state && !m_state->current(m_gen); }

private:
    friend class JobTracker;
    JobToken(std::shared_ptr<const jobdetail::State> state, quint64 gen)
        : m_state(std::move(state))
        , m_gen(gen) {}
    std::shared_ptr<const jobdetail::State> m_state;
    quint64 m_gen = 0;
};

// The one way a result made off the receiver's thread comes back to it.
//
// A JobTracker is a member of the receiving object (constructed with `this`). Each job
// is stamped with the tracker's generation when it starts; its result is delivered by a
// queued call on the receiver's thread, and only if, at that moment, the receiver is
// alive and the generation has not moved on. cancel() moves it on, so every job still
// out is dropped there (a replaced query, a closed page, a switched context), and the
// destructor drops them all. A job that takes a JobToken sees that too, while it runs,
// and can stop early. Nothing runs nested event loops, nothing blocks.
//
//   JobTracker m_jobs{this};
//   m_jobs.run([spec] { return validate(spec); },        // on the thread pool
//              [this](QList<Error> errors) { show(errors); });
//   m_jobs.run([q](const JobToken &t) { return scan(q, t); }, // stops when cancelled
//              [this](Rows rows) { ... });
//   m_jobs.watch(client->get(...), [this](const Result<QJsonObject> &r) { ... });
//   m_jobs.runOn(worker, [w = worker] { return w->load(); }, [this](Rows rows) { ... });
//   auto done = m_jobs.deliverer<Report>([this](Report r) { ... }); // called later, anywhere
//
// A caller with no event loop to return to (a CLI verb, a test) waits with a JobWait.
class JobTracker final {
public:
    explicit JobTracker(QObject *receiver)
        : m_state(std::make_shared<jobdetail::State>(receiver)) {}
    ~JobTracker() {
        QMutexLocker lock(&m_state->mutex);
        m_state->receiver = nullptr;
    }
    Q_DISABLE_COPY_MOVE(JobTracker)

    // Drops every job still out (and tells them through their tokens); jobs started
    // after this call are delivered.
    void cancel() {
        QMutexLocker lock(&m_state->mutex);
        ++m_state->generation;
    }

    // The generation a job started now gets; a job is current while it equals this.
    [[nodiscard]] quint64 generation() const {
        QMutexLocker lock(&m_state->mutex);
        return m_state->generation;
    }

    // A token for work started now that finishes later by itself (see deliverer()).
    [[nodiscard]] JobToken token() const { return JobToken(m_state, generation()); }

    // Runs `work()` (or `work(token)`) on `pool` (the global pool by default) and hands
    // its result to `deliver` on the receiver's thread.
    template <typename Work, typename Deliver>
    void run(Work work, Deliver deliver, QThreadPool *pool = QThreadPool::globalInstance()) {
        pool->start([state = m_state, token = token(), work = std::move(work),
                     deliver = std::move(deliver)]() mutable {
            post(state, token.m_gen, std::move(deliver), invoke(work, token));
        });
    }

    // Runs `work()` (or `work(token)`) on the thread of `executor` (a worker object
    // owning, say, a database connection) and hands its result to `deliver` on the
    // receiver's thread. `executor` must outlive the call being queued (it is owned by
    // the receiver's side).
    template <typename Work, typename Deliver> void runOn(QObject *executor, Work work, Deliver deliver) {
        QMetaObject::invokeMethod(
            executor,
            [state = m_state, token = token(), work = std::move(work),
             deliver = std::move(deliver)]() mutable {
                post(state, token.m_gen, std::move(deliver), invoke(work, token));
            },
            Qt::QueuedConnection);
    }

    // Hands the future's result to `deliver` on the receiver's thread. A cancelled
    // future delivers nothing.
    template <typename T, typename Deliver> void watch(QFuture<T> future, Deliver deliver) {
        future.then([state = m_state, gen = generation(), deliver = std::move(deliver)](T value) mutable {
            post(state, gen, std::move(deliver), std::move(value));
        });
    }

    // For work that finishes later by itself (a job in slices that re-queues itself on a
    // worker thread): a callable, stamped with the generation now, that hands its
    // argument to `deliver` on the receiver's thread under the same rule. Call it from
    // any thread; each call is one delivery. Pair it with token() to stop the slices.
    template <typename Value, typename Deliver> [[nodiscard]] auto deliverer(Deliver deliver) {
        return [state = m_state, gen = generation(), deliver = std::move(deliver)](Value value) {
            post(state, gen, deliver, std::move(value));
        };
    }

    // Queues `fn()` on the receiver's thread from any thread, under the same rule.
    template <typename Fn> void post(Fn fn) {
        post(
            m_state, generation(), [fn = std::move(fn)](int) mutable { fn(); }, 0);
    }

private:
    using State = jobdetail::State;

    template <typename Work> static auto invoke(Work &work, const JobToken &token) {
        if constexpr (std::is_invocable_v<Work &, const JobToken &>)
            return work(token);
        else
            return work();
    }

    // Holding the mutex keeps the receiver from being destroyed while the call is queued
    // (its tracker, a member, must take the mutex first); an event queued for a receiver
    // that dies before it runs is discarded by ~QObject, and `alive` is rechecked anyway.
    template <typename Deliver, typename Value>
    static void post(const std::shared_ptr<State> &state, quint64 gen, Deliver deliver, Value value) {
        QMutexLocker lock(&state->mutex);
        if (!state->receiver || state->generation != gen)
            return;
        // std::function needs a copyable callable: the move-only parts ride in a shared box.
        auto box = std::make_shared<std::pair<Deliver, Value>>(std::move(deliver), std::move(value));
        jobdetail::deliver(state->receiver, [state, gen, box] {
            if (!state->current(gen))
                return;
            box->first(std::move(box->second));
        });
    }

    std::shared_ptr<State> m_state;
};

// Waits for JobTracker deliveries on a thread that has no event loop to return to (a
// CLI verb, a test; never the GUI thread): while a JobWait lives on a thread, every
// delivery to a receiver on that thread is handed to it instead of to the event loop,
// and until() runs them, in order, and nothing else (no timers, no other events, no
// deferred deletes), until its condition holds. Deliveries still held when it is
// destroyed go to the event loop as usual (or to a JobWait further up the stack, which
// takes over again). Create it before starting the work it waits for.
class JobWait final {
public:
    JobWait();
    ~JobWait();
    Q_DISABLE_COPY_MOVE(JobWait)

    // Runs deliveries as they come until `done()` holds: true; false when `timeoutMs`
    // (-1: none) passed first.
    bool until(const std::function<bool()> &done, int timeoutMs = -1);

    struct Held; // what jobdetail::deliver() hands its calls to

private:
    std::unique_ptr<Held> d;
};

} // namespace gq
