#include "testcluster/apicall.h"

#include <QJsonArray>

// The pods/proxy subresource: GET /api/v1/namespaces/NS/pods/NAME[:PORT]/proxy/PATH, as
// the API server relays a request to a pod (the console reads dcgm-exporter this way).
// There is no pod network here, so a pod is reachable only when a test maps it to a real
// local port with the annotation
//
//     gpuquota.io/test-proxy-port: "12345"     # test-only: relay to 127.0.0.1:12345
//
// (whatever port the request names). Every other pod answers as the API server does for
// a pod it cannot dial: 503 ServiceUnavailable "error trying to reach service: dial tcp
// IP:PORT: connect: connection refused"; a pod without an IP yet: 400 "address not
// allowed"; no such pod: 404. Only GET is relayed.

namespace gq::tc {

namespace {

constexpr char kTestProxyPort[] = "gpuquota.io/test-proxy-port";

// "name", "name:port" or "scheme:name:port", as the API server splits a proxy id.
struct ProxyTarget {
    QString name;
    QString port;
};

std::optional<ProxyTarget> splitTarget(const QString &id) {
    const QStringList parts = id.split(QLatin1Char(':'));
    switch (parts.size()) {
    case 1: return ProxyTarget{parts[0], QString()};
    case 2: return ProxyTarget{parts[0], parts[1]};
    case 3: return ProxyTarget{parts[1], parts[2]};
    default: return std::nullopt;
    }
}

QString firstContainerPort(const QJsonObject &pod) {
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    for (const QJsonValue &c : spec.value(QLatin1String("containers")).toArray())
        for (const QJsonValue &p : c.toObject().value(QLatin1String("ports")).toArray())
            if (const int n = p.toObject().value(QLatin1String("containerPort")).toInt(); n > 0)
                return QString::number(n);
    return QStringLiteral("80");
}

} // namespace

bool ApiServer::servePodProxy(ApiCall &call, const QStringList &segs) {
    if (segs.size() < 7 || segs[0] != QLatin1String("api") || segs[1] != QLatin1String("v1") ||
        segs[2] != QLatin1String("namespaces") || segs[4] != QLatin1String("pods") ||
        segs[6] != QLatin1String("proxy"))
        return false;
    httplib::Response &res = call.res;
    const auto answer = [&res](const ApiError &e) {
        sendError(res, e);
        return true;
    };
    if (call.req.method != "GET")
        return answer(ApiError::methodNotAllowed());
    const std::optional<ProxyTarget> target = splitTarget(segs[5]);
    if (!target || target->name.isEmpty())
        return answer(ApiError::badRequest(QStringLiteral("invalid pod request \"%1\"").arg(segs[5])));

    QJsonObject pod;
    {
        std::lock_guard lock(m_store.mutex);
        const Entry *e = m_store.find(Resource::Pod, segs[3], target->name);
        if (!e)
            return answer(ApiError::notFound(QStringLiteral("pods"), target->name));
        pod = parseObject(e->json);
    }
    const QString ip = pod.value(QLatin1String("status")).toObject().value(QLatin1String("podIP")).toString();
    if (ip.isEmpty())
        return answer(ApiError::badRequest(QStringLiteral("address not allowed")));
    const QString port = target->port.isEmpty() ? firstContainerPort(pod) : target->port;
    const auto refused = [&] {
        return answer(ApiError::serviceUnavailable(
            QStringLiteral("error trying to reach service: dial tcp %1:%2: connect: connection refused")
                .arg(ip, port)));
    };
    bool ok = false;
    const int local = metaOf(pod)
                          .value(QLatin1String("annotations"))
                          .toObject()
                          .value(QLatin1String(kTestProxyPort))
                          .toString()
                          .toInt(&ok);
    if (!ok || local <= 0 || local > 65535)
        return refused();

    // The rest of the path after /proxy, and the query as the client sent it.
    std::string path = "/" + segs.mid(7).join(QLatin1Char('/')).toStdString();
    if (segs.size() > 7 && call.req.path.back() == '/')
        path += '/';
    if (const auto q = call.req.target.find('?'); q != std::string::npos)
        path += call.req.target.substr(q);
    httplib::Client backend("127.0.0.1", local);
    backend.set_connection_timeout(5);
    backend.set_read_timeout(30);
    httplib::Headers headers;
    if (call.req.has_header("Accept"))
        headers.emplace("Accept", call.req.get_header_value("Accept"));
    const httplib::Result relayed = backend.Get(path, headers);
    if (!relayed)
        return refused();
    res.status = relayed->status;
    const std::string type = relayed->get_header_value("Content-Type");
    res.set_content(relayed->body, type.empty() ? "text/plain" : type.c_str());
    return true;
}

} // namespace gq::tc
