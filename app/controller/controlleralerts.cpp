#include "app/controller/controlleralerts.h"

#include "services/controller/budgetenforcer.h"
#include "core/domain/clock.h"
#include "core/net/httptransport.h"
#include "core/kube/informer.h"
#include "services/controller/metricsregistry.h"

#include <QLoggingCategory>

#include <algorithm>

namespace gq {

Q_LOGGING_CATEGORY(lcAlerts, "gq.controller.alerts")

namespace {

constexpr int kAlertIntervalMs = 30 * 1000;

// The rules see one clamp notice per GPU resource the enforcer changed.
QList<ClampNotice> notices(const ClampEvent &event) {
    QList<ClampNotice> out;
    const QJsonObject &keys = event.after.isEmpty() ? event.before : event.after;
    for (auto it = keys.begin(); it != keys.end(); ++it) {
        ClampNotice n;
        n.ns = event.ns;
        n.resource = it.key();
        n.applied = event.kind != ClampEvent::Kind::Lifted;
        n.at = event.at;
        n.before = event.before.value(it.key()).toString();
        n.after = event.after.value(it.key()).toString();
        n.reason = event.reason;
        out.append(n);
    }
    return out;
}

} // namespace

ControllerAlerts::ControllerAlerts(const AlertConfig &config, const AlertRecipients &recipients,
                                   std::shared_ptr<MetricsRegistry> metrics,
                                   std::shared_ptr<KubeClient> client, QObject *parent)
    : QObject(parent)
    , m_metrics(std::move(metrics))
    , m_client(std::move(client))
    , m_transport(std::make_shared<HttpTransport>())
    , m_service(nullptr, m_transport, config, recipients)
    , m_downSeconds(config.rules.databaseDownSeconds) {
    m_timer.setInterval(kAlertIntervalMs);
    m_dueTimer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ControllerAlerts::tick);
    connect(&m_dueTimer, &QTimer::timeout, this, &ControllerAlerts::tick);
    connect(&m_service, &AlertService::delivered, this, [this](const AlertDelivery &d) {
        const char *name =
            d.state == AlertDelivery::State::Sent ? metricnames::kAlertsSent : metricnames::kAlertsFailed;
        m_metrics->add(QString::fromLatin1(name), {{QStringLiteral("channel"), channelName(d.channel)}});
    });
    connect(&m_service, &AlertService::tickFinished, this, [this](const AlertTickReport &report) {
        const QString error = report.error ? report.error->message : QString();
        if (error != m_lastError && !error.isEmpty())
            qCWarning(lcAlerts) << "alerts:" << error;
        m_lastError = error;
    });
}

ControllerAlerts::~ControllerAlerts() = default;

void ControllerAlerts::setStore(UsageStore *store) {
    m_service.setStore(store);
    m_haveStore = store != nullptr;
    if (store && m_running)
        QTimer::singleShot(0, this, &ControllerAlerts::tick); // record what was sent meanwhile
}

void ControllerAlerts::setDatabaseDown(std::optional<qint64> since, const QString &error) {
    m_service.setDatabaseDown(since, error);
    m_dueTimer.stop();
    if (!since)
        return;
    // The rule fires once the outage is longer than databaseDownAfter: tick then, not
    // up to a whole interval later (a longer wait is the interval's anyway).
    const qint64 dueInMs = (*since + m_downSeconds + 1 - Clock::system().nowSecs()) * 1000;
    m_dueTimer.start(int(std::clamp<qint64>(dueInMs, 0, kAlertIntervalMs)));
}

void ControllerAlerts::addClamp(const ClampEvent &event) {
    for (const ClampNotice &n : notices(event))
        m_service.addClampEvent(n);
}

void ControllerAlerts::addUserEmail(const QString &user, const QString &email) {
    m_service.recipients().addUser(user, email);
}

void ControllerAlerts::start(Informer *pods) {
    if (m_running)
        return;
    m_running = true;
    m_pods = pods;
    m_namespaces = std::make_unique<NamespaceInformer>(m_client);
    connect(m_namespaces.get(), &Informer::changed, this, &ControllerAlerts::onNamespacesChanged);
    connect(m_namespaces.get(), &Informer::synced, this, [this] {
        onNamespacesChanged(m_namespaces->keys(), {}, {});
        tick();
    });
    if (pods) // the recorder hears of the pods first (its connection is older): emails are in
        connect(pods, &Informer::synced, this, &ControllerAlerts::tick);
    m_namespaces->start();
    m_timer.start();
    QTimer::singleShot(0, this, &ControllerAlerts::tick);
}

bool ControllerAlerts::clusterRead() const {
    return m_namespaces && m_namespaces->hasSynced() && (!m_pods || m_pods->hasSynced());
}

void ControllerAlerts::stop() {
    m_running = false;
    m_timer.stop();
    m_dueTimer.stop();
    if (m_namespaces) {
        disconnect(m_namespaces.get(), nullptr, this, nullptr);
        m_namespaces->stop();
    }
    if (m_pods)
        disconnect(m_pods, nullptr, this, nullptr);
}

void ControllerAlerts::tick() {
    if (!m_running)
        return;
    // Without a store only "database unwritable" can fire, and it goes to the admins of
    // the configuration: no need to wait for the cluster.
    if (m_haveStore && !clusterRead())
        return;
    m_service.tick(Clock::system().nowSecs());
}

void ControllerAlerts::onNamespacesChanged(const QStringList &added, const QStringList &updated,
                                           const QStringList &deleted) {
    AlertRecipients &r = m_service.recipients();
    for (const QStringList *keys : {&added, &updated})
        for (const QString &name : *keys)
            if (const auto ns = m_namespaces->namespaceInfo(name))
                r.setNamespaceAnnotation(ns->name, ns->alertRecipients);
    for (const QString &name : deleted)
        r.setNamespaceAnnotation(name, QString());
}

} // namespace gq
