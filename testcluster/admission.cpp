#include "testcluster/admission.h"
#include "testcluster/resourcemath.h"

#include <QJsonDocument>

// Admission for a new pod: LimitRanger (defaults, then min/max/ratio) and the
// ResourceQuota check.

namespace gq::tc {

namespace {

// LimitRanger's MutateLimit for one LimitRange: fill missing container resources.
void mergeLimitRangeDefaults(const QJsonObject &limitRange, QJsonObject &pod, QStringList &annotations) {
    ResourceList def, defReq;
    const QJsonArray items =
        limitRange.value(QLatin1String("spec")).toObject().value(QLatin1String("limits")).toArray();
    for (const QJsonValue &v : items) {
        const QJsonObject item = v.toObject();
        if (item.value(QLatin1String("type")).toString() != QLatin1String("Container"))
            continue;
        for (const auto &[k, q] : parseList(item.value(QLatin1String("default"))))
            def.insert_or_assign(k, q);
        for (const auto &[k, q] : parseList(item.value(QLatin1String("defaultRequest"))))
            defReq.insert_or_assign(k, q);
    }
    if (def.empty() && defReq.empty())
        return;
    QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    for (bool init : {false, true}) {
        QJsonArray containers = containersOf(spec, init);
        for (qsizetype i = 0; i < containers.size(); ++i) {
            QJsonObject c = containers.at(i).toObject();
            QJsonObject res = c.value(QLatin1String("resources")).toObject();
            QJsonObject requests = res.value(QLatin1String("requests")).toObject();
            QJsonObject limits = res.value(QLatin1String("limits")).toObject();
            QStringList setRequests, setLimits;
            for (const auto &[k, q] : def) {
                if (!limits.contains(k)) {
                    limits.insert(k, q.toString());
                    setLimits.append(k);
                }
            }
            for (const auto &[k, q] : defReq) {
                if (!requests.contains(k)) {
                    requests.insert(k, q.toString());
                    setRequests.append(k);
                }
            }
            const QString who =
                (init ? QStringLiteral(" for init container ") : QStringLiteral(" for container ")) +
                c.value(QLatin1String("name")).toString();
            if (!setRequests.isEmpty())
                annotations.append(setRequests.join(QStringLiteral(", ")) + QStringLiteral(" request") + who);
            if (!setLimits.isEmpty())
                annotations.append(setLimits.join(QStringLiteral(", ")) + QStringLiteral(" limit") + who);
            if (!limits.isEmpty())
                res.insert(QLatin1String("limits"), limits);
            if (!requests.isEmpty())
                res.insert(QLatin1String("requests"), requests);
            c.insert(QLatin1String("resources"), res);
            containers[i] = c;
        }
        if (spec.contains(init ? QLatin1String("initContainers") : QLatin1String("containers")))
            spec.insert(init ? QLatin1String("initContainers") : QLatin1String("containers"), containers);
    }
    pod.insert(QLatin1String("spec"), spec);
}

void checkMinMax(const QString &limitType, const QJsonObject &item, const ResourceList &requests,
                 const ResourceList &limits, QStringList &errors) {
    // The limitranger's minConstraint and maxConstraint, one the mirror of the other: the
    // side a bound is about (requests for min, limits for max) must be set and inside it,
    // the other side inside it where set.
    struct Bound {
        const char *field;
        const char *word;
        bool isMin;
        const ResourceList &first;
        const char *firstName;
        const ResourceList &second;
        const char *secondName;
    };
    const Bound bounds[] = {{"min", "minimum", true, requests, "request", limits, "limit"},
                            {"max", "maximum", false, limits, "limit", requests, "request"}};
    for (const Bound &b : bounds) {
        for (const auto &[k, bound] : parseList(item.value(QLatin1String(b.field)))) {
            const auto outside = [&](const Quantity &q) { return b.isMin ? q < bound : q > bound; };
            const QString head = QStringLiteral("%1 %2 usage per %3 is %4")
                                     .arg(QLatin1String(b.word), k, limitType, bound.toString());
            const auto first = b.first.find(k), second = b.second.find(k);
            if (first == b.first.end())
                errors.append(head + QStringLiteral(".  No %1 is specified").arg(QLatin1String(b.firstName)));
            else if (outside(first->second))
                errors.append(head + QStringLiteral(", but %1 is %2")
                                         .arg(QLatin1String(b.firstName), first->second.toString()));
            else if (second != b.second.end() && outside(second->second))
                errors.append(head + QStringLiteral(", but %1 is %2")
                                         .arg(QLatin1String(b.secondName), second->second.toString()));
        }
    }
    for (const auto &[k, ratio] : parseList(item.value(QLatin1String("maxLimitRequestRatio")))) {
        auto req = requests.find(k);
        auto lim = limits.find(k);
        if (lim == limits.end())
            continue;
        if (req == requests.end() || req->second.isZero()) {
            errors.append(
                QStringLiteral("%1 max limit to request ratio per %2 is %3, but no request is specified or "
                               "request is 0")
                    .arg(k, limitType, ratio.toString()));
            continue;
        }
        const double observed = lim->second.toDouble() / req->second.toDouble();
        if (observed > ratio.toDouble())
            errors.append(
                QStringLiteral("%1 max limit to request ratio per %2 is %3, but provided ratio is %4")
                    .arg(k, limitType, ratio.toString(), QString::number(observed, 'f', 6)));
    }
}

// For Pod-type limits a resource only has a pod-level value if every container names it.
ResourceList podLevel(const QJsonObject &pod, QLatin1String which) {
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    ResourceList sum = podEffective(pod, which);
    for (auto it = sum.begin(); it != sum.end();) {
        bool all = true;
        for (const QJsonValue &c : containersOf(spec, false))
            all = all && containerList(c.toObject(), which).count(it->first);
        it = all ? std::next(it) : sum.erase(it);
    }
    return sum;
}

} // namespace

std::optional<ApiError> admitPod(const Store &store, const QString &ns, QJsonObject &pod) {
    if (auto denied = admitPodLimits(store, ns, pod))
        return denied;
    return admitPodQuota(store, ns, pod);
}

std::optional<ApiError> admitPodLimits(const Store &store, const QString &ns, QJsonObject &pod) {
    const QString podName =
        pod.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    // LimitRanger, mutating half.
    QStringList annotations;
    std::vector<QJsonObject> limitRanges;
    {
        auto [first, last] = store.range(Resource::LimitRange, ns);
        for (auto it = first; it != last; ++it)
            limitRanges.push_back(QJsonDocument::fromJson(it->second.json).object());
    }
    for (const QJsonObject &lr : limitRanges) {
        QStringList set;
        mergeLimitRangeDefaults(lr, pod, set);
        if (!set.isEmpty())
            annotations = set;
    }
    if (!annotations.isEmpty()) {
        QJsonObject meta = pod.value(QLatin1String("metadata")).toObject();
        QJsonObject ann = meta.value(QLatin1String("annotations")).toObject();
        ann.insert(
            QLatin1String("kubernetes.io/limit-ranger"),
            QString(QStringLiteral("LimitRanger plugin set: ") + annotations.join(QStringLiteral("; "))));
        meta.insert(QLatin1String("annotations"), ann);
        pod.insert(QLatin1String("metadata"), meta);
    }

    // Object validation runs after mutating admission, as in the API server.
    const QList<FieldError> invalidFields = validateObject(Resource::Pod, pod, nullptr);
    if (!invalidFields.isEmpty()) {
        QJsonArray causes;
        for (const FieldError &e : invalidFields)
            causes.append(e.toCause());
        return ApiError::invalid(QStringLiteral("Pod"), podName, causes);
    }

    // LimitRanger, validating half.
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    for (const QJsonObject &lr : limitRanges) {
        QStringList errors;
        const QJsonArray items =
            lr.value(QLatin1String("spec")).toObject().value(QLatin1String("limits")).toArray();
        for (const QJsonValue &v : items) {
            const QJsonObject item = v.toObject();
            const QString type = item.value(QLatin1String("type")).toString();
            if (type == QLatin1String("Container")) {
                for (bool init : {false, true}) {
                    for (const QJsonValue &c : containersOf(spec, init))
                        checkMinMax(type, item, containerList(c.toObject(), QLatin1String("requests")),
                                    containerList(c.toObject(), QLatin1String("limits")), errors);
                }
            } else if (type == QLatin1String("Pod")) {
                checkMinMax(type, item, podLevel(pod, QLatin1String("requests")),
                            podLevel(pod, QLatin1String("limits")), errors);
            }
        }
        if (!errors.isEmpty())
            return ApiError::forbidden(QStringLiteral("pods"), podName, aggregate(errors));
    }

    return std::nullopt;
}

std::optional<ApiError> admitPodQuota(const Store &store, const QString &ns, const QJsonObject &pod) {
    const QString podName =
        pod.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    // ResourceQuota. A scoped quota neither counts nor constrains a pod outside
    // its scopes (not even the "must specify" rule below).
    const Usage delta = podUsage(pod);
    const PodScopeFacts facts = podScopeFacts(pod);
    auto [first, last] = store.range(Resource::ResourceQuota, ns);
    for (auto it = first; it != last; ++it) {
        const QJsonObject quota = QJsonDocument::fromJson(it->second.json).object();
        const QString quotaName = it->second.name;
        if (!podMatchesScopes(quotaScopes(quota), facts))
            continue;
        const QJsonObject status = quota.value(QLatin1String("status")).toObject();
        const ResourceList hard = parseList(status.value(QLatin1String("hard")));
        const ResourceList used = parseList(status.value(QLatin1String("used")));

        // Quotas on cpu/memory oblige every container to state them (upstream's
        // "backward compatibility requirement").
        static const QStringList constrained = {
            QStringLiteral("cpu"),    QStringLiteral("limits.cpu"),   QStringLiteral("limits.memory"),
            QStringLiteral("memory"), QStringLiteral("requests.cpu"), QStringLiteral("requests.memory")};
        std::map<QString, QStringList> missing;
        for (bool init : {false, true}) {
            for (const QJsonValue &cv : containersOf(spec, init)) {
                const QJsonObject c = cv.toObject();
                const ResourceList req = containerList(c, QLatin1String("requests"));
                const ResourceList lim = containerList(c, QLatin1String("limits"));
                for (const QString &k : constrained) {
                    if (!hard.count(k))
                        continue;
                    const bool isLimit = k.startsWith(QLatin1String("limits."));
                    const QString base = k.section(QLatin1Char('.'), -1);
                    const bool has = isLimit ? lim.count(base) > 0 : req.count(base) > 0;
                    if (!has)
                        missing[k].append(c.value(QLatin1String("name")).toString());
                }
            }
        }
        if (!missing.empty()) {
            QStringList parts;
            for (auto &[k, names] : missing) {
                names.sort();
                names.removeDuplicates();
                parts.append(k + QStringLiteral(" for: ") + names.join(QLatin1Char(',')));
            }
            return ApiError::forbidden(QStringLiteral("pods"), podName,
                                       QStringLiteral("failed quota: ") + quotaName +
                                           QStringLiteral(": must specify ") +
                                           parts.join(QStringLiteral("; ")));
        }

        // hasUsageStats: a resource the quota's status lists as hard but not yet as
        // used cannot be decided. (A quota with no status at all constrains nothing
        // yet: the window between creating a quota and its controller's first sync.)
        QStringList unknown;
        for (const auto &[k, q] : hard) {
            Q_UNUSED(q);
            const bool podResource =
                k == QLatin1String("pods") || k == QLatin1String("count/pods") || k == QLatin1String("cpu") ||
                k == QLatin1String("memory") || k == QLatin1String("ephemeral-storage") ||
                k.startsWith(QLatin1String("requests.")) || k.startsWith(QLatin1String("limits."));
            if (podResource && !used.count(k))
                unknown.append(k);
        }
        if (!unknown.isEmpty())
            return ApiError::forbidden(QStringLiteral("pods"), podName,
                                       QStringLiteral("status unknown for quota: ") + quotaName +
                                           QStringLiteral(", resources: ") + unknown.join(QLatin1Char(',')));
        ResourceList requested, usedNow, limited;
        for (const auto &[k, limit] : hard) {
            const Quantity *d = valueOf(delta, k);
            if (!d)
                continue;
            auto u = used.find(k);
            const Quantity current = u == used.end() ? Quantity() : u->second;
            auto next = current.plus(*d);
            if (next && *next > limit) {
                requested.emplace(k, *d);
                usedNow.emplace(k, current);
                limited.emplace(k, limit);
            }
        }
        if (!requested.empty()) {
            return ApiError::forbidden(QStringLiteral("pods"), podName,
                                       QStringLiteral("exceeded quota: ") + quotaName +
                                           QStringLiteral(", requested: ") + prettyPrint(requested) +
                                           QStringLiteral(", used: ") + prettyPrint(usedNow) +
                                           QStringLiteral(", limited: ") + prettyPrint(limited));
        }
    }
    return std::nullopt;
}

} // namespace gq::tc
