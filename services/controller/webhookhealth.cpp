#include "services/controller/webhookhealth.h"

#include "core/usage/storesettings.h"
#include "services/controller/metricsregistry.h"
#include "services/usage/usagedatabase.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>

namespace gq {

Q_LOGGING_CATEGORY(lcWebhookHealth, "gq.controller.webhook")

namespace {

QString instant(qint64 secs) {
    return QDateTime::fromSecsSinceEpoch(secs, Qt::UTC).toString(Qt::ISODate);
}

const QString kBeaconPrefix = QStringLiteral("webhook_review:");

} // namespace

WebhookHealth::WebhookHealth(std::shared_ptr<MetricsRegistry> metrics, const Clock *clock)
    : m_metrics(std::move(metrics))
    , m_clock(clock) {}

void WebhookHealth::setListening(const QString &address) {
    std::lock_guard lock(m_mutex);
    m_listening = address;
}

void WebhookHealth::setCertificate(const httpd::CertificateInfo &info) {
    {
        std::lock_guard lock(m_mutex);
        m_cert = info;
    }
    if (m_metrics)
        m_metrics->set(QString::fromLatin1(metricnames::kWebhookCertExpiry), {}, double(info.notAfter));
}

httpd::Handler WebhookHealth::instrument(httpd::Handler handler) {
    return [this, handler = std::move(handler)](const httpd::Request &request) {
        httpd::Response response = handler(request);
        record(response);
        return response;
    };
}

WebhookHealth::Outcome WebhookHealth::classify(const httpd::Response &response) {
    if (response.status != 200)
        return Outcome::Error;
    const QJsonObject answer =
        QJsonDocument::fromJson(response.body).object().value(QLatin1String("response")).toObject();
    const QJsonValue allowed = answer.value(QLatin1String("allowed"));
    if (!allowed.isBool())
        return Outcome::Error;
    return allowed.toBool() ? Outcome::Allowed : Outcome::Denied;
}

QString WebhookHealth::outcomeName(Outcome outcome) {
    switch (outcome) {
    case Outcome::Allowed: return QStringLiteral("allowed");
    case Outcome::Denied: return QStringLiteral("denied");
    case Outcome::Error: return QStringLiteral("error");
    }
    return {};
}

void WebhookHealth::record(const httpd::Response &response) {
    const Outcome outcome = classify(response);
    const qint64 now = m_clock->nowSecs();
    ++m_counts[int(outcome)];
    qint64 last = m_lastReview.load();
    while (last < now && !m_lastReview.compare_exchange_weak(last, now)) {
    }
    if (!m_metrics)
        return;
    m_metrics->add(QString::fromLatin1(metricnames::kAdmissionReviews),
                   {{QStringLiteral("result"), outcomeName(outcome)}});
    m_metrics->set(QString::fromLatin1(metricnames::kAdmissionLastReview), {}, double(m_lastReview.load()));
}

QString WebhookHealth::readyzText() const {
    std::lock_guard lock(m_mutex);
    const qint64 now = m_clock->nowSecs();
    QString text = m_listening.isEmpty() ? QStringLiteral("webhook: not listening\n")
                                         : QStringLiteral("webhook: listening on %1\n").arg(m_listening);
    if (m_cert) {
        const qint64 left = m_cert->notAfter - now;
        const QString state = left <= 0                              ? QStringLiteral("EXPIRED")
                              : left < qint64(kCertWarnDays) * 86400 ? QStringLiteral("EXPIRES SOON")
                                                                     : QStringLiteral("valid");
        text += QStringLiteral("webhook certificate: %1 until %2 (%3 days left; names %4)\n")
                    .arg(state, instant(m_cert->notAfter))
                    .arg(std::max<qint64>(left, 0) / 86400)
                    .arg((m_cert->dnsNames + m_cert->ipAddresses).join(QLatin1Char(',')));
    }
    const qint64 last = m_lastReview.load();
    text += QStringLiteral("webhook reviews: %1 allowed, %2 denied, %3 error\n")
                .arg(reviews(Outcome::Allowed))
                .arg(reviews(Outcome::Denied))
                .arg(reviews(Outcome::Error));
    text += last ? QStringLiteral("webhook last review: %1 (%2 s ago)\n").arg(instant(last)).arg(now - last)
                 : QStringLiteral("webhook last review: never\n");
    return text;
}

ReviewBeacon::ReviewBeacon(const WebhookHealth &health, QString dbUrl, UsageStore::Options storeOptions,
                           QString replica, int publishMs)
    : m_health(health)
    , m_replica(std::move(replica))
    , m_lane(std::make_unique<UsageLane>(
          new StoreWorker, QStringLiteral("gq-review-beacon"),
          [url = std::move(dbUrl), storeOptions] { return UsageStore::open(url, storeOptions); }, 1000)) {
    m_timer.setInterval(publishMs);
    QObject::connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
    m_timer.start();
}

ReviewBeacon::~ReviewBeacon() {
    m_jobs.cancel();
    m_lane->shutDown(); // a publish still out finishes first, on the lane
}

void ReviewBeacon::tick() {
    const qint64 last = m_health.lastReview();
    if (m_busy || last <= m_published)
        return;
    m_busy = true;
    m_jobs.runOn(
        m_lane->worker(),
        [w = m_lane->worker(), replica = m_replica, last] {
            return w->withStore([&](UsageStore &store) { return publish(store, replica, last); });
        },
        [this, last](const Result<void> &r) {
            m_busy = false;
            if (r)
                m_published = last;
            const QString error = r ? QString() : r.error().message;
            if (!error.isEmpty() && error != m_lastError)
                qCWarning(lcWebhookHealth) << "cannot record the webhook's last review:" << error;
            m_lastError = error;
        });
}

Result<void> ReviewBeacon::publish(UsageStore &store, const QString &replica, qint64 at) {
    return storesettings::put(store, kBeaconPrefix + replica, QString::number(at),
                              QStringLiteral("recording the webhook's last review"));
}

Result<qint64> ReviewBeacon::latest(UsageStore &store) {
    auto values = storesettings::valuesLike(store, kBeaconPrefix + QLatin1Char('%'),
                                            QStringLiteral("reading the webhooks' last reviews"));
    if (!values)
        return values.error();
    qint64 latest = 0;
    for (const QString &v : std::as_const(*values))
        latest = std::max(latest, v.toLongLong());
    return latest;
}

} // namespace gq
