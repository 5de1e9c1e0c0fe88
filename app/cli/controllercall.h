#pragma once

#include "core/net/httprequest.h"
#include "core/domain/result.h"
#include "app/cli/usageverbs.h"

#include <QJsonObject>
#include <QUrlQuery>

namespace gq::cli {

// `method` PATH?QUERY on the controller at --server with the bearer token of --token-file
// ("-": standard input) and --ca-file; the JSON answer of a 2xx. Usage errors name the
// flag; 401/403 are Unauthorized/Forbidden with the controller's reason. Plain http://
// only to a loopback host (plainhttp.h). A GET is retried, a POST is not.
Result<QJsonObject> callController(const usageverbs::Args &a, HttpMethod method, const QString &path,
                                   const QUrlQuery &query = {}, const QByteArray &body = {});

} // namespace gq::cli
