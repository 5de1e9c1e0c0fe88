#include "core/kueue/queueattribution.h"

#include <QStringList>

#include <algorithm>

namespace gq::kueue {

std::optional<QueueLevel> parseQueueLevel(const QString &text) {
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("clusterqueue") || t == QLatin1String("cq"))
        return QueueLevel::ClusterQueue;
    if (t == QLatin1String("localqueue") || t == QLatin1String("lq"))
        return QueueLevel::LocalQueue;
    return std::nullopt;
}

QString queueLevelKey(QueueLevel level) {
    return level == QueueLevel::ClusterQueue ? QStringLiteral("clusterQueue") : QStringLiteral("localQueue");
}

QString queueLevelName(QueueLevel level) {
    return level == QueueLevel::ClusterQueue ? QStringLiteral("clusterqueue") : QStringLiteral("localqueue");
}

QueueAttribution::QueueAttribution(const std::vector<LocalQueue> &localQueues) {
    for (const LocalQueue &lq : localQueues)
        m_byNamespace[lq.ns].emplace_back(lq.name, lq.clusterQueue);
    for (auto &queues : m_byNamespace)
        std::sort(queues.begin(), queues.end());
}

QString QueueAttribution::subjectOf(const QString &ns, QueueLevel level) const {
    const auto it = m_byNamespace.constFind(ns);
    if (it == m_byNamespace.constEnd() || it->empty())
        return kNoQueue;
    QStringList names;
    for (const auto &[localQueue, clusterQueue] : *it) {
        const QString name = level == QueueLevel::LocalQueue ? localQueue
                             : clusterQueue.isEmpty()        ? kNoQueue
                                                             : clusterQueue;
        if (!names.contains(name))
            names << name;
    }
    names.sort();
    const QString joined = names.join(QLatin1Char('+'));
    return level == QueueLevel::LocalQueue ? ns + QLatin1Char('/') + joined : joined;
}

QString QueueAttribution::subjectOfAll(const QStringList &namespaces, QueueLevel level) const {
    QStringList names;
    for (const QString &ns : namespaces) {
        // A ClusterQueue subject may itself be joint: its parts count one by one (a
        // LocalQueue subject "ns/a+b" stays whole, its namespace tells it apart).
        const QString subject = subjectOf(ns, level);
        const QStringList parts = level == QueueLevel::ClusterQueue && subject != kNoQueue
                                      ? subject.split(QLatin1Char('+'))
                                      : QStringList{subject};
        for (const QString &part : parts)
            if (!names.contains(part))
                names << part;
    }
    if (names.isEmpty())
        return kNoQueue;
    names.sort();
    return names.join(QLatin1Char('+'));
}

} // namespace gq::kueue
