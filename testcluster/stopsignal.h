#pragma once

#include <thread>

namespace gq::tc {

// A stop request from outside, taken on one thread of its own: SIGTERM and SIGINT on
// POSIX (blocked in every thread and collected with sigwait), Ctrl+C, Ctrl+Break and
// a closing console on Windows.
class StopSignal {
public:
    // Call before any other thread exists, so threads started later inherit it
    // (POSIX: the signal mask; a closed client socket must not kill us: SIGPIPE ignored).
    StopSignal();
    // Blocks until a stop request arrives or wake() is called.
    void wait();
    // Ends the wait() of `waiter` without a request.
    void wake(std::thread &waiter);
};

} // namespace gq::tc
