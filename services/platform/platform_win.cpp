// Windows versions of platform.h. Not compiled on this project's CI (Debian); built by
// .github/workflows/windows.yml with MSVC.
#include "services/platform/platform.h"

#include <QFile>

#include <iterator>

#include <io.h>
#include <windows.h>

namespace gq::platform {

bool processIsGone(qint64 pid) {
    HANDLE process =
        OpenProcess(SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, FALSE, static_cast<DWORD>(pid));
    if (!process) // no such process; access denied means it exists
        return GetLastError() == ERROR_INVALID_PARAMETER;
    // A process that has exited but whose handle someone still holds is gone too.
    const bool exited = WaitForSingleObject(process, 0) == WAIT_OBJECT_0;
    CloseHandle(process);
    return exited;
}

bool syncFile(QFile &file) {
    if (!file.flush())
        return false;
    const auto handle = reinterpret_cast<HANDLE>(_get_osfhandle(file.handle()));
    return handle != INVALID_HANDLE_VALUE && FlushFileBuffers(handle) != 0;
}

Result<void> syncDirectory(const QString &) {
    return {};
}

QString osUserName() {
    wchar_t name[256 + 1];
    DWORD size = DWORD(std::size(name));
    if (GetUserNameW(name, &size) && size > 1)
        return QString::fromWCharArray(name, int(size) - 1); // size counts the terminator
    return QStringLiteral("unknown");
}

} // namespace gq::platform
