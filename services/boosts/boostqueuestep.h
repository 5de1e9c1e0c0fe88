#pragma once

#include "core/usage/boosts.h"

#include <QJsonObject>
#include <QString>

namespace gq {

// What a reconcile does to a Kueue ClusterQueue for a boost on one of its flavors, decided
// from the queue as just read (pure; BoostReconciler does the reading and the writing).
// The queue's `gpuquota.io/boosts` annotation is the proof on the server, as on a
// ResourceQuota: a boost listed there is applied, one not listed is not. The write is the
// whole queue with the value and the annotation changed together, conditional on the
// resourceVersion read (a 409 re-reads and decides again). A revert subtracts only the
// boost's delta from the value the server has then, so an edit made meanwhile stays
// (8 +4 -> 12, raised to 14 by an admin, expires to 10); never below zero.
struct QueueStep {
    enum class Action { Complete, Write, Fail };
    Action action = Action::Fail;
    QJsonObject queue; // Write: the queue to PUT
    QString before;    // the field's value before and after (Annotate: "until <end>")
    QString after;
    QString error; // Fail: why
};

enum class QueueStepOp { Apply, Revert, Annotate };

[[nodiscard]] QueueStep queueBoostStep(const QJsonObject &queue, const Boost &boost, QueueStepOp op);

} // namespace gq
