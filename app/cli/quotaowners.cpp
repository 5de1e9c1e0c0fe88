#include "app/cli/quotaowners.h"

#include "app/cli/clioutput.h"
#include "core/kube/managedfields.h"

namespace gq::cli {

void warnOtherOwners(const QList<QJsonObject> &quotas, const QString &level) {
    for (const QJsonObject &q : quotas) {
        const QJsonObject meta = q.value(QLatin1String("metadata")).toObject();
        for (const QString &w : managedfields::revertWarnings(q))
            err() << level << ": " << meta.value(QLatin1String("namespace")).toString() << '/'
                  << meta.value(QLatin1String("name")).toString() << ": " << w << '\n';
    }
}

} // namespace gq::cli
