#include "core/kueue/kueuemodel.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSet>

namespace gq::kueue {

namespace {

QJsonObject objectAt(const QJsonObject &o, const char *key) {
    return o.value(QLatin1String(key)).toObject();
}

QJsonArray arrayAt(const QJsonObject &o, const char *key) {
    return o.value(QLatin1String(key)).toArray();
}

QString stringAt(const QJsonObject &o, const char *key) {
    return o.value(QLatin1String(key)).toString();
}

// A quantity written as a string or (in hand-written YAML) as a number.
Result<Quantity> quantityAt(const QJsonValue &v, const QString &field) {
    const QString text = v.isDouble() ? QString::number(v.toDouble(), 'g', 17) : v.toString();
    return Quantity::parse(text, field);
}

qint64 timeMs(const QString &rfc3339) {
    const QDateTime t = QDateTime::fromString(rfc3339, Qt::ISODate);
    return t.isValid() ? t.toMSecsSinceEpoch() : 0;
}

QString field(const QString &base, int i) {
    return QStringLiteral("%1[%2]").arg(base).arg(i);
}

Result<std::vector<ResourceGroup>> parseGroups(const QJsonArray &groups) {
    std::vector<ResourceGroup> out;
    for (int g = 0; g < groups.size(); ++g) {
        const QJsonObject group = groups.at(g).toObject();
        const QString gField = field(QStringLiteral("spec.resourceGroups"), g);
        ResourceGroup rg;
        for (const QJsonValue &c : arrayAt(group, "coveredResources"))
            rg.coveredResources.append(c.toString());
        const QJsonArray flavors = arrayAt(group, "flavors");
        for (int f = 0; f < flavors.size(); ++f) {
            const QJsonObject flavor = flavors.at(f).toObject();
            const QString fField = field(gField + QStringLiteral(".flavors"), f);
            FlavorQuotas fq;
            fq.flavor = stringAt(flavor, "name");
            const QJsonArray resources = arrayAt(flavor, "resources");
            for (int r = 0; r < resources.size(); ++r) {
                const QJsonObject res = resources.at(r).toObject();
                const QString rField = field(fField + QStringLiteral(".resources"), r);
                ResourceLimits limits;
                limits.name = stringAt(res, "name");
                auto nominal = quantityAt(res.value(QLatin1String("nominalQuota")),
                                          rField + QStringLiteral(".nominalQuota"));
                if (!nominal)
                    return nominal.error();
                limits.nominal = *nominal;
                for (const auto &[key, target] : {std::pair{"borrowingLimit", &limits.borrowingLimit},
                                                  std::pair{"lendingLimit", &limits.lendingLimit}}) {
                    if (!res.contains(QLatin1String(key)))
                        continue;
                    auto q = quantityAt(res.value(QLatin1String(key)), rField + u'.' + QLatin1String(key));
                    if (!q)
                        return q.error();
                    *target = *q;
                }
                fq.resources.push_back(std::move(limits));
            }
            rg.flavors.push_back(std::move(fq));
        }
        out.push_back(std::move(rg));
    }
    return out;
}

// status.flavorsReservation / flavorsUsage. A malformed amount is skipped: status is
// written by Kueue, and one odd number should not hide the whole queue.
std::vector<FlavorAmounts> parseAmounts(const QJsonArray &flavors) {
    std::vector<FlavorAmounts> out;
    for (const QJsonValue &v : flavors) {
        const QJsonObject f = v.toObject();
        FlavorAmounts a;
        a.flavor = stringAt(f, "name");
        for (const QJsonValue &r : arrayAt(f, "resources")) {
            const QJsonObject res = r.toObject();
            const QString name = stringAt(res, "name");
            if (auto t = quantityAt(res.value(QLatin1String("total")), QString()))
                a.total.emplace(name, *t);
            if (res.contains(QLatin1String("borrowed")))
                if (auto b = quantityAt(res.value(QLatin1String("borrowed")), QString()))
                    a.borrowed.emplace(name, *b);
        }
        out.push_back(std::move(a));
    }
    return out;
}

QString cohortOf(const QJsonObject &spec) {
    const QString v1beta2 = stringAt(spec, "cohortName");
    return v1beta2.isEmpty() ? stringAt(spec, "cohort") : v1beta2;
}

QString parentOf(const QJsonObject &spec) {
    const QString v1beta2 = stringAt(spec, "parentName");
    return v1beta2.isEmpty() ? stringAt(spec, "parent") : v1beta2;
}

// GPUs one pod set asks for: count x the containers' requests (or limits, which Kubernetes
// copies to requests for extended resources).
qint64 podSetGpus(const QJsonObject &podSet) {
    const qint64 count = podSet.value(QLatin1String("count")).toInteger(1);
    const QJsonObject podSpec = objectAt(objectAt(podSet, "template"), "spec");
    qint64 perPod = 0;
    for (const QJsonValue &c : arrayAt(podSpec, "containers")) {
        const QJsonObject resources = objectAt(c.toObject(), "resources");
        QJsonObject amounts = objectAt(resources, "requests");
        if (amounts.isEmpty())
            amounts = objectAt(resources, "limits");
        for (auto it = amounts.begin(); it != amounts.end(); ++it)
            if (isGpuResource(it.key()))
                if (auto q = quantityAt(it.value(), QString()))
                    perPod += q->value();
    }
    return count * perPod;
}

} // namespace

QStringList supportedVersions() {
    return {QStringLiteral("v1beta2"), QStringLiteral("v1beta1")};
}

std::optional<QString> pickVersion(const QStringList &served) {
    for (const QString &v : supportedVersions())
        if (served.contains(v))
            return v;
    return std::nullopt;
}

bool isGpuResource(const QString &name) {
    return name == QLatin1String("nvidia.com/gpu") || name.startsWith(QLatin1String("nvidia.com/mig-")) ||
           name == QLatin1String("amd.com/gpu") || name.startsWith(QLatin1String("gpu.intel.com/"));
}

const ResourceLimits *FlavorQuotas::find(const QString &resource) const {
    for (const ResourceLimits &r : resources)
        if (r.name == resource)
            return &r;
    return nullptr;
}

QStringList ClusterQueue::flavorNames() const {
    QStringList names;
    for (const ResourceGroup &g : resourceGroups)
        for (const FlavorQuotas &f : g.flavors)
            names.append(f.flavor);
    return names;
}

const FlavorQuotas *ClusterQueue::flavor(const QString &name) const {
    for (const ResourceGroup &g : resourceGroups)
        for (const FlavorQuotas &f : g.flavors)
            if (f.flavor == name)
                return &f;
    return nullptr;
}

Result<ClusterQueue> parseClusterQueue(const QJsonObject &object) {
    const QJsonObject meta = objectAt(object, "metadata");
    const QJsonObject spec = objectAt(object, "spec");
    const QJsonObject status = objectAt(object, "status");
    ClusterQueue cq;
    cq.name = stringAt(meta, "name");
    cq.resourceVersion = stringAt(meta, "resourceVersion");
    cq.cohort = cohortOf(spec);
    auto groups = parseGroups(arrayAt(spec, "resourceGroups"));
    if (!groups)
        return groups.error();
    cq.resourceGroups = std::move(*groups);
    cq.reservation = parseAmounts(arrayAt(status, "flavorsReservation"));
    cq.usage = parseAmounts(arrayAt(status, "flavorsUsage"));
    cq.pendingWorkloads = status.value(QLatin1String("pendingWorkloads")).toInt();
    cq.reservingWorkloads = status.value(QLatin1String("reservingWorkloads")).toInt();
    cq.admittedWorkloads = status.value(QLatin1String("admittedWorkloads")).toInt();
    const QString stop = stringAt(spec, "stopPolicy");
    cq.stopped = !stop.isEmpty() && stop != QLatin1String("None");
    return cq;
}

Result<Cohort> parseCohort(const QJsonObject &object) {
    const QJsonObject spec = objectAt(object, "spec");
    Cohort c;
    c.name = stringAt(objectAt(object, "metadata"), "name");
    c.parent = parentOf(spec);
    auto groups = parseGroups(arrayAt(spec, "resourceGroups"));
    if (!groups)
        return groups.error();
    c.resourceGroups = std::move(*groups);
    return c;
}

LocalQueue parseLocalQueue(const QJsonObject &object) {
    const QJsonObject meta = objectAt(object, "metadata");
    const QJsonObject status = objectAt(object, "status");
    LocalQueue lq;
    lq.ns = stringAt(meta, "namespace");
    lq.name = stringAt(meta, "name");
    lq.clusterQueue = stringAt(objectAt(object, "spec"), "clusterQueue");
    lq.pendingWorkloads = status.value(QLatin1String("pendingWorkloads")).toInt();
    lq.admittedWorkloads = status.value(QLatin1String("admittedWorkloads")).toInt();
    return lq;
}

ResourceFlavor parseResourceFlavor(const QJsonObject &object) {
    ResourceFlavor f;
    f.name = stringAt(objectAt(object, "metadata"), "name");
    const QJsonObject labels = objectAt(objectAt(object, "spec"), "nodeLabels");
    for (auto it = labels.begin(); it != labels.end(); ++it)
        f.nodeLabels.emplace(it.key(), it.value().toString());
    return f;
}

Workload parseWorkload(const QJsonObject &object) {
    const QJsonObject meta = objectAt(object, "metadata");
    const QJsonObject spec = objectAt(object, "spec");
    const QJsonObject status = objectAt(object, "status");
    Workload w;
    w.ns = stringAt(meta, "namespace");
    w.name = stringAt(meta, "name");
    w.createdMs = timeMs(stringAt(meta, "creationTimestamp"));
    w.queueName = stringAt(spec, "queueName");
    w.priority = spec.value(QLatin1String("priority")).toInt();
    w.maximumExecutionTimeSeconds = spec.value(QLatin1String("maximumExecutionTimeSeconds")).toInteger();
    for (const QJsonValue &ps : arrayAt(spec, "podSets"))
        w.gpus += podSetGpus(ps.toObject());
    const QJsonObject admission = objectAt(status, "admission");
    w.clusterQueue = stringAt(admission, "clusterQueue");
    for (const QJsonValue &a : arrayAt(admission, "podSetAssignments")) {
        const QJsonObject flavors = objectAt(a.toObject(), "flavors");
        for (auto it = flavors.begin(); it != flavors.end(); ++it)
            if (isGpuResource(it.key()))
                w.gpuFlavors.emplace(it.key(), it.value().toString());
    }
    QString reservedMessage;
    QString admittedMessage;
    for (const QJsonValue &c : arrayAt(status, "conditions")) {
        const QJsonObject cond = c.toObject();
        const QString type = stringAt(cond, "type");
        const bool isTrue = stringAt(cond, "status") == QLatin1String("True");
        if (type == QLatin1String("QuotaReserved")) {
            w.quotaReserved = isTrue;
            reservedMessage = stringAt(cond, "message");
            if (isTrue)
                w.reservedMs = timeMs(stringAt(cond, "lastTransitionTime"));
        } else if (type == QLatin1String("Admitted")) {
            w.admitted = isTrue;
            admittedMessage = stringAt(cond, "message");
        } else if (type == QLatin1String("Finished")) {
            w.finished = isTrue;
        }
    }
    // Waiting for quota: QuotaReserved's message; quota reserved but not admitted (an
    // admission check holds it): Admitted's message.
    w.reason = !w.quotaReserved ? reservedMessage : (!w.admitted ? admittedMessage : QString());
    return w;
}

} // namespace gq::kueue
