#include "app/console/childguard.h"

#include <QObject>
#include <QProcess>

#include <windows.h>

namespace gq {

void stopChildWithParent(QProcess &process) {
    // One job for the console's lifetime: its handle is never closed, so Windows
    // closes it when the console exits however it exits, and kills what is in it.
    static HANDLE job = [] {
        HANDLE h = CreateJobObjectW(nullptr, nullptr);
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits = {};
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        if (h)
            SetInformationJobObject(h, JobObjectExtendedLimitInformation, &limits, sizeof limits);
        return h;
    }();
    if (!job)
        return;
    QObject::connect(&process, &QProcess::started, &process, [&process] {
        if (HANDLE child =
                OpenProcess(PROCESS_SET_QUOTA | PROCESS_TERMINATE, FALSE, DWORD(process.processId()))) {
            AssignProcessToJobObject(job, child);
            CloseHandle(child);
        }
    });
}

} // namespace gq
