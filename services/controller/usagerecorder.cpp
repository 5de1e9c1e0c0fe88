#include "services/controller/usagerecorder.h"

#include "services/controller/ledgerwriter.h"

#include <QLoggingCategory>
#include <QSet>
#include <QTimer>

Q_LOGGING_CATEGORY(lcRecorder, "gq.controller.recorder")

namespace gq {

namespace {

const KubeResource &nodesResource() {
    static const KubeResource r{QString(), QStringLiteral("v1"), QStringLiteral("nodes"),
                                QStringLiteral("Node"), false};
    return r;
}

QString stateKey(const UsageInterval &iv) {
    return iv.podUid + QLatin1Char('|') + iv.resource + QLatin1Char('|') + QString::number(iv.start);
}

// What the database's reader gives back of a row (node, GPU model and weights are not
// read): equal here means an upsert would change nothing that matters.
bool sameRow(const UsageInterval &row, const UsageInterval &state) {
    return row.ns == state.ns && row.user == state.user && row.podName == state.podName &&
           row.gpus == state.gpus && row.end == state.end;
}

} // namespace

UsageRecorder::UsageRecorder(std::shared_ptr<KubeClient> client, Options options, LedgerWriter &writer,
                             QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_writer(writer)
    , m_pods(std::make_unique<PodInformer>(client, QString(), m_options.userLabel, m_options.userEmailKey)) {
    // No window to spare from redraws: every batch the server sends is recorded at once.
    m_pods->setBatchInterval(0);
    if (m_options.watchNodes)
        m_nodes = std::make_unique<ObjectInformer>(client, nodesResource());
    if (m_options.watchClaims) {
        m_dra = std::make_unique<DraWatch>(client, m_options.gpuDeviceClasses);
        // An allocation may arrive after the pod runs: look at every pod with claims again.
        connect(m_dra.get(), &DraWatch::changed, this, [this] {
            const QSet<QString> keys = m_draPods;
            for (const QString &key : keys)
                refresh(key);
            m_sharersDirty.clear(); // all refreshed already
            countOpen();
        });
    }
    connect(m_pods.get(), &Informer::changed, this, &UsageRecorder::onPodsChanged);
    connect(m_pods.get(), &Informer::synced, this, &UsageRecorder::onSynced);
    m_heartbeat.setInterval(std::chrono::seconds(m_options.seenIntervalSeconds));
    connect(&m_heartbeat, &QTimer::timeout, this, &UsageRecorder::heartbeat);
    connect(&m_writer, &LedgerWriter::databaseReady, this, &UsageRecorder::maybeReconcile);
    if (m_nodes) {
        // A node's model may arrive after its pods: refresh them all (a few hundred at most).
        connect(m_nodes.get(), &Informer::changed, this, [this] {
            const QStringList keys = m_tracked.keys();
            for (const QString &key : keys)
                refresh(key);
        });
    }
}

UsageRecorder::~UsageRecorder() = default;

void UsageRecorder::start() {
    if (m_nodes)
        m_nodes->start();
    if (m_dra)
        m_dra->start();
    m_pods->start();
}

void UsageRecorder::stop() {
    m_stopped = true;
    m_heartbeat.stop();
    // Disconnected first: stopping flushes what the informers hold, which must not
    // become states any more.
    disconnect(m_pods.get(), nullptr, this, nullptr);
    disconnect(&m_writer, nullptr, this, nullptr);
    m_pods->stop();
    if (m_nodes) {
        disconnect(m_nodes.get(), nullptr, this, nullptr);
        m_nodes->stop();
    }
    if (m_dra) {
        disconnect(m_dra.get(), nullptr, this, nullptr);
        m_dra->stop();
    }
}

qint64 UsageRecorder::informerIdleSeconds() const {
    const qint64 last = m_lastDelivery.load();
    return last == 0 ? -1 : m_options.clock->nowSecs() - last;
}

std::optional<UsageRecorder::RunSpan> UsageRecorder::runSpan(const PodInfo &pod, qint64 now) {
    QDateTime started = pod.containersStarted;
    if (!started.isValid() && pod.phase != PodInfo::Phase::Pending)
        started = pod.startTime;
    if (!started.isValid())
        return std::nullopt; // not running yet
    const qint64 start = started.toSecsSinceEpoch();
    std::optional<qint64> end;
    bool estimated = false;
    if (pod.containersFinished.isValid()) {
        end = pod.containersFinished.toSecsSinceEpoch();
    } else if (pod.phase == PodInfo::Phase::Succeeded || pod.phase == PodInfo::Phase::Failed) {
        end = now; // ended, but the kubelet did not say when: when we noticed
        estimated = true;
    } else if (const qint64 cutoff = quotaReleaseTime(pod); cutoff > 0 && now > cutoff) {
        end = cutoff; // stuck in Terminating: quota stopped charging it then, so do we
    }
    if (end && *end <= start)
        end = start + 1; // the ledger's unit is a second; a shorter run counts as one
    return RunSpan{start, end, estimated};
}

std::vector<UsageInterval> UsageRecorder::intervalsFor(const PodInfo &pod, const QString &cluster,
                                                       const QString &source, const NodeFacts &node,
                                                       qint64 now, const std::vector<DraHold> &dra) {
    std::vector<UsageInterval> out;
    if (pod.gpus.isEmpty() && dra.empty())
        return out;
    const auto span = runSpan(pod, now);
    if (!span)
        return out; // not running yet
    const qint64 start = span->start;
    const std::optional<qint64> end = span->end;
    const bool estimated = span->estimated;
    for (const GpuRequest &g : pod.gpus) {
        auto count = g.amount.toGpuCount();
        if (!count || *count <= 0)
            continue;
        UsageInterval iv;
        iv.cluster = cluster;
        iv.ns = pod.namespaceName;
        iv.user = pod.user.isEmpty() ? pod.namespaceName : pod.user;
        iv.podUid = pod.uid;
        iv.podName = pod.name;
        iv.resource = g.resource;
        iv.gpus = static_cast<int>(*count);
        iv.start = start;
        iv.end = end;
        iv.endEstimated = estimated;
        iv.source = source;
        iv.node = pod.nodeName;
        iv.gpuModel = node.gpuModel;
        if (g.resource == QLatin1String("nvidia.com/gpu.shared") && node.replicas > 0)
            iv.weight = 1.0 / node.replicas;
        out.push_back(iv);
    }
    for (const DraHold &h : dra) {
        UsageInterval iv;
        iv.cluster = cluster;
        iv.ns = pod.namespaceName;
        iv.user = pod.user.isEmpty() ? pod.namespaceName : pod.user;
        iv.podUid = pod.uid;
        iv.podName = pod.name;
        iv.resource = h.resource;
        iv.gpus = h.devices;
        iv.start = start;
        iv.end = h.sharedSpan ? h.spanEnd : end;
        if (iv.end && *iv.end <= start)
            iv.end = start + 1;
        iv.endEstimated = !h.sharedSpan && estimated;
        iv.source = source;
        iv.node = pod.nodeName;
        iv.gpuModel = h.gpuModel.isEmpty() ? node.gpuModel : h.gpuModel;
        iv.weight = h.weight;
        out.push_back(iv);
    }
    return out;
}

UsageRecorder::NodeFacts UsageRecorder::nodeFacts(const QString &node) const {
    NodeFacts facts;
    if (!m_nodes || node.isEmpty())
        return facts;
    const auto object = m_nodes->object(QString(), node);
    if (!object)
        return facts;
    const QJsonObject labels =
        object->object.value(QLatin1String("metadata")).toObject().value(QLatin1String("labels")).toObject();
    facts.gpuModel = labels.value(QLatin1String("nvidia.com/gpu.product")).toString();
    facts.replicas = labels.value(QLatin1String("nvidia.com/gpu.replicas")).toString().toInt();
    return facts;
}

// Where the resource-quota evaluator stops counting a terminating pod whose deletion
// never finishes (a lost node): deletionTimestamp + deletionGracePeriodSeconds, as
// QuotaV1Pod decides. 0 when the pod is not terminating.
qint64 UsageRecorder::quotaReleaseTime(const PodInfo &pod) {
    if (!pod.deletionTime.isValid() || pod.deletionGraceSeconds < 0)
        return 0;
    return pod.deletionTime.toSecsSinceEpoch() + pod.deletionGraceSeconds;
}

void UsageRecorder::submit(const UsageInterval &iv) {
    if (m_stopped)
        return;
    if (iv.end) {
        m_writer.submit(iv);
    } else {
        UsageInterval seen = iv; // a new row starts its heartbeat now
        seen.seen = m_options.clock->nowSecs();
        m_writer.submit(seen);
    }
    ++m_recorded;
}

void UsageRecorder::closeAll(Tracked &tracked, qint64 end) {
    for (UsageInterval &iv : tracked.states) {
        if (iv.end)
            continue;
        iv.end = std::max(end, iv.start + 1);
        submit(iv);
    }
}

// Brings one pod's submitted states up to what the cache says. A state once closed
// stays as it was closed: a later update of a finished pod must not move its end.
void UsageRecorder::refresh(const QString &key) {
    const qint64 now = m_options.clock->nowSecs();
    const qsizetype slash = key.indexOf(QLatin1Char('/'));
    const auto pod = m_pods->pod(key.left(slash), key.mid(slash + 1));
    auto it = m_tracked.find(key);
    if (!pod) {
        (void)draHolds(key, PodInfo{}, now); // forgets the pod's claims
        if (it != m_tracked.end()) {
            closeAll(*it, now); // deleted before its containers' end was seen
            m_tracked.erase(it);
        }
        return;
    }
    if (it != m_tracked.end() && it->uid != pod->uid) {
        closeAll(*it, now); // replaced by a new pod of the same name
        m_tracked.erase(it);
        it = m_tracked.end();
    }
    if (!pod->userEmail.isEmpty() && !pod->user.isEmpty()) {
        const QString seen = pod->user + QLatin1Char('\n') + pod->userEmail;
        if (!m_emailsSeen.contains(seen)) {
            m_emailsSeen.insert(seen);
            Q_EMIT userEmailSeen(pod->user, pod->userEmail);
        }
    }
    std::vector<DraHold> dra = draHolds(key, *pod, now);
    if (dra.empty() && !pod->claims.isEmpty() && it != m_tracked.end())
        dra = it->dra; // the claims went first (deleted with the pod): what they held
    const std::vector<UsageInterval> wanted =
        intervalsFor(*pod, m_options.cluster, m_options.source, nodeFacts(pod->nodeName), now, dra);
    if (wanted.empty() && it == m_tracked.end())
        return;
    // A pod stuck in Terminating gets no more events: look again when quota lets it go.
    if (const qint64 cutoff = quotaReleaseTime(*pod);
        cutoff > 0 && now <= cutoff && !m_recheck.contains(key)) {
        m_recheck.insert(key);
        QTimer::singleShot(std::chrono::seconds(cutoff - now + 1), this, [this, key] {
            m_recheck.remove(key);
            refresh(key);
            countOpen();
        });
    }
    if (it == m_tracked.end())
        it = m_tracked.insert(key, Tracked{pod->uid, {}, {}});
    if (!dra.empty())
        it->dra = dra;
    for (UsageInterval w : wanted) {
        // A running interval keeps the start it was opened with: a container restart
        // moves state.running.startedAt, but the pod held its GPUs all along.
        for (const UsageInterval &s : it->states)
            if (s.resource == w.resource && !s.end)
                w.start = s.start;
        if (w.end && *w.end <= w.start)
            w.end = w.start + 1;
        auto old = std::find_if(it->states.begin(), it->states.end(), [&](const UsageInterval &s) {
            return s.resource == w.resource && s.start == w.start;
        });
        if (old == it->states.end()) {
            const auto known = m_known.constFind(stateKey(w));
            // Ended while no controller watched, and the kubelet did not say when: the
            // row's last heartbeat is a closer guess than now.
            if (known != m_known.cend() && w.end && w.endEstimated && known->seen && *known->seen < *w.end)
                w.end = std::max(*known->seen, w.start + 1);
            it->states.push_back(w);
            if (known == m_known.cend() || !sameRow(*known, w))
                submit(w);
            continue;
        }
        if (old->end)
            continue;
        if (*old != w) {
            *old = w;
            submit(w);
        }
    }
}

void UsageRecorder::onPodsChanged(const QStringList &added, const QStringList &updated,
                                  const QStringList &deleted) {
    m_lastDelivery = m_options.clock->nowSecs();
    // The first list arrives as one change of every pod just before synced(): onSynced()
    // refreshes them all, against the open rows read once and in one batch. Refreshing
    // them here wrote each of them in a transaction of its own (50,000 commits at scale,
    // even when the database already held every row).
    if (!m_synced.load())
        return;
    for (const QStringList *list : {&added, &updated, &deleted})
        for (const QString &key : *list)
            refresh(key);
    refreshSharers();
    countOpen();
}

void UsageRecorder::onSynced() {
    m_lastDelivery = m_options.clock->nowSecs();
    // The first sync after a start: one read of the open rows instead of an upsert per
    // running pod (49,602 transactions for 50,000 pods before).
    if (!m_synced.load() && m_writer.databaseAvailable() && m_writer.spoolDepth() == 0) {
        if (auto open = m_writer.openIntervals(m_options.cluster, m_options.source)) {
            m_known.reserve(qsizetype(open->size()));
            for (const UsageInterval &iv : *open)
                m_known.insert(stateKey(iv), iv);
            m_startupOpen = std::move(*open); // the reconciliation's read, too
        }
    }
    // After a relist, pods deleted during the gap are simply absent.
    QStringList keys = m_tracked.keys();
    keys += m_pods->keys();
    keys.removeDuplicates();
    m_writer.beginBatch();
    for (const QString &key : std::as_const(keys))
        refresh(key);
    m_sharersDirty.clear(); // all refreshed already
    m_writer.endBatch();
    countOpen();
    if (!m_synced.exchange(true))
        qCInfo(lcRecorder) << "pod cache synced:" << m_pods->size() << "pods," << m_known.size()
                           << "running intervals already recorded";
    m_known.clear();
    maybeReconcile();
    m_startupOpen.reset();
}

void UsageRecorder::heartbeat() {
    if (m_stopped || !m_reconciled.load())
        return;
    m_writer.markSeen(m_options.cluster, m_options.source, m_options.clock->nowSecs());
}

void UsageRecorder::countOpen() {
    qint64 open = 0;
    for (const Tracked &t : std::as_const(m_tracked))
        for (const UsageInterval &iv : t.states)
            open += iv.end ? 0 : 1;
    m_open = open;
}

// Once per process: rows left open by an earlier run whose pod is gone (or no longer
// runs that interval) are closed when we noticed, since their real end is unknown.
void UsageRecorder::maybeReconcile() {
    if (m_stopped || m_reconciled.load() || !m_synced.load() || !m_writer.databaseAvailable())
        return;
    // Right after the first sync the rows it read are still what the database holds,
    // but for the states written since, which are all tracked (and skipped below).
    Result<std::vector<UsageInterval>> open =
        m_startupOpen && m_writer.spoolDepth() == 0 && m_writer.held() == 0
            ? Result<std::vector<UsageInterval>>(std::move(*m_startupOpen))
            : m_writer.openIntervals(m_options.cluster, m_options.source);
    m_startupOpen.reset();
    if (!open)
        return;                       // the writer retries; databaseReady calls again
    QSet<QString> live;               // every state tracked, open or closed: written as it is
    QHash<QString, qint64> shownFrom; // pod uid + resource -> the earliest start its status shows now
    for (const Tracked &t : std::as_const(m_tracked))
        for (const UsageInterval &iv : t.states) {
            live.insert(stateKey(iv));
            const QString hold = iv.podUid + QLatin1Char('|') + iv.resource;
            auto it = shownFrom.find(hold);
            if (it == shownFrom.end() || iv.start < *it)
                shownFrom.insert(hold, iv.start);
        }
    const qint64 now = m_options.clock->nowSecs();
    int closed = 0, estimated = 0;
    for (UsageInterval iv : *open) {
        if (live.contains(stateKey(iv)))
            continue;
        // Same pod, same resource, seen again from a later start: the row held the GPUs
        // up to where the current one takes over.
        const qint64 takenOver = shownFrom.value(iv.podUid + QLatin1Char('|') + iv.resource, 0);
        if (takenOver > iv.start) {
            iv.end = takenOver;
        } else {
            // Gone while no controller watched: its end is not known. It ran at least
            // until the last heartbeat that saw it (at most kSeenIntervalSeconds before
            // the controller stopped); rows from before schema v7 have none: now.
            iv.end = std::max(iv.seen ? std::min(*iv.seen, now) : now, iv.start + 1);
            iv.endEstimated = true;
            ++estimated;
        }
        m_writer.close(iv);
        ++m_recorded;
        ++closed;
    }
    m_reconciled = true;
    qCInfo(lcRecorder) << "reconciled the usage database with the cluster:" << closed
                       << "open intervals of vanished pods closed," << estimated
                       << "of them at an estimated end (last seen)";
    heartbeat();
    m_heartbeat.start();
    Q_EMIT reconcileFinished(closed);
}

} // namespace gq
