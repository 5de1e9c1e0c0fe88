#pragma once

// For the stores and ledgers of core/usage only: the connection a UsageStore's parts
// share, so a part built on the store writes in the store's transactions. Code outside
// core/usage asks the store (its methods, transaction(), boostStore(), the ledgers that
// take a UsageStore); scripts/check-layers.py fails on storeConnection() there.

namespace gq {

class UsageConnection;
class UsageStore;

[[nodiscard]] UsageConnection &storeConnection(const UsageStore &store);

} // namespace gq
