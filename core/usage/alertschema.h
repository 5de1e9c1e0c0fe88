#pragma once

#include "core/domain/result.h"

namespace gq {

class UsageConnection;

// Schema v5: the alert ledger (alertledger.h reads and writes it).
//  * alerts: one row per alert key ("budget/namespace/team-a/day/1764543600/80"), the
//    primary key being the claim: whoever inserts it first owns the alert, so two
//    controller replicas or a restarted one never raise it twice. The alert itself is
//    kept as JSON so its deliveries can be retried by any later process.
//  * alert_deliveries: one row per (alert key, channel, recipient) with its state
//    (pending, sending, sent, failed), attempts, next retry, last error, and the claim
//    of the process sending it right now.
Result<void> migrateAlertsToV5(UsageConnection &conn);

} // namespace gq
