#pragma once

#include "core/domain/result.h"

namespace gq {

class UsageConnection;

// Asks the database whether the connection still answers ("SELECT 1"), waiting at
// most timeoutMs for the answer. On PostgreSQL the question goes through the driver's
// own libpq connection without blocking on the socket (PQsendQuery, then
// PQconsumeInput until the answer is there or the time is up): a network cut that
// sent no FIN or RST (a dead NAT entry, a blackholed route) ends in a Database error
// after timeoutMs instead of waiting for the kernel to give up. A connection that
// timed out is left with a query in flight: the caller drops it. SQLite answers at
// once (a plain statement).
Result<void> pingConnection(const UsageConnection &conn, int timeoutMs);

} // namespace gq
