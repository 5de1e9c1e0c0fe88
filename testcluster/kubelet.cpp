#include "testcluster/kubelet.h"

#include "testcluster/admission.h"
#include "testcluster/apicall.h"
#include "testcluster/scheduler.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QUuid>

#include <algorithm>

// The controllers a real cluster runs beside the API server, reduced to what the
// console sees: the scheduler and kubelet (a new pod is bound and Running at once,
// with the events kubectl describe shows) and the quota controller (status.used).

namespace gq::tc {

namespace {

// Where a pod runs when the scheduler had no say (the phase hook on a Pending pod).
QString nodeFor(const QString &podName) {
    return QStringLiteral("gpu-node-%1").arg(qHash(podName) % 4 + 1);
}

// PodScheduled=False, as the scheduler leaves a pod that fits nowhere.
QJsonObject unschedulableStatus(const QJsonObject &pod, const QString &message) {
    QJsonObject status = pod.value(QLatin1String("status")).toObject();
    QJsonObject c;
    c.insert(QLatin1String("type"), QLatin1String("PodScheduled"));
    c.insert(QLatin1String("status"), QLatin1String("False"));
    c.insert(QLatin1String("lastProbeTime"), QJsonValue());
    c.insert(QLatin1String("lastTransitionTime"), nowStamp());
    c.insert(QLatin1String("reason"), QLatin1String("Unschedulable"));
    c.insert(QLatin1String("message"), message);
    status.insert(QLatin1String("conditions"), QJsonArray{c});
    return status;
}

QString unschedulableMessage(const QJsonObject &pod) {
    for (const QJsonValue &c :
         pod.value(QLatin1String("status")).toObject().value(QLatin1String("conditions")).toArray()) {
        if (c.toObject().value(QLatin1String("type")).toString() == QLatin1String("PodScheduled") &&
            c.toObject().value(QLatin1String("status")).toString() == QLatin1String("False"))
            return c.toObject().value(QLatin1String("message")).toString();
    }
    return {};
}

QString qosClass(const QJsonObject &pod) {
    const QJsonArray containers =
        pod.value(QLatin1String("spec")).toObject().value(QLatin1String("containers")).toArray();
    bool any = false;
    bool guaranteed = true;
    for (const QJsonValue &c : containers) {
        const QJsonObject res = c.toObject().value(QLatin1String("resources")).toObject();
        const QJsonObject req = res.value(QLatin1String("requests")).toObject();
        const QJsonObject lim = res.value(QLatin1String("limits")).toObject();
        any = any || !req.isEmpty() || !lim.isEmpty();
        for (const char *r : {"cpu", "memory"}) {
            if (!lim.contains(QLatin1String(r)) || req.value(QLatin1String(r)) != lim.value(QLatin1String(r)))
                guaranteed = false;
        }
    }
    if (!any)
        return QStringLiteral("BestEffort");
    return guaranteed ? QStringLiteral("Guaranteed") : QStringLiteral("Burstable");
}

} // namespace

QJsonObject podStatusFor(const QJsonObject &pod, const QString &phase, const QJsonObject &previous) {
    const QString now = nowStamp();
    const QJsonArray containers =
        pod.value(QLatin1String("spec")).toObject().value(QLatin1String("containers")).toArray();
    QJsonObject status = previous;
    status.insert(QLatin1String("phase"), phase);
    status.insert(QLatin1String("qosClass"), qosClass(pod));
    if (phase == QLatin1String("Pending") && !previous.contains(QLatin1String("startTime"))) {
        return status;
    }
    const QString start = previous.value(QLatin1String("startTime")).toString(now);
    status.insert(QLatin1String("startTime"), start);
    const QString name = metaOf(pod).value(QLatin1String("name")).toString();
    const quint32 h = qHash(name);
    status.insert(QLatin1String("hostIP"), QStringLiteral("10.0.0.%1").arg(h % 8 + 10));
    const QString ip = QStringLiteral("10.244.%1.%2").arg(h % 8).arg(h / 8 % 250 + 2);
    status.insert(QLatin1String("podIP"), ip);
    QJsonObject ipObj;
    ipObj.insert(QLatin1String("ip"), ip);
    status.insert(QLatin1String("podIPs"), QJsonArray{ipObj});
    const bool running = phase == QLatin1String("Running");
    auto condition = [&](const char *type, bool value) {
        QJsonObject c;
        c.insert(QLatin1String("type"), QLatin1String(type));
        c.insert(QLatin1String("status"), value ? QLatin1String("True") : QLatin1String("False"));
        c.insert(QLatin1String("lastProbeTime"), QJsonValue());
        c.insert(QLatin1String("lastTransitionTime"), now);
        if (!value && phase != QLatin1String("Pending"))
            c.insert(QLatin1String("reason"), QLatin1String("PodCompleted"));
        return c;
    };
    status.insert(QLatin1String("conditions"),
                  QJsonArray{condition("Initialized", true), condition("Ready", running),
                             condition("ContainersReady", running), condition("PodScheduled", true)});
    // A container restarted earlier (the restart hook) keeps its count, its last run and
    // the start of its current run, as the kubelet does.
    QHash<QString, QJsonObject> before;
    for (const QJsonValue &v : previous.value(QLatin1String("containerStatuses")).toArray())
        before.insert(v.toObject().value(QLatin1String("name")).toString(), v.toObject());
    QJsonArray statuses;
    for (const QJsonValue &cv : containers) {
        const QJsonObject c = cv.toObject();
        const QJsonObject was = before.value(c.value(QLatin1String("name")).toString());
        const int restarts = was.value(QLatin1String("restartCount")).toInt();
        const QString runStart = restarts > 0 ? was.value(QLatin1String("state"))
                                                    .toObject()
                                                    .value(QLatin1String("running"))
                                                    .toObject()
                                                    .value(QLatin1String("startedAt"))
                                                    .toString(start)
                                              : start;
        QJsonObject s;
        s.insert(QLatin1String("name"), c.value(QLatin1String("name")));
        s.insert(QLatin1String("image"), c.value(QLatin1String("image")));
        s.insert(QLatin1String("imageID"), QString());
        s.insert(QLatin1String("ready"), running);
        s.insert(QLatin1String("started"), running);
        s.insert(QLatin1String("restartCount"), restarts);
        if (was.contains(QLatin1String("lastState")))
            s.insert(QLatin1String("lastState"), was.value(QLatin1String("lastState")));
        s.insert(QLatin1String("containerID"),
                 QString(QStringLiteral("containerd://") +
                         QString::fromLatin1(QCryptographicHash::hash(
                                                 (name + c.value(QLatin1String("name")).toString()).toUtf8(),
                                                 QCryptographicHash::Sha256)
                                                 .toHex())));
        QJsonObject state;
        if (running) {
            QJsonObject r;
            r.insert(QLatin1String("startedAt"), runStart);
            state.insert(QLatin1String("running"), r);
        } else if (phase == QLatin1String("Pending")) {
            QJsonObject w;
            w.insert(QLatin1String("reason"), QLatin1String("ContainerCreating"));
            state.insert(QLatin1String("waiting"), w);
        } else {
            const bool ok = phase == QLatin1String("Succeeded");
            QJsonObject t;
            t.insert(QLatin1String("exitCode"), ok ? 0 : 1);
            t.insert(QLatin1String("reason"), ok ? QLatin1String("Completed") : QLatin1String("Error"));
            t.insert(QLatin1String("startedAt"), runStart);
            t.insert(QLatin1String("finishedAt"), now);
            t.insert(QLatin1String("containerID"), s.value(QLatin1String("containerID")));
            state.insert(QLatin1String("terminated"), t);
        }
        s.insert(QLatin1String("state"), state);
        statuses.append(s);
    }
    status.insert(QLatin1String("containerStatuses"), statuses);
    return status;
}

// The quota controller: keep status.used of every quota in `ns` current.
// Called with the store mutex held.
void ApiServer::refreshQuotas(const QString &ns) {
    if (m_quotaControllerPaused)
        return;
    std::vector<QJsonObject> changed;
    auto [first, last] = m_store.range(Resource::ResourceQuota, ns);
    for (auto it = first; it != last; ++it) {
        QJsonObject quota = parseObject(it->second.json);
        const QJsonObject status = computeQuotaStatus(m_store, quota);
        if (status != quota.value(QLatin1String("status")).toObject()) {
            quota.insert(QLatin1String("status"), status);
            changed.push_back(quota);
        }
    }
    for (QJsonObject &q : changed)
        m_store.commit(Resource::ResourceQuota, q, "MODIFIED");
}

// The scheduler and kubelet in one step: bind to a node and start running.
// Called with the store mutex held.
void ApiServer::schedulePod(const QString &ns, const QString &name) {
    const Entry *e = m_store.find(Resource::Pod, ns, name);
    if (!e)
        return;
    QJsonObject pod = parseObject(e->json);
    QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    if (spec.value(QLatin1String("nodeName")).toString().isEmpty()) {
        const SchedulingDecision decision = schedulePodOnNodes(m_store, pod);
        if (decision.node.isEmpty()) {
            // Stays Pending; the event once per new reason, as the scheduler's backoff does.
            if (unschedulableMessage(pod) == decision.message)
                return;
            pod.insert(QLatin1String("status"), unschedulableStatus(pod, decision.message));
            const Entry &stored = m_store.commit(Resource::Pod, pod, "MODIFIED");
            recordEvent(parseObject(stored.json), QStringLiteral("Warning"),
                        QStringLiteral("FailedScheduling"), decision.message,
                        QStringLiteral("default-scheduler"));
            return;
        }
        spec.insert(QLatin1String("nodeName"), decision.node);
    }
    pod.insert(QLatin1String("spec"), spec);
    pod.insert(QLatin1String("status"),
               podStatusFor(pod, QStringLiteral("Running"), pod.value(QLatin1String("status")).toObject()));
    const Entry &stored = m_store.commit(Resource::Pod, pod, "MODIFIED");
    pod = parseObject(stored.json);
    const QString node = spec.value(QLatin1String("nodeName")).toString();
    recordEvent(pod, QStringLiteral("Normal"), QStringLiteral("Scheduled"),
                QStringLiteral("Successfully assigned %1/%2 to %3").arg(ns, name, node),
                QStringLiteral("default-scheduler"));
    const QJsonArray containers = spec.value(QLatin1String("containers")).toArray();
    for (const QJsonValue &c : containers) {
        const QString cname = c.toObject().value(QLatin1String("name")).toString();
        recordEvent(pod, QStringLiteral("Normal"), QStringLiteral("Started"),
                    QStringLiteral("Started container %1").arg(cname), QStringLiteral("kubelet"));
    }
}

// Capacity changed (a pod finished or went, a node came or changed): the pods waiting
// for room get another try, oldest first. Called with the store mutex held.
void ApiServer::retryPendingPods() {
    if (m_config.podsStayPending || m_store.map(Resource::Node).empty())
        return;
    std::vector<std::pair<QString, std::pair<QString, QString>>> waiting; // creation time, (ns, name)
    for (const auto &[key, e] : m_store.map(Resource::Pod)) {
        if (e.phase == QLatin1String("Pending") && e.nodeName.isEmpty())
            waiting.push_back(
                {metaOf(parseObject(e.json)).value(QLatin1String("creationTimestamp")).toString(),
                 {e.ns, e.name}});
    }
    std::sort(waiting.begin(), waiting.end());
    for (const auto &[created, pod] : waiting) {
        Q_UNUSED(created);
        schedulePod(pod.first, pod.second);
    }
}

// Called with the store mutex held.
void ApiServer::recordEvent(const QJsonObject &pod, const QString &type, const QString &reason,
                            const QString &message, const QString &component) {
    const QJsonObject podMeta = metaOf(pod);
    const QString ns = podMeta.value(QLatin1String("namespace")).toString();
    const QString now = nowStamp();
    QJsonObject meta;
    meta.insert(QLatin1String("name"),
                QString(podMeta.value(QLatin1String("name")).toString() + QLatin1Char('.') +
                        QString::number(QRandomGenerator::global()->generate64(), 16)));
    meta.insert(QLatin1String("namespace"), ns);
    meta.insert(QLatin1String("uid"), QUuid::createUuid().toString(QUuid::WithoutBraces));
    meta.insert(QLatin1String("creationTimestamp"), now);
    QJsonObject involved;
    involved.insert(QLatin1String("kind"), QLatin1String("Pod"));
    involved.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
    involved.insert(QLatin1String("namespace"), ns);
    involved.insert(QLatin1String("name"), podMeta.value(QLatin1String("name")));
    involved.insert(QLatin1String("uid"), podMeta.value(QLatin1String("uid")));
    involved.insert(QLatin1String("resourceVersion"), podMeta.value(QLatin1String("resourceVersion")));
    QJsonObject source;
    source.insert(QLatin1String("component"), component);
    QJsonObject event;
    event.insert(QLatin1String("metadata"), meta);
    event.insert(QLatin1String("involvedObject"), involved);
    event.insert(QLatin1String("reason"), reason);
    event.insert(QLatin1String("message"), message);
    event.insert(QLatin1String("type"), type);
    event.insert(QLatin1String("source"), source);
    event.insert(QLatin1String("firstTimestamp"), now);
    event.insert(QLatin1String("lastTimestamp"), now);
    event.insert(QLatin1String("count"), 1);
    event.insert(QLatin1String("reportingComponent"), component);
    event.insert(QLatin1String("reportingInstance"), QString());
    event.insert(QLatin1String("eventTime"), QJsonValue());
    m_store.commit(Resource::Event, event, "ADDED");
}

ApiServer::HookReply ApiServer::restartContainers(const QString &ns, const QString &name, const QString &at) {
    std::lock_guard lock(m_store.mutex);
    const Entry *e = m_store.find(Resource::Pod, ns, name);
    if (!e)
        return {404, ApiError::notFound(QStringLiteral("pods"), name).toJson()};
    QJsonObject pod = parseObject(e->json);
    QJsonObject status = pod.value(QLatin1String("status")).toObject();
    if (status.value(QLatin1String("phase")).toString() != QLatin1String("Running"))
        return {409, QJsonDocument(
                         QJsonObject{{QStringLiteral("message"), QStringLiteral("the pod is not Running")}})
                         .toJson(QJsonDocument::Compact)};
    const QString when = at.isEmpty() ? nowStamp() : at;
    QJsonArray statuses = status.value(QLatin1String("containerStatuses")).toArray();
    for (QJsonValueRef ref : statuses) {
        QJsonObject cs = ref.toObject();
        QJsonObject state = cs.value(QLatin1String("state")).toObject();
        QJsonObject ended{
            {QStringLiteral("exitCode"), 1},
            {QStringLiteral("reason"), QStringLiteral("Error")},
            {QStringLiteral("startedAt"),
             state.value(QLatin1String("running")).toObject().value(QLatin1String("startedAt"))},
            {QStringLiteral("finishedAt"), when},
            {QStringLiteral("containerID"), cs.value(QLatin1String("containerID"))}};
        cs.insert(QLatin1String("lastState"), QJsonObject{{QStringLiteral("terminated"), ended}});
        cs.insert(QLatin1String("state"),
                  QJsonObject{{QStringLiteral("running"), QJsonObject{{QStringLiteral("startedAt"), when}}}});
        cs.insert(QLatin1String("restartCount"), cs.value(QLatin1String("restartCount")).toInt() + 1);
        ref = cs;
    }
    status.insert(QLatin1String("containerStatuses"), statuses);
    pod.insert(QLatin1String("status"), status);
    const Entry &stored = m_store.commit(Resource::Pod, pod, "MODIFIED");
    return {200, withKind(Resource::Pod, stored.json)};
}

ApiServer::HookReply ApiServer::setPodPhase(const QString &ns, const QString &name, const QString &phase,
                                            const QString &startedAt, const QString &finishedAt) {
    std::lock_guard lock(m_store.mutex);
    const Entry *e = m_store.find(Resource::Pod, ns, name);
    if (!e)
        return {404, ApiError::notFound(QStringLiteral("pods"), name).toJson()};
    QJsonObject pod = parseObject(e->json);
    QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    if (phase != QLatin1String("Pending") && spec.value(QLatin1String("nodeName")).toString().isEmpty()) {
        spec.insert(QLatin1String("nodeName"), nodeFor(name));
        pod.insert(QLatin1String("spec"), spec);
    }
    QJsonObject previous = pod.value(QLatin1String("status")).toObject();
    if (!startedAt.isEmpty())
        previous.insert(QLatin1String("startTime"), startedAt);
    QJsonObject status = podStatusFor(pod, phase, previous);
    if (!finishedAt.isEmpty()) {
        QJsonArray statuses = status.value(QLatin1String("containerStatuses")).toArray();
        for (QJsonValueRef ref : statuses) {
            QJsonObject cs = ref.toObject();
            QJsonObject state = cs.value(QLatin1String("state")).toObject();
            if (!state.contains(QLatin1String("terminated")))
                continue;
            QJsonObject t = state.value(QLatin1String("terminated")).toObject();
            t.insert(QLatin1String("finishedAt"), finishedAt);
            state.insert(QLatin1String("terminated"), t);
            cs.insert(QLatin1String("state"), state);
            ref = cs;
        }
        status.insert(QLatin1String("containerStatuses"), statuses);
    }
    pod.insert(QLatin1String("status"), status);
    const Entry &stored = m_store.commit(Resource::Pod, pod, "MODIFIED");
    const QByteArray body = withKind(Resource::Pod, stored.json);
    refreshQuotas(ns);
    if (podIsTerminal(phase))
        retryPendingPods();
    return {200, body};
}

} // namespace gq::tc
