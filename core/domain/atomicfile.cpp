#include "core/domain/atomicfile.h"

#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstring>

namespace gq {

namespace {

Error ioError(const QString &detail) {
    return Error::make(Error::Kind::Io, detail);
}

// The OS text for the last failed call, not Qt's "Unknown error" fallback.
QString systemText(const QSaveFile &file) {
    const int code = errno;
    if (code != 0)
        return QString::fromLocal8Bit(std::strerror(code));
    return file.errorString();
}

} // namespace

Result<void> writeFileAtomically(const QString &path, const QByteArray &bytes) {
    QSaveFile file(path);
    // Unbuffered: every write reaches the file at once and reports its own error.
    errno = 0;
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return ioError(systemText(file));
    qint64 done = 0;
    while (done < bytes.size()) {
        errno = 0;
        const qint64 n = file.write(bytes.constData() + done, bytes.size() - done);
        if (n <= 0) {
            const QString why = systemText(file);
            file.cancelWriting();
            return ioError(why);
        }
        done += n;
    }
    errno = 0;
    if (!file.flush()) {
        const QString why = systemText(file);
        file.cancelWriting();
        return ioError(why);
    }
    errno = 0;
    if (!file.commit())
        return ioError(QStringLiteral("could not replace the file: ") + systemText(file));
    return {};
}

} // namespace gq
