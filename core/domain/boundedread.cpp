#include "core/domain/boundedread.h"

#include <QFile>

#include <cstdio>

namespace gq {

qint64 maxInputBytes() {
    bool ok = false;
    const qint64 v = qEnvironmentVariable("GQ_MAX_INPUT_BYTES").toLongLong(&ok);
    return ok && v > 0 ? v : kDefaultMaxInputBytes;
}

namespace {

QString mebibytes(qint64 bytes) {
    if (bytes % (1024 * 1024) == 0)
        return QStringLiteral("%1 MiB").arg(bytes / (1024 * 1024));
    return QStringLiteral("%1 bytes").arg(bytes);
}

} // namespace

Result<QByteArray> readAllBounded(QIODevice &device, const QString &name, qint64 limit) {
    QByteArray out;
    constexpr qint64 kChunk = 64 * 1024;
    for (;;) {
        const qint64 room = limit + 1 - out.size();
        const QByteArray chunk = device.read(qMin(kChunk, room));
        if (chunk.isEmpty()) {
            if (device.atEnd() || !device.waitForReadyRead(-1))
                break;
            continue;
        }
        out += chunk;
        if (out.size() > limit)
            return Error::make(
                Error::Kind::Io,
                QStringLiteral("cannot read %1: larger than the %2 input limit (set GQ_MAX_INPUT_BYTES "
                               "to raise it)")
                    .arg(name, mebibytes(limit)));
    }
    if (auto *file = qobject_cast<QFileDevice *>(&device); file && file->error() != QFileDevice::NoError)
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot read %1: %2").arg(name, file->errorString()));
    return out;
}

Result<QByteArray> readInputFile(const QString &name) {
    QFile f;
    const bool isStdin = name == u"-";
    const bool ok =
        isStdin ? f.open(stdin, QIODevice::ReadOnly) : (f.setFileName(name), f.open(QIODevice::ReadOnly));
    if (!ok)
        return Error::make(Error::Kind::Io, QStringLiteral("cannot read %1: %2").arg(name, f.errorString()));
    return readAllBounded(f, isStdin ? QStringLiteral("<stdin>") : name, maxInputBytes());
}

} // namespace gq
