#pragma once

#include "core/domain/result.h"

namespace gq {

class UsageConnection;

// The audit chain's own addition to the usage schema, kept apart from usageschema.cpp
// (which calls it last on every open): `audit_log.mac`, the entry's HMAC-SHA256 when
// it was written with a key (empty otherwise, and for entries written before it existed).
// Idempotent and cheap when already applied, so it needs no schema version of its own;
// existing chains stay valid because the hash it adds to is unchanged.
Result<void> migrateAuditLog(UsageConnection &conn);

} // namespace gq
