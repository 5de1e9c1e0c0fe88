#pragma once

// Each namespace's Kueue LocalQueues with their ClusterQueue's GPU state, for the
// namespace list ("nlp → cq-nlp 20/16": the LocalQueue, its ClusterQueue, the GPUs it
// has reserved of its nominal quota), read beside the ResourceQuotas while connected.

#include "core/jobs/jobtracker.h"
#include "core/kueue/kueueoverview.h"
#include "core/kueue/queueattribution.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

class QTimer;

namespace gq {

class ClusterConnection;

struct NamespaceQueue {
    QString localQueue;
    QString clusterQueue;
    qint64 reserved = 0; // GPUs the ClusterQueue holds now (all flavors)
    qint64 nominal = 0;  // its GPU nominal quota (all flavors)
    int pending = 0;     // the LocalQueue's pending Workloads
    friend bool operator==(const NamespaceQueue &, const NamespaceQueue &) = default;
};
using NamespaceQueueMap = QHash<QString, QList<NamespaceQueue>>;

// Namespace -> its LocalQueues (by name), from one read of Kueue's objects.
[[nodiscard]] NamespaceQueueMap namespaceQueues(const kueue::Snapshot &snapshot);
// Where each namespace's GPU-hours go when usage is grouped by queue (charts, chargeback).
[[nodiscard]] kueue::QueueAttribution queueAttribution(const NamespaceQueueMap &queues);

// Reads Kueue's objects on the thread pool when the connection syncs and every 30 s,
// and emits what changed. Without Kueue (or without the right to read it) the map is empty.
class NamespaceQueueFeed final : public QObject {
    Q_OBJECT
public:
    explicit NamespaceQueueFeed(QObject *parent = nullptr);
    void setConnection(ClusterConnection *connection);
    void refresh();
    [[nodiscard]] const NamespaceQueueMap &queues() const { return m_queues; }

signals:
    void queuesChanged(const gq::NamespaceQueueMap &queues);
    // After every read, changed or not.
    void read();

private:
    QPointer<ClusterConnection> m_connection;
    QTimer *m_timer;
    NamespaceQueueMap m_queues;
    JobTracker m_jobs{this};
};

} // namespace gq
