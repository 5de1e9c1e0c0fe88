#include "core/alerts/alertrules.h"

#include <algorithm>

namespace gq {

QList<int> AlertRules::thresholdsFor(const Budget &budget) const {
    const QString subject = scopeName(budget.scope) + QLatin1Char('/') + budget.subject;
    QList<int> t = budgetThresholds.value(subject + QLatin1Char('/') + periodName(budget.period),
                                          budgetThresholds.value(subject, thresholds));
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    return t;
}

QString budgetAlertKey(const Budget &budget, qint64 periodStart, int threshold) {
    return QStringLiteral("budget/%1/%2/%3/%4/%5")
        .arg(scopeName(budget.scope), budget.subject, periodName(budget.period))
        .arg(periodStart)
        .arg(threshold);
}

namespace {

void budgetAlerts(const AlertRules &rules, const AlertInputs &in, QList<Alert> &out) {
    for (const Decision &d : in.budgets) {
        if (!d.hasBudget)
            continue;
        for (int threshold : rules.thresholdsFor(d.budget)) {
            // A zero limit is spent from the start: every threshold counts as crossed
            // once anything is used.
            const double mark = d.limit * threshold / 100.0;
            const bool crossed =
                d.limit > 0 ? d.used + kGpuHourTolerance >= mark : d.used > kGpuHourTolerance;
            if (!crossed)
                continue;
            Alert a;
            a.kind = Alert::Kind::BudgetThreshold;
            a.key = budgetAlertKey(d.budget, d.period.start, threshold);
            a.at = in.now;
            a.budgetId = d.budget.id;
            a.scope = d.budget.scope;
            a.subject = d.budget.subject;
            (a.scope == BudgetScope::User ? a.user : a.ns) = d.budget.subject;
            a.period = d.budget.period;
            a.threshold = threshold;
            a.usedGpuHours = d.used;
            a.limitGpuHours = d.limit;
            a.periodStart = d.period.start;
            a.periodEnd = d.period.end;
            out << a;
        }
    }
}

void boostAlerts(const AlertRules &rules, const AlertInputs &in, QList<Alert> &out) {
    for (const Boost &b : in.boosts) {
        if (b.state != Boost::State::Active || b.expiry <= in.now ||
            b.expiry - in.now > rules.boostLeadSeconds)
            continue;
        Alert a;
        a.kind = Alert::Kind::BoostExpiring;
        a.key = QStringLiteral("boost/%1/%2").arg(b.id).arg(b.expiry);
        a.at = in.now;
        a.boostId = b.id;
        a.target = b.target.toString();
        a.delta = b.delta;
        a.expiry = b.expiry;
        if (b.target.kind == BoostTarget::Kind::Budget && b.target.scope == BudgetScope::User)
            a.user = b.target.subject;
        else
            a.ns = b.target.subject;
        // Whoever asked for the boost hears it is ending, too, when they are a user.
        if (a.user.isEmpty() && !b.actor.isEmpty())
            a.user = b.actor;
        out << a;
    }
}

// One message per decision to whoever asked (and, for a namespace's budget, its contacts).
void requestAlerts(const AlertInputs &in, QList<Alert> &out) {
    for (const BoostRequest &r : in.decidedRequests) {
        if (r.state != BoostRequest::State::Approved && r.state != BoostRequest::State::Denied)
            continue;
        Alert a;
        a.kind = Alert::Kind::BoostRequestDecided;
        a.key = QStringLiteral("boost-request/%1/%2").arg(r.id).arg(boostRequestStateName(r.state));
        a.at = in.now;
        a.user = r.requester;
        if (r.scope == BudgetScope::Namespace)
            a.ns = r.subject;
        a.requestId = r.id;
        a.target = scopeName(r.scope) + QLatin1Char(':') + r.subject;
        a.detail = boostRequestStateName(r.state);
        a.reason = r.decisionNote;
        a.decidedBy = r.decidedBy;
        a.delta = QString::number(r.hours, 'g', 12);
        a.expiry = r.until;
        a.boostId = r.boostId;
        out << a;
    }
}

void clampAlerts(const AlertInputs &in, QList<Alert> &out) {
    for (const ClampNotice &c : in.clamps) {
        Alert a;
        a.kind = c.applied ? Alert::Kind::ClampApplied : Alert::Kind::ClampLifted;
        a.key = QStringLiteral("clamp/%1/%2/%3/%4")
                    .arg(c.ns, c.resource, c.applied ? QStringLiteral("applied") : QStringLiteral("lifted"))
                    .arg(c.at);
        a.at = c.at;
        a.ns = c.ns;
        a.resource = c.resource;
        a.before = c.before;
        a.after = c.after;
        a.reason = c.reason;
        out << a;
    }
}

void idleAlerts(const AlertRules &rules, const AlertInputs &in, QList<Alert> &out) {
    for (const IdleHold &h : in.idle) {
        const qint64 end = h.end > 0 ? h.end : in.now;
        if (end - h.start <= rules.idleHoldSeconds)
            continue;
        Alert a;
        a.kind = Alert::Kind::IdleGpus;
        a.key = QStringLiteral("idle/%1/%2/%3").arg(h.ns, h.pod).arg(h.start);
        a.at = in.now;
        a.ns = h.ns;
        a.user = h.user;
        a.pod = h.pod;
        a.gpus = h.gpus;
        a.since = h.start;
        a.wastedGpuHours = h.wastedGpuHours;
        out << a;
    }
}

} // namespace

QList<Alert> evaluateAlerts(const AlertRules &rules, const AlertInputs &in) {
    QList<Alert> out;
    budgetAlerts(rules, in, out);
    boostAlerts(rules, in, out);
    requestAlerts(in, out);
    clampAlerts(in, out);
    if (in.databaseDownSince && in.now - *in.databaseDownSince > rules.databaseDownSeconds) {
        Alert a;
        a.kind = Alert::Kind::DatabaseUnwritable;
        a.key = QStringLiteral("database/%1").arg(*in.databaseDownSince);
        a.at = in.now;
        a.since = *in.databaseDownSince;
        a.detail = in.databaseError;
        out << a;
    }
    idleAlerts(rules, in, out);
    if (in.webhookSilence && in.webhookSilence->pods > 0) {
        // One alert per silence: the same last review, whoever evaluates it.
        Alert a;
        a.kind = Alert::Kind::WebhookNotCalled;
        a.key = QStringLiteral("webhook/%1").arg(in.webhookSilence->lastReview);
        a.at = in.now;
        a.since = in.webhookSilence->lastReview;
        a.expiry = in.webhookSilence->firstSeen;
        a.podCount = in.webhookSilence->pods;
        a.detail = in.webhookSilence->examples.join(QStringLiteral(", "));
        out << a;
    }
    return out;
}

} // namespace gq
