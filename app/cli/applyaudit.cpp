#include "app/cli/applyaudit.h"

#include "core/usage/auditlog.h"
#include "core/usage/dburl.h"
#include "services/platform/platform.h"
#include "app/cli/settingsdefaults.h"
#include "core/usage/usagestore.h"

namespace gq::cli {

namespace {

QString displayUrl(const QString &url) {
    auto parsed = DbUrl::parse(url);
    return parsed ? parsed->display() : QStringLiteral("the database");
}

} // namespace

ApplyAudit::~ApplyAudit() = default;

Result<std::unique_ptr<ApplyAudit>> ApplyAudit::open(const QString &dbUrl, const QString &kubeconfig,
                                                     const QString &context) {
    std::unique_ptr<ApplyAudit> audit(new ApplyAudit);
    QString url = dbUrl;
    QString from = QStringLiteral("--db");
    if (url.isEmpty()) {
        const SettingsDefaults d = settingsDefaults(kubeconfig, context);
        url = d.usageDatabase;
        from = QStringLiteral("the usage database set for this context in %1").arg(d.file);
    }
    if (url.isEmpty())
        return audit;
    auto store = UsageStore::open(url);
    if (!store)
        return Error::make(store.error().kind,
                           QStringLiteral("cannot open the audit log in %1 (%2): %3; nothing was applied")
                               .arg(displayUrl(url), from, store.error().message));
    audit->m_store = std::move(*store);
    audit->m_url = url;
    return audit;
}

void ApplyAudit::setActor(const QString &given, const QString &clusterUser) {
    m_actor = !given.trimmed().isEmpty() ? given.trimmed()
              : !clusterUser.isEmpty()   ? clusterUser
                                         : platform::osUserName();
}

Result<AuditHead> ApplyAudit::head() const {
    if (!m_store)
        return AuditHead{};
    return AuditLog(*m_store, AuditSigning{}).head();
}

Result<void> ApplyAudit::append(const ChangeAuditEntry &entry) {
    if (!m_store)
        return {};
    return AuditLogSink(*m_store, m_actor).append(entry);
}

} // namespace gq::cli
