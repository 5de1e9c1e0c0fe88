#pragma once

// Usage rows and GPU-hour budgets for the suites that seed a usage database
// (tst_usagedatabase, the tst_usagestore_* suites, tst_boosttarget, tst_overbudget), on a fixed day so
// that "today" holds them whatever the machine's clock says.

#include "core/usage/boosts.h"
#include "core/usage/budget.h"
#include "core/usage/ledger.h"

#include <QDate>
#include <QDateTime>
#include <QTime>

#include <optional>

namespace gq::test {

// 2026-03-10 15:00 UTC: mid-day.
inline const QDateTime kNow(QDate(2026, 3, 10), QTime(15, 0), Qt::UTC);

// hour:minute UTC on kNow's day.
inline qint64 at(int hour, int minute = 0) {
    return QDateTime(kNow.date(), QTime(hour, minute), Qt::UTC).toSecsSinceEpoch();
}

// A day of March 2026, UTC.
inline qint64 utc(int day, int hour, int minute = 0, int second = 0) {
    return QDateTime(QDate(2026, 3, day), QTime(hour, minute, second), Qt::UTC).toSecsSinceEpoch();
}

// end empty: still running. The pod's uid is "<ns>-<pod>", so one pod name may stand
// in several namespaces.
inline UsageInterval interval(const QString &ns, const QString &user, const QString &pod, int gpus,
                              qint64 start, std::optional<qint64> end) {
    UsageInterval iv;
    iv.cluster = QStringLiteral("test");
    iv.ns = ns;
    iv.user = user;
    iv.podUid = ns + QLatin1Char('-') + pod;
    iv.podName = pod;
    iv.gpus = gpus;
    iv.start = start;
    iv.end = end;
    iv.source = QStringLiteral("test");
    return iv;
}

inline Budget budget(BudgetScope scope, const QString &subject, double limit, qint64 graceSeconds = 0,
                     const QString &tz = QStringLiteral("UTC"), Period period = Period::Day) {
    Budget b;
    b.scope = scope;
    b.subject = subject;
    b.period = period;
    b.limitGpuHours = limit;
    b.graceSeconds = graceSeconds;
    b.tz = tz;
    return b;
}

// A budget boost of `delta` GPU-hours, active from start to expiry.
inline Boost budgetBoost(BudgetScope scope, const QString &subject, const QString &delta, qint64 start,
                         qint64 expiry, const QString &actor = QStringLiteral("admin")) {
    Boost b;
    b.target = BoostTarget::budget(scope, subject);
    b.delta = delta;
    b.start = start;
    b.expiry = expiry;
    b.actor = actor;
    return b;
}

} // namespace gq::test
