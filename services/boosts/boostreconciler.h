#pragma once

#include "core/usage/auditlog.h"
#include "core/usage/boosts.h"
#include "core/domain/clock.h"
#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace gq {

class KubeClient;
class ChangeAuditSink;
struct ChangeAuditEntry;
class QuotaWriter;
class UsageStore;

// One transition a reconcile made (or a failure it recorded).
struct BoostTransition {
    qint64 boostId = 0;
    BoostTarget target;
    Boost::State from = Boost::State::Scheduled;
    Boost::State to = Boost::State::Active;
    QString before; // the quota entry's value on the server before and after the write
    QString after;  // (empty for budget boosts, which change no object)
    QString error;  // to == Failed: why (or, to == Active, why the annotation was not rewritten)
    qint64 nextRetry = 0;
    // A recurring boost brought to the window right for now: the windows that passed
    // while no reconcile ran (one transition and one audit entry for all of them).
    int missedWindows = 0;
    // Another owner of the key (managedFields): "requests.nvidia.com/gpu is managed by
    // argocd-controller (Apply): ..." at an apply, "... reverted by ...: nothing taken back"
    // at an expiry.
    QString note;
    // "boost 7 team-a/gpu-quota requests.nvidia.com/gpu: scheduled -> active (12 -> 16)"
    [[nodiscard]] QString line() const;
};

struct ReconcileReport {
    QList<BoostTransition> transitions;
    int failed = 0;             // transitions that ended in Failed (retried later)
    int waiting = 0;            // due quota boosts left alone: no cluster to patch
    std::optional<Error> error; // the pass itself could not run (database)
    [[nodiscard]] bool ok() const { return failed == 0 && !error; }
};

// Applies every due boost start and expiry exactly once: the console after a grant or
// revoke, `gpuquota reconcile`, and the controller on a timer all run this.
//
// Exactly once, with any number of reconcilers at once and crashes anywhere:
//  * A transition is claimed in the database first (scheduled -> applying, active ->
//    reverting) by a compare-and-set on the row; the loser of a race skips it. The
//    claim names this process (host:pid:random) and lasts claimSeconds of wall time; a
//    claim whose process is gone (same host, pid dead) or whose time ran out is taken
//    over by the next reconcile.
//  * The cluster write is one PUT through QuotaWriter, conditional on the
//    resourceVersion just read, that changes the value and the `gpuquota.io/boosts`
//    annotation together. The annotation is the proof on the server: a boost listed
//    there is applied, one not listed is not, so a run that takes over a claim (after a
//    crash between the database record and the patch, or after it) finishes the work
//    instead of doing it twice. A 409 re-reads and re-decides.
//  * Finishing (applying -> active, reverting -> expired) is another compare-and-set
//    on the claim, in one transaction with its audit entry: one entry per transition.
//
// At expiry only the boost's own delta is subtracted from the value on the server
// then, so changes others made meanwhile stay (12 +4 -> 16, raised to 20 by kubectl,
// expires to 16). Boosts on one entry stack and end independently. A value that a
// re-applying owner (Argo CD, Flux, Helm: metadata.managedFields, see managedfields.h)
// wrote over ours holds none of the delta any more: the expiry takes nothing back and
// says so in its audit entry; an apply to a key such an owner holds says it will not last. Failures end in
// Failed with the reason and a retry time (retryDelay); every event is audited
// (boost.apply, boost.expire, boost.revert, boost.fail). An extended boost's annotation
// is rewritten with its new end (the extend itself is the audit entry).
//
// A recurring boost is brought to the state right for `now` in one pass, however long
// no reconcile ran: the windows that passed meanwhile are skipped (counted in one
// transition and its audit entry), and the window `now` is in is applied at once.
//
// Without a client (no cluster configured) budget boosts are reconciled and due quota
// boosts are left for a run that has one (counted in ReconcileReport::waiting).
//
// Threading: lives on the thread of the UsageStore it is given, which needs an event
// loop (answers arrive by queued calls, see JobTracker). The database calls are short
// and synchronous; the console therefore runs it on its usage-database worker thread.
class BoostReconciler final : public QObject {
    Q_OBJECT
public:
    struct Options {
        QString actor; // the audit actor ("gq-admin" from SelfSubjectReview, the OS user)
        QString owner; // claim owner; empty: host:pid:random
        qint64 claimSeconds = 120;
        int maxConflicts = 5;                  // 409s on one transition before it counts as failed
        const Clock *clock = &Clock::system(); // claims' times (must outlive the reconciler)
    };

    // `client` may be null: only budget boosts (and windows that passed unapplied) then.
    BoostReconciler(UsageStore &store, std::shared_ptr<KubeClient> client, Options options,
                    QObject *parent = nullptr);
    ~BoostReconciler() override;
    Q_DISABLE_COPY_MOVE(BoostReconciler)

    // Starts a pass over the transitions due at `now` (boost expiry and retries judged
    // against it; claims against the wall clock). onlyBoost > 0: that boost's only.
    // Ignored (false) while a pass runs.
    bool start(qint64 now, qint64 onlyBoost = 0);
    [[nodiscard]] bool isRunning() const { return m_running; }
    // For a CLI or a test: start() and run the pass's own deliveries until it finished
    // (a JobWait; no event loop). Never on the GUI thread.
    ReconcileReport runNow(qint64 now, qint64 onlyBoost = 0);

    // The wait before retry number `attempt` (1, 2, ...): 30 s doubling, at most 1 h.
    [[nodiscard]] static qint64 retryDelay(int attempt);
    [[nodiscard]] static QString defaultOwner();

    // Where the steps' audit entries go (changeaudit.h decides them). Default: the log
    // of the store, by the actor of the options, in the transaction of the step's
    // record. Another sink (a test's) appends outside that transaction.
    void setAuditSink(std::shared_ptr<ChangeAuditSink> sink);

signals:
    void transitionMade(const gq::BoostTransition &transition);
    void finished(const gq::ReconcileReport &report);

private:
    // Apply / Revert: the boost's lifecycle, claimed first. PassWindow: a window that
    // ended before any reconcile applied it (nothing on the cluster). Annotate: rewrite
    // the annotation of an extended boost.
    enum class Op { Skip, Apply, Revert, PassWindow, Annotate };
    void next();
    void finishPass();
    void handle(const Boost &b);
    [[nodiscard]] Op decide(const Boost &b) const;
    bool claim(Boost b, Op op);
    void fetch();
    // A boost on a ClusterQueue flavor (boostreconcilequeue.cpp): the Kueue API version from
    // discovery (once per reconciler), the queue, then queueBoostStep() and a conditional PUT.
    void fetchQueue();
    void onQueueFetched(const Result<QJsonObject> &queue);
    void writeQueue(const QJsonObject &queue, const QString &before, const QString &after);
    void onFetched(const Result<QJsonObject> &quota);
    void onFetchedForAnnotation(const QJsonObject &quota);
    void write(const QJsonObject &base, const QJsonObject &mine, const QString &before, const QString &after);
    void complete(const QString &before, const QString &after);
    void completeAnnotation(const QString &before, const QString &after);
    void failCurrent(const QString &reason);
    // Writes `n` over the claimed boost and, while this run still holds the claim, appends
    // `entry` through the audit sink, in one transaction (the default sink writes on the
    // store's connection): false when the claim was taken over meanwhile (nothing
    // written), the error when a step fails.
    Result<bool> record(const Boost &n, const ChangeAuditEntry &entry);
    [[nodiscard]] bool claimIsStale(const Boost &b) const;
    [[nodiscard]] Boost finalState(const Boost &claimed, int *missed) const;
    BoostTransition transition(Boost::State to) const;
    void emitTransition(const BoostTransition &t);
    void continueWith(const Boost &updated);

    UsageStore &m_store;
    std::shared_ptr<KubeClient> m_client;
    Options m_opt;
    bool m_running = false;
    qint64 m_now = 0;
    QList<qint64> m_queue;
    ReconcileReport m_report;
    // The transition in flight.
    Boost m_claimed;
    Boost::State m_from = Boost::State::Scheduled;
    Op m_op = Op::Apply;
    int m_conflicts = 0;
    QString m_note;        // added to the transition's audit text (another owner of the key)
    QString m_enforcement; // "; effective" / "; pending enforcement" of a value written
    std::shared_ptr<ChangeAuditSink> m_auditSink;
    std::unique_ptr<QuotaWriter> m_writer;
    std::unique_ptr<QuotaWriter> m_retiredWriter; // the one before m_writer
    QString m_kueueVersion;                       // "v1beta1", ...: found on the first queue boost
    JobTracker m_jobs{this};                      // last member: destroyed first
};

} // namespace gq
