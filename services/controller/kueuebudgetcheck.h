#pragma once

#include "core/jobs/jobtracker.h"
#include "core/kube/kuberequest.h"
#include "core/usage/ledger.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace gq {

class KubeClient;
class UsageStore;

struct KueueCheckReport {
    bool kueueServed = false; // the API group kueue.x-k8s.io is served
    QString apiVersion;       // "kueue.x-k8s.io/v1beta2" (or v1beta1)
    QStringList checks;       // our AdmissionChecks
    int activated = 0;        // AdmissionChecks given the Active condition this pass
    int decided = 0;          // Workload checks decided
    int ready = 0;            // ... of which set Ready this pass
    int held = 0;             // ... of which Pending (a spent budget)
    QStringList errors;
    [[nodiscard]] QString line() const;
};

// The Kueue AdmissionCheck `gpuquota.io/budget` (the decisions: kueueworkload.h), run by
// the leader on the enforcement timer: each pass finds the API group (v1beta2 when
// served, else v1beta1; nothing happens while Kueue is not installed), our
// AdmissionChecks (spec.controllerName gpuquota.io/budget), gives each the Active
// condition (Kueue keeps a ClusterQueue listing an inactive check inactive), then reads
// every Workload and decides each of our checks that is not Ready yet on a Workload with
// a quota reservation: the user's and the namespace's budgets (UsageStore::check).
// What changed is written by server-side apply to the status subresource (field manager
// gpuquota-budget-check). A held Workload is decided again every pass, so it is admitted
// once the period rolls over, a boost is granted or the budget is raised.
//
// Threading: on the thread of the UsageStore (the database reads are short and
// synchronous; the API calls come back through JobTracker).
class KueueBudgetCheck final : public QObject {
    Q_OBJECT
public:
    struct Options {
        QString userLabel = kDefaultUserLabel;
    };
    KueueBudgetCheck(UsageStore &store, std::shared_ptr<KubeClient> client, Options options,
                     QObject *parent = nullptr);
    ~KueueBudgetCheck() override;
    Q_DISABLE_COPY_MOVE(KueueBudgetCheck)

    // Starts a pass judged at `now`; false while one runs. finished() reports it.
    bool tick(qint64 now);
    [[nodiscard]] bool isRunning() const { return m_running; }

signals:
    void finished(const gq::KueueCheckReport &report);

private:
    void onGroup(const Result<KubeResponse> &r);
    void onChecks(const Result<ObjectList> &r);
    void onWorkloads(const Result<ObjectList> &r);
    void apply(const KubeResource &resource, const QString &ns, const QString &name, const QJsonObject &body);
    void settle();
    void finish();

    UsageStore &m_store;
    std::shared_ptr<KubeClient> m_client;
    Options m_opt;
    bool m_running = false;
    qint64 m_now = 0;
    QString m_version; // "v1beta2"
    int m_outstanding = 0;
    KueueCheckReport m_report;
    JobTracker m_jobs{this}; // last member: destroyed first
};

} // namespace gq
