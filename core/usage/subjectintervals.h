#pragma once

#include "core/usage/budget.h"
#include "core/usage/ledger.h"
#include "core/domain/result.h"

#include <vector>

namespace gq {

class UsageStore;

// The raw intervals of one namespace or user that overlap [from, to) (open ones
// count as reaching `now`), in start order. The rollups have no namespace-by-user
// cells, so a namespace's chart stacked by user, a user's chart by namespace and the
// drill-down behind one bar read these (through the (ns, start_s) and
// (user_name, start_s) indexes) and split them with gpuHoursByPeriod().
[[nodiscard]] Result<std::vector<UsageInterval>> subjectIntervals(const UsageStore &store, BudgetScope scope,
                                                                  const QString &subject, qint64 from,
                                                                  qint64 to, qint64 now);

} // namespace gq
