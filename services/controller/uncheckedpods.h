#pragma once

#include "core/alerts/alertrules.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <optional>

namespace gq {

class PodInformer;

// The leader's check that the API server calls the webhook: GPU pods its pod informer
// sees created (after its first list, created since start()) are remembered with their
// creationTimestamp; one created more than `afterSeconds` ago with no admission review
// at any replica since (the latest review older than its creation minus kSlackSeconds,
// for the watch's delay and the clocks of the nodes) was admitted unchecked: the
// registration points elsewhere, the API server cannot reach the webhook's port, or it
// refused the certificate, and failurePolicy Ignore let the pod through. Pods in
// `ignoredNamespaces` (those the registration's namespaceSelector leaves out) are not
// expected to be reviewed.
class UncheckedPods final : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 kSlackSeconds = 30;
    static constexpr int kExamples = 5;

    explicit UncheckedPods(QStringList ignoredNamespaces, QObject *parent = nullptr);

    // Watches `pods` from now on; pods created before `since` (epoch s) are not looked at.
    void start(PodInformer *pods, qint64 since);
    void stop();
    // A GPU pod created at `created` (epoch s), as the informer reports it.
    void noteCreated(const QString &key, const QString &ns, qint64 created);

    // The unchecked pods at `now` given the latest review of any replica (0: never);
    // nullopt when there are none. Pods reviewed since are forgotten.
    [[nodiscard]] std::optional<AlertInputs::WebhookSilence> evaluate(qint64 now, qint64 lastReview,
                                                                      qint64 afterSeconds);
    [[nodiscard]] int pending() const { return int(m_seen.size()); }

private:
    void onChanged(const QStringList &added);

    struct Seen {
        QString key;
        qint64 created = 0;
    };
    QStringList m_ignored;
    QPointer<PodInformer> m_pods;
    qint64 m_since = 0;
    QList<Seen> m_seen;
};

} // namespace gq
