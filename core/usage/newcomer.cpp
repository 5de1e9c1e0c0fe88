#include "core/usage/newcomer.h"

#include <QDateTime>
#include <QRegularExpression>

#include <algorithm>
#include <limits>

namespace gq {

Result<NewcomerPolicy> NewcomerPolicy::parse(const QString &text) {
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("off") || t.isEmpty())
        return NewcomerPolicy{};
    static const QRegularExpression re(QStringLiteral("^([0-9]{1,3})d:(unlimited|x([0-9]+(\\.[0-9]+)?))$"));
    const QRegularExpressionMatch m = re.match(t);
    NewcomerPolicy p;
    if (m.hasMatch()) {
        p.days = m.captured(1).toInt();
        p.factor = m.captured(2) == QLatin1String("unlimited") ? 0 : m.captured(3).toDouble();
    }
    if (!m.hasMatch() || p.days < 1 || p.days > 366 ||
        (m.captured(2) != QLatin1String("unlimited") && p.factor <= 1))
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("'%1' is not DAYSd:unlimited or DAYSd:xFACTOR (1-366 days, a factor "
                           "above 1), e.g. 7d:unlimited, 14d:x3, or off")
                .arg(text),
            QStringLiteral("newcomer"));
    return p;
}

QString NewcomerPolicy::toString() const {
    if (!enabled())
        return QStringLiteral("off");
    return QStringLiteral("%1d:%2").arg(days).arg(factor > 0 ? QStringLiteral("x") + QString::number(factor)
                                                             : QStringLiteral("unlimited"));
}

qint64 newcomerEnd(qint64 since, int days, const QTimeZone &zone) {
    const QDate first = QDateTime::fromSecsSinceEpoch(since, zone).date();
    return first.addDays(days).startOfDay(zone).toSecsSinceEpoch();
}

NewcomerAllowance newcomerAllowance(const QString &user, qint64 since, const NewcomerPolicy &policy,
                                    const QTimeZone &zone) {
    NewcomerAllowance a;
    a.user = user;
    a.since = since;
    a.until = policy.enabled() ? newcomerEnd(since, policy.days, zone) : since;
    return a;
}

double newcomerLimit(double budgetLimit, const NewcomerPolicy &policy, const NewcomerAllowance &allowance,
                     qint64 t) {
    if (!policy.enabled() || !allowance.activeAt(t))
        return budgetLimit;
    return policy.factor > 0 ? budgetLimit * policy.factor : std::numeric_limits<double>::infinity();
}

QString newcomerText(const NewcomerAllowance &allowance, qint64 t, const QTimeZone &zone) {
    if (!allowance.activeAt(t))
        return {};
    const QDate last = QDateTime::fromSecsSinceEpoch(allowance.end() - 1, zone).date();
    return QStringLiteral("newcomer allowance until %1").arg(last.toString(QStringLiteral("MM-dd")));
}

Decision decideNewcomer(const Budget &budget, const TimeRange &period, double usedGpuHours,
                        double runningGpus, const AdmissionRequest &request, double extraGpuHours,
                        const NewcomerTerms &terms, qint64 now) {
    if (budget.scope != BudgetScope::User || !terms.activeAt(now))
        return decide(budget, period, usedGpuHours, runningGpus, request, extraGpuHours);
    const NewcomerAllowance &a = *terms.allowance;
    Budget raised = budget;
    if (terms.policy.factor > 0)
        raised.limitGpuHours = newcomerLimit(budget.limitGpuHours, terms.policy, a, now);
    Decision d = decide(raised, period, usedGpuHours, runningGpus, request, extraGpuHours);
    d.budget = budget;
    d.newcomerUntil = a.end();
    d.allowanceLimit = raised.limitGpuHours;
    const QString text = newcomerText(d);
    if (terms.policy.factor > 0) {
        d.message += QStringLiteral(" (%1, x%2)").arg(text, QString::number(terms.policy.factor));
        return d;
    }
    d.unlimited = true;
    d.outcome = Decision::Outcome::Allowed;
    d.message = QStringLiteral("Allowed: %1, no limit (%2 GPU-h used)").arg(text, formatGpuHours(d.used));
    return d;
}

QDate newcomerLastDay(const Decision &d) {
    if (d.newcomerUntil <= 0)
        return {};
    const QTimeZone zone = parseZone(d.budget.tz).value_or(QTimeZone(QByteArrayLiteral("UTC")));
    return QDateTime::fromSecsSinceEpoch(d.newcomerUntil - 1, zone).date();
}

QString newcomerText(const Decision &d) {
    if (d.newcomerUntil <= 0)
        return {};
    return QStringLiteral("newcomer allowance until %1")
        .arg(newcomerLastDay(d).toString(QStringLiteral("MM-dd")));
}

QList<NewcomerEvent> newcomerEvents(const QList<NewcomerAllowance> &allowances, qint64 from, qint64 to) {
    QList<NewcomerEvent> out;
    for (const NewcomerAllowance &a : allowances) {
        if (a.end() <= a.since)
            continue;
        if (a.since > from && a.since <= to)
            out.append({a.user, true, false, a.since});
        if (a.end() > from && a.end() <= to)
            out.append({a.user, false, a.endedAt > 0 && a.endedAt < a.until, a.end()});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const NewcomerEvent &x, const NewcomerEvent &y) { return x.at < y.at; });
    return out;
}

} // namespace gq
