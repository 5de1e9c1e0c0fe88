#pragma once

#include "core/usage/auditlog.h"
#include "core/domain/error.h"
#include "core/usage/usagestore.h"

#include <QObject>

#include <memory>

namespace gq {

class UsageTarget;

// The database side of a service, living on its lane's thread (see UsageLane): the
// store, and the audit log over it where the service writes one. UsageService derives
// its worker from it to add what only it needs.
class StoreWorker : public QObject {
public:
    std::unique_ptr<UsageStore> store;
    std::unique_ptr<AuditLog> audit; // only for a lane made withAudit

    // On the worker's thread, first in every job: the store, opened here on first use
    // and again after the database's URL or password changed (the children go first:
    // they may hold the old store). The error every job reports while nothing can be
    // opened (no URL yet, closed, or the open failed).
    [[nodiscard]] Result<void> ready();
    // On the worker's thread: connects now (again), for a service's open(); undoes close().
    [[nodiscard]] Result<void> open();
    // On the worker's thread: the worker's children first (they may use the store), then
    // the audit log and the store; ready() refuses until the next open().
    void close();

private:
    friend class UsageLane;
    // Before the worker moves to its thread.
    void connectTo(std::shared_ptr<UsageTarget> target, const UsageStore::Options &options, bool withAudit);
    void release();

    std::shared_ptr<UsageTarget> m_target;
    UsageStore::Options m_options;
    bool m_withAudit = false;
    bool m_closed = false;
    quint64 m_epoch = 0;   // the target's epoch the store was last opened at
    bool m_failed = false; // that open failed (retried by open(), or a new epoch)
};

} // namespace gq
