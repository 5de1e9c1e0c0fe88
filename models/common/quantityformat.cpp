#include "models/common/quantityformat.h"

#include <QLocale>

#include <cmath>

namespace gq {

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

QString trimmedNumber(double v, int decimals) {
    QString s = QString::number(v, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
    }
    return s;
}
} // namespace

ResourceKind resourceKind(const QString &name) {
    if (name.endsWith(QLatin1String("/gpu")) || name.contains(QLatin1String("nvidia.com/mig")))
        return ResourceKind::Gpu;
    if (name == QLatin1String("cpu") || name.endsWith(QLatin1String(".cpu")))
        return ResourceKind::Cpu;
    if (name == QLatin1String("memory") || name.endsWith(QLatin1String(".memory")) ||
        name.endsWith(QLatin1String("storage")))
        return ResourceKind::Memory;
    if (name.startsWith(QLatin1String("count/")) || name == QLatin1String("pods") ||
        name == QLatin1String("services") || name == QLatin1String("persistentvolumeclaims") ||
        name == QLatin1String("configmaps") || name == QLatin1String("secrets") ||
        name == QLatin1String("replicationcontrollers") || name == QLatin1String("resourcequotas") ||
        name.startsWith(QLatin1String("services.")))
        return ResourceKind::Count;
    return ResourceKind::Other;
}

QString formatQuantity(const Quantity &q, ResourceKind kind) {
    switch (kind) {
    case ResourceKind::Gpu:
    case ResourceKind::Count:
        return q.isInteger() ? QString::number(q.value()) : trimmedNumber(q.toDouble(), 3);
    case ResourceKind::Cpu: return trimmedNumber(q.toDouble(), 2);
    case ResourceKind::Memory:
        if (q.toDouble() >= 1024.0 * kGiB)
            return trimmedNumber(q.toDouble() / kGiB / 1024.0, 1) + QLatin1String(" Ti");
        return trimmedNumber(q.toDouble() / kGiB, 1) + QLatin1String(" Gi");
    case ResourceKind::Other: return q.toString();
    }
    return q.toString();
}

QString formatUsedOfHard(const Quantity &used, const Quantity *hard, ResourceKind kind) {
    if (!hard)
        return formatQuantity(used, kind);
    // Memory: each number in its own readable unit ("576 Gi / 2 Ti"), as the quota
    // table prints them; one unit chosen by the limit gave "0.56 / 2 Ti". A unit both
    // share is written once ("48 / 128 Gi").
    if (kind == ResourceKind::Memory) {
        QString u = formatQuantity(used, kind);
        const QString h = formatQuantity(*hard, kind);
        if (u.right(3) == h.right(3))
            u.chop(3);
        return u + QLatin1String(" / ") + h;
    }
    return formatQuantity(used, kind) + QLatin1String(" / ") + formatQuantity(*hard, kind);
}

Quantity quantityFromEditUnits(double value, ResourceKind kind) {
    switch (kind) {
    case ResourceKind::Gpu:
    case ResourceKind::Count: return Quantity::fromInt(std::llround(value));
    case ResourceKind::Cpu: return Quantity::fromMilli(std::llround(value * 1000.0));
    case ResourceKind::Memory: {
        // Whole MiB keeps the canonical text readable ("1536Mi", "8Gi").
        const auto mib = std::llround(value * 1024.0);
        return Quantity::fromInt(mib * 1024 * 1024, Quantity::Format::BinarySI);
    }
    case ResourceKind::Other: return Quantity::fromMilli(std::llround(value * 1000.0));
    }
    return {};
}

double editUnitsFromQuantity(const Quantity &q, ResourceKind kind) {
    if (kind == ResourceKind::Memory)
        return q.toDouble() / kGiB;
    return q.toDouble();
}

} // namespace gq
