#pragma once

// Which Kueue queue a namespace's GPU-hours are charged to when charts and chargeback group
// usage by ClusterQueue or LocalQueue. The ledger records pods, not queues: a namespace's
// usage goes to its LocalQueue (namespace -> LocalQueue -> ClusterQueue, from the cluster's
// LocalQueues as they are now). A namespace with several LocalQueues cannot be split by pod,
// so its usage goes to them jointly ("team-a/batch+interactive"), and to their ClusterQueue
// when they all point at the same one (otherwise to the joint "cq-a+cq-b"). A namespace
// without a LocalQueue is "(no queue)". Pure (Qt Core).

#include "core/kueue/kueuemodel.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

namespace gq::kueue {

enum class QueueLevel { ClusterQueue, LocalQueue };

// "clusterqueue" / "localqueue" (also "cq" / "lq"; case-insensitive); nullopt otherwise.
[[nodiscard]] std::optional<QueueLevel> parseQueueLevel(const QString &text);
// The JSON key of a subject at `level`: "clusterQueue" | "localQueue".
[[nodiscard]] QString queueLevelKey(QueueLevel level);
// The --by value: "clusterqueue" | "localqueue".
[[nodiscard]] QString queueLevelName(QueueLevel level);

// The subject of a namespace without a LocalQueue.
inline const QString kNoQueue = QStringLiteral("(no queue)");

class QueueAttribution {
public:
    QueueAttribution() = default;
    explicit QueueAttribution(const std::vector<LocalQueue> &localQueues);

    // The queue `ns`'s usage is charged to at `level` (see the header comment).
    [[nodiscard]] QString subjectOf(const QString &ns, QueueLevel level) const;
    // The queue of GPU-hours that went to several namespaces (a user's budget: the
    // namespaces the user ran in this period): the queues of `namespaces` jointly
    // ("cq-a+cq-b"); one namespace gives subjectOf(); none gives kNoQueue.
    [[nodiscard]] QString subjectOfAll(const QStringList &namespaces, QueueLevel level) const;
    [[nodiscard]] bool isEmpty() const { return m_byNamespace.isEmpty(); }

private:
    // namespace -> (LocalQueue, ClusterQueue), by LocalQueue name
    QHash<QString, std::vector<std::pair<QString, QString>>> m_byNamespace;
};

// Sums per-namespace values into their queues at `level`.
template <typename Map>
[[nodiscard]] Map regroup(const Map &perNamespace, const QueueAttribution &a, QueueLevel level) {
    Map out;
    for (auto it = perNamespace.cbegin(); it != perNamespace.cend(); ++it)
        out[a.subjectOf(it.key(), level)] += it.value();
    return out;
}

} // namespace gq::kueue
