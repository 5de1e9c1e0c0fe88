#include "testcluster/apiserver.h"

#include "testcluster/admission.h"
#include "testcluster/apierror.h"
#include "testcluster/patch.h"
#include "testcluster/protobuf.h"
#include "testcluster/selectors.h"
#include "testcluster/tables.h"

#include <httplib.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QUuid>

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace gq::tc {

namespace {

using Clock = std::chrono::steady_clock;

QString nowStamp() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
}

std::string toStd(const QByteArray &b) {
    return std::string(b.constData(), static_cast<std::size_t>(b.size()));
}

QString param(const httplib::Request &req, const char *name) {
    return req.has_param(name) ? QString::fromStdString(req.get_param_value(name)) : QString();
}

bool truthy(const QString &v) {
    return v == QLatin1String("true") || v == QLatin1String("1");
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

QByteArray continueToken(quint64 rv, const QString &startKey) {
    QJsonObject t;
    t.insert(QLatin1String("v"), QLatin1String("meta.k8s.io/v1"));
    t.insert(QLatin1String("rv"), static_cast<qint64>(rv));
    t.insert(QLatin1String("start"), QString(startKey + QChar(0)));
    return toCompactJson(t).toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

bool parseContinue(const QString &token, quint64 *rv, QString *startKey) {
    const QByteArray raw = QByteArray::fromBase64(token.toLatin1(), QByteArray::Base64UrlEncoding);
    const QJsonObject t = parseObject(raw);
    if (t.value(QLatin1String("v")).toString() != QLatin1String("meta.k8s.io/v1"))
        return false;
    *rv = static_cast<quint64>(t.value(QLatin1String("rv")).toInteger());
    *startKey = t.value(QLatin1String("start")).toString();
    return true;
}

QByteArray discoveryCoreV1() {
    auto res = [](const QString &name, const QString &singular, bool namespaced, const QString &kind,
                  const QStringList &verbs, const QStringList &shortNames,
                  const QStringList &categories = {}) {
        QJsonObject o;
        o.insert(QLatin1String("name"), name);
        o.insert(QLatin1String("singularName"), singular);
        o.insert(QLatin1String("namespaced"), namespaced);
        o.insert(QLatin1String("kind"), kind);
        o.insert(QLatin1String("verbs"), QJsonArray::fromStringList(verbs));
        if (!shortNames.isEmpty())
            o.insert(QLatin1String("shortNames"), QJsonArray::fromStringList(shortNames));
        if (!categories.isEmpty())
            o.insert(QLatin1String("categories"), QJsonArray::fromStringList(categories));
        if (!singular.isEmpty())
            o.insert(
                QLatin1String("storageVersionHash"),
                QString::fromLatin1(
                    QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha256).left(8).toBase64()));
        return o;
    };
    const QStringList all = {
        QStringLiteral("create"), QStringLiteral("delete"), QStringLiteral("deletecollection"),
        QStringLiteral("get"),    QStringLiteral("list"),   QStringLiteral("patch"),
        QStringLiteral("update"), QStringLiteral("watch")};
    const QStringList nsVerbs = {QStringLiteral("create"), QStringLiteral("delete"), QStringLiteral("get"),
                                 QStringLiteral("list"),   QStringLiteral("patch"),  QStringLiteral("update"),
                                 QStringLiteral("watch")};
    const QStringList statusVerbs = {QStringLiteral("get"), QStringLiteral("patch"),
                                     QStringLiteral("update")};
    QJsonArray resources{
        res(QStringLiteral("events"), QStringLiteral("event"), true, QStringLiteral("Event"), all,
            {QStringLiteral("ev")}),
        res(QStringLiteral("limitranges"), QStringLiteral("limitrange"), true, QStringLiteral("LimitRange"),
            all, {QStringLiteral("limits")}),
        res(QStringLiteral("namespaces"), QStringLiteral("namespace"), false, QStringLiteral("Namespace"),
            nsVerbs, {QStringLiteral("ns")}),
        res(QStringLiteral("namespaces/finalize"), {}, false, QStringLiteral("Namespace"),
            {QStringLiteral("update")}, {}),
        res(QStringLiteral("namespaces/status"), {}, false, QStringLiteral("Namespace"), statusVerbs, {}),
        res(QStringLiteral("pods"), QStringLiteral("pod"), true, QStringLiteral("Pod"), all,
            {QStringLiteral("po")}, {QStringLiteral("all")}),
        res(QStringLiteral("pods/status"), {}, true, QStringLiteral("Pod"), statusVerbs, {}),
        res(QStringLiteral("resourcequotas"), QStringLiteral("resourcequota"), true,
            QStringLiteral("ResourceQuota"), all, {QStringLiteral("quota")}),
        res(QStringLiteral("resourcequotas/status"), {}, true, QStringLiteral("ResourceQuota"), statusVerbs,
            {}),
    };
    QJsonObject list;
    list.insert(QLatin1String("kind"), QLatin1String("APIResourceList"));
    list.insert(QLatin1String("groupVersion"), QLatin1String("v1"));
    list.insert(QLatin1String("resources"), resources);
    return toCompactJson(list);
}

QJsonObject groupVersion(const QString &group, const QString &version) {
    QJsonObject v;
    v.insert(QLatin1String("groupVersion"), QString(group + QLatin1Char('/') + version));
    v.insert(QLatin1String("version"), version);
    return v;
}

QJsonObject apiGroup(const QString &name, const QStringList &versions) {
    QJsonArray vs;
    for (const QString &v : versions)
        vs.append(groupVersion(name, v));
    QJsonObject g;
    g.insert(QLatin1String("name"), name);
    g.insert(QLatin1String("versions"), vs);
    g.insert(QLatin1String("preferredVersion"), groupVersion(name, versions.first()));
    return g;
}

QByteArray discoveryGroups() {
    QJsonObject list;
    list.insert(QLatin1String("kind"), QLatin1String("APIGroupList"));
    list.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
    list.insert(QLatin1String("groups"),
                QJsonArray{apiGroup(QStringLiteral("authentication.k8s.io"),
                                    {QStringLiteral("v1"), QStringLiteral("v1beta1")}),
                           apiGroup(QStringLiteral("authorization.k8s.io"), {QStringLiteral("v1")})});
    return toCompactJson(list);
}

QByteArray discoveryGroupResources(const QString &groupVersionText, const QString &name,
                                   const QString &kind) {
    QJsonObject r;
    r.insert(QLatin1String("name"), name);
    r.insert(QLatin1String("singularName"), name.chopped(1));
    r.insert(QLatin1String("namespaced"), false);
    r.insert(QLatin1String("kind"), kind);
    r.insert(QLatin1String("verbs"), QJsonArray{QStringLiteral("create")});
    QJsonArray resources{r};
    if (name == QLatin1String("selfsubjectaccessreviews")) {
        QJsonObject rr = r;
        rr.insert(QLatin1String("name"), QLatin1String("selfsubjectrulesreviews"));
        rr.insert(QLatin1String("singularName"), QLatin1String("selfsubjectrulesreview"));
        rr.insert(QLatin1String("kind"), QLatin1String("SelfSubjectRulesReview"));
        resources.append(rr);
    }
    QJsonObject list;
    list.insert(QLatin1String("kind"), QLatin1String("APIResourceList"));
    list.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
    list.insert(QLatin1String("groupVersion"), groupVersionText);
    list.insert(QLatin1String("resources"), resources);
    return toCompactJson(list);
}

QByteArray versionInfo() {
    QJsonObject v;
    v.insert(QLatin1String("major"), QLatin1String("1"));
    v.insert(QLatin1String("minor"), QLatin1String("32"));
    v.insert(QLatin1String("gitVersion"), QLatin1String("v1.32.4-gpuquota-testcluster"));
    v.insert(QLatin1String("gitCommit"), QLatin1String("0000000000000000000000000000000000000000"));
    v.insert(QLatin1String("gitTreeState"), QLatin1String("clean"));
    v.insert(QLatin1String("buildDate"), QLatin1String("2025-04-22T00:00:00Z"));
    v.insert(QLatin1String("goVersion"), QLatin1String("go1.23.8"));
    v.insert(QLatin1String("compiler"), QLatin1String("gc"));
    v.insert(QLatin1String("platform"), QLatin1String("linux/amd64"));
    return toCompactJson(v);
}

QString shortHash(const QByteArray &data) {
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha512).toHex().left(128));
}

// "Table" if the client prefers a meta.k8s.io Table (kubectl get), with its version.
QString tableVersionFromAccept(const std::string &accept) {
    const QString a = QString::fromStdString(accept);
    for (const QString &part : a.split(QLatin1Char(','))) {
        if (!part.contains(QLatin1String("as=Table")) || !part.contains(QLatin1String("g=meta.k8s.io")))
            continue;
        if (part.contains(QLatin1String("v=v1beta1")))
            return QStringLiteral("v1beta1");
        if (part.contains(QLatin1String("v=v1")))
            return QStringLiteral("v1");
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

// What a pod update may change (ValidatePodUpdate): container images, and
// activeDeadlineSeconds only downwards, never removed. Lowering a deadline on a
// running pod is how it becomes Terminating for quota scopes.
std::optional<FieldError> checkPodSpecUpdate(const QJsonObject &oldPod, const QJsonObject &newPod) {
    const QJsonObject oldSpec = oldPod.value(QLatin1String("spec")).toObject();
    QJsonObject newSpec = newPod.value(QLatin1String("spec")).toObject();
    if (newSpec == oldSpec)
        return std::nullopt;
    const QString deadlineField = QStringLiteral("spec.activeDeadlineSeconds");
    const QJsonValue oldDeadline = oldSpec.value(QLatin1String("activeDeadlineSeconds"));
    const QJsonValue newDeadline = newSpec.value(QLatin1String("activeDeadlineSeconds"));
    if (!newDeadline.isUndefined() && !newDeadline.isNull()) {
        const double v = newDeadline.toDouble(-1);
        const QString text = QString::number(static_cast<qint64>(v));
        if (!newDeadline.isDouble() || v < 0 || v > 2147483647.0)
            return FieldError{FieldError::Type::Invalid, deadlineField, text,
                              QStringLiteral("must be between 0 and 2147483647, inclusive")};
        if (oldDeadline.isDouble() && oldDeadline.toDouble() < v)
            return FieldError{FieldError::Type::Invalid, deadlineField, text,
                              QStringLiteral("must be less than or equal to previous value")};
    } else if (oldDeadline.isDouble()) {
        return FieldError{FieldError::Type::Invalid, deadlineField, QStringLiteral("null"),
                          QStringLiteral("must not update from a positive integer to nil value")};
    }
    // Set aside what may change, then nothing else may differ.
    if (oldDeadline.isUndefined())
        newSpec.remove(QLatin1String("activeDeadlineSeconds"));
    else
        newSpec.insert(QLatin1String("activeDeadlineSeconds"), oldDeadline);
    for (const char *list : {"containers", "initContainers"}) {
        const QJsonArray oldContainers = oldSpec.value(QLatin1String(list)).toArray();
        QJsonArray containers = newSpec.value(QLatin1String(list)).toArray();
        if (containers.size() != oldContainers.size())
            continue;
        for (qsizetype i = 0; i < containers.size(); ++i) {
            QJsonObject c = containers.at(i).toObject();
            c.insert(QLatin1String("image"), oldContainers.at(i).toObject().value(QLatin1String("image")));
            containers[i] = c;
        }
        if (newSpec.contains(QLatin1String(list)))
            newSpec.insert(QLatin1String(list), containers);
    }
    if (newSpec == oldSpec)
        return std::nullopt;
    return FieldError{
        FieldError::Type::Forbidden,
        QStringLiteral("spec"),
        {},
        QStringLiteral("pod updates may not change fields other than `spec.containers[*].image`,"
                       "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
                       "`spec.tolerations` (only additions to existing tolerations),"
                       "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was "
                       "previously negative)")};
}

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
    QJsonArray statuses;
    for (const QJsonValue &cv : containers) {
        const QJsonObject c = cv.toObject();
        QJsonObject s;
        s.insert(QLatin1String("name"), c.value(QLatin1String("name")));
        s.insert(QLatin1String("image"), c.value(QLatin1String("image")));
        s.insert(QLatin1String("imageID"), QString());
        s.insert(QLatin1String("ready"), running);
        s.insert(QLatin1String("started"), running);
        s.insert(QLatin1String("restartCount"), 0);
        s.insert(QLatin1String("containerID"),
                 QString(QStringLiteral("containerd://") +
                         QString::fromLatin1(QCryptographicHash::hash(
                                                 (name + c.value(QLatin1String("name")).toString()).toUtf8(),
                                                 QCryptographicHash::Sha256)
                                                 .toHex())));
        QJsonObject state;
        if (running) {
            QJsonObject r;
            r.insert(QLatin1String("startedAt"), start);
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
            t.insert(QLatin1String("startedAt"), start);
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

// The request body as JSON: kubectl >= 1.32 sends protobuf for typed clients.
bool requestObject(const httplib::Request &req, QJsonObject *out, ApiError *error) {
    const std::string contentType = req.get_header_value("Content-Type");
    const QByteArray body = QByteArray::fromStdString(req.body);
    if (contentType.rfind("application/vnd.kubernetes.protobuf", 0) == 0) {
        QString why;
        auto decoded = decodeKubernetesProtobuf(body, &why);
        if (!decoded) {
            *error = ApiError{415, QStringLiteral("UnsupportedMediaType"), why, {}, {}, {}, 0};
            return false;
        }
        *out = *decoded;
        return true;
    }
    QJsonParseError perr{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = ApiError::badRequest(QStringLiteral("couldn't get version/kind; json parse error: ") +
                                      perr.errorString());
        return false;
    }
    *out = doc.object();
    return true;
}

void sendJson(httplib::Response &res, int code, const QByteArray &body,
              const char *contentType = "application/json") {
    res.status = code;
    res.set_content(toStd(body), contentType);
}

void sendError(httplib::Response &res, const ApiError &e) {
    if (e.retryAfterSeconds > 0)
        res.set_header("Retry-After", std::to_string(e.retryAfterSeconds));
    sendJson(res, e.code, e.toJson());
}

} // namespace

// ---------------------------------------------------------------------------------

QJsonObject Faults::toJson() const {
    QJsonObject o;
    o.insert(QLatin1String("latencyMs"), latencyMs);
    o.insert(QLatin1String("errorRate"), errorRate);
    o.insert(QLatin1String("errorCount"), errorCount);
    o.insert(QLatin1String("throttleRate"), throttleRate);
    o.insert(QLatin1String("throttleCount"), throttleCount);
    o.insert(QLatin1String("retryAfterSeconds"), retryAfterSeconds);
    o.insert(QLatin1String("dropRate"), dropRate);
    o.insert(QLatin1String("dropCount"), dropCount);
    o.insert(QLatin1String("stallWatches"), stallWatches);
    o.insert(QLatin1String("pathPrefix"), pathPrefix);
    return o;
}

Faults Faults::fromJson(const QJsonObject &o) {
    Faults f;
    f.latencyMs = o.value(QLatin1String("latencyMs")).toInt();
    f.errorRate = o.value(QLatin1String("errorRate")).toDouble();
    f.errorCount = o.value(QLatin1String("errorCount")).toInt();
    f.throttleRate = o.value(QLatin1String("throttleRate")).toDouble();
    f.throttleCount = o.value(QLatin1String("throttleCount")).toInt();
    f.retryAfterSeconds = o.value(QLatin1String("retryAfterSeconds")).toInt(1);
    f.dropRate = o.value(QLatin1String("dropRate")).toDouble();
    f.dropCount = o.value(QLatin1String("dropCount")).toInt();
    f.stallWatches = o.value(QLatin1String("stallWatches")).toBool();
    f.pathPrefix = o.value(QLatin1String("pathPrefix")).toString();
    return f;
}

// ---------------------------------------------------------------------------------

struct ApiServer::User {
    QString name;
    QStringList groups;
    bool admin = false;
    bool authenticated = false;
};

// One API request after routing: who asks, which resource, which verb.
struct ApiServer::Call {
    const httplib::Request &req;
    httplib::Response &res;
    User user;
    Resource resource = Resource::Namespace;
    QString ns;
    QString name;
    QString subresource;
    QString verb;
    bool dryRun = false;
    QString tableVersion;
};

ApiServer::ApiServer(Store &store, ServerConfig config)
    : m_store(store)
    , m_config(std::move(config)) {
    m_schema.addDocument(m_config.openapiCoreV1);
    m_schema.addDocument(m_config.openapiAuthorizationV1);
}

bool ApiServer::decodeStrictly(Call &call, QJsonObject &object) {
    const QString kind = resourceInfo(call.resource).kind;
    const QStringList unknown = m_schema.pruneUnknown(QStringLiteral("io.k8s.api.core.v1.") + kind, object);
    if (unknown.isEmpty())
        return true;
    const QString mode = param(call.req, "fieldValidation");
    if (mode == QLatin1String("Strict")) {
        QStringList parts;
        for (const QString &u : unknown)
            parts.append(QStringLiteral("unknown field \"%1\"").arg(u));
        sendError(call.res,
                  ApiError::badRequest(kind + QStringLiteral(" in version \"v1\" cannot be handled as a ") +
                                       kind + QStringLiteral(": strict decoding error: ") +
                                       parts.join(QStringLiteral(", "))));
        return false;
    }
    if (mode != QLatin1String("Ignore")) {
        for (const QString &u : unknown)
            call.res.set_header("Warning",
                                toStd(QStringLiteral("299 - \"unknown field \\\"%1\\\"\"").arg(u).toUtf8()));
    }
    return true;
}

ApiServer::~ApiServer() = default;

void ApiServer::setFaults(const Faults &faults) {
    std::lock_guard lock(m_faultMutex);
    m_faults = faults;
}

int ApiServer::bind(const QString &host, int port, const TlsMaterial &tls, QString *error) {
    X509 *cert = tls.serverCert.get();
    EVP_PKEY *key = tls.serverKey.get();
    X509 *ca = tls.caCert.get();
    m_server = std::make_unique<httplib::SSLServer>([cert, key, ca](SSL_CTX &ctx) {
        if (SSL_CTX_use_certificate(&ctx, cert) != 1 || SSL_CTX_use_PrivateKey(&ctx, key) != 1 ||
            SSL_CTX_check_private_key(&ctx) != 1)
            return false;
        SSL_CTX_set_min_proto_version(&ctx, TLS1_2_VERSION);
        X509_STORE_add_cert(SSL_CTX_get_cert_store(&ctx), ca);
        SSL_CTX_add_client_CA(&ctx, ca);
        // Ask for a client certificate but let token users in without one; the
        // verification result is checked per request.
        SSL_CTX_set_verify(&ctx, SSL_VERIFY_PEER, [](int, X509_STORE_CTX *) { return 1; });
        return true;
    });
    if (!m_server->is_valid()) {
        *error = QStringLiteral("could not set up the TLS context");
        return -1;
    }
    const int threads = m_config.threads;
    m_server->new_task_queue = [threads] {
        return new httplib::ThreadPool(static_cast<std::size_t>(threads));
    };
    // cpp-httplib leaves Nagle on; with delayed ACKs every small keep-alive response
    // then waits ~40 ms. Accepted sockets inherit TCP_NODELAY from the listener.
    m_server->set_socket_options([](socket_t sock) {
        httplib::default_socket_options(sock);
        int one = 1;
        ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    });
    m_server->set_keep_alive_max_count(1000);
    // Idle keep-alive connections delay stop() by up to this long.
    m_server->set_keep_alive_timeout(3);
    m_server->set_read_timeout(10);
    m_server->set_write_timeout(30);
    auto handler = [this](const httplib::Request &req, httplib::Response &res) { dispatch(req, res); };
    m_server->Get(".*", handler);
    m_server->Post(".*", handler);
    m_server->Put(".*", handler);
    m_server->Patch(".*", handler);
    m_server->Delete(".*", handler);
    int bound = -1;
    if (port == 0) {
        bound = m_server->bind_to_any_port(host.toStdString());
    } else if (m_server->bind_to_port(host.toStdString(), port)) {
        bound = port;
    }
    if (bound <= 0) {
        *error = QStringLiteral("could not listen on %1:%2").arg(host).arg(port);
        return -1;
    }
    m_serverAddress = host + QLatin1Char(':') + QString::number(bound);
    return bound;
}

bool ApiServer::run() {
    return m_server->listen_after_bind();
}

bool ApiServer::isListening() const {
    return m_server && m_server->is_running();
}

void ApiServer::stop() {
    m_stopping = true;
    {
        std::lock_guard lock(m_store.mutex);
        m_store.changed.notify_all();
    }
    if (m_server)
        m_server->stop();
}

bool ApiServer::applyFaults(const httplib::Request &req, httplib::Response &res) {
    Faults f;
    bool error = false, throttle = false, drop = false;
    {
        std::lock_guard lock(m_faultMutex);
        f = m_faults;
        const QString path = QString::fromStdString(req.path);
        const bool applies =
            f.pathPrefix.isEmpty() ? (path.startsWith(QLatin1String("/api"))) : path.startsWith(f.pathPrefix);
        if (!applies)
            return false;
        std::uniform_real_distribution<double> dist(0.0, 1.0);
        if (m_faults.throttleCount > 0) {
            --m_faults.throttleCount;
            throttle = true;
        } else if (f.throttleRate > 0 && dist(m_rng) < f.throttleRate) {
            throttle = true;
        } else if (m_faults.errorCount > 0) {
            --m_faults.errorCount;
            error = true;
        } else if (f.errorRate > 0 && dist(m_rng) < f.errorRate) {
            error = true;
        } else if (m_faults.dropCount > 0) {
            --m_faults.dropCount;
            drop = true;
        } else if (f.dropRate > 0 && dist(m_rng) < f.dropRate) {
            drop = true;
        }
    }
    if (f.latencyMs > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(f.latencyMs));
    if (throttle) {
        sendError(res, ApiError::tooManyRequests(f.retryAfterSeconds));
        return true;
    }
    if (error) {
        sendError(res, ApiError::internal(QStringLiteral("injected fault (gpuquota-testcluster)")));
        return true;
    }
    if (drop) {
        // Promise a body, send half of it, then fail the write: the client sees
        // the connection close mid-response.
        auto body = std::make_shared<std::string>(
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","message":"this response is cut off on purpose by the fault injector of gpuquota-testcluster"})");
        res.status = 200;
        res.set_content_provider(body->size(), "application/json",
                                 [body](std::size_t offset, std::size_t, httplib::DataSink &sink) {
                                     if (offset == 0) {
                                         sink.write(body->data(), body->size() / 2);
                                         return true;
                                     }
                                     return false;
                                 });
        return true;
    }
    return false;
}

void ApiServer::dispatch(const httplib::Request &req, httplib::Response &res) {
    const auto started = Clock::now();
    {
        // cpp-httplib answers "br" with Brotli at its slowest setting (20 s for a 6 MB
        // list); offer it only gzip, as the API server itself does.
        auto &headers = const_cast<httplib::Headers &>(req.headers);
        auto it = headers.find("Accept-Encoding");
        if (it != headers.end())
            it->second = it->second.find("gzip") != std::string::npos ? "gzip" : "identity";
    }
    const QString path = QString::fromStdString(req.path);
    if (!path.startsWith(QLatin1String("/_gq")) && applyFaults(req, res)) {
        if (m_config.verbose)
            std::fprintf(stderr, "%s %s -> %d (fault)\n", req.method.c_str(), req.path.c_str(), res.status);
        return;
    }

    // Authentication.
    User user;
    const std::string auth = req.get_header_value("Authorization");
    if (auth.rfind("Bearer ", 0) == 0) {
        const QString token = QString::fromStdString(auth.substr(7)).trimmed();
        if (!token.isEmpty() && token == m_config.adminToken) {
            user = {QStringLiteral("gq-admin"),
                    {QStringLiteral("system:masters"), QStringLiteral("system:authenticated")},
                    true,
                    true};
        } else if (!token.isEmpty() && token == m_config.readonlyToken) {
            user = {QStringLiteral("gq-viewer"),
                    {QStringLiteral("gq:viewers"), QStringLiteral("system:authenticated")},
                    false,
                    true};
        } else {
            sendError(res, ApiError::unauthorized());
            return;
        }
    } else if (req.ssl) {
        X509 *peer = SSL_get1_peer_certificate(req.ssl);
        if (peer) {
            const bool verified = SSL_get_verify_result(req.ssl) == X509_V_OK;
            const PeerIdentity id = peerIdentity(peer);
            X509_free(peer);
            if (!verified) {
                sendError(res, ApiError::unauthorized());
                return;
            }
            user.name = id.commonName;
            user.groups = id.organizations;
            user.groups.append(QStringLiteral("system:authenticated"));
            user.admin = id.organizations.contains(QLatin1String("system:masters"));
            user.authenticated = true;
        }
    }

    const bool open = path == QLatin1String("/version") || path == QLatin1String("/healthz") ||
                      path == QLatin1String("/livez") || path == QLatin1String("/readyz");
    if (!user.authenticated && !open) {
        sendError(res, ApiError::unauthorized());
        return;
    }

    if (path.startsWith(QLatin1String("/_gq/"))) {
        if (!user.admin) {
            sendError(res, ApiError::forbidden(QStringLiteral("_gq"), {},
                                               QStringLiteral("test hooks need the admin user")));
            return;
        }
        const HookReply r =
            hook(QByteArray::fromStdString(req.method), path, QByteArray::fromStdString(req.body));
        sendJson(res, r.status, r.body);
        return;
    }

    Call call{req, res, user, Resource::Namespace, {}, {}, {}, {}, false, {}};
    handleApi(call);
    if (m_config.verbose) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
        std::fprintf(stderr, "%s %s %s -> %d (%lld ms)\n", qPrintable(user.name), req.method.c_str(),
                     req.target.c_str(), res.status, static_cast<long long>(ms));
    }
}

void ApiServer::handleApi(Call &call) {
    const httplib::Request &req = call.req;
    httplib::Response &res = call.res;
    const QString path = QString::fromStdString(req.path);
    QStringList segs = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);

    if (path == QLatin1String("/healthz") || path == QLatin1String("/livez") ||
        path == QLatin1String("/readyz")) {
        res.status = 200;
        res.set_content("ok", "text/plain");
        return;
    }
    if (path == QLatin1String("/version"))
        return sendJson(res, 200, versionInfo());
    if (path == QLatin1String("/api")) {
        QJsonObject v;
        v.insert(QLatin1String("kind"), QLatin1String("APIVersions"));
        v.insert(QLatin1String("versions"), QJsonArray{QStringLiteral("v1")});
        QJsonObject cidr;
        cidr.insert(QLatin1String("clientCIDR"), QLatin1String("0.0.0.0/0"));
        cidr.insert(QLatin1String("serverAddress"), m_serverAddress);
        v.insert(QLatin1String("serverAddressByClientCIDRs"), QJsonArray{cidr});
        return sendJson(res, 200, toCompactJson(v));
    }
    if (path == QLatin1String("/api/v1") && req.method == "GET") {
        static const QByteArray doc = discoveryCoreV1();
        return sendJson(res, 200, doc);
    }
    if (path == QLatin1String("/apis")) {
        static const QByteArray doc = discoveryGroups();
        return sendJson(res, 200, doc);
    }
    if (path == QLatin1String("/apis/authorization.k8s.io"))
        return sendJson(res, 200, toCompactJson([] {
                            QJsonObject g =
                                apiGroup(QStringLiteral("authorization.k8s.io"), {QStringLiteral("v1")});
                            g.insert(QLatin1String("kind"), QLatin1String("APIGroup"));
                            g.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
                            return g;
                        }()));
    if (path == QLatin1String("/apis/authentication.k8s.io"))
        return sendJson(res, 200, toCompactJson([] {
                            QJsonObject g = apiGroup(QStringLiteral("authentication.k8s.io"),
                                                     {QStringLiteral("v1"), QStringLiteral("v1beta1")});
                            g.insert(QLatin1String("kind"), QLatin1String("APIGroup"));
                            g.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
                            return g;
                        }()));
    if (path == QLatin1String("/apis/authorization.k8s.io/v1") && req.method == "GET")
        return sendJson(res, 200,
                        discoveryGroupResources(QStringLiteral("authorization.k8s.io/v1"),
                                                QStringLiteral("selfsubjectaccessreviews"),
                                                QStringLiteral("SelfSubjectAccessReview")));
    if ((path == QLatin1String("/apis/authentication.k8s.io/v1") ||
         path == QLatin1String("/apis/authentication.k8s.io/v1beta1")) &&
        req.method == "GET")
        return sendJson(res, 200,
                        discoveryGroupResources(path.mid(6), QStringLiteral("selfsubjectreviews"),
                                                QStringLiteral("SelfSubjectReview")));
    if (path == QLatin1String("/openapi/v3")) {
        QJsonObject paths;
        QJsonObject core;
        core.insert(QLatin1String("serverRelativeURL"),
                    QString(QStringLiteral("/openapi/v3/api/v1?hash=") + shortHash(m_config.openapiCoreV1)));
        paths.insert(QLatin1String("api/v1"), core);
        QJsonObject authz;
        authz.insert(QLatin1String("serverRelativeURL"),
                     QString(QStringLiteral("/openapi/v3/apis/authorization.k8s.io/v1?hash=") +
                             shortHash(m_config.openapiAuthorizationV1)));
        paths.insert(QLatin1String("apis/authorization.k8s.io/v1"), authz);
        QJsonObject doc;
        doc.insert(QLatin1String("paths"), paths);
        return sendJson(res, 200, toCompactJson(doc));
    }
    if (path == QLatin1String("/openapi/v2") || path == QLatin1String("/swagger-2.0.0.pb-v1")) {
        std::call_once(m_openapiV2Once, [this] {
            m_openapiV2 = encodeOpenApiV2(QJsonDocument::fromJson(m_config.openapiCoreV1).object(),
                                          QJsonDocument::fromJson(m_config.openapiAuthorizationV1).object());
        });
        res.set_header("Cache-Control", "public, immutable");
        return sendJson(res, 200, m_openapiV2, "application/octet-stream");
    }
    if (path == QLatin1String("/openapi/v3/api/v1")) {
        res.set_header("Cache-Control", "public, immutable");
        return sendJson(res, 200, m_config.openapiCoreV1);
    }
    if (path == QLatin1String("/openapi/v3/apis/authorization.k8s.io/v1")) {
        res.set_header("Cache-Control", "public, immutable");
        return sendJson(res, 200, m_config.openapiAuthorizationV1);
    }

    // Review endpoints.
    if (segs.size() == 4 && segs[0] == QLatin1String("apis") &&
        ((segs[1] == QLatin1String("authorization.k8s.io") && segs[2] == QLatin1String("v1") &&
          (segs[3] == QLatin1String("selfsubjectaccessreviews") ||
           segs[3] == QLatin1String("selfsubjectrulesreviews"))) ||
         (segs[1] == QLatin1String("authentication.k8s.io") &&
          (segs[2] == QLatin1String("v1") || segs[2] == QLatin1String("v1beta1")) &&
          segs[3] == QLatin1String("selfsubjectreviews")))) {
        if (req.method != "POST")
            return sendError(res, ApiError::methodNotAllowed());
        return handleReview(call);
    }

    if (segs.size() < 3 || segs[0] != QLatin1String("api") || segs[1] != QLatin1String("v1")) {
        return sendError(res, {404,
                               QStringLiteral("NotFound"),
                               QStringLiteral("the server could not find the requested resource"),
                               {},
                               {},
                               {},
                               0});
    }
    QStringList rest = segs.mid(2);
    bool legacyWatch = false;
    if (rest.first() == QLatin1String("watch")) {
        legacyWatch = true;
        rest.removeFirst();
    }
    auto notFound = [&] {
        sendError(res, {404,
                        QStringLiteral("NotFound"),
                        QStringLiteral("the server could not find the requested resource"),
                        {},
                        {},
                        {},
                        0});
    };
    if (rest.isEmpty())
        return notFound();
    bool collection = false;
    if (rest[0] == QLatin1String("namespaces")) {
        if (rest.size() == 1) {
            call.resource = Resource::Namespace;
            collection = true;
        } else if (rest.size() == 2) {
            call.resource = Resource::Namespace;
            call.name = rest[1];
        } else if (rest.size() == 3 &&
                   (rest[2] == QLatin1String("status") || rest[2] == QLatin1String("finalize"))) {
            call.resource = Resource::Namespace;
            call.name = rest[1];
            call.subresource = rest[2];
        } else {
            const auto r = resourceFromPlural(rest[2]);
            if (!r || *r == Resource::Namespace)
                return notFound();
            call.resource = *r;
            call.ns = rest[1];
            if (rest.size() == 3)
                collection = true;
            else if (rest.size() == 4)
                call.name = rest[3];
            else if (rest.size() == 5 && rest[4] == QLatin1String("status") && resourceInfo(*r).hasStatus) {
                call.name = rest[3];
                call.subresource = rest[4];
            } else
                return notFound();
        }
    } else {
        const auto r = resourceFromPlural(rest[0]);
        if (!r || rest.size() != 1)
            return notFound();
        call.resource = *r;
        collection = true;
        if (req.method != "GET")
            return sendError(res, ApiError::methodNotAllowed());
    }

    const bool watch = legacyWatch || truthy(param(req, "watch"));
    if (req.method == "GET")
        call.verb =
            collection ? (watch ? QStringLiteral("watch") : QStringLiteral("list")) : QStringLiteral("get");
    else if (req.method == "POST" && collection)
        call.verb = QStringLiteral("create");
    else if (req.method == "PUT" && !collection)
        call.verb = QStringLiteral("update");
    else if (req.method == "PATCH" && !collection)
        call.verb = QStringLiteral("patch");
    else if (req.method == "DELETE")
        call.verb = collection ? QStringLiteral("deletecollection") : QStringLiteral("delete");
    else
        return sendError(res, ApiError::methodNotAllowed());
    if (call.resource == Resource::Namespace && call.verb == QLatin1String("deletecollection"))
        return sendError(res, ApiError::methodNotAllowed());

    // Authorization: the read-only user may read everything and change nothing.
    const bool readVerb = call.verb == QLatin1String("get") || call.verb == QLatin1String("list") ||
                          call.verb == QLatin1String("watch");
    if (!call.user.admin && !readVerb) {
        const QString plural = resourceInfo(call.resource).plural;
        const QString res2 =
            call.subresource.isEmpty() ? plural : plural + QLatin1Char('/') + call.subresource;
        QString why = QStringLiteral("User \"%1\" cannot %2 resource \"%3\" in API group \"\"")
                          .arg(call.user.name, call.verb, res2);
        why += call.ns.isEmpty() ? QStringLiteral(" at the cluster scope")
                                 : QStringLiteral(" in the namespace \"%1\"").arg(call.ns);
        return sendError(res, ApiError::forbidden(plural, call.name, why));
    }

    if (req.has_param("dryRun")) {
        const QString dry = param(req, "dryRun");
        if (dry != QLatin1String("All")) {
            const QString optionsKind =
                call.verb == QLatin1String("create")   ? QStringLiteral("CreateOptions")
                : call.verb == QLatin1String("update") ? QStringLiteral("UpdateOptions")
                : call.verb == QLatin1String("patch")  ? QStringLiteral("PatchOptions")
                                                       : QStringLiteral("DeleteOptions");
            FieldError fe{FieldError::Type::NotSupported, QStringLiteral("dryRun"),
                          QStringLiteral("[\"") + dry + QStringLiteral("\"]"),
                          QStringLiteral("supported values: \"All\"")};
            ApiError e = ApiError::invalid(optionsKind + QStringLiteral(".meta.k8s.io"), QString(),
                                           QJsonArray{fe.toCause()});
            e.kind = optionsKind;
            return sendError(res, e);
        }
        call.dryRun = true;
    }
    call.tableVersion = tableVersionFromAccept(req.get_header_value("Accept"));

    if (call.verb == QLatin1String("get"))
        return handleGet(call);
    if (call.verb == QLatin1String("list"))
        return handleList(call);
    if (call.verb == QLatin1String("watch"))
        return handleWatch(call);
    if (call.verb == QLatin1String("create"))
        return handleCreate(call);
    if (call.verb == QLatin1String("update")) {
        QJsonObject body;
        ApiError bodyError;
        if (!requestObject(req, &body, &bodyError))
            return sendError(res, bodyError);
        return handleUpdate(call, body, false);
    }
    if (call.verb == QLatin1String("patch"))
        return handlePatch(call);
    if (call.verb == QLatin1String("delete"))
        return handleDelete(call);
    return handleDeleteCollection(call);
}

void ApiServer::handleGet(Call &call) {
    std::unique_lock lock(m_store.mutex);
    const Entry *e = m_store.find(call.resource, call.ns, call.name);
    if (!e)
        return sendError(call.res, ApiError::notFound(resourceInfo(call.resource).plural, call.name));
    if (!call.tableVersion.isEmpty()) {
        QJsonObject table;
        table.insert(QLatin1String("kind"), QLatin1String("Table"));
        table.insert(QLatin1String("apiVersion"),
                     QString(QStringLiteral("meta.k8s.io/") + call.tableVersion));
        QJsonObject meta;
        meta.insert(QLatin1String("resourceVersion"), QString::number(e->rv));
        table.insert(QLatin1String("metadata"), meta);
        table.insert(QLatin1String("columnDefinitions"), tableColumns(call.resource));
        const QString includeObject = param(call.req, "includeObject");
        table.insert(QLatin1String("rows"),
                     QJsonArray{tableRow(call.resource, parseObject(e->json),
                                         includeObject == QLatin1String("None")     ? IncludeObject::None
                                         : includeObject == QLatin1String("Object") ? IncludeObject::Object
                                                                                    : IncludeObject::Metadata,
                                         QDateTime::currentDateTimeUtc())});
        lock.unlock();
        return sendJson(call.res, 200, toCompactJson(table),
                        call.tableVersion == QLatin1String("v1")
                            ? "application/json;as=Table;v=v1;g=meta.k8s.io"
                            : "application/json;as=Table;v=v1beta1;g=meta.k8s.io");
    }
    const QByteArray body = withKind(call.resource, e->json);
    lock.unlock();
    sendJson(call.res, 200, body);
}

void ApiServer::handleList(Call &call) {
    const httplib::Request &req = call.req;
    QString err;
    LabelSelector labels;
    FieldSelector fields;
    if (!labels.parse(param(req, "labelSelector"), &err) ||
        !fields.parse(call.resource, param(req, "fieldSelector"), &err))
        return sendError(call.res, ApiError::badRequest(err));
    const qint64 limit = param(req, "limit").toLongLong();
    QString startKey;
    quint64 listRv = 0;
    const QString cont = param(req, "continue");
    if (!cont.isEmpty() && !parseContinue(cont, &listRv, &startKey))
        return sendError(call.res, ApiError::badRequest(
                                       QStringLiteral("continue key is not valid: invalid continue token")));
    const bool table = !call.tableVersion.isEmpty();
    const QString includeObject = param(req, "includeObject");
    const IncludeObject include = includeObject == QLatin1String("None")     ? IncludeObject::None
                                  : includeObject == QLatin1String("Object") ? IncludeObject::Object
                                                                             : IncludeObject::Metadata;
    const QDateTime now = QDateTime::currentDateTimeUtc();

    QByteArray items;
    QJsonArray rows;
    QString nextKey;
    qint64 remaining = -1;
    {
        std::lock_guard lock(m_store.mutex);
        if (listRv == 0) {
            listRv = m_store.currentRv();
        } else if (listRv < m_store.compactedRv()) {
            // The snapshot a continue token refers to is gone, as after an etcd compaction.
            return sendError(call.res, ApiError::gone(QStringLiteral(
                                           "The provided continue parameter is too old to display a "
                                           "consistent list result. You can start a new list without "
                                           "the continue parameter, or use the continue token in this "
                                           "response to retrieve the remainder of the results.")));
        }
        auto [first, last] = m_store.range(call.resource, call.ns);
        auto it = first;
        if (!startKey.isEmpty()) {
            it = m_store.map(call.resource).lower_bound(startKey);
            if (it == m_store.map(call.resource).end() ||
                (last != m_store.map(call.resource).end() && it->first >= last->first))
                it = last;
        }
        qint64 count = 0;
        QString lastKey;
        const bool filtered = !labels.isEmpty() || !fields.isEmpty();
        items.reserve(4096);
        for (; it != last; ++it) {
            const Entry &e = it->second;
            if (filtered && (!labels.matches(e.labels) || !fields.matches(e)))
                continue;
            if (limit > 0 && count == limit) {
                nextKey = lastKey; // the token resumes after the last key returned
                if (!filtered)
                    remaining = std::distance(it, last);
                break;
            }
            ++count;
            lastKey = it->first;
            if (table) {
                rows.append(tableRow(call.resource, parseObject(e.json), include, now));
            } else {
                if (count > 1)
                    items += ',';
                items += e.json;
            }
        }
    }
    QByteArray meta = "{\"resourceVersion\":\"" + QByteArray::number(listRv) + '"';
    if (!nextKey.isEmpty()) {
        meta += ",\"continue\":\"" + continueToken(listRv, nextKey) + '"';
        if (remaining >= 0)
            meta += ",\"remainingItemCount\":" + QByteArray::number(remaining);
    }
    meta += '}';
    if (table) {
        QJsonObject t;
        t.insert(QLatin1String("kind"), QLatin1String("Table"));
        t.insert(QLatin1String("apiVersion"), QString(QStringLiteral("meta.k8s.io/") + call.tableVersion));
        t.insert(QLatin1String("metadata"), QJsonDocument::fromJson(meta).object());
        t.insert(QLatin1String("columnDefinitions"), tableColumns(call.resource));
        t.insert(QLatin1String("rows"), rows);
        return sendJson(call.res, 200, toCompactJson(t),
                        call.tableVersion == QLatin1String("v1")
                            ? "application/json;as=Table;v=v1;g=meta.k8s.io"
                            : "application/json;as=Table;v=v1beta1;g=meta.k8s.io");
    }
    QByteArray body;
    body.reserve(items.size() + 200);
    body += "{\"kind\":\"" + resourceInfo(call.resource).kind.toLatin1() +
            "List\",\"apiVersion\":\"v1\",\"metadata\":";
    body += meta;
    body += ",\"items\":[";
    body += items;
    body += "]}";
    sendJson(call.res, 200, body);
}

void ApiServer::handleWatch(Call &call) {
    const httplib::Request &req = call.req;
    QString err;
    auto labels = std::make_shared<LabelSelector>();
    auto fields = std::make_shared<FieldSelector>();
    if (!labels->parse(param(req, "labelSelector"), &err) ||
        !fields->parse(call.resource, param(req, "fieldSelector"), &err))
        return sendError(call.res, ApiError::badRequest(err));
    const QString rvText = param(req, "resourceVersion");
    const bool bookmarks = truthy(param(req, "allowWatchBookmarks"));
    const bool sendInitial = truthy(param(req, "sendInitialEvents"));
    const QString rvMatch = param(req, "resourceVersionMatch");
    if (req.has_param("sendInitialEvents") && rvMatch != QLatin1String("NotOlderThan"))
        return sendError(
            call.res,
            ApiError::invalid(
                QStringLiteral("ListOptions.meta.k8s.io"), QString(),
                QJsonArray{FieldError{
                    FieldError::Type::Forbidden,
                    QStringLiteral("resourceVersionMatch"),
                    {},
                    QStringLiteral("sendInitialEvents requires setting resourceVersionMatch to NotOlderThan")}
                               .toCause()}));
    const qint64 timeoutSeconds = param(req, "timeoutSeconds").toLongLong();
    const auto deadline = Clock::now() + std::chrono::seconds(timeoutSeconds > 0 ? timeoutSeconds : 1800);
    const Resource resource = call.resource;
    const QString ns = call.ns;
    const QString tableVersion = call.tableVersion;
    bool stall = false;
    {
        std::lock_guard lock(m_faultMutex);
        stall = m_faults.stallWatches;
    }

    struct State {
        quint64 cursor = 0;
        bool initial = false;
        bool started = false;
        bool sentColumns = false;
        Clock::time_point lastWrite = Clock::now();
    };
    auto state = std::make_shared<State>();
    {
        std::lock_guard lock(m_store.mutex);
        if (rvText.isEmpty() || rvText == QLatin1String("0") || sendInitial) {
            state->initial = rvText.isEmpty() || rvText == QLatin1String("0") || sendInitial;
            state->cursor = m_store.currentRv();
        } else {
            bool ok = false;
            const quint64 rv = rvText.toULongLong(&ok);
            if (!ok)
                return sendError(call.res,
                                 ApiError::badRequest(QStringLiteral("invalid resource version: ") + rvText));
            if (rv < m_store.compactedRv()) {
                // Like the watch cache: HTTP 200 with a single ERROR event.
                ApiError gone = ApiError::gone(QStringLiteral("too old resource version: %1 (%2)")
                                                   .arg(rv)
                                                   .arg(m_store.compactedRv() + 1));
                QByteArray body = "{\"type\":\"ERROR\",\"object\":" + gone.toJson() + "}\n";
                return sendJson(call.res, 200, body);
            }
            state->cursor = rv;
        }
    }

    const SSL *ssl = req.ssl;
    const int bookmarkMs = m_config.bookmarkIntervalMs;
    auto eventLine = [resource, tableVersion, state](const QByteArray &type, const QByteArray &json) {
        QByteArray line = "{\"type\":\"" + type + "\",\"object\":";
        if (tableVersion.isEmpty()) {
            line += withKind(resource, json);
        } else {
            QJsonObject t;
            t.insert(QLatin1String("kind"), QLatin1String("Table"));
            t.insert(QLatin1String("apiVersion"), QString(QStringLiteral("meta.k8s.io/") + tableVersion));
            const QJsonObject obj = parseObject(json);
            QJsonObject meta;
            meta.insert(QLatin1String("resourceVersion"),
                        metaOf(obj).value(QLatin1String("resourceVersion")));
            t.insert(QLatin1String("metadata"), meta);
            if (!state->sentColumns) {
                t.insert(QLatin1String("columnDefinitions"), tableColumns(resource));
                state->sentColumns = true;
            } else {
                t.insert(QLatin1String("columnDefinitions"), QJsonValue());
            }
            t.insert(QLatin1String("rows"), QJsonArray{tableRow(resource, obj, IncludeObject::Metadata,
                                                                QDateTime::currentDateTimeUtc())});
            line += toCompactJson(t);
        }
        line += "}\n";
        return line;
    };
    auto bookmarkLine = [resource](quint64 rv, bool initialEnd) {
        QByteArray line =
            "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"" + resourceInfo(resource).kind.toLatin1() +
            "\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"" + QByteArray::number(rv) + '"';
        if (initialEnd)
            line += ",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}";
        line += "}}}\n";
        return line;
    };
    auto matches = [ns, labels, fields](const Entry &e) {
        return (ns.isEmpty() || e.ns == ns) && labels->matches(e.labels) && fields->matches(e);
    };

    call.res.status = 200;
    call.res.set_header("Cache-Control", "no-cache, private");
    // The ";stream=watch" parameter keeps cpp-httplib from gzip-buffering the stream.
    call.res.set_chunked_content_provider(
        "application/json;stream=watch",
        [this, state, resource, ns, matches, eventLine, bookmarkLine, bookmarks, sendInitial, deadline, ssl,
         bookmarkMs, stall](std::size_t, httplib::DataSink &sink) {
            auto clientGone = [ssl] {
                if (!ssl)
                    return false;
                pollfd pfd{SSL_get_fd(ssl), POLLRDHUP, 0};
                return ::poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR));
            };
            if (m_stopping || Clock::now() >= deadline) {
                sink.done();
                return true;
            }
            if (clientGone())
                return false;
            QByteArray out;
            if (stall) {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                return true;
            }
            {
                std::unique_lock lock(m_store.mutex);
                if (!state->started) {
                    state->started = true;
                    if (state->initial) {
                        auto [first, last] = m_store.range(resource, ns);
                        for (auto it = first; it != last; ++it) {
                            if (matches(it->second))
                                out += eventLine("ADDED", it->second.json);
                        }
                        if (sendInitial)
                            out += bookmarkLine(state->cursor, true);
                    }
                }
                if (out.isEmpty()) {
                    if (m_store.eventsAfter(state->cursor) == m_store.eventsEnd())
                        m_store.changed.wait_for(lock, std::chrono::milliseconds(250));
                    if (state->cursor < m_store.compactedRv()) {
                        ApiError gone = ApiError::gone(QStringLiteral("too old resource version: %1 (%2)")
                                                           .arg(state->cursor)
                                                           .arg(m_store.compactedRv() + 1));
                        out += "{\"type\":\"ERROR\",\"object\":" + gone.toJson() + "}\n";
                        lock.unlock();
                        sink.write(out.constData(), static_cast<std::size_t>(out.size()));
                        sink.done();
                        return true;
                    }
                    for (auto it = m_store.eventsAfter(state->cursor); it != m_store.eventsEnd(); ++it) {
                        state->cursor = it->rv;
                        if (it->resource == resource && matches(it->entry))
                            out += eventLine(it->type, it->entry.json);
                    }
                    if (out.isEmpty() && bookmarks &&
                        Clock::now() - state->lastWrite >= std::chrono::milliseconds(bookmarkMs)) {
                        state->cursor = std::max(state->cursor, m_store.currentRv());
                        out += bookmarkLine(state->cursor, false);
                    }
                }
            }
            if (!out.isEmpty()) {
                state->lastWrite = Clock::now();
                if (!sink.write(out.constData(), static_cast<std::size_t>(out.size())))
                    return false;
            }
            return true;
        });
}

ApiServer::HookReply ApiServer::createObject(Resource r, const QString &ns, const QJsonObject &object) {
    httplib::Request req;
    req.method = "POST";
    req.body = toStd(toCompactJson(object));
    httplib::Response res;
    Call call{
        req,   res, User{QStringLiteral("scenario"), {}, true, true}, r, ns, {}, {}, QStringLiteral("create"),
        false, {}};
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

void ApiServer::handleCreate(Call &call) {
    const ResourceInfo &info = resourceInfo(call.resource);
    QJsonObject obj;
    ApiError bodyError;
    if (!requestObject(call.req, &obj, &bodyError))
        return sendError(call.res, bodyError);
    if (!decodeStrictly(call, obj))
        return;
    const QString kind = obj.value(QLatin1String("kind")).toString();
    if (!kind.isEmpty() && kind != info.kind)
        return sendError(
            call.res, ApiError::badRequest(
                          QStringLiteral("the server could not process a %1 at this endpoint (expected %2)")
                              .arg(kind, info.kind)));
    QJsonObject meta = metaOf(obj);
    if (info.namespaced) {
        const QString bodyNs = meta.value(QLatin1String("namespace")).toString();
        if (!bodyNs.isEmpty() && bodyNs != call.ns)
            return sendError(
                call.res, ApiError::badRequest(QStringLiteral("the namespace of the provided object does not "
                                                              "match the namespace sent on the request")));
        meta.insert(QLatin1String("namespace"), call.ns);
    } else {
        meta.remove(QLatin1String("namespace"));
    }
    if (meta.value(QLatin1String("name")).toString().isEmpty()) {
        const QString generate = meta.value(QLatin1String("generateName")).toString();
        if (!generate.isEmpty()) {
            static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
            QString suffix;
            for (int i = 0; i < 5; ++i)
                suffix += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(27)]);
            meta.insert(QLatin1String("name"), QString(generate + suffix));
        }
    }
    const QString name = meta.value(QLatin1String("name")).toString();
    if (!meta.value(QLatin1String("resourceVersion")).toString().isEmpty())
        return sendError(call.res, ApiError::internal(QStringLiteral(
                                       "resourceVersion should not be set on objects to be created")));
    if (auto bad = checkDecodable(call.resource, obj))
        return sendError(call.res, *bad);
    meta.insert(QLatin1String("uid"), QUuid::createUuid().toString(QUuid::WithoutBraces));
    // Scenarios may backdate objects so a demo shows realistic ages.
    if (call.user.name != QLatin1String("scenario") || !meta.contains(QLatin1String("creationTimestamp")))
        meta.insert(QLatin1String("creationTimestamp"), nowStamp());
    meta.remove(QLatin1String("deletionTimestamp"));
    meta.remove(QLatin1String("managedFields"));
    if (call.resource == Resource::ResourceQuota || call.resource == Resource::LimitRange ||
        call.resource == Resource::Pod)
        meta.insert(QLatin1String("generation"), 1);
    setMeta(obj, meta);
    obj.remove(QLatin1String("kind"));
    obj.remove(QLatin1String("apiVersion"));
    applyDefaults(call.resource, obj);

    std::unique_lock lock(m_store.mutex);
    if (info.namespaced && !m_store.find(Resource::Namespace, {}, call.ns))
        return sendError(call.res, ApiError::notFound(QStringLiteral("namespaces"), call.ns));
    if (info.namespaced) {
        const Entry *nsEntry = m_store.find(Resource::Namespace, {}, call.ns);
        if (nsEntry->phase == QLatin1String("Terminating"))
            return sendError(
                call.res,
                ApiError::forbidden(
                    info.plural, name,
                    QStringLiteral(
                        "unable to create new content in namespace %1 because it is being terminated")
                        .arg(call.ns)));
    }
    if (call.resource == Resource::Pod) {
        obj.insert(QLatin1String("status"), podStatusFor(obj, QStringLiteral("Pending"), {}));
        if (auto denied = admitPod(m_store, call.ns, obj))
            return sendError(call.res, *denied);
    } else {
        const QList<FieldError> errors = validateObject(call.resource, obj, nullptr);
        if (!errors.isEmpty()) {
            QJsonArray causes;
            for (const FieldError &e : errors)
                causes.append(e.toCause());
            return sendError(call.res, ApiError::invalid(info.kind, name, causes));
        }
    }
    if (m_store.find(call.resource, call.ns, name))
        return sendError(call.res, ApiError::alreadyExists(info.plural, name));
    if (call.resource == Resource::ResourceQuota) {
        // The API server clears a new quota's status; the quota controller fills it in.
        obj.remove(QLatin1String("status"));
        if (!m_quotaControllerPaused)
            obj.insert(QLatin1String("status"), computeQuotaStatus(m_store, obj));
    }
    if (call.dryRun) {
        lock.unlock();
        obj.insert(QLatin1String("kind"), info.kind);
        obj.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
        return sendJson(call.res, 201, toCompactJson(obj));
    }
    const Entry &stored = m_store.commit(call.resource, obj, "ADDED");
    const QByteArray body = withKind(call.resource, stored.json);
    if (call.resource == Resource::Pod) {
        refreshQuotas(call.ns);
        if (!m_config.podsStayPending)
            schedulePod(call.ns, name);
    } else if (call.resource == Resource::ResourceQuota) {
        refreshQuotas(call.ns); // count/resourcequotas in sibling quotas
    }
    lock.unlock();
    sendJson(call.res, 201, body);
}

void ApiServer::handleUpdate(Call &call, const QJsonObject &bodyIn, bool fromPatch) {
    const ResourceInfo &info = resourceInfo(call.resource);
    QJsonObject obj = bodyIn;
    if (!decodeStrictly(call, obj))
        return;
    QJsonObject meta = metaOf(obj);
    const QString bodyName = meta.value(QLatin1String("name")).toString();
    if (bodyName != call.name)
        return sendError(
            call.res,
            ApiError::badRequest(
                QStringLiteral("the name of the object (%1) does not match the name on the URL (%2)")
                    .arg(bodyName, call.name)));
    if (info.namespaced) {
        const QString bodyNs = meta.value(QLatin1String("namespace")).toString();
        if (!bodyNs.isEmpty() && bodyNs != call.ns)
            return sendError(
                call.res, ApiError::badRequest(QStringLiteral("the namespace of the provided object does not "
                                                              "match the namespace sent on the request")));
        meta.insert(QLatin1String("namespace"), call.ns);
    }
    if (auto bad = checkDecodable(call.resource, obj))
        return sendError(call.res, *bad);

    std::unique_lock lock(m_store.mutex);
    const Entry *existing = m_store.find(call.resource, call.ns, call.name);
    if (!existing) {
        if (call.resource == Resource::LimitRange && call.subresource.isEmpty() && !fromPatch) {
            lock.unlock();
            // LimitRange alone allows create-on-update (AllowCreateOnUpdate).
            meta.remove(QLatin1String("resourceVersion"));
            setMeta(obj, meta);
            httplib::Request req;
            req.method = "POST";
            req.body = toStd(toCompactJson(obj));
            Call create{req,         call.res, call.user, call.resource,
                        call.ns,     {},       {},        QStringLiteral("create"),
                        call.dryRun, {}};
            return handleCreate(create);
        }
        return sendError(call.res, ApiError::notFound(info.plural, call.name));
    }
    const QJsonObject old = parseObject(existing->json);
    const QJsonObject oldMeta = metaOf(old);
    const QString wantRv = meta.value(QLatin1String("resourceVersion")).toString();
    if (!wantRv.isEmpty() && wantRv != oldMeta.value(QLatin1String("resourceVersion")).toString())
        return sendError(call.res, ApiError::conflict(info.plural, call.name));

    // System-owned metadata comes from the stored object.
    for (const char *key :
         {"uid", "creationTimestamp", "generation", "deletionTimestamp", "resourceVersion"}) {
        if (oldMeta.contains(QLatin1String(key)))
            meta.insert(QLatin1String(key), oldMeta.value(QLatin1String(key)));
        else
            meta.remove(QLatin1String(key));
    }
    meta.remove(QLatin1String("managedFields"));
    obj.remove(QLatin1String("kind"));
    obj.remove(QLatin1String("apiVersion"));
    if (call.subresource == QLatin1String("status")) {
        // Only status changes through /status.
        QJsonObject merged = old;
        merged.insert(QLatin1String("status"), obj.value(QLatin1String("status")));
        obj = merged;
        meta = metaOf(old);
    } else if (info.hasStatus) {
        if (old.contains(QLatin1String("status")))
            obj.insert(QLatin1String("status"), old.value(QLatin1String("status")));
        else
            obj.remove(QLatin1String("status"));
    }
    if (call.resource == Resource::Namespace && call.subresource != QLatin1String("finalize"))
        meta.insert(QLatin1String("labels"), [&] {
            QJsonObject l = meta.value(QLatin1String("labels")).toObject();
            l.insert(QLatin1String("kubernetes.io/metadata.name"), call.name);
            return l;
        }());
    if (old.value(QLatin1String("spec")) != obj.value(QLatin1String("spec")) &&
        meta.contains(QLatin1String("generation")))
        meta.insert(QLatin1String("generation"), meta.value(QLatin1String("generation")).toInteger() + 1);
    setMeta(obj, meta);
    if (call.subresource.isEmpty())
        applyDefaults(call.resource, obj);

    if (call.resource == Resource::Pod && call.subresource.isEmpty()) {
        if (auto refused = checkPodSpecUpdate(old, obj))
            return sendError(call.res,
                             ApiError::invalid(info.kind, call.name, QJsonArray{refused->toCause()}));
    }
    if (call.subresource.isEmpty()) {
        const QList<FieldError> errors = validateObject(call.resource, obj, &old);
        if (!errors.isEmpty()) {
            QJsonArray causes;
            for (const FieldError &e : errors)
                causes.append(e.toCause());
            return sendError(call.res, ApiError::invalid(info.kind, call.name, causes));
        }
    }
    if (call.resource == Resource::ResourceQuota && call.subresource.isEmpty() && !m_quotaControllerPaused)
        obj.insert(QLatin1String("status"), computeQuotaStatus(m_store, obj));

    const auto ignoringRv = [](QJsonObject o) {
        QJsonObject m = metaOf(o);
        m.remove(QLatin1String("resourceVersion"));
        o.insert(QLatin1String("metadata"), m);
        return o;
    };
    if (ignoringRv(obj) == ignoringRv(old) || call.dryRun) {
        // A no-op update keeps the resourceVersion and sends no event, like the API server.
        lock.unlock();
        obj.insert(QLatin1String("kind"), info.kind);
        obj.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
        return sendJson(call.res, 200, toCompactJson(obj));
    }
    const Entry &stored = m_store.commit(call.resource, obj, "MODIFIED");
    const QByteArray body = withKind(call.resource, stored.json);
    if (call.resource == Resource::Pod)
        refreshQuotas(call.ns);
    lock.unlock();
    sendJson(call.res, 200, body);
}

void ApiServer::handlePatch(Call &call) {
    const ResourceInfo &info = resourceInfo(call.resource);
    const QByteArray contentType = QByteArray::fromStdString(call.req.get_header_value("Content-Type"));
    const auto type = patchTypeFromContentType(contentType);
    if (!type)
        return sendError(call.res, ApiError::unsupportedMediaType(QString::fromLatin1(contentType)));
    const QByteArray patch = QByteArray::fromStdString(call.req.body);
    QJsonObject current;
    {
        std::lock_guard lock(m_store.mutex);
        const Entry *e = m_store.find(call.resource, call.ns, call.name);
        if (e) {
            current = parseObject(e->json);
        } else if (*type != PatchType::Apply) {
            return sendError(call.res, ApiError::notFound(info.plural, call.name));
        }
    }
    if (*type == PatchType::Apply) {
        if (param(call.req, "fieldManager").isEmpty()) {
            FieldError fe{FieldError::Type::Required,
                          QStringLiteral("fieldManager"),
                          {},
                          QStringLiteral("is required for apply patch")};
            ApiError e = ApiError::invalid(QStringLiteral("PatchOptions.meta.k8s.io"), QString(),
                                           QJsonArray{fe.toCause()});
            e.kind = QStringLiteral("PatchOptions");
            return sendError(call.res, e);
        }
        if (current.isEmpty()) {
            httplib::Request req;
            req.method = "POST";
            req.body = call.req.body;
            Call create{req,         call.res, call.user, call.resource,
                        call.ns,     {},       {},        QStringLiteral("create"),
                        call.dryRun, {}};
            handleCreate(create);
            if (call.res.status == 201)
                call.res.status = 201;
            return;
        }
    }
    const QString rvBefore = metaOf(current).value(QLatin1String("resourceVersion")).toString();
    if (auto err = applyPatch(*type, patch, current))
        return sendError(call.res, *err);
    QJsonObject meta = metaOf(current);
    if (meta.value(QLatin1String("resourceVersion")).toString().isEmpty())
        meta.insert(QLatin1String("resourceVersion"), rvBefore);
    if (meta.value(QLatin1String("name")).toString().isEmpty())
        meta.insert(QLatin1String("name"), call.name);
    current.insert(QLatin1String("metadata"), meta);
    handleUpdate(call, current, true);
}

void ApiServer::handleDelete(Call &call) {
    const ResourceInfo &info = resourceInfo(call.resource);
    QJsonObject options;
    ApiError ignored;
    if (!call.req.body.empty())
        requestObject(call.req, &options, &ignored);
    const QJsonObject pre = options.value(QLatin1String("preconditions")).toObject();
    std::unique_lock lock(m_store.mutex);
    const Entry *e = m_store.find(call.resource, call.ns, call.name);
    if (!e)
        return sendError(call.res, ApiError::notFound(info.plural, call.name));
    QJsonObject obj = parseObject(e->json);
    QJsonObject meta = metaOf(obj);
    const QString preRv = pre.value(QLatin1String("resourceVersion")).toString();
    const QString preUid = pre.value(QLatin1String("uid")).toString();
    if (!preUid.isEmpty() && preUid != meta.value(QLatin1String("uid")).toString()) {
        ApiError c = ApiError::conflict(info.plural, call.name);
        c.message = QStringLiteral("Operation cannot be fulfilled on %1 \"%2\": Precondition failed: UID in "
                                   "precondition: %3, UID in object meta: %4")
                        .arg(info.plural, call.name, preUid, meta.value(QLatin1String("uid")).toString());
        return sendError(call.res, c);
    }
    if (!preRv.isEmpty() && preRv != meta.value(QLatin1String("resourceVersion")).toString()) {
        ApiError c = ApiError::conflict(info.plural, call.name);
        c.message =
            QStringLiteral(
                "Operation cannot be fulfilled on %1 \"%2\": the ResourceVersion in the precondition (%3) "
                "does not match the ResourceVersion in record (%4). The object might have been modified")
                .arg(info.plural, call.name, preRv, meta.value(QLatin1String("resourceVersion")).toString());
        return sendError(call.res, c);
    }
    if (call.resource == Resource::Namespace || call.resource == Resource::Pod) {
        meta.insert(QLatin1String("deletionTimestamp"), nowStamp());
        if (call.resource == Resource::Pod)
            meta.insert(QLatin1String("deletionGracePeriodSeconds"), 0);
    }
    if (call.dryRun) {
        lock.unlock();
        setMeta(obj, meta);
        obj.insert(QLatin1String("kind"), info.kind);
        obj.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
        return sendJson(call.res, 200, toCompactJson(obj));
    }
    if (call.resource == Resource::Namespace) {
        // Namespace deletion cascades to everything in it; we finish at once
        // instead of lingering in Terminating.
        for (Resource r : {Resource::Pod, Resource::ResourceQuota, Resource::LimitRange, Resource::Event}) {
            std::vector<QString> names;
            auto [first, last] = m_store.range(r, call.name);
            for (auto it = first; it != last; ++it)
                names.push_back(it->second.name);
            for (const QString &n : names)
                m_store.remove(r, call.name, n);
        }
        QJsonObject status = obj.value(QLatin1String("status")).toObject();
        status.insert(QLatin1String("phase"), QLatin1String("Terminating"));
        obj.insert(QLatin1String("status"), status);
    }
    QJsonObject last = m_store.remove(call.resource, call.ns, call.name);
    setMeta(obj, [&] {
        QJsonObject m = meta;
        m.insert(QLatin1String("resourceVersion"), metaOf(last).value(QLatin1String("resourceVersion")));
        return m;
    }());
    if (call.resource == Resource::Pod || call.resource == Resource::ResourceQuota)
        refreshQuotas(call.ns);
    lock.unlock();
    obj.insert(QLatin1String("kind"), info.kind);
    obj.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
    sendJson(call.res, 200, toCompactJson(obj));
}

void ApiServer::handleDeleteCollection(Call &call) {
    const ResourceInfo &info = resourceInfo(call.resource);
    QString err;
    LabelSelector labels;
    FieldSelector fields;
    if (!labels.parse(param(call.req, "labelSelector"), &err) ||
        !fields.parse(call.resource, param(call.req, "fieldSelector"), &err))
        return sendError(call.res, ApiError::badRequest(err));
    std::unique_lock lock(m_store.mutex);
    std::vector<QString> names;
    QByteArray items;
    auto [first, last] = m_store.range(call.resource, call.ns);
    for (auto it = first; it != last; ++it) {
        if (labels.matches(it->second.labels) && fields.matches(it->second)) {
            names.push_back(it->second.name);
            if (!items.isEmpty())
                items += ',';
            items += it->second.json;
        }
    }
    if (!call.dryRun) {
        for (const QString &n : names)
            m_store.remove(call.resource, call.ns, n);
        if (call.resource == Resource::Pod || call.resource == Resource::ResourceQuota)
            refreshQuotas(call.ns);
    }
    const quint64 rv = m_store.currentRv();
    lock.unlock();
    QByteArray body = "{\"kind\":\"" + info.kind.toLatin1() +
                      "List\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"" +
                      QByteArray::number(rv) + "\"},\"items\":[" + items + "]}";
    sendJson(call.res, 200, body);
}

void ApiServer::handleReview(Call &call) {
    const QString path = QString::fromStdString(call.req.path);
    QJsonObject review;
    ApiError bodyError;
    if (!requestObject(call.req, &review, &bodyError))
        return sendError(call.res, bodyError);
    const QString apiVersion = path.section(QLatin1Char('/'), 2, 3);
    QJsonObject meta;
    meta.insert(QLatin1String("creationTimestamp"), QJsonValue());
    review.insert(QLatin1String("metadata"), meta);
    review.insert(QLatin1String("apiVersion"), apiVersion);
    const User &user = call.user;
    const QString userText = QStringLiteral("User \"%1\"").arg(user.name);
    if (path.endsWith(QLatin1String("selfsubjectreviews"))) {
        review.insert(QLatin1String("kind"), QLatin1String("SelfSubjectReview"));
        QJsonObject userInfo;
        userInfo.insert(QLatin1String("username"), user.name);
        userInfo.insert(QLatin1String("groups"), QJsonArray::fromStringList(user.groups));
        QJsonObject status;
        status.insert(QLatin1String("userInfo"), userInfo);
        review.insert(QLatin1String("status"), status);
        return sendJson(call.res, 201, toCompactJson(review));
    }
    if (path.endsWith(QLatin1String("selfsubjectrulesreviews"))) {
        review.insert(QLatin1String("kind"), QLatin1String("SelfSubjectRulesReview"));
        const QStringList verbs =
            user.admin ? QStringList{QStringLiteral("*")}
                       : QStringList{QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")};
        QJsonObject rule;
        rule.insert(QLatin1String("verbs"), QJsonArray::fromStringList(verbs));
        rule.insert(QLatin1String("apiGroups"), QJsonArray{user.admin ? QStringLiteral("*") : QString()});
        rule.insert(QLatin1String("resources"), QJsonArray{QStringLiteral("*")});
        QJsonObject reviews;
        reviews.insert(QLatin1String("verbs"), QJsonArray{QStringLiteral("create")});
        reviews.insert(QLatin1String("apiGroups"), QJsonArray{QStringLiteral("authorization.k8s.io"),
                                                              QStringLiteral("authentication.k8s.io")});
        reviews.insert(QLatin1String("resources"), QJsonArray{QStringLiteral("selfsubjectaccessreviews"),
                                                              QStringLiteral("selfsubjectrulesreviews"),
                                                              QStringLiteral("selfsubjectreviews")});
        QJsonObject nonResource;
        nonResource.insert(QLatin1String("verbs"),
                           QJsonArray{user.admin ? QStringLiteral("*") : QStringLiteral("get")});
        nonResource.insert(QLatin1String("nonResourceURLs"),
                           QJsonArray{user.admin ? QStringLiteral("*") : QStringLiteral("/version")});
        QJsonObject status;
        status.insert(QLatin1String("resourceRules"), QJsonArray{reviews, rule});
        status.insert(QLatin1String("nonResourceRules"), QJsonArray{nonResource});
        status.insert(QLatin1String("incomplete"), false);
        review.insert(QLatin1String("status"), status);
        return sendJson(call.res, 201, toCompactJson(review));
    }
    review.insert(QLatin1String("kind"), QLatin1String("SelfSubjectAccessReview"));
    const QJsonObject spec = review.value(QLatin1String("spec")).toObject();
    const QJsonObject attrs = spec.value(QLatin1String("resourceAttributes")).toObject();
    const QJsonObject nonRes = spec.value(QLatin1String("nonResourceAttributes")).toObject();
    if (attrs.isEmpty() && nonRes.isEmpty()) {
        FieldError fe{
            FieldError::Type::Required,
            QStringLiteral("spec.resourceAttributes"),
            {},
            QStringLiteral("exactly one of nonResourceAttributes or resourceAttributes must be specified")};
        return sendError(call.res,
                         ApiError::invalid(QStringLiteral("SelfSubjectAccessReview.authorization.k8s.io"),
                                           QString(), QJsonArray{fe.toCause()}));
    }
    const QString verb = (attrs.isEmpty() ? nonRes : attrs).value(QLatin1String("verb")).toString();
    const bool read =
        verb == QLatin1String("get") || verb == QLatin1String("list") || verb == QLatin1String("watch");
    const QString resource = attrs.value(QLatin1String("resource")).toString();
    const bool reviewResource =
        resource.startsWith(QLatin1String("selfsubject")) && verb == QLatin1String("create");
    const bool allowed = user.admin || read || reviewResource;
    QJsonObject status;
    status.insert(QLatin1String("allowed"), allowed);
    if (allowed)
        status.insert(QLatin1String("reason"),
                      user.admin ? QStringLiteral("RBAC: allowed by ClusterRoleBinding \"gq-admins\" of "
                                                  "ClusterRole \"cluster-admin\" to %1")
                                       .arg(userText)
                                 : QStringLiteral("RBAC: allowed by ClusterRoleBinding \"gq-viewers\" of "
                                                  "ClusterRole \"view\" to Group \"gq:viewers\""));
    review.insert(QLatin1String("status"), status);
    sendJson(call.res, 201, toCompactJson(review));
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
    if (spec.value(QLatin1String("nodeName")).toString().isEmpty())
        spec.insert(QLatin1String("nodeName"), QStringLiteral("gpu-node-%1").arg(qHash(name) % 4 + 1));
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

bool ApiServer::setPodPhase(const QString &ns, const QString &name, const QString &phase, QByteArray *out) {
    std::lock_guard lock(m_store.mutex);
    const Entry *e = m_store.find(Resource::Pod, ns, name);
    if (!e) {
        *out = ApiError::notFound(QStringLiteral("pods"), name).toJson();
        return false;
    }
    QJsonObject pod = parseObject(e->json);
    QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    if (phase != QLatin1String("Pending") && spec.value(QLatin1String("nodeName")).toString().isEmpty()) {
        spec.insert(QLatin1String("nodeName"), QStringLiteral("gpu-node-%1").arg(qHash(name) % 4 + 1));
        pod.insert(QLatin1String("spec"), spec);
    }
    pod.insert(QLatin1String("status"),
               podStatusFor(pod, phase, pod.value(QLatin1String("status")).toObject()));
    const Entry &stored = m_store.commit(Resource::Pod, pod, "MODIFIED");
    *out = withKind(Resource::Pod, stored.json);
    refreshQuotas(ns);
    return true;
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
                                  0}
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
    // POST /_gq/pods/{ns}/{name}/phase {"phase":"Succeeded"}
    if (what == QLatin1String("pods") && segs.size() == 5 && segs[4] == QLatin1String("phase") &&
        method == "POST") {
        const QString phase = in.value(QLatin1String("phase")).toString();
        static const QStringList phases = {QStringLiteral("Pending"), QStringLiteral("Running"),
                                           QStringLiteral("Succeeded"), QStringLiteral("Failed")};
        if (!phases.contains(phase))
            return fail(
                400, QStringLiteral("phase: must be one of Pending, Running, Succeeded, Failed (got \"%1\")")
                         .arg(phase));
        QByteArray out;
        if (!setPodPhase(segs[2], segs[3], phase, &out))
            return {404, out};
        return {200, out};
    }
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
    if (what == QLatin1String("healthz"))
        return ok(QJsonObject{{QStringLiteral("ok"), true}});
    return fail(404, QStringLiteral("unknown hook ") + QString::fromLatin1(method) + QLatin1Char(' ') + path);
}

} // namespace gq::tc
