#pragma once

#include "core/domain/result.h"

#include <QByteArray>

namespace gq {

// `gpuquota fmt`: rewrites every quantity of every ResourceQuota / LimitRange in a
// YAML text into its canonical form ("1000m" -> "1", "1.5Gi" -> "1536Mi") and leaves
// every other byte alone — comments, key order, quoting, indentation, other objects.
// It edits the original text at the positions yaml-cpp reports instead of
// re-emitting the tree, because yaml-cpp cannot keep comments.
struct FormatResult {
    QByteArray text;
    int changed = 0; // quantities rewritten
    int skipped = 0; // non-canonical quantities whose source could not be edited safely
};

// Fails only when the text is not YAML (Parse error with line/column). Quantities
// that do not parse are left as they are (validate reports them).
[[nodiscard]] Result<FormatResult> formatQuantities(const QByteArray &yaml);

} // namespace gq
