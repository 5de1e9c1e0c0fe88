#pragma once

#include <QtGlobal>

namespace gq {

// Milliseconds since this process was started by the kernel (Linux: /proc), so a
// startup figure includes dynamic loading and static initialisation, not just the
// time since main(). Falls back to the time since the first call elsewhere.
[[nodiscard]] qint64 msSinceProcessStart();

} // namespace gq
