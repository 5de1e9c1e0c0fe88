#include "testcluster/stopsignal.h"

#include <windows.h>

namespace gq::tc {

namespace {
// Manual-reset: once stopped, every wait() returns.
HANDLE stopEvent() {
    static HANDLE event = CreateEventW(nullptr, TRUE, FALSE, nullptr);
    return event;
}

BOOL WINAPI onControlEvent(DWORD) {
    SetEvent(stopEvent());
    return TRUE;
}
} // namespace

StopSignal::StopSignal() {
    SetConsoleCtrlHandler(onControlEvent, TRUE);
}

void StopSignal::wait() {
    WaitForSingleObject(stopEvent(), INFINITE);
}

void StopSignal::wake(std::thread &) {
    SetEvent(stopEvent());
}

} // namespace gq::tc
