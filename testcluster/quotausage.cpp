#include "testcluster/admission.h"
#include "testcluster/resourcemath.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

// The quota side of admission: what a pod charges, and the quota controller's status.

namespace gq::tc {

bool podIsTerminal(const QString &phase) {
    return phase == QLatin1String("Succeeded") || phase == QLatin1String("Failed");
}

Usage podUsage(const QJsonObject &pod) {
    Usage u;
    u.emplace_back(QStringLiteral("pods"), Quantity::fromInt(1));
    u.emplace_back(QStringLiteral("count/pods"), Quantity::fromInt(1));
    static const QSet<QString> aliased = {QStringLiteral("cpu"), QStringLiteral("memory"),
                                          QStringLiteral("ephemeral-storage")};
    for (const auto &[k, q] : podEffective(pod, QLatin1String("requests"))) {
        u.emplace_back(QStringLiteral("requests.") + k, q);
        if (aliased.contains(k))
            u.emplace_back(k, q);
    }
    for (const auto &[k, q] : podEffective(pod, QLatin1String("limits")))
        u.emplace_back(QStringLiteral("limits.") + k, q);
    return u;
}

namespace {

// "<class>.deviceclass.resource.k8s.io/devices": the devices the namespace's claims
// request from the class (ExactCount: count; All or firstAvailable: 1), as the API
// server's resource claim evaluator counts them, allocated or not.
qint64 claimDevices(const Store &store, const QString &ns, QStringView deviceClass) {
    qint64 n = 0;
    auto [first, last] = store.range(Resource::ResourceClaim, ns);
    for (auto it = first; it != last; ++it) {
        const QJsonArray requests = QJsonDocument::fromJson(it->second.json)
                                        .object()
                                        .value(QLatin1String("spec"))
                                        .toObject()
                                        .value(QLatin1String("devices"))
                                        .toObject()
                                        .value(QLatin1String("requests"))
                                        .toArray();
        for (const QJsonValue &v : requests) {
            const QJsonObject r = v.toObject();
            QJsonObject exactly = r.value(QLatin1String("exactly")).toObject();
            if (exactly.isEmpty())
                exactly = r.value(QLatin1String("firstAvailable")).toArray().first().toObject();
            if (exactly.value(QLatin1String("deviceClassName")).toString() != deviceClass)
                continue;
            const bool all =
                exactly.value(QLatin1String("allocationMode")).toString() == QLatin1String("All");
            n += all ? 1 : qMax(1, exactly.value(QLatin1String("count")).toInt(1));
        }
    }
    return n;
}

const QLatin1String kDraDevices(".deviceclass.resource.k8s.io/devices");

} // namespace

QJsonObject computeQuotaStatus(const Store &store, const QJsonObject &quota) {
    const QJsonObject meta = quota.value(QLatin1String("metadata")).toObject();
    const QString ns = meta.value(QLatin1String("namespace")).toString();
    const QString name = meta.value(QLatin1String("name")).toString();
    const ResourceList hard =
        parseList(quota.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")));
    const std::vector<ScopeRequirement> scopes = quotaScopes(quota);
    Usage used;
    auto [first, last] = store.range(Resource::Pod, ns);
    for (auto it = first; it != last; ++it) {
        if (podIsTerminal(it->second.phase) || !podMatchesScopes(scopes, it->second.scopeFacts))
            continue;
        for (const auto &[k, q] : it->second.usage) {
            if (hard.count(k))
                addTo(used, k, q);
        }
    }
    QJsonObject usedJson;
    for (const auto &[k, limit] : hard) {
        Q_UNUSED(limit);
        if (k == QLatin1String("resourcequotas") || k == QLatin1String("count/resourcequotas")) {
            auto [qf, ql] = store.range(Resource::ResourceQuota, ns);
            qint64 n = std::distance(qf, ql);
            if (!store.find(Resource::ResourceQuota, ns, name))
                ++n;
            usedJson.insert(k, QString::number(n));
            continue;
        }
        if (k.startsWith(QLatin1String("count/")) && k != QLatin1String("count/pods")) {
            const auto r = resourceFromPlural(QStringView(k).mid(6));
            qint64 n = 0;
            if (r) {
                auto [f, l] = store.range(*r, ns);
                n = std::distance(f, l);
            }
            usedJson.insert(k, QString::number(n));
            continue;
        }
        if (k.endsWith(kDraDevices)) {
            usedJson.insert(
                k, QString::number(claimDevices(store, ns, QStringView(k).chopped(kDraDevices.size()))));
            continue;
        }
        const Quantity *q = valueOf(used, k);
        usedJson.insert(k, q ? q->toString() : QStringLiteral("0"));
    }
    QJsonObject status;
    status.insert(QLatin1String("hard"), toJson(hard));
    status.insert(QLatin1String("used"), usedJson);
    return status;
}

} // namespace gq::tc
