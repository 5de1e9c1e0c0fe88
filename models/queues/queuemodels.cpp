#include "models/queues/queuemodels.h"

#include <algorithm>
#include <map>

namespace gq {

namespace {

QStandardItem *textItem(const QString &text) {
    auto *item = new QStandardItem(text);
    item->setEditable(false);
    return item;
}

QStandardItem *numberItem(qint64 n) {
    QStandardItem *item = textItem(QString::number(n));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QStandardItem *optionalItem(const std::optional<qint64> &n) {
    QStandardItem *item = n ? numberItem(*n) : textItem(QStringLiteral("–"));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QList<QStandardItem *> blankRow(QStandardItem *first, int columns) {
    QList<QStandardItem *> row{first};
    for (int c = 1; c < columns; ++c)
        row << textItem(QString());
    return row;
}

} // namespace

QueueTreeModel::QueueTreeModel(QObject *parent)
    : QStandardItemModel(parent) {
    retranslate();
}

void QueueTreeModel::retranslate() {
    setHorizontalHeaderLabels({tr("Cohort / ClusterQueue / flavor"), tr("Nominal"), tr("Borrowing limit"),
                               tr("Lending limit"), tr("Reserved"), tr("Borrowed"), tr("Lent"),
                               tr("Pending")});
    if (!m_snapshot.apiVersion.isEmpty())
        setSnapshot(m_snapshot);
}

QList<QStandardItem *> QueueTreeModel::clusterQueueRow(const kueue::ClusterQueue &cq,
                                                       const kueue::Snapshot &s,
                                                       const std::vector<kueue::GpuRow> &rows) {
    auto *name = textItem(cq.stopped ? tr("%1 (stopped)").arg(cq.name) : cq.name);
    name->setData(QStringLiteral("clusterqueue"), KindRole);
    name->setData(cq.name, ObjectNameRole);
    qint64 nominal = 0, reserved = 0, borrowed = 0, lent = 0;
    int pending = cq.pendingWorkloads;
    for (const kueue::GpuRow &r : rows) {
        if (r.clusterQueue != cq.name)
            continue;
        nominal += r.nominal;
        reserved += r.reserved;
        borrowed += r.borrowed;
        lent += r.lent;
        pending = r.pending;
        auto *flavor = textItem(tr("%1 · %2").arg(r.flavor, r.resource));
        flavor->setData(QStringLiteral("flavor"), KindRole);
        flavor->setData(r.flavor, ObjectNameRole);
        flavor->setData(r.resource, ResourceRole);
        name->appendRow({flavor, numberItem(r.nominal), optionalItem(r.borrowingLimit),
                         optionalItem(r.lendingLimit), numberItem(r.reserved), numberItem(r.borrowed),
                         numberItem(r.lent), textItem(QString())});
    }
    for (const kueue::LocalQueue &lq : s.localQueues) {
        if (lq.clusterQueue != cq.name)
            continue;
        auto *item = textItem(tr("LocalQueue %1 in namespace %2").arg(lq.name, lq.ns));
        item->setData(QStringLiteral("localqueue"), KindRole);
        item->setData(QString(lq.ns + u'/' + lq.name), ObjectNameRole);
        name->appendRow(blankRow(item, ColumnCount));
    }
    return {name,
            numberItem(nominal),
            textItem(QString()),
            textItem(QString()),
            numberItem(reserved),
            numberItem(borrowed),
            numberItem(lent),
            numberItem(pending)};
}

void QueueTreeModel::setSnapshot(const kueue::Snapshot &snapshot) {
    m_snapshot = snapshot;
    removeRows(0, rowCount());
    const std::vector<kueue::GpuRow> rows = kueue::gpuRows(snapshot);
    const std::vector<kueue::CohortNode> tree = kueue::cohortTree(snapshot);
    std::map<QString, QStandardItem *> cohortItems;
    // Roots come first in cohortTree(); a child is placed once its parent's item exists.
    std::vector<const kueue::CohortNode *> waiting;
    for (const kueue::CohortNode &n : tree)
        waiting.push_back(&n);
    while (!waiting.empty()) {
        std::vector<const kueue::CohortNode *> next;
        for (const kueue::CohortNode *n : waiting) {
            QStandardItem *parent = nullptr;
            if (!n->cohort.parent.isEmpty()) {
                auto it = cohortItems.find(n->cohort.parent);
                if (it == cohortItems.end()) {
                    next.push_back(n);
                    continue;
                }
                parent = it->second;
            }
            auto *item = textItem(n->cohort.implicit ? tr("Cohort %1 (no Cohort object)").arg(n->cohort.name)
                                                     : tr("Cohort %1").arg(n->cohort.name));
            item->setData(QStringLiteral("cohort"), KindRole);
            item->setData(n->cohort.name, ObjectNameRole);
            cohortItems[n->cohort.name] = item;
            const QList<QStandardItem *> row = blankRow(item, ColumnCount);
            if (parent)
                parent->appendRow(row);
            else
                appendRow(row);
            for (const QString &cqName : n->clusterQueues)
                if (const kueue::ClusterQueue *cq = snapshot.clusterQueue(cqName))
                    item->appendRow(clusterQueueRow(*cq, snapshot, rows));
        }
        if (next.size() == waiting.size())
            break; // a parent cycle: Kueue's webhook rejects these; show what can be placed
        waiting = std::move(next);
    }
    for (const kueue::ClusterQueue &cq : snapshot.clusterQueues)
        if (cq.cohort.isEmpty())
            appendRow(clusterQueueRow(cq, snapshot, rows));
}

WorkloadListModel::WorkloadListModel(QObject *parent)
    : QStandardItemModel(parent) {
    retranslate();
}

void WorkloadListModel::retranslate() {
    setHorizontalHeaderLabels({tr("Namespace"), tr("Workload"), tr("ClusterQueue"), tr("State"),
                               tr("Position"), tr("GPUs"), tr("Flavor"), tr("Age"), tr("Reason")});
}

QString WorkloadListModel::ageText(qint64 ms, qint64 nowMs) {
    if (ms <= 0)
        return QStringLiteral("–");
    const qint64 s = std::max<qint64>(0, (nowMs - ms) / 1000);
    if (s < 120)
        return tr("%1 s").arg(s);
    if (s < 2 * 3600)
        return tr("%1 min").arg(s / 60);
    if (s < 2 * 86400)
        return tr("%1 h").arg(s / 3600);
    return tr("%1 d").arg(s / 86400);
}

void WorkloadListModel::setSnapshot(const kueue::Snapshot &snapshot, const QString &ns, qint64 nowMs) {
    removeRows(0, rowCount());
    std::map<QString, int> positions;
    for (const kueue::Workload &w : kueue::pendingInOrder(snapshot, ns)) {
        const QString cq = snapshot.clusterQueueOf(w);
        appendRow({textItem(w.ns), textItem(w.name), textItem(cq), textItem(tr("pending")),
                   numberItem(++positions[cq]), numberItem(w.gpus), textItem(QStringLiteral("–")),
                   textItem(ageText(w.createdMs, nowMs)), textItem(w.reason)});
    }
    for (const kueue::Workload &w : kueue::holdingQuota(snapshot, ns)) {
        QStringList flavors;
        for (const auto &[resource, flavor] : w.gpuFlavors)
            flavors << flavor;
        appendRow({textItem(w.ns), textItem(w.name), textItem(snapshot.clusterQueueOf(w)),
                   textItem(w.admitted ? tr("admitted") : tr("quota reserved")), textItem(QString()),
                   numberItem(w.gpus), textItem(flavors.isEmpty() ? QStringLiteral("–") : flavors.join(u',')),
                   textItem(ageText(w.reservedMs > 0 ? w.reservedMs : w.createdMs, nowMs)),
                   textItem(w.reason)});
    }
}

} // namespace gq
