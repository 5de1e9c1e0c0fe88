// One call to the controller's self-service API with the caller's bearer token (see
// controllercall.h).
#include "app/cli/controllercall.h"

#include "core/net/httptransport.h"
#include "core/kube/plainhttp.h"

#include <QFile>
#include <QJsonDocument>
#include <QUrl>

namespace gq::cli {

using namespace usageverbs;

Result<QJsonObject> callController(const Args &a, HttpMethod method, const QString &path,
                                   const QUrlQuery &query, const QByteArray &body) {
    const QUrl base(a.value(QStringLiteral("server")));
    if (!base.isValid() ||
        (base.scheme() != QLatin1String("http") && base.scheme() != QLatin1String("https")) ||
        base.host().isEmpty())
        return Error::make(Error::Kind::Usage,
                           QStringLiteral("--server must be an http:// or https:// URL, got '%1'")
                               .arg(a.value(QStringLiteral("server"))),
                           QStringLiteral("--server"));
    if (!a.has(QStringLiteral("token-file")))
        return Error::make(Error::Kind::Usage, QStringLiteral("--token-file F is required with --server"),
                           QStringLiteral("--token-file"));
    const QString tokenFile = a.value(QStringLiteral("token-file"));
    QFile f;
    const bool opened = tokenFile == QLatin1String("-")
                            ? f.open(stdin, QIODevice::ReadOnly)
                            : (f.setFileName(tokenFile), f.open(QIODevice::ReadOnly));
    if (!opened)
        return Error::make(Error::Kind::Usage,
                           QStringLiteral("--token-file: cannot read %1: %2").arg(tokenFile, f.errorString()),
                           QStringLiteral("--token-file"));
    const QByteArray token = f.read(64 * 1024).trimmed();
    if (token.isEmpty())
        return Error::make(Error::Kind::Usage, QStringLiteral("--token-file: %1 is empty").arg(tokenFile),
                           QStringLiteral("--token-file"));
    // The token is a credential: never in clear text to another machine (see plainhttp.h).
    if (base.scheme() == QLatin1String("http") && !isLoopbackHost(base.host()) &&
        !plainHttpCredentialsAllowedByEnvironment())
        return Error::make(Error::Kind::Config,
                           QStringLiteral("refusing to send the token over plain http:// to %1; use https:// "
                                          "(or GQ_ALLOW_PLAIN_HTTP_CREDENTIALS=1)")
                               .arg(base.host()));
    QUrl url = base;
    url.setPath(base.path().endsWith(QLatin1Char('/')) ? QString(base.path() + path)
                                                       : QString(base.path() + QLatin1Char('/') + path));
    url.setQuery(query);
    HttpRequest req;
    req.method = method;
    req.body = body;
    req.url = QString::fromUtf8(url.toEncoded());
    req.headers.append(qMakePair(QByteArray("Authorization"), QByteArray(QByteArray("Bearer ") + token)));
    req.headers.append(qMakePair(QByteArray("Accept"), QByteArray("application/json")));
    req.description = methodName(method) + QStringLiteral(" /") + path;
    // A POST that may have been stored before the answer was lost is not repeated.
    req.retry.maxAttempts = method == HttpMethod::Get ? 3 : 1;
    if (a.has(QStringLiteral("ca-file"))) {
        QFile ca(a.value(QStringLiteral("ca-file")));
        if (!ca.open(QIODevice::ReadOnly))
            return Error::make(Error::Kind::Usage,
                               QStringLiteral("--ca-file: cannot read %1").arg(ca.fileName()),
                               QStringLiteral("--ca-file"));
        req.tls.caPem = ca.readAll();
    }
    HttpTransport transport;
    const HttpResponse r = transport.send(req).result();
    if (r.transportError)
        return Error::make(
            r.transportError->kind,
            QStringLiteral("cannot reach %1: %2").arg(base.toString(), r.transportError->message));
    const QJsonObject answer = QJsonDocument::fromJson(r.body).object();
    if (r.httpStatus < 200 || r.httpStatus > 299) {
        Error e = Error::make(
            r.httpStatus == 401   ? Error::Kind::Unauthorized
            : r.httpStatus == 403 ? Error::Kind::Forbidden
                                  : Error::Kind::Server,
            QStringLiteral("%1 answered %2: %3")
                .arg(base.toString())
                .arg(r.httpStatus)
                .arg(answer.value(QLatin1String("error")).toString(QString::fromUtf8(r.body.left(200)))));
        e.httpStatus = r.httpStatus;
        return e;
    }
    return answer;
}

} // namespace gq::cli
