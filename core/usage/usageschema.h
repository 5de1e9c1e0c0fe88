#pragma once

#include "core/domain/result.h"

#include <QString>
#include <QTimeZone>

namespace gq {

class UsageConnection;

// v2: PostgreSQL statement triggers announce writes on the tables the admission
// check reads (NOTIFY gpuquota_usage), so kept check caches can drop themselves.
// v3: the boost lifecycle, recurrence and reconcile claims (boostschema.h).
// v4: intervals record their node and GPU model; idle_spans holds idle GPU spans
// with their wasted GPU-seconds (written by the controller).
// v5: the alert ledger (alertschema.h).
// v6: intervals record the GPU model's weight (gpuModelWeights) they were stored with;
// budgets count weighted GPU-hours (weight x model_weight), rollups stay raw.
// v7: open rows' last-seen heartbeat (seen_s) and estimated ends (end_estimated).
// v8: boost requests (boostrequests.h).
// v9: newcomer allowances (newcomerledger.h).
// v10 (PostgreSQL): the rollup tables' by-time indexes key on the time alone and carry
// the subject and GPU-seconds as INCLUDE columns (usageschema.cpp).
inline constexpr int kUsageSchemaVersion = 10;

// The usage database's tables, one text for both dialects, and the migrations
// between their versions.

// Creates the schema or migrates it to kUsageSchemaVersion in one transaction. A new
// database stores `rollupZone` as the zone of its daily rollups. Errors: Schema
// (newer than this build, or not a gpuquota database), Database. On a read-only
// connection nothing is created or migrated: a missing or older schema is a Schema error.
Result<void> migrateUsageSchema(UsageConnection &conn, const QString &rollupZone);
[[nodiscard]] Result<int> usageSchemaVersion(const UsageConnection &conn);
// The zone of the daily rollups as stored at creation (UTC for databases without one).
[[nodiscard]] Result<QTimeZone> storedRollupZone(const UsageConnection &conn);
// Drops or recreates the secondary indexes (not the unique key and primary keys, which
// detect duplicates and serve the rollup upserts) around a huge bulk load: all of them,
// or those of the intervals or of the rollup tables only.
enum class IndexGroup { All, Intervals, Rollups };
Result<void> setSecondaryIndexes(UsageConnection &conn, bool present, IndexGroup group = IndexGroup::All);

} // namespace gq
