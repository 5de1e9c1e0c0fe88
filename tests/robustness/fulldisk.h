#pragma once

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

namespace gq::test {

// A small tmpfs mounted for one test, filled to the last byte on request. Mounting
// needs root: elsewhere the test is skipped, but under CI=true (root) a failed mount
// is a failure, never a silent skip.
class FullDisk {
public:
    FullDisk() {
        if (!m_dir.isValid())
            return;
        QProcess mount;
        mount.start(QStringLiteral("mount"),
                    {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                     QStringLiteral("size=2m"), QStringLiteral("tmpfs"), m_dir.path()});
        m_mounted = mount.waitForFinished(10000) && mount.exitCode() == 0;
        if (!m_mounted)
            m_why = QString::fromLocal8Bit(mount.readAllStandardError()).trimmed();
    }
    ~FullDisk() {
        if (m_mounted)
            QProcess::execute(QStringLiteral("umount"), {m_dir.path()});
    }
    Q_DISABLE_COPY_MOVE(FullDisk)

    [[nodiscard]] bool mounted() const { return m_mounted; }
    [[nodiscard]] QString why() const { return m_why; }
    [[nodiscard]] QString path(const QString &name) const { return QDir(m_dir.path()).filePath(name); }

    // Writes zeros into a filler file until the file system refuses with ENOSPC, then
    // gives `leavePages` pages (4 KiB each) back: room for a lock file, say, but not
    // for what is written after it.
    bool fill(int leavePages = 0) {
        QFile filler(path(QStringLiteral("filler")));
        if (!filler.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
            return false;
        const QByteArray block(4096, '\0');
        while (filler.write(block) == block.size()) {
        }
        // Single bytes too, so not even a small tail is left.
        while (filler.write("x", 1) == 1) {
        }
        if (leavePages > 0) {
            const qint64 size = filler.size();
            return filler.resize((size / 4096 - leavePages) * 4096);
        }
        return true;
    }

private:
    QTemporaryDir m_dir;
    bool m_mounted = false;
    QString m_why;
};

// Skips outside CI when the mount is impossible (not root), fails under CI=true.
#define GQ_REQUIRE_FULLDISK(disk)                                                                            \
    do {                                                                                                     \
        if (!(disk).mounted()) {                                                                             \
            if (qEnvironmentVariable("CI") == QLatin1String("true"))                                         \
                QFAIL(qPrintable(QStringLiteral("cannot mount a tmpfs: ") + (disk).why()));                  \
            QSKIP("mounting a tmpfs needs root");                                                            \
        }                                                                                                    \
    } while (false)

} // namespace gq::test
