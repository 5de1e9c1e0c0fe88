#pragma once

#include "auditlog.h"
#include "error.h"
#include "usagestore.h"

#include <QObject>

#include <memory>

class QThread;

namespace gq {

// The database side of a service that keeps a UsageStore of its own on a thread of
// its own (a store belongs to the thread that opened it): the store, the audit log
// over it where the service writes one, and the thread's start and orderly stop.
// The services derive their workers from it and add what only they need.
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

    // Moves `worker` to `thread`, named `name`, and starts it; the worker is deleted
    // when the thread finishes.
    static void start(StoreWorker *worker, QThread &thread, const QString &name);
    // Closes the worker's store on its own thread, waiting for it, then stops the thread.
    static void stop(StoreWorker *worker, QThread &thread);
};

} // namespace gq
