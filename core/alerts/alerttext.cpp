#include "core/alerts/alerttext.h"

#include <QDateTime>

namespace gq {

QString AlertText::instant(qint64 secs) {
    return QDateTime::fromSecsSinceEpoch(secs, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
}

namespace {

QString who(const Alert &a) {
    return a.scope == BudgetScope::User ? AlertText::tr("user %1").arg(a.subject)
                                        : AlertText::tr("namespace %1").arg(a.subject);
}

// At the start of a sentence.
QString whoSentence(const Alert &a) {
    return a.scope == BudgetScope::User ? AlertText::tr("User %1").arg(a.subject)
                                        : AlertText::tr("Namespace %1").arg(a.subject);
}

QString periodWord(Period p) {
    switch (p) {
    case Period::Hour: return AlertText::tr("this hour");
    case Period::Day: return AlertText::tr("today");
    case Period::Week: return AlertText::tr("this week");
    case Period::Month: return AlertText::tr("this month");
    }
    return {};
}

} // namespace

QString AlertText::title(const Alert &a) {
    switch (a.kind) {
    case Alert::Kind::BudgetThreshold:
        return a.threshold >= 100 ? tr("GPU budget spent: %1").arg(who(a))
                                  : tr("GPU budget %1% used: %2").arg(a.threshold).arg(who(a));
    case Alert::Kind::BoostExpiring: return tr("Boost %1 ends at %2").arg(a.boostId).arg(instant(a.expiry));
    case Alert::Kind::ClampApplied: return tr("GPU quota clamped in namespace %1").arg(a.ns);
    case Alert::Kind::ClampLifted: return tr("GPU quota restored in namespace %1").arg(a.ns);
    case Alert::Kind::DatabaseUnwritable: return tr("gpuquota controller cannot write to its database");
    case Alert::Kind::IdleGpus: return tr("Idle GPUs held by %1 in namespace %2").arg(a.pod, a.ns);
    case Alert::Kind::WebhookNotCalled:
        return tr("GPU pods admitted unchecked: the admission webhook is not called");
    case Alert::Kind::BoostRequestDecided:
        return a.detail == QLatin1String("approved") ? tr("Boost request %1 approved").arg(a.requestId)
                                                     : tr("Boost request %1 denied").arg(a.requestId);
    }
    return {};
}

QStringList AlertText::lines(const Alert &a) {
    switch (a.kind) {
    case Alert::Kind::BudgetThreshold: {
        const double left = a.limitGpuHours - a.usedGpuHours;
        QStringList l;
        l << tr("%1 has used %2 of %3 GPU-h %4 (%5% or more of the budget).")
                 .arg(whoSentence(a), formatGpuHours(a.usedGpuHours), formatGpuHours(a.limitGpuHours),
                      periodWord(a.period))
                 .arg(a.threshold);
        l << (left > 0 ? tr("%1 GPU-h left until %2.").arg(formatGpuHours(left), instant(a.periodEnd))
                       : tr("Nothing is left until %1: new GPU jobs are refused until then.")
                             .arg(instant(a.periodEnd)));
        return l;
    }
    case Alert::Kind::BoostExpiring:
        return {tr("The boost %1 on %2 (%3) ends at %4.")
                    .arg(a.boostId)
                    .arg(a.target, a.delta, instant(a.expiry)),
                tr("Work that needs it after that should finish or ask for an extension.")};
    case Alert::Kind::ClampApplied:
        return {tr("The budget of namespace %1 is spent: %2 was lowered from %3 to %4 (%5).")
                    .arg(a.ns, a.resource, a.before, a.after, a.reason),
                tr("Running pods keep their GPUs; new GPU pods are refused until the quota is restored.")};
    case Alert::Kind::ClampLifted:
        return {tr("%1 in namespace %2 is back to %3 (%4).").arg(a.resource, a.ns, a.after, a.reason)};
    case Alert::Kind::DatabaseUnwritable:
        return {tr("Writes have failed since %1; usage is kept in the spool until the database returns.")
                    .arg(instant(a.since)),
                tr("Last error: %1").arg(a.detail)};
    case Alert::Kind::IdleGpus:
        return {tr("Pod %1 (user %2) has held %3 GPUs without using them since %4.")
                    .arg(a.pod, a.user, formatGpuHours(a.gpus), instant(a.since)),
                tr("%1 GPU-h wasted so far. Please release them if the job is done.")
                    .arg(formatGpuHours(a.wastedGpuHours))};
    case Alert::Kind::WebhookNotCalled:
        return {
            tr("%1 GPU pods were created since %2 without an admission review (%3); the last review any "
               "replica answered: %4.")
                .arg(a.podCount)
                .arg(instant(a.expiry), a.detail, a.since ? instant(a.since) : tr("never")),
            tr("Per-user budgets are not enforced for them. Check that the API server reaches the webhook "
               "(Service, port, the firewall of a private control plane) and accepts its certificate; see "
               "the controller's /readyz.")};
    case Alert::Kind::BoostRequestDecided:
        if (a.detail == QLatin1String("approved"))
            return {tr("%1 approved your request %2: +%3 GPU-h on %4 until %5 (boost %6).")
                        .arg(a.decidedBy)
                        .arg(a.requestId)
                        .arg(a.delta, a.target, instant(a.expiry))
                        .arg(a.boostId),
                    tr("Note: %1").arg(a.reason)};
        return {tr("%1 denied your request %2 for more GPU-hours on %3.")
                    .arg(a.decidedBy)
                    .arg(a.requestId)
                    .arg(a.target),
                tr("Reason: %1").arg(a.reason)};
    }
    return {};
}

QString AlertText::footer(const Alert &a) {
    return tr("Sent by gpuquota-controller at %1 (alert %2).").arg(instant(a.at), a.key);
}

} // namespace gq
