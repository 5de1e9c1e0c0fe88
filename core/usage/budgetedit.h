#pragma once

#include "core/usage/auditlog.h"
#include "core/usage/budget.h"
#include "core/domain/result.h"

#include <optional>

namespace gq {

class UsageStore;

// A budget change with its audit entry in one transaction: a change that cannot be
// audited is not made. Used by the console's Budgets page (through BudgetService);
// the CLI's `budget set|delete` write the same before/after text.
//
// The note is mandatory (Invalid, field "note", when blank): an admin changing who
// may use how many GPU-hours says why.

// The budget as the audit log shows it before and after a change (compact JSON).
[[nodiscard]] QString budgetAuditText(const Budget &b);

// Stores `budget` (insert or replace by scope, subject, period). `replaces`: the budget
// being edited, when its key (scope, subject or period) changed, is deleted in the
// same transaction. Action "budget.set", target budget/<scope>/<subject>.
Result<AuditEntry> setBudgetAudited(UsageStore &store, AuditLog &log, const Budget &budget,
                                    const std::optional<Budget> &replaces, const QString &actor,
                                    const QString &note);
// Deletes the budget of (scope, subject, period). NotFound when there is none.
// Action "budget.delete".
Result<AuditEntry> deleteBudgetAudited(UsageStore &store, AuditLog &log, const Budget &budget,
                                       const QString &actor, const QString &note);

} // namespace gq
