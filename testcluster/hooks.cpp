#include "testcluster/admission.h"
#include "testcluster/apicall.h"
#include "testcluster/kubelet.h"

#include <QUuid>

// The `/_gq/...` test hooks (faults, pod phases, the quota controller, compaction,
// stats) and the seeding entry points scenarios and benchmarks use.

namespace gq::tc {

ApiServer::HookReply ApiServer::createObject(Resource r, const QString &ns, const QJsonObject &object) {
    httplib::Request req;
    req.method = "POST";
    req.body = toStd(toCompactJson(object));
    httplib::Response res;
    ApiCall call{req,
                 res,
                 ApiUser{QStringLiteral("scenario"), {}, true, true},
                 r,
                 ns,
                 {},
                 {},
                 QStringLiteral("create"),
                 false,
                 {}};
    handleCreate(call);
    return {res.status, QByteArray::fromStdString(res.body)};
}

void ApiServer::bulkLoad(Resource r, const QString &ns, QJsonObject object) {
    QJsonObject meta = metaOf(object);
    if (resourceInfo(r).namespaced)
        meta.insert(QLatin1String("namespace"), ns);
    meta.insert(QLatin1String("uid"), QUuid::createUuid().toString(QUuid::WithoutBraces));
    if (!meta.contains(QLatin1String("creationTimestamp")))
        meta.insert(QLatin1String("creationTimestamp"), nowStamp());
    if (r != Resource::Namespace && r != Resource::Event)
        meta.insert(QLatin1String("generation"), 1);
    setMeta(object, meta);
    applyDefaults(r, object);
    if (r == Resource::Pod) {
        QJsonObject spec = object.value(QLatin1String("spec")).toObject();
        spec.insert(
            QLatin1String("nodeName"),
            QStringLiteral("gpu-node-%1").arg(qHash(meta.value(QLatin1String("name")).toString()) % 64 + 1));
        object.insert(QLatin1String("spec"), spec);
        object.insert(QLatin1String("status"), podStatusFor(object, QStringLiteral("Running"), {}));
    }
    std::lock_guard lock(m_store.mutex);
    m_store.commit(r, object, "ADDED", false);
}

void ApiServer::finishBulkLoad() {
    std::lock_guard lock(m_store.mutex);
    std::vector<QJsonObject> quotas;
    for (const auto &[key, entry] : m_store.map(Resource::ResourceQuota))
        quotas.push_back(parseObject(entry.json));
    for (QJsonObject &q : quotas) {
        q.insert(QLatin1String("status"), computeQuotaStatus(m_store, q));
        m_store.commit(Resource::ResourceQuota, q, "MODIFIED", false);
    }
    m_store.compact();
}

ApiServer::HookReply ApiServer::hook(const QByteArray &method, const QString &path, const QByteArray &body) {
    const QStringList segs = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const QJsonObject in = parseObject(body);
    auto ok = [](const QJsonObject &o) { return HookReply{200, toCompactJson(o)}; };
    auto fail = [](int code, const QString &message) {
        return HookReply{code,
                         ApiError{code,
                                  code == 404 ? QStringLiteral("NotFound") : QStringLiteral("BadRequest"),
                                  message,
                                  {},
                                  {},
                                  {},
                                  0,
                                  {}}
                             .toJson()};
    };
    if (segs.size() < 2 || segs[0] != QLatin1String("_gq"))
        return fail(404, QStringLiteral("unknown hook ") + path);
    const QString what = segs[1];
    if (what == QLatin1String("faults")) {
        if (method == "GET") {
            std::lock_guard lock(m_faultMutex);
            return ok(m_faults.toJson());
        }
        if (method == "PUT" || method == "POST") {
            const Faults f = Faults::fromJson(in);
            setFaults(f);
            return ok(f.toJson());
        }
        if (method == "DELETE") {
            setFaults({});
            return ok(Faults().toJson());
        }
    }
    // POST /_gq/pods/{ns}/{name}/phase {"phase":"Succeeded"}, optionally with
    // "startedAt" / "finishedAt" (RFC 3339) for the containers' start and end.
    if (what == QLatin1String("pods") && segs.size() == 5 && segs[4] == QLatin1String("phase") &&
        method == "POST") {
        const QString phase = in.value(QLatin1String("phase")).toString();
        static const QStringList phases = {QStringLiteral("Pending"), QStringLiteral("Running"),
                                           QStringLiteral("Succeeded"), QStringLiteral("Failed")};
        if (!phases.contains(phase))
            return fail(
                400, QStringLiteral("phase: must be one of Pending, Running, Succeeded, Failed (got \"%1\")")
                         .arg(phase));
        return setPodPhase(segs[2], segs[3], phase, in.value(QLatin1String("startedAt")).toString(),
                           in.value(QLatin1String("finishedAt")).toString());
    }
    // POST /_gq/pods/{ns}/{name}/restart {"at": RFC 3339}: every container of the Running
    // pod restarts (exits and runs again) at that instant.
    if (what == QLatin1String("pods") && segs.size() == 5 && segs[4] == QLatin1String("restart") &&
        method == "POST")
        return restartContainers(segs[2], segs[3], in.value(QLatin1String("at")).toString());
    // PUT /_gq/quota-controller {"paused":true}: new quotas stay without status (not
    // enforced yet) and usage is not recomputed until it is resumed.
    if (what == QLatin1String("quota-controller") && (method == "PUT" || method == "POST")) {
        const bool paused = in.value(QLatin1String("paused")).toBool();
        m_quotaControllerPaused = paused;
        if (!paused) {
            std::lock_guard lock(m_store.mutex);
            QStringList namespaces;
            for (const auto &[key, entry] : m_store.map(Resource::ResourceQuota))
                if (!namespaces.contains(entry.ns))
                    namespaces.append(entry.ns);
            for (const QString &ns : namespaces)
                refreshQuotas(ns);
        }
        return ok(QJsonObject{{QStringLiteral("paused"), paused}});
    }
    if (what == QLatin1String("compact") && method == "POST") {
        std::lock_guard lock(m_store.mutex);
        m_store.compact();
        QJsonObject o;
        o.insert(QLatin1String("compactedResourceVersion"), QString::number(m_store.compactedRv()));
        return ok(o);
    }
    if (what == QLatin1String("stats") && method == "GET") {
        std::lock_guard lock(m_store.mutex);
        QJsonObject o;
        o.insert(QLatin1String("resourceVersion"), QString::number(m_store.currentRv()));
        o.insert(QLatin1String("compactedResourceVersion"), QString::number(m_store.compactedRv()));
        QJsonObject counts;
        for (int i = 0; i < kResourceCount; ++i)
            counts.insert(resourceInfo(static_cast<Resource>(i)).plural,
                          static_cast<qint64>(m_store.map(static_cast<Resource>(i)).size()));
        o.insert(QLatin1String("objects"), counts);
        return ok(o);
    }
    if (what == QLatin1String("users"))
        return usersHook(method, segs, in);
    if (what == QLatin1String("healthz"))
        return ok(QJsonObject{{QStringLiteral("ok"), true}});
    return fail(404, QStringLiteral("unknown hook ") + QString::fromLatin1(method) + QLatin1Char(' ') + path);
}

} // namespace gq::tc
