#pragma once

#include "core/domain/clock.h"
#include "services/controller/draholdings.h"
#include "core/kube/informer.h"
#include "core/usage/ledger.h"
#include "core/usage/usagestore.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace gq {

class KubeClient;
class LedgerWriter;

// Turns pods holding GPUs into usage intervals: one per pod and GPU resource, from
// the moment its containers run (earliest container startedAt, else status.startTime)
// until they have all terminated (latest finishedAt) or the pod is deleted; open
// while it runs. Watches pods in all namespaces and Nodes (for spec.nodeName's GPU
// model, the nvidia.com/gpu.product label, and nvidia.com/gpu.replicas for
// time-sliced nvidia.com/gpu.shared) with the informers (list + watch, resume,
// relist on 410). Every state goes to the LedgerWriter, whose upsert by
// (cluster, pod uid, resource, start) makes repeating a state harmless.
//
// Restart-safe: once the pod cache is synced and the database answers, open
// intervals the database holds for this cluster that no visible pod accounts for are
// closed: where the pod is still there but its containers now show a later start (a
// container restarted while no controller watched, so the status forgot the first
// run), at that start, where the pod's current interval begins, so the hold goes on
// without a gap and without counting any second twice; else (the pod is gone) at the
// last time a controller saw it running (the heartbeat: every seenIntervalSeconds
// the recording replicas mark all open rows seen, one statement), marked
// end_estimated. Pods that started and ended while the controller was down are
// recorded from their status while they are still visible (an end the kubelet did
// not report is estimated the same way).
class UsageRecorder final : public QObject {
    Q_OBJECT
public:
    struct Options {
        QString cluster;
        QString userLabel = kDefaultUserLabel;
        QString source = QStringLiteral("controller");
        const Clock *clock = &Clock::system();
        bool watchNodes = true;
        // The pod label, else annotation, naming the email of the pod's user (alerts'
        // userEmailAnnotation); empty: not read. Reported by userEmailSeen().
        QString userEmailKey;
        // DRA: watch ResourceClaims and ResourceSlices and charge the GPUs of pods' claims
        // (draholdings.h); gpuDeviceClasses names classes that are GPUs beyond the rule.
        bool watchClaims = true;
        QSet<QString> gpuDeviceClasses;
        // How often the open rows are marked as seen running (UsageStore::markIntervalsSeen).
        int seenIntervalSeconds = UsageStore::kSeenIntervalSeconds;
    };

    UsageRecorder(std::shared_ptr<KubeClient> client, Options options, LedgerWriter &writer,
                  QObject *parent = nullptr);
    ~UsageRecorder() override;

    void start();
    // Stops watching and submits nothing more (leadership lost, shutting down); final.
    void stop();

    [[nodiscard]] bool synced() const { return m_synced.load(); }
    [[nodiscard]] bool reconciled() const { return m_reconciled.load(); }
    [[nodiscard]] qint64 openIntervals() const { return m_open.load(); }         // now
    [[nodiscard]] qint64 intervalsRecorded() const { return m_recorded.load(); } // states submitted
    // Seconds since the pod informer last delivered anything (a change or a relist):
    // a figure for "informer lag"; -1 before the first sync.
    [[nodiscard]] qint64 informerIdleSeconds() const;
    [[nodiscard]] PodInformer &podInformer() { return *m_pods; }
    // The DRA watches (claims, templates, slices); null when watchClaims is off.
    [[nodiscard]] DraWatch *draWatch() const { return m_dra.get(); }

    // The interval states a pod stands for now (pure; exposed for tests).
    struct NodeFacts {
        QString gpuModel;
        int replicas = 0; // nvidia.com/gpu.replicas, 0 when not set
    };
    // When a pod's GPUs are held: from its containers' start to their end (unset: still
    // running); nullopt before it runs.
    struct RunSpan {
        qint64 start = 0;
        std::optional<qint64> end;
        bool estimated = false; // ended without a finishedAt: when it was noticed
    };
    [[nodiscard]] static std::optional<RunSpan> runSpan(const PodInfo &pod, qint64 now);
    [[nodiscard]] static std::vector<UsageInterval> intervalsFor(const PodInfo &pod, const QString &cluster,
                                                                 const QString &source, const NodeFacts &node,
                                                                 qint64 now,
                                                                 const std::vector<DraHold> &dra = {});

Q_SIGNALS:
    void reconcileFinished(int closed);
    // A pod named its user's email (once per user and email).
    void userEmailSeen(const QString &user, const QString &email);

private:
    struct Tracked {
        QString uid;
        std::vector<UsageInterval> states; // the last state submitted per resource
        std::vector<DraHold> dra;          // the last DRA holds seen (its claims may go first)
    };
    void onPodsChanged(const QStringList &added, const QStringList &updated, const QStringList &deleted);
    void onSynced();
    void refresh(const QString &key);
    void closeAll(Tracked &tracked, qint64 end);
    void submit(const UsageInterval &iv);
    void maybeReconcile();
    void heartbeat();
    [[nodiscard]] NodeFacts nodeFacts(const QString &node) const;
    void countOpen();
    [[nodiscard]] std::vector<DraHold> draHolds(const QString &key, const PodInfo &pod, qint64 now);
    void refreshSharers();
    [[nodiscard]] static qint64 quotaReleaseTime(const PodInfo &pod);

    Options m_options;
    LedgerWriter &m_writer;
    std::unique_ptr<PodInformer> m_pods;
    std::unique_ptr<ObjectInformer> m_nodes;
    std::unique_ptr<DraWatch> m_dra;
    QHash<QString, QSet<QString>> m_claimUsers;   // named claim "ns/claim" -> pod keys naming it
    QHash<QString, QStringList> m_podNamedClaims; // pod key -> the named claims above
    QSet<QString> m_draPods;                      // pods with spec.resourceClaims
    QSet<QString> m_sharersDirty;                 // pods sharing a claim with a changed pod
    QHash<QString, Tracked> m_tracked;            // by pod key "ns/name"
    // The open rows the database held at the first sync, by state key: a state equal to
    // its row is tracked without being written again (a restart at scale writes only
    // what changed). Emptied after that sync.
    QHash<QString, UsageInterval> m_known;
    // The same rows, kept for the reconciliation right after that sync (one read).
    std::optional<std::vector<UsageInterval>> m_startupOpen;
    QTimer m_heartbeat;
    QSet<QString> m_emailsSeen; // "user\nemail"
    QSet<QString> m_recheck;    // terminating pods with a look-again timer
    bool m_stopped = false;
    std::atomic<bool> m_synced{false};
    std::atomic<bool> m_reconciled{false};
    std::atomic<qint64> m_open{0};
    std::atomic<qint64> m_recorded{0};
    std::atomic<qint64> m_lastDelivery{0};
};

} // namespace gq
