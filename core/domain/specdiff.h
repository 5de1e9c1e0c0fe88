#pragma once

#include "core/domain/limitrangespec.h"
#include "core/domain/quantity.h"
#include "core/domain/quotaspec.h"

#include <QList>
#include <QString>

#include <optional>

namespace gq {

// One difference between two specs.
struct SpecChange {
    enum class Kind { Added, Removed, Changed };
    Kind kind = Kind::Changed;
    // API field path: "spec.hard[requests.nvidia.com/gpu]", "spec.limits[0].max[cpu]",
    // "spec.scopes", "metadata.labels[team]", "spec.limits[1]" (a whole item).
    QString path;
    // The resource name when the change is to one quantity ("requests.nvidia.com/gpu"),
    // empty otherwise.
    QString resource;
    QString oldValue; // text as it would be written (canonical for quantities); empty when Added
    QString newValue; // empty when Removed
    std::optional<Quantity> oldQuantity;
    std::optional<Quantity> newQuantity;
    friend bool operator==(const SpecChange &, const SpecChange &) = default;
};

// A structured diff of two specs, in a stable order (metadata, then spec fields in
// API order, resources in the order of the newer spec, then removed ones). Used by
// the editors (what will change) and the audit log (before -> after).
// Status and server-managed metadata (resourceVersion, uid) are not compared.
struct SpecDiff {
    QList<SpecChange> changes;
    [[nodiscard]] bool isEmpty() const { return changes.isEmpty(); }
    // One line per change:  "~ spec.hard[requests.nvidia.com/gpu]: 4 -> 8",
    // "+ spec.hard[pods]: 10", "- spec.scopes: [BestEffort]".
    [[nodiscard]] QString toText() const;
};

[[nodiscard]] SpecDiff diffQuota(const QuotaSpec &before, const QuotaSpec &after);
[[nodiscard]] SpecDiff diffLimitRange(const LimitRangeSpec &before, const LimitRangeSpec &after);

[[nodiscard]] QString changeKindSymbol(SpecChange::Kind kind); // "+", "-", "~"

} // namespace gq
