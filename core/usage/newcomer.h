#pragma once

#include "core/usage/budget.h"
#include "core/domain/result.h"

#include <QDate>
#include <QList>
#include <QString>
#include <QTimeZone>

#include <optional>

namespace gq {

// The newcomer allowance, a budget policy (issue #30): a user seen for the first time (their
// first recorded interval, or added by an admin) has a larger budget, or none at all, for
// their first N calendar days in the budget's zone; it ends by itself, or early when an
// admin ends it. Pure functions here: what is in force at an instant, the limit it gives,
// the words the budget shows, and the starts and ends a pass must audit. The store side
// (the policy, who is a newcomer, the audit) is NewcomerLedger (newcomerledger.h).
struct NewcomerPolicy {
    int days = 0;      // 0: no allowance
    double factor = 0; // the limit x factor; 0: unlimited

    [[nodiscard]] bool enabled() const { return days > 0; }
    // "7d:unlimited", "14d:x3", "off". Errors name the field "newcomer".
    [[nodiscard]] static Result<NewcomerPolicy> parse(const QString &text);
    [[nodiscard]] QString toString() const;
};

struct NewcomerAllowance {
    QString user;
    qint64 since = 0;   // the first interval's start, or when the admin added the user
    qint64 until = 0;   // the end by itself (exclusive): see newcomerEnd()
    qint64 endedAt = 0; // ended early by an admin (0: not)
    // Not in the newcomers table yet: a user first seen after the policy was set, judged
    // from their first interval (or from now, before they have one) until the sweep or an
    // admin records them (readNewcomerTerms).
    bool provisional = false;

    // Where it ends, early or by itself.
    [[nodiscard]] qint64 end() const { return endedAt > 0 && endedAt < until ? endedAt : until; }
    [[nodiscard]] bool activeAt(qint64 t) const { return t >= since && t < end(); }
};

// The start of the local day `days` calendar days after the day of `since` in `zone`: the
// first `days` days, the first one partly, whatever DST does to their lengths.
[[nodiscard]] qint64 newcomerEnd(qint64 since, int days, const QTimeZone &zone);
[[nodiscard]] NewcomerAllowance newcomerAllowance(const QString &user, qint64 since,
                                                  const NewcomerPolicy &policy, const QTimeZone &zone);

// The limit in force at `t`: the budget's, or the allowance's (infinity for unlimited).
[[nodiscard]] double newcomerLimit(double budgetLimit, const NewcomerPolicy &policy,
                                   const NewcomerAllowance &allowance, qint64 t);

// "newcomer allowance until 12-14" (the last local day it covers, MM-dd in `zone`), or
// empty when none is in force at `t`.
[[nodiscard]] QString newcomerText(const NewcomerAllowance &allowance, qint64 t, const QTimeZone &zone);

// What the database says of one user: its policy (one for all user budgets) and the
// user's allowance, if they have one.
struct NewcomerTerms {
    NewcomerPolicy policy;
    std::optional<NewcomerAllowance> allowance;
    [[nodiscard]] bool activeAt(qint64 t) const {
        return policy.enabled() && allowance && allowance->activeAt(t);
    }
};

// decide() of a USER budget under the allowance in force at `now`: the limit x factor
// (boosts on top), or no limit at all (unlimited: allowed whatever is used, never over);
// the Decision says so (newcomerUntil, unlimited, allowanceLimit) and its message names
// the allowance. Namespace budgets, and users without an allowance in force: decide().
[[nodiscard]] Decision decideNewcomer(const Budget &budget, const TimeRange &period, double usedGpuHours,
                                      double runningGpus, const AdmissionRequest &request,
                                      double extraGpuHours, const NewcomerTerms &terms, qint64 now);
// newcomerText() of a decision in its budget's zone ("newcomer allowance until 12-14"),
// empty when no allowance was in force.
[[nodiscard]] QString newcomerText(const Decision &d);
// The last local day the allowance of a decision covers, in its budget's zone (invalid
// when none was in force): what the translated texts of the console and the page show.
[[nodiscard]] QDate newcomerLastDay(const Decision &d);

// A start or an end in (from, to], for the audit log ("budget.newcomer.start" / ".end").
struct NewcomerEvent {
    QString user;
    bool start = true;
    bool early = false; // an end by an admin
    qint64 at = 0;
};
[[nodiscard]] QList<NewcomerEvent> newcomerEvents(const QList<NewcomerAllowance> &allowances, qint64 from,
                                                  qint64 to);

} // namespace gq
