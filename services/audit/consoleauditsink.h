#pragma once

// The console's sink of the one audit policy (changeaudit.h): the entries QuotaWriter
// decides go to the usage database the window has open (UsageService, on its own
// thread), naming the user the cluster says the console runs as.

#include "core/usage/changeaudit.h"

#include <QPointer>

#include <functional>

namespace gq {

class UsageService;

class ConsoleAuditSink final : public ChangeAuditSink {
public:
    ConsoleAuditSink(UsageService *db, std::function<QString()> actor);
    // Handed to the database thread; an error only when no database is open.
    [[nodiscard]] Result<void> append(const ChangeAuditEntry &entry) override;

private:
    QPointer<UsageService> m_db;
    std::function<QString()> m_actor;
};

} // namespace gq
