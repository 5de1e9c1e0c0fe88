#pragma once

#include "auditlog.h"
#include "error.h"
#include "usagestore.h"

#include <QObject>

#include <memory>

namespace gq {

// The database side of a StoreService, living on the service's thread for it: the
// store, and the audit log over it where the service writes one. UsageService derives
// its worker from it to add what only it needs.
class StoreWorker : public QObject {
public:
    std::unique_ptr<UsageStore> store;
    std::unique_ptr<AuditLog> audit; // only with open(…, withAudit)

    // The error every job reports while no store is open.
    [[nodiscard]] Result<void> ready() const;
    // On the worker's thread: opens the store at `url` and, with `withAudit`, its audit log.
    [[nodiscard]] Result<void> open(const QString &url, const UsageStore::Options &options, bool withAudit);
    // On the worker's thread: the worker's children first (they may use the store), then
    // the audit log and the store.
    void close();
};

} // namespace gq
