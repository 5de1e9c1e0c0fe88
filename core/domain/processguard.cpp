#include "core/domain/processguard.h"

#include <QString>
#include <QtGlobal>

#ifdef Q_OS_LINUX
#include <sys/prctl.h>
#include <sys/resource.h>
#endif

namespace gq {

void protectProcessSecrets() {
    if (qEnvironmentVariable("GQ_ALLOW_CORE_DUMPS") == QLatin1String("1"))
        return;
#ifdef Q_OS_LINUX
    const rlimit none{0, 0};
    setrlimit(RLIMIT_CORE, &none);
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

} // namespace gq
