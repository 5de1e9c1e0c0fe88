#include "services/controller/controllerruntime.h"

#include "core/kube/kubeclient.h"
#include "services/controller/ledgerwriter.h"
#include "services/controller/usagerecorder.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QTimeZone>

#include <QFile>
#include <QJsonObject>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcController, "gq.controller")

namespace gq {

Result<std::shared_ptr<KubeClient>> controllerClusterClient(const ControllerConfig::Cluster &cluster) {
    KubeClientOptions options;
    options.userAgent = QStringLiteral("gpuquota-controller");
    if (!cluster.inCluster)
        return KubeClient::fromKubeconfig(cluster.kubeconfig, cluster.context, options);
    // The service account's files, as every in-cluster client reads them.
    const QString host = qEnvironmentVariable("KUBERNETES_SERVICE_HOST");
    const QString port = qEnvironmentVariable("KUBERNETES_SERVICE_PORT", QStringLiteral("443"));
    if (host.isEmpty())
        return Error::make(
            Error::Kind::Config,
            QStringLiteral("inCluster: KUBERNETES_SERVICE_HOST is not set (not running in a pod?)"),
            QStringLiteral("cluster.inCluster"));
    const QString dir = QStringLiteral("/var/run/secrets/kubernetes.io/serviceaccount/");
    QFile ca(dir + QStringLiteral("ca.crt"));
    if (!ca.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Config,
                           QStringLiteral("inCluster: cannot read %1").arg(ca.fileName()),
                           QStringLiteral("cluster.inCluster"));
    KubeConnection conn;
    conn.contextName = QStringLiteral("in-cluster");
    conn.server = QStringLiteral("https://%1:%2")
                      .arg(host.contains(QLatin1Char(':')) ? u'[' + host + u']' : host, port);
    conn.caPem = ca.readAll();
    conn.tokenFile = dir + QStringLiteral("token"); // re-read on use: projected tokens rotate
    return std::make_shared<KubeClient>(std::move(conn), options);
}

ControllerRuntime::ControllerRuntime(ControllerConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config)) {}

ControllerRuntime::~ControllerRuntime() {
    m_server.stop(); // handlers read the recorder and the writer
}

void ControllerRuntime::addRoute(const QByteArray &method, const QString &path, httpd::Handler handler) {
    m_server.route(method, path, std::move(handler));
}

Result<void> ControllerRuntime::start() {
    auto client = controllerClusterClient(m_config.cluster);
    if (!client)
        return client.error();
    m_client = *client;

    UsageStore::Options storeOptions;
    storeOptions.weights = m_config.weights;
    storeOptions.rollupZone = m_config.timeZone;
    m_writer = std::make_unique<LedgerWriter>(m_config.database, storeOptions, m_config.spool);

    UsageRecorder::Options recorderOptions;
    recorderOptions.cluster = m_config.clusterName;
    recorderOptions.userLabel = m_config.userLabel;
    recorderOptions.userEmailKey = m_userEmailKey;
    recorderOptions.gpuDeviceClasses = m_config.gpuDeviceClasses;
    m_recorder = std::make_unique<UsageRecorder>(m_client, recorderOptions, *m_writer);

    m_server.routeProbe("GET", QStringLiteral("/healthz"), [](const httpd::Request &) {
        return httpd::Response::text(200, QStringLiteral("ok\n"));
    });
    m_server.routeProbe("GET", QStringLiteral("/readyz"), [this](const httpd::Request &) {
        const Figures f = figures();
        const bool ok = ready();
        QString text = ok ? QStringLiteral("ok\n") : QStringLiteral("not ready\n");
        if (!m_serving)
            text += QStringLiteral("stopping: shutting down or leadership lost\n");
        text += QStringLiteral("pod cache synced: %1\n").arg(f.podCacheSynced ? u"yes" : u"no");
        text += QStringLiteral("database: %1\n").arg(f.databaseAvailable ? u"available" : u"unavailable");
        text += QStringLiteral("spool: %1 (%2 waiting)\n")
                    .arg(m_writer->spoolWritable() ? u"writable" : u"NOT writable")
                    .arg(f.spoolDepth);
        if (const qint64 pending = m_writer->batchPending(); pending > 0)
            text += QStringLiteral("writing %1 interval states of the first sync\n").arg(pending);
        if (f.held > 0)
            text +=
                QStringLiteral("held in memory: %1 interval states since %2 (neither the database nor the "
                               "spool takes them)\n")
                    .arg(f.held)
                    .arg(QDateTime::fromSecsSinceEpoch(m_writer->heldSince(), QTimeZone::utc())
                             .toString(Qt::ISODate));
        if (f.lost > 0)
            text +=
                QStringLiteral("LOST: %1 interval states (more than could be held in memory)\n").arg(f.lost);
        if (m_readyzExtra)
            text += m_readyzExtra();
        if (m_leaseHeldUntilMs.load() >= 0)
            text +=
                m_leading.load() ? QStringLiteral("leader: this replica\n")
                : leaseHeld()
                    ? QStringLiteral("leader: another replica\n")
                    : QStringLiteral("leader: nobody holds the Lease %1/%2: every replica records, nothing "
                                     "enforces (clamps, boosts, alerts) until one does\n")
                          .arg(m_config.leaderElection.namespaceName, m_config.leaderElection.name);
        return httpd::Response::text(ok ? 200 : 503, text);
    });
    auto address = httpd::parseListenAddress(m_config.listen, QStringLiteral("listen"));
    if (!address)
        return address.error();
    if (auto port = m_server.start(*address); !port)
        return port.error();
    qCInfo(lcController) << "serving /healthz /readyz on port" << m_server.port();

    m_writer->start();
    if (!m_config.leaderElection.enabled)
        startRecording();
    else
        m_leaseHeldUntilMs = 0; // nobody known to hold it until the elector has read it
    return {};
}

void ControllerRuntime::startRecording() {
    if (m_recording.exchange(true))
        return;
    m_recorder->start();
}

void ControllerRuntime::stopRecording() {
    if (m_recorder && m_recording.load())
        m_recorder->stop();
}

int ControllerRuntime::listenPort() const {
    return m_server.port();
}

// Every replica records (leader or not): ready once its pod cache is synced and it can
// persist what it sees, to the database or the spool.
// Not before recording has started and the pod cache is synced; not while nothing can
// persist a state, and only kReadyAfterFailureSecs after the last state that found
// nothing to persist it (a filling disk fails some writes and not others: no flapping).
bool ControllerRuntime::ready() const {
    if (!m_recorder || !m_serving || !m_recording)
        return false;
    const bool writable =
        m_writer->databaseAvailable() || (m_writer->spoolWritable() && m_writer->held() == 0);
    const qint64 failed = m_writer->lastPersistFailure();
    const bool settled = failed == 0 || m_writer->clock().nowSecs() - failed >= kReadyAfterFailureSecs;
    return writable && settled && m_recorder->synced();
}

bool ControllerRuntime::leaseHeld() const {
    const qint64 until = m_leaseHeldUntilMs.load();
    return until < 0 || QDeadlineTimer::current().deadline() < until;
}

ControllerRuntime::Figures ControllerRuntime::figures() const {
    Figures f;
    if (!m_writer || !m_recorder)
        return f;
    f.intervalsOpen = m_recorder->openIntervals();
    f.intervalStatesRecorded = m_recorder->intervalsRecorded();
    f.spoolDepth = m_writer->spoolDepth();
    f.spoolSkipped = m_writer->spoolSkipped();
    f.lastDatabaseWrite = m_writer->lastDatabaseWrite();
    f.informerIdleSeconds = m_recorder->informerIdleSeconds();
    f.databaseAvailable = m_writer->databaseAvailable();
    f.podCacheSynced = m_recorder->synced();
    f.held = m_writer->held();
    f.lost = m_writer->lost();
    return f;
}

} // namespace gq
