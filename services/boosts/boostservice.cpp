#include "services/boosts/boostservice.h"

#include "core/usage/boostledger.h"
#include "core/usage/boostrequests.h"
#include "core/domain/clock.h"
#include "core/kube/kubeclient.h"
#include "services/usage/storeworker.h"
#include "core/usage/usagestore.h"

#include <algorithm>

namespace gq {

namespace {
constexpr int kDecidedRequestsShown = 20;
} // namespace

BoostService::BoostService(UsageDatabase *database, QObject *parent)
    : StoreService(new StoreWorker, QStringLiteral("boosts-db"), {}, false, database, parent) {}

BoostService::~BoostService() {
    // Reconcilers still running are children of the worker: they go before the store.
    shutDown();
}

void BoostService::load() {
    m_jobs.runOn(
        m_worker,
        [w = m_worker]() -> Result<QList<Boost>> {
            if (auto r = w->ready(); !r)
                return r.error();
            auto all = BoostLedger(*w->store).list({});
            if (!all)
                return all.error();
            QList<Boost> boosts = *all;
            std::stable_sort(boosts.begin(), boosts.end(),
                             [](const Boost &a, const Boost &b) { return a.id > b.id; });
            return boosts;
        },
        [this](const Result<QList<Boost>> &boosts) {
            if (boosts)
                emit listed(*boosts);
            else
                emit failed(boosts.error());
        });
    loadRequests();
}

void BoostService::loadRequests() {
    m_jobs.runOn(
        m_worker,
        [w = m_worker, clock = m_clock]() -> Result<QList<BoostRequestRow>> {
            if (auto r = w->ready(); !r)
                return r.error();
            auto requests = BoostRequestLedger(*w->store, *clock).list({});
            if (!requests)
                return requests.error();
            QList<BoostRequestRow> rows;
            if (requests->isEmpty())
                return rows;
            // The requester's budget as the Budgets page shows it (its shortest period).
            auto overview = readBudgetOverview(*w->store, clock->nowSecs());
            if (!overview)
                return overview.error();
            int decided = 0;
            for (const BoostRequest &r : std::as_const(*requests)) {
                // Every pending one; of the decided (newest first) the last few.
                if (r.state != BoostRequest::State::Pending && ++decided > kDecidedRequestsShown)
                    continue;
                BoostRequestRow row{r, std::nullopt};
                for (const BudgetRow &b : std::as_const(overview->rows))
                    if (b.budget.scope == r.scope && b.budget.subject == r.subject) {
                        row.budget = b;
                        break;
                    }
                rows.append(row);
            }
            return rows;
        },
        [this](const Result<QList<BoostRequestRow>> &rows) {
            if (rows)
                emit requestsListed(*rows);
            else
                emit failed(rows.error());
        });
}

void BoostService::approveRequest(qint64 id, const BoostRequestLedger::Decision &decision,
                                  std::shared_ptr<KubeClient> client) {
    m_jobs.runOn(
        m_worker,
        [w = m_worker, clock = m_clock, id, decision]() -> Result<BoostRequest> {
            if (auto r = w->ready(); !r)
                return r.error();
            return BoostRequestLedger(*w->store, *clock).approve(id, decision);
        },
        [this, actor = decision.actor, client = std::move(client)](const Result<BoostRequest> &r) {
            if (!r) {
                emit failed(r.error());
                return;
            }
            emit requestDecided(*r);
            // The granted boost starts now: applied as a grant from the Boosts page is.
            followOnCluster(r->boostId, actor, client, m_clock->nowSecs());
        });
}

void BoostService::denyRequest(qint64 id, const QString &note, const QString &actor) {
    m_jobs.runOn(
        m_worker,
        [w = m_worker, clock = m_clock, id, note, actor]() -> Result<BoostRequest> {
            if (auto r = w->ready(); !r)
                return r.error();
            return BoostRequestLedger(*w->store, *clock).deny(id, note, actor);
        },
        [this](const Result<BoostRequest> &r) {
            if (!r) {
                emit failed(r.error());
                return;
            }
            emit requestDecided(*r);
            loadRequests();
        });
}

void BoostService::grant(const Boost &boost, std::shared_ptr<KubeClient> client) {
    change(
        QStringLiteral("grant"), 0,
        [boost, clock = m_clock](StoreWorker *w, qint64) {
            return BoostLedger(*w->store, *clock).grant(boost);
        },
        boost.actor, std::move(client));
}

void BoostService::revoke(qint64 id, const QString &note, const QString &actor,
                          std::shared_ptr<KubeClient> client) {
    change(
        QStringLiteral("revoke"), id,
        [note, actor, clock = m_clock](StoreWorker *w, qint64 boostId) {
            return BoostLedger(*w->store, *clock).revoke(boostId, note, actor);
        },
        actor, std::move(client));
}

void BoostService::extend(qint64 id, qint64 newExpiry, const QString &note, const QString &actor,
                          std::shared_ptr<KubeClient> client) {
    change(
        QStringLiteral("extend"), id,
        [newExpiry, note, actor, clock = m_clock](StoreWorker *w, qint64 boostId) {
            return BoostLedger(*w->store, *clock).extend(boostId, newExpiry, note, actor);
        },
        actor, std::move(client));
}

// The database first (refused: nothing written, failed()); then the cluster, like the
// CLI: a boost that starts now is applied, a revoked one taken back at once.
void BoostService::change(const QString &action, qint64 id,
                          std::function<Result<Boost>(StoreWorker *, qint64)> edit, const QString &actor,
                          std::shared_ptr<KubeClient> client) {
    m_jobs.runOn(
        m_worker,
        [w = m_worker, id, edit = std::move(edit)]() -> Result<Boost> {
            if (auto r = w->ready(); !r)
                return r.error();
            return edit(w, id);
        },
        [this, action, actor, client](const Result<Boost> &b) {
            if (!b) {
                emit failed(b.error());
                return;
            }
            emit changed(*b, action);
            const bool due = b->start <= m_clock->nowSecs();
            const bool quotaDone = b->target.onCluster() && b->isFinal();
            // A boost revoked in the second it started ends a second after its start (the
            // ledger keeps expiry > start): judged at that end, so it is taken back now.
            const qint64 at = action == QLatin1String("revoke") ? std::max(m_clock->nowSecs(), b->expiry)
                                                                : m_clock->nowSecs();
            if (due && !quotaDone)
                followOnCluster(b->id, actor, client, at);
            else
                load();
        });
}

void BoostService::reconcile(const QString &actor, std::shared_ptr<KubeClient> client) {
    followOnCluster(0, actor, std::move(client), m_clock->nowSecs());
}

void BoostService::followOnCluster(qint64 id, const QString &actor, std::shared_ptr<KubeClient> client,
                                   qint64 now) {
    auto done = m_jobs.deliverer<ReconcileReport>([this](ReconcileReport report) {
        if (report.error)
            emit failed(*report.error);
        emit reconciled(report);
        load();
    });
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id, actor, client = std::move(client), now, done] {
            if (auto r = w->ready(); !r) {
                ReconcileReport report;
                report.error = r.error();
                done(report);
                return;
            }
            BoostReconciler::Options o;
            o.actor = actor;
            // A child of the worker, on its thread: the store's thread, as it requires.
            auto *rec = new BoostReconciler(*w->store, client, o, w);
            QObject::connect(rec, &BoostReconciler::finished, rec, [rec, done](const ReconcileReport &r) {
                done(r);
                rec->deleteLater();
            });
            if (!rec->start(now, id)) {
                delete rec;
                done(ReconcileReport{});
            }
        },
        Qt::QueuedConnection);
}

} // namespace gq
