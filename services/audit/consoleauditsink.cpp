#include "services/audit/consoleauditsink.h"

#include "services/usage/usageservice.h"

namespace gq {

ConsoleAuditSink::ConsoleAuditSink(UsageService *db, std::function<QString()> actor)
    : m_db(db)
    , m_actor(std::move(actor)) {}

Result<void> ConsoleAuditSink::append(const ChangeAuditEntry &entry) {
    if (!m_db || !m_db->isOpen())
        return Error::make(Error::Kind::Config, QStringLiteral("no usage database is open"));
    m_db->appendAudit(m_actor ? m_actor() : QString(), entry.action, entry.target, entry.before, entry.after,
                      entry.note);
    return {};
}

} // namespace gq
