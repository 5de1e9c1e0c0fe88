#include "controllerparts.h"

#include "admissionwebhook.h"
#include "alertservice.h"
#include "boostreconciler.h"
#include "budgetenforcer.h"
#include "clock.h"
#include "controllerruntime.h"
#include "httptransport.h"
#include "idlerecorder.h"
#include "informer.h"
#include "kubeclient.h"
#include "leaderelector.h"
#include "ledgerwriter.h"
#include "metricsregistry.h"
#include "selfservice.h"
#include "usagerecorder.h"
#include "usagestore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QLoggingCategory>

namespace gq {

Q_LOGGING_CATEGORY(lcParts, "gq.controller")

namespace {

constexpr int kBoostIntervalMs = 30 * 1000;
constexpr int kAlertIntervalMs = 30 * 1000;
constexpr int kMetricsIntervalMs = 5 * 1000;

// selfService: {perUserMetrics: bool}. One error per problem, naming key and line.
Result<bool> parseSelfService(const YamlNode &node) {
    if (node.isNull())
        return false;
    auto problem = [](const QString &field, const QString &message, const YamlNode &at) {
        Error e = Error::make(Error::Kind::Config, message, field);
        setErrorPosition(e, at);
        return e;
    };
    if (!node.isMap())
        return problem(QStringLiteral("selfService"),
                       QStringLiteral("must be a map, e.g. {perUserMetrics: false}"), node);
    bool perUser = false;
    for (const YamlNode::Entry &entry : node.entries()) {
        if (entry.key != QLatin1String("perUserMetrics"))
            return problem(QStringLiteral("selfService.") + entry.key,
                           QStringLiteral("unknown key (known: perUserMetrics)"), entry.value);
        const QString v = entry.value.text();
        if (!entry.value.isScalar() || (v != QLatin1String("true") && v != QLatin1String("false")))
            return problem(QStringLiteral("selfService.perUserMetrics"),
                           QStringLiteral("must be true or false"), entry.value);
        perUser = v == QLatin1String("true");
    }
    return perUser;
}

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

ControllerParts::ControllerParts(ControllerRuntime &runtime)
    : m_rt(runtime) {
    m_enforceTimer.setInterval(int(std::max<qint64>(1, runtime.config().enforce.intervalSeconds) * 1000));
    m_boostTimer.setInterval(kBoostIntervalMs);
    m_alertTimer.setInterval(kAlertIntervalMs);
    m_metricsTimer.setInterval(kMetricsIntervalMs);
    connect(&m_enforceTimer, &QTimer::timeout, this, &ControllerParts::tickEnforcer);
    connect(&m_boostTimer, &QTimer::timeout, this, &ControllerParts::tickBoosts);
    connect(&m_alertTimer, &QTimer::timeout, this, &ControllerParts::tickAlerts);
    connect(&m_metricsTimer, &QTimer::timeout, this, &ControllerParts::feedMetrics);
}

ControllerParts::~ControllerParts() {
    m_webhookServer.stop(); // before the webhook its handlers call
}

Result<std::unique_ptr<ControllerParts>> ControllerParts::create(ControllerRuntime &runtime) {
    std::unique_ptr<ControllerParts> parts(new ControllerParts(runtime));
    const ControllerConfig &cfg = runtime.config();
    auto alerts = parseAlertConfig(cfg.alerts);
    if (!alerts) {
        Error e = alerts.error();
        e.kind = Error::Kind::Config; // a problem in the file: exit 2, like the runtime's own keys
        return e;
    }
    parts->m_alertConfig = *alerts;
    if (!alerts->recipientsFile.isEmpty()) {
        auto recipients = AlertRecipients::loadFile(alerts->recipientsFile);
        if (!recipients) {
            Error e = recipients.error();
            e.kind = Error::Kind::Config;
            e.field = QStringLiteral("alerts.recipientsFile");
            return e;
        }
        parts->m_recipients = *recipients;
    }
    auto perUser = parseSelfService(cfg.selfService);
    if (!perUser)
        return perUser.error();
    parts->m_perUserMetrics = *perUser;
    auto idle = parseIdleRecorderConfig(cfg.metrics, cfg.idle, cfg.fileName);
    if (!idle)
        return idle.error();
    if (*idle)
        parts->buildIdleRecorder(**idle);

    // Self-service and /metrics answer on every replica, on `listen`. The reviews go
    // through a client of their own (the runtime's exists only after start()).
    auto kube = controllerClusterClient(cfg.cluster);
    if (!kube)
        return kube.error();
    parts->m_metrics = std::make_shared<MetricsRegistry>();
    registerControllerMetrics(*parts->m_metrics);
    SelfServiceOptions o;
    o.openStore = [url = cfg.database, weights = cfg.weights, zone = cfg.timeZone] {
        UsageStore::Options so;
        so.readOnly = true;
        so.weights = weights;
        so.rollupZone = zone;
        return UsageStore::open(url, so);
    };
    o.kube = *kube;
    o.metrics = parts->m_metrics;
    o.perUserMetrics = parts->m_perUserMetrics;
    parts->m_self = std::make_unique<SelfService>(std::move(o));
    SelfService *self = parts->m_self.get();
    runtime.addRoute("GET", QStringLiteral("/quota/status"),
                     [self](const httpd::Request &r) { return self->statusEndpoint(r); });
    runtime.addRoute("GET", QStringLiteral("/quota"),
                     [self](const httpd::Request &r) { return self->pageEndpoint(r); });
    runtime.addRoute("GET", QStringLiteral("/metrics"),
                     [self](const httpd::Request &r) { return self->metricsEndpoint(r); });
    return parts;
}

Result<void> ControllerParts::start() {
    const ControllerConfig &cfg = m_rt.config();
    if (cfg.webhook.configured) {
        UsageStore::Options so;
        so.weights = cfg.weights;
        so.rollupZone = cfg.timeZone;
        AdmissionWebhook::Options wo;
        wo.userLabel = cfg.userLabel;
        auto hook = AdmissionWebhook::open(cfg.database, so, wo);
        if (!hook)
            return Error::make(hook.error().kind,
                               QStringLiteral("webhook: the usage database: %1").arg(hook.error().message));
        m_webhook = std::move(*hook);
        auto address = httpd::parseListenAddress(cfg.webhook.listen, QStringLiteral("webhook.listen"));
        if (!address)
            return address.error();
        auto tls = httpd::TlsConfig::fromFiles(cfg.webhook.tlsCert, cfg.webhook.tlsKey);
        if (!tls)
            return tls.error();
        m_webhook->registerRoutes(m_webhookServer);
        if (auto port = m_webhookServer.start(*address, *tls); !port)
            return port.error();
        qCInfo(lcParts) << "admission webhook on" << cfg.webhook.listen;
    }
    LedgerWriter *writer = m_rt.writer();
    connect(writer, &LedgerWriter::databaseReady, this, &ControllerParts::onDatabaseReady);
    connect(writer, &LedgerWriter::databaseLost, this, &ControllerParts::onDatabaseLost);
    if (writer->databaseAvailable())
        onDatabaseReady();
    else
        m_databaseDownSince = QDateTime::currentSecsSinceEpoch();
    m_metricsTimer.start();
    if (!cfg.leaderElection.enabled) {
        lead();
        return {};
    }
    LeaderElector::Options lo;
    lo.ns = cfg.leaderElection.namespaceName;
    lo.name = cfg.leaderElection.name;
    lo.identity = qEnvironmentVariable("POD_NAME");
    m_elector = std::make_unique<LeaderElector>(m_rt.client(), lo);
    connect(m_elector.get(), &LeaderElector::becameLeader, this, &ControllerParts::lead);
    connect(m_elector.get(), &LeaderElector::lostLeadership, this, [this] {
        if (!m_leading)
            return;
        qCWarning(lcParts) << "lost the Lease: exiting so a replica never acts on stale leadership";
        QCoreApplication::exit(1);
    });
    return m_elector->start();
}

void ControllerParts::lead() {
    if (m_leading)
        return;
    m_leading = true;
    qCInfo(lcParts) << "leading: recording, enforcing, boosts and alerts";
    m_rt.startRecording();
    if (m_rt.config().enforce.enabled)
        m_enforceTimer.start();
    m_boostTimer.start();
    if (m_alertConfig && m_alertConfig->enabled)
        m_alertTimer.start();
    if (m_idle)
        m_idle->start();
    tickEnforcer();
    tickBoosts();
}

void ControllerParts::onDatabaseReady() {
    if (m_alerts)
        m_alerts->setDatabaseDown(std::nullopt);
    m_databaseDownSince = 0;
    if (m_store)
        return;
    const ControllerConfig &cfg = m_rt.config();
    UsageStore::Options so;
    so.weights = cfg.weights;
    so.rollupZone = cfg.timeZone;
    auto store = UsageStore::open(cfg.database, so);
    if (!store) {
        qCWarning(lcParts) << "the leader's parts cannot open the usage database:" << store.error().message;
        return;
    }
    m_store = std::move(*store);
    buildLeaderParts();
}

void ControllerParts::onDatabaseLost() {
    if (!m_databaseDownSince)
        m_databaseDownSince = QDateTime::currentSecsSinceEpoch();
    // Parts hold references to the store: they go first. The alert service goes too;
    // its "database unwritable" rule is fed again when it is rebuilt.
    m_enforcer.reset();
    m_boosts.reset();
    m_alerts.reset();
    m_store.reset();
}

void ControllerParts::buildLeaderParts() {
    const ControllerConfig &cfg = m_rt.config();
    m_enforcer = std::make_unique<BudgetEnforcer>(*m_store, m_rt.client());
    m_enforcer->addListener([this](const ClampEvent &e) { onClamp(e); });
    connect(m_enforcer.get(), &BudgetEnforcer::finished, this, [](const EnforceReport &report) {
        for (const QString &error : report.errors)
            qCWarning(lcParts) << "enforce:" << error;
    });
    BoostReconciler::Options bo;
    bo.actor = QStringLiteral("gpuquota-controller");
    m_boosts = std::make_unique<BoostReconciler>(*m_store, m_rt.client(), bo);
    connect(m_boosts.get(), &BoostReconciler::transitionMade, this,
            [](const BoostTransition &t) { qCInfo(lcParts).noquote() << "boost" << t.line(); });
    connect(m_boosts.get(), &BoostReconciler::finished, this, [this](const ReconcileReport &report) {
        if (!report.error)
            m_lastReconcile = QDateTime::currentSecsSinceEpoch();
    });
    if (m_alertConfig && m_alertConfig->enabled) {
        if (!m_transport)
            m_transport = std::make_shared<HttpTransport>();
        m_alerts = std::make_unique<AlertService>(*m_store, m_transport, *m_alertConfig, m_recipients);
        if (auto r = m_alerts->loadSecrets(); !r) {
            qCWarning(lcParts) << "alerts off:" << r.error().message;
            m_alerts.reset();
        } else {
            connect(m_alerts.get(), &AlertService::tickFinished, this, [this](const AlertTickReport &report) {
                if (report.error)
                    qCWarning(lcParts) << "alerts:" << report.error->message;
                m_metrics->add(QString::fromLatin1(metricnames::kAlertsSent), {}, report.sent);
                m_metrics->add(QString::fromLatin1(metricnames::kAlertsFailed), {}, report.failed);
            });
        }
    }
    Q_UNUSED(cfg)
}

// Idle GPU spans into idle_spans (on the leader), and to the idle-GPU alert.
void ControllerParts::buildIdleRecorder(const IdleRecorderConfig &config) {
    const ControllerConfig &cfg = m_rt.config();
    UsageStore::Options so;
    so.weights = cfg.weights;
    so.rollupZone = cfg.timeZone;
    m_idle = std::make_unique<IdleRecorder>(config, cfg.database, so);
    connect(m_idle.get(), &IdleRecorder::recorded, this, [this](const IdleRecordReport &report) {
        if (report.error) {
            qCWarning(lcParts) << "idle recorder:" << report.error->message;
            return;
        }
        if (!m_alerts)
            return;
        UsageRecorder *recorder = m_rt.recorder();
        m_alerts->setIdleHolds(
            idlespans::idleHolds(report.idle, [recorder](const QString &ns, const QString &pod) {
                const auto info = recorder ? recorder->podInformer().pod(ns, pod) : std::nullopt;
                return info ? info->user : QString();
            }));
    });
}

void ControllerParts::tickEnforcer() {
    if (m_leading && m_enforcer && m_rt.config().enforce.enabled && !m_enforcer->isRunning())
        m_enforcer->tick(Clock::system().nowSecs());
}

void ControllerParts::tickBoosts() {
    if (m_leading && m_boosts && !m_boosts->isRunning())
        m_boosts->start(Clock::system().nowSecs());
}

void ControllerParts::tickAlerts() {
    if (!m_leading || !m_alerts)
        return;
    if (m_databaseDownSince)
        m_alerts->setDatabaseDown(m_databaseDownSince, m_rt.writer()->lastError());
    m_alerts->tick(Clock::system().nowSecs());
}

void ControllerParts::onClamp(const ClampEvent &event) {
    m_clampsActive += event.kind == ClampEvent::Kind::Applied  ? 1
                      : event.kind == ClampEvent::Kind::Lifted ? -1
                                                               : 0;
    m_clampsActive = std::max(m_clampsActive, 0);
    qCInfo(lcParts).noquote() << event.line();
    if (m_alerts)
        for (const ClampNotice &n : notices(event))
            m_alerts->addClampEvent(n);
}

void ControllerParts::feedMetrics() {
    const ControllerRuntime::Figures f = m_rt.figures();
    m_metrics->set(QString::fromLatin1(metricnames::kSpoolDepth), {}, double(f.spoolDepth));
    m_metrics->set(QString::fromLatin1(metricnames::kClampsActive), {}, m_clampsActive);
    if (m_lastReconcile)
        m_metrics->set(QString::fromLatin1(metricnames::kReconcileLag), {},
                       double(QDateTime::currentSecsSinceEpoch() - m_lastReconcile));
}

void ControllerParts::shutdown(std::function<void()> done) {
    m_webhookServer.stop();
    if (!m_elector || !m_elector->isLeader()) {
        done();
        return;
    }
    auto finished = std::make_shared<bool>(false);
    auto finish = [finished, done] {
        if (*finished)
            return;
        *finished = true;
        done();
    };
    connect(m_elector.get(), &LeaderElector::releaseFinished, this, finish);
    QTimer::singleShot(2000, this, finish);
    m_leading = false; // the lostLeadership the release emits is no reason to exit 1
    m_elector->release();
}

} // namespace gq
