// NamespaceListModel's Kueue column: each namespace's LocalQueues and the GPU state of
// the ClusterQueue each one points at.
#include "models/quotas/namespacelistmodel.h"

namespace gq {

QString NamespaceListModel::queueText(const QList<NamespaceQueue> &queues) {
    QStringList parts;
    for (const NamespaceQueue &q : queues)
        parts.append(tr("%1 → %2 %3/%4").arg(q.localQueue, q.clusterQueue).arg(q.reserved).arg(q.nominal));
    return parts.join(QStringLiteral(", "));
}

QVariant NamespaceListModel::queueData(const QString &name, int role) const {
    const auto it = m_queues.constFind(name);
    switch (role) {
    case Qt::DisplayRole:
    case SortRole: return it == m_queues.cend() ? QString() : queueText(*it);
    case Qt::ToolTipRole: {
        if (it == m_queues.cend())
            return tr("No Kueue LocalQueue in this namespace");
        QStringList lines;
        for (const NamespaceQueue &q : *it)
            lines.append(tr("LocalQueue %1 → ClusterQueue %2: %3 of %4 nominal GPUs reserved, %n pending "
                            "workload(s)",
                            nullptr, q.pending)
                             .arg(q.localQueue, q.clusterQueue)
                             .arg(q.reserved)
                             .arg(q.nominal));
        return lines.join(u'\n');
    }
    default: return {};
    }
}

void NamespaceListModel::setQueues(const NamespaceQueueMap &queues) {
    if (queues == m_queues)
        return;
    const bool shown = hasQueues();
    m_queues = queues;
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, QueueColumn), index(int(m_rows.size()) - 1, QueueColumn),
                         {Qt::DisplayRole, Qt::ToolTipRole, SortRole});
    if (shown != hasQueues())
        emit queuesShownChanged(hasQueues());
}

} // namespace gq
