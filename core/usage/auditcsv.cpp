#include "auditcsv.h"

#include "timewindow.h"

namespace gq {

namespace {
QString field(const QString &v) {
    if (!v.contains(QLatin1Char(',')) && !v.contains(QLatin1Char('"')) && !v.contains(QLatin1Char('\n')) &&
        !v.contains(QLatin1Char('\r')))
        return v;
    QString quoted = v;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}
} // namespace

QByteArray auditCsv(const QList<AuditEntry> &entries) {
    QString out = QStringLiteral("seq,at,actor,action,target,before,after,note,hash,mac\n");
    for (const AuditEntry &e : entries)
        out += QString::number(e.seq) + QLatin1Char(',') + formatInstantUtc(e.at) + QLatin1Char(',') +
               field(e.actor) + QLatin1Char(',') + field(e.action) + QLatin1Char(',') + field(e.target) +
               QLatin1Char(',') + field(e.before) + QLatin1Char(',') + field(e.after) + QLatin1Char(',') +
               field(e.note) + QLatin1Char(',') + e.hash + QLatin1Char(',') + e.mac + QLatin1Char('\n');
    return out.toUtf8();
}

} // namespace gq
