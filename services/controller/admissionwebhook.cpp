#include "services/controller/admissionwebhook.h"

#include "services/controller/clampplan.h"
#include "services/controller/logthrottle.h"
#include "services/controller/podtrust.h"
#include "services/usage/blockinglane.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QLoggingCategory>

#include <cmath>
#include <variant>

Q_LOGGING_CATEGORY(lcWebhook, "gq.controller.webhook")

namespace gq {

namespace {

// The API server shows a webhook's error text to whoever created the pod: the
// database's host, name and user stay in the controller's log (rate-limited, no
// secrets in the message), the caller learns only that the check is unavailable.
httpd::Response unavailable(const Error &error) {
    static LogThrottle throttle;
    qint64 suppressed = 0;
    if (throttle.allow(suppressed))
        qCWarning(lcWebhook).noquote()
            << "admission review answered 500, the usage database failed:" << error.toString()
            << (suppressed > 0 ? QStringLiteral("(%1 more since the last line)").arg(suppressed) : QString());
    return httpd::Response::text(500,
                                 QStringLiteral("the GPU budget check is unavailable (usage database)\n"));
}

httpd::Response malformed(const QString &why) {
    return httpd::Response::text(400, QStringLiteral("malformed AdmissionReview: %1\n").arg(why));
}

QHash<QString, QString> labelsOf(const QJsonObject &pod) {
    QHash<QString, QString> out;
    const QJsonObject labels =
        pod.value(QLatin1String("metadata")).toObject().value(QLatin1String("labels")).toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it)
        out.insert(it.key(), it.value().toString());
    return out;
}

// What a review asks of the budget, once everything that needs no database is known.
struct Ask {
    QString uid;
    QString user;
    bool labelled = false; // user is the pod's label, not its namespace
    QString requester;     // request.userInfo.username
    QString warning;       // the trust rules' warning (trust.mode warn)
    std::optional<PodOwner> owner;
    AdmissionRequest request;
};

// The review read and answered as far as it can be without the database: a final
// answer (malformed, not a GPU pod CREATE, a bad annotation), or the question to ask.
std::variant<httpd::Response, Ask> prepare(const QByteArray &body, const ResourceWeights &weights,
                                           const AdmissionWebhook::Options &options) {
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
    if (isPod && request.value(QLatin1String("operation")).toString() == QLatin1String("UPDATE"))
        return AdmissionWebhook::reviewPodUpdate(request, options);
    if (!isPod || request.value(QLatin1String("operation")).toString() != QLatin1String("CREATE"))
        return admissionAnswer(uid, true);
    if (!request.value(QLatin1String("object")).isObject())
        return malformed(QStringLiteral("request.object missing for a CREATE"));
    const QJsonObject pod = request.value(QLatin1String("object")).toObject();
    QString ns = request.value(QLatin1String("namespace")).toString();
    if (ns.isEmpty())
        ns = pod.value(QLatin1String("metadata")).toObject().value(QLatin1String("namespace")).toString();

    double gpus = 0;
    const QHash<QString, qint64> held = clampplan::gpusInUse({pod});
    for (auto it = held.begin(); it != held.end(); ++it)
        gpus += double(it.value()) * weights.weight(it.key().mid(9)); // drop "requests."
    if (options.draGpus)
        gpus += options.draGpus(ns, pod);
    if (gpus <= 0)
        return admissionAnswer(uid, true);
    // A pod pinned to a GPU model (nodeSelector on the label the intervals record) needs
    // weighted GPU-hours like the usage it will produce; unpinned, the model is not
    // known before scheduling and the request counts 1 per GPU (its usage is weighed).
    const QString model = pod.value(QLatin1String("spec"))
                              .toObject()
                              .value(QLatin1String("nodeSelector"))
                              .toObject()
                              .value(QLatin1String("nvidia.com/gpu.product"))
                              .toString();
    if (!model.isEmpty())
        gpus *= weights.modelWeight(model);

    const Result<double> hours = expectedHours(pod, options.defaultHours, options.trust);
    if (!hours)
        return admissionAnswer(uid, false, 400, hours.error().message);

    Ask ask;
    ask.uid = uid;
    const QHash<QString, QString> labels = labelsOf(pod);
    const LabelVerdict trust = checkUserLabel(Creator::fromReview(request), labels.value(options.userLabel),
                                              options.userLabel, options.trust, options.identity);
    if (!trust.allowed)
        return admissionAnswer(uid, false, 403, trust.warning);
    ask.warning = trust.warning;
    ask.user = podUser(labels, ns, options.userLabel);
    ask.labelled = !labels.value(options.userLabel).trimmed().isEmpty();
    ask.requester =
        request.value(QLatin1String("userInfo")).toObject().value(QLatin1String("username")).toString();
    ask.owner = PodOwner::of(pod, ns);
    ask.request.kind = AdmissionRequest::Kind::NewJob;
    ask.request.gpus = gpus;
    ask.request.hours = *hours;
    return ask;
}

// The denial text: the checker's message, whose budget it is, and who the person
// creating the pod is as a budget user when the identity rules changed their name.
QString denial(const Ask &ask, const Decision &decision, const AdmissionWebhook::Options &options) {
    QString text = decision.message + QStringLiteral(" for user %1").arg(ask.user);
    if (!ask.labelled)
        text += QStringLiteral(" (no %1 label: the namespace)").arg(options.userLabel);
    if (ask.requester.isEmpty() || ask.requester.startsWith(QLatin1String("system:")))
        return text; // components and ServiceAccounts create pods for someone else
    const Result<IdentityMapping> you = mapIdentity(ask.requester, options.identity);
    if (!you)
        return text + QStringLiteral("; %1").arg(you.error().message);
    if (you->subject != ask.user && you->rule() != QLatin1String("as-is"))
        text += QStringLiteral("; you are %1").arg(you->explanation);
    return text;
}

httpd::Response decide(const Ask &ask, const Result<Decision> &decision,
                       const AdmissionWebhook::Options &options) {
    if (!decision)
        return unavailable(decision.error());
    if (decision->allowed())
        return admissionAnswer(ask.uid, true, 0, {}, ask.warning);
    const QString text = denial(ask, *decision, options);
    if (ask.owner && options.onOwnedDenial)
        options.onOwnedDenial(*ask.owner, text);
    return admissionAnswer(ask.uid, false, 403, text);
}

} // namespace

httpd::Response AdmissionWebhook::review(const QByteArray &body, const UsageStore &store, qint64 now,
                                         const Options &options) {
    auto prepared = prepare(body, store.weights(), options);
    if (auto *done = std::get_if<httpd::Response>(&prepared))
        return *done;
    const Ask &ask = std::get<Ask>(prepared);
    return decide(ask, store.check(ask.user, QString(), ask.request, now), options);
}

AdmissionWebhook::AdmissionWebhook(QString dbUrl, UsageStore::Options storeOptions, Options options)
    : m_options(options)
    , m_weights(storeOptions.weights) {
    storeOptions.cacheChecks = true;
    m_db = std::make_unique<BlockingLane>(
        [url = std::move(dbUrl), storeOptions] { return UsageStore::open(url, storeOptions); },
        QStringLiteral("gq-webhook-db"));
}

AdmissionWebhook::~AdmissionWebhook() = default;

httpd::Response AdmissionWebhook::handle(const httpd::Request &request) {
    auto prepared = prepare(request.body, m_weights, m_options);
    if (auto *done = std::get_if<httpd::Response>(&prepared))
        return *done;
    const Ask &ask = std::get<Ask>(prepared);
    const qint64 now = m_options.clock->nowSecs();
    return decide(ask, m_db->run<Decision>([&ask, now](UsageStore &store) {
        return store.check(ask.user, QString(), ask.request, now);
    }),
                  m_options);
}

void AdmissionWebhook::registerRoutes(httpd::HttpServer &server) {
    server.route("POST", kPath, [this](const httpd::Request &request) { return handle(request); });
    server.route("POST", kWorkloadsPath,
                 [this](const httpd::Request &request) { return reviewWorkload(request.body, m_options); });
}

} // namespace gq
