#include "testcluster/stopsignal.h"

#include <csignal>

#include <pthread.h>

namespace gq::tc {

namespace {
sigset_t stopSet() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    return set;
}
} // namespace

StopSignal::StopSignal() {
    const sigset_t set = stopSet();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
}

void StopSignal::wait() {
    const sigset_t set = stopSet();
    int sig = 0;
    sigwait(&set, &sig);
}

// The signal is blocked, so it stays pending until the waiter's sigwait takes it.
void StopSignal::wake(std::thread &waiter) {
    pthread_kill(waiter.native_handle(), SIGTERM);
}

} // namespace gq::tc
