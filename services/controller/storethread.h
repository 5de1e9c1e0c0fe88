#pragma once

#include "core/domain/result.h"
#include "core/usage/usagestore.h"

#include <QDeadlineTimer>
#include <QString>

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace gq {

// One thread that owns a UsageStore for callers on other threads (HTTP handlers): every
// job runs there, in order, so the store stays on the thread that opened it. The store
// is opened on first use, not before, and dropped after a Database error (a lost
// PostgreSQL connection is not repaired in place), so a caller started while the
// database was away, or that lived through a database restart, is served again as soon
// as it answers. After a failed open the next attempt waits reopenMs: until then jobs
// fail at once with the last error instead of each waiting out a connect.
class StoreThread final {
public:
    using Opener = std::function<Result<std::unique_ptr<UsageStore>>()>;

    explicit StoreThread(Opener open, int reopenMs = 1000)
        : m_open(std::move(open))
        , m_reopenMs(reopenMs)
        , m_thread([this] { loop(); }) {}
    ~StoreThread() {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }
    StoreThread(const StoreThread &) = delete;
    StoreThread &operator=(const StoreThread &) = delete;

    // Runs job on the store's thread and waits for it.
    template <typename T> Result<T> run(std::function<Result<T>(UsageStore &)> job) {
        auto promise = std::make_shared<std::promise<Result<T>>>();
        std::future<Result<T>> future = promise->get_future();
        {
            std::lock_guard lock(m_mutex);
            m_jobs.push_back([this, job = std::move(job), promise] {
                if (auto opened = ensureOpen(); !opened) {
                    promise->set_value(opened.error());
                    return;
                }
                Result<T> r = job(*m_store);
                if (!r && r.error().kind == Error::Kind::Database)
                    m_store.reset();
                promise->set_value(std::move(r));
            });
        }
        m_wake.notify_one();
        return future.get();
    }

private:
    // On the store's thread.
    Result<void> ensureOpen() {
        if (m_store)
            return {};
        if (!m_open)
            return Error::make(Error::Kind::Config, QStringLiteral("no usage database"));
        if (m_lastFailure && !m_retryAt.hasExpired())
            return *m_lastFailure;
        auto opened = m_open();
        if (!opened) {
            m_lastFailure = opened.error();
            m_retryAt = QDeadlineTimer(m_reopenMs);
            return opened.error();
        }
        m_lastFailure.reset();
        m_store = std::move(opened).value();
        return {};
    }

    void loop() {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [this] { return m_stop || !m_jobs.empty(); });
                if (m_jobs.empty())
                    break;
                job = std::move(m_jobs.front());
                m_jobs.pop_front();
            }
            job();
        }
        m_store.reset(); // closed on the thread that opened it
    }

    Opener m_open;
    const int m_reopenMs;
    std::unique_ptr<UsageStore> m_store; // the store's thread only
    std::optional<Error> m_lastFailure;  // the store's thread only
    QDeadlineTimer m_retryAt;            // the store's thread only
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_jobs;
    bool m_stop = false;
    std::thread m_thread; // last: starts once everything above exists
};

} // namespace gq
