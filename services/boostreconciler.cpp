#include "boostreconciler.h"

#include "auditlog.h"
#include "boostledger.h"
#include "kubeclient.h"
#include "quantity.h"
#include "quotawriter.h"
#include "timewindow.h"
#include "usageconnection.h"
#include "usagestore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSysInfo>

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace gq {

const QString BoostReconciler::kAnnotation = QStringLiteral("gpuquota.io/boosts");

namespace {
qint64 wallNow() {
    return QDateTime::currentSecsSinceEpoch();
}

QString targetText(const BoostTarget &t) {
    if (t.kind == BoostTarget::Kind::Budget)
        return QStringLiteral("budget %1 %2").arg(scopeName(t.scope), t.subject);
    return QStringLiteral("%1/%2 %3").arg(t.subject, t.quota, t.resource);
}

QJsonObject withAnnotationEntries(QJsonObject quota, const QList<QJsonObject> &entries) {
    QJsonObject meta = quota.value(QLatin1String("metadata")).toObject();
    QJsonObject annotations = meta.value(QLatin1String("annotations")).toObject();
    if (entries.isEmpty()) {
        annotations.remove(BoostReconciler::kAnnotation);
    } else {
        QJsonArray arr;
        for (const QJsonObject &e : entries)
            arr.append(e);
        annotations.insert(BoostReconciler::kAnnotation,
                           QString::fromUtf8(QJsonDocument(arr).toJson(QJsonDocument::Compact)));
    }
    meta.insert(QStringLiteral("annotations"), annotations);
    quota.insert(QStringLiteral("metadata"), meta);
    return quota;
}

QJsonObject withHard(QJsonObject quota, const QString &resource, const QString &value) {
    QJsonObject spec = quota.value(QLatin1String("spec")).toObject();
    QJsonObject hard = spec.value(QLatin1String("hard")).toObject();
    hard.insert(resource, value);
    spec.insert(QStringLiteral("hard"), hard);
    quota.insert(QStringLiteral("spec"), spec);
    return quota;
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

QList<QJsonObject> BoostReconciler::annotationEntries(const QJsonObject &quota) {
    const QString text = quota.value(QLatin1String("metadata"))
                             .toObject()
                             .value(QLatin1String("annotations"))
                             .toObject()
                             .value(kAnnotation)
                             .toString();
    QList<QJsonObject> out;
    for (const QJsonValue &v : QJsonDocument::fromJson(text.toUtf8()).array())
        if (v.isObject())
            out << v.toObject();
    return out;
}

bool BoostReconciler::start(qint64 now, qint64 onlyBoost) {
    if (m_running)
        return false;
    m_running = true;
    m_now = now;
    m_report = {};
    m_queue.clear();
    BoostStore boosts(m_store.connection());
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
    QEventLoop loop;
    ReconcileReport report;
    const auto c = connect(this, &BoostReconciler::finished, &loop, [&](const ReconcileReport &r) {
        report = r;
        loop.quit();
    });
    if (start(now, onlyBoost))
        loop.exec();
    disconnect(c);
    return report;
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
    BoostStore boosts(m_store.connection());
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

void BoostReconciler::handle(const Boost &b) {
    const auto skip = [this] { m_jobs.post([this] { next(); }); };
    switch (b.state) {
    case Boost::State::Scheduled:
        if (b.start > m_now)
            return skip();
        if (b.expiry <= m_now) {
            // The window passed before any reconcile ran: nothing was ever applied
            // (applying is the only way onto the cluster), so it just ends.
            m_from = b.state;
            m_op = Op::Revert;
            m_claimed = b;
            complete(QString(), QString());
            return;
        }
        if (!claim(b, Op::Apply))
            return skip();
        return;
    case Boost::State::Active:
        if (b.expiry > m_now || !claim(b, Op::Revert))
            return skip();
        return;
    case Boost::State::Failed: {
        if (b.nextRetry > m_now)
            return skip();
        const Op op = b.retryOp == QLatin1String("revert") || b.expiry <= m_now ? Op::Revert : Op::Apply;
        if (!claim(b, op))
            return skip();
        return;
    }
    case Boost::State::Applying:
    case Boost::State::Reverting:
        if (b.claimOwner == m_opt.owner || !claimIsStale(b) ||
            !claim(b, b.state == Boost::State::Applying ? Op::Apply : Op::Revert))
            return skip();
        return;
    case Boost::State::Expired:
    case Boost::State::Revoked: return skip();
    }
}

bool BoostReconciler::claimIsStale(const Boost &b) const {
    if (b.claimUntil < wallNow())
        return true;
    const QStringList parts = b.claimOwner.split(QLatin1Char(':'));
    if (parts.size() != 3 || parts.at(0) != QSysInfo::machineHostName())
        return false;
    bool ok = false;
    const qint64 pid = parts.at(1).toLongLong(&ok);
    if (!ok || pid <= 0 || pid == QCoreApplication::applicationPid())
        return false;
    // The claiming process is gone (killed between its record and its patch).
    return ::kill(static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH;
}

bool BoostReconciler::claim(Boost b, Op op) {
    const Boost::State from = b.state;
    const QString fromOwner = b.claimOwner;
    b.state = op == Op::Apply ? Boost::State::Applying : Boost::State::Reverting;
    b.claimOwner = m_opt.owner;
    b.claimUntil = wallNow() + m_opt.claimSeconds;
    BoostStore boosts(m_store.connection());
    auto ok = boosts.update(b, from, fromOwner);
    if (!ok) {
        m_report.error = ok.error();
        return false;
    }
    if (!*ok)
        return false; // another reconcile got there first
    m_claimed = b;
    m_from = from;
    m_op = op;
    m_conflicts = 0;
    if (b.target.kind == BoostTarget::Kind::Budget) {
        // A budget boost counts by its times alone; the lifecycle is only recorded.
        m_jobs.post([this] { complete(QString(), QString()); });
    } else if (!m_client) {
        m_jobs.post([this] {
            failCurrent(tr("no cluster connection to patch the quota (--kubeconfig, --context)"));
        });
    } else {
        m_jobs.post([this] { fetch(); });
    }
    return true;
}

void BoostReconciler::fetch() {
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
    QList<QJsonObject> entries = annotationEntries(quota);
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
            return complete(before ? before->toString() : QString(), current->toString());
        }
        auto raised = current->plus(*delta);
        if (!raised || raised->sign() < 0)
            return failCurrent(
                tr("%1 would become negative (%2 %3)").arg(t.resource, current->toString(), m_claimed.delta));
        entries.append(QJsonObject{{QStringLiteral("id"), m_claimed.id},
                                   {QStringLiteral("resource"), t.resource},
                                   {QStringLiteral("delta"), m_claimed.delta},
                                   {QStringLiteral("expires"), formatInstantUtc(m_claimed.expiry)}});
        return write(quota, withAnnotationEntries(withHard(quota, t.resource, raised->toString()), entries),
                     current->toString(), raised->toString());
    }
    if (!onServer) // never applied, or taken back by a run that did not live to record it
        return complete(current->toString(), current->toString());
    auto lowered = current->minus(*delta);
    if (!lowered)
        return failCurrent(lowered.error().message);
    // Someone lowered it below the boost meanwhile: take back what is left, not more.
    const Quantity result = lowered->sign() < 0 ? Quantity::fromInt(0) : *lowered;
    entries.erase(it);
    write(quota, withAnnotationEntries(withHard(quota, t.resource, result.toString()), entries),
          current->toString(), result.toString());
}

void BoostReconciler::write(const QJsonObject &base, const QJsonObject &mine, const QString &before,
                            const QString &after) {
    if (m_writer)
        m_writer.release()->deleteLater(); // may be the one whose signal brought us here
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
    QuotaWriter::Request req;
    req.resource = &KubeResource::resourceQuotas();
    req.ns = m_claimed.target.subject;
    req.base = base;
    req.mine = mine;
    w->start(req);
}

Boost BoostReconciler::finalState(const Boost &claimed) const {
    Boost n = claimed;
    n.claimOwner.clear();
    n.claimUntil = 0;
    n.reason.clear();
    n.retryOp.clear();
    n.nextRetry = 0;
    n.attempts = 0;
    if (claimed.recurrence.recurs() && claimed.revokedAt == 0) {
        if (auto occ = claimed.recurrence.nextOccurrence(claimed.expiry)) {
            n.state = Boost::State::Scheduled;
            n.start = occ->first;
            n.expiry = occ->second;
            return n;
        }
    }
    n.state = claimed.revokedAt > 0 ? Boost::State::Revoked : Boost::State::Expired;
    return n;
}

void BoostReconciler::complete(const QString &before, const QString &after) {
    Boost n;
    QString action;
    if (m_op == Op::Apply) {
        n = m_claimed;
        n.state = Boost::State::Active;
        n.claimOwner.clear();
        n.claimUntil = 0;
        n.reason.clear();
        n.retryOp.clear();
        n.nextRetry = 0;
        n.attempts = 0;
        action = QStringLiteral("boost.apply");
    } else {
        n = finalState(m_claimed);
        action = m_claimed.revokedAt > 0 ? QStringLiteral("boost.revert") : QStringLiteral("boost.expire");
    }
    UsageConnection &conn = m_store.connection();
    UsageTx tx(conn);
    auto ok = tx.begin();
    BoostStore boosts(conn);
    Result<bool> done =
        ok ? boosts.update(n, m_claimed.state, m_claimed.claimOwner) : Result<bool>(ok.error());
    if (!done) {
        m_report.error = done.error();
        return finishPass();
    }
    if (*done) {
        const bool budget = m_claimed.target.kind == BoostTarget::Kind::Budget;
        const QString delta = budget ? QStringLiteral("%1 GPU-hours").arg(m_claimed.delta) : m_claimed.delta;
        AuditLog log(m_store);
        auto entry = log.append(
            m_opt.actor, action, BoostLedger::auditTarget(m_claimed.target),
            budget ? QStringLiteral("boost %1: %2").arg(m_claimed.id).arg(boostStateName(m_from)) : before,
            budget ? QStringLiteral("boost %1: %2 (%3)").arg(m_claimed.id).arg(boostStateName(n.state), delta)
                   : after,
            QStringLiteral("boost %1 (%2): %3").arg(m_claimed.id).arg(delta, m_claimed.note));
        if (auto c = entry ? tx.commit() : Result<void>(entry.error()); !c) {
            m_report.error = c.error();
            return finishPass();
        }
        BoostTransition t;
        t.boostId = m_claimed.id;
        t.target = m_claimed.target;
        t.from = m_from;
        t.to = n.state;
        t.before = before;
        t.after = after;
        emitTransition(t);
    }
    // Not done: the claim was taken over meanwhile; the other run records it.
    m_jobs.post([this] { next(); });
}

void BoostReconciler::failCurrent(const QString &reason) {
    Boost n = m_claimed;
    n.state = Boost::State::Failed;
    n.reason = reason;
    n.attempts = m_claimed.attempts + 1;
    n.nextRetry = m_now + retryDelay(n.attempts);
    n.retryOp = m_op == Op::Apply ? QStringLiteral("apply") : QStringLiteral("revert");
    n.claimOwner.clear();
    n.claimUntil = 0;
    ++m_report.failed;
    UsageConnection &conn = m_store.connection();
    UsageTx tx(conn);
    auto ok = tx.begin();
    BoostStore boosts(conn);
    Result<bool> done =
        ok ? boosts.update(n, m_claimed.state, m_claimed.claimOwner) : Result<bool>(ok.error());
    if (!done) {
        m_report.error = done.error();
        return finishPass();
    }
    if (*done) {
        AuditLog log(m_store);
        auto entry =
            log.append(m_opt.actor, QStringLiteral("boost.fail"), BoostLedger::auditTarget(m_claimed.target),
                       QStringLiteral("boost %1: %2").arg(m_claimed.id).arg(boostStateName(m_from)),
                       QStringLiteral("boost %1: failed: %2; retry at %3")
                           .arg(m_claimed.id)
                           .arg(reason, formatInstantUtc(n.nextRetry)),
                       m_claimed.note);
        if (auto c = entry ? tx.commit() : Result<void>(entry.error()); !c) {
            m_report.error = c.error();
            return finishPass();
        }
        BoostTransition t;
        t.boostId = m_claimed.id;
        t.target = m_claimed.target;
        t.from = m_from;
        t.to = Boost::State::Failed;
        t.error = reason;
        t.nextRetry = n.nextRetry;
        emitTransition(t);
    }
    m_jobs.post([this] { next(); });
}

void BoostReconciler::emitTransition(const BoostTransition &t) {
    m_report.transitions << t;
    emit transitionMade(t);
}

} // namespace gq
