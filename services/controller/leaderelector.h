#pragma once

#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"
#include "services/controller/logthrottle.h"
#include "core/domain/result.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <memory>

namespace gq {

class KubeClient;

// Leader election over a coordination.k8s.io/v1 Lease, as client-go's leaderelection
// does it, so that of several controller replicas only one records and enforces.
//
// Every retry period the elector reads the Lease and:
//  * creates it when there is none (holderIdentity = us, acquireTime = renewTime = now,
//    leaseTransitions 0);
//  * renews it when we hold it (renewTime = now), by a PUT conditional on the
//    resourceVersion read, so a write by anyone else in between is a 409, never lost;
//  * takes it over when another holder's record has not changed for leaseDuration
//    (leaseTransitions + 1, acquireTime = now), or at once when it was released
//    (empty holderIdentity).
// Expiry is judged on this process's monotonic clock from the moment the record was
// last seen to change, not from the renewTime written by another host, so clock skew
// between replicas cannot make two leaders. The leader steps down (lostLeadership)
// when it has not renewed for renewDeadline (< leaseDuration: it stops before anyone
// may take over) or when it finds someone else holding the Lease. release() (clean
// shutdown) clears holderIdentity so a standby takes over on its next retry instead
// of waiting out the lease. Times on the Lease are MicroTime (2026-12-01T10:00:00.000000Z).
//
// Threading: a QObject on a thread with an event loop; answers arrive by JobTracker.
class LeaderElector final : public QObject {
    Q_OBJECT
public:
    struct Options {
        QString ns = QStringLiteral("gpuquota-system");
        QString name = QStringLiteral("gpuquota-controller");
        QString identity;              // empty: host_pid_random (defaultIdentity())
        int leaseDurationSeconds = 15; // as client-go's defaults
        int renewDeadlineMs = 10000;   // must be below the lease duration
        int retryPeriodMs = 2000;      // how often to renew or try to acquire
    };

    LeaderElector(std::shared_ptr<KubeClient> client, Options options, QObject *parent = nullptr);
    ~LeaderElector() override; // no release: a process that dies does not release either
    Q_DISABLE_COPY_MOVE(LeaderElector)

    // Validates the options (the Error names the field) and starts trying.
    Result<void> start();
    // Stops trying; as leader, gives the Lease up (holderIdentity cleared) and emits
    // lostLeadership. The returned future-less call is asynchronous: releaseFinished().
    void release();
    [[nodiscard]] bool isLeader() const { return m_leader; }
    [[nodiscard]] const QString &identity() const { return m_opt.identity; }
    [[nodiscard]] const Options &options() const { return m_opt; }
    // The holder last seen on the Lease (empty: none yet, or released).
    [[nodiscard]] const QString &observedHolder() const { return m_observedHolder; }
    // Until when (QDeadlineTimer::current().deadline() milliseconds) some replica is
    // known to hold the Lease: its record was last seen to change plus the lease
    // duration; 0 while nobody holds it (never created, released, unreadable).
    [[nodiscard]] qint64 heldUntilMs() const { return m_heldUntilMs.load(); }

    [[nodiscard]] static QString defaultIdentity();
    // "2026-12-01T10:00:00.123456Z" (metav1.MicroTime).
    [[nodiscard]] static QString microTimeNow();

signals:
    void becameLeader();
    void lostLeadership();
    void leaderChanged(const QString &holder); // the observed holder changed
    void releaseFinished();
    void attemptFailed(const gq::Error &error); // one try or renewal did not go through
    void heldUntilChanged(qint64 heldUntilMs);  // see heldUntilMs()

private:
    void attempt();
    void onRead(const Result<QJsonObject> &r);
    void onWritten(const Result<QJsonObject> &r);
    void observe(const QJsonObject &lease);
    void setLeader(bool leader);
    void checkRenewDeadline();
    void failed(const Error &error); // logs (rate-limited) and emits attemptFailed
    void setHeldUntil(qint64 ms);
    [[nodiscard]] QJsonObject leaseFor(const QJsonObject &current, bool takeOver) const;

    std::shared_ptr<KubeClient> m_client;
    Options m_opt;
    bool m_running = false;
    bool m_leader = false;
    bool m_busy = false;
    QString m_observedHolder;
    QString m_observedRecord;   // holder + renewTime + transitions as last read
    QElapsedTimer m_observedAt; // when m_observedRecord last changed
    QElapsedTimer m_lastRenew;  // when we last wrote the Lease successfully
    QTimer m_timer;
    LogThrottle m_failureLog{30000};
    std::atomic<qint64> m_heldUntilMs{0};
    JobTracker m_jobs{this}; // last member: destroyed first
};

} // namespace gq
