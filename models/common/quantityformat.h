#pragma once

#include "core/domain/quantity.h"

#include <QString>

namespace gq {

// How a resource is presented and edited: GPUs are whole devices, CPUs are cores,
// memory and storage are bytes shown in GiB, everything else is a plain count or
// an opaque quantity.
enum class ResourceKind { Gpu, Cpu, Memory, Count, Other };

[[nodiscard]] ResourceKind resourceKind(const QString &resourceName);

// Short human text for a quantity of the given kind: "3", "1.5", "96 Gi".
[[nodiscard]] QString formatQuantity(const Quantity &q, ResourceKind kind);

// "used / hard", or just "used" when there is no limit. Memory carries each number's
// own unit ("576 Gi / 2 Ti"), so neither reads as a fraction of a unit; a shared unit
// is written once ("48 / 128 Gi").
[[nodiscard]] QString formatUsedOfHard(const Quantity &used, const Quantity *hard, ResourceKind kind);

// The quantity for a number in the editing unit of a kind (cores, GiB, devices).
[[nodiscard]] Quantity quantityFromEditUnits(double value, ResourceKind kind);
[[nodiscard]] double editUnitsFromQuantity(const Quantity &q, ResourceKind kind);

} // namespace gq
