#include "core/usage/admissionchecker.h"

#include "core/usage/changemonitor.h"
#include "core/usage/checkinputs.h"

#include <QHash>

namespace gq {

namespace {
QList<Decision> decideEach(const CheckSubject *subjects[2], const AdmissionRequest &request, qint64 now,
                           const ResourceWeights &weights) {
    QList<Decision> decisions;
    for (int k = 0; k < 2; ++k) {
        const CheckSubject &sub = *subjects[k];
        double boost = 0;
        for (const CheckBoost &b : sub.boosts)
            if (b.start <= now && b.expiry > now)
                boost += b.delta;
        // Budgets count weighted GPU-hours (x the GPU model's weight stored with each
        // row); the raw hours go along for display.
        double runningGpus = 0;
        for (const UsageInterval &iv : sub.running)
            if (iv.start <= now)
                runningGpus += iv.gpus * weights.weight(iv.resource) * iv.modelWeight.value_or(1.0);
        for (const CheckNeed &n : sub.needs) {
            double raw = n.closedSeconds;
            double weighted = n.closedSeconds + n.closedExtraSeconds;
            for (const UsageInterval &iv : sub.running) {
                const double s = gpuSeconds(iv, n.period, now, weights);
                raw += s;
                weighted += s * iv.modelWeight.value_or(1.0);
            }
            Decision d = decideNewcomer(n.budget, n.period, weighted / 3600.0, runningGpus, request, boost,
                                        sub.newcomer, now);
            d.usedRaw = raw / 3600.0;
            decisions << d;
        }
    }
    return decisions;
}
} // namespace

struct AdmissionChecker::Cache {
    static constexpr qsizetype kMaxEntries = 100000; // per scope; a full table starts over
    QHash<QString, CheckSubject> entries[2];         // [0] users, [1] namespaces
    std::unique_ptr<ChangeMonitor> monitor;
    qint64 fromCache = 0;
    qint64 reads = 0;
    void clear() {
        entries[0].clear();
        entries[1].clear();
    }
};

AdmissionChecker::AdmissionChecker(const ResourceWeights &weights, const CheckInputReader &reader)
    : m_weights(weights)
    , m_reader(reader) {}

AdmissionChecker::~AdmissionChecker() = default;

void AdmissionChecker::keepInputs(std::unique_ptr<ChangeMonitor> monitor) {
    m_cache = std::make_unique<Cache>();
    m_cache->monitor = std::move(monitor);
}

UsageStore::CheckCacheStats AdmissionChecker::stats() const {
    if (!m_cache)
        return {};
    UsageStore::CheckCacheStats s;
    s.active = m_cache->monitor->usable();
    s.fromCache = m_cache->fromCache;
    s.reads = m_cache->reads;
    s.changes = m_cache->monitor->changes();
    return s;
}

void AdmissionChecker::drop() const {
    if (m_cache)
        m_cache->clear();
}

bool AdmissionChecker::refresh() const {
    switch (m_cache->monitor->poll()) {
    case ChangeMonitor::Freshness::Untrusted: return false;
    case ChangeMonitor::Freshness::Lost: m_cache->clear(); return false;
    case ChangeMonitor::Freshness::Changed: m_cache->clear(); return true;
    case ChangeMonitor::Freshness::Unchanged: return true;
    }
    return false;
}

Result<Decision> AdmissionChecker::check(const QString &user, const QString &ns,
                                         const AdmissionRequest &request, qint64 now) const {
    auto each = checkEach(user, ns, request, now);
    if (!each)
        return each.error();
    return combine(*each, request);
}

Result<QList<Decision>> AdmissionChecker::checkEach(const QString &user, const QString &ns,
                                                    const AdmissionRequest &request, qint64 now) const {
    CheckSubject loaded[2];
    const CheckSubject *use[2] = {&loaded[0], &loaded[1]};
    if (!m_cache || !refresh()) {
        if (auto r = m_reader.read(user, ns, true, true, now, loaded); !r)
            return r.error();
        return decideEach(use, request, now, m_weights);
    }
    Cache &cache = *m_cache;
    const QString *names[2] = {&user, &ns};
    bool load[2] = {false, false};
    for (int k = 0; k < 2; ++k) {
        if (names[k]->isEmpty()) {
            loaded[k].scope = k == 0 ? BudgetScope::User : BudgetScope::Namespace;
            continue; // nothing to read for no subject
        }
        auto it = cache.entries[k].constFind(*names[k]);
        if (it != cache.entries[k].cend() && now >= it->readAt && now >= it->validFrom &&
            now < it->validUntil)
            use[k] = &*it;
        else
            load[k] = true;
    }
    if (!load[0] && !load[1])
        ++cache.fromCache;
    if (load[0] || load[1]) {
        ++cache.reads;
        if (auto r = m_reader.read(user, ns, load[0], load[1], now, loaded); !r)
            return r.error();
        for (int k = 0; k < 2; ++k)
            if (load[k]) {
                if (cache.entries[k].size() >= Cache::kMaxEntries)
                    cache.entries[k].clear();
                use[k] = &*cache.entries[k].insert(*names[k], std::move(loaded[k]));
            }
    }
    return decideEach(use, request, now, m_weights);
}

} // namespace gq
