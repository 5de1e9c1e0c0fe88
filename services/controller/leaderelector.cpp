#include "services/controller/leaderelector.h"

#include "core/domain/clock.h"
#include "core/kube/kubeclient.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QSysInfo>

Q_LOGGING_CATEGORY(lcElection, "gq.controller.election")

namespace gq {

namespace {

const KubeResource &leases() {
    static const KubeResource r{QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"),
                                QStringLiteral("leases"), QStringLiteral("Lease"), true};
    return r;
}

QJsonObject specOf(const QJsonObject &lease) {
    return lease.value(QLatin1String("spec")).toObject();
}

} // namespace

LeaderElector::LeaderElector(std::shared_ptr<KubeClient> client, Options options, QObject *parent)
    : QObject(parent)
    , m_client(std::move(client))
    , m_opt(std::move(options)) {
    if (m_opt.identity.isEmpty())
        m_opt.identity = defaultIdentity();
    // Periodic, not re-armed per answer: a request that hangs still lets the leader
    // notice its renew deadline passing (attempt() checks it while one is out).
    connect(&m_timer, &QTimer::timeout, this, &LeaderElector::attempt);
}

LeaderElector::~LeaderElector() = default;

QString LeaderElector::defaultIdentity() {
    return QStringLiteral("%1_%2_%3")
        .arg(QSysInfo::machineHostName())
        .arg(QCoreApplication::applicationPid())
        .arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16, QLatin1Char('0'));
}

QString LeaderElector::microTimeNow() {
    const QDateTime now = Clock::system().nowUtc();
    return now.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz")) + QStringLiteral("000Z");
}

Result<void> LeaderElector::start() {
    if (!m_client)
        return Error::make(Error::Kind::Config, tr("leader election needs a cluster connection"));
    if (m_opt.ns.isEmpty())
        return Error::make(Error::Kind::Invalid, tr("the Lease's namespace is empty"),
                           QStringLiteral("namespace"));
    if (m_opt.name.isEmpty())
        return Error::make(Error::Kind::Invalid, tr("the Lease's name is empty"), QStringLiteral("name"));
    if (m_opt.leaseDurationSeconds <= 0)
        return Error::make(Error::Kind::Invalid, tr("the lease duration must be positive"),
                           QStringLiteral("leaseDurationSeconds"));
    if (m_opt.renewDeadlineMs <= 0 || m_opt.renewDeadlineMs >= m_opt.leaseDurationSeconds * 1000)
        return Error::make(Error::Kind::Invalid, tr("the renew deadline must be below the lease duration"),
                           QStringLiteral("renewDeadline"));
    if (m_opt.retryPeriodMs <= 0 || m_opt.retryPeriodMs >= m_opt.renewDeadlineMs)
        return Error::make(Error::Kind::Invalid, tr("the retry period must be below the renew deadline"),
                           QStringLiteral("retryPeriod"));
    m_running = true;
    m_timer.start(m_opt.retryPeriodMs);
    QMetaObject::invokeMethod(this, &LeaderElector::attempt, Qt::QueuedConnection);
    return {};
}

void LeaderElector::attempt() {
    if (!m_running)
        return;
    if (m_busy) {
        checkRenewDeadline();
        return;
    }
    m_busy = true;
    m_jobs.watch(m_client->get(leases(), m_opt.ns, m_opt.name),
                 [this](const Result<QJsonObject> &r) { onRead(r); });
}

void LeaderElector::observe(const QJsonObject &lease) {
    const QJsonObject spec = specOf(lease);
    const QString holder = spec.value(QLatin1String("holderIdentity")).toString();
    const QString record = holder + QLatin1Char('|') + spec.value(QLatin1String("renewTime")).toString() +
                           QLatin1Char('|') +
                           QString::number(spec.value(QLatin1String("leaseTransitions")).toInt());
    if (record != m_observedRecord || !m_observedAt.isValid()) {
        m_observedRecord = record;
        m_observedAt.start();
    }
    if (holder != m_observedHolder) {
        m_observedHolder = holder;
        emit leaderChanged(holder);
    }
    const int duration = spec.value(QLatin1String("leaseDurationSeconds")).toInt(m_opt.leaseDurationSeconds);
    setHeldUntil(holder.isEmpty() ? 0
                                  : QDeadlineTimer::current().deadline() + qint64(duration) * 1000 -
                                        m_observedAt.elapsed());
}

void LeaderElector::setHeldUntil(qint64 ms) {
    if (m_heldUntilMs.exchange(ms) != ms)
        emit heldUntilChanged(ms);
}

// Every failed read, create or renewal is logged, at most one line per 30 s with the
// count of those not logged: a namespace that does not exist, RBAC, an API server
// down. A conflict (another replica wrote first) is the protocol working, not logged.
void LeaderElector::failed(const Error &error) {
    if (error.kind != Error::Kind::Conflict && error.kind != Error::Kind::AlreadyExists) {
        qint64 suppressed = 0;
        if (m_failureLog.allow(suppressed))
            qCWarning(lcElection).noquote()
                << QStringLiteral("leader election: Lease %1/%2: %3%4")
                       .arg(m_opt.ns, m_opt.name, error.toString(),
                            suppressed > 0
                                ? QStringLiteral(" (%1 more failures since the last line)").arg(suppressed)
                                : QString());
    }
    emit attemptFailed(error);
}

QJsonObject LeaderElector::leaseFor(const QJsonObject &current, bool takeOver) const {
    QJsonObject lease = current;
    QJsonObject spec = specOf(current);
    const QString now = microTimeNow();
    spec.insert(QStringLiteral("holderIdentity"), m_opt.identity);
    spec.insert(QStringLiteral("leaseDurationSeconds"), m_opt.leaseDurationSeconds);
    spec.insert(QStringLiteral("renewTime"), now);
    if (takeOver || current.isEmpty()) {
        spec.insert(QStringLiteral("acquireTime"), now);
        spec.insert(QStringLiteral("leaseTransitions"),
                    current.isEmpty() ? 0 : spec.value(QLatin1String("leaseTransitions")).toInt() + 1);
    }
    lease.insert(QStringLiteral("spec"), spec);
    if (current.isEmpty()) {
        lease.insert(QStringLiteral("apiVersion"), QStringLiteral("coordination.k8s.io/v1"));
        lease.insert(QStringLiteral("kind"), QStringLiteral("Lease"));
        lease.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), m_opt.name},
                                                             {QStringLiteral("namespace"), m_opt.ns}});
    }
    return lease;
}

void LeaderElector::onRead(const Result<QJsonObject> &r) {
    if (!m_running) {
        m_busy = false;
        return;
    }
    if (!r && r.error().kind == Error::Kind::NotFound) {
        m_jobs.watch(m_client->create(leases(), m_opt.ns, leaseFor({}, true)),
                     [this](const Result<QJsonObject> &w) { onWritten(w); });
        return;
    }
    if (!r) {
        m_busy = false;
        failed(r.error());
        checkRenewDeadline();
        return;
    }
    observe(*r);
    const QString holder = specOf(*r).value(QLatin1String("holderIdentity")).toString();
    if (holder == m_opt.identity) {
        m_jobs.watch(m_client->replace(leases(), m_opt.ns, leaseFor(*r, !m_leader && !m_lastRenew.isValid())),
                     [this](const Result<QJsonObject> &w) { onWritten(w); });
        return;
    }
    if (m_leader)
        setLeader(false); // someone else holds it now: we must not act as leader any more
    const int duration =
        specOf(*r).value(QLatin1String("leaseDurationSeconds")).toInt(m_opt.leaseDurationSeconds);
    const bool expired = holder.isEmpty() || m_observedAt.hasExpired(qint64(duration) * 1000);
    if (!expired) {
        m_busy = false;
        return;
    }
    m_jobs.watch(m_client->replace(leases(), m_opt.ns, leaseFor(*r, true)),
                 [this](const Result<QJsonObject> &w) { onWritten(w); });
}

void LeaderElector::onWritten(const Result<QJsonObject> &r) {
    m_busy = false;
    if (!m_running)
        return;
    if (r) {
        observe(*r);
        m_lastRenew.start();
        setLeader(true);
        return;
    }
    failed(r.error());
    // A 409 or AlreadyExists: another replica wrote first; the next read says who leads.
    checkRenewDeadline();
}

void LeaderElector::checkRenewDeadline() {
    if (m_leader && (!m_lastRenew.isValid() || m_lastRenew.hasExpired(m_opt.renewDeadlineMs)))
        setLeader(false);
}

void LeaderElector::setLeader(bool leader) {
    if (leader == m_leader)
        return;
    m_leader = leader;
    if (leader) {
        emit becameLeader();
    } else {
        m_lastRenew.invalidate();
        emit lostLeadership();
    }
}

void LeaderElector::release() {
    const bool wasLeader = m_leader;
    m_running = false;
    m_timer.stop();
    m_jobs.cancel();
    m_busy = false;
    if (!wasLeader) {
        QMetaObject::invokeMethod(this, &LeaderElector::releaseFinished, Qt::QueuedConnection);
        return;
    }
    setLeader(false); // stop acting as leader before the Lease says anything else
    m_jobs.watch(m_client->get(leases(), m_opt.ns, m_opt.name), [this](const Result<QJsonObject> &r) {
        if (!r || specOf(*r).value(QLatin1String("holderIdentity")).toString() != m_opt.identity) {
            emit releaseFinished();
            return;
        }
        QJsonObject lease = *r;
        QJsonObject spec = specOf(lease);
        spec.insert(QStringLiteral("holderIdentity"), QString());
        spec.insert(QStringLiteral("leaseDurationSeconds"), 1);
        spec.insert(QStringLiteral("renewTime"), microTimeNow());
        lease.insert(QStringLiteral("spec"), spec);
        m_jobs.watch(m_client->replace(leases(), m_opt.ns, lease),
                     [this](const Result<QJsonObject> &) { emit releaseFinished(); });
    });
}

} // namespace gq
