#include "services/controller/clampbackoff.h"

#include <algorithm>

namespace gq {

QString ClampBackoff::keyOf(const QJsonObject &quota) {
    const QJsonObject meta = quota.value(QLatin1String("metadata")).toObject();
    return meta.value(QLatin1String("namespace")).toString() + u'/' +
           meta.value(QLatin1String("name")).toString();
}

qint64 ClampBackoff::delay(int n) {
    if (n <= 1)
        return 0;
    const int shift = std::min(n - 2, 6); // 60 << 6 > 3600
    return std::min<qint64>(qint64(60) << shift, 3600);
}

ClampBackoff::Verdict ClampBackoff::judge(const QJsonObject &quota, const QStringList &changedKeys,
                                          qint64 now) {
    Verdict v;
    for (const QString &k : changedKeys) {
        if (auto o = managedfields::foreignOwnerOfHardKey(quota, k)) {
            if (!v.owner || (managedfields::revertsChanges(*o) && !managedfields::revertsChanges(*v.owner)))
                v.owner = o;
        }
    }
    if (!v.owner)
        return v; // changed by someone the API server does not name apart from us: an edit
    State &s = m_state[keyOf(quota)];
    if (s.wroteSinceRevert) { // our last write was undone: one more revert
        ++s.reverts;
        s.wroteSinceRevert = false;
        s.nextAttempt = now + delay(s.reverts);
    }
    v.reverts = s.reverts;
    v.nextAttempt = s.nextAttempt;
    v.write = now >= s.nextAttempt;
    // A one-off kubectl edit is an admin's edit as before; an owner that re-applies (or
    // a second undo) is a fight worth one alert.
    v.report = !s.reported && (managedfields::revertsChanges(*v.owner) || s.reverts >= 2);
    s.reported = s.reported || v.report;
    return v;
}

void ClampBackoff::wrote(const QString &quotaKey) {
    auto it = m_state.find(quotaKey);
    if (it != m_state.end())
        it->wroteSinceRevert = true;
}

bool ClampBackoff::isBackingOff(const QString &quotaKey, qint64 now) const {
    auto it = m_state.constFind(quotaKey);
    return it != m_state.constEnd() && now < it->nextAttempt;
}

} // namespace gq
