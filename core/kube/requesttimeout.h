#pragma once

#include "core/domain/result.h"

#include <QString>

namespace gq {

// kubectl's --request-timeout value: a plain integer is seconds ("30"), anything
// else a Go duration ("30s", "1m", "1h30m", "1.5s", "500ms"); "0" means no timeout.
// Returns milliseconds (0: none; a positive sub-millisecond value rounds up to 1).
// Negative or unreadable values are an error of kind Usage naming the flag.
[[nodiscard]] Result<int> parseRequestTimeout(const QString &value);

} // namespace gq
