#pragma once

// The few operating-system calls the services, the CLI and the controller need, with
// one implementation per platform: platform_posix.cpp (Linux, the BSDs, macOS) and
// platform_win.cpp, chosen in CMake like quitonsignal_*.cpp.

#include "core/domain/result.h"

#include <QString>

class QFile;

namespace gq::platform {

// True only when no process with this id exists on this machine any more (a process
// that exists but belongs to another user is not gone).
bool processIsGone(qint64 pid);

// Flushes an open file's data and metadata to the disk (fsync; FlushFileBuffers).
bool syncFile(QFile &file);

// Makes a directory's entries (a created or removed file) durable: fsync of the
// directory on POSIX; a no-op on Windows, where NTFS journals them and a directory
// cannot be flushed.
Result<void> syncDirectory(const QString &dir);

// The account this process runs as, for audit records: its name, or "uid:N" (POSIX)
// where it has none. Not $USER / %USERNAME%, which the caller's environment could set.
QString osUserName();

} // namespace gq::platform
