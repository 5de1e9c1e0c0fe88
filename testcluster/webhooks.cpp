#include "testcluster/webhooks.h"

#include "testcluster/store.h"

#include <httplib.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>

// Calling validating webhooks: the AdmissionReview v1 request, the HTTPS call with the
// configuration's CA bundle, and the API server's words for every outcome
// (webhook/errors.ToStatusErr for denials, ErrCallingWebhook + NewInternalError for a
// webhook that cannot be called under failurePolicy Fail).

namespace gq::tc {

namespace {

QJsonObject gvk(const QString &group, const QString &version, const char *key, const QString &value) {
    return QJsonObject{
        {QStringLiteral("group"), group}, {QStringLiteral("version"), version}, {QLatin1String(key), value}};
}

QJsonObject withType(QJsonObject object, Resource r) {
    object.insert(QLatin1String("kind"), resourceInfo(r).kind);
    object.insert(QLatin1String("apiVersion"), resourceInfo(r).apiVersion());
    return object;
}

QJsonObject reviewFor(const AdmissionRequest &request, const QString &uid) {
    const ResourceInfo &info = resourceInfo(request.resource);
    QJsonObject req;
    req.insert(QLatin1String("uid"), uid);
    const QJsonObject kind = gvk(info.group, info.version, "kind", info.kind);
    const QJsonObject resource = gvk(info.group, info.version, "resource", info.plural);
    req.insert(QLatin1String("kind"), kind);
    req.insert(QLatin1String("resource"), resource);
    req.insert(QLatin1String("requestKind"), kind);
    req.insert(QLatin1String("requestResource"), resource);
    if (!request.subresource.isEmpty())
        req.insert(QLatin1String("subResource"), request.subresource);
    if (!request.name.isEmpty())
        req.insert(QLatin1String("name"), request.name);
    if (!request.ns.isEmpty())
        req.insert(QLatin1String("namespace"), request.ns);
    req.insert(QLatin1String("operation"), request.operation);
    QJsonObject user;
    user.insert(QLatin1String("username"), request.userName);
    user.insert(QLatin1String("groups"), QJsonArray::fromStringList(request.userGroups));
    req.insert(QLatin1String("userInfo"), user);
    req.insert(QLatin1String("object"), withType(request.object, request.resource));
    req.insert(QLatin1String("oldObject"), request.oldObject.isEmpty()
                                               ? QJsonValue()
                                               : QJsonValue(withType(request.oldObject, request.resource)));
    req.insert(QLatin1String("dryRun"), request.dryRun);
    QJsonObject options;
    options.insert(QLatin1String("kind"), request.operation == QLatin1String("CREATE")
                                              ? QLatin1String("CreateOptions")
                                              : QLatin1String("UpdateOptions"));
    options.insert(QLatin1String("apiVersion"), QLatin1String("meta.k8s.io/v1"));
    req.insert(QLatin1String("options"), options);
    QJsonObject review;
    review.insert(QLatin1String("kind"), QLatin1String("AdmissionReview"));
    review.insert(QLatin1String("apiVersion"), QLatin1String("admission.k8s.io/v1"));
    review.insert(QLatin1String("request"), req);
    return review;
}

// The CA bundle as an OpenSSL store; nullptr if it holds no certificate.
X509_STORE *caStoreFrom(const QByteArray &pem) {
    BIO *bio = BIO_new_mem_buf(pem.constData(), static_cast<int>(pem.size()));
    if (!bio)
        return nullptr;
    X509_STORE *store = X509_STORE_new();
    int count = 0;
    while (X509 *cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
        X509_STORE_add_cert(store, cert);
        X509_free(cert);
        ++count;
    }
    ERR_clear_error();
    BIO_free(bio);
    if (count == 0) {
        X509_STORE_free(store);
        return nullptr;
    }
    return store;
}

// The host check of Go's crypto/x509 (Certificate.VerifyHostname), which the API server's
// webhook client runs: subjectAltName only, never the Common Name (cpp-httplib falls back
// to it, Go has not since 1.15). OpenSSL checks the host during the chain's verification
// (X509_CHECK_FLAG_NEVER_CHECK_SUBJECT); the callback puts Go's words for a mismatch here.
thread_local QString tlsHostError;

bool hasSubjectAltName(X509 *cert) {
    return X509_get_ext_by_NID(cert, NID_subject_alt_name, -1) >= 0;
}

QString commonNameOf(X509 *cert) {
    char cn[256] = {};
    X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, cn, sizeof cn);
    return QString::fromUtf8(cn);
}

// crypto/x509.HostnameError.Error().
QString goHostnameError(X509 *cert, const QString &host) {
    const bool ip = a2i_IPADDRESS(host.toLatin1().constData()) != nullptr;
    ERR_clear_error();
    if (!hasSubjectAltName(cert) && commonNameOf(cert).compare(host, Qt::CaseInsensitive) == 0)
        return QStringLiteral("x509: certificate relies on legacy Common Name field, use SANs instead");
    if (ip)
        return QStringLiteral(
                   "x509: cannot validate certificate for %1 because it doesn't contain any IP SANs")
            .arg(host);
    if (!hasSubjectAltName(cert))
        return QStringLiteral("x509: certificate is not valid for any names, but wanted to match %1")
            .arg(host);
    return QStringLiteral("x509: certificate is not valid for %1").arg(host);
}

int verifyHostCallback(int ok, X509_STORE_CTX *ctx) {
    const int err = X509_STORE_CTX_get_error(ctx);
    if (!ok && X509_STORE_CTX_get_error_depth(ctx) == 0 &&
        (err == X509_V_ERR_HOSTNAME_MISMATCH || err == X509_V_ERR_IP_ADDRESS_MISMATCH)) {
        X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(ctx);
        const char *host = X509_VERIFY_PARAM_get0_host(param, 0);
        char *ip = X509_VERIFY_PARAM_get1_ip_asc(param);
        tlsHostError = goHostnameError(X509_STORE_CTX_get_current_cert(ctx), QString::fromLatin1(host ? host
                                                                                                 : ip ? ip
                                                                                                      : ""));
        OPENSSL_free(ip);
    }
    return ok;
}

// Makes `client` check the host as Go does (see tlsHostError).
void verifyHostLikeGo(httplib::SSLClient &client, const QString &host) {
    SSL_CTX *ctx = client.ssl_context();
    X509_VERIFY_PARAM *param = SSL_CTX_get0_param(ctx);
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NEVER_CHECK_SUBJECT);
    const QByteArray h = host.toLatin1();
    if (X509_VERIFY_PARAM_set1_ip_asc(param, h.constData()) != 1)
        X509_VERIFY_PARAM_set1_host(param, h.constData(), 0);
    ERR_clear_error();
    X509_STORE_set_verify_cb(SSL_CTX_get_cert_store(ctx), verifyHostCallback);
}

// Why the call failed, in the words of Go's net/http and crypto/tls errors.
QString transportError(const WebhookTarget &t, httplib::Error error, long verifyResult, qint64 elapsedMs) {
    const bool timedOut = elapsedMs >= qint64(t.timeoutSeconds) * 1000 - 50;
    QString why;
    switch (error) {
    case httplib::Error::Connection:
        why = timedOut ? QStringLiteral("context deadline exceeded")
                       : QStringLiteral("dial tcp %1:%2: connect: connection refused")
                             .arg(t.connectAddress.isEmpty() ? t.tlsHost : t.connectAddress)
                             .arg(t.port);
        break;
    case httplib::Error::SSLServerVerification:
        why = !tlsHostError.isEmpty() ? QStringLiteral("tls: failed to verify certificate: ") + tlsHostError
              : verifyResult != X509_V_OK
                  ? QStringLiteral(
                        "tls: failed to verify certificate: x509: certificate signed by unknown authority")
                  : QStringLiteral("tls: failed to verify certificate: x509: certificate is not valid for %1")
                        .arg(t.tlsHost);
        break;
    case httplib::Error::SSLConnection: why = QStringLiteral("remote error: tls: handshake failure"); break;
    case httplib::Error::Read:
        why = timedOut ? QStringLiteral("context deadline exceeded") : QStringLiteral("EOF");
        break;
    default: why = QString::fromStdString(httplib::to_string(error)); break;
    }
    return QStringLiteral("Post \"%1\": %2").arg(t.displayUrl, why);
}

// A non-2xx answer, as client-go's rest client turns it into an error.
QString httpError(int status, const QByteArray &body) {
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (o.value(QLatin1String("kind")).toString() == QLatin1String("Status") &&
        !o.value(QLatin1String("message")).toString().isEmpty())
        return o.value(QLatin1String("message")).toString();
    if (status == 404)
        return QStringLiteral("the server could not find the requested resource");
    return QStringLiteral("an error on the server (\"%1\") has prevented the request from succeeding")
        .arg(QString::fromUtf8(body.left(1024)).trimmed());
}

struct CallResult {
    QString failure;      // ErrCallingWebhook's reason; empty when the webhook answered
    QJsonObject response; // AdmissionReview.response
};

CallResult call(const WebhookTarget &t, const AdmissionRequest &request) {
    CallResult out;
    if (!t.resolveError.isEmpty()) {
        out.failure =
            QStringLiteral("failed to call webhook: Post \"%1\": %2").arg(t.displayUrl, t.resolveError);
        return out;
    }
    X509_STORE *caStore = nullptr;
    if (!t.caBundlePem.isEmpty()) {
        caStore = caStoreFrom(t.caBundlePem);
        if (!caStore) {
            out.failure = QStringLiteral("could not get REST client: unable to load root certificates: "
                                         "unable to parse bytes as PEM block");
            return out;
        }
    }
    const QString uid = QUuid::createUuid().toString(QUuid::WithoutBraces);
    httplib::SSLClient client(t.tlsHost.toStdString(), t.port);
    if (!t.connectAddress.isEmpty())
        client.set_hostname_addr_map({{t.tlsHost.toStdString(), t.connectAddress.toStdString()}});
    if (caStore)
        client.set_ca_cert_store(caStore); // the client's SSL context owns it from here
    client.enable_server_certificate_verification(true);
    verifyHostLikeGo(client, t.tlsHost);
    tlsHostError.clear();
    client.set_connection_timeout(t.timeoutSeconds);
    client.set_read_timeout(t.timeoutSeconds);
    client.set_write_timeout(t.timeoutSeconds);
    client.set_keep_alive(false);
    const QByteArray body = QJsonDocument(reviewFor(request, uid)).toJson(QJsonDocument::Compact);
    QElapsedTimer timer;
    timer.start();
    const httplib::Result res =
        client.Post(t.pathAndQuery.toStdString(), {{"Accept", "application/json"}}, body.constData(),
                    static_cast<std::size_t>(body.size()), "application/json");
    if (!res) {
        out.failure = QStringLiteral("failed to call webhook: ") +
                      transportError(t, res.error(), client.get_openssl_verify_result(), timer.elapsed());
        return out;
    }
    const QByteArray answer = QByteArray::fromStdString(res->body);
    if (res->status < 200 || res->status > 299) {
        out.failure = QStringLiteral("failed to call webhook: ") + httpError(res->status, answer);
        return out;
    }
    QJsonParseError perr{};
    const QJsonDocument doc = QJsonDocument::fromJson(answer, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject()) {
        out.failure =
            QStringLiteral("failed to call webhook: couldn't get version/kind; json parse error: ") +
            perr.errorString();
        return out;
    }
    // webhookrequest.VerifyAdmissionResponse, v1.
    const QJsonObject review = doc.object();
    const QJsonValue response = review.value(QLatin1String("response"));
    if (!response.isObject()) {
        out.failure = QStringLiteral("webhook response was absent");
        return out;
    }
    const QString gotUid = response.toObject().value(QLatin1String("uid")).toString();
    if (gotUid != uid) {
        out.failure = QStringLiteral("expected response.uid=\"%1\", got \"%2\"").arg(uid, gotUid);
        return out;
    }
    const QString apiVersion = review.value(QLatin1String("apiVersion")).toString();
    const QString kind = review.value(QLatin1String("kind")).toString();
    if (apiVersion != QLatin1String("admission.k8s.io/v1") || kind != QLatin1String("AdmissionReview")) {
        out.failure =
            QStringLiteral("expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, "
                           "got %1, Kind=%2")
                .arg(apiVersion, kind);
        return out;
    }
    out.response = response.toObject();
    return out;
}

// webhook/errors.ToStatusErr: the webhook's own Status, its message prefixed.
ApiError denial(const QString &webhookName, const QJsonObject &result) {
    ApiError e;
    e.code = result.value(QLatin1String("code")).toInt();
    if (e.code < 400)
        e.code = 400; // never a rejection with a success code
    e.reason = result.value(QLatin1String("reason")).toString();
    const QString deniedBy = QStringLiteral("admission webhook \"%1\" denied the request").arg(webhookName);
    const QString message = result.value(QLatin1String("message")).toString();
    if (!message.isEmpty())
        e.message = deniedBy + QStringLiteral(": ") + message;
    else if (!e.reason.isEmpty())
        e.message = deniedBy + QStringLiteral(": ") + e.reason;
    else
        e.message = deniedBy + QStringLiteral(" without explanation");
    const QJsonObject details = result.value(QLatin1String("details")).toObject();
    e.name = details.value(QLatin1String("name")).toString();
    e.group = details.value(QLatin1String("group")).toString();
    e.kind = details.value(QLatin1String("kind")).toString();
    e.causes = details.value(QLatin1String("causes")).toArray();
    e.retryAfterSeconds = details.value(QLatin1String("retryAfterSeconds")).toInt();
    return e;
}

} // namespace

WebhookOutcome callWebhooks(const std::vector<WebhookTarget> &targets, const AdmissionRequest &request) {
    WebhookOutcome outcome;
    for (const WebhookTarget &t : targets) {
        if (request.dryRun && t.sideEffects != QLatin1String("None") &&
            t.sideEffects != QLatin1String("NoneOnDryRun")) {
            outcome.rejection = ApiError::badRequest(
                QStringLiteral("admission webhook \"%1\" does not support dry run").arg(t.name));
            return outcome;
        }
        const CallResult r = call(t, request);
        if (!r.failure.isEmpty()) {
            const QString err = QStringLiteral("failed calling webhook \"%1\": %2").arg(t.name, r.failure);
            if (!t.failClosed) {
                outcome.ignoredFailures.append(err);
                continue;
            }
            // apierrors.NewInternalError(err).
            ApiError e = ApiError::internal(err);
            e.causes = QJsonArray{QJsonObject{{QStringLiteral("message"), err}}};
            outcome.rejection = e;
            return outcome;
        }
        for (const QJsonValue &w : r.response.value(QLatin1String("warnings")).toArray())
            outcome.warnings.append(w.toString());
        if (!r.response.value(QLatin1String("allowed")).toBool()) {
            outcome.rejection = denial(t.name, r.response.value(QLatin1String("status")).toObject());
            return outcome;
        }
    }
    return outcome;
}

} // namespace gq::tc
