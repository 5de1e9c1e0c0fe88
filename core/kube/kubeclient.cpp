// KubeClient's verbs: requests built from resources and options, answers decoded
// into objects and lists. Transport and credentials: kubeclient_private.cpp; watches:
// kubeclient_watch.cpp.
#include "core/kube/kubeclient_p.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gq {

namespace {

Result<QJsonObject> toObject(Result<KubeResponse> r) {
    if (!r)
        return r.error();
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(r->body, &perr);
    if (!doc.isObject())
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("the server answered with something that is not a JSON object (%1)")
                               .arg(perr.errorString()));
    return doc.object();
}

Result<ObjectList> toList(const Result<KubeResponse> &r) {
    if (!r)
        return r.error();
    const QJsonDocument doc = QJsonDocument::fromJson(r->body);
    if (!doc.isObject())
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("the server answered a list with something that is not JSON"));
    const QJsonObject obj = doc.object();
    ObjectList list;
    list.pages = 1;
    list.kind = obj.value(QLatin1String("kind")).toString();
    list.apiVersion = obj.value(QLatin1String("apiVersion")).toString();
    const QJsonObject meta = obj.value(QLatin1String("metadata")).toObject();
    list.resourceVersion = meta.value(QLatin1String("resourceVersion")).toString();
    list.continueToken = meta.value(QLatin1String("continue")).toString();
    const QJsonArray items = obj.value(QLatin1String("items")).toArray();
    list.items.reserve(items.size());
    for (const QJsonValue &v : items)
        list.items.append(v.toObject());
    return list;
}

void addWriteOptions(KubeRequest &req, const WriteOptions &o) {
    if (o.dryRun)
        req.query.append({QStringLiteral("dryRun"), QStringLiteral("All")});
    if (!o.fieldManager.isEmpty() && req.method != HttpMethod::Delete)
        req.query.append({QStringLiteral("fieldManager"), o.fieldManager});
}

KubeRequest pageRequest(const KubeResource &resource, const QString &ns, const ListOptions &o,
                        const QString &continueToken) {
    KubeRequest req;
    req.path = resource.path(ns);
    if (!o.labelSelector.isEmpty())
        req.query.append({QStringLiteral("labelSelector"), o.labelSelector});
    if (!o.fieldSelector.isEmpty())
        req.query.append({QStringLiteral("fieldSelector"), o.fieldSelector});
    if (o.limit > 0)
        req.query.append({QStringLiteral("limit"), QString::number(o.limit)});
    if (!continueToken.isEmpty())
        req.query.append({QStringLiteral("continue"), continueToken});
    else if (!o.resourceVersion.isEmpty())
        req.query.append({QStringLiteral("resourceVersion"), o.resourceVersion});
    return req;
}

QString objectNamespace(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("namespace")).toString();
}
QString objectName(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
}

} // namespace

KubeClient::KubeClient(KubeConnection connection, KubeClientOptions options)
    : d(std::make_shared<Private>(std::move(connection), std::move(options))) {}

KubeClient::~KubeClient() {
    d->shutdown();
}

Result<std::shared_ptr<KubeClient>>
KubeClient::fromKubeconfig(const QString &kubeconfigPath, const QString &context, KubeClientOptions options) {
    auto cfg = KubeConfig::load(kubeconfigPath);
    if (!cfg)
        return cfg.error();
    auto conn = cfg->connection(context);
    if (!conn)
        return conn.error();
    return std::make_shared<KubeClient>(std::move(*conn), std::move(options));
}

QString KubeClient::server() const {
    return d->conn.server;
}
QString KubeClient::contextName() const {
    return d->conn.contextName;
}
QString KubeClient::defaultNamespace() const {
    return d->conn.namespaceName;
}
bool KubeClient::insecureSkipTlsVerify() const {
    return d->conn.insecureSkipTlsVerify;
}
QString KubeClient::clearTextWarning() const {
    if (!sendsCredentialsInClear(d->conn) || plainHttpRefusal(d->conn, d->opts.allowPlainHttpCredentials))
        return {};
    return plainHttpWarning(d->conn);
}
const KubeClientOptions &KubeClient::options() const {
    return d->opts;
}
int KubeClient::requestsSent() const {
    return d->transport.attemptsStarted();
}
int KubeClient::retries() const {
    return d->transport.retries();
}
long KubeClient::lastHttpVersion() const {
    return d->transport.lastHttpVersion();
}

QFuture<Result<KubeResponse>> KubeClient::send(KubeRequest request) {
    auto promise = std::make_shared<QPromise<Result<KubeResponse>>>();
    auto future = promise->future();
    promise->start();
    d->submit(std::move(request), [promise](Result<KubeResponse> r) {
        promise->addResult(std::move(r));
        promise->finish();
    });
    return future;
}

QFuture<Result<QJsonObject>> KubeClient::get(const KubeResource &resource, const QString &ns,
                                             const QString &name, const QString &subresource) {
    KubeRequest req;
    req.path = resource.path(ns, name, subresource);
    return send(std::move(req)).then(&toObject);
}

QFuture<Result<ObjectList>> KubeClient::listPage(const KubeResource &resource, const QString &ns,
                                                 const ListOptions &options) {
    return send(pageRequest(resource, ns, options, options.continueToken)).then([](Result<KubeResponse> r) {
        return toList(r);
    });
}

QFuture<Result<ObjectList>> KubeClient::list(const KubeResource &resource, const QString &ns,
                                             ListOptions options) {
    struct State {
        QPromise<Result<ObjectList>> promise;
        ObjectList acc;
        int restarts = 0;
        std::function<void(const QString &)> step;
    };
    auto st = std::make_shared<State>();
    auto future = st->promise.future();
    st->promise.start();
    std::weak_ptr<Private> weak = d;
    auto finish = [](const std::shared_ptr<State> &s, Result<ObjectList> r) {
        s->promise.addResult(std::move(r));
        s->promise.finish();
        s->step = nullptr; // breaks the State -> step -> State cycle
    };
    st->step = [st_w = std::weak_ptr<State>(st), weak, resource, ns, options, finish](const QString &cont) {
        auto s = st_w.lock();
        auto dd = weak.lock();
        if (!s)
            return;
        if (!dd) {
            finish(s, cancelledError(QStringLiteral("list ") + resource.plural));
            return;
        }
        dd->submit(pageRequest(resource, ns, options, cont), [s, cont, finish](Result<KubeResponse> r) {
            auto page = toList(r);
            if (!page) {
                // An expired continue token: the snapshot is gone, start over.
                if (page.error().kind == Error::Kind::Gone && !cont.isEmpty() && s->restarts < 2) {
                    ++s->restarts;
                    s->acc = ObjectList();
                    s->step(QString());
                    return;
                }
                finish(s, page.error());
                return;
            }
            s->acc.items.append(std::move(page->items));
            s->acc.pages += 1;
            s->acc.resourceVersion = page->resourceVersion;
            s->acc.kind = page->kind;
            s->acc.apiVersion = page->apiVersion;
            if (!page->continueToken.isEmpty()) {
                s->step(page->continueToken);
                return;
            }
            finish(s, std::move(s->acc));
        });
    };
    st->step(QString());
    return future;
}

QFuture<Result<QJsonObject>> KubeClient::create(const KubeResource &resource, const QString &ns,
                                                const QJsonObject &object, const WriteOptions &options) {
    KubeRequest req;
    req.method = HttpMethod::Post;
    const QString effectiveNs = ns.isEmpty() ? objectNamespace(object) : ns;
    if (resource.namespaced && effectiveNs.isEmpty())
        return readyFuture<QJsonObject>(
            Error::make(Error::Kind::Invalid, QStringLiteral("%1 need a namespace").arg(resource.plural),
                        QStringLiteral("metadata.namespace")));
    req.path = resource.path(effectiveNs);
    req.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
    addWriteOptions(req, options);
    return send(std::move(req)).then(&toObject);
}

QFuture<Result<QJsonObject>> KubeClient::replace(const KubeResource &resource, const QString &ns,
                                                 const QJsonObject &object, const WriteOptions &options,
                                                 const QString &subresource) {
    const QString name = objectName(object);
    if (name.isEmpty())
        return readyFuture<QJsonObject>(Error::make(
            Error::Kind::Invalid, QStringLiteral("the object has no name"), QStringLiteral("metadata.name")));
    const QString effectiveNs = ns.isEmpty() ? objectNamespace(object) : ns;
    KubeRequest req;
    req.method = HttpMethod::Put;
    req.path = resource.path(effectiveNs, name, subresource);
    req.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
    addWriteOptions(req, options);
    return send(std::move(req)).then(&toObject);
}

QFuture<Result<QJsonObject>> KubeClient::mergePatch(const KubeResource &resource, const QString &ns,
                                                    const QString &name, const QJsonObject &patch,
                                                    const WriteOptions &options, const QString &subresource) {
    KubeRequest req;
    req.method = HttpMethod::Patch;
    req.path = resource.path(ns, name, subresource);
    req.body = QJsonDocument(patch).toJson(QJsonDocument::Compact);
    req.contentType = "application/merge-patch+json";
    addWriteOptions(req, options);
    return send(std::move(req)).then(&toObject);
}

QFuture<Result<QJsonObject>> KubeClient::remove(const KubeResource &resource, const QString &ns,
                                                const QString &name, const WriteOptions &options,
                                                const QString &preconditionResourceVersion) {
    KubeRequest req;
    req.method = HttpMethod::Delete;
    req.path = resource.path(ns, name);
    addWriteOptions(req, options);
    if (!preconditionResourceVersion.isEmpty()) {
        const QJsonObject body{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("DeleteOptions")},
            {QStringLiteral("preconditions"),
             QJsonObject{{QStringLiteral("resourceVersion"), preconditionResourceVersion}}}};
        req.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    }
    return send(std::move(req)).then(&toObject);
}

QFuture<Result<AccessReview>> KubeClient::canI(const QString &verb, const QString &resource,
                                               const QString &ns, const QString &group,
                                               const QString &subresource, const QString &name) {
    QJsonObject attrs{{QStringLiteral("verb"), verb}, {QStringLiteral("resource"), resource}};
    if (!ns.isEmpty())
        attrs.insert(QStringLiteral("namespace"), ns);
    if (!group.isEmpty())
        attrs.insert(QStringLiteral("group"), group);
    if (!subresource.isEmpty())
        attrs.insert(QStringLiteral("subresource"), subresource);
    if (!name.isEmpty())
        attrs.insert(QStringLiteral("name"), name);
    const QJsonObject body{
        {QStringLiteral("apiVersion"), QStringLiteral("authorization.k8s.io/v1")},
        {QStringLiteral("kind"), QStringLiteral("SelfSubjectAccessReview")},
        {QStringLiteral("spec"), QJsonObject{{QStringLiteral("resourceAttributes"), attrs}}}};
    KubeRequest req;
    req.method = HttpMethod::Post;
    req.path = QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews");
    req.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    req.retrySafe = true;
    return send(std::move(req)).then([](Result<KubeResponse> r) -> Result<AccessReview> {
        auto obj = toObject(std::move(r));
        if (!obj)
            return obj.error();
        const QJsonObject status = obj->value(QLatin1String("status")).toObject();
        AccessReview review;
        review.allowed = status.value(QLatin1String("allowed")).toBool();
        review.denied = status.value(QLatin1String("denied")).toBool();
        review.reason = status.value(QLatin1String("reason")).toString();
        review.evaluationError = status.value(QLatin1String("evaluationError")).toString();
        return review;
    });
}

QFuture<Result<UserIdentity>> KubeClient::whoAmI() {
    // authentication.k8s.io/v1 since Kubernetes 1.28; older servers have v1beta1.
    struct State {
        QPromise<Result<UserIdentity>> promise;
    };
    auto st = std::make_shared<State>();
    auto future = st->promise.future();
    st->promise.start();
    auto attempt = std::make_shared<std::function<void(int)>>();
    static const QStringList versions = {QStringLiteral("v1"), QStringLiteral("v1beta1")};
    std::weak_ptr<Private> weak = d;
    *attempt = [st, attempt_w = std::weak_ptr<std::function<void(int)>>(attempt), weak](int i) {
        auto dd = weak.lock();
        if (!dd) {
            st->promise.addResult(cancelledError(QStringLiteral("whoami")));
            st->promise.finish();
            return;
        }
        const QString apiVersion = QStringLiteral("authentication.k8s.io/") + versions[i];
        KubeRequest req;
        req.method = HttpMethod::Post;
        req.path = QStringLiteral("/apis/") + apiVersion + QStringLiteral("/selfsubjectreviews");
        req.body = QJsonDocument(QJsonObject{{QStringLiteral("apiVersion"), apiVersion},
                                             {QStringLiteral("kind"), QStringLiteral("SelfSubjectReview")}})
                       .toJson(QJsonDocument::Compact);
        req.retrySafe = true;
        auto again = attempt_w.lock();
        dd->submit(std::move(req), [st, again, i](Result<KubeResponse> r) {
            if (!r && r.error().kind == Error::Kind::NotFound && i + 1 < versions.size() && again) {
                (*again)(i + 1);
                return;
            }
            auto obj = toObject(std::move(r));
            if (!obj) {
                st->promise.addResult(obj.error());
            } else {
                const QJsonObject info = obj->value(QLatin1String("status"))
                                             .toObject()
                                             .value(QLatin1String("userInfo"))
                                             .toObject();
                UserIdentity id;
                id.username = info.value(QLatin1String("username")).toString();
                id.uid = info.value(QLatin1String("uid")).toString();
                for (const QJsonValue &g : info.value(QLatin1String("groups")).toArray())
                    id.groups << g.toString();
                const QJsonObject extra = info.value(QLatin1String("extra")).toObject();
                for (auto it = extra.begin(); it != extra.end(); ++it)
                    for (const QJsonValue &v : it.value().toArray())
                        id.extra[it.key()] << v.toString();
                st->promise.addResult(id);
            }
            st->promise.finish();
        });
    };
    (*attempt)(0);
    // The attempt function lives as long as a request holds it.
    return future;
}

} // namespace gq
