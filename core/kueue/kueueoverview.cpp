#include "core/kueue/kueueoverview.h"

#include <QSet>

#include <algorithm>
#include <tuple>

namespace gq::kueue {

namespace {

qint64 amount(const std::vector<FlavorAmounts> &list, const QString &flavor, const QString &resource,
              bool borrowed) {
    for (const FlavorAmounts &a : list) {
        if (a.flavor != flavor)
            continue;
        const auto &m = borrowed ? a.borrowed : a.total;
        auto it = m.find(resource);
        return it == m.end() ? 0 : it->second.value();
    }
    return 0;
}

// Spreads what each cohort's queues borrow of a flavor's resource over the other queues'
// idle lendable GPUs, in name order: Kueue records what a queue borrows, not from whom.
void estimateLent(std::vector<GpuRow> &rows) {
    std::map<std::tuple<QString, QString, QString>, std::vector<GpuRow *>> byKey;
    for (GpuRow &r : rows)
        if (!r.cohort.isEmpty())
            byKey[{r.cohort, r.flavor, r.resource}].push_back(&r);
    for (auto &[key, members] : byKey) {
        qint64 borrowedTotal = 0;
        for (const GpuRow *r : members)
            borrowedTotal += r->borrowed;
        for (GpuRow *r : members) {
            if (borrowedTotal <= 0)
                break;
            const qint64 idle = std::max<qint64>(0, r->nominal - r->reserved);
            const qint64 lendable = r->lendingLimit ? std::min(idle, *r->lendingLimit) : idle;
            r->lent = std::min(lendable, borrowedTotal);
            borrowedTotal -= r->lent;
        }
    }
}

bool pendingBefore(const Workload &a, const Workload &b) {
    if (a.priority != b.priority)
        return a.priority > b.priority;
    if (a.createdMs != b.createdMs)
        return a.createdMs < b.createdMs;
    return std::tie(a.ns, a.name) < std::tie(b.ns, b.name);
}

} // namespace

const ClusterQueue *Snapshot::clusterQueue(const QString &name) const {
    for (const ClusterQueue &cq : clusterQueues)
        if (cq.name == name)
            return &cq;
    return nullptr;
}

QString Snapshot::clusterQueueOf(const Workload &w) const {
    if (!w.clusterQueue.isEmpty())
        return w.clusterQueue;
    for (const LocalQueue &lq : localQueues)
        if (lq.ns == w.ns && lq.name == w.queueName)
            return lq.clusterQueue;
    return {};
}

std::vector<GpuRow> gpuRows(const Snapshot &s) {
    std::map<QString, int> pending;
    for (const Workload &w : s.workloads)
        if (w.pending())
            ++pending[s.clusterQueueOf(w)];
    std::vector<GpuRow> rows;
    for (const ClusterQueue &cq : s.clusterQueues)
        for (const ResourceGroup &g : cq.resourceGroups)
            for (const FlavorQuotas &f : g.flavors)
                for (const ResourceLimits &r : f.resources) {
                    if (!isGpuResource(r.name))
                        continue;
                    GpuRow row;
                    row.clusterQueue = cq.name;
                    row.cohort = cq.cohort;
                    row.flavor = f.flavor;
                    row.resource = r.name;
                    row.nominal = r.nominal.value();
                    if (r.borrowingLimit)
                        row.borrowingLimit = r.borrowingLimit->value();
                    if (r.lendingLimit)
                        row.lendingLimit = r.lendingLimit->value();
                    row.reserved = amount(cq.reservation, f.flavor, r.name, false);
                    row.used = amount(cq.usage, f.flavor, r.name, false);
                    row.borrowed = amount(cq.reservation, f.flavor, r.name, true);
                    // Counted from the Workloads read with it; the status' count without them.
                    auto it = pending.find(cq.name);
                    row.pending =
                        s.workloads.empty() ? cq.pendingWorkloads : (it == pending.end() ? 0 : it->second);
                    rows.push_back(std::move(row));
                }
    estimateLent(rows);
    return rows;
}

std::vector<CohortNode> cohortTree(const Snapshot &s) {
    std::map<QString, CohortNode> nodes;
    for (const Cohort &c : s.cohorts)
        nodes[c.name].cohort = c;
    auto ensure = [&nodes](const QString &name) -> CohortNode & {
        CohortNode &n = nodes[name];
        if (n.cohort.name.isEmpty()) {
            n.cohort.name = name;
            n.cohort.implicit = true;
        }
        return n;
    };
    for (const ClusterQueue &cq : s.clusterQueues)
        if (!cq.cohort.isEmpty())
            ensure(cq.cohort).clusterQueues.append(cq.name);
    for (const Cohort &c : s.cohorts)
        if (!c.parent.isEmpty())
            ensure(c.parent).children.append(c.name);
    std::vector<CohortNode> out;
    for (auto &[name, node] : nodes) {
        node.children.sort();
        node.clusterQueues.sort();
        out.push_back(node);
    }
    std::stable_sort(out.begin(), out.end(), [](const CohortNode &a, const CohortNode &b) {
        return a.cohort.parent.isEmpty() && !b.cohort.parent.isEmpty();
    });
    return out;
}

std::vector<Workload> pendingInOrder(const Snapshot &s, const QString &ns) {
    std::vector<Workload> out;
    for (const Workload &w : s.workloads)
        if (w.pending() && (ns.isEmpty() || w.ns == ns))
            out.push_back(w);
    std::sort(out.begin(), out.end(), pendingBefore);
    return out;
}

std::vector<Workload> holdingQuota(const Snapshot &s, const QString &ns) {
    std::vector<Workload> out;
    for (const Workload &w : s.workloads)
        if (w.quotaReserved && !w.finished && (ns.isEmpty() || w.ns == ns))
            out.push_back(w);
    std::sort(out.begin(), out.end(), [](const Workload &a, const Workload &b) {
        return std::tie(a.reservedMs, a.ns, a.name) < std::tie(b.reservedMs, b.ns, b.name);
    });
    return out;
}

} // namespace gq::kueue
