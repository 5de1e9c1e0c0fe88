#include "app/controller/controllerparts.h"

#include "services/controller/admissionwebhook.h"
#include "services/controller/auditheadpublisher.h"
#include "services/boosts/boostreconciler.h"
#include "services/controller/budgetenforcer.h"
#include "core/domain/clock.h"
#include "app/controller/controlleralerts.h"
#include "services/controller/controllercheck.h"
#include "services/controller/controllerruntime.h"
#include "services/controller/denialevents.h"
#include "services/controller/idlerecorder.h"
#include "core/kube/informer.h"
#include "core/kube/kubeclient.h"
#include "services/controller/kueuebudgetcheck.h"
#include "services/controller/leaderelector.h"
#include "services/controller/ledgerwriter.h"
#include "services/controller/metricsregistry.h"
#include "services/controller/selfservice.h"
#include "services/controller/uncheckedpods.h"
#include "services/controller/usagerecorder.h"
#include "core/usage/usagestore.h"
#include "services/controller/webhookhealth.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLoggingCategory>
#include <QSysInfo>

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
    m_beacon.reset();       // reads m_webhookHealth
    // Parts that hold the store go before it.
    m_auditHead.reset();
    m_alerts.reset();
    m_enforcer.reset();
    m_kueueCheck.reset();
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
    o.boostRequestGroups = setup.boostRequestGroups;
    // Boost requests are written: a store of their own, not the read-only one.
    o.openRequestStore = [url = cfg.database, so = storeOptions(cfg)]() { return UsageStore::open(url, so); };
    o.identity = cfg.identity;
    parts->m_self = std::make_unique<SelfService>(std::move(o));
    if (cfg.webhook.configured) {
        parts->m_webhookHealth = std::make_shared<WebhookHealth>(parts->m_metrics);
        runtime.setReadyzExtra([health = parts->m_webhookHealth] { return health->readyzText(); });
        parts->m_unchecked = std::make_unique<UncheckedPods>(
            QStringList{QStringLiteral("kube-system"), cfg.leaderElection.namespaceName});
    }
    SelfService *self = parts->m_self.get();
    runtime.addRoute("GET", QStringLiteral("/quota/status"),
                     [self](const httpd::Request &r) { return self->statusEndpoint(r); });
    runtime.addRoute("GET", QStringLiteral("/quota"),
                     [self](const httpd::Request &r) { return self->pageEndpoint(r); });
    runtime.addRoute("GET", QStringLiteral("/metrics"),
                     [self](const httpd::Request &r) { return self->metricsEndpoint(r); });
    // Boost requests (as SelfService::mount): the JupyterLab panel, the page's form, the CLI.
    runtime.addRoute("GET", QStringLiteral("/quota/boost-requests"),
                     [self](const httpd::Request &r) { return self->listRequestsEndpoint(r); });
    runtime.addRoute("POST", QStringLiteral("/quota/boost-requests"),
                     [self](const httpd::Request &r) { return self->submitRequestEndpoint(r); });
    runtime.addRoute("POST", QStringLiteral("/quota/boost-requests/form"),
                     [self](const httpd::Request &r) { return self->formRequestEndpoint(r); });
    runtime.addRoute("POST", QStringLiteral("/quota/boost-requests/withdraw"),
                     [self](const httpd::Request &r) { return self->withdrawRequestEndpoint(r); });
    return parts;
}

Result<void> ControllerParts::start() {
    const ControllerConfig &cfg = m_rt.config();
    if (cfg.webhook.configured)
        if (auto r = startWebhook(); !r)
            return r;
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
    // Every replica records: rows are keyed by pod uid and written idempotently, so a
    // pod that starts and ends while the Lease changes hands is still seen by a replica
    // that watched. Only what acts on the cluster (clamps, boosts, alerts, idle spans)
    // waits for the Lease.
    m_rt.startRecording();
    m_auditHead = std::make_unique<AuditHeadPublisher>(m_rt.client(), cfg.leaderElection.namespaceName,
                                                       [this] { return m_store.get(); });
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
    connect(m_elector.get(), &LeaderElector::heldUntilChanged, this,
            [this](qint64 ms) { m_rt.setLeaseHeldUntil(ms); });
    connect(m_elector.get(), &LeaderElector::lostLeadership, this, [this] {
        if (m_shuttingDown || !m_leading)
            return; // the release on SIGTERM, or never led
        // At once, before anything else runs: nothing is enforced on stale leadership,
        // and /readyz says 503 until the process is gone.
        stopLeading();
        m_rt.setServing(false);
        qCWarning(lcParts) << "lost the Lease: exiting so a replica never acts on stale leadership";
        QCoreApplication::exit(1);
    });
    return m_elector->start();
}

// Every replica serves the webhook: no database needed to serve (see AdmissionWebhook).
// Its certificate is checked as the API server will judge it (servingcert.h) before it
// is served; each answer is counted (WebhookHealth) and its last review written to the
// database for the leader (ReviewBeacon).
Result<void> ControllerParts::startWebhook() {
    const ControllerConfig &cfg = m_rt.config();
    AdmissionWebhook::Options wo;
    wo.userLabel = cfg.userLabel;
    wo.identity = cfg.identity;
    wo.trust = cfg.trust;
    m_denialEvents = std::make_unique<DenialEvents>(m_rt.client());
    wo.onOwnedDenial = [events = m_denialEvents.get()](const PodOwner &owner, const QString &message) {
        events->report(owner, message);
    };
    if (UsageRecorder *recorder = m_rt.recorder(); recorder && recorder->draWatch())
        wo.draGpus = [dra = recorder->draWatch()](const QString &ns, const QJsonObject &pod) {
            return dra->requestedGpus(pod, ns);
        };
    m_webhook = std::make_unique<AdmissionWebhook>(cfg.database, storeOptions(cfg), wo);
    auto address = httpd::parseListenAddress(cfg.webhook.listen, QStringLiteral("webhook.listen"));
    if (!address)
        return address.error();
    auto tls = httpd::TlsConfig::fromFiles(cfg.webhook.tlsCert, cfg.webhook.tlsKey);
    if (!tls)
        return tls.error();
    auto cert = httpd::checkServingCertificate(tls->certPem, tls->keyPem, cfg.webhook.names,
                                               Clock::system().nowSecs());
    if (!cert)
        return Error::make(
            Error::Kind::Config,
            QStringLiteral("webhook.tlsCert: %1: %2").arg(cfg.webhook.tlsCert, cert.error().message));
    m_webhookHealth->setCertificate(*cert);
    m_webhookServer.route("POST", AdmissionWebhook::kPath,
                          m_webhookHealth->instrument([webhook = m_webhook.get()](const httpd::Request &r) {
                              return webhook->handle(r);
                          }));
    // Workload templates (the trust model's other half): not counted as pod reviews.
    m_webhookServer.route("POST", AdmissionWebhook::kWorkloadsPath, [wo](const httpd::Request &r) {
        return AdmissionWebhook::reviewWorkload(r.body, wo);
    });
    auto port = m_webhookServer.start(*address, *tls);
    if (!port)
        return port.error();
    m_webhookHealth->setListening(QStringLiteral("%1:%2").arg(address->host).arg(*port));
    QString replica = qEnvironmentVariable("POD_NAME");
    if (replica.isEmpty())
        replica = QStringLiteral("%1:%2").arg(QSysInfo::machineHostName()).arg(*port);
    m_beacon = std::make_unique<ReviewBeacon>(*m_webhookHealth, cfg.database, storeOptions(cfg), replica);
    qCInfo(lcParts) << "admission webhook on" << cfg.webhook.listen;
    return {};
}

// The leader: GPU pods created without a review at any replica (UncheckedPods) go to
// the alerts and /metrics. Without the database the other replicas' reviews are not
// known: nothing is concluded then.
void ControllerParts::checkWebhookCalls() {
    if (!m_leading || !m_unchecked || !m_store)
        return;
    auto latest = ReviewBeacon::latest(*m_store);
    if (!latest) {
        qCWarning(lcParts) << "webhook check:" << latest.error().message;
        return;
    }
    const qint64 lastReview = std::max(*latest, m_webhookHealth->lastReview());
    const auto silence = m_unchecked->evaluate(Clock::system().nowSecs(), lastReview,
                                               m_rt.config().webhook.uncheckedAfterSeconds);
    m_metrics->set(QString::fromLatin1(metricnames::kWebhookUncheckedPods), {}, silence ? silence->pods : 0);
    if (silence)
        qCWarning(lcParts).noquote() << silence->pods
                                     << "GPU pod(s) admitted without an admission review, e.g."
                                     << silence->examples.join(QStringLiteral(", "));
    if (m_alerts)
        m_alerts->service().setWebhookSilence(silence);
}

void ControllerParts::lead() {
    if (m_leading || m_shuttingDown)
        return;
    m_leading = true;
    m_rt.setLeading(true);
    qCInfo(lcParts) << "leading: enforcing, boosts and alerts (every replica records)";
    if (m_rt.config().enforce.enabled)
        m_enforceTimer.start();
    m_boostTimer.start();
    if (m_auditHead)
        m_auditHead->start();
    if (m_alerts)
        m_alerts->start(&m_rt.recorder()->podInformer());
    if (m_idle)
        m_idle->start();
    if (m_unchecked)
        m_unchecked->start(&m_rt.recorder()->podInformer(), Clock::system().nowSecs());
    tickEnforcer();
    tickBoosts();
}

void ControllerParts::stopLeading() {
    m_leading = false;
    m_rt.setLeading(false);
    m_enforceTimer.stop();
    m_boostTimer.stop();
    if (m_auditHead)
        m_auditHead->stop();
    if (m_alerts)
        m_alerts->stop();
    if (m_idle)
        m_idle->stop();
    if (m_unchecked)
        m_unchecked->stop();
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
        m_alerts->setDatabaseDown(Clock::system().nowSecs(), error.message);
        m_alerts->setStore(nullptr);
    }
    // Parts hold references to the store: they go first.
    m_enforcer.reset();
    m_kueueCheck.reset();
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
    KueueBudgetCheck::Options ko;
    ko.userLabel = m_rt.config().userLabel;
    m_kueueCheck = std::make_unique<KueueBudgetCheck>(*m_store, m_rt.client(), ko);
    connect(m_kueueCheck.get(), &KueueBudgetCheck::finished, this, [this](const KueueCheckReport &report) {
        if (!report.errors.isEmpty() || report.activated > 0 || report.ready > 0 || report.held > 0)
            qCInfo(lcParts).noquote() << report.line();
    });
    BoostReconciler::Options bo;
    bo.actor = QStringLiteral("gpuquota-controller");
    m_boosts = std::make_unique<BoostReconciler>(*m_store, m_rt.client(), bo);
    connect(m_boosts.get(), &BoostReconciler::transitionMade, this,
            [](const BoostTransition &t) { qCInfo(lcParts).noquote() << "boost" << t.line(); });
    connect(m_boosts.get(), &BoostReconciler::finished, this, [this](const ReconcileReport &report) {
        if (!report.error)
            m_lastReconcile = Clock::system().nowSecs();
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
    if (!m_leading || !m_rt.config().enforce.enabled)
        return;
    if (m_enforcer && !m_enforcer->isRunning())
        m_enforcer->tick(Clock::system().nowSecs());
    if (m_kueueCheck && !m_kueueCheck->isRunning())
        m_kueueCheck->tick(Clock::system().nowSecs());
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
    m_metrics->set(QString::fromLatin1(metricnames::kIntervalsHeld), {}, double(f.held));
    m_metrics->set(QString::fromLatin1(metricnames::kIntervalsLost), {}, double(f.lost));
    const QString skipped = QString::fromLatin1(metricnames::kSpoolSkipped);
    if (const double more = double(f.spoolSkipped) - m_metrics->value(skipped); more > 0)
        m_metrics->add(skipped, {}, more);
    m_metrics->set(QString::fromLatin1(metricnames::kClampsActive), {}, m_clampsActive);
    m_metrics->set(QString::fromLatin1(metricnames::kLeader), {}, m_leading ? 1 : 0);
    if (m_lastReconcile)
        m_metrics->set(QString::fromLatin1(metricnames::kReconcileLag), {},
                       double(Clock::system().nowSecs() - m_lastReconcile));
    checkWebhookCalls();
}

void ControllerParts::shutdown(std::function<void()> done) {
    if (m_shuttingDown)
        return;
    m_shuttingDown = true; // the lostLeadership the release emits is no reason to exit 1
    const bool held = m_elector && m_elector->isLeader();
    stopLeading();
    m_rt.stopRecording();
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
