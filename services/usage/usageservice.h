#pragma once

#include "core/usage/auditlog.h"
#include "core/usage/budget.h"
#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"
#include "core/quotas/namespacesummary.h"
#include "services/usage/storeservice.h"
#include "core/usage/usagestore.h"

#include <QObject>
#include <QSet>
#include <QThread>

class QTimer;

namespace gq {

class Clock;

// The usage database (SQLite or PostgreSQL) on a thread of its own, because Qt SQL
// connections belong to the thread that opened them and queries must never stall
// the window. Every call is asynchronous; answers come back as signals on the
// thread that owns this object, through one JobTracker. It reports what the store
// says (audit entries as stored); how the console shows them is the models' concern.
//
// The store keeps the admission check's inputs (UsageStore::Options::cacheChecks):
// this is the long-running caller that option is for, and a budget refresh of
// thousands of namespaces with nothing changed then costs microseconds per budget.
// Calls run in the order they were made, but a budget refresh runs in slices of a
// few milliseconds, so an audit write or a budget change requested meanwhile runs
// between two slices instead of after the whole refresh.
class UsageService final : public StoreService {
    Q_OBJECT
public:
    explicit UsageService(QObject *parent = nullptr)
        : UsageService(nullptr, parent) {}
    // On a lane of `database` (null: a database of its own).
    explicit UsageService(UsageDatabase *database, QObject *parent = nullptr);
    ~UsageService() override;

    // "sqlite:///abs/path.db", "postgresql://..."; opened() or failed() follows.
    // `password`: PostgreSQL's, from the keychain (empty: PGPASSWORD / ~/.pgpass).
    void open(const QString &url, const QString &password = {});
    // Closes the store (another context has no database); budgets and over-budget users
    // are announced empty, so nothing of the previous database stays shown.
    void close();
    [[nodiscard]] QString url() const { return m_url; }
    // The password open() was given, for the other services opening the same database
    // (charts, budgets, chargeback); kept in memory only, never logged.
    [[nodiscard]] QString password() const { return m_password; }
    // The newest audit head this service has seen (loaded or appended; count 0 before
    // any): what the console publishes on the objects it writes (withAuditHead). Other
    // writers may have appended since; it is then an earlier head, still a valid anchor.
    [[nodiscard]] AuditHead auditHead() const { return m_auditHead; }

    // target "ns/Kind/name"; action e.g. "quota.apply"; before/after as YAML.
    void appendAudit(const QString &actor, const QString &action, const QString &target,
                     const QString &before, const QString &after, const QString &note);
    void loadAudit(int limit = 1000);
    // Walks the whole audit chain (with the key and checkpoint of the environment, as
    // `gpuquota audit verify` without flags); auditVerified() follows.
    void verifyAudit();
    // Reads every namespace budget and what its current period has used (with its
    // state: near, in grace until when, over), and which users running in each
    // namespace are over their own budget, then emits usersOverBudgetChanged(),
    // budgetsChanged() and overBudgetChanged(). Runs on open, after setBudget(), every
    // budgetRefreshInterval() while open (usage grows with running pods, and budgets
    // are also changed by other processes: the CLI, the controller), and when a grace
    // period shown ends. A request while one is running is folded into one more run
    // after it.
    void checkBudgets();
    // Milliseconds between budget checks; 0 stops them. Default 30 s.
    void setBudgetRefreshInterval(int ms);
    [[nodiscard]] int budgetRefreshInterval() const;
    // Insert or replace a budget, then check budgets again; failed() on error.
    void setBudget(const gq::Budget &budget);
    // setClock(): what "now" is for budget periods. Default: the system clock.
    // The kept check inputs as of the last budget refresh (active, hits, reads).
    [[nodiscard]] UsageStore::CheckCacheStats checkCacheStats() const { return m_cacheStats; }

signals:
    // Newest first.
    void auditLoaded(const QList<gq::AuditEntry> &entries);
    void auditAppended(const gq::AuditEntry &entry);
    void auditVerified(const gq::AuditChainReport &report);
    void overBudgetChanged(const QSet<QString> &namespaces);
    // Every namespace that has a budget, with each budget's use in its current period.
    void budgetsChanged(const gq::NamespaceBudgets &budgets);
    // Per namespace, the users with GPU pods running there now who are over their own
    // budget (only namespaces that have some).
    void usersOverBudgetChanged(const gq::UsersOverBudget &users);

private:
    class Worker;
    struct Refresh;
    [[nodiscard]] Worker *worker() const;
    void refreshDone(const std::shared_ptr<Refresh> &job);
    void armGraceTimer(const NamespaceBudgets &budgets);

    QTimer *m_budgetTimer;
    QTimer *m_graceTimer; // a check when the earliest grace shown ends
    UsageStore::CheckCacheStats m_cacheStats;
    QString m_url;
    QString m_password;
    AuditHead m_auditHead;
    bool m_checkRunning = false;
    bool m_checkAgain = false;
};

} // namespace gq
