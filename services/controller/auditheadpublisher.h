#pragma once

#include "core/usage/auditanchor.h"
#include "core/jobs/jobtracker.h"

#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace gq {

class KubeClient;
class UsageStore;

// The leader's copy of the audit log's head in the cluster: every minute, when the head
// moved, the ConfigMap `gpuquota-audit-head` in `ns` gets data.head = COUNT:HASH (merge
// patch; created when missing). Entries that wrote no quota (budgets, boosts planned,
// alerts) are then anchored outside the database too, and `gpuquota audit verify
// --head cluster` finds a restored old checkpoint (services/audit/auditheads.h).
class AuditHeadPublisher final : public QObject {
    Q_OBJECT
public:
    AuditHeadPublisher(std::shared_ptr<KubeClient> client, QString ns, std::function<UsageStore *()> store,
                       QObject *parent = nullptr);
    void start(int intervalMs = 60 * 1000);
    void stop();
    // Once, now (also what the timer calls).
    void publish();

Q_SIGNALS:
    void published(const gq::AuditHead &head);

private:
    void write(const AuditHead &head, bool create);

    std::shared_ptr<KubeClient> m_client;
    QString m_ns;
    std::function<UsageStore *()> m_store;
    QTimer m_timer;
    AuditHead m_last;
    bool m_inFlight = false;
    JobTracker m_jobs{this}; // last member: destroyed first
};

} // namespace gq
