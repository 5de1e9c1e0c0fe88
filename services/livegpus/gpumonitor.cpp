#include "services/livegpus/gpumonitor.h"

#include "services/livegpus/claimpods.h"
#include "services/livegpus/exporterdiscovery.h"
#include "core/net/httptransport.h"
#include "services/livegpus/idlespans.h"
#include "core/kube/kubeclient.h"
#include "core/usage/ledger.h"

#include <QDateTime>
#include <QJsonObject>

#include <cmath>

namespace gq {

using namespace gq::metrics;

GpuMonitor::Source GpuMonitor::Source::prometheusAt(PrometheusConfig config) {
    Source s;
    s.kind = Kind::Prometheus;
    s.prometheus = std::move(config);
    return s;
}

GpuMonitor::Source GpuMonitor::Source::scrape(QList<ScrapeTarget> targets) {
    Source s;
    s.kind = targets.isEmpty() ? Kind::None : Kind::Scrape;
    s.targets = std::move(targets);
    return s;
}

GpuMonitor::Source GpuMonitor::Source::discover() {
    Source s;
    s.kind = Kind::Discover;
    return s;
}

namespace {
constexpr qint64 kUsersEveryMs = 60000;

// The monitor's jobs wait on the network (a request may take its full timeout): they run
// on a pool of their own, so they never hold the global pool's threads, which Qt's
// raster painting borrows on the GUI thread. Never destroyed: a destructor would wait for
// a request still out when a window closes; the jobs need nothing of the monitor.
QThreadPool *networkPool() {
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool;
        p->setMaxThreadCount(4);
        return p;
    }();
    return pool;
}
} // namespace

GpuMonitor::GpuMonitor(QObject *parent)
    : QObject(parent)
    , m_transport(std::make_shared<HttpTransport>())
    , m_claims(new ClaimPodsWatch(this)) {
    connect(&m_timer, &QTimer::timeout, this, &GpuMonitor::refresh);
    connect(m_claims, &ClaimPodsWatch::changed, this, &GpuMonitor::onClaimsChanged);
}

GpuMonitor::~GpuMonitor() {
    m_jobs.cancel();
    // Jobs on the pool hold the transport and client by shared_ptr; they finish (or are
    // cancelled by the transport's shutdown) without touching this object.
    m_transport->shutdown();
}

void GpuMonitor::setSource(Source source) {
    m_jobs.cancel();
    m_inFlight = false;
    m_source = std::move(source);
    m_read = {};
    m_claims->stop(); // the next snapshot that needs the claims starts the watch again
    m_client.reset();
    m_discovered.reset();
    m_historyNotes.clear();
    m_idleNotes.clear();
    if (m_source.kind == Source::Kind::Prometheus)
        m_client = std::make_shared<PrometheusClient>(m_source.prometheus, m_transport);
    if (m_source.kind == Source::Kind::Discover)
        m_discovered = std::make_shared<exporters::DiscoveredExporters>();
}

void GpuMonitor::setClusterClient(ClientProvider provider) {
    m_userJobs.cancel();
    m_usersInFlight = false;
    m_usersAskedMs = 0;
    m_clusterClient = std::move(provider);
}

void GpuMonitor::start(int intervalMs) {
    m_timer.start(std::max(500, intervalMs));
    refresh();
}

void GpuMonitor::stop() {
    m_timer.stop();
    m_jobs.cancel();
    m_userJobs.cancel();
    m_inFlight = false;
    m_usersInFlight = false;
}

void GpuMonitor::refresh() {
    if (!isConfigured()) {
        emit failed(Error::make(
            Error::Kind::Config,
            QStringLiteral("no GPU metrics source: set a Prometheus URL or dcgm-exporter endpoints")));
        return;
    }
    if (m_inFlight) {
        ++m_skipped;
        return;
    }
    m_inFlight = true;
    refreshUsers();
    if (m_source.kind == Source::Kind::Discover) {
        m_jobs.run(
            [discovered = m_discovered, client = m_clusterClient ? m_clusterClient() : nullptr] {
                return discovered->snapshot(client);
            },
            [this](Result<GpuSnapshot> r) { deliverSnapshot(std::move(r)); }, networkPool());
        return;
    }
    if (m_source.kind == Source::Kind::Prometheus) {
        auto client = m_client;
        m_jobs.run(
            [client, clock = m_clock]() -> Result<GpuSnapshot> {
                auto f = client->query(gpuSnapshotQuery());
                f.waitForFinished(); // a pool thread, never the receiver's
                Result<PromResult> r = f.result();
                if (!r)
                    return r.error();
                GpuSnapshot snap = gpusFromVector(*r);
                snap.takenAtMs = clock->nowMSecs();
                return snap;
            },
            [this](Result<GpuSnapshot> r) { deliverSnapshot(std::move(r)); }, networkPool());
        return;
    }
    auto transport = m_transport;
    const QList<ScrapeTarget> targets = m_source.targets;
    m_jobs.run(
        [transport, targets, clock = m_clock]() -> Result<GpuSnapshot> {
            QList<QFuture<Result<ScrapedText>>> pending;
            for (const ScrapeTarget &t : targets)
                pending.append(scrape(*transport, t));
            Result<GpuSnapshot> snap = snapshotFromRound(collectScrapes(std::move(pending)));
            if (snap)
                snap->takenAtMs = clock->nowMSecs();
            return snap;
        },
        [this](Result<GpuSnapshot> r) { deliverSnapshot(std::move(r)); }, networkPool());
}

void GpuMonitor::deliverSnapshot(Result<GpuSnapshot> r) {
    m_inFlight = false;
    if (!r) {
        emit failed(r.error());
        return;
    }
    m_read = claimsWithoutPods(r->gpus).isEmpty() ? GpuSnapshot() : *r;
    m_last = m_read.gpus.isEmpty() ? std::move(*r) : withClaimPods();
    emit snapshotAvailable(m_last);
}

GpuSnapshot GpuMonitor::withClaimPods() {
    m_claims->follow(m_clusterClient ? m_clusterClient() : nullptr);
    GpuSnapshot snap = m_read;
    resolveClaimHolders(snap.gpus, m_claims->podsFor(claimsWithoutPods(snap.gpus)));
    return snap;
}

// The claims' list came in, or a claim changed: show the pods without waiting for the
// next refresh when that names a holder differently.
void GpuMonitor::onClaimsChanged() {
    if (m_read.gpus.isEmpty() || !isConfigured())
        return;
    GpuSnapshot snap = withClaimPods();
    bool same = snap.gpus.size() == m_last.gpus.size();
    for (qsizetype i = 0; same && i < snap.gpus.size(); ++i)
        same = snap.gpus[i].holders == m_last.gpus[i].holders;
    if (same)
        return;
    m_last = std::move(snap);
    emit snapshotAvailable(m_last);
}

bool GpuMonitor::needsPrometheus(const char *what) {
    if (keepsHistory())
        return true;
    emit failed(Error::make(
        Error::Kind::Config,
        QStringLiteral("%1 needs Prometheus: direct scrapes keep no history").arg(QLatin1String(what))));
    return false;
}

void GpuMonitor::findIdle(IdleOptions options) {
    if (!needsPrometheus("idle detection"))
        return;
    auto client = m_client;
    m_jobs.run(
        [client, options, clock = m_clock]() -> Result<IdleReport> {
            // As `gpuquota idle` does: a recent window for every GPU, older ones for the
            // GPUs idle at its start, up to a week back (idlequery.h).
            return findIdleThroughPrometheus(*client, options, double(clock->nowSecs()));
        },
        [this](Result<IdleReport> r) {
            if (!r) {
                emit failed(r.error());
                return;
            }
            m_idleNotes = r->warnings;
            emit rangeNotes(m_historyNotes + m_idleNotes);
            emit idleAvailable(r->idle);
        },
        networkPool());
}

void GpuMonitor::findRecordedIdle(IdleOptions options, const QString &url, const QString &password) {
    m_jobs.run(
        [options, url, password, clock = m_clock]() -> Result<QList<IdleGpu>> {
            UsageStore::Options o;
            o.readOnly = true;
            o.password = password;
            auto store = UsageStore::open(url, o);
            if (!store)
                return store.error();
            return idlespans::current(**store, clock->nowSecs(), options.minIdleMs / 1000);
        },
        [this](Result<QList<IdleGpu>> r) {
            if (!r) {
                emit recordedIdleFailed(r.error());
                return;
            }
            m_idleNotes.clear();
            emit idleAvailable(*r);
        });
}

void GpuMonitor::fetchHistory(int seconds, int stepSeconds) {
    if (!needsPrometheus("utilization history"))
        return;
    auto client = m_client;
    struct History {
        QList<GpuTimeline> timelines;
        QStringList notes;
    };
    m_jobs.run(
        [client, seconds, stepSeconds, clock = m_clock]() -> Result<History> {
            const double now = double(clock->nowSecs());
            auto f = client->queryRange(gpuUtilizationQuery(), now - seconds, now, std::max(1, stepSeconds));
            f.waitForFinished();
            const Result<PromResult> r = f.result();
            if (!r)
                return r.error();
            return History{timelinesFromRange(*r), r->notes()};
        },
        [this](Result<History> r) {
            if (!r) {
                emit failed(r.error());
                return;
            }
            m_historyNotes = r->notes;
            emit rangeNotes(m_historyNotes + m_idleNotes);
            emit historyAvailable(r->timelines);
        },
        networkPool());
}

// Who holds the GPUs, in people: the pods' user label, read once a minute (a list of the
// labelled pods only) while a cluster client is there.
void GpuMonitor::refreshUsers() {
    if (!m_clusterClient || m_usersInFlight)
        return;
    const qint64 now = m_clock->nowMSecs();
    if (m_usersAskedMs && now - m_usersAskedMs < kUsersEveryMs)
        return;
    std::shared_ptr<KubeClient> client = m_clusterClient();
    if (!client)
        return;
    m_usersAskedMs = now;
    m_usersInFlight = true;
    m_userJobs.run(
        [client]() -> QHash<QString, QString> {
            ListOptions options;
            options.labelSelector = kDefaultUserLabel;
            auto pods = client->list(KubeResource::pods(), QString(), options).result();
            QHash<QString, QString> users;
            if (!pods)
                return users; // not allowed or not reachable: users stay unknown
            for (const QJsonObject &pod : pods->items) {
                const QJsonObject meta = pod.value(QLatin1String("metadata")).toObject();
                const QString user =
                    meta.value(QLatin1String("labels")).toObject().value(kDefaultUserLabel).toString();
                if (!user.isEmpty())
                    users.insert(meta.value(QLatin1String("namespace")).toString() + QLatin1Char('/') +
                                     meta.value(QLatin1String("name")).toString(),
                                 user);
            }
            return users;
        },
        [this](const QHash<QString, QString> &users) {
            m_usersInFlight = false;
            emit usersAvailable(users);
        },
        networkPool());
}

} // namespace gq
