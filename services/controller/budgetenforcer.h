#pragma once

#include "services/controller/clampbackoff.h"
#include "services/controller/clampplan.h"
#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"
#include "core/kube/kuberequest.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace gq {

class AuditLog;
class ChangeAuditSink;
class KubeClient;
class QuotaWriter;
class UsageStore;

// One clamp the enforcer applied, adjusted or lifted (the alerts consume these).
struct ClampEvent {
    // Reverted: another owner of the quota (metadata.managedFields: Argo CD, Flux, Helm)
    // undid the clamp; reported once per episode, then the enforcer backs off.
    enum class Kind { Applied, Adjusted, Lifted, Reverted };
    Kind kind = Kind::Applied;
    QString ns;
    QString quota;             // the ResourceQuota's name
    QJsonObject before;        // its GPU entries of spec.hard before and after the write
    QJsonObject after;         // (empty after a lift that deleted the created quota)
    QString reason;            // the budget decision's message (applied), or why it was lifted
    bool createdQuota = false; // the quota was created for the clamp (and deleted at the lift)
    bool adminEdit = false;    // an admin's value changed during the clamp was kept
    QString revertedBy;        // Reverted: the field manager that owns the key now
    qint64 nextAttempt = 0;    // Reverted: when the clamp is written again at the earliest
    qint64 at = 0;
    [[nodiscard]] static QString kindName(Kind k); // "applied", "adjusted", "lifted"
    // "team-a/gpu-quota clamp applied: requests.nvidia.com/gpu 8 -> 2 (Denied: ...)"
    [[nodiscard]] QString line() const;
};

struct EnforceReport {
    QList<ClampEvent> events;
    QStringList errors;      // per namespace; the pass went on with the others
    int namespaces = 0;      // namespaces looked at
    QStringList terminating; // namespaces skipped: being deleted (clampplan::isTerminating)
    // Clamped quotas ("ns/name") whose status.hard does not show the clamp yet: admission
    // enforces a quota's status.hard, which kube-controller-manager copies from spec.hard.
    QStringList notEnforced;
    // Clamped quotas ("ns/name") another owner keeps reverting, left alone this pass (ClampBackoff).
    QStringList backingOff;
    [[nodiscard]] bool ok() const { return errors.isEmpty(); }
};

// Enforces namespace GPU-hour budgets through ResourceQuota: when a namespace's
// budget is spent (clampplan::clampDue: beyond limit + grace for running work) every
// GPU entry of its quotas is clamped to what its pods hold now, so the API server
// itself rejects new GPU pods with `exceeded quota`; running pods go on. A namespace
// with no quota limiting GPUs gets `gpuquota-budget` (labelled
// app.kubernetes.io/managed-by=gpuquota-controller), deleted again at the lift. The
// clamp is lifted as soon as the budget allows it again: the period rolled over, a
// boost raised the limit, the budget was raised or deleted. What is restored and how
// an admin's edit during the clamp wins: see clampplan.h.
//
// Every write goes through QuotaWriter (dry run, then a PUT conditional on the
// resourceVersion read); a 409 re-reads the namespace and plans again, so two
// replicas, or a tick repeated, change nothing twice: the annotation on the server
// says what is done. The delete of a created quota is conditional on its
// resourceVersion too. Each write is audited (quota.clamp, quota.clamp.adjust,
// quota.unclamp; actor Options::actor) after it succeeded, by the writer that made it;
// each PUT carries the audit log's head as it stood then (gpuquota.io/audit-head).
//
// A namespace in Terminating is skipped (nothing is created, updated or deleted
// there: the API server refuses creates with 403 and the namespace is going away);
// that is logged once per namespace, not every tick.
//
// Threading: on the thread of the UsageStore, which needs an event loop (answers come
// by queued calls, see JobTracker); the database reads are short and synchronous.
class BudgetEnforcer final : public QObject {
    Q_OBJECT
public:
    struct Options {
        QString actor = QStringLiteral("gpuquota-controller"); // the audit actor
        int maxConflicts = 5; // 409s in one namespace per pass before it is reported
    };
    using Listener = std::function<void(const ClampEvent &)>;

    BudgetEnforcer(UsageStore &store, std::shared_ptr<KubeClient> client, Options options,
                   QObject *parent = nullptr);
    BudgetEnforcer(UsageStore &store, std::shared_ptr<KubeClient> client, QObject *parent = nullptr)
        : BudgetEnforcer(store, std::move(client), Options{}, parent) {}
    ~BudgetEnforcer() override;
    Q_DISABLE_COPY_MOVE(BudgetEnforcer)

    // Called for every event, in order, on this object's thread.
    void addListener(Listener listener) { m_listeners.append(std::move(listener)); }

    // Starts a pass judged at `now` (budget periods and the clamp's timestamp). Ignored
    // (false) while one runs; finished() reports it.
    bool tick(qint64 now);
    [[nodiscard]] bool isRunning() const { return m_running; }
    // tick() and run the pass's own deliveries until it finished (a JobWait; no event
    // loop): for tests and a CLI. The controller uses tick() on a timer.
    EnforceReport runNow(qint64 now);

    // Where the clamp's audit entries go (changeaudit.h decides them). Default: the log
    // of the store, by the actor of the options.
    void setAuditSink(std::shared_ptr<ChangeAuditSink> sink);

signals:
    void clampApplied(const gq::ClampEvent &event); // Applied, Adjusted and Reverted
    void clampLifted(const gq::ClampEvent &event);
    void finished(const gq::EnforceReport &report);

private:
    struct Work {
        QString ns;
        bool due = false;
        QString reason;
    };
    void onAllQuotas(const Result<ObjectList> &r);
    void onNamespaces(const Result<ObjectList> &r);
    void next();
    void fetchNamespace();
    void onNamespaceQuotas(const Result<ObjectList> &r);
    void plan(const QList<QJsonObject> &quotas, const QList<QJsonObject> &pods);
    void runStep();
    void stepDone();
    void stepConflict();
    void stepFailed(const QString &why);
    // The clamp of `quota` was undone by another manager: the one event and audit entry.
    void reportRevert(const QJsonObject &quota, const clampplan::Plan &p, const ClampBackoff::Verdict &v);
    // Planned clamp `p` of `quota` after an edit of its GPU keys: false when backing off.
    bool admitEditedClamp(const QJsonObject &quota, const clampplan::Plan &p);
    void finishPass();

    UsageStore &m_store;
    std::shared_ptr<KubeClient> m_client;
    Options m_opt;
    std::unique_ptr<AuditLog> m_audit;            // the head published with each write
    std::shared_ptr<ChangeAuditSink> m_auditSink; // where the steps' entries go
    QList<Listener> m_listeners;
    bool m_running = false;
    qint64 m_now = 0;
    EnforceReport m_report;
    QList<Work> m_queue;
    QList<QString> m_budgetNamespaces;
    QStringList m_candidates;          // this pass's namespaces, before the Terminating ones go
    QSet<QString> m_terminatingLogged; // logged as skipped; dropped again once active or gone
    Work m_cur;
    QList<QJsonObject> m_quotas; // of m_cur.ns, while its pods are read
    QList<clampplan::Plan> m_steps;
    int m_conflicts = 0;
    ClampBackoff m_backoff; // per quota, across passes
    std::unique_ptr<QuotaWriter> m_writer;
    std::unique_ptr<QuotaWriter> m_retiredWriter; // the one before m_writer
    JobTracker m_jobs{this};                      // last member: destroyed first
};

} // namespace gq
