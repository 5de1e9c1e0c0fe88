#include "controllerparts.h"

#include "admissionwebhook.h"
#include "boostreconciler.h"
#include "budgetenforcer.h"
#include "clock.h"
#include "controlleralerts.h"
#include "controllercheck.h"
#include "controllerruntime.h"
#include "denialevents.h"
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
#include <QLoggingCategory>

#include <utility>

namespace gq {

Q_LOGGING_CATEGORY(lcParts, "gq.controller")

namespace {

constexpr int kBoostIntervalMs = 30 * 1000;
constexpr int kMetricsIntervalMs = 5 * 1000;

UsageStore::Options storeOptions(const ControllerConfig &cfg) {
    UsageStore::Options so;
    so.weights = cfg.weights;
    so.rollupZone = cfg.timeZone;
    return so;
}

} // namespace

ControllerParts::ControllerParts(ControllerRuntime &runtime, const ControllerSetup &setup)
    : m_rt(runtime)
    , m_setup(setup) {
    m_enforceTimer.setInterval(int(std::max<qint64>(1, runtime.config().enforce.intervalSeconds) * 1000));
    m_boostTimer.setInterval(kBoostIntervalMs);
    m_metricsTimer.setInterval(kMetricsIntervalMs);
    connect(&m_enforceTimer, &QTimer::timeout, this, &ControllerParts::tickEnforcer);
    connect(&m_boostTimer, &QTimer::timeout, this, &ControllerParts::tickBoosts);
    connect(&m_metricsTimer, &QTimer::timeout, this, &ControllerParts::feedMetrics);
}

ControllerParts::~ControllerParts() {
    m_webhookServer.stop(); // before the webhook its handlers call
    // Parts that hold the store go before it.
    m_alerts.reset();
    m_enforcer.reset();
    m_boosts.reset();
}

Result<std::unique_ptr<ControllerParts>> ControllerParts::create(ControllerRuntime &runtime,
                                                                 const ControllerSetup &setup) {
    std::unique_ptr<ControllerParts> parts(new ControllerParts(runtime, setup));
    const ControllerConfig &cfg = runtime.config();
    if (setup.alerts.enabled)
        runtime.setUserEmailKey(setup.alerts.userEmailAnnotation);
    if (setup.idle)
        parts->buildIdleRecorder(*setup.idle);

    // Self-service and /metrics answer on every replica, on `listen`. The reviews go
    // through a client of their own (the runtime's exists only after start()).
    auto kube = controllerClusterClient(cfg.cluster);
    if (!kube)
        return kube.error();
    parts->m_metrics = std::make_shared<MetricsRegistry>();
    registerControllerMetrics(*parts->m_metrics);
    SelfServiceOptions o;
    o.openStore = [url = cfg.database, so = storeOptions(cfg)]() mutable {
        so.readOnly = true;
        return UsageStore::open(url, so);
    };
    o.kube = *kube;
    o.metrics = parts->m_metrics;
    o.perUserMetrics = setup.perUserMetrics;
    o.identity = cfg.identity;
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
        // No database needed to serve: see AdmissionWebhook.
        AdmissionWebhook::Options wo;
        wo.userLabel = cfg.userLabel;
        wo.identity = cfg.identity;
        m_denialEvents = std::make_unique<DenialEvents>(m_rt.client());
        wo.onOwnedDenial = [events = m_denialEvents.get()](const PodOwner &owner, const QString &message) {
            events->report(owner, message);
        };
        m_webhook = std::make_unique<AdmissionWebhook>(cfg.database, storeOptions(cfg), wo);
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
    if (m_setup.alerts.enabled) {
        m_alerts =
            std::make_unique<ControllerAlerts>(m_setup.alerts, m_setup.recipients, m_metrics, m_rt.client());
        if (auto r = m_alerts->loadSecrets(); !r)
            return Error::make(Error::Kind::Config, r.error().toString());
        connect(m_rt.recorder(), &UsageRecorder::userEmailSeen, m_alerts.get(),
                &ControllerAlerts::addUserEmail);
    }
    LedgerWriter *writer = m_rt.writer();
    connect(writer, &LedgerWriter::databaseReady, this, &ControllerParts::onDatabaseReady);
    connect(writer, &LedgerWriter::databaseLost, this, &ControllerParts::onDatabaseLost);
    if (writer->databaseAvailable())
        onDatabaseReady();
    else
        onDatabaseLost(Error::make(Error::Kind::Database, writer->lastError()));
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
        if (m_shuttingDown || !m_leading)
            return; // the release on SIGTERM, or never led
        // At once, before anything else runs: nothing is recorded or enforced on stale
        // leadership, and /readyz says 503 until the process is gone.
        stopLeading();
        m_rt.setServing(false);
        qCWarning(lcParts) << "lost the Lease: exiting so a replica never acts on stale leadership";
        QCoreApplication::exit(1);
    });
    return m_elector->start();
}

void ControllerParts::lead() {
    if (m_leading || m_shuttingDown)
        return;
    m_leading = true;
    qCInfo(lcParts) << "leading: recording, enforcing, boosts and alerts";
    m_rt.startRecording();
    if (m_rt.config().enforce.enabled)
        m_enforceTimer.start();
    m_boostTimer.start();
    if (m_alerts)
        m_alerts->start(&m_rt.recorder()->podInformer());
    if (m_idle)
        m_idle->start();
    tickEnforcer();
    tickBoosts();
}

void ControllerParts::stopLeading() {
    m_leading = false;
    m_enforceTimer.stop();
    m_boostTimer.stop();
    if (m_alerts)
        m_alerts->stop();
    if (m_idle)
        m_idle->stop();
    m_rt.stopRecording();
}

void ControllerParts::onDatabaseReady() {
    if (m_alerts)
        m_alerts->setDatabaseDown(std::nullopt);
    if (m_store)
        return;
    auto store = UsageStore::open(m_rt.config().database, storeOptions(m_rt.config()));
    if (!store) {
        qCWarning(lcParts) << "the leader's parts cannot open the usage database:" << store.error().message;
        return;
    }
    m_store = std::move(*store);
    buildLeaderParts();
}

void ControllerParts::onDatabaseLost(const Error &error) {
    if (m_alerts) {
        m_alerts->setDatabaseDown(QDateTime::currentSecsSinceEpoch(), error.message);
        m_alerts->setStore(nullptr);
    }
    // Parts hold references to the store: they go first.
    m_enforcer.reset();
    m_boosts.reset();
    m_store.reset();
}

void ControllerParts::buildLeaderParts() {
    m_enforcer = std::make_unique<BudgetEnforcer>(*m_store, m_rt.client());
    m_enforcer->addListener([this](const ClampEvent &e) { onClamp(e); });
    connect(m_enforcer.get(), &BudgetEnforcer::finished, this, [this](const EnforceReport &report) {
        for (const QString &error : report.errors)
            qCWarning(lcParts) << "enforce:" << error;
        m_metrics->set(QString::fromLatin1(metricnames::kClampsNotEnforced), {},
                       double(report.notEnforced.size()));
        m_metrics->set(QString::fromLatin1(metricnames::kClampsReverted), {},
                       double(report.backingOff.size()));
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
    if (m_alerts)
        m_alerts->setStore(m_store.get());
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
        m_alerts->service().setIdleHolds(
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

void ControllerParts::onClamp(const ClampEvent &event) {
    m_clampsActive += event.kind == ClampEvent::Kind::Applied  ? 1
                      : event.kind == ClampEvent::Kind::Lifted ? -1
                                                               : 0;
    m_clampsActive = std::max(m_clampsActive, 0);
    qCInfo(lcParts).noquote() << event.line();
    if (m_alerts)
        m_alerts->addClamp(event);
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
    if (m_shuttingDown)
        return;
    m_shuttingDown = true; // the lostLeadership the release emits is no reason to exit 1
    const bool held = m_elector && m_elector->isLeader();
    stopLeading();
    m_rt.setServing(false);
    m_webhookServer.stop();
    auto finished = std::make_shared<bool>(false);
    auto finish = [finished, done = std::move(done)] {
        if (!std::exchange(*finished, true))
            done();
    };
    // Never before this returns: the caller may not be ready for it yet.
    if (!held) {
        QTimer::singleShot(0, this, finish);
        return;
    }
    connect(m_elector.get(), &LeaderElector::releaseFinished, this, finish);
    QTimer::singleShot(2000, this, finish);
    m_elector->release();
}

} // namespace gq
