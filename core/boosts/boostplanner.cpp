#include "core/boosts/boostplanner.h"

#include "core/usage/boostledger.h"
#include "core/kueue/kueueedit.h"
#include "core/usage/timewindow.h"

#include <QJsonValue>

#include <cmath>

namespace gq {

namespace {
Error invalid(const QString &message, const QString &field) {
    return Error::make(Error::Kind::Invalid, message, field);
}

QString nameOf(const QJsonObject &quota) {
    return quota.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
}

QJsonObject hardOf(const QJsonObject &quota) {
    return quota.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject();
}

// Start and end of the boost (of its first window when it recurs), and its recurrence.
Result<void> applyWhen(const BoostWhen &when, qint64 now, Boost &b) {
    const qint64 start = when.start > 0 ? when.start : now;
    if (when.recurrence) {
        const BoostRecurrence &r = *when.recurrence;
        if (r.until <= start)
            return invalid(
                QStringLiteral("the recurrence must end after the start (%1)").arg(formatInstantUtc(start)),
                QStringLiteral("recur-until"));
        auto first = r.nextOccurrence(start, start);
        if (!first)
            return invalid(QStringLiteral("no %1 window %2 (%3) falls between %4 and %5")
                               .arg(recurrenceKindName(r.kind), r.window(), r.tz, formatInstantUtc(start),
                                    formatInstantUtc(r.until)),
                           QStringLiteral("recur-until"));
        b.recurrence = r;
        b.start = first->first;
        b.expiry = first->second;
        return {};
    }
    if (when.duration <= 0 && when.end <= 0)
        return invalid(QStringLiteral("say how long: --for DURATION or --until TIME"), QStringLiteral("for"));
    if (when.duration < 0)
        return invalid(QStringLiteral("the duration must be positive"), QStringLiteral("for"));
    b.start = start;
    b.expiry = when.end > 0 ? when.end : start + when.duration;
    if (b.expiry <= b.start)
        return invalid(QStringLiteral("the end %1 is not after the start %2")
                           .arg(formatInstantUtc(b.expiry), formatInstantUtc(b.start)),
                       when.end > 0 ? QStringLiteral("until") : QStringLiteral("for"));
    if (b.expiry <= now)
        return invalid(QStringLiteral("the end %1 has already passed").arg(formatInstantUtc(b.expiry)),
                       when.end > 0 ? QStringLiteral("until") : QStringLiteral("for"));
    return {};
}
} // namespace

Result<BoostPlan> planQuotaBoost(const QuotaGrantRequest &req, const QList<QJsonObject> &quotas, qint64 now) {
    if (auto r = BoostLedger::checkNote(req.note); !r)
        return r.error();
    if (req.ns.trimmed().isEmpty())
        return invalid(QStringLiteral("a namespace is required"), QStringLiteral("namespace"));
    if (req.resource.trimmed().isEmpty())
        return invalid(QStringLiteral("a resource is required (e.g. requests.nvidia.com/gpu)"),
                       QStringLiteral("resource"));
    if (req.add.isEmpty() == req.set.isEmpty())
        return invalid(QStringLiteral("give exactly one of --add Q or --set Q"), QStringLiteral("add"));
    if (quotas.isEmpty())
        return invalid(QStringLiteral("namespace %1 has no ResourceQuota").arg(req.ns),
                       QStringLiteral("namespace"));

    // Which quota: the named one, else the only one that lists the resource.
    QJsonObject quota;
    if (!req.quota.isEmpty()) {
        for (const QJsonObject &q : quotas)
            if (nameOf(q) == req.quota)
                quota = q;
        if (quota.isEmpty())
            return invalid(
                QStringLiteral("namespace %1 has no ResourceQuota named %2").arg(req.ns, req.quota),
                QStringLiteral("quota"));
        if (!hardOf(quota).contains(req.resource))
            return invalid(
                QStringLiteral("ResourceQuota %1/%2 has no %3").arg(req.ns, req.quota, req.resource),
                QStringLiteral("resource"));
    } else {
        QStringList having;
        for (const QJsonObject &q : quotas)
            if (hardOf(q).contains(req.resource)) {
                having << nameOf(q);
                quota = q;
            }
        if (having.isEmpty())
            return invalid(QStringLiteral("no ResourceQuota in %1 has %2").arg(req.ns, req.resource),
                           QStringLiteral("resource"));
        if (having.size() > 1)
            return invalid(
                QStringLiteral("%1 is in several ResourceQuotas of %2 (%3): say which with --quota")
                    .arg(req.resource, req.ns, having.join(QStringLiteral(", "))),
                QStringLiteral("quota"));
    }
    const QString quotaName = nameOf(quota);
    auto before = Quantity::parse(hardOf(quota).value(req.resource).toString(), QStringLiteral("resource"));
    if (!before)
        return invalid(
            QStringLiteral("the quota's %1 is not a quantity: %2").arg(req.resource, before.error().message),
            QStringLiteral("resource"));

    Quantity delta;
    if (!req.add.isEmpty()) {
        QString text = req.add.trimmed();
        if (text.startsWith(QLatin1Char('+')))
            text.remove(0, 1);
        auto d = Quantity::parse(text, QStringLiteral("add"));
        if (!d)
            return invalid(QStringLiteral("'%1' is not a quantity (e.g. 4, +4, 500m)").arg(req.add),
                           QStringLiteral("add"));
        delta = *d;
    } else {
        auto wanted = Quantity::parse(req.set.trimmed(), QStringLiteral("set"));
        if (!wanted)
            return invalid(QStringLiteral("'%1' is not a quantity (e.g. 16)").arg(req.set),
                           QStringLiteral("set"));
        auto d = wanted->minus(*before);
        if (!d)
            return invalid(d.error().message, QStringLiteral("set"));
        delta = *d;
    }
    const QString flag = req.add.isEmpty() ? QStringLiteral("set") : QStringLiteral("add");
    if (delta.isZero())
        return invalid(QStringLiteral("the boost changes nothing (%1 is already %2)")
                           .arg(req.resource, before->toString()),
                       flag);
    auto during = before->plus(delta);
    if (!during)
        return invalid(during.error().message, flag);
    if (during->sign() < 0)
        return invalid(QStringLiteral("%1 would become %2 (negative)").arg(req.resource, during->toString()),
                       flag);

    BoostPlan plan;
    Boost &b = plan.boost;
    b.target = BoostTarget::quotaEntry(req.ns, quotaName, req.resource);
    b.delta = delta.toString();
    b.setValue = req.set.trimmed();
    b.baseValue = before->toString();
    b.note = req.note.trimmed();
    b.actor = req.actor;
    if (auto r = applyWhen(req.when, now, b); !r)
        return r.error();
    plan.before = *before;
    plan.during = *during;
    plan.after = *before;
    return plan;
}

Result<BoostPlan> planQueueBoost(const QueueGrantRequest &req, const QJsonObject &queue, qint64 now) {
    if (auto r = BoostLedger::checkNote(req.note); !r)
        return r.error();
    if (req.clusterQueue.trimmed().isEmpty())
        return invalid(QStringLiteral("a ClusterQueue is required"), QStringLiteral("clusterqueue"));
    if (req.flavor.trimmed().isEmpty())
        return invalid(QStringLiteral("a flavor is required (the queue's ResourceFlavor)"),
                       QStringLiteral("flavor"));
    if (req.resource.trimmed().isEmpty())
        return invalid(QStringLiteral("a resource is required (e.g. nvidia.com/gpu)"),
                       QStringLiteral("resource"));
    const auto field = kueue::parseFieldName(req.field);
    if (!field || *field == kueue::QuotaField::LendingLimit)
        return invalid(QStringLiteral("'%1' is not nominalQuota or borrowingLimit").arg(req.field),
                       QStringLiteral("field"));
    auto current = kueue::quotaValue(queue, req.flavor, req.resource, *field);
    if (!current)
        return invalid(current.error().message, current.error().kind == Error::Kind::NotFound
                                                    ? QStringLiteral("flavor")
                                                    : QStringLiteral("resource"));
    if (!*current)
        return invalid(QStringLiteral("%1 of flavor %2 is not set (no limit): a boost cannot raise it")
                           .arg(req.field, req.flavor),
                       QStringLiteral("field"));
    QString text = req.add.trimmed();
    if (text.startsWith(QLatin1Char('+')))
        text.remove(0, 1);
    auto delta = Quantity::parse(text, QStringLiteral("add"));
    if (text.isEmpty() || !delta)
        return invalid(QStringLiteral("'%1' is not a quantity (e.g. 4, +4, -2)").arg(req.add),
                       QStringLiteral("add"));
    if (delta->isZero())
        return invalid(QStringLiteral("the boost changes nothing"), QStringLiteral("add"));
    auto during = (*current)->plus(*delta);
    if (!during)
        return invalid(during.error().message, QStringLiteral("add"));
    if (during->sign() < 0)
        return invalid(QStringLiteral("%1 would become %2 (negative)").arg(req.field, during->toString()),
                       QStringLiteral("add"));
    if (auto checked = kueue::withQuota(queue, req.flavor, req.resource, *field, *during); !checked)
        return invalid(checked.error().message, QStringLiteral("add"));

    BoostPlan plan;
    Boost &b = plan.boost;
    b.target = BoostTarget::queueEntry(req.clusterQueue.trimmed(), req.flavor.trimmed(), req.field,
                                       req.resource.trimmed());
    b.delta = delta->toString();
    b.baseValue = (*current)->toString();
    b.note = req.note.trimmed();
    b.actor = req.actor;
    if (auto r = applyWhen(req.when, now, b); !r)
        return r.error();
    plan.before = **current;
    plan.during = *during;
    plan.after = **current;
    return plan;
}

Result<Boost> planBudgetBoost(const BudgetGrantRequest &req, qint64 now) {
    if (auto r = BoostLedger::checkNote(req.note); !r)
        return r.error();
    if (req.subject.trimmed().isEmpty())
        return invalid(QStringLiteral("say whose budget: user:NAME or namespace:NAME"),
                       QStringLiteral("budget"));
    if (!(req.hours > 0) || !std::isfinite(req.hours))
        return invalid(QStringLiteral("the extra GPU-hours must be a positive number"),
                       QStringLiteral("add-hours"));
    if (req.when.recurrence)
        return invalid(QStringLiteral("budget boosts do not recur"), QStringLiteral("recur"));
    Boost b;
    b.target = BoostTarget::budget(req.scope, req.subject.trimmed());
    b.delta = QString::number(req.hours, 'g', 12);
    b.note = req.note.trimmed();
    b.actor = req.actor;
    if (auto r = applyWhen(req.when, now, b); !r)
        return r.error();
    return b;
}

} // namespace gq
