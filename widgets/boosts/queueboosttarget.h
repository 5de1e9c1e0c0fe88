#pragma once

#include "core/boosts/boostplanner.h"
#include "core/jobs/jobtracker.h"

#include <QJsonObject>
#include <QList>
#include <QWidget>

#include <memory>

class QComboBox;

namespace gq {

class KubeClient;

// The grant dialog's Kueue target: a ClusterQueue, one of its flavors, a resource the
// flavor lists and the field a boost raises (nominalQuota or borrowingLimit), the same
// choice as `gpuquota boost grant --clusterqueue CQ --flavor F --resource R --field X`.
// The ClusterQueues are read through the connection's client off the GUI thread.
class QueueBoostTarget final : public QWidget {
    Q_OBJECT
public:
    explicit QueueBoostTarget(QWidget *parent = nullptr);

    // Reads the cluster's ClusterQueues (once; again after a failure). changed() follows.
    void load(std::shared_ptr<KubeClient> client);
    // The ClusterQueues to choose from (what load() reads; tests set them directly).
    void setQueues(const QList<QJsonObject> &queues);
    // Selects a target; empty parts keep the first choice.
    void select(const QString &clusterQueue, const QString &flavor = {}, const QString &resource = {},
                const QString &field = {});

    // The request's target fields (clusterQueue, flavor, resource, field).
    [[nodiscard]] QueueGrantRequest request() const;
    // The selected ClusterQueue as read; empty when none.
    [[nodiscard]] QJsonObject queue() const;
    // Why there is nothing to choose yet ("" once the queues are read).
    [[nodiscard]] QString status() const { return m_status; }

signals:
    void changed();

private:
    void fillFlavors();
    void fillResources();

    QComboBox *m_queue;
    QComboBox *m_flavor;
    QComboBox *m_resource;
    QComboBox *m_field;
    QList<QJsonObject> m_queues;
    QString m_status;
    bool m_loaded = false;
    JobTracker m_jobs{this};
};

} // namespace gq
