#pragma once

#include <QElapsedTimer>

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace gq {

// Wall time per phase of a long operation (a CSV import), printed to stderr when
// GQ_PHASE_TIMES is set: how a profile is taken on a machine without perf. Phases
// are fixed-size slots; the cost when unset is one clock read per phase.
class PhaseTimes {
public:
    enum Phase { Scan, Lookup, Parse, Rollups, Intervals, RollupWrite, Indexes, Commit, Count };

    static PhaseTimes &instance() {
        static PhaseTimes t;
        return t;
    }
    void add(Phase p, qint64 ns, qint64 cpuNs = 0) {
        m_ns[p] += ns;
        m_cpuNs[p] += cpuNs;
    }
    // This thread's CPU time: on a shared machine wall time mostly measures the others.
    // Windows has no CLOCK_THREAD_CPUTIME_ID; there the CPU column stays 0.
    static qint64 cpuNow() {
#ifdef _WIN32
        return 0;
#else
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
#endif
    }
    void print() const {
        if (!std::getenv("GQ_PHASE_TIMES"))
            return;
        static const char *const names[Count] = {"scan",      "lookup",       "parse",   "rollups",
                                                 "intervals", "rollup-write", "indexes", "commit"};
        for (int i = 0; i < Count; ++i)
            if (m_ns[i])
                std::fprintf(stderr, "phase %-13s %8.3f s wall %8.3f s cpu\n", names[i],
                             double(m_ns[i]) / 1e9, double(m_cpuNs[i]) / 1e9);
    }

    // Adds the time from construction to destruction to `phase`.
    class Scope {
    public:
        explicit Scope(Phase p)
            : m_phase(p)
            , m_cpu(cpuNow()) {
            m_timer.start();
        }
        ~Scope() { PhaseTimes::instance().add(m_phase, m_timer.nsecsElapsed(), cpuNow() - m_cpu); }
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;

    private:
        Phase m_phase;
        qint64 m_cpu;
        QElapsedTimer m_timer;
    };

private:
    qint64 m_ns[Count] = {};
    qint64 m_cpuNs[Count] = {};
};

} // namespace gq
