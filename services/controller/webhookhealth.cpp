#include "services/controller/webhookhealth.h"

#include "services/controller/metricsregistry.h"
#include "core/usage/storesettings.h"
#include "services/controller/storethread.h"

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
    , m_publishMs(publishMs)
    , m_db(std::make_unique<StoreThread>(
          [url = std::move(dbUrl), storeOptions] { return UsageStore::open(url, storeOptions); }))
    , m_thread([this] { loop(); }) {}

ReviewBeacon::~ReviewBeacon() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void ReviewBeacon::loop() {
    qint64 published = 0;
    QString lastError;
    std::unique_lock lock(m_mutex);
    while (!m_wake.wait_for(lock, std::chrono::milliseconds(m_publishMs), [this] { return m_stop; })) {
        const qint64 last = m_health.lastReview();
        if (last <= published)
            continue;
        lock.unlock();
        const Result<void> r =
            m_db->run<void>([this, last](UsageStore &store) { return publish(store, m_replica, last); });
        lock.lock();
        if (r)
            published = last;
        const QString error = r ? QString() : r.error().message;
        if (!error.isEmpty() && error != lastError)
            qCWarning(lcWebhookHealth) << "cannot record the webhook's last review:" << error;
        lastError = error;
    }
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
