#include "admissionwebhook.h"

#include "clampplan.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QThread>

#include <cmath>

namespace gq {

namespace {

httpd::Response malformed(const QString &why) {
    return httpd::Response::text(400, QStringLiteral("malformed AdmissionReview: %1\n").arg(why));
}

httpd::Response answer(const QString &uid, bool allowed, int code = 0, const QString &message = {}) {
    QJsonObject response{{QStringLiteral("uid"), uid}, {QStringLiteral("allowed"), allowed}};
    if (!message.isEmpty())
        response.insert(QStringLiteral("status"),
                        QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}});
    const QJsonObject review{{QStringLiteral("apiVersion"), QStringLiteral("admission.k8s.io/v1")},
                             {QStringLiteral("kind"), QStringLiteral("AdmissionReview")},
                             {QStringLiteral("response"), response}};
    return httpd::Response::json(200, QJsonDocument(review));
}

QHash<QString, QString> labelsOf(const QJsonObject &pod) {
    QHash<QString, QString> out;
    const QJsonObject labels =
        pod.value(QLatin1String("metadata")).toObject().value(QLatin1String("labels")).toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it)
        out.insert(it.key(), it.value().toString());
    return out;
}

} // namespace

httpd::Response AdmissionWebhook::review(const QByteArray &body, const UsageStore &store, qint64 now,
                                         const Options &options) {
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &err);
    if (err.error != QJsonParseError::NoError)
        return malformed(QStringLiteral("not JSON (%1 at offset %2)").arg(err.errorString()).arg(err.offset));
    if (!doc.isObject())
        return malformed(QStringLiteral("not a JSON object"));
    const QJsonObject root = doc.object();
    if (root.value(QLatin1String("kind")).toString() != QLatin1String("AdmissionReview"))
        return malformed(QStringLiteral("kind must be AdmissionReview"));
    if (root.value(QLatin1String("apiVersion")).toString() != QLatin1String("admission.k8s.io/v1"))
        return malformed(
            QStringLiteral("apiVersion must be admission.k8s.io/v1 (admissionReviewVersions: [v1])"));
    if (!root.value(QLatin1String("request")).isObject())
        return malformed(QStringLiteral("request missing"));
    const QJsonObject request = root.value(QLatin1String("request")).toObject();
    const QString uid = request.value(QLatin1String("uid")).toString();
    if (uid.isEmpty())
        return malformed(QStringLiteral("request.uid missing"));

    const QJsonObject kind = request.value(QLatin1String("kind")).toObject();
    const bool isPod = kind.value(QLatin1String("kind")).toString() == QLatin1String("Pod") &&
                       kind.value(QLatin1String("group")).toString().isEmpty();
    if (!isPod || request.value(QLatin1String("operation")).toString() != QLatin1String("CREATE"))
        return answer(uid, true);
    if (!request.value(QLatin1String("object")).isObject())
        return malformed(QStringLiteral("request.object missing for a CREATE"));
    const QJsonObject pod = request.value(QLatin1String("object")).toObject();
    QString ns = request.value(QLatin1String("namespace")).toString();
    if (ns.isEmpty())
        ns = pod.value(QLatin1String("metadata")).toObject().value(QLatin1String("namespace")).toString();

    double gpus = 0;
    const QHash<QString, qint64> held = clampplan::gpusInUse({pod});
    for (auto it = held.begin(); it != held.end(); ++it)
        gpus += double(it.value()) * store.weights().weight(it.key().mid(9)); // drop "requests."
    if (gpus <= 0)
        return answer(uid, true);

    double hours = options.defaultHours;
    const QJsonValue annotated = pod.value(QLatin1String("metadata"))
                                     .toObject()
                                     .value(QLatin1String("annotations"))
                                     .toObject()
                                     .value(kHoursAnnotation);
    const QJsonValue deadline =
        pod.value(QLatin1String("spec")).toObject().value(QLatin1String("activeDeadlineSeconds"));
    if (annotated.isString()) {
        bool ok = false;
        hours = annotated.toString().toDouble(&ok);
        if (!ok || !std::isfinite(hours) || hours <= 0)
            return answer(uid, false, 400,
                          QStringLiteral("annotation %1: \"%2\" is not a positive number of hours")
                              .arg(kHoursAnnotation, annotated.toString()));
    } else if (deadline.isDouble() && deadline.toDouble() > 0) {
        hours = deadline.toDouble() / 3600.0;
    }

    const QString user = podUser(labelsOf(pod), ns, options.userLabel);
    AdmissionRequest ask;
    ask.kind = AdmissionRequest::Kind::NewJob;
    ask.gpus = gpus;
    ask.hours = hours;
    auto decision = store.check(user, QString(), ask, now);
    if (!decision)
        return httpd::Response::text(500,
                                     QStringLiteral("usage database: %1\n").arg(decision.error().message));
    if (decision->allowed())
        return answer(uid, true);
    return answer(uid, false, 403, decision->message);
}

// The store's thread: reviews arrive from the server's handler threads by a blocking
// queued call, so the store is only ever used where it was opened.
struct AdmissionWebhook::Worker final : QObject {
    std::unique_ptr<UsageStore> store;
};

Result<std::unique_ptr<AdmissionWebhook>>
AdmissionWebhook::open(const QString &dbUrl, UsageStore::Options storeOptions, Options options) {
    std::unique_ptr<AdmissionWebhook> w(new AdmissionWebhook);
    w->m_options = options;
    w->m_thread = std::make_unique<QThread>();
    w->m_thread->setObjectName(QStringLiteral("gq-webhook-db"));
    w->m_worker = new Worker;
    w->m_worker->moveToThread(w->m_thread.get());
    w->m_thread->start();
    storeOptions.cacheChecks = true;
    std::optional<Error> failure;
    Worker *worker = w->m_worker;
    QMetaObject::invokeMethod(
        worker,
        [worker, &dbUrl, &storeOptions, &failure] {
            auto s = UsageStore::open(dbUrl, storeOptions);
            if (s)
                worker->store = std::move(*s);
            else
                failure = s.error();
        },
        Qt::BlockingQueuedConnection);
    if (failure)
        return *failure; // the destructor stops the thread
    return w;
}

AdmissionWebhook::~AdmissionWebhook() {
    if (!m_thread)
        return;
    Worker *worker = m_worker;
    // The store is closed on its own thread; the worker goes once that thread has ended.
    QMetaObject::invokeMethod(
        worker, [worker] { worker->store.reset(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete worker;
}

httpd::Response AdmissionWebhook::handle(const httpd::Request &request) {
    httpd::Response r;
    Worker *worker = m_worker;
    const Options &options = m_options;
    QMetaObject::invokeMethod(
        worker,
        [&r, &request, worker, &options] {
            r = review(request.body, *worker->store, options.clock->nowSecs(), options);
        },
        Qt::BlockingQueuedConnection);
    return r;
}

void AdmissionWebhook::registerRoutes(httpd::HttpServer &server) {
    server.route("POST", kPath, [this](const httpd::Request &request) { return handle(request); });
}

} // namespace gq
