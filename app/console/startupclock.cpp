#include "app/console/startupclock.h"

#include <QElapsedTimer>
#include <QFile>
#include <QList>

#ifdef Q_OS_LINUX
#include <unistd.h>
#endif

namespace gq {

qint64 msSinceProcessStart() {
    static QElapsedTimer fallback;
    if (!fallback.isValid())
        fallback.start();
#ifdef Q_OS_LINUX
    QFile stat(QStringLiteral("/proc/self/stat"));
    QFile uptime(QStringLiteral("/proc/uptime"));
    if (stat.open(QIODevice::ReadOnly) && uptime.open(QIODevice::ReadOnly)) {
        const QByteArray s = stat.readAll();
        // Field 22 (starttime, clock ticks since boot) counts from after the ")" of comm.
        const QList<QByteArray> fields = s.mid(s.lastIndexOf(')') + 2).split(' ');
        const QByteArray up = uptime.readAll().split(' ').value(0);
        bool ok1 = false, ok2 = false;
        const double startTicks = fields.value(19).toDouble(&ok1);
        const double upSecs = up.toDouble(&ok2);
        const long hz = sysconf(_SC_CLK_TCK);
        if (ok1 && ok2 && hz > 0)
            return qint64((upSecs - startTicks / double(hz)) * 1000.0);
    }
#endif
    return fallback.elapsed();
}

} // namespace gq
