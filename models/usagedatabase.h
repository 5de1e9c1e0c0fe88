#pragma once

#include "core/budget.h"
#include "core/error.h"
#include "models/auditmodel.h"
#include "models/namespacesummary.h"

#include <QObject>
#include <QSet>
#include <QThread>

class QTimer;

namespace gq {

class Clock;

// The usage database (SQLite or PostgreSQL) on a thread of its own, because Qt SQL
// connections belong to the thread that opened them and queries must never stall
// the window. Every call is asynchronous; answers come back as signals on the
// thread that owns this object.
class UsageDatabase final : public QObject {
    Q_OBJECT
public:
    explicit UsageDatabase(QObject *parent = nullptr);
    ~UsageDatabase() override;

    // "sqlite:///abs/path.db", "postgresql://..."; opened() or failed() follows.
    void open(const QString &url);
    [[nodiscard]] bool isOpen() const { return m_open; }
    [[nodiscard]] QString url() const { return m_url; }

    // target "ns/Kind/name"; action e.g. "quota.apply"; before/after as YAML.
    void appendAudit(const QString &actor, const QString &action, const QString &target,
                     const QString &before, const QString &after, const QString &note);
    void loadAudit(int limit = 1000);
    // Reads every namespace budget and what its current period has used, then emits
    // budgetsChanged() and overBudgetChanged(). Runs on open, after setBudget(), and
    // every budgetRefreshInterval() while open, because usage grows with running pods
    // and budgets are also changed by other processes (the CLI, the controller). A
    // request while one is running is folded into one more run after it.
    void checkBudgets();
    // Milliseconds between budget checks; 0 stops them. Default 30 s.
    void setBudgetRefreshInterval(int ms);
    [[nodiscard]] int budgetRefreshInterval() const;
    // Insert or replace a budget, then check budgets again; failed() on error.
    void setBudget(const gq::Budget &budget);
    // What "now" is for budget periods; the clock must outlive this object and be
    // safe to read from another thread (ManualClock is). Default: the system clock.
    void setClock(const Clock *clock) { m_clock = clock; }

    // Pure: what the Audit tab shows for an entry (the spec diff when both sides
    // parse as the same kind, else the texts).
    static AuditRow rowFromEntry(qint64 at, const QString &actor, const QString &action,
                                 const QString &target, const QString &before, const QString &after,
                                 const QString &note);

signals:
    void opened();
    void failed(const gq::Error &error);
    void auditLoaded(const QList<gq::AuditRow> &rows);
    void auditAppended(const gq::AuditRow &row);
    void overBudgetChanged(const QSet<QString> &namespaces);
    // Every namespace that has a budget, with each budget's use in its current period.
    void budgetsChanged(const gq::NamespaceBudgets &budgets);

private:
    class Worker;
    QThread m_thread;
    Worker *m_worker = nullptr;
    QTimer *m_budgetTimer;
    const Clock *m_clock;
    QString m_url;
    bool m_open = false;
    bool m_checkRunning = false;
    bool m_checkAgain = false;
};

} // namespace gq
