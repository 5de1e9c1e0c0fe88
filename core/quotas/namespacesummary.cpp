#include "core/quotas/namespacesummary.h"

#include "core/quotas/gpuquotakeys.h"

#include <QCoreApplication>
#include <QLocale>

#include <limits>

namespace gq {

double UsageBar::ratio() const {
    if (!hard)
        return -1.0;
    if (hard->isZero())
        return used.isZero() ? 0.0 : std::numeric_limits<double>::infinity();
    return used.toDouble() / hard->toDouble();
}

QString BudgetUse::text() const {
    const QLocale locale;
    const QString used = locale.toString(usedGpuHours, 'f', 1);
    const QString limit = locale.toString(limitGpuHours, 'f', 1);
    switch (period) {
    case Period::Day:
        return QCoreApplication::translate("gq::BudgetUse", "%1 of %2 GPU-h today").arg(used, limit);
    case Period::Week:
        return QCoreApplication::translate("gq::BudgetUse", "%1 of %2 GPU-h this week").arg(used, limit);
    case Period::Month:
        return QCoreApplication::translate("gq::BudgetUse", "%1 of %2 GPU-h this month").arg(used, limit);
    }
    return {};
}

BudgetUse::State BudgetUse::state() const {
    if (over())
        return inGrace ? State::InGrace : State::Over;
    if (limitGpuHours > 0 && usedGpuHours >= kNear * limitGpuHours)
        return State::Near;
    return State::Within;
}

NamespaceRows NamespaceRows::of(QList<NamespaceSummary> rows) {
    NamespaceRows r;
    r.rows = std::move(rows);
    r.index.reserve(r.rows.size());
    for (int i = 0; i < r.rows.size(); ++i)
        r.index.insert(r.rows.at(i).name, i);
    return r;
}

bool NamespaceSummary::nearLimit() const {
    return gpu.ratio() >= kNearLimit || cpu.ratio() >= kNearLimit || memory.ratio() >= kNearLimit;
}

namespace {
// The first key present wins: requests are what quota admission checks for
// extended resources, and bare `cpu`/`memory` are the legacy spelling.
UsageBar pickBar(const QList<QuotaUsage> &quotas, std::initializer_list<const char *> keys) {
    UsageBar best;
    bool found = false;
    for (const QuotaUsage &q : quotas) {
        for (const char *k : keys) {
            const QString key = QLatin1String(k);
            auto h = q.hard.constFind(key);
            if (h == q.hard.constEnd())
                continue;
            UsageBar candidate{q.used.value(key), *h, true, key};
            if (!found || candidate.ratio() > best.ratio()) {
                best = candidate;
                found = true;
            }
            break;
        }
    }
    if (!found) {
        // No limit anywhere, but show what is used if a quota tracks it.
        for (const QuotaUsage &q : quotas)
            for (const char *k : keys)
                if (auto u = q.used.constFind(QLatin1String(k)); u != q.used.constEnd())
                    return UsageBar{*u, std::nullopt, true, QLatin1String(k)};
    }
    return best;
}
} // namespace

namespace {
bool isGpuQuotaKey(const QString &key) {
    return gpukeys::isGpuQuotaKey(key);
}

// GPUs may be quota'd as whole devices or MIG profiles; the bar shows the one
// closest to its limit.
UsageBar pickGpuBar(const QList<QuotaUsage> &quotas) {
    UsageBar best = pickBar(quotas, {"requests.nvidia.com/gpu", "nvidia.com/gpu", "limits.nvidia.com/gpu"});
    if (best.hard)
        return best;
    for (const QuotaUsage &q : quotas) {
        for (auto it = q.hard.constBegin(); it != q.hard.constEnd(); ++it) {
            if (!isGpuQuotaKey(it.key()))
                continue;
            UsageBar candidate{q.used.value(it.key()), it.value(), true, it.key()};
            if (!best.hard || candidate.ratio() > best.ratio())
                best = candidate;
        }
    }
    return best;
}

QStringList notEnforcedGpuLimits(const QList<QuotaUsage> &quotas) {
    QStringList out;
    for (const QuotaUsage &q : quotas)
        for (auto it = q.hard.constBegin(); it != q.hard.constEnd(); ++it) {
            if (!isGpuQuotaKey(it.key()))
                continue;
            const auto enforced = q.statusHard.find(it.key());
            if (enforced != q.statusHard.constEnd() && *enforced == it.value())
                continue;
            out << QStringLiteral("%1: %2 %3 (enforced: %4)")
                       .arg(q.name, it.key(), it.value().toString(),
                            enforced == q.statusHard.constEnd() ? QStringLiteral("—") : enforced->toString());
        }
    return out;
}
} // namespace

NamespaceSummary NamespaceSummary::fromQuotas(const QString &name, const QList<QuotaUsage> &quotas) {
    NamespaceSummary s;
    s.name = name;
    s.quotaCount = int(quotas.size());
    s.gpu = pickGpuBar(quotas);
    s.cpu = pickBar(quotas, {"requests.cpu", "cpu", "limits.cpu"});
    s.memory = pickBar(quotas, {"requests.memory", "memory", "limits.memory"});
    s.notEnforced = notEnforcedGpuLimits(quotas);
    return s;
}

} // namespace gq
