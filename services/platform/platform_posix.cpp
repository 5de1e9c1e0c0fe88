#include "services/platform/platform.h"

#include <QFile>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

namespace gq::platform {

bool processIsGone(qint64 pid) {
    // Signal 0 checks existence and permission without sending anything.
    return ::kill(static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH;
}

bool syncFile(QFile &file) {
    return file.flush() && ::fsync(file.handle()) == 0;
}

Result<void> syncDirectory(const QString &dir) {
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot open the spool directory %1: %2")
                               .arg(dir, QString::fromLocal8Bit(std::strerror(errno))),
                           QStringLiteral("spool"));
    const bool ok = ::fsync(fd) == 0;
    const int err = errno;
    ::close(fd);
    if (!ok)
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot sync the spool directory %1: %2")
                               .arg(dir, QString::fromLocal8Bit(std::strerror(err))),
                           QStringLiteral("spool"));
    return {};
}

QString osUserName() {
    if (const passwd *pw = ::getpwuid(::geteuid()); pw && pw->pw_name && *pw->pw_name)
        return QString::fromLocal8Bit(pw->pw_name);
    return QStringLiteral("uid:%1").arg(::geteuid());
}

} // namespace gq::platform
