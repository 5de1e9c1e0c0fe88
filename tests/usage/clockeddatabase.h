#pragma once

// The console's usage database (UsageService) on a manual clock, for the suites that
// move time by hand: tst_usagedatabase and tst_overbudget.

#include "core/domain/clock.h"
#include "services/usage/usageservice.h"

namespace gq::test {

struct ClockedDatabase {
    // refreshMs: the periodic budget check; 0 checks only when asked.
    ClockedDatabase(qint64 now, int refreshMs)
        : clock(now) {
        db.setClock(&clock);
        db.setBudgetRefreshInterval(refreshMs);
    }
    Q_DISABLE_COPY_MOVE(ClockedDatabase)

    ManualClock clock;
    UsageService db;
};

} // namespace gq::test
