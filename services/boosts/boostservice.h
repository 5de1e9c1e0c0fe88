#pragma once

#include "core/usage/auditlog.h"
#include "services/boosts/boostreconciler.h"
#include "core/usage/boostrequests.h"
#include "core/usage/boosts.h"
#include "services/budgets/budgetservice.h"
#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"
#include "services/usage/storeservice.h"

#include <QList>
#include <QObject>
#include <QThread>

#include <functional>
#include <memory>

namespace gq {

class Clock;
class KubeClient;

// A boost request as the Boosts page lists it: the request, and the requester's budget
// as the Budgets page computes it now (readBudgetOverview), when one applies.
struct BoostRequestRow {
    BoostRequest request;
    std::optional<BudgetRow> budget;
};

// The Boosts page's access to the usage database: the list of boosts, and grant,
// revoke and extend through BoostLedger (the database record and its audit entry
// first), each followed by a BoostReconciler pass for that boost, so the cluster is
// patched through QuotaWriter exactly as `gpuquota boost grant|revoke` does. Everything
// runs on a thread of its own with its own UsageStore (the reconciler lives there too);
// answers come back as signals through one JobTracker. The client is passed per call:
// the window's connection may have switched context since the last one.
class BoostService final : public StoreService {
    Q_OBJECT
public:
    explicit BoostService(QObject *parent = nullptr)
        : BoostService(nullptr, parent) {}
    // On a lane of `database` (null: a database of its own).
    explicit BoostService(UsageDatabase *database, QObject *parent = nullptr);
    ~BoostService() override;

    // listed() follows with every boost, newest first (also after each open()).
    void load();
    // Records `boost` (planned by planQuotaBoost / planBudgetBoost), then, when it
    // starts now, applies it. granted() (or failed() and nothing is recorded) follows.
    void grant(const Boost &boost, std::shared_ptr<KubeClient> client);
    void revoke(qint64 id, const QString &note, const QString &actor, std::shared_ptr<KubeClient> client);
    void extend(qint64 id, qint64 newExpiry, const QString &note, const QString &actor,
                std::shared_ptr<KubeClient> client);
    // Every due start and expiry (what `gpuquota reconcile` does); reconciled() follows.
    void reconcile(const QString &actor, std::shared_ptr<KubeClient> client);

    // requestsListed() follows: every pending boost request, then the 20 newest decided
    // ones (load() also asks).
    void loadRequests();
    // Approves a pending request through BoostRequestLedger::approve (the boost is
    // granted by BoostLedger::grant in the same transaction), then applies the boost like
    // grant(); deny records the reason. requestDecided() (or failed()) follows.
    void approveRequest(qint64 id, const BoostRequestLedger::Decision &decision,
                        std::shared_ptr<KubeClient> client);
    void denyRequest(qint64 id, const QString &note, const QString &actor);

signals:
    void listed(const QList<gq::Boost> &boosts);
    // The database record of a grant, revoke or extend was written (`action` is
    // "grant", "revoke" or "extend"); its cluster step's report follows as reconciled().
    void changed(const gq::Boost &boost, const QString &action);
    void reconciled(const gq::ReconcileReport &report);
    void requestsListed(const QList<gq::BoostRequestRow> &requests);
    void requestDecided(const gq::BoostRequest &request);

private:
    void whenOpened() override { load(); }
    void change(const QString &action, qint64 id, std::function<Result<Boost>(StoreWorker *, qint64)> edit,
                const QString &actor, std::shared_ptr<KubeClient> client);
    void followOnCluster(qint64 id, const QString &actor, std::shared_ptr<KubeClient> client, qint64 now);
};

} // namespace gq
