#pragma once

#include "testcluster/apierror.h"
#include "testcluster/apiserver.h"
#include "core/domain/result.h"
#include "testcluster/selectors.h"

#include <httplib.h>

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <string>

// The pieces every part of the API server shares (router, discovery, CRUD, watch,
// reviews, hooks): the routed request and the HTTP helpers. Internal to gqtestcluster.

namespace gq::tc {

struct ApiUser {
    QString name;
    QStringList groups;
    bool admin = false;
    bool authenticated = false;
};

// One API request after routing: who asks, which resource, which verb.
struct ApiCall {
    const httplib::Request &req;
    httplib::Response &res;
    ApiUser user;
    Resource resource = Resource::Namespace;
    QString ns;
    QString name;
    QString subresource;
    QString verb;
    bool dryRun = false;
    QString tableVersion;
};

QString nowStamp();
std::string toStd(const QByteArray &b);
QJsonObject parseObject(const QByteArray &json);
QJsonObject metaOf(const QJsonObject &o);
void setMeta(QJsonObject &o, const QJsonObject &meta);
// The object as the client sees it: with kind and apiVersion, which the store leaves out.
QByteArray withTypeMeta(QJsonObject object, Resource r);

// A query parameter's value, empty when absent.
QString param(const httplib::Request &req, const char *name);
// A boolean query parameter, read as the API server reads it (see parseQueryBool).
bool boolParam(const httplib::Request &req, const char *name);

// The labelSelector and fieldSelector of the request; the error is the 400 to answer.
Result<Selectors> selectorsOf(const ApiCall &call);

// The request body as JSON: kubectl >= 1.32 sends protobuf for typed clients. The
// error carries the HTTP status and reason to answer with (415 or 400).
Result<QJsonObject> requestObject(const httplib::Request &req);

void sendJson(httplib::Response &res, int code, const QByteArray &body,
              const char *contentType = "application/json");
void sendError(httplib::Response &res, const ApiError &e);
void sendError(httplib::Response &res, const Error &e);

} // namespace gq::tc
