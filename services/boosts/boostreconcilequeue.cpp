// BoostReconciler's steps for a boost on a Kueue ClusterQueue flavor (the decisions are
// queueBoostStep()'s; boostreconciler.cpp has the lifecycle they plug into).
#include "services/boosts/boostqueuestep.h"
#include "services/boosts/boostreconciler.h"
#include "core/kube/kubeclient.h"
#include "core/kueue/kueuereader.h"

#include <QJsonArray>

namespace gq {

void BoostReconciler::fetchQueue() {
    if (m_kueueVersion.isEmpty()) {
        KubeRequest request;
        request.path = QStringLiteral("/apis/") + QString::fromUtf16(kueue::kGroup);
        m_jobs.watch(m_client->send(request), [this](const Result<KubeResponse> &r) {
            if (!r)
                return failCurrent(
                    r.error().kind == Error::Kind::NotFound
                        ? tr("Kueue is not installed (no %1 API)").arg(QString::fromUtf16(kueue::kGroup))
                        : r.error().message);
            QStringList served;
            for (const QJsonValue &v : r->json().value(QLatin1String("versions")).toArray())
                served.append(v.toObject().value(QLatin1String("version")).toString());
            const auto picked = kueue::pickVersion(served);
            if (!picked)
                return failCurrent(tr("Kueue serves %1; this version reads %2")
                                       .arg(served.join(QStringLiteral(", ")),
                                            kueue::supportedVersions().join(QStringLiteral(", "))));
            m_kueueVersion = *picked;
            fetchQueue();
        });
        return;
    }
    m_jobs.watch(m_client->get(kueue::resource(QStringLiteral("clusterqueues"), m_kueueVersion), QString(),
                               m_claimed.target.subject),
                 [this](const Result<QJsonObject> &r) { onQueueFetched(r); });
}

void BoostReconciler::onQueueFetched(const Result<QJsonObject> &r) {
    if (!r)
        return failCurrent(r.error().kind == Error::Kind::NotFound
                               ? tr("ClusterQueue %1 not found").arg(m_claimed.target.subject)
                               : r.error().message);
    m_note.clear();
    m_enforcement.clear();
    const QueueStepOp op = m_op == Op::Apply    ? QueueStepOp::Apply
                           : m_op == Op::Revert ? QueueStepOp::Revert
                                                : QueueStepOp::Annotate;
    const QueueStep step = queueBoostStep(*r, m_claimed, op);
    switch (step.action) {
    case QueueStep::Action::Fail: return failCurrent(step.error);
    case QueueStep::Action::Complete: return complete(step.before, step.after);
    case QueueStep::Action::Write: return writeQueue(step.queue, step.before, step.after);
    }
}

void BoostReconciler::writeQueue(const QJsonObject &queue, const QString &before, const QString &after) {
    m_jobs.watch(
        m_client->replace(kueue::resource(QStringLiteral("clusterqueues"), m_kueueVersion), QString(), queue),
        [this, before, after](const Result<QJsonObject> &r) {
            if (r)
                return complete(before, after);
            if (r.error().kind != Error::Kind::Conflict)
                return failCurrent(r.error().message);
            // Changed under us: read again and decide again (the annotation says what is there).
            if (++m_conflicts > m_opt.maxConflicts)
                return failCurrent(tr("the ClusterQueue kept changing on the server (409 Conflict)"));
            fetchQueue();
        });
}

} // namespace gq
