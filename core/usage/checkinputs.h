#pragma once

#include "core/usage/budget.h"
#include "core/usage/ledger.h"
#include "core/usage/newcomer.h"
#include "core/domain/result.h"
#include "core/usage/timewindow.h"

#include <QList>
#include <QString>

#include <limits>
#include <vector>

class QSqlQuery;

namespace gq {

class DayIndex;
class IntervalQueries;
class UsageConnection;

// What the admission check needs of one subject, read once and decided from at any
// `now` inside its periods (UsageStore::check, with or without the kept cache).
struct CheckNeed {
    Budget budget;
    TimeRange period;
    int table = -1;                // kRollupTables index, or -1 for the exact path
    double closedSeconds = 0;      // GPU-seconds of closed intervals in `period` (raw: rollups)
    double closedExtraSeconds = 0; // what GPU model weights add to them (IntervalQueries::modelExtra)
    bool summed = false;           // read by the first statement
};
struct CheckBoost {
    qint64 start = 0;
    qint64 expiry = 0;
    double delta = 0;
};
struct CheckSubject {
    BudgetScope scope = BudgetScope::User;
    QString subject;
    QList<Budget> budgets;
    std::vector<CheckBoost> boosts; // pending/applied, not expired when read
    std::vector<UsageInterval> running;
    std::vector<CheckNeed> needs;
    NewcomerTerms newcomer; // users: the newcomer policy and their allowance
    qint64 readAt = 0;
    // `now` values in [validFrom, validUntil) are answered from this entry.
    qint64 validFrom = std::numeric_limits<qint64>::min();
    qint64 validUntil = std::numeric_limits<qint64>::max();
};

// Reads the inputs of the admission check for a user and a namespace: one round trip
// in the common case (budgets, unexpired budget boosts, running rows and the daily
// rollup sums of the current day, week and month in the rollup zone, in one kept
// statement), a second kept statement for budgets in other zones, and the raw
// intervals for zones whose calendar is not on whole UTC hours.
class CheckInputReader {
public:
    CheckInputReader(const UsageConnection &conn, DayIndex &days, const IntervalQueries &intervals);
    Q_DISABLE_COPY_MOVE(CheckInputReader)

    // out[0] the user, out[1] the namespace; a subject that is empty or not to be
    // loaded reads nothing (its entry stays empty).
    Result<void> read(const QString &user, const QString &ns, bool loadUser, bool loadNs, qint64 now,
                      CheckSubject out[2]) const;

private:
    struct Ref {
        int subject;
        size_t need;
    };
    using ZoneSums = double[2][3]; // [user, namespace][day, week, month]
    void bindFirst(QSqlQuery &q, const QString &user, const QString &ns, bool loadUser, bool loadNs,
                   qint64 now, const TimeRange zoneWindows[3]) const;
    static void decodeFirst(QSqlQuery &q, bool userLoaded, CheckSubject out[2], ZoneSums &zoneSums);
    // Each budget's current period and where its closed GPU-seconds come from; the
    // needs the first statement did not answer from the rollups are returned.
    Result<std::vector<Ref>> planNeeds(qint64 now, const TimeRange zoneWindows[3], const ZoneSums &zoneSums,
                                       CheckSubject out[2]) const;
    Result<void> readRollupSums(const std::vector<Ref> &refs, const QString &user, const QString &ns,
                                CheckSubject out[2]) const;
    Result<void> readExactSums(CheckSubject out[2]) const;
    Result<void> readModelExtra(CheckSubject out[2]) const;
    // The newcomer policy and the user's allowance (only when the user has a budget).
    Result<void> readNewcomer(const QString &user, bool loadUser, qint64 now, CheckSubject &out) const;

    const UsageConnection &m_conn;
    DayIndex &m_days;
    const IntervalQueries &m_intervals;
    QString m_firstSql; // the same text every time: it is the kept statement's key
};

} // namespace gq
