#include "services/queues/namespacequeues.h"

#include "services/cluster/clusterconnection.h"
#include "core/kube/kubeclient.h"
#include "core/kueue/kueuereader.h"

#include <QTimer>

#include <algorithm>

namespace gq {

namespace {
constexpr int kRefreshMs = 30000;
}

NamespaceQueueMap namespaceQueues(const kueue::Snapshot &snapshot) {
    QHash<QString, std::pair<qint64, qint64>> gpus; // ClusterQueue -> reserved, nominal
    for (const kueue::GpuRow &row : kueue::gpuRows(snapshot)) {
        auto &g = gpus[row.clusterQueue];
        g.first += row.reserved;
        g.second += row.nominal;
    }
    NamespaceQueueMap out;
    for (const kueue::LocalQueue &lq : snapshot.localQueues) {
        NamespaceQueue q;
        q.localQueue = lq.name;
        q.clusterQueue = lq.clusterQueue;
        q.pending = lq.pendingWorkloads;
        const auto g = gpus.constFind(lq.clusterQueue);
        if (g != gpus.cend()) {
            q.reserved = g->first;
            q.nominal = g->second;
        }
        out[lq.ns].append(q);
    }
    for (QList<NamespaceQueue> &list : out)
        std::sort(list.begin(), list.end(), [](const NamespaceQueue &a, const NamespaceQueue &b) {
            return a.localQueue < b.localQueue;
        });
    return out;
}

NamespaceQueueFeed::NamespaceQueueFeed(QObject *parent)
    : QObject(parent)
    , m_timer(new QTimer(this)) {
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &NamespaceQueueFeed::refresh);
}

void NamespaceQueueFeed::setConnection(ClusterConnection *connection) {
    if (m_connection)
        disconnect(m_connection, nullptr, this, nullptr);
    m_connection = connection;
    m_jobs.cancel();
    if (!m_queues.isEmpty()) {
        m_queues.clear();
        emit queuesChanged(m_queues);
    }
    if (!m_connection) {
        m_timer->stop();
        return;
    }
    connect(m_connection, &ClusterConnection::synced, this, &NamespaceQueueFeed::refresh);
    m_timer->start();
    refresh();
}

void NamespaceQueueFeed::refresh() {
    const std::shared_ptr<KubeClient> client = m_connection ? m_connection->client() : nullptr;
    if (!client)
        return;
    m_jobs.cancel();
    m_jobs.run([client] { return kueue::readSnapshot(*client); },
               [this](const Result<kueue::Snapshot> &result) {
                   NamespaceQueueMap next = result ? namespaceQueues(*result) : NamespaceQueueMap{};
                   if (next != m_queues) {
                       m_queues = std::move(next);
                       emit queuesChanged(m_queues);
                   }
                   emit read();
               });
}

kueue::QueueAttribution queueAttribution(const NamespaceQueueMap &queues) {
    std::vector<kueue::LocalQueue> list;
    for (auto it = queues.cbegin(); it != queues.cend(); ++it)
        for (const NamespaceQueue &q : it.value())
            list.push_back(kueue::LocalQueue{it.key(), q.localQueue, q.clusterQueue, 0, 0});
    return kueue::QueueAttribution(list);
}

} // namespace gq
