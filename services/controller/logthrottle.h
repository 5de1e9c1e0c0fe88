#pragma once

#include <QDeadlineTimer>

#include <mutex>

namespace gq {

// Rate-limits a repeated log line (a failing Lease renewal, an unreachable API server
// behind every request): the first occurrence is logged, then at most one per
// interval, saying how many were not. Thread-safe.
class LogThrottle {
public:
    explicit LogThrottle(qint64 intervalMs = 10000)
        : m_intervalMs(intervalMs) {}

    // True when this occurrence is to be logged; `suppressed` is then how many were
    // not since the last one logged.
    bool allow(qint64 &suppressed) {
        std::lock_guard lock(m_mutex);
        if (m_next.isForever() || m_next.hasExpired()) {
            suppressed = m_suppressed;
            m_suppressed = 0;
            m_next.setRemainingTime(m_intervalMs);
            return true;
        }
        ++m_suppressed;
        return false;
    }

private:
    std::mutex m_mutex;
    qint64 m_intervalMs;
    QDeadlineTimer m_next{QDeadlineTimer::Forever};
    qint64 m_suppressed = 0;
};

} // namespace gq
