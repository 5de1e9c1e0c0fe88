#pragma once

#include "core/domain/clock.h"
#include "core/jobs/jobtracker.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace gq {

class KubeClient;

// The object that created a pod (its ownerReferences entry: a ReplicaSet, Job,
// StatefulSet...), the one a user looks at when the pod never appears.
struct PodOwner {
    QString apiVersion;
    QString kind;
    QString name;
    QString uid;
    QString ns; // the pod's namespace: owners are in the same one

    // The controller owner (controller: true), else the first entry; none without any.
    [[nodiscard]] static std::optional<PodOwner> of(const QJsonObject &pod, const QString &ns);
};

// Records the admission webhook's budget denials of controller-created pods where the
// user looks: a core/v1 Event (type Warning, reason GPUBudgetExceeded) on the owner,
// next to its FailedCreate, with the webhook's text. The controller retries the pod
// over and over, so at most one Event per owner per minute (per replica).
//
// Threading: report() is safe from any thread (the webhook's server threads) and
// returns at once; the Event is created on this object's thread through KubeClient,
// never holding up the webhook's answer. A failed create is logged, not retried.
class DenialEvents final : public QObject {
    Q_OBJECT
public:
    inline static const QString kReason = QStringLiteral("GPUBudgetExceeded");
    static constexpr qint64 kMinIntervalSecs = 60;

    DenialEvents(std::shared_ptr<KubeClient> client, const Clock &clock = Clock::system(),
                 QObject *parent = nullptr);
    ~DenialEvents() override;
    Q_DISABLE_COPY_MOVE(DenialEvents)

    void report(const PodOwner &owner, const QString &message);

    // The Event for a denial at `now` (pure; its name is unique per owner and time).
    [[nodiscard]] static QJsonObject eventFor(const PodOwner &owner, const QString &message, qint64 now);
    // Whether a denial at `now` is recorded when the owner's last Event was at `last`
    // (0: none yet).
    [[nodiscard]] static bool due(qint64 last, qint64 now) {
        return last == 0 || now - last >= kMinIntervalSecs;
    }

signals:
    void recorded(const QJsonObject &event); // created on the server (tests, logs)

private:
    void record(const PodOwner &owner, const QString &message);

    std::shared_ptr<KubeClient> m_client;
    const Clock &m_clock;
    QHash<QString, qint64> m_last; // owner uid (else kind/ns/name) -> when its last Event was made
    JobTracker m_jobs{this};       // last member: destroyed first
};

} // namespace gq
