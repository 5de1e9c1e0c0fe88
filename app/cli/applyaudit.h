#pragma once

// What `gpuquota apply` records: one audit entry per object it changed, in the usage
// database named by --db or, without it, the one set for the context in the console's
// settings. A change the audit log cannot take is not made: the database is opened
// (and the actor found) before anything is sent.

#include "core/usage/auditanchor.h"
#include "core/usage/changeaudit.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QString>

#include <memory>

namespace gq {
class UsageStore;
} // namespace gq

namespace gq::cli {

// The CLI's sink of the one audit policy (changeaudit.h): QuotaWriter decides the entry.
class ApplyAudit final : public ChangeAuditSink {
public:
    ~ApplyAudit() override;
    // `dbUrl` empty: the settings default for kubeconfig/context; none there: an
    // ApplyAudit that records nothing (enabled() false).
    static Result<std::unique_ptr<ApplyAudit>> open(const QString &dbUrl, const QString &kubeconfig,
                                                    const QString &context);
    // Who the entries name: --actor, else the user the cluster says we are
    // (SelfSubjectReview), else the OS user (`clusterUser` empty).
    void setActor(const QString &given, const QString &clusterUser);

    [[nodiscard]] bool enabled() const { return m_store != nullptr; }
    [[nodiscard]] const QString &databaseUrl() const { return m_url; }
    // The log's head to publish on the objects written (count 0 without a log).
    [[nodiscard]] Result<AuditHead> head() const;
    // One entry by the actor set above; nothing without a log.
    [[nodiscard]] Result<void> append(const ChangeAuditEntry &entry) override;

private:
    ApplyAudit() = default;
    std::unique_ptr<UsageStore> m_store;
    QString m_url;
    QString m_actor;
};

} // namespace gq::cli
