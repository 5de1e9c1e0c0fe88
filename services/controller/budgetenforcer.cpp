#include "services/controller/budgetenforcer.h"

#include "core/usage/auditlog.h"
#include "core/usage/changeaudit.h"
#include "services/controller/clampscope.h"
#include "core/kube/kubeclient.h"
#include "core/usage/newcomerledger.h"
#include "services/quotas/quotawriter.h"
#include "core/usage/usagestore.h"

#include <QJsonDocument>
#include <QLoggingCategory>

#include <algorithm>
#include <optional>

Q_LOGGING_CATEGORY(lcEnforcer, "gq.controller.enforcer")

namespace gq {

using clampplan::Plan;

QString ClampEvent::kindName(Kind k) {
    switch (k) {
    case Kind::Applied: return QStringLiteral("applied");
    case Kind::Adjusted: return QStringLiteral("adjusted");
    case Kind::Lifted: return QStringLiteral("lifted");
    case Kind::Reverted: return QStringLiteral("reverted");
    }
    return {};
}

QString ClampEvent::line() const {
    if (kind == Kind::Reverted) { // before: the value the other owner put back; after: the clamp
        QStringList now;
        for (auto it = before.begin(); it != before.end(); ++it)
            now << QStringLiteral("%1 %2 (clamp %3)")
                       .arg(it.key(), it.value().toString(), after.value(it.key()).toString());
        return QStringLiteral("%1/%2 clamp reverted by %3: %4 (%5)")
            .arg(ns, quota, revertedBy, now.join(QStringLiteral(", ")), reason);
    }
    QStringList changes;
    QStringList keys = before.keys();
    for (const QString &k : after.keys())
        if (!keys.contains(k))
            keys << k;
    std::sort(keys.begin(), keys.end());
    for (const QString &k : keys) {
        const QString b = before.contains(k) ? before.value(k).toString() : QStringLiteral("-");
        const QString a = after.contains(k) ? after.value(k).toString() : QStringLiteral("-");
        changes << QStringLiteral("%1 %2 -> %3").arg(k, b, a);
    }
    QString text = QStringLiteral("%1/%2 clamp %3: %4")
                       .arg(ns, quota, kindName(kind), changes.join(QStringLiteral(", ")));
    if (!reason.isEmpty())
        text += QStringLiteral(" (%1)").arg(reason);
    return text;
}

namespace {

QString nameOf(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
}
QString nsOf(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("namespace")).toString();
}
QString resourceVersionOf(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
}
QString compact(const QJsonObject &o) {
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

} // namespace

BudgetEnforcer::BudgetEnforcer(UsageStore &store, std::shared_ptr<KubeClient> client, Options options,
                               QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_client(std::move(client))
    , m_opt(std::move(options))
    , m_audit(std::make_unique<AuditLog>(store))
    , m_auditSink(std::make_shared<AuditLogSink>(store, m_opt.actor)) {}

void BudgetEnforcer::setAuditSink(std::shared_ptr<ChangeAuditSink> sink) {
    if (sink)
        m_auditSink = std::move(sink);
}

BudgetEnforcer::~BudgetEnforcer() = default;

bool BudgetEnforcer::tick(qint64 now) {
    if (m_running)
        return false;
    m_running = true;
    m_now = now;
    m_report = EnforceReport{};
    m_queue.clear();
    m_budgetNamespaces.clear();
    // The newcomer allowance (issue #30): users first seen since the last pass, and the
    // starts and ends due by now into the audit log, once across replicas.
    const ManualClock at(now);
    if (auto swept = NewcomerLedger(m_store, at).sweep(); !swept)
        m_report.errors << tr("newcomer allowances: %1").arg(swept.error().message);
    auto budgets = m_store.budgets();
    if (!budgets) {
        const QString why = budgets.error().message;
        m_jobs.post([this, why] {
            m_report.errors << tr("usage database: %1").arg(why);
            finishPass();
        });
        return true;
    }
    for (const Budget &b : *budgets)
        if (b.scope == BudgetScope::Namespace && !m_budgetNamespaces.contains(b.subject))
            m_budgetNamespaces << b.subject;
    // Clamped quotas are found on the server, not in the database: a namespace whose
    // budget was deleted must be lifted too, and any replica must find what another did.
    m_jobs.watch(m_client->list(KubeResource::resourceQuotas(), QString()),
                 [this](const Result<ObjectList> &r) { onAllQuotas(r); });
    return true;
}

EnforceReport BudgetEnforcer::runNow(qint64 now) {
    // The pass's deliveries (this object's and its writers') run here, and nothing else:
    // no nested event loop. Installed before the pass starts, so its first post lands here.
    JobWait wait;
    std::optional<EnforceReport> report;
    const auto c =
        connect(this, &BudgetEnforcer::finished, this, [&](const EnforceReport &r) { report = r; });
    if (tick(now))
        wait.until([&] { return report.has_value(); });
    disconnect(c);
    return report.value_or(EnforceReport{});
}

void BudgetEnforcer::onAllQuotas(const Result<ObjectList> &r) {
    if (!r) {
        m_report.errors << tr("listing ResourceQuotas: %1").arg(r.error().message);
        return finishPass();
    }
    QStringList namespaces = m_budgetNamespaces;
    for (const QJsonObject &q : r->items) {
        if (!clampplan::hasClamp(q))
            continue;
        if (!namespaces.contains(nsOf(q)))
            namespaces << nsOf(q);
        if (!clampplan::enforced(q))
            m_report.notEnforced
                << nsOf(q) + u'/' +
                       q.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    }
    std::sort(namespaces.begin(), namespaces.end());
    m_candidates = namespaces;
    // The phases: a namespace being deleted refuses creates (403) and takes its quotas along.
    m_jobs.watch(m_client->list(KubeResource::namespaces(), QString()),
                 [this](const Result<ObjectList> &r) { onNamespaces(r); });
}

void BudgetEnforcer::onNamespaces(const Result<ObjectList> &r) {
    // Without the phases the pass still enforces (as before they were known): a missed
    // budget costs more than a 403 in a namespace that is going away.
    if (!r)
        m_report.errors << tr("listing namespaces: %1").arg(r.error().message);
    QSet<QString> terminating;
    for (const QJsonObject &o : r ? r->items : QList<QJsonObject>{})
        if (clampplan::isTerminating(o))
            terminating << nameOf(o);
    for (auto it = m_terminatingLogged.begin(); r && it != m_terminatingLogged.end();)
        it = terminating.contains(*it) ? std::next(it) : m_terminatingLogged.erase(it);
    for (const QString &ns : std::as_const(m_candidates)) {
        if (terminating.contains(ns)) {
            m_report.terminating << ns;
            if (!m_terminatingLogged.contains(ns)) {
                m_terminatingLogged << ns;
                qCInfo(lcEnforcer).noquote()
                    << QStringLiteral("%1: namespace is Terminating; budget enforcement stops acting there")
                           .arg(ns);
            }
            continue;
        }
        Work w;
        w.ns = ns;
        if (m_budgetNamespaces.contains(ns)) {
            auto status = m_store.budgetStatus(BudgetScope::Namespace, ns, m_now);
            if (!status) {
                m_report.errors << tr("%1: usage database: %2").arg(ns, status.error().message);
                continue;
            }
            w.due = clampplan::clampDue(*status, &w.reason);
        }
        m_queue << w;
    }
    m_report.namespaces = int(m_queue.size());
    next();
}

void BudgetEnforcer::next() {
    if (m_queue.isEmpty())
        return finishPass();
    m_cur = m_queue.takeFirst();
    m_conflicts = 0;
    fetchNamespace();
}

void BudgetEnforcer::fetchNamespace() {
    m_jobs.watch(m_client->list(KubeResource::resourceQuotas(), m_cur.ns),
                 [this](const Result<ObjectList> &r) { onNamespaceQuotas(r); });
}

void BudgetEnforcer::onNamespaceQuotas(const Result<ObjectList> &r) {
    if (!r)
        return stepFailed(tr("listing ResourceQuotas: %1").arg(r.error().message));
    const QList<QJsonObject> quotas = r->items;
    if (!m_cur.due) {
        plan(quotas, {});
        return;
    }
    m_quotas = quotas;
    m_jobs.watch(m_client->list(KubeResource::pods(), m_cur.ns), [this](const Result<ObjectList> &pods) {
        if (!pods)
            return stepFailed(tr("listing pods: %1").arg(pods.error().message));
        plan(m_quotas, pods->items);
    });
}

void BudgetEnforcer::plan(const QList<QJsonObject> &quotas, const QList<QJsonObject> &pods) {
    m_steps.clear();
    if (m_cur.due) {
        const QHash<QString, qint64> inUse = clampplan::gpusInUse(pods);
        bool anyGpuQuota = false;
        for (const QJsonObject &q : quotas) {
            if (!clampplan::limitsGpus(q) && !clampplan::hasClamp(q))
                continue;
            // Only an unscoped quota limits every pod; with scoped ones alone the rest of the
            // namespace's pods get the created quota.
            anyGpuQuota = anyGpuQuota || !clampplan::isScoped(q);
            // A scoped quota is clamped to what its own scope holds (its status.used).
            Plan p = clampplan::planClamp(q, clampplan::inUseFor(q, inUse), m_now, m_cur.reason);
            if (p.action != Plan::Action::None && (!p.adminEdit || admitEditedClamp(q, p)))
                m_steps << p;
        }
        if (!anyGpuQuota)
            m_steps << clampplan::planCreate(m_cur.ns, inUse, m_now, m_cur.reason);
    } else {
        for (const QJsonObject &q : quotas) {
            m_backoff.forget(ClampBackoff::keyOf(q)); // the episode ends with the clamp
            Plan p = clampplan::planLift(q);
            if (p.action != Plan::Action::None)
                m_steps << p;
        }
    }
    runStep();
}

bool BudgetEnforcer::admitEditedClamp(const QJsonObject &quota, const Plan &p) {
    const ClampBackoff::Verdict v = m_backoff.judge(quota, p.editedKeys, m_now);
    if (v.report)
        reportRevert(quota, p, v);
    if (!v.write)
        m_report.backingOff << ClampBackoff::keyOf(quota);
    return v.write;
}

void BudgetEnforcer::reportRevert(const QJsonObject &quota, const Plan &p, const ClampBackoff::Verdict &v) {
    ClampEvent e;
    e.kind = ClampEvent::Kind::Reverted;
    e.ns = m_cur.ns;
    e.quota = nameOf(quota);
    e.before = p.before; // what the other owner put back
    e.after = p.after;   // what the clamp would write
    e.revertedBy = v.owner ? v.owner->manager : QString();
    e.nextAttempt = v.nextAttempt;
    e.adminEdit = true;
    e.at = m_now;
    e.reason = QStringLiteral("%1 (%2) owns spec.hard of this quota and undid the clamp; the controller "
                              "backs off (doubling, at most 1 h) instead of writing it every tick. "
                              "Give the controller its own quota object or let GitOps ignore this "
                              "key (README: GitOps)")
                   .arg(e.revertedBy, v.owner ? v.owner->operation : QString());
    if (auto a = m_auditSink->append(changeaudit::clampEntry(changeaudit::ClampStep::Reverted, e.ns, e.quota,
                                                             compact(e.before), compact(e.after), e.reason));
        !a)
        m_report.errors << tr("%1/%2: audit: %3").arg(e.ns, e.quota, a.error().message);
    qCWarning(lcEnforcer).noquote() << e.line();
    m_report.events << e;
    for (const Listener &l : m_listeners)
        l(e);
    emit clampApplied(e);
}

void BudgetEnforcer::runStep() {
    if (m_steps.isEmpty())
        return next();
    const Plan &p = m_steps.first();
    if (p.action == Plan::Action::Delete) {
        m_jobs.watch(m_client->remove(KubeResource::resourceQuotas(), m_cur.ns, nameOf(p.quota),
                                      WriteOptions{}, resourceVersionOf(p.quota)),
                     [this](const Result<QJsonObject> &r) {
                         if (r || r.error().kind == Error::Kind::NotFound)
                             return stepDone();
                         if (r.error().kind == Error::Kind::Conflict)
                             return stepConflict();
                         stepFailed(r.error().message);
                     });
        return;
    }
    // The writer before may be the one whose signal brought us here: it is kept until the
    // next write (or this object's end), not deleted later by an event loop a CLI never runs.
    m_retiredWriter = std::move(m_writer);
    m_writer = std::make_unique<QuotaWriter>(m_client);
    QuotaWriter *w = m_writer.get();
    connect(w, &QuotaWriter::stateChanged, this, [this, w](QuotaWriter::State s) {
        switch (s) {
        case QuotaWriter::State::AwaitingConfirmation: w->confirm(); break;
        case QuotaWriter::State::Applied: m_jobs.post([this] { stepDone(); }); break;
        case QuotaWriter::State::Conflict: m_jobs.post([this] { stepConflict(); }); break;
        case QuotaWriter::State::Failed: {
            const Error e = w->error();
            if (e.kind == Error::Kind::AlreadyExists || e.kind == Error::Kind::Conflict)
                m_jobs.post([this] { stepConflict(); }); // another replica created it first
            else
                m_jobs.post([this, why = e.message] { stepFailed(why); });
            break;
        }
        case QuotaWriter::State::Cancelled:
            m_jobs.post([this] { stepFailed(tr("the write was cancelled")); });
            break;
        default: break;
        }
    });
    QuotaWriter::Request req;
    req.resource = &KubeResource::resourceQuotas();
    req.ns = m_cur.ns;
    if (p.action == Plan::Action::Replace)
        req.base = p.server; // its resourceVersion makes the PUT conditional
    req.mine = p.quota;
    req.apiRulesOnly = true; // a machine write: the admin's other keys are not ours to refuse
    // The log as it stands (the entries before this clamp, e.g. the previous clamp's or
    // the budget change), published in the same PUT as the other writers do; this
    // write's own entry follows once it succeeded (stepDone) and is anchored by the next.
    if (auto head = m_audit->head(); head && head->count > 0)
        req.auditHead = *head;
    w->start(req);
}

void BudgetEnforcer::stepDone() {
    const Plan p = m_steps.takeFirst();
    ClampEvent e;
    e.kind = p.event == Plan::Event::Lifted     ? ClampEvent::Kind::Lifted
             : p.event == Plan::Event::Adjusted ? ClampEvent::Kind::Adjusted
                                                : ClampEvent::Kind::Applied;
    e.ns = m_cur.ns;
    e.quota = nameOf(p.quota);
    e.before = p.before;
    e.after = p.after;
    e.reason = e.kind == ClampEvent::Kind::Lifted ? tr("the budget allows GPU work again") : m_cur.reason;
    e.createdQuota = p.action == Plan::Action::Create || p.action == Plan::Action::Delete;
    e.adminEdit = p.adminEdit;
    e.at = m_now;
    const changeaudit::ClampStep step = e.kind == ClampEvent::Kind::Lifted ? changeaudit::ClampStep::Lifted
                                        : e.kind == ClampEvent::Kind::Adjusted
                                            ? changeaudit::ClampStep::Adjusted
                                            : changeaudit::ClampStep::Applied;
    QString note = e.reason;
    if (e.adminEdit)
        note += QStringLiteral("; an admin's value set during the clamp was kept");
    // Admission enforces status.hard, which kube-controller-manager copies from spec.hard later.
    if (p.action != Plan::Action::Delete)
        note += QStringLiteral("; ") + clampplan::enforcementWord(clampplan::shows(p.server, e.after));
    if (p.action != Plan::Action::Delete && e.kind != ClampEvent::Kind::Lifted)
        m_backoff.wrote(ClampBackoff::keyOf(p.quota));
    if (auto a = m_auditSink->append(
            changeaudit::clampEntry(step, e.ns, e.quota, compact(e.before), compact(e.after), note));
        !a)
        m_report.errors << tr("%1/%2: audit: %3").arg(e.ns, e.quota, a.error().message);
    m_report.events << e;
    for (const Listener &l : m_listeners)
        l(e);
    if (e.kind == ClampEvent::Kind::Lifted)
        emit clampLifted(e);
    else
        emit clampApplied(e);
    runStep();
}

void BudgetEnforcer::stepConflict() {
    // Changed under us (an admin, another replica): read again and plan again.
    if (++m_conflicts > m_opt.maxConflicts)
        return stepFailed(tr("the quotas kept changing on the server (409 Conflict)"));
    m_steps.clear();
    fetchNamespace();
}

void BudgetEnforcer::stepFailed(const QString &why) {
    m_report.errors << QStringLiteral("%1: %2").arg(m_cur.ns, why);
    m_steps.clear();
    next();
}

void BudgetEnforcer::finishPass() {
    m_running = false;
    emit finished(m_report);
}

} // namespace gq
