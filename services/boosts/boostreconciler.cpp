#include "services/boosts/boostreconciler.h"

#include "core/usage/auditlog.h"
#include "core/boosts/boostannotation.h"
#include "core/usage/boostledger.h"
#include "core/usage/changeaudit.h"
#include "core/kube/kubeclient.h"
#include "core/kube/managedfields.h"
#include "services/platform/platform.h"
#include "core/domain/quantity.h"
#include "services/quotas/quotawriter.h"
#include "core/usage/timewindow.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagestore.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSysInfo>

#include <optional>

namespace gq {

namespace {
QString targetText(const BoostTarget &t) {
    if (t.kind == BoostTarget::Kind::Budget)
        return QStringLiteral("budget %1 %2").arg(scopeName(t.scope), t.subject);
    if (t.kind == BoostTarget::Kind::ClusterQueue)
        return QStringLiteral("clusterqueue/%1 %2 %3 %4").arg(t.subject, t.quota, t.field, t.resource);
    return QStringLiteral("%1/%2 %3").arg(t.subject, t.quota, t.resource);
}

QString windowsText(int n) {
    return n == 1 ? QStringLiteral("1 window") : QStringLiteral("%1 windows").arg(n);
}

// `b` released from its claim, with no failure or retry pending.
Boost settled(const Boost &b) {
    Boost n = b;
    n.claimOwner.clear();
    n.claimUntil = 0;
    n.reason.clear();
    n.retryOp.clear();
    n.nextRetry = 0;
    n.attempts = 0;
    return n;
}
} // namespace

QString BoostTransition::line() const {
    QString s = QStringLiteral("boost %1 %2: %3 -> %4")
                    .arg(boostId)
                    .arg(targetText(target), boostStateName(from), boostStateName(to));
    if (to == Boost::State::Failed)
        return s + QStringLiteral(": %1 (retry at %2)").arg(error, formatInstantUtc(nextRetry));
    if (!before.isEmpty() || !after.isEmpty())
        s += QStringLiteral(" (%1 -> %2)").arg(before, after);
    if (missedWindows > 0)
        s += QStringLiteral("; %1 missed while no reconcile ran").arg(windowsText(missedWindows));
    if (!note.isEmpty())
        s += QStringLiteral("; ") + note;
    if (!error.isEmpty())
        s += QStringLiteral(": %1 (retried by the next reconcile)").arg(error);
    return s;
}

BoostReconciler::BoostReconciler(UsageStore &store, std::shared_ptr<KubeClient> client, Options options,
                                 QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_client(std::move(client))
    , m_opt(std::move(options)) {
    if (m_opt.owner.isEmpty())
        m_opt.owner = defaultOwner();
    if (m_opt.actor.isEmpty())
        m_opt.actor = QStringLiteral("reconcile");
    m_auditSink = std::make_shared<AuditLogSink>(m_store, m_opt.actor);
}

void BoostReconciler::setAuditSink(std::shared_ptr<ChangeAuditSink> sink) {
    if (sink)
        m_auditSink = std::move(sink);
}

BoostReconciler::~BoostReconciler() = default;

QString BoostReconciler::defaultOwner() {
    return QStringLiteral("%1:%2:%3")
        .arg(QSysInfo::machineHostName())
        .arg(QCoreApplication::applicationPid())
        .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
}

qint64 BoostReconciler::retryDelay(int attempt) {
    qint64 d = 30;
    for (int i = 1; i < attempt && d < 3600; ++i)
        d *= 2;
    return std::min<qint64>(d, 3600);
}

bool BoostReconciler::start(qint64 now, qint64 onlyBoost) {
    if (m_running)
        return false;
    m_running = true;
    m_now = now;
    m_report = {};
    m_queue.clear();
    BoostStore &boosts = m_store.boostStore();
    auto due = boosts.due(now);
    if (!due) {
        m_report.error = due.error();
    } else {
        for (const Boost &b : *due)
            if (onlyBoost <= 0 || b.id == onlyBoost)
                m_queue << b.id;
    }
    m_jobs.post([this] { next(); });
    return true;
}

ReconcileReport BoostReconciler::runNow(qint64 now, qint64 onlyBoost) {
    // The pass's deliveries (this object's and its writers') run here, and nothing else:
    // no nested event loop. Installed before the pass starts, so its first post lands here.
    JobWait wait;
    std::optional<ReconcileReport> report;
    const auto c =
        connect(this, &BoostReconciler::finished, this, [&](const ReconcileReport &r) { report = r; });
    if (start(now, onlyBoost))
        wait.until([&] { return report.has_value(); });
    disconnect(c);
    return report.value_or(ReconcileReport{});
}

void BoostReconciler::finishPass() {
    m_running = false;
    emit finished(m_report);
}

void BoostReconciler::next() {
    if (m_report.error || m_queue.isEmpty()) {
        finishPass();
        return;
    }
    const qint64 id = m_queue.takeFirst();
    BoostStore &boosts = m_store.boostStore();
    auto b = boosts.find(id);
    if (!b) {
        m_report.error = b.error();
        finishPass();
        return;
    }
    if (!*b) {
        m_jobs.post([this] { next(); });
        return;
    }
    handle(**b);
}

BoostReconciler::Op BoostReconciler::decide(const Boost &b) const {
    switch (b.state) {
    case Boost::State::Scheduled:
        if (b.start > m_now)
            return Op::Skip;
        // The window passed before any reconcile ran: nothing was ever applied (applying
        // is the only way onto the cluster), so it just ends (or moves to the next one).
        return b.expiry <= m_now ? Op::PassWindow : Op::Apply;
    case Boost::State::Active:
        if (b.expiry <= m_now)
            return Op::Revert;
        return b.retryOp == QLatin1String(Boost::kAnnotateOp) && b.target.onCluster() ? Op::Annotate
                                                                                      : Op::Skip;
    case Boost::State::Failed:
        if (b.nextRetry > m_now)
            return Op::Skip;
        return b.retryOp == QLatin1String("revert") || b.expiry <= m_now ? Op::Revert : Op::Apply;
    case Boost::State::Applying:
    case Boost::State::Reverting:
        if (b.claimOwner == m_opt.owner || !claimIsStale(b))
            return Op::Skip;
        return b.state == Boost::State::Applying ? Op::Apply : Op::Revert;
    case Boost::State::Expired:
    case Boost::State::Revoked: return Op::Skip;
    }
    return Op::Skip;
}

void BoostReconciler::handle(const Boost &b) {
    const auto skip = [this] { m_jobs.post([this] { next(); }); };
    const Op op = decide(b);
    if (op == Op::Skip)
        return skip();
    if (op != Op::PassWindow && b.target.onCluster() && !m_client) {
        ++m_report.waiting; // left for a reconcile that can reach the cluster
        return skip();
    }
    m_claimed = b;
    m_from = b.state;
    m_op = op;
    m_conflicts = 0;
    m_note.clear();
    m_enforcement.clear();
    switch (op) {
    case Op::PassWindow: return complete(QString(), QString()); // compare-and-set on the unclaimed row
    case Op::Annotate: return fetch(); // no claim: the write is conditional and idempotent
    case Op::Apply:
    case Op::Revert:
        if (!claim(b, op))
            return skip();
        return;
    case Op::Skip: break;
    }
}

bool BoostReconciler::claimIsStale(const Boost &b) const {
    if (b.claimUntil < m_opt.clock->nowSecs())
        return true;
    const QStringList parts = b.claimOwner.split(QLatin1Char(':'));
    if (parts.size() != 3 || parts.at(0) != QSysInfo::machineHostName())
        return false;
    bool ok = false;
    const qint64 pid = parts.at(1).toLongLong(&ok);
    if (!ok || pid <= 0 || pid == QCoreApplication::applicationPid())
        return false;
    // The claiming process is gone (killed between its record and its patch).
    return platform::processIsGone(pid);
}

bool BoostReconciler::claim(Boost b, Op op) {
    const Boost::State from = b.state;
    const QString fromOwner = b.claimOwner;
    b.state = op == Op::Apply ? Boost::State::Applying : Boost::State::Reverting;
    b.claimOwner = m_opt.owner;
    b.claimUntil = m_opt.clock->nowSecs() + m_opt.claimSeconds;
    BoostStore &boosts = m_store.boostStore();
    auto ok = boosts.update(b, from, fromOwner);
    if (!ok) {
        m_report.error = ok.error();
        return false;
    }
    if (!*ok)
        return false; // another reconcile got there first
    m_claimed = b;
    if (b.target.kind == BoostTarget::Kind::Budget) // counts by its times alone; only recorded
        m_jobs.post([this] { complete(QString(), QString()); });
    else
        m_jobs.post([this] { fetch(); });
    return true;
}

void BoostReconciler::fetch() {
    if (m_claimed.target.kind == BoostTarget::Kind::ClusterQueue)
        return fetchQueue();
    m_jobs.watch(
        m_client->get(KubeResource::resourceQuotas(), m_claimed.target.subject, m_claimed.target.quota),
        [this](const Result<QJsonObject> &r) { onFetched(r); });
}

void BoostReconciler::onFetched(const Result<QJsonObject> &r) {
    const BoostTarget &t = m_claimed.target;
    if (!r)
        return failCurrent(r.error().kind == Error::Kind::NotFound
                               ? tr("ResourceQuota %1/%2 not found").arg(t.subject, t.quota)
                               : r.error().message);
    const QJsonObject &quota = *r;
    m_note.clear(); // judged again on every read (a 409 re-reads)
    m_enforcement.clear();
    if (m_op == Op::Annotate)
        return onFetchedForAnnotation(quota);
    QList<QJsonObject> entries = boostAnnotationEntries(quota);
    const auto it = std::find_if(entries.begin(), entries.end(), [this](const QJsonObject &e) {
        return e.value(QLatin1String("id")).toInteger() == m_claimed.id;
    });
    const bool onServer = it != entries.end();
    const QJsonObject hard =
        quota.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject();
    if (!hard.contains(t.resource))
        return failCurrent(tr("ResourceQuota %1/%2 no longer has %3").arg(t.subject, t.quota, t.resource));
    auto current = Quantity::parse(hard.value(t.resource).toString(), t.resource);
    auto delta = Quantity::parse(m_claimed.delta, QStringLiteral("delta"));
    if (!current || !delta)
        return failCurrent(!current ? current.error().message : delta.error().message);

    if (m_op == Op::Apply) {
        if (onServer) { // applied by a run that did not live to record it
            auto before = current->minus(*delta);
            const QString beforeText = before ? before->toString() : QString();
            if (annotationEntryIsCurrent(*it, m_claimed))
                return complete(beforeText, current->toString());
            // Its end moved since (an extend): the annotation says so too.
            *it = boostAnnotationEntry(m_claimed);
            return write(quota, withBoostAnnotation(quota, entries), beforeText, current->toString());
        }
        auto raised = current->plus(*delta);
        if (!raised || raised->sign() < 0)
            return failCurrent(
                tr("%1 would become negative (%2 %3)").arg(t.resource, current->toString(), m_claimed.delta));
        entries.append(boostAnnotationEntry(m_claimed));
        if (const QString w = managedfields::revertWarning(quota, t.resource); !w.isEmpty())
            m_note = QStringLiteral("; ") + w; // audited with the apply: it will not last
        return write(quota,
                     withBoostAnnotation(withHardValue(quota, t.resource, raised->toString()), entries),
                     current->toString(), raised->toString());
    }
    if (!onServer) // never applied, or taken back by a run that did not live to record it
        return complete(current->toString(), current->toString());
    if (const auto by = managedfields::overriddenBy(quota, t.resource)) {
        // A GitOps tool (or another re-applier) wrote its own value over ours: the delta
        // is no longer in it, so nothing is taken back; only our annotation entry goes.
        m_note = QStringLiteral("; %1 was reverted by %2 (%3) before the boost ended: nothing taken back")
                     .arg(t.resource, by->manager, by->operation);
        entries.erase(it);
        return write(quota, withBoostAnnotation(quota, entries), current->toString(), current->toString());
    }
    auto lowered = current->minus(*delta);
    if (!lowered)
        return failCurrent(lowered.error().message);
    // Someone lowered it below the boost meanwhile: take back what is left, not more.
    const Quantity result = lowered->sign() < 0 ? Quantity::fromInt(0) : *lowered;
    entries.erase(it);
    write(quota, withBoostAnnotation(withHardValue(quota, t.resource, result.toString()), entries),
          current->toString(), result.toString());
}

// An extended boost: its entry gets the new end; the quota's value is left alone.
void BoostReconciler::onFetchedForAnnotation(const QJsonObject &quota) {
    QList<QJsonObject> entries = boostAnnotationEntries(quota);
    const auto it = std::find_if(entries.begin(), entries.end(), [this](const QJsonObject &e) {
        return e.value(QLatin1String("id")).toInteger() == m_claimed.id;
    });
    const QJsonObject wanted = boostAnnotationEntry(m_claimed);
    if (it == entries.end() || annotationEntryIsCurrent(*it, m_claimed)) // taken back meanwhile, or right
        return completeAnnotation(QString(), QString());
    const QString before = QStringLiteral("until ") + it->value(QLatin1String("expires")).toString();
    *it = wanted;
    write(quota, withBoostAnnotation(quota, entries), before,
          QStringLiteral("until ") + wanted.value(QLatin1String("expires")).toString());
}

void BoostReconciler::write(const QJsonObject &base, const QJsonObject &mine, const QString &before,
                            const QString &after) {
    // The writer before may be the one whose signal brought us here: it is kept until the
    // next write (or this object's end), not deleted later by an event loop a CLI never runs.
    m_retiredWriter = std::move(m_writer);
    m_writer = std::make_unique<QuotaWriter>(m_client);
    QuotaWriter *w = m_writer.get();
    connect(w, &QuotaWriter::stateChanged, this, [this, w, before, after](QuotaWriter::State s) {
        switch (s) {
        case QuotaWriter::State::AwaitingConfirmation: w->confirm(); break;
        case QuotaWriter::State::Applied:
            m_jobs.post([this, before, after] { complete(before, after); });
            break;
        case QuotaWriter::State::Conflict:
            // Changed under us: read again and decide again (the annotation says what is there).
            if (++m_conflicts > m_opt.maxConflicts)
                m_jobs.post(
                    [this] { failCurrent(tr("the quota kept changing on the server (409 Conflict)")); });
            else
                m_jobs.post([this] { fetch(); });
            break;
        case QuotaWriter::State::Failed: {
            const QString why = w->error().message;
            m_jobs.post([this, why] { failCurrent(why); });
            break;
        }
        case QuotaWriter::State::Cancelled:
            m_jobs.post([this] { failCurrent(tr("the write was cancelled")); });
            break;
        default: break;
        }
    });
    if (before != after && !after.startsWith(QLatin1String("until ")))
        m_enforcement = statusShows(base, m_claimed.target.resource, after)
                            ? QStringLiteral("; effective")
                            : QStringLiteral("; pending enforcement (status.hard still shows the old value)");
    QuotaWriter::Request req;
    req.resource = &KubeResource::resourceQuotas();
    req.ns = m_claimed.target.subject;
    req.base = base;
    req.mine = mine;
    req.apiRulesOnly = true; // a machine write: the admin's other keys are not ours to refuse
    // The log as it stands (the boost's grant or extend is in it), published in the same PUT.
    if (auto head = AuditLog(m_store, AuditSigning{}).head(); head && head->count > 0)
        req.auditHead = *head;
    w->start(req);
}

Boost BoostReconciler::finalState(const Boost &claimed, int *missed) const {
    Boost n = settled(claimed);
    *missed = 0;
    if (claimed.recurrence.recurs() && claimed.revokedAt == 0) {
        // The window right for now, however many passed since this one ended.
        if (auto occ = claimed.recurrence.occurrenceAt(m_now, claimed.expiry, missed)) {
            n.state = Boost::State::Scheduled;
            n.start = occ->first;
            n.expiry = occ->second;
            return n;
        }
    }
    n.state = claimed.revokedAt > 0 ? Boost::State::Revoked : Boost::State::Expired;
    return n;
}

BoostTransition BoostReconciler::transition(Boost::State to) const {
    BoostTransition t;
    t.boostId = m_claimed.id;
    t.target = m_claimed.target;
    t.from = m_from;
    t.to = to;
    return t;
}

void BoostReconciler::complete(const QString &before, const QString &after) {
    if (m_op == Op::Annotate)
        return completeAnnotation(before, after);
    Boost n;
    QString action;
    int missed = 0;
    if (m_op == Op::Apply) {
        n = settled(m_claimed);
        n.state = Boost::State::Active;
        action = QStringLiteral("boost.apply");
    } else {
        n = finalState(m_claimed, &missed);
        action = m_claimed.revokedAt > 0 ? QStringLiteral("boost.revert") : QStringLiteral("boost.expire");
    }
    if (m_op == Op::PassWindow && m_claimed.recurrence.recurs())
        ++missed; // the window that ended unapplied counts too
    QString why = m_note + m_enforcement;
    if (missed > 0)
        why += QStringLiteral(" [%1 missed while no reconcile ran, %2 to %3]")
                   .arg(windowsText(missed), formatInstantUtc(m_claimed.expiry), formatInstantUtc(m_now));
    Boost was = m_claimed;
    was.state = m_from; // not the claim
    const auto recorded = record(n, changeaudit::boostStepEntry(action, was, n, before, after, why));
    if (!recorded) {
        m_report.error = recorded.error();
        return finishPass();
    }
    if (*recorded) {
        BoostTransition t = transition(n.state);
        t.before = before;
        t.after = after;
        t.missedWindows = missed;
        t.note = m_note.mid(2); // without the leading "; "
        emitTransition(t);
        continueWith(n);
        return;
    }
    // Not done: the claim was taken over meanwhile; the other run records it.
    m_jobs.post([this] { next(); });
}

// A recurring boost moved to a window that has already begun: apply it in this pass.
void BoostReconciler::continueWith(const Boost &updated) {
    if (updated.state == Boost::State::Scheduled && updated.start <= m_now && updated.expiry > m_now)
        m_queue.prepend(updated.id);
    m_jobs.post([this] { next(); });
}

void BoostReconciler::completeAnnotation(const QString &before, const QString &after) {
    BoostStore &boosts = m_store.boostStore();
    auto cleared = boosts.clearAnnotateMark(m_claimed.id, m_claimed.expiry);
    if (!cleared) {
        m_report.error = cleared.error();
        return finishPass();
    }
    if (!before.isEmpty()) {
        BoostTransition t = transition(Boost::State::Active);
        t.before = before;
        t.after = after;
        emitTransition(t);
    }
    m_jobs.post([this] { next(); });
}

void BoostReconciler::failCurrent(const QString &reason) {
    ++m_report.failed;
    if (m_op == Op::Annotate) {
        // The boost itself is fine; its mark stays, so the next reconcile tries again.
        BoostTransition t = transition(Boost::State::Active);
        t.error = tr("the annotation still shows the old end: %1").arg(reason);
        emitTransition(t);
        m_jobs.post([this] { next(); });
        return;
    }
    Boost n = m_claimed;
    n.state = Boost::State::Failed;
    n.reason = reason;
    n.attempts = m_claimed.attempts + 1;
    n.nextRetry = m_now + retryDelay(n.attempts);
    n.retryOp = m_op == Op::Apply ? QStringLiteral("apply") : QStringLiteral("revert");
    n.claimOwner.clear();
    n.claimUntil = 0;
    Boost was = m_claimed;
    was.state = m_from;
    const auto recorded = record(n, changeaudit::boostFailureEntry(was, reason, n.nextRetry));
    if (!recorded) {
        m_report.error = recorded.error();
        return finishPass();
    }
    if (*recorded) {
        BoostTransition t = transition(Boost::State::Failed);
        t.error = reason;
        t.nextRetry = n.nextRetry;
        emitTransition(t);
    }
    m_jobs.post([this] { next(); });
}

Result<bool> BoostReconciler::record(const Boost &n, const ChangeAuditEntry &entry) {
    UsageTx tx = m_store.transaction();
    auto ok = tx.begin();
    BoostStore &boosts = m_store.boostStore();
    Result<bool> done =
        ok ? boosts.update(n, m_claimed.state, m_claimed.claimOwner) : Result<bool>(ok.error());
    if (!done || !*done)
        return done;
    const Result<void> audited = m_auditSink->append(entry);
    if (auto c = audited ? tx.commit() : audited; !c)
        return c.error();
    return true;
}

void BoostReconciler::emitTransition(const BoostTransition &t) {
    m_report.transitions << t;
    emit transitionMade(t);
}

} // namespace gq
