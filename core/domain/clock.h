#pragma once

#include <QDateTime>
#include <QtGlobal>

#include <atomic>

namespace gq {

// The one seam for "now". Budget periods, open usage intervals, boost expiry and idle
// detection all ask a Clock instead of the system, so tests (and `--now T` on the
// command line) can pin time to the second. Instants are epoch seconds: the ledger's
// precision is one second by design. What stamps a reading or measures a wait in
// milliseconds (snapshots, sign-in waits, retry deadlines) asks nowMSecs()/nowUtc().
// This file is the only one that asks the system (tst_clockcalls checks the tree).
class Clock {
public:
    virtual ~Clock() = default;
    [[nodiscard]] virtual qint64 nowSecs() const = 0;
    // Milliseconds since the epoch; a clock that keeps seconds answers nowSecs() * 1000.
    [[nodiscard]] virtual qint64 nowMSecs() const { return nowSecs() * 1000; }
    [[nodiscard]] QDateTime now() const { return QDateTime::fromSecsSinceEpoch(nowSecs(), Qt::UTC); }
    // nowMSecs() as a UTC date-time (milliseconds kept).
    [[nodiscard]] QDateTime nowUtc() const { return QDateTime::fromMSecsSinceEpoch(nowMSecs(), Qt::UTC); }

    // The process-wide system clock; never destroyed.
    static const Clock &system();
};

class SystemClock final : public Clock {
public:
    [[nodiscard]] qint64 nowSecs() const override { return QDateTime::currentSecsSinceEpoch(); }
    [[nodiscard]] qint64 nowMSecs() const override { return QDateTime::currentMSecsSinceEpoch(); }
};

// A clock that only moves when told to. Thread-safe, so a test can advance it while
// a worker thread reads it.
class ManualClock final : public Clock {
public:
    explicit ManualClock(qint64 secs = 0)
        : m_secs(secs) {}
    explicit ManualClock(const QDateTime &t)
        : m_secs(t.toSecsSinceEpoch()) {}
    [[nodiscard]] qint64 nowSecs() const override { return m_secs.load(); }
    void set(qint64 secs) { m_secs.store(secs); }
    void set(const QDateTime &t) { m_secs.store(t.toSecsSinceEpoch()); }
    void advance(qint64 secs) { m_secs.fetch_add(secs); }

private:
    std::atomic<qint64> m_secs;
};

inline const Clock &Clock::system() {
    static const SystemClock clock;
    return clock;
}

} // namespace gq
