#include "services/boosts/boostqueuestep.h"

#include "core/boosts/boostannotation.h"
#include "core/kueue/kueueedit.h"

#include <algorithm>

namespace gq {

namespace {
QueueStep failed(const QString &why) {
    QueueStep s;
    s.action = QueueStep::Action::Fail;
    s.error = why;
    return s;
}

QueueStep completed(const QString &before, const QString &after) {
    QueueStep s;
    s.action = QueueStep::Action::Complete;
    s.before = before;
    s.after = after;
    return s;
}

QueueStep written(const QJsonObject &queue, const QString &before, const QString &after) {
    QueueStep s;
    s.action = QueueStep::Action::Write;
    s.queue = queue;
    s.before = before;
    s.after = after;
    return s;
}

// `queue` with the boost's field set to `value` (checked by Kueue's rules) and `entries`
// as its annotation.
QueueStep withValue(const QJsonObject &queue, const BoostTarget &t, kueue::QuotaField field,
                    const Quantity &value, const QList<QJsonObject> &entries, const QString &before) {
    auto changed = kueue::withQuota(queue, t.quota, t.resource, field, value);
    if (!changed)
        return failed(changed.error().message);
    return written(withBoostAnnotation(*changed, entries), before, value.toString());
}
} // namespace

QueueStep queueBoostStep(const QJsonObject &queue, const Boost &b, QueueStepOp op) {
    const BoostTarget &t = b.target;
    const auto field = kueue::parseFieldName(t.field);
    if (t.kind != BoostTarget::Kind::ClusterQueue || !field)
        return failed(QStringLiteral("boost %1 does not target a ClusterQueue").arg(b.id));
    QList<QJsonObject> entries = boostAnnotationEntries(queue);
    const auto it = std::find_if(entries.begin(), entries.end(), [&b](const QJsonObject &e) {
        return e.value(QLatin1String("id")).toInteger() == b.id;
    });
    const bool onServer = it != entries.end();
    if (op == QueueStepOp::Annotate) {
        if (!onServer || annotationEntryIsCurrent(*it, b)) // taken back meanwhile, or right
            return completed(QString(), QString());
        const QString before = QStringLiteral("until ") + it->value(QLatin1String("expires")).toString();
        *it = boostAnnotationEntry(b);
        return written(withBoostAnnotation(queue, entries), before,
                       QStringLiteral("until ") + it->value(QLatin1String("expires")).toString());
    }
    auto value = kueue::quotaValue(queue, t.quota, t.resource, *field);
    if (!value)
        return failed(value.error().message);
    if (!*value)
        return failed(
            QStringLiteral("%1 of flavor %2 (%3) is no longer set").arg(t.field, t.quota, t.resource));
    const Quantity current = **value;
    auto delta = Quantity::parse(b.delta, QStringLiteral("delta"));
    if (!delta)
        return failed(delta.error().message);

    if (op == QueueStepOp::Apply) {
        if (onServer) { // applied by a run that did not live to record it
            auto before = current.minus(*delta);
            const QString beforeText = before ? before->toString() : QString();
            if (annotationEntryIsCurrent(*it, b))
                return completed(beforeText, current.toString());
            *it = boostAnnotationEntry(b); // its end moved since (an extend)
            return written(withBoostAnnotation(queue, entries), beforeText, current.toString());
        }
        auto raised = current.plus(*delta);
        if (!raised || raised->sign() < 0)
            return failed(
                QStringLiteral("%1 would become negative (%2 %3)").arg(t.field, current.toString(), b.delta));
        entries.append(boostAnnotationEntry(b));
        return withValue(queue, t, *field, *raised, entries, current.toString());
    }
    if (!onServer) // never applied, or taken back by a run that did not live to record it
        return completed(current.toString(), current.toString());
    auto lowered = current.minus(*delta);
    if (!lowered)
        return failed(lowered.error().message);
    // Someone lowered it below the boost meanwhile: take back what is left, not more.
    const Quantity result = lowered->sign() < 0 ? Quantity::fromInt(0) : *lowered;
    entries.erase(it);
    return withValue(queue, t, *field, result, entries, current.toString());
}

} // namespace gq
