#include "testcluster/apicall.h"

#include "testcluster/protobuf.h"
#include "testcluster/queryparams.h"
#include "testcluster/store.h"

#include <QDateTime>
#include <QJsonDocument>

namespace gq::tc {

QString nowStamp() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
}

std::string toStd(const QByteArray &b) {
    return std::string(b.constData(), static_cast<std::size_t>(b.size()));
}

QJsonObject parseObject(const QByteArray &json) {
    return QJsonDocument::fromJson(json).object();
}

QJsonObject metaOf(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject();
}

void setMeta(QJsonObject &o, const QJsonObject &meta) {
    o.insert(QLatin1String("metadata"), meta);
}

QByteArray withTypeMeta(QJsonObject object, Resource r) {
    object.insert(QLatin1String("kind"), resourceInfo(r).kind);
    object.insert(QLatin1String("apiVersion"), resourceInfo(r).apiVersion());
    return toCompactJson(object);
}

QString param(const httplib::Request &req, const char *name) {
    return req.has_param(name) ? QString::fromStdString(req.get_param_value(name)) : QString();
}

bool boolParam(const httplib::Request &req, const char *name) {
    return req.has_param(name) && parseQueryBool(param(req, name));
}

Result<Selectors> selectorsOf(const ApiCall &call) {
    Result<Selectors> s =
        Selectors::parse(call.resource, param(call.req, "labelSelector"), param(call.req, "fieldSelector"));
    if (!s)
        return ApiError::badRequest(s.error().message).toError();
    return s;
}

Result<QJsonObject> requestObject(const httplib::Request &req) {
    const std::string contentType = req.get_header_value("Content-Type");
    const QByteArray body = QByteArray::fromStdString(req.body);
    if (contentType.rfind("application/vnd.kubernetes.protobuf", 0) == 0) {
        auto decoded = decodeKubernetesProtobuf(body);
        if (!decoded)
            return ApiError{
                415, QStringLiteral("UnsupportedMediaType"), decoded.error().message, {}, {}, {}, 0, {}}
                .toError();
        return decoded;
    }
    QJsonParseError perr{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return ApiError::badRequest(QStringLiteral("couldn't get version/kind; json parse error: ") +
                                    perr.errorString())
            .toError();
    return doc.object();
}

void sendJson(httplib::Response &res, int code, const QByteArray &body, const char *contentType) {
    res.status = code;
    res.set_content(toStd(body), contentType);
}

void sendError(httplib::Response &res, const ApiError &e) {
    if (e.retryAfterSeconds > 0)
        res.set_header("Retry-After", std::to_string(e.retryAfterSeconds));
    sendJson(res, e.code, e.toJson());
}

void sendError(httplib::Response &res, const Error &e) {
    sendError(res, ApiError::fromError(e));
}

} // namespace gq::tc
