#pragma once

#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"
#include "core/kueue/queueattribution.h"
#include "core/usage/alertledger.h"
#include "core/usage/auditlog.h"
#include "core/usage/budget.h"
#include "core/usage/budgetgroups.h"
#include "core/usage/forecast.h"
#include "services/usage/storeservice.h"

#include <QList>
#include <QObject>
#include <QThread>

#include <optional>

namespace gq {

class Clock;

// One budget as the Budgets page shows it: the budget, its running decision in the
// period containing `now` (used, limit with boosts, grace state) and the forecast.
struct BudgetRow {
    Budget budget;
    Decision decision;
    Forecast forecast;
    BudgetState state = BudgetState::Ok;
    std::optional<qint64> graceEndsAt; // while in grace
    BudgetAlertState alerts;           // thresholds fired this period, the last alert sent
    // Where its usage this period went (budgetNamespaces): a namespace budget its own, a
    // user budget the namespaces the user ran in. Groups it by Kueue queue.
    QStringList namespaces;
};
struct BudgetOverview {
    qint64 now = 0;
    QList<BudgetRow> rows;       // users first, then namespaces, each by subject and period
    bool namespacesRead = false; // BudgetRow::namespaces filled in (see readBudgetOverview)
};

// The question of the "Can this run?" panel and its answer: the combined decision
// (what `gpuquota check` prints) and each budget's own.
struct AdmissionQuestion {
    QString user;
    QString ns;
    double gpus = 0;
    double hours = 0;
    QString resource = QStringLiteral("nvidia.com/gpu");
};
struct AdmissionAnswer {
    AdmissionQuestion question;
    Decision decision;
    QList<Decision> each;
    qint64 now = 0;
};

// The Budgets page's access to the usage database: every budget with its state and
// forecast, audited create/edit/delete, and the admission check, all on a thread of
// its own with its own UsageStore (a store belongs to the thread that opened it, and
// the page must not wait behind the namespace list's budget refresh). Answers come
// back as signals through one JobTracker.
class BudgetService final : public StoreService {
    Q_OBJECT
public:
    explicit BudgetService(QObject *parent = nullptr)
        : BudgetService(nullptr, parent) {}
    // On a lane of `database` (null: a database of its own).
    explicit BudgetService(UsageDatabase *database, QObject *parent = nullptr);
    ~BudgetService() override;

    // overviewLoaded() follows.
    void load();
    // Whether overviews fill in where each budget's usage went (BudgetRow::namespaces),
    // which only grouping by queue needs: for a user budget it reads the user's
    // intervals of the period. Off by default.
    void setReadNamespaces(bool read) { m_readNamespaces = read; }
    [[nodiscard]] bool readsNamespaces() const { return m_readNamespaces; }
    // Stores `budget` (replacing `edited` when editing one) with an audit entry;
    // changed() then a fresh overview, or failed() and nothing is written.
    void save(const Budget &budget, const std::optional<Budget> &edited, const QString &actor,
              const QString &note);
    void remove(const Budget &budget, const QString &actor, const QString &note);
    // answered() follows: the same check as `gpuquota check`.
    void check(const AdmissionQuestion &question);

signals:
    void overviewLoaded(const gq::BudgetOverview &overview);
    // A budget was changed; `entry` is its audit record.
    void changed(const gq::AuditEntry &entry);
    void answered(const gq::AdmissionAnswer &answer);

private:
    // After save() or remove(): changed() and a fresh overview, or failed().
    void changedOrFailed(const Result<AuditEntry> &entry);
    bool m_readNamespaces = false;
};

// The rows of an overview, read from a store (on the store's thread), with each row's
// namespaces when `withNamespaces`. Public for tests.
class UsageStore;
[[nodiscard]] Result<BudgetOverview> readBudgetOverview(const UsageStore &store, qint64 now,
                                                        bool withNamespaces = false);

// `rows` under the Kueue queue each budget is charged to at `level`: the queues of its
// namespaces (QueueAttribution::subjectOfAll), with used/limit subtotals. The Budgets
// page's "Group by" and `gpuquota budget status --by`.
[[nodiscard]] QList<BudgetGroup> groupByQueue(const QList<BudgetRow> &rows,
                                              const kueue::QueueAttribution &queues, kueue::QueueLevel level);

} // namespace gq
