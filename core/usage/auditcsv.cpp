#include "core/usage/auditcsv.h"

#include "core/domain/csvfield.h"
#include "core/usage/timewindow.h"

namespace gq {

QByteArray auditCsv(const QList<AuditEntry> &entries) {
    QString out = QStringLiteral("seq,at,actor,action,target,before,after,note,hash,mac\n");
    for (const AuditEntry &e : entries)
        out += QString::number(e.seq) + QLatin1Char(',') + formatInstantUtc(e.at) + QLatin1Char(',') +
               csvField(e.actor) + QLatin1Char(',') + csvField(e.action) + QLatin1Char(',') +
               csvField(e.target) + QLatin1Char(',') + csvField(e.before) + QLatin1Char(',') +
               csvField(e.after) + QLatin1Char(',') + csvField(e.note) + QLatin1Char(',') + e.hash +
               QLatin1Char(',') + e.mac + QLatin1Char('\n');
    return out.toUtf8();
}

} // namespace gq
