#pragma once

#include <QFuture>
#include <QMetaObject>
#include <QMutex>
#include <QObject>
#include <QThreadPool>

#include <memory>
#include <type_traits>
#include <utility>

namespace gq {

// The one way a result made off the receiver's thread comes back to it.
//
// A JobTracker is a member of the receiving object (constructed with `this`). Each job
// is stamped with the tracker's generation when it starts; its result is delivered by a
// queued call on the receiver's thread, and only if, at that moment, the receiver is
// alive and the generation has not moved on. cancel() moves it on, so every job still
// out is dropped there (a replaced query, a closed page, a switched context), and the
// destructor drops them all. Nothing runs nested event loops, nothing blocks.
//
//   JobTracker m_jobs{this};
//   m_jobs.run([spec] { return validate(spec); },        // on the thread pool
//              [this](QList<Error> errors) { show(errors); });
//   m_jobs.watch(client->get(...), [this](const Result<QJsonObject> &r) { ... });
//   m_jobs.runOn(worker, [w = worker] { return w->load(); }, [this](Rows rows) { ... });
//   auto done = m_jobs.deliverer<Report>([this](Report r) { ... }); // called later, anywhere
class JobTracker final {
public:
    explicit JobTracker(QObject *receiver)
        : m_state(std::make_shared<State>(receiver)) {}
    ~JobTracker() {
        QMutexLocker lock(&m_state->mutex);
        m_state->receiver = nullptr;
    }
    Q_DISABLE_COPY_MOVE(JobTracker)

    // Drops every job still out; jobs started after this call are delivered.
    void cancel() {
        QMutexLocker lock(&m_state->mutex);
        ++m_state->generation;
    }

    // The generation a job started now gets; a job is current while it equals this.
    [[nodiscard]] quint64 generation() const {
        QMutexLocker lock(&m_state->mutex);
        return m_state->generation;
    }

    // Runs `work()` on `pool` (the global pool by default) and hands its result to
    // `deliver` on the receiver's thread.
    template <typename Work, typename Deliver>
    void run(Work work, Deliver deliver, QThreadPool *pool = QThreadPool::globalInstance()) {
        pool->start(
            [state = m_state, gen = generation(), work = std::move(work),
             deliver = std::move(deliver)]() mutable { post(state, gen, std::move(deliver), work()); });
    }

    // Runs `work()` on the thread of `executor` (a worker object owning, say, a database
    // connection) and hands its result to `deliver` on the receiver's thread. `executor`
    // must outlive the call being queued (it is owned by the receiver's side).
    template <typename Work, typename Deliver> void runOn(QObject *executor, Work work, Deliver deliver) {
        QMetaObject::invokeMethod(
            executor,
            [state = m_state, gen = generation(), work = std::move(work),
             deliver = std::move(deliver)]() mutable { post(state, gen, std::move(deliver), work()); },
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
    // any thread; each call is one delivery.
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
    struct State {
        explicit State(QObject *r)
            : receiver(r) {}
        mutable QMutex mutex;
        QObject *receiver;
        quint64 generation = 0; // guarded by mutex, like receiver
    };

    // Holding the mutex keeps the receiver from being destroyed while the call is queued
    // (its tracker, a member, must take the mutex first); an event queued for a receiver
    // that dies before it runs is discarded by ~QObject, and `alive` is rechecked anyway.
    template <typename Deliver, typename Value>
    static void post(const std::shared_ptr<State> &state, quint64 gen, Deliver deliver, Value value) {
        QMutexLocker lock(&state->mutex);
        if (!state->receiver || state->generation != gen)
            return;
        QMetaObject::invokeMethod(
            state->receiver,
            [state, gen, deliver = std::move(deliver), value = std::move(value)]() mutable {
                {
                    QMutexLocker check(&state->mutex);
                    if (!state->receiver || state->generation != gen)
                        return;
                }
                deliver(std::move(value));
            },
            Qt::QueuedConnection);
    }

    std::shared_ptr<State> m_state;
};

} // namespace gq
