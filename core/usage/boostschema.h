#pragma once

#include "core/domain/result.h"

namespace gq {

class UsageConnection;

// Schema v3: the boosts table with the whole lifecycle (scheduled ... failed), the
// grant's set/base values, recurrence, revoke time, retry bookkeeping and the claim
// columns reconcile uses. SQLite cannot change a CHECK constraint in place, so the table
// is rebuilt (both dialects, one text) with the old states mapped: pending ->
// scheduled, applied -> active, reverted -> expired, cancelled -> revoked. Runs inside
// migrateUsageSchema's transaction.
Result<void> migrateBoostsToV3(UsageConnection &conn);

} // namespace gq
