#include "core/usage/budgetedit.h"

#include "core/usage/boosts.h"
#include "core/usage/storeconnection.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagestore.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace gq {

QString budgetAuditText(const Budget &b) {
    return QString::fromUtf8(
        QJsonDocument(QJsonObject{{QStringLiteral("period"), periodName(b.period)},
                                  {QStringLiteral("limit"), b.limitGpuHours},
                                  {QStringLiteral("grace_seconds"), double(b.graceSeconds)},
                                  {QStringLiteral("tz"), b.tz}})
            .toJson(QJsonDocument::Compact));
}

namespace {
Result<void> needNote(const QString &note) {
    if (note.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("a note saying why is required"),
                           QStringLiteral("note"));
    return {};
}

Result<QString> textOf(UsageStore &store, BudgetScope scope, const QString &subject, Period period) {
    auto list = store.budgetsFor(scope, subject);
    if (!list)
        return list.error();
    for (const Budget &b : std::as_const(*list))
        if (b.period == period)
            return budgetAuditText(b);
    return QString();
}

bool sameKey(const Budget &a, const Budget &b) {
    return a.scope == b.scope && a.subject == b.subject && a.period == b.period;
}
} // namespace

Result<AuditEntry> setBudgetAudited(UsageStore &store, AuditLog &log, const Budget &budget,
                                    const std::optional<Budget> &replaces, const QString &actor,
                                    const QString &note) {
    if (auto r = needNote(note); !r)
        return r.error();
    if (auto v = validateBudget(budget); !v)
        return v.error();
    UsageTx tx(storeConnection(store));
    if (auto r = tx.begin(); !r)
        return r.error();
    const bool moved = replaces && !sameKey(*replaces, budget);
    // Before: the edited budget where it was (its key may change), else what the
    // new key held.
    const Budget &was = moved ? *replaces : budget;
    auto before = textOf(store, was.scope, was.subject, was.period);
    if (!before)
        return before.error();
    if (moved) {
        if (auto n = store.deleteBudget(replaces->scope, replaces->subject, replaces->period); !n)
            return n.error();
    }
    auto stored = store.setBudget(budget);
    if (!stored)
        return stored.error();
    auto entry = log.append(actor, QStringLiteral("budget.set"),
                            BoostTarget::budget(budget.scope, budget.subject).toString(), *before,
                            budgetAuditText(*stored), note);
    if (!entry)
        return entry.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return *entry;
}

Result<AuditEntry> deleteBudgetAudited(UsageStore &store, AuditLog &log, const Budget &budget,
                                       const QString &actor, const QString &note) {
    if (auto r = needNote(note); !r)
        return r.error();
    UsageTx tx(storeConnection(store));
    if (auto r = tx.begin(); !r)
        return r.error();
    auto before = textOf(store, budget.scope, budget.subject, budget.period);
    if (!before)
        return before.error();
    auto n = store.deleteBudget(budget.scope, budget.subject, budget.period);
    if (!n)
        return n.error();
    if (*n == 0)
        return Error::make(Error::Kind::NotFound,
                           QStringLiteral("no %1 budget for %2 %3")
                               .arg(periodName(budget.period), scopeName(budget.scope), budget.subject));
    auto entry =
        log.append(actor, QStringLiteral("budget.delete"),
                   BoostTarget::budget(budget.scope, budget.subject).toString(), *before, QString(), note);
    if (!entry)
        return entry.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return *entry;
}

} // namespace gq
