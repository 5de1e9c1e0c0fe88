#include "testcluster/scheduler.h"

#include "testcluster/admission.h"
#include "testcluster/apicall.h"
#include "testcluster/resourcemath.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <map>

namespace gq::tc {

namespace {

// The resources a pod asks a node for: every "requests.X" of its quota usage (requests
// default to limits for extended resources), plus one pod.
ResourceList requestsOf(const Usage &usage) {
    ResourceList out;
    for (const auto &[key, q] : usage) {
        if (key.startsWith(QLatin1String("requests.")))
            out[key.mid(9)] = q;
    }
    out[QStringLiteral("pods")] = Quantity::fromInt(1);
    return out;
}

bool selectorMatches(const QJsonObject &nodeSelector, const QJsonObject &nodeLabels) {
    for (auto it = nodeSelector.begin(); it != nodeSelector.end(); ++it) {
        if (nodeLabels.value(it.key()).toString() != it.value().toString())
            return false;
    }
    return true;
}

QString legacyNodeFor(const QString &podName) {
    return QStringLiteral("gpu-node-%1").arg(qHash(podName) % 4 + 1);
}

} // namespace

SchedulingDecision schedulePodOnNodes(const Store &store, const QJsonObject &pod) {
    const QJsonObject meta = pod.value(QLatin1String("metadata")).toObject();
    const auto &nodes = store.map(Resource::Node);
    if (nodes.empty())
        return {legacyNodeFor(meta.value(QLatin1String("name")).toString()), {}};

    // What is bound to each node already.
    std::map<QString, ResourceList> used;
    for (const auto &[key, e] : store.map(Resource::Pod)) {
        if (e.nodeName.isEmpty() || podIsTerminal(e.phase))
            continue;
        ResourceList &sum = used[e.nodeName];
        for (const auto &[r, q] : requestsOf(e.usage))
            addTo(sum, r, q);
    }
    const ResourceList wanted = requestsOf(podUsage(pod));
    const QJsonObject nodeSelector =
        pod.value(QLatin1String("spec")).toObject().value(QLatin1String("nodeSelector")).toObject();

    std::map<QString, int> reasons;    // FitError histogram
    std::map<QString, int> preemption; // what preemption would say per node
    for (const auto &[name, e] : nodes) {
        const QJsonObject node = QJsonDocument::fromJson(e.json).object();
        const QJsonObject nodeMeta = node.value(QLatin1String("metadata")).toObject();
        if (node.value(QLatin1String("spec")).toObject().value(QLatin1String("unschedulable")).toBool()) {
            ++reasons[QStringLiteral("node(s) were unschedulable")];
            ++preemption[QStringLiteral("Preemption is not helpful for scheduling")];
            continue;
        }
        if (!selectorMatches(nodeSelector, nodeMeta.value(QLatin1String("labels")).toObject())) {
            ++reasons[QStringLiteral("node(s) didn't match Pod's node affinity/selector")];
            ++preemption[QStringLiteral("Preemption is not helpful for scheduling")];
            continue;
        }
        const ResourceList allocatable =
            parseList(node.value(QLatin1String("status")).toObject().value(QLatin1String("allocatable")));
        const ResourceList &onNode = used[name];
        QStringList insufficient;
        for (const auto &[r, q] : wanted) {
            if (q == Quantity())
                continue;
            const auto a = allocatable.find(r);
            const Quantity have = a == allocatable.end() ? Quantity() : a->second;
            const auto u = onNode.find(r);
            const Quantity taken = u == onNode.end() ? Quantity() : u->second;
            const auto total = taken.plus(q);
            if (!total || *total > have)
                insufficient.append(r == QLatin1String("pods") ? QStringLiteral("Too many pods")
                                                               : QStringLiteral("Insufficient ") + r);
        }
        if (insufficient.isEmpty())
            return {name, {}};
        for (const QString &why : insufficient)
            ++reasons[why];
        ++preemption[QStringLiteral("No preemption victims found for incoming pod")];
    }
    auto histogram = [](const std::map<QString, int> &counts) {
        QStringList parts;
        for (const auto &[why, n] : counts)
            parts.append(QString::number(n) + QLatin1Char(' ') + why);
        parts.sort();
        return parts.join(QStringLiteral(", "));
    };
    const QString total = QString::number(nodes.size());
    return {{},
            QStringLiteral("0/%1 nodes are available: %2. preemption: 0/%1 nodes are available: %3..")
                .arg(total, histogram(reasons), histogram(preemption))};
}

void defaultNode(QJsonObject &node) {
    const QJsonObject meta = node.value(QLatin1String("metadata")).toObject();
    const QString name = meta.value(QLatin1String("name")).toString();
    QJsonObject status = node.value(QLatin1String("status")).toObject();
    if (!status.contains(QLatin1String("allocatable")) && status.contains(QLatin1String("capacity")))
        status.insert(QLatin1String("allocatable"), status.value(QLatin1String("capacity")));
    const QString now = nowStamp();
    if (!status.contains(QLatin1String("conditions"))) {
        QJsonArray conditions;
        auto condition = [&](const char *type, bool value, const char *reason, const char *message) {
            conditions.append(QJsonObject{
                {QStringLiteral("type"), QLatin1String(type)},
                {QStringLiteral("status"), value ? QStringLiteral("True") : QStringLiteral("False")},
                {QStringLiteral("lastHeartbeatTime"), now},
                {QStringLiteral("lastTransitionTime"), now},
                {QStringLiteral("reason"), QLatin1String(reason)},
                {QStringLiteral("message"), QLatin1String(message)}});
        };
        condition("MemoryPressure", false, "KubeletHasSufficientMemory",
                  "kubelet has sufficient memory available");
        condition("DiskPressure", false, "KubeletHasNoDiskPressure", "kubelet has no disk pressure");
        condition("PIDPressure", false, "KubeletHasSufficientPID", "kubelet has sufficient PID available");
        condition("Ready", true, "KubeletReady", "kubelet is posting ready status");
        status.insert(QLatin1String("conditions"), conditions);
    }
    if (!status.contains(QLatin1String("addresses"))) {
        const quint32 h = qHash(name);
        status.insert(
            QLatin1String("addresses"),
            QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("InternalIP")},
                                   {QStringLiteral("address"),
                                    QStringLiteral("10.0.%1.%2").arg(h % 200).arg(h / 200 % 250 + 2)}},
                       QJsonObject{{QStringLiteral("type"), QStringLiteral("Hostname")},
                                   {QStringLiteral("address"), name}}});
    }
    if (!status.contains(QLatin1String("nodeInfo"))) {
        status.insert(
            QLatin1String("nodeInfo"),
            QJsonObject{{QStringLiteral("architecture"), QStringLiteral("amd64")},
                        {QStringLiteral("bootID"), QString()},
                        {QStringLiteral("containerRuntimeVersion"), QStringLiteral("containerd://1.7.22")},
                        {QStringLiteral("kernelVersion"), QStringLiteral("5.15.0-119-generic")},
                        {QStringLiteral("kubeProxyVersion"), QStringLiteral("v1.32.4")},
                        {QStringLiteral("kubeletVersion"), QStringLiteral("v1.32.4")},
                        {QStringLiteral("machineID"), QString()},
                        {QStringLiteral("operatingSystem"), QStringLiteral("linux")},
                        {QStringLiteral("osImage"), QStringLiteral("Ubuntu 22.04.5 LTS")},
                        {QStringLiteral("systemUUID"), QString()}});
    }
    node.insert(QLatin1String("status"), status);
}

} // namespace gq::tc
