#include "services/budgets/budgetservice.h"

#include "core/domain/clock.h"
#include "core/usage/budgetedit.h"
#include "core/usage/usagestore.h"
#include "services/usage/storeworker.h"

#include <memory>

namespace gq {

Result<BudgetOverview> readBudgetOverview(const UsageStore &store, qint64 now, bool withNamespaces) {
    auto budgets = store.budgets();
    if (!budgets)
        return budgets.error();
    BudgetOverview o;
    o.now = now;
    o.namespacesRead = withNamespaces;
    // One status read per subject, not per budget: it decides all of the subject's.
    QList<std::pair<BudgetScope, QString>> subjects;
    for (const Budget &b : std::as_const(*budgets))
        if (subjects.isEmpty() || subjects.back() != std::make_pair(b.scope, b.subject))
            subjects.append({b.scope, b.subject});
    for (const auto &[scope, subject] : std::as_const(subjects)) {
        auto status = store.budgetStatus(scope, subject, now);
        if (!status)
            return status.error();
        for (const Decision &d : std::as_const(*status)) {
            BudgetRow row;
            row.budget = d.budget;
            row.decision = d;
            row.forecast = forecast(d, now);
            row.state = budgetState(d);
            row.graceEndsAt = graceEnd(d, now);
            // The alert ledger is the controller's; a database it never wrote to has
            // none to show, which is no reason to hide the budgets.
            if (auto alerts = AlertLedger(store).budgetState(d.budget.id, d.period.start))
                row.alerts = *alerts;
            if (withNamespaces) {
                auto namespaces = budgetNamespaces(store, d, now);
                if (!namespaces)
                    return namespaces.error();
                row.namespaces = *namespaces;
            }
            o.rows << row;
        }
    }
    std::stable_sort(o.rows.begin(), o.rows.end(), [](const BudgetRow &a, const BudgetRow &b) {
        return std::tuple(a.budget.scope, a.budget.subject, int(a.budget.period)) <
               std::tuple(b.budget.scope, b.budget.subject, int(b.budget.period));
    });
    return o;
}

QList<BudgetGroup> groupByQueue(const QList<BudgetRow> &rows, const kueue::QueueAttribution &queues,
                                kueue::QueueLevel level) {
    QList<Decision> decisions;
    QStringList keys;
    for (const BudgetRow &r : rows) {
        decisions << r.decision;
        keys << queues.subjectOfAll(r.namespaces, level);
    }
    return groupBudgets(decisions, keys);
}

BudgetService::BudgetService(UsageDatabase *database, QObject *parent)
    : StoreService(new StoreWorker, QStringLiteral("budgets-db"), {}, true, database, parent) {}

BudgetService::~BudgetService() = default;

void BudgetService::load() {
    m_jobs.runOn(
        m_worker,
        [w = m_worker, clock = m_clock, withNamespaces = m_readNamespaces]() -> Result<BudgetOverview> {
            if (auto r = w->ready(); !r)
                return r.error();
            return readBudgetOverview(*w->store, clock->nowSecs(), withNamespaces);
        },
        [this](const Result<BudgetOverview> &o) {
            if (o)
                emit overviewLoaded(*o);
            else
                emit failed(o.error());
        });
}

void BudgetService::save(const Budget &budget, const std::optional<Budget> &edited, const QString &actor,
                         const QString &note) {
    m_jobs.runOn(
        m_worker,
        [w = m_worker, budget, edited, actor, note]() -> Result<AuditEntry> {
            if (auto r = w->ready(); !r)
                return r.error();
            return setBudgetAudited(*w->store, *w->audit, budget, edited, actor, note);
        },
        [this](const Result<AuditEntry> &entry) { changedOrFailed(entry); });
}

void BudgetService::remove(const Budget &budget, const QString &actor, const QString &note) {
    m_jobs.runOn(
        m_worker,
        [w = m_worker, budget, actor, note]() -> Result<AuditEntry> {
            if (auto r = w->ready(); !r)
                return r.error();
            return deleteBudgetAudited(*w->store, *w->audit, budget, actor, note);
        },
        [this](const Result<AuditEntry> &entry) { changedOrFailed(entry); });
}

void BudgetService::changedOrFailed(const Result<AuditEntry> &entry) {
    if (!entry) {
        emit failed(entry.error());
        return;
    }
    emit changed(*entry);
    load();
}

void BudgetService::check(const AdmissionQuestion &question) {
    m_jobs.runOn(
        m_worker,
        [w = m_worker, question, clock = m_clock]() -> Result<AdmissionAnswer> {
            if (auto r = w->ready(); !r)
                return r.error();
            AdmissionAnswer a;
            a.question = question;
            a.now = clock->nowSecs();
            // Weighed like `gpuquota check --resource`: MIG slices count their share.
            const AdmissionRequest req{AdmissionRequest::Kind::NewJob,
                                       question.gpus * w->store->weights().weight(question.resource),
                                       question.hours};
            auto each = w->store->checkEach(question.user, question.ns, req, a.now);
            if (!each)
                return each.error();
            a.each = *each;
            a.decision = combine(*each, req);
            return a;
        },
        [this](const Result<AdmissionAnswer> &a) {
            if (a)
                emit answered(*a);
            else
                emit failed(a.error());
        });
}

} // namespace gq
