#pragma once

// What `gpuquota apply` records: one audit entry per object it changed, in the usage
// database named by --db or, without it, the one set for the context in the console's
// settings. A change the audit log cannot take is not made: the database is opened
// (and the actor found) before anything is sent.

#include "auditanchor.h"
#include "result.h"

#include <QJsonObject>
#include <QString>

#include <memory>

namespace gq {
class UsageStore;
} // namespace gq

namespace gq::cli {

class ApplyAudit {
public:
    ~ApplyAudit();
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
    // `before` empty: the object was created.
    Result<void> record(const QString &kind, const QString &ns, const QString &name,
                        const QJsonObject &before, const QJsonObject &after, const QString &note);

private:
    ApplyAudit() = default;
    std::unique_ptr<UsageStore> m_store;
    QString m_url;
    QString m_actor;
};

} // namespace gq::cli
