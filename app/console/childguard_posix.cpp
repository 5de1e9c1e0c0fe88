#include "app/console/childguard.h"

#include <QProcess>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#endif

namespace gq {

void stopChildWithParent([[maybe_unused]] QProcess &process) {
#ifdef Q_OS_LINUX
    const pid_t parentPid = ::getpid();
    process.setChildProcessModifier([parentPid] {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parentPid) // the parent died before prctl took effect
            ::raise(SIGTERM);
    });
#endif
}

} // namespace gq
