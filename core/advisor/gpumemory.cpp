#include "core/advisor/gpumemory.h"

#include "core/domain/quantity.h"

#include <QJsonArray>
#include <QMap>
#include <QRegularExpression>
#include <QStringList>

namespace gq::advisor {

namespace {
constexpr qint64 kMiB = 1024 * 1024;
}

std::optional<qint64> gpuMemoryForProduct(const QString &product) {
    const QString p = product.toUpper();
    static const QRegularExpression mig(QStringLiteral("(?:^|MIG-)\\d+G\\.(\\d+)GB$"));
    if (const auto m = mig.match(p); m.hasMatch())
        return m.captured(1).toLongLong() * 1024 * kMiB;
    const bool gb80 = p.contains(QLatin1String("80GB")), gb40 = p.contains(QLatin1String("40GB"));
    if (p.contains(QLatin1String("H100")) && (gb80 || !p.contains(QLatin1String("GB"))))
        return 81559 * kMiB;
    if (p.contains(QLatin1String("A100")) && gb80)
        return 81920 * kMiB;
    if (p.contains(QLatin1String("A100")) && gb40)
        return 40960 * kMiB;
    if (p.contains(QLatin1String("L40S")) || p.contains(QLatin1String("L40")))
        return 46068 * kMiB;
    static const QRegularExpression l4(QStringLiteral("(?:^|[^A-Z0-9])L4(?:$|[^0-9])"));
    if (l4.match(p).hasMatch())
        return 23034 * kMiB;
    static const QRegularExpression a10(QStringLiteral("(?:^|[^A-Z0-9])A10(?:$|[^0-9])"));
    if (a10.match(p).hasMatch())
        return 23028 * kMiB;
    if (p.contains(QLatin1String("T4")))
        return 15360 * kMiB;
    if (p.contains(QLatin1String("4090")))
        return 24564 * kMiB;
    static const QRegularExpression gb(QStringLiteral("(\\d+)GB"));
    if (const auto m = gb.match(p); m.hasMatch())
        return m.captured(1).toLongLong() * 1024 * kMiB;
    return std::nullopt;
}

Result<ClusterGpu> clusterGpu(const QList<QJsonObject> &nodes) {
    QMap<QString, ClusterGpu> byProduct;
    for (const QJsonObject &n : nodes) {
        const QJsonObject labels =
            n.value(QLatin1String("metadata")).toObject().value(QLatin1String("labels")).toObject();
        const QString product = labels.value(QLatin1String("nvidia.com/gpu.product")).toString();
        const auto count = Quantity::parse(n.value(QLatin1String("status"))
                                               .toObject()
                                               .value(QLatin1String("capacity"))
                                               .toObject()
                                               .value(QLatin1String("nvidia.com/gpu"))
                                               .toString(QStringLiteral("0")));
        if (product.isEmpty() || !count || count->value() <= 0)
            continue;
        ClusterGpu &g = byProduct[product];
        g.product = product;
        g.gpus += count->value();
        const qint64 labelMiB = labels.value(QLatin1String("nvidia.com/gpu.memory")).toString().toLongLong();
        if (labelMiB > 0) {
            g.memoryBytes = labelMiB * kMiB;
            g.source = QStringLiteral("label nvidia.com/gpu.memory");
        } else if (g.memoryBytes == 0) {
            g.memoryBytes = gpuMemoryForProduct(product).value_or(0);
            g.source = QStringLiteral("product table");
        }
    }
    std::optional<ClusterGpu> best;
    for (const ClusterGpu &g : std::as_const(byProduct)) {
        if (g.memoryBytes <= 0)
            continue;
        if (!best || g.gpus > best->gpus || (g.gpus == best->gpus && g.memoryBytes < best->memoryBytes))
            best = g;
    }
    if (!best)
        return Error::make(Error::Kind::NotFound,
                           QStringLiteral("no node with whole GPUs of a known memory size (labels "
                                          "nvidia.com/gpu.memory / nvidia.com/gpu.product)"));
    return *best;
}

std::optional<QuotaGpus> freeQuotaGpus(const QList<QJsonObject> &quotas) {
    auto hardOf = [](const QJsonObject &q) {
        const QJsonObject status =
            q.value(QLatin1String("status")).toObject().value(QLatin1String("hard")).toObject();
        return status.isEmpty()
                   ? q.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject()
                   : status;
    };
    // The resource: whole GPUs when any quota names them, else the first MIG profile.
    QString resource;
    for (const QJsonObject &q : quotas)
        for (const QString &key : hardOf(q).keys()) {
            QString r = key;
            for (const char *prefix : {"requests.", "limits."})
                if (r.startsWith(QLatin1String(prefix)))
                    r = r.mid(qsizetype(qstrlen(prefix)));
            if (r == QLatin1String("nvidia.com/gpu") ||
                (resource.isEmpty() && r.startsWith(QLatin1String("nvidia.com/mig-"))))
                resource = r;
        }
    if (resource.isEmpty())
        return std::nullopt;
    std::optional<QuotaGpus> out;
    for (const QJsonObject &q : quotas) {
        const QJsonObject hard = hardOf(q);
        const QJsonObject used =
            q.value(QLatin1String("status")).toObject().value(QLatin1String("used")).toObject();
        for (const QString &k : QStringList{QStringLiteral("requests.") + resource, resource,
                                            QStringLiteral("limits.") + resource}) {
            const QString h = hard.value(k).toString();
            if (h.isEmpty())
                continue;
            const auto hq = Quantity::parse(h);
            const auto uq = Quantity::parse(used.value(k).toString(QStringLiteral("0")));
            if (!hq || !uq)
                continue;
            const qint64 left = std::max<qint64>(0, hq->value() - uq->value());
            out = QuotaGpus{out ? std::min(out->free, left) : left, resource};
        }
    }
    return out;
}

std::optional<qint64> freeKueueGpus(const QJsonObject &clusterQueue) {
    const QString gpu = QStringLiteral("nvidia.com/gpu");
    auto sum = [&gpu](const QJsonArray &groups, const char *listKey, const char *valueKey) {
        qint64 total = 0;
        bool any = false;
        for (const QJsonValue &g : groups)
            for (const QJsonValue &r : g.toObject().value(QLatin1String(listKey)).toArray()) {
                const QJsonObject res = r.toObject();
                if (res.value(QLatin1String("name")).toString() != gpu)
                    continue;
                const auto q = Quantity::parse(res.value(QLatin1String(valueKey)).toVariant().toString());
                if (q) {
                    total += q->value();
                    any = true;
                }
            }
        return std::pair{total, any};
    };
    QJsonArray flavors;
    for (const QJsonValue &group : clusterQueue.value(QLatin1String("spec"))
                                       .toObject()
                                       .value(QLatin1String("resourceGroups"))
                                       .toArray())
        for (const QJsonValue &f : group.toObject().value(QLatin1String("flavors")).toArray())
            flavors.append(f);
    const auto [nominal, hasQuota] = sum(flavors, "resources", "nominalQuota");
    if (!hasQuota)
        return std::nullopt;
    const auto [used, hasUsage] = sum(
        clusterQueue.value(QLatin1String("status")).toObject().value(QLatin1String("flavorsUsage")).toArray(),
        "resources", "total");
    Q_UNUSED(hasUsage);
    return std::max<qint64>(0, nominal - used);
}

} // namespace gq::advisor
