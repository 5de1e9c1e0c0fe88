#include "services/controller/clampscope.h"

#include "services/controller/clampplan.h"
#include "core/domain/quantity.h"

#include <QJsonArray>

namespace gq::clampplan {

bool isScoped(const QJsonObject &quota) {
    const QJsonObject spec = quota.value(QLatin1String("spec")).toObject();
    if (!spec.value(QLatin1String("scopes")).toArray().isEmpty())
        return true;
    return !spec.value(QLatin1String("scopeSelector"))
                .toObject()
                .value(QLatin1String("matchExpressions"))
                .toArray()
                .isEmpty();
}

QHash<QString, qint64> inUseFor(const QJsonObject &quota, const QHash<QString, qint64> &namespaceInUse) {
    if (!isScoped(quota))
        return namespaceInUse;
    QHash<QString, qint64> out;
    const QJsonObject used =
        quota.value(QLatin1String("status")).toObject().value(QLatin1String("used")).toObject();
    for (auto it = used.begin(); it != used.end(); ++it) {
        if (!isGpuQuotaKey(it.key()))
            continue;
        if (auto q = Quantity::parse(it.value().toString()))
            out.insert(it.key(), q->value());
    }
    return out;
}

bool shows(const QJsonObject &quota, const QJsonObject &after) {
    const QJsonObject status =
        quota.value(QLatin1String("status")).toObject().value(QLatin1String("hard")).toObject();
    for (auto it = after.begin(); it != after.end(); ++it) {
        const auto want = Quantity::parse(it.value().toString());
        const auto shown = Quantity::parse(status.value(it.key()).toString());
        if (!want || !shown || !(*want == *shown))
            return false;
    }
    return true;
}

QString enforcementWord(bool effective) {
    return effective ? QStringLiteral("effective") : QStringLiteral("pending enforcement");
}

} // namespace gq::clampplan
