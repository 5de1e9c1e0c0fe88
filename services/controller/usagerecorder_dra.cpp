// The usage recorder's DRA part: which pod a claim's GPUs are charged to.
#include "services/controller/usagerecorder.h"

namespace gq {

// The holds a pod is charged for now. A claim made for the pod (ResourceClaimTemplate)
// is the pod's alone. A claim named directly may be shared: it is charged once, to the
// pod naming it that started first (ties: the pod's name), from that start until the
// last pod naming it has ended.
std::vector<DraHold> UsageRecorder::draHolds(const QString &key, const PodInfo &pod, qint64 now) {
    QStringList named;
    for (const PodClaim &c : pod.claims)
        if (c.templateName.isEmpty() && !c.claimName.isEmpty())
            named << pod.namespaceName + QLatin1Char('/') + c.claimName;
    if (const QStringList before = m_podNamedClaims.value(key); before != named) {
        for (const QString &claim : before) {
            auto users = m_claimUsers.find(claim);
            if (users == m_claimUsers.end())
                continue;
            users->remove(key);
            m_sharersDirty += *users; // the claim may now be charged to another of them
            if (users->isEmpty())
                m_claimUsers.erase(users);
        }
        for (const QString &claim : std::as_const(named))
            m_claimUsers[claim].insert(key);
        if (named.isEmpty())
            m_podNamedClaims.remove(key);
        else
            m_podNamedClaims.insert(key, named);
    }
    if (pod.claims.isEmpty()) {
        m_draPods.remove(key);
        return {};
    }
    m_draPods.insert(key);
    if (!m_dra)
        return {};
    std::vector<DraHold> out;
    for (DraHold h : m_dra->holdsFor(pod)) {
        if (h.claim.isEmpty()) {
            out.push_back(h);
            continue;
        }
        QString owner;
        qint64 ownerStart = 0;
        bool open = false;
        qint64 lastEnd = 0;
        const QSet<QString> users = m_claimUsers.value(h.claim);
        for (const QString &user : users) {
            if (user != key)
                m_sharersDirty.insert(user);
            const qsizetype slash = user.indexOf(QLatin1Char('/'));
            const std::optional<PodInfo> other = user == key
                                                     ? std::optional<PodInfo>(pod)
                                                     : m_pods->pod(user.left(slash), user.mid(slash + 1));
            const auto span = other ? runSpan(*other, now) : std::nullopt;
            if (!span)
                continue;
            if (owner.isEmpty() || span->start < ownerStart || (span->start == ownerStart && user < owner)) {
                owner = user;
                ownerStart = span->start;
            }
            if (span->end)
                lastEnd = std::max(lastEnd, *span->end);
            else
                open = true;
        }
        if (owner != key)
            continue; // another pod is charged for this claim
        h.sharedSpan = true;
        if (!open)
            h.spanEnd = lastEnd;
        out.push_back(h);
    }
    return out;
}

// Once per batch: the pods sharing a claim with a pod that changed (the one charged may
// be another now, or its span may end later). Their own refresh does not cascade.
void UsageRecorder::refreshSharers() {
    const QSet<QString> keys = std::exchange(m_sharersDirty, {});
    for (const QString &key : keys)
        refresh(key);
    m_sharersDirty.clear();
}

} // namespace gq
